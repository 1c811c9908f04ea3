"""The board's routes: the document, the command line's answers, the page's files.

Every body is JSON (but ``/api/load``'s, the raw bytes of a file, and ``/api/render``'s
answer, a picture). Every refusal is ``{"error": {"message", "where"}}`` with a status:
400 a bad request, 403 a read-only board, 404 no such route or file, 405 a method the
route does not take, 409 a stale version. A fault of the server itself is logged and
answered 500 with the same error object, never a traceback. The answers, the guard and
the page's files are the web layer's (:mod:`tabletop.app.web`).

The work of a request (parsing a scene, checking, drawing) runs in a worker thread, one
request at a time, so the server goes on taking requests while one is computed.

``/api/live`` is a WebSocket for the verdict that follows a dragged piece: each text
message is one ``tabletop query`` request and is answered, in order, with the JSON line
the command prints for it (without the newline); the page tells its answers apart by
the request's ``id``, which the answer repeats. It changes nothing on the board. A
socket whose last answer took under :data:`INLINE_MS` has the next one computed on the
server's own thread when no other computation runs, without the hand-over to a worker
thread and back (a fraction of a millisecond of the few a drag's answer takes); a slow
table's answers go to the worker thread, so that the server answers the rest meanwhile.

``POST /api/query`` says beside its answer how long the server worked on it, in a
``Server-Timing`` header: ``cpu;dur=MS``, the processor time of the answer's thread (a
figure of the table, little changed by a busy machine), from which the page judges
whether the table's check is quick enough to follow a drag.
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from tabletop.app import clients
from tabletop.app.board.document import BoardDocument, BoardRequestError, client_scene
from tabletop.app.board.views import (
    catalog_answer,
    layout_answer,
    nudge_all_answer,
    preview_move_answer,
    query_answer,
    scene_of,
)
from tabletop.app.common.datafile import show
from tabletop.app.scene.scenefile import SceneError, parse_scene, read_scene_data
from tabletop.app.web.responses import API_HEADERS, json_response, object_body
from tabletop.app.web.static import StaticFolder

__all__ = ["INLINE_MS", "PAGE_FILES", "STATIC_FOLDER", "routes"]

#: The page's files, served as they are; nothing outside this folder is ever served.
STATIC_FOLDER = Path(__file__).resolve().parent / "static"
#: The page and its files, served from :data:`STATIC_FOLDER`, cross-origin isolated: the
#: live verdict's page waits for an answer in memory it shares with its worker.
PAGE_FILES = StaticFolder(STATIC_FOLDER, isolated=True)

#: One computation at a time: the query cache and matplotlib are not shared across threads.
_WORK = threading.Lock()
#: A live answer quicker than this (ms) lets the next be computed on the server's thread.
INLINE_MS = 25.0
_T = TypeVar("_T")


def _board(request: Request) -> BoardDocument:
    board: BoardDocument = request.app.state.board
    return board


async def _work(function: Callable[..., _T], *args: Any) -> _T:
    def locked() -> _T:
        with _WORK:
            return function(*args)

    return await run_in_threadpool(locked)


# -- the document --------------------------------------------------------------------------


async def get_scene(request: Request) -> Response:
    """``GET /api/scene``: ``{"version", "scene"}``."""
    version, scene = _board(request).snapshot()
    return json_response({"version": version, "scene": scene})


async def put_scene(request: Request) -> Response:
    """``PUT /api/scene``: replace the scene at the version given; answer the new version."""
    board = _board(request)
    board.check_writable("PUT /api/scene")  # before the body is read
    data = await object_body(request, ("version", "scene"), ("version", "scene"))
    version = data["version"]
    if not isinstance(version, int) or isinstance(version, bool):
        raise BoardRequestError(f"expected a whole number, got {show(version)}", where="version")
    new = await _work(board.replace, version, data["scene"])
    return json_response({"version": new})


async def save(request: Request) -> Response:
    """``POST /api/save``: write the scene to its file atomically; answer the file."""
    path = await _work(_board(request).save)
    return json_response({"saved": os.fspath(path)})


# -- the command line's answers ------------------------------------------------------------


async def query(request: Request) -> Response:
    """``POST /api/query``: one ``tabletop query`` request, answered as the command does."""
    raw = await request.body()
    (line, failed), cpu_ms = await _work(_timed, query_answer, raw)
    headers = {**API_HEADERS, "server-timing": f"cpu;dur={cpu_ms:.2f}"}
    return Response(line, 400 if failed else 200, headers=headers, media_type="application/json")


def _timed(function: Callable[..., _T], *args: Any) -> tuple[_T, float]:
    """Return `function`'s result and the processor time its thread spent on it, ms."""
    start = time.thread_time()
    result = function(*args)
    return result, (time.thread_time() - start) * 1000.0


