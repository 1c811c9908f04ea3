"""The routes of ``tabletop event serve``: the pages, the JSON API, the stream, the roles.

Roles (``event-server.md``): a spectator sends nothing; a player sends
``Authorization: Bearer CODE``; the TO ``Authorization: Bearer TOKEN``. A secret is
taken from that header only, never from a URL. A wrong code or token is 401; after
:data:`MOST_FAILURES` wrong ones in a minute from one address, every request of that
address that carries a secret is 429 until the minute is over (logged without the code).
"""

from __future__ import annotations

import asyncio
import collections
import hmac
import json
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from tabletop.app.event.server import actions, flow
from tabletop.app.event.server.hub import EventHub
from tabletop.app.event.server.views import event_view, me_view
from tabletop.app.web.errors import RequestError
from tabletop.app.web.responses import API_HEADERS, json_response, object_body
from tabletop.app.web.static import StaticFolder

__all__ = ["FAILURE_WINDOW_SECONDS", "MOST_FAILURES", "Failures", "routes"]

#: Wrong codes or tokens one address may send in :data:`FAILURE_WINDOW_SECONDS`.
MOST_FAILURES = 10
#: The window of the failed-code lockout, seconds.
FAILURE_WINDOW_SECONDS = 60.0
#: Seconds between two comments on an idle stream.
KEEPALIVE_SECONDS = 15.0
STATIC = Path(__file__).with_name("static")
_log = logging.getLogger("tabletop.web")


class Failures:
    """Wrong secrets per client address in the last minute (the lockout)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._seen: dict[str, collections.deque[float]] = {}

    def _recent(self, client: str) -> collections.deque[float]:
        now = self._clock()
        times = self._seen.setdefault(client, collections.deque())
        while times and now - times[0] >= FAILURE_WINDOW_SECONDS:
            times.popleft()
        return times

    def locked(self, client: str) -> float:
        """Return the seconds `client` stays locked out (0: not locked out)."""
        times = self._recent(client)
        if len(times) < MOST_FAILURES:
            return 0.0
        return max(0.0, FAILURE_WINDOW_SECONDS - (self._clock() - times[0]))

    def fail(self, client: str) -> None:
        """Count a wrong secret from `client`."""
        times = self._recent(client)
        times.append(self._clock())
        if len(times) == MOST_FAILURES:
            _log.warning("%s: %d wrong codes in a minute; locked out", client, MOST_FAILURES)


def _refuse(status: int, message: str, where: str | None = None) -> RequestError:
    error = RequestError(message, where=where)
    error.status = status
    return error


def _role(request: Request) -> tuple[str, str | None]:
    """Return the request's role ("public", "player" and its id, or "to")."""
    headers = request.headers.getlist("authorization")
    if not headers:
        return "public", None
    hub: EventHub = request.app.state.hub
    failures: Failures = request.app.state.failures
    client = request.client.host if request.client else "unknown"
    wait = failures.locked(client)
    if wait:
        error = _refuse(429, f"too many wrong codes from this address; wait {wait:.0f} s")
        raise error
    scheme, _, secret = headers[0].partition(" ")
    secret = secret.strip()
    if len(headers) == 1 and scheme.lower() == "bearer" and 0 < len(secret) <= 200:
        known = hub.snapshot.secrets
        if hmac.compare_digest(secret.encode(), known.token.encode()):
            return "to", None
        pid = known.player_of(secret)
        if pid is not None and any(p.id == pid for p in hub.snapshot.event.players):
            return "player", pid
    failures.fail(client)
    raise _refuse(401, "wrong or unknown code (Authorization: Bearer CODE)", "Authorization")


def _need(request: Request, *roles: str) -> str | None:
    role, pid = _role(request)
    if role in roles:
        return pid
    if role == "public":
        raise _refuse(401, "this needs a player's code or the TO's token", "Authorization")
    who = {"to": "the TO", "player": "a player"}[role]
    raise _refuse(403, f"{who} may not use this", request.url.path)


