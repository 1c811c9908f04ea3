"""A server's socket, its application assembled behind the guard, and uvicorn run with timeouts.

Every server of the project is built the same way: :func:`bind` the address (the
command's ``--host`` and ``--port``), :func:`create_app` from its routes (the guard of
:mod:`tabletop.app.web.guard` in front, the error object for refusals and unknown routes),
then :func:`serve` until Ctrl-C. The server gives a client :data:`HEADER_SECONDS` to send
a request's headers (a connection that sends half a header and waits is closed, answered
408) and closes a connection idle :data:`IDLE_SECONDS` after its last answer; a request
that is not HTTP is answered 400 with the error object, not plain text. A WebSocket is
spoken by uvicorn's wsproto protocol (the serve extra installs wsproto), a message held
to :data:`~tabletop.app.web.guard.MAX_BODY_BYTES` and sent uncompressed (its answers are a
few kilobytes, and a frame's time matters more than their size).
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import signal
import socket
from collections.abc import Mapping, Sequence
from types import FrameType
from typing import TYPE_CHECKING, Any

from tabletop.app.web.guard import (
    BODY_SECONDS,
    MAX_BODY_BYTES,
    MESSAGES_PER_SECOND,
    RATE_PER_SECOND,
    error_body,
    own_addresses,
)
from tabletop.geom.errors import InvalidInputError

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.routing import BaseRoute

__all__ = [
    "HEADER_SECONDS",
    "IDLE_SECONDS",
    "bind",
    "create_app",
    "make_server",
    "port_number",
    "require_serve",
    "serve",
    "url_of",
]

#: Longest a client may take to send a request's headers, seconds.
HEADER_SECONDS = 5.0
#: Longest a connection may stay open with no request after an answer, seconds.
IDLE_SECONDS = 5.0

_log = logging.getLogger("tabletop.web")


def require_serve(what: str) -> None:
    """Refuse to serve `what`, naming the extra to install, where a package of it is missing.

    Raises
    ------
    InvalidInputError
        When one of them cannot be imported.
    """
    needed = ("starlette", "uvicorn", "wsproto")
    missing = [name for name in needed if importlib.util.find_spec(name) is None]
    if missing:
        raise InvalidInputError(
            f"{what} needs {' and '.join(missing)}, not installed; "
            "install the serve extra: pip install 'tabletop-judge[serve]'"
        )


def create_app(
    routes: Sequence[BaseRoute],
    *,
    host: str,
    port: int,
    state: Mapping[str, Any] | None = None,
    rate: int | None = RATE_PER_SECOND,
    message_rate: int | None = MESSAGES_PER_SECOND,
    max_body: int = MAX_BODY_BYTES,
    body_seconds: float = BODY_SECONDS,
    hosts: Sequence[str] = (),
    origins: Sequence[str] = (),
) -> Starlette:
    """Return the ASGI application of `routes`, behind the guard, for a server at `host`:`port`.

    Parameters
    ----------
    routes : list of routes
        The server's routes (Starlette).
    host, port : str, int
        The address the server is reached at: requests naming another ``Host`` or
        ``Origin`` are refused (:mod:`tabletop.app.web.guard`).
    state : mapping, optional
        Set on ``app.state`` (what the routes read, e.g. the board).
    rate : int or None
        Most requests per second per client (None: no limit).
    message_rate : int or None
        Most messages per second on one WebSocket (None: no limit).
    max_body : int
        Largest request body, bytes.
    body_seconds : float
        Longest a request body may take to arrive, seconds.
    hosts, origins : sequence of str
        More ``Host`` values and ``Origin`` values answered (a public address behind a
        proxy: ``event.example.org``, ``https://event.example.org``).
    """
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware

    from tabletop.app.web import responses
    from tabletop.app.web.guard import Guard

    guard = Middleware(
        Guard,
        hosts=own_addresses(host, port) | frozenset(h.lower() for h in hosts),
        origins=tuple(origins),
        rate=rate,
        message_rate=message_rate,
        max_body=max_body,
        body_seconds=body_seconds,
    )
    app = Starlette(
        routes=list(routes),
        middleware=[guard],
        exception_handlers={
            InvalidInputError: responses.input_error,
            HTTPException: responses.http_error,
        },
    )
    for name, value in (state or {}).items():
        setattr(app.state, name, value)
    return app


def bind(host: str, port: int) -> socket.socket:
    """Return a listening socket at `host`:`port` (port 0: a free one).

    Raises
    ------
    InvalidInputError
        When the address cannot be used (not this machine's, or the port is taken).
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as error:
        raise InvalidInputError(f"cannot listen on {host!r}: {error}", where="--host") from None
    family, kind, proto, _, address = infos[0]
    listener = socket.socket(family, kind, proto)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
        listener.listen(128)
    except OSError as error:
        listener.close()
        raise InvalidInputError(
            f"cannot listen on {host} port {port}: {error.strerror}", where="--port"
        ) from None
    listener.set_inheritable(True)
    return listener


def url_of(host: str, port: int) -> str:
    """Return the page's address.

    Examples
    --------
    >>> url_of("127.0.0.1", 8765), url_of("::1", 9000)
    ('http://127.0.0.1:8765/', 'http://[::1]:9000/')
    """
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}/"


def port_number(text: str) -> int:
    """Read a ``--port`` value: a whole number from 0 (a free port) to 65535.

    Examples
    --------
    >>> port_number("8765")
    8765
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 0 to 65535, got {value}")
    return value


def _protocol(header_seconds: float) -> type[Any]:
    """Return uvicorn's h11 protocol with a deadline for headers and the error object for 400."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedProtocol(H11Protocol):
        _header_timer: Any = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(header_seconds, self._late)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def handle_events(self) -> None:
            super().handle_events()
            if self.conn.their_state is not h11.IDLE:  # the headers are in (or it failed)
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _late(self) -> None:
            self._header_timer = None
            if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
                return
            if self.conn.our_state is h11.IDLE:  # nothing answered on it yet: say why
                message = f"the request's headers did not arrive within {header_seconds:g} s"
                self.transport.write(_raw_answer(408, "Request Timeout", message))
            self.transport.close()

        def send_400_response(self, msg: str) -> None:
            _log.info("%s: not an HTTP request (%s)", self.client, msg)
            self.transport.write(_raw_answer(400, "Bad Request", "not a valid HTTP request"))
            self.transport.close()

    return GuardedProtocol


def _raw_answer(status: int, reason: str, message: str) -> bytes:
    body = error_body(message, None)
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


def make_server(app: Any, *, header_seconds: float = HEADER_SECONDS) -> Any:
    """Return the uvicorn server of `app`: the guarded protocol, no access log, no lifespan.

    Its ``interrupted`` says whether SIGINT (Ctrl-C) stopped it; setting its
    ``should_exit`` stops it from another thread.
    """
    import uvicorn

    class Server(uvicorn.Server):
        interrupted = False

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            if sig == signal.SIGINT:
                self.interrupted = True
            super().handle_exit(sig, frame)

    config = uvicorn.Config(
        app,
        http=_protocol(header_seconds),
        ws="wsproto",
        ws_max_size=MAX_BODY_BYTES,
        ws_per_message_deflate=False,
        log_level="warning",
        access_log=False,
        lifespan="off",
        timeout_keep_alive=int(IDLE_SECONDS),
    )
    return Server(config)


def serve(app: Any, listener: socket.socket, *, header_seconds: float = HEADER_SECONDS) -> bool:
    """Serve `app` on `listener` until a signal stops it; return whether it was SIGINT (Ctrl-C)."""
    server = make_server(app, header_seconds=header_seconds)
    server.run(sockets=[listener])
    return bool(server.interrupted)
