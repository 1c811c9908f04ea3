"""Open a scene on a to-scale board in the browser, every verdict the command line's.

  tabletop serve [SCENE | SAVE] [--table T] [--step N] [--phase P]
                 [--port 8765] [--host 127.0.0.1] [--open] [--read-only]

Without a file the board starts on an empty 3'x3' X-Wing 2.0 table; with a scene file
(.toml or .json) or a client save (a Tabletop Simulator save, a VASSAL .vsav or .vlog,
recognised by content) it opens that, a save imported as tabletop import reads it. The
server prints its address and stays in the foreground; Ctrl-C stops it (exit 130). It listens on 127.0.0.1 unless
--host names another address, and says so when that address is not this machine's
loopback. One server holds one board; every tab open on it shows the same board.

  --port N      the port (default 8765; 0 picks a free one)
  --host H      the address to listen on (default 127.0.0.1)
  --open        open the page in the default browser
  --read-only   refuse every change and save (403)
  --table T     a client save: the mat used, by GUID or nickname (two mats with pieces)
  --step N      a VASSAL log: the position after its N-th entry (default its last)
  --phase P     a client save: the scene's phase, play (default) or setup

Saving (the page's save button, POST /api/save) writes the board over the scene file it
was started with, atomically and in that file's format; started on a client save or on
no file, it writes NAME.board.toml beside the save (or board.toml in the working
folder), never over a file it did not create. Needs the serve extra:
pip install 'tabletop-judge[serve]'.
"""

from __future__ import annotations

import argparse
import threading
from typing import TYPE_CHECKING, TextIO

from tabletop.app.board.document import BoardDocument
from tabletop.app.cli import EXIT_INTERRUPTED, EXIT_OK
from tabletop.app.scene.sources import add_client_options
from tabletop.app.web.guard import (
    MAX_BODY_BYTES,
    MESSAGES_PER_SECOND,
    RATE_PER_SECOND,
    is_loopback,
)
from tabletop.app.web.runner import bind, port_number, require_serve, serve, url_of
from tabletop.geom.errors import InvalidInputError

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = ["DEFAULT_PORT", "create_app", "register", "run"]

#: The port the board listens on unless told otherwise.
DEFAULT_PORT = 8765


def create_app(
    board: BoardDocument,
    *,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    rate: int | None = RATE_PER_SECOND,
    message_rate: int | None = MESSAGES_PER_SECOND,
    max_body: int = MAX_BODY_BYTES,
) -> Starlette:
    """Return the board's ASGI application for a server at `host`:`port`.

    Parameters
    ----------
    board : BoardDocument
        The board it holds.
    host, port : str, int
        The address the server is reached at: requests naming another ``Host`` or
        ``Origin`` are refused (:mod:`tabletop.app.web.guard`).
    rate : int or None
        Most requests per second per client (None: no limit).
    message_rate : int or None
        Most messages per second on one live-verdict WebSocket (None: no limit).
    max_body : int
        Largest request body, bytes.
    """
    from tabletop.app.board import api
    from tabletop.app.web.runner import create_app as web_app

    state = {"board": board}
    return web_app(
        api.routes(),
        host=host,
        port=port,
        state=state,
        rate=rate,
        message_rate=message_rate,
        max_body=max_body,
    )


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's arguments."""
    parser.add_argument(
        "scene", nargs="?", metavar="SCENE | SAVE", help="scene file or client save to open"
    )
    parser.add_argument(
        "--port", type=port_number, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})"
    )
    parser.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1)")
    parser.add_argument("--open", action="store_true", help="open the page in the browser")
    parser.add_argument("--read-only", action="store_true", help="refuse every change and save")
    add_client_options(parser)
    parser.add_argument("--json", action="store_true", help="accepted; the API is JSON")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the command: serve the board until Ctrl-C."""
    require_serve("the board")
    if args.scene == "-":
        raise InvalidInputError("the board reads a file, not standard input", where="SCENE")
    # a save's options, as every scene command reads them (absent: None)
    chosen = {name: getattr(args, name, None) for name in ("table", "step", "phase")}
    board = BoardDocument.open(args.scene, read_only=args.read_only, **chosen)
    listener = bind(args.host, args.port)
    port = int(listener.getsockname()[1])
    url = url_of(args.host, port)
    app = create_app(board, host=args.host, port=port)
    opened = "an empty 3'x3' X-Wing 2.0 table" if args.scene is None else args.scene
    given = [f"--{name} {value}" for name, value in chosen.items() if value is not None]
    opened += f" ({', '.join(given)})" if given else ""
    mode = ", read-only" if args.read_only else ""
    out.write(f"tabletop serve: {opened} on {url}{mode} (Ctrl-C stops it)\n")
    if not is_loopback(args.host):
        out.write(
            f"tabletop serve: listening on {args.host}, not only on this machine's loopback: "
            "other machines that reach it may use the board\n"
        )
    out.flush()
    if args.open:
        import webbrowser

        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    try:
        interrupted = serve(app, listener)
    except KeyboardInterrupt:  # uvicorn raises SIGINT again once it has shut down
        interrupted = True
    finally:
        listener.close()
    return EXIT_INTERRUPTED if interrupted else EXIT_OK
