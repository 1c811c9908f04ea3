"""The servers' guard: whose requests they answer, how large, how often and how slowly.

:class:`Guard` is a plain ASGI middleware in front of every route of every server (the
board and the event's pages). In this order it

1. refuses (403) a request whose ``Host`` is not the server's own address, so that a
   page of another site, reached through a name that resolves to this machine (DNS
   rebinding), cannot talk to it;
2. refuses (403) a request that carries an ``Origin`` other than the server's own
   (``http://`` and an address of 1.), so that a page elsewhere cannot drive it from a
   visitor's browser; a request without ``Origin`` (a command-line client) is allowed;
3. refuses (429) a client (by its address) that made :data:`RATE_PER_SECOND` requests
   in the last second;
4. refuses (413) a body over :data:`MAX_BODY_BYTES`: at once when its
   ``Content-Length`` says so, else as soon as the bytes received pass the limit, so a
   large body is never read whole;
5. refuses (408) a body still arriving :data:`BODY_SECONDS` after its headers (a client
   that trickles a byte at a time holds no connection for long).

A WebSocket (the board's live verdict) passes the same guard: its handshake is refused
(403, the error object) for a ``Host`` of 1., and unless it carries an ``Origin`` of 2. —
for a WebSocket the ``Origin`` is required, since a browser lets any page open one to any
address. Opening it counts as one request of 3. Its messages are held to a rate of their
own, :data:`MESSAGES_PER_SECOND` on one socket (a piece dragged asks once a frame, 60
times a second, and a socket's messages are answered one after another), and to the
body limit of 4.; a message over either limit is not passed on but answered with the
error object, and the socket stays open.

A refused request reaches no route and changes nothing; its answer is the error object
``{"error": {"message", "where"}}`` every route gives. A fault of the server itself is
logged once, with its traceback, and answered 500 with the same object; a client that
hangs up before its body is whole is logged in one line. (The time allowed for the
headers themselves is the runner's: :mod:`tabletop.app.web.runner`.)

Examples
--------
>>> sorted(own_addresses("127.0.0.1", 8765))
['127.0.0.1:8765', '[::1]:8765', 'localhost:8765']
>>> sorted(own_addresses("192.0.2.7", 80))
['192.0.2.7', '192.0.2.7:80']
"""

from __future__ import annotations

import asyncio
import collections
import ipaddress
import json
import logging
import socket
import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

__all__ = [
    "BODY_SECONDS",
    "MAX_BODY_BYTES",
    "MESSAGES_PER_SECOND",
    "RATE_PER_SECOND",
    "BodyTimedOut",
    "BodyTooLarge",
    "Guard",
    "RateLimiter",
    "error_body",
    "is_loopback",
    "own_addresses",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Largest request body, bytes (8 MiB: a scene file of the largest table is far less).
MAX_BODY_BYTES = 8 * 1024 * 1024
#: Most requests one client may make in one second.
RATE_PER_SECOND = 50
#: Most messages one WebSocket may send in one second (two a frame at 60 Hz).
MESSAGES_PER_SECOND = 120
#: Longest a request's body may take to arrive after its headers, seconds (a scene of the
#: largest table comes in well under a second on any network that reaches the server).
BODY_SECONDS = 20.0
#: The loopback names a server bound to loopback also answers to.
_LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
#: Most clients the rate limiter remembers before it forgets the quiet ones.
_MOST_CLIENTS = 1024


class BodyTooLarge(Exception):
    """Raised from ``receive`` once a body passes the size limit (answered 413)."""


class BodyTimedOut(Exception):
    """Raised from ``receive`` once a body is still arriving at its deadline (answered 408)."""


class _HungUp(Exception):
    """Raised from ``receive`` when the client hung up before its body was whole."""


_log = logging.getLogger("tabletop.web")


def error_body(message: str, where: str | None) -> bytes:
    """Return the JSON bytes of the error object every refusal and every route gives.

    Examples
    --------
    >>> error_body("too many requests", None)
    b'{"error": {"message": "too many requests", "where": null}}'
    """
    text = json.dumps({"error": {"message": message, "where": where}}, ensure_ascii=False)
    return text.encode("utf-8")


def is_loopback(host: str) -> bool:
    """Return whether `host` (a name or an address) is this machine's loopback.

    Examples
    --------
    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("localhost")
    (True, True, True)
    >>> is_loopback("0.0.0.0"), is_loopback("example.org")
    (False, False)
    """
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _host_form(host: str) -> str:
    """Return a host as a ``Host`` header writes it (an IPv6 address in brackets)."""
    bare = host.strip("[]")
    try:
        if ipaddress.ip_address(bare).version == 6:
            return f"[{bare}]"
    except ValueError:
        pass
    return host.lower()


def _wildcard_names(host: str) -> list[str]:
    """Return the names a server bound to every interface is reached by on this machine."""
    names = [socket.gethostname(), socket.getfqdn()]
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None)
    except OSError:
        infos = []
    names += [str(info[4][0]) for info in infos]
    return [*_LOOPBACK_NAMES, *names]