def _version_key(body: dict[str, Any]) -> int | None:
    if body.get("version") is None:
        return None
    return flow.whole_number(body["version"], "version")


# -- pages -------------------------------------------------------------------------------


def _page(name: str) -> Any:
    async def page(request: Request) -> Response:
        folder: StaticFolder = request.app.state.folder
        return folder.response(folder.file(name))

    return page


# -- reading -----------------------------------------------------------------------------


async def get_event(request: Request) -> Response:
    """``GET /api/event``: the current round, clock and standings (ETag, 304).

    The snapshot is the one last read (the server's own writes, and a look at the file
    every quarter second for a command's beside it): a poll reads no file.
    """
    role, _ = _role(request)
    hub: EventHub = request.app.state.hub
    snapshot = hub.snapshot
    full = role == "to"
    tag = f'"{snapshot.version}-to"' if full else f'"{snapshot.version}"'  # the TO's view differs
    headers = {**API_HEADERS, "etag": tag}
    if tag in [t.strip() for t in request.headers.get("if-none-match", "").split(",")]:
        return Response(status_code=304, headers=headers)
    key = f"bytes-{full}"
    body = snapshot.views.get(key)
    if body is None:  # made once per version: hundreds of phones poll the same answer
        body = snapshot.views[key] = json.dumps(
            event_view(snapshot, full), ensure_ascii=False, allow_nan=False
        ).encode("utf-8")
    return Response(body, headers=headers, media_type="application/json")


async def get_me(request: Request) -> Response:
    """``GET /api/me``: the player's table, opponent and reports."""
    pid = _need(request, "player")
    assert pid is not None
    hub: EventHub = request.app.state.hub
    return json_response(me_view(hub.snapshot, pid))


async def stream(request: Request) -> Response:
    """``GET /api/stream``: ``data: {"version": N}`` at every change, a comment every 15 s."""
    _role(request)
    hub: EventHub = request.app.state.hub
    loop = asyncio.get_running_loop()
    flag = asyncio.Event()
    hub.listen(loop, flag)

    async def events() -> Any:
        try:
            sent = None
            while True:
                version = hub.snapshot.version
                if version != sent:
                    sent = version
                    yield f'data: {{"version": {version}}}\n\n'
                try:
                    await asyncio.wait_for(flag.wait(), KEEPALIVE_SECONDS)
                    flag.clear()
                except TimeoutError:
                    yield ": still here\n\n"
        finally:
            hub.unlisten(loop, flag)

    headers = {"cache-control": "no-store", "x-accel-buffering": "no"}
    return StreamingResponse(events(), media_type="text/event-stream", headers=headers)


def _timed(response: Response, started: float) -> Response:
    """Say in ``Server-Timing`` how long the server took from the request's headers on."""
    response.headers["server-timing"] = f"app;dur={(time.perf_counter() - started) * 1000:.1f}"
    return response


# -- the players -------------------------------------------------------------------------


async def post_report(request: Request) -> Response:
    """``POST /api/report``: a player's result of their current match."""
    started = time.perf_counter()
    pid = _need(request, "player")
    body = await object_body(request, flow.REPORT_KEYS, ("round", "table"))
    hub: EventHub = request.app.state.hub
    hub._refuse_read_only()
    try:
        status, answer = await run_in_threadpool(flow.report, hub, str(pid), body)
    except flow.DisputeError as error:
        data = {"error": {"message": error.message, "where": error.where}}
        return json_response(data | {"reports": error.reports}, 409)
    return _timed(json_response(answer, status), started)


async def post_preview(request: Request) -> Response:
    """``POST /api/preview``: what a result would give, in the regulation's words."""
    pid = _need(request, "player")
    body = await object_body(request, flow.REPORT_KEYS, ("round", "table"))
    hub: EventHub = request.app.state.hub
    return json_response(await run_in_threadpool(flow.preview, hub, str(pid), body))