async def live(socket: WebSocket) -> None:
    """``/api/live``: ``tabletop query`` over a WebSocket, one answer per message, in order."""
    await socket.accept()
    last_ms = INLINE_MS  # a socket's first answer, of a table not yet timed, is not inline
    try:
        while True:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text, data = message.get("text"), message.get("bytes")
            raw = text.encode("utf-8") if text is not None else data or b""
            start = time.perf_counter()
            if last_ms < INLINE_MS and _WORK.acquire(blocking=False):
                try:
                    line, _ = query_answer(raw)
                finally:
                    _WORK.release()
            else:
                line, _ = await _work(query_answer, raw)
            last_ms = (time.perf_counter() - start) * 1000.0
            await socket.send_text(line.decode("utf-8").rstrip("\n"))
    except WebSocketDisconnect:  # the page went away while an answer was computed
        return


async def catalog(request: Request) -> Response:
    """``GET /api/catalog?ruleset=R``: the palette's tokens and bases, in their own frame."""
    for key in request.query_params:
        if key != "ruleset":
            raise BoardRequestError("unknown parameter; this request takes: ruleset", where=key)
    return json_response(await _work(catalog_answer, request.query_params.get("ruleset")))


async def layout(request: Request) -> Response:
    """``POST /api/layout``: the mat of a scene, every outline from the command line's code."""
    data = await object_body(request, ("scene",), ("scene",))
    return json_response(await _work(lambda: layout_answer(scene_of(data["scene"]))))


async def preview_move(request: Request) -> Response:
    """``POST /api/preview-move``: a move's answer, template, final base and path."""
    keys = ("scene", "ship", "maneuver")
    data = await object_body(request, keys, keys)
    result, failed = await _work(preview_move_answer, data)
    return json_response(result, 400 if failed else 200)


async def nudge_all(request: Request) -> Response:
    """``POST /api/nudge-all``: every fix applied until legal, as ``tabletop fix`` does."""
    data = await object_body(request, ("scene", "shortest"), ("scene",))
    return json_response(await _work(nudge_all_answer, data))


def _render_bytes(scene_data: Any, fmt: str, title: str) -> bytes:
    from tabletop.app.common.extras import require_plots

    require_plots()
    scene = scene_of(scene_data)
    from tabletop import plots
    from tabletop.plots.picture import check_drawable

    check_drawable(scene)
    return plots.render(scene, fmt, title=title).picture


def _dispute_bytes(
    scene_data: Any, fmt: str, title: str, around: tuple[str, str], zoom: float | None
) -> bytes:
    """Draw ``tabletop render --around A B``'s close-up of the dispute between two objects."""
    from tabletop.app.common.extras import require_plots

    require_plots()
    scene = scene_of(scene_data)
    from tabletop.obstacles.legality import check
    from tabletop.obstacles.measuring import measure
    from tabletop.plots.dispute import check_zoom, render_dispute

    if zoom is not None:
        check_zoom(zoom)
    measurement = measure(scene, *around)
    drawn = render_dispute(
        scene,
        measurement,
        fmt,
        report=check(scene, fixes=False, margins=True),
        zoom_mm=zoom,
        title=title,
        names=scene.token_names(),
    )
    return drawn.picture