def own_addresses(host: str, port: int, extra: Iterable[str] = ()) -> frozenset[str]:
    """Return every ``Host`` header value the server answers: ``name:port`` (and ``name`` on 80).

    The address it was given; bound to loopback, also ``localhost``, ``127.0.0.1`` and
    ``[::1]``; bound to every interface (``0.0.0.0``, ``::``), also this machine's names
    and addresses. `extra` adds names (without a port).
    """
    names = [host]
    if is_loopback(host):
        names += _LOOPBACK_NAMES
    elif host.strip("[]") in ("0.0.0.0", "::"):
        names += _wildcard_names(host)
    found: set[str] = set()
    for name in [*names, *extra]:
        form = _host_form(name)
        found.add(f"{form}:{port}")
        if port == 80:
            found.add(form)
    return frozenset(found)


class RateLimiter:
    """At most `rate` requests per client in any one second (a sliding window).

    Examples
    --------
    >>> now = [0.0]
    >>> limiter = RateLimiter(2, clock=lambda: now[0])
    >>> limiter.allow("a"), limiter.allow("a"), limiter.allow("a"), limiter.allow("b")
    (True, True, False, True)
    >>> now[0] = 1.001
    >>> limiter.allow("a")
    True
    """

    def __init__(self, rate: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self._clock = clock
        self._seen: dict[str, collections.deque[float]] = {}

    def allow(self, client: str) -> bool:
        """Count a request of `client`; return False when it is one too many (not counted)."""
        now = self._clock()
        times = self._seen.get(client)
        if times is None:
            if len(self._seen) >= _MOST_CLIENTS:
                self._forget(now)
            times = self._seen[client] = collections.deque()
        while times and now - times[0] >= 1.0:
            times.popleft()
        if len(times) >= self.rate:
            return False
        times.append(now)
        return True

    def _forget(self, now: float) -> None:
        for client in [c for c, t in self._seen.items() if not t or now - t[-1] >= 1.0]:
            del self._seen[client]


def _header(scope: Scope, name: bytes) -> list[str]:
    return [v.decode("latin-1") for k, v in scope.get("headers", []) if k.lower() == name]


class Guard:
    """The ASGI middleware of the module's checks (Host, Origin, rate, body size).

    Parameters
    ----------
    app : ASGI application
        What a request that passes reaches.
    hosts : frozenset of str
        The ``Host`` values answered (:func:`own_addresses`); an Origin must be one of
        them after ``http://``.
    rate : int or None
        Requests per second per client (None: no limit).
    message_rate : int or None
        Messages per second on one WebSocket (None: no limit).
    max_body : int
        Largest body, bytes.
    body_seconds : float
        Longest a body may take to arrive after the headers, seconds.
    origins : iterable of str
        More ``Origin`` values allowed (``https://`` of a public address behind a proxy).
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        hosts: frozenset[str],
        rate: int | None = RATE_PER_SECOND,
        message_rate: int | None = MESSAGES_PER_SECOND,
        max_body: int = MAX_BODY_BYTES,
        body_seconds: float = BODY_SECONDS,
        origins: Iterable[str] = (),
    ) -> None:
        self.app = app
        self.hosts = hosts
        self.origins = frozenset(f"http://{h}" for h in hosts) | {o.lower() for o in origins}
        self.limiter = None if rate is None else RateLimiter(rate)
        self.message_rate = message_rate
        self.max_body = max_body
        self.body_seconds = body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check one request, answering a refusal or passing it on."""
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            return
        refusal = self._refusal(scope)
        if refusal is not None:
            if kind == "websocket":
                await _refuse_websocket(scope, send, *refusal)
            else:
                await _answer(send, *refusal)
            return
        if kind == "websocket":
            await self._pass_on_websocket(scope, receive, send)
        else:
            await self._pass_on(scope, receive, send)

    def _refusal(self, scope: Scope) -> tuple[int, str, str | None] | None:
        hosts = _header(scope, b"host")
        if len(hosts) != 1 or hosts[0].lower() not in self.hosts:
            shown = hosts[0][:100] if len(hosts) == 1 else f"{len(hosts)} Host headers"
            return 403, f"not this server's address: {shown!r}", "Host"
        origins = _header(scope, b"origin")
        if not origins and scope["type"] == "websocket":
            return 403, "a WebSocket must say which page opened it (Origin)", "Origin"
        if origins and (len(origins) != 1 or origins[0].lower() not in self.origins):
            return (
                403,
                f"a page of another origin may not use this server: {origins[0][:100]!r}",
                ("Origin"),
            )
        if not self._allowed(scope):
            return 429, self._too_many(), None
        lengths = _header(scope, b"content-length")
        if lengths:
            if len(lengths) != 1 or not lengths[0].strip().isdigit():
                return 400, "expected one Content-Length, a whole number", "Content-Length"
            size = int(lengths[0])
            if size > self.max_body:
                return 413, self._too_large(f"{size} bytes"), "Content-Length"
        return None

    def _allowed(self, scope: Scope) -> bool:
        """Count one request (or message) of the scope's client; False when over the rate."""
        if self.limiter is None:
            return True
        client = scope.get("client")
        return self.limiter.allow(str(client[0]) if client else "unknown")

    def _too_many(self) -> str:
        rate = self.limiter.rate if self.limiter is not None else 0
        return f"more than {rate} requests in one second; slow down"

    def _too_large(self, size: str) -> str:
        return f"the body is {size}; this server takes at most {self.max_body} bytes"

    async def _pass_on(self, scope: Scope, receive: Receive, send: Send) -> None:
        received = 0
        started = False
        deadline = time.monotonic() + self.body_seconds
        body_done = False

        async def counted() -> Message:
            nonlocal received, body_done
            if body_done:  # the body is whole: what comes now is the hang-up, whenever
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                raise BodyTimedOut from None
            if message["type"] == "http.disconnect":
                raise _HungUp
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise BodyTooLarge
                body_done = not message.get("more_body", False)
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge:
            if not started:
                await _answer(send, 413, self._too_large(f"over {self.max_body} bytes"), None)
        except BodyTimedOut:
            if not started:
                message = f"the body did not arrive within {self.body_seconds:g} s"
                await _answer(send, 408, message, None)
        except _HungUp:
            _log.info("%s %s: the client hung up before its body was whole", *_request(scope))
        except Exception as error:  # a fault of ours: logged once, answered, never re-raised
            _log.error("fault answering %s %s", *_request(scope), exc_info=error)
            if not started:
                method, path = _request(scope)
                message = f"internal error: {type(error).__name__}; the server logged it"
                await _answer(send, 500, message, f"{method} {path}")

    async def _pass_on_websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass a WebSocket on, each message held to the socket's rate and a body's size."""
        accepted = False
        rate = self.message_rate
        limiter = None if rate is None else RateLimiter(rate)

        async def counted() -> Message:
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    return message
                refusal = self._message_refusal(message, limiter)
                if refusal is None:
                    return message
                await send({"type": "websocket.send", "text": error_body(refusal, None).decode()})

        async def watched(message: Message) -> None:
            nonlocal accepted
            if message["type"] == "websocket.accept":
                accepted = True
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except Exception as error:  # a fault of ours: logged once, the socket closed
            _log.error("fault answering WebSocket %s", scope.get("path", ""), exc_info=error)
            if not accepted:
                message = f"internal error: {type(error).__name__}; the server logged it"
                await _refuse_websocket(scope, send, 500, message, None)
                return
            try:
                await send({"type": "websocket.close", "code": 1011})
            except Exception:  # already closed by the client
                _log.info("WebSocket %s: closed before the fault was said", scope.get("path"))

    def _message_refusal(self, message: Message, limiter: RateLimiter | None) -> str | None:
        """Return why one WebSocket message is refused (size, the socket's rate), or None."""
        text, data = message.get("text"), message.get("bytes")
        size = len(data) if data is not None else 0
        if text is not None:
            size = len(text) if len(text) * 4 <= self.max_body else len(text.encode())
        if size > self.max_body:
            return self._too_large(f"{size} bytes")
        if limiter is not None and not limiter.allow("socket"):
            return f"more than {limiter.rate} messages in one second on this socket; slow down"
        return None


def _request(scope: Scope) -> tuple[str, str]:
    return str(scope.get("method", "")), str(scope.get("path", ""))


async def _answer(send: Send, status: int, message: str, where: str | None) -> None:
    body = error_body(message, where)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
        (b"x-content-type-options", b"nosniff"),
    ]
    if status in (408, 413):  # the rest of the body is not read: the connection cannot go on
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _refuse_websocket(
    scope: Scope, send: Send, status: int, message: str, where: str | None
) -> None:
    """Refuse a WebSocket's handshake with `status` and the error object.

    The HTTP answer where the server can send one (the ASGI ``websocket.http.response``
    extension), else a close (which uvicorn answers 403).
    """
    if "websocket.http.response" not in scope.get("extensions", {}):
        await send({"type": "websocket.close", "code": 1008})
        return
    body = error_body(message, where)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
    ]
    await send({"type": "websocket.http.response.start", "status": status, "headers": headers})
    await send({"type": "websocket.http.response.body", "body": body})
