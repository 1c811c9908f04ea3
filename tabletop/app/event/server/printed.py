"""The printables the TO's console opens: ``event print``'s HTML, and the QR code.

The console asks for them with the TO's token; match slips carry both players' codes
(as ``event print --what slips`` prints them) and every printable the QR code of the
public page.
"""

from __future__ import annotations

from tabletop.app.event.printables import printable_data
from tabletop.app.event.server.hub import EventHub
from tabletop.app.event.server.qr import with_qr

__all__ = ["printable_html"]


def printable_html(hub: EventHub, what: str, public_url: str | None = None) -> str:
    """Return ``event print --what WHAT`` as HTML, with the codes (slips) and the QR code."""
    snapshot = hub.refresh()
    page = printable_data(snapshot.event, what, "html", snapshot.secrets.codes)
    text = page.decode("utf-8") if isinstance(page, bytes) else page
    return with_qr(text, public_url or hub.public_url)