def _around(data: Any) -> tuple[tuple[str, str] | None, float | None]:
    """Return the request's ``around`` pair and ``zoom`` (mm), checked."""
    around, zoom = data.get("around"), data.get("zoom")
    if around is None:
        if zoom is not None:
            raise BoardRequestError("a zoom is for a close-up: give around too", where="key 'zoom'")
        return None, None
    if (
        not isinstance(around, list)
        or len(around) != 2
        or not all(isinstance(i, str) for i in around)
    ):
        raise BoardRequestError(
            f"expected two object ids, [A, B], got {show(around)}", where="key 'around'"
        )
    if zoom is not None and (isinstance(zoom, bool) or not isinstance(zoom, (int, float))):
        raise BoardRequestError(f"expected a length in mm, got {show(zoom)}", where="key 'zoom'")
    return (around[0], around[1]), None if zoom is None else float(zoom)


async def render(request: Request) -> Response:
    """``POST /api/render``: the scene drawn by ``tabletop render``'s renderer (PNG or SVG).

    With ``around: [A, B]`` (and an optional ``zoom``, mm), the close-up of the dispute
    between A and B that ``tabletop render --around A B [--zoom MM]`` draws.
    """
    keys = ("scene", "format", "around", "zoom")
    data = await object_body(request, keys, ("scene", "format"))
    fmt = data["format"]
    if fmt not in ("png", "svg"):
        raise BoardRequestError(f"expected 'png' or 'svg', got {show(fmt)}", where="key 'format'")
    title = os.path.basename(_board(request).source)
    around, zoom = _around(data)
    if around is not None:
        picture = await _work(_dispute_bytes, data["scene"], fmt, title, around, zoom)
    else:
        picture = await _work(_render_bytes, data["scene"], fmt, title)
    media = "image/png" if fmt == "png" else "image/svg+xml"
    return Response(picture, headers=API_HEADERS, media_type=media)


def _file_name(request: Request) -> str:
    name = request.headers.get("x-filename", "")
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    if not base or base in (".", "..") or "\0" in base or len(base) > 255:
        raise BoardRequestError(
            "expected the file's name, like scene.toml", where="header 'X-Filename'"
        )
    return base


def _loaded_scene(raw: bytes, name: str) -> Any:
    """Return the scene of an uploaded file: a client save (by content) or a scene file."""
    if clients.sniff(raw, name) is not None:
        scene = client_scene(raw, name)
        parse_scene(scene, name)
        return scene
    suffix = Path(name).suffix.lower()
    if suffix not in (".toml", ".json"):
        raise BoardRequestError(
            f"unknown scene file type {suffix or '(none)'!r}; expected .toml or .json, "
            "or a client save (a TTS save, a VASSAL .vsav or .vlog)",
            where=name,
        )
    with tempfile.TemporaryDirectory(prefix="tabletop-board-") as folder:
        path = Path(folder) / f"upload{suffix}"
        path.write_bytes(raw)
        try:
            data = read_scene_data(path)
        except SceneError as error:
            raise SceneError(error.message, file=name, entry=error.entry, key=error.key) from None
    parse_scene(data, name)
    return data


async def load(request: Request) -> Response:
    """``POST /api/load``: a scene file's or client save's scene (the board is not changed)."""
    name = _file_name(request)
    raw = await request.body()
    return json_response({"scene": await _work(_loaded_scene, raw, name)})


# -- the page ------------------------------------------------------------------------------


def routes() -> list[Route | WebSocketRoute]:
    """Return the board's routes."""
    return [
        WebSocketRoute("/api/live", live),
        *PAGE_FILES.routes(),
        Route("/api/scene", get_scene, methods=["GET"]),
        Route("/api/scene", put_scene, methods=["PUT"]),
        Route("/api/query", query, methods=["POST"]),
        Route("/api/save", save, methods=["POST"]),
        Route("/api/catalog", catalog, methods=["GET"]),
        Route("/api/layout", layout, methods=["POST"]),
        Route("/api/preview-move", preview_move, methods=["POST"]),
        Route("/api/nudge-all", nudge_all, methods=["POST"]),
        Route("/api/render", render, methods=["POST"]),
        Route("/api/load", load, methods=["POST"]),
    ]
