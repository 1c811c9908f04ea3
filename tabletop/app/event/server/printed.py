"""The printables the TO's console opens: ``event print``'s HTML, and the QR code.

The console asks for them with the TO's token; match slips carry both players' codes
(as ``event print --what slips`` prints them) and every printable the QR code of the
public page.
"""

from __future__ import annotations

import html

from tabletop.app.event.printables import _printable
from tabletop.app.event.server.hub import EventHub
from tabletop.app.event.server.qr import qr_svg

__all__ = ["printable_html"]


def printable_html(hub: EventHub, what: str, public_url: str | None = None) -> str:
    """Return ``event print --what WHAT`` as HTML, with the codes (slips) and the QR code."""
    snapshot = hub.refresh()
    page = _printable(snapshot.event, what, "html", snapshot.secrets.codes)
    text = page.decode("utf-8") if isinstance(page, bytes) else page
    extra = ""
    url = public_url or getattr(hub, "public_url", None)
    if url:
        picture = qr_svg(url)
        if picture:
            extra += f"<p>Pairings, clock and standings: {html.escape(url)}</p>{picture}"
    return text.replace("</body>", extra + "</body>") if "</body>" in text else text + extra