async def post_confirm(request: Request) -> Response:
    """``POST /api/confirm``: the opponent confirms; answered with ``event result``'s JSON."""
    started = time.perf_counter()
    pid = _need(request, "player")
    body = await object_body(request, ("round", "table", "version"), ("round", "table"))
    hub: EventHub = request.app.state.hub
    hub._refuse_read_only()
    answer = await run_in_threadpool(flow.confirm, hub, str(pid), body)
    return _timed(json_response(answer), started)


# -- the TO ------------------------------------------------------------------------------

_RESULT_KEYS = (
    "round", "table", "scores", "second", "defeated", "winner", "games", "concession",
    "by_time", "replace", "clear", "version",
)  # fmt: skip


def _to_result(hub: EventHub, body: dict[str, Any]) -> Any:
    number = flow.whole_number(body.get("round"), "round", 1)
    table = flow.whole_number(body.get("table"), "table", 1)
    version = _version_key(body)
    if body.get("clear") is True:
        extra = [k for k in body if k not in ("round", "table", "clear", "version")]
        if extra:
            raise RequestError(
                "clear removes a result and takes no result keys", f"key {extra[0]!r}"
            )
        return actions.record_result(hub, number, table, {"clear": True}, version=version)
    event = hub.refresh().event
    if not 1 <= number <= len(event.rounds):
        raise RequestError(f"the event has {len(event.rounds)} round(s)", f"round {number}")
    match = event.rounds[number - 1].match(table)
    if match is None:
        raise _refuse(404, "no such table", f"round {number} table {table}")
    result = flow.parse_result(event, match, body)
    if body.get("replace") is not None:
        result["replace"] = body["replace"] is True
    return actions.record_result(hub, number, table, result, version=version)


async def _to_body(request: Request, keys: tuple[str, ...], required: tuple[str, ...]) -> Any:
    _need(request, "to")
    body = await object_body(request, keys, required)
    hub: EventHub = request.app.state.hub
    hub._refuse_read_only()
    return body


async def to_result(request: Request) -> Response:
    """``POST /api/to/result``: a result by name, or ``"clear": true``."""
    body = await _to_body(request, _RESULT_KEYS, ("round", "table"))
    hub: EventHub = request.app.state.hub
    return json_response(await run_in_threadpool(_to_result, hub, body))


async def to_add(request: Request) -> Response:
    """``POST /api/to/add``: a late player ``{"id", "name"?}``."""
    body = await _to_body(request, ("id", "name", "version"), ("id",))
    hub: EventHub = request.app.state.hub
    pid, name = body["id"], body.get("name")
    if not isinstance(pid, str) or not pid.strip() or len(pid) > 100:
        raise RequestError("expected a new player's id", "key 'id'")
    if name is not None and (not isinstance(name, str) or not name.strip() or len(name) > 200):
        raise RequestError("expected the player's name", "key 'name'")
    answer = await run_in_threadpool(actions.add, hub, pid, name, _version_key(body))
    return json_response(answer)


def _player_action(which: str) -> Any:
    async def endpoint(request: Request) -> Response:
        body = await _to_body(request, ("player", "version"), ("player",))
        hub: EventHub = request.app.state.hub
        pid = actions.resolve_player(hub.refresh().event, body["player"], "key 'player'")
        run = actions.drop if which == "drop" else actions.return_
        return json_response(await run_in_threadpool(run, hub, pid, _version_key(body)))

    return endpoint


async def to_pair(request: Request) -> Response:
    """``POST /api/to/pair``: the preview (``"commit": false``) or the written round.

    The answer is ``event pair --json``'s; its ``ETag`` is the version the preview was
    made at, the ``preview_version`` a commit gives (also ``GET /api/event``'s version).
    """
    body = await _to_body(request, ("commit", "preview_version"), ("commit",))
    if not isinstance(body["commit"], bool):
        raise RequestError("expected true or false", "key 'commit'")
    given = body.get("preview_version")
    version = None if given is None else flow.whole_number(given, "preview_version")
    hub: EventHub = request.app.state.hub
    answer, made_at = await run_in_threadpool(actions.pair, hub, body["commit"], version)
    response = json_response(answer)
    response.headers["etag"] = f'"{made_at}"'  # the version to commit a preview at
    return response


