"""``tabletop event serve EVENT`` and ``tabletop event codes EVENT``.

  serve EVENT [--host H] [--port N] [--public-url URL] [--read-only]
  codes EVENT [--player ID] [--reset ID]

``serve`` prints the public address, the TO console's address (the token in its
fragment, which no browser sends to a server) and where the secrets file is, then
serves until Ctrl-C; nothing is written on stop. ``codes`` prints the players' codes
(creating the secrets file on first use) or gives one player a new code.
"""

from __future__ import annotations

import argparse
import logging
import socket
from typing import TYPE_CHECKING, Any, TextIO
from urllib.parse import urlsplit

from tabletop.app.cli import EXIT_INTERRUPTED, EXIT_OK, UsageError, add_action, emit_json
from tabletop.app.common.text import printable
from tabletop.app.event.eventfile import load_event
from tabletop.app.event.server.secretsfile import ensure_secrets, remember_url, reset_code
from tabletop.app.web.guard import RATE_PER_SECOND, is_loopback
from tabletop.app.web.runner import bind, port_number, require_serve, serve, url_of

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from tabletop.app.event.server.hub import EventHub

__all__ = ["DEFAULT_PORT", "MAX_BODY", "codes_action", "create_app", "register", "serve_action"]

#: The port the event's pages listen on unless told otherwise.
DEFAULT_PORT = 8766
#: Largest request body of the event's API, bytes (64 KiB).
MAX_BODY = 64 * 1024


def register(actions: argparse._SubParsersAction[Any]) -> None:
    """Add ``serve`` and ``codes`` to ``tabletop event``."""
    serve_ = add_action(
        actions, "serve", "the event in the browser: public page, players, TO console"
    )
    serve_.add_argument("event", metavar="EVENT", help="the event file (.toml or .json)")
    serve_.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1)")
    serve_.add_argument(
        "--port", type=port_number, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})"
    )
    serve_.add_argument("--public-url", help="the address players use (a proxy's), for the QR code")
    serve_.add_argument("--read-only", action="store_true", help="every write is refused (403)")
    serve_.add_argument(
        "--rate",
        type=_rate,
        default=RATE_PER_SECOND,
        metavar="N",
        help=f"most requests a second from one address (default {RATE_PER_SECOND})",
    )
    codes = add_action(actions, "codes", "print or replace the players' codes")
    codes.add_argument("event", metavar="EVENT", help="the event file (.toml or .json)")
    codes.add_argument("--player", help="print this player's code only")
    codes.add_argument("--reset", metavar="ID", help="give this player a new code")


def _rate(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 1 <= value <= 100_000:
        raise argparse.ArgumentTypeError(f"expected 1 to 100000 requests a second, got {value}")
    return value


def create_app(
    hub: EventHub,
    *,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    public_url: str | None = None,
    rate: int | None = RATE_PER_SECOND,
) -> Starlette:
    """Return the ASGI application of the event's pages and API, behind the shared guard."""
    from tabletop.app.event.server import api
    from tabletop.app.web.runner import create_app as web_app
    from tabletop.app.web.static import StaticFolder

    names: list[str] = []
    origins: list[str] = []
    if public_url:
        parts = urlsplit(public_url)
        if parts.netloc:
            names.append(parts.netloc.lower())
            origins.append(f"{parts.scheme}://{parts.netloc}".lower())
    state = {"hub": hub, "failures": api.Failures(), "folder": StaticFolder(api.STATIC)}
    hub.public_url = public_url or url_of(host, port)
    return web_app(
        api.routes(),
        host=host,
        port=port,
        state=state,
        rate=rate,
        max_body=MAX_BODY,
        hosts=names,
        origins=origins,
    )


def _addresses(host: str, port: int) -> list[str]:
    """Return the addresses a phone can use: every address of this machine when on all."""
    if host not in ("0.0.0.0", "::"):
        return [url_of(host, port)]
    found: list[str] = []
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, type=socket.SOCK_STREAM)
    except OSError:
        infos = []
    addresses = [str(info[4][0]) for info in infos]
    try:  # the address of the route out (a datagram socket sends nothing to connect)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            addresses.insert(0, str(probe.getsockname()[0]))
    except OSError:
        pass
    for address in addresses:
        if not is_loopback(address) and address != "0.0.0.0" and url_of(address, port) not in found:
            found.append(url_of(address, port))
    return found or [url_of(host, port)]


def serve_action(args: argparse.Namespace, operands: list[str], out: TextIO) -> int:
    """Serve the event until Ctrl-C."""
    require_serve("the event's pages")
    from tabletop.app.event.server.hub import EventHub
    from tabletop.app.event.server.qr import qr_text

    (source,) = operands
    hub = EventHub(source, read_only=args.read_only)
    listener = bind(args.host, args.port)
    port = int(listener.getsockname()[1])
    addresses = _addresses(args.host, port)
    public = args.public_url or addresses[0]
    app = create_app(hub, host=args.host, port=port, public_url=args.public_url, rate=args.rate)
    remember_url(source, public)  # for the QR code of event print
    mode = " (read-only)" if args.read_only else ""
    lines = [f"tabletop event serve: {source} on {addresses[0]}{mode} (Ctrl-C stops it)"]
    lines += [f"  public page: {a}" for a in ([public] if args.public_url else addresses)]
    lines.append(
        f"  TO console: {url_of(args.host if is_loopback(args.host) else '127.0.0.1', port)}to#{hub.snapshot.secrets.token}"
    )
    lines.append(
        f"  secrets: {hub.snapshot.secrets.path} (mode 0600: the TO token, players' codes)"
    )
    out.write("\n".join(printable(line) for line in lines) + "\n")
    if not is_loopback(args.host):
        drawn = qr_text(public)
        if drawn:
            out.write(drawn + "\n")
    out.flush()
    logging.getLogger("tabletop.web").addHandler(logging.StreamHandler())
    hub.watch()
    try:
        interrupted = serve(app, listener)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        hub.stop()
        listener.close()
    return EXIT_INTERRUPTED if interrupted else EXIT_OK


def codes_action(args: argparse.Namespace, operands: list[str], out: TextIO) -> int:
    """Print the players' codes, or give one player a new code."""
    (source,) = operands
    event = load_event(source)
    ids = [p.id for p in event.players]
    for given in (args.player, args.reset):
        if given is not None and given not in ids:
            raise UsageError(f"no player {given!r} in {source}")
    secret = ensure_secrets(source, ids)
    if args.reset is not None:
        secret = reset_code(source, args.reset)
    shown = [p for p in event.players if args.player in (None, p.id) and args.reset in (None, p.id)]
    rows = [{"id": p.id, "name": p.name, "code": secret.codes[p.id]} for p in shown]
    if args.json:
        emit_json({"secrets": str(secret.path), "codes": rows}, out)
        return EXIT_OK
    width = max((len(r["id"]) for r in rows), default=0)
    lines = [f"{r['id'].ljust(width)}  {r['code']}  {r['name']}" for r in rows]
    lines.append(f"(from {secret.path}, mode 0600)")
    out.write("\n".join(printable(line) for line in lines) + "\n")
    return EXIT_OK
