"""A WebSocket client of the board's ``/api/live``, as small as a test needs (wsproto).

:class:`LiveSocket` opens the socket as a page of the server would (``Host`` the
server's address, ``Origin`` its page's), or with the headers a test gives; a handshake
the server refuses raises :class:`Refused` with its status and body.

Examples
--------
``with LiveSocket(port) as live: live.ask(b'{"op": "check", "scene": {}}')``
"""

from __future__ import annotations

import socket
from types import TracebackType

from wsproto import ConnectionType, WSConnection
from wsproto.events import (
    AcceptConnection,
    CloseConnection,
    Event,
    Ping,
    RejectConnection,
    RejectData,
    Request,
    TextMessage,
)

__all__ = ["LiveSocket", "Refused"]

_NOT_GIVEN = "-"


class Refused(Exception):
    """The server refused the handshake: its HTTP status and body."""

    def __init__(self, status: int, body: bytes) -> None:
        super().__init__(f"{status}: {body[:200]!r}")
        self.status, self.body = status, body


class LiveSocket:
    """``ws://127.0.0.1:PORT/api/live``, open for as long as the ``with`` lasts.

    Parameters
    ----------
    port : int
        The server's port on 127.0.0.1.
    host, origin : str
        The ``Host`` and ``Origin`` sent (default: the server's own; an origin of
        ``"-"`` sends none).
    """

    def __init__(
        self, port: int, *, host: str | None = None, origin: str | None = None, timeout: float = 60
    ) -> None:
        self.host = host or f"127.0.0.1:{port}"
        self.origin = f"http://127.0.0.1:{port}" if origin is None else origin
        self.conn = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.ws = WSConnection(ConnectionType.CLIENT)
        self._events: list[Event] = []

    def __enter__(self) -> LiveSocket:
        headers = [] if self.origin == _NOT_GIVEN else [(b"origin", self.origin.encode())]
        self.conn.sendall(
            self.ws.send(Request(host=self.host, target="/api/live", extra_headers=headers))
        )
        event = self._next()
        if isinstance(event, RejectConnection):
            body = b""
            while event.has_body:
                data = self._next()
                assert isinstance(data, RejectData)
                body += data.data
                if data.body_finished:
                    break
            self.conn.close()
            raise Refused(event.status_code, body)
        assert isinstance(event, AcceptConnection), event
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        try:
            self.conn.sendall(self.ws.send(CloseConnection(code=1000)))
        except Exception:  # the server closed it first
            pass
        self.conn.close()

    def _next(self) -> Event:
        while not self._events:
            data = self.conn.recv(1 << 16)
            if not data:
                raise ConnectionError("the server closed the connection")
            self.ws.receive_data(data)
            self._events.extend(self.ws.events())
        return self._events.pop(0)

    def send(self, text: str) -> None:
        """Send one text message."""
        self.conn.sendall(self.ws.send(TextMessage(data=text)))

    def receive(self) -> str:
        """Return the next whole text message (answering pings on the way)."""
        parts: list[str] = []
        while True:
            event = self._next()
            if isinstance(event, Ping):
                self.conn.sendall(self.ws.send(event.response()))
            elif isinstance(event, CloseConnection):
                raise ConnectionError(f"closed by the server: {event.code} {event.reason}")
            elif isinstance(event, TextMessage):
                parts.append(event.data)
                if event.message_finished:
                    return "".join(parts)

    def ask(self, text: str) -> str:
        """Send one request; return its answer."""
        self.send(text)
        return self.receive()