async def to_repair(request: Request) -> Response:
    """``POST /api/to/repair``: remove the current round's pairing (no result recorded)."""
    body = await _to_body(request, ("version",), ())
    hub: EventHub = request.app.state.hub
    return json_response(await run_in_threadpool(actions.repair, hub, _version_key(body)))


async def to_clock(request: Request) -> Response:
    """``POST /api/to/clock``: start, pause, resume, add minutes."""
    body = await _to_body(request, ("action", "minutes", "version"), ("action",))
    if body["action"] not in ("start", "pause", "resume", "add"):
        raise RequestError("expected start, pause, resume or add", "key 'action'")
    minutes = body.get("minutes")
    if minutes is not None:
        if isinstance(minutes, bool) or not isinstance(minutes, int) or abs(minutes) > 24 * 60:
            raise RequestError("expected whole minutes (at most a day)", "key 'minutes'")
        if body["action"] == "start" and minutes < 1:
            raise RequestError("a round lasts at least a minute", "key 'minutes'")
    hub: EventHub = request.app.state.hub
    answer = await run_in_threadpool(
        actions.clock_action, hub, body["action"], minutes, _version_key(body)
    )
    return json_response(answer)


async def to_export(request: Request) -> Response:
    """``GET /api/to/export``: ``event export --format json`` of the event (the TO only)."""
    _need(request, "to")
    from tabletop.app.event.reports import export_text

    hub: EventHub = request.app.state.hub
    text = await run_in_threadpool(export_text, hub.refresh().event, "json")
    headers = {**API_HEADERS, "content-disposition": 'attachment; filename="export.json"'}
    return Response(text, headers=headers, media_type="application/json")


async def to_print(request: Request) -> Response:
    """``GET /api/to/print/{what}``: pairings, standings or slips as a printable page."""
    _need(request, "to")
    what = request.path_params["what"]
    from tabletop.app.event.printables import PRINT_WHATS

    if what not in PRINT_WHATS:
        raise _refuse(404, f"expected one of {', '.join(PRINT_WHATS)}", "what")
    hub: EventHub = request.app.state.hub
    from tabletop.app.event.server.printed import printable_html

    html = await run_in_threadpool(printable_html, hub, what)
    headers = {"cache-control": "no-store", "x-content-type-options": "nosniff"}
    headers["content-security-policy"] = (
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
    )
    return Response(html, headers=headers, media_type="text/html")


def routes() -> list[Route]:
    """Return every route of the server."""
    pages = [
        Route("/", _page("index.html"), methods=["GET"]),
        Route("/me", _page("me.html"), methods=["GET"]),
        Route("/to", _page("to.html"), methods=["GET"]),
    ]
    folder_routes = StaticFolder(STATIC).routes()[1:]  # /static/<file>
    return [
        *pages,
        *folder_routes,
        Route("/api/event", get_event, methods=["GET"]),
        Route("/api/stream", stream, methods=["GET"]),
        Route("/api/me", get_me, methods=["GET"]),
        Route("/api/report", post_report, methods=["POST"]),
        Route("/api/preview", post_preview, methods=["POST"]),
        Route("/api/confirm", post_confirm, methods=["POST"]),
        Route("/api/to/result", to_result, methods=["POST"]),
        Route("/api/to/add", to_add, methods=["POST"]),
        Route("/api/to/drop", _player_action("drop"), methods=["POST"]),
        Route("/api/to/return", _player_action("return"), methods=["POST"]),
        Route("/api/to/pair", to_pair, methods=["POST"]),
        Route("/api/to/repair", to_repair, methods=["POST"]),
        Route("/api/to/clock", to_clock, methods=["POST"]),
        Route("/api/to/export", to_export, methods=["GET"]),
        Route("/api/to/print/{what}", to_print, methods=["GET"]),
    ]
