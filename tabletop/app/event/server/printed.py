"""The printables the TO's console opens: ``event print``'s HTML, with codes and the QR code.

The console asks for them with the TO's token; match slips then carry each player's code
(from the secrets file) and every printable the QR code of the public page.
"""

from __future__ import annotations

import html

from tabletop.app.event.printables import _printable
from tabletop.app.event.server.hub import EventHub
from tabletop.app.event.server.qr import qr_svg

__all__ = ["printable_html"]


def _codes(hub: EventHub) -> str:
    snapshot = hub.snapshot
    rows = "".join(
        f"<tr><td>{html.escape(p.name)} ({html.escape(p.id)})</td>"
        f"<td><code>{html.escape(snapshot.secrets.codes.get(p.id, ''))}</code></td></tr>"
        for p in snapshot.event.players
    )
    return (
        "<section style='page-break-before:always'><h2>Players' codes</h2>"
        "<p>Each player opens the address below, then /me and types the code.</p>"
        f"<table>{rows}</table></section>"
    )


def printable_html(hub: EventHub, what: str, public_url: str | None = None) -> str:
    """Return ``event print --what WHAT`` as HTML, with the codes (slips) and the QR code."""
    snapshot = hub.refresh()
    page = _printable(snapshot.event, what, "html")
    text = page.decode("utf-8") if isinstance(page, bytes) else page
    extra = ""
    if what == "slips":
        extra += _codes(hub)
    url = public_url or getattr(hub, "public_url", None)
    if url:
        picture = qr_svg(url)
        if picture:
            extra += f"<p>Pairings, clock and standings: {html.escape(url)}</p>{picture}"
    return text.replace("</body>", extra + "</body>") if "</body>" in text else text + extra
