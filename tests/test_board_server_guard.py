"""The board server's guard and its edges: Host, Origin, size, rate, faults, saves, clients.

Through Starlette's test client, and, for what a client would not send (two Host
headers, a websocket), the guard called as the ASGI application it is.
"""

from __future__ import annotations

import asyncio
import io
import json
import sys
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from board_server_support import (
    SMALL_SHIP,
    TOURNAMENT,
    TestClient,
    client_of,
    error_of,
    scene_text,
)

from tabletop.app.board import api
from tabletop.app.board.document import BoardDocument
from tabletop.app.board.security import Guard, RateLimiter, own_addresses


@pytest.fixture
def board() -> BoardDocument:
    return BoardDocument.open(str(TOURNAMENT))


@pytest.fixture
def client(board: BoardDocument) -> Iterator[TestClient]:
    with client_of(board) as test_client:
        yield test_client


@pytest.mark.parametrize(
    "host", ["evil.example", "127.0.0.1:9999", "127.0.0.1", "localhost.evil:8765"]
)
def test_a_foreign_host_is_403_and_changes_nothing(
    client: TestClient, host: str, tmp_path: Path
) -> None:
    before = scene_text(client)
    put = client.put("/api/scene", json={"version": 1, "scene": SMALL_SHIP}, headers={"Host": host})
    assert error_of(put, 403)["where"] == "Host"
    assert error_of(client.get("/api/scene", headers={"Host": host}), 403)["where"] == "Host"
    assert scene_text(client) == before


@pytest.mark.parametrize(
    "host", ["localhost:8765", "[::1]:8765", "127.0.0.1:8765", "LOCALHOST:8765"]
)
def test_the_loopback_names_are_its_own(client: TestClient, host: str) -> None:
    assert client.get("/api/scene", headers={"Host": host}).status_code == 200
    origin = {"Host": host, "Origin": f"http://{host.lower()}"}
    assert client.get("/api/scene", headers=origin).status_code == 200


@pytest.mark.parametrize(
    "origin",
    ["http://evil.example", "null", "https://127.0.0.1:8765", "http://127.0.0.1:8766", "file://"],
)
def test_a_foreign_origin_is_403_and_changes_nothing(tmp_path: Path, origin: str) -> None:
    path = tmp_path / "table.toml"
    path.write_text(TOURNAMENT.read_text("utf-8"), "utf-8")
    with client_of(BoardDocument.open(str(path))) as client:
        before = scene_text(client)
        headers = {"Origin": origin}
        put = client.put("/api/scene", json={"version": 1, "scene": SMALL_SHIP}, headers=headers)
        assert error_of(put, 403)["where"] == "Origin"
        assert error_of(client.post("/api/save", headers=headers), 403)["where"] == "Origin"
        assert scene_text(client) == before
    assert path.read_text("utf-8") == TOURNAMENT.read_text("utf-8")


def test_a_body_over_8_mib_is_413_at_once(client: TestClient) -> None:
    body = b"x" * (50 * 1024 * 1024)
    start = time.perf_counter()
    response = client.put("/api/scene", content=body)
    took = time.perf_counter() - start
    assert error_of(response, 413)["where"] == "Content-Length"
    assert took < 0.5

    sent = 0

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it streams
        nonlocal sent
        for _ in range(800):
            sent += 1
            yield b"x" * 65536

    start = time.perf_counter()
    response = client.post("/api/query", content=chunks())
    assert error_of(response, 413)["message"].startswith("the body is over 8388608 bytes")
    assert time.perf_counter() - start < 1.0
    assert client.put("/api/scene", content=b"x" * (8 * 1024 * 1024 + 1)).status_code == 413
    assert scene_text(client).startswith('{"version": 1,')


def test_more_than_50_requests_a_second_is_429(board: BoardDocument) -> None:
    now = [100.0]
    with client_of(board) as client:
        assert client.get("/api/scene").status_code == 200  # builds the middleware
        guard = client.app.middleware_stack.app  # type: ignore[attr-defined]
        assert isinstance(guard, Guard)
        guard.limiter = RateLimiter(50, clock=lambda: now[0])  # a clock the test moves
        codes = []
        for _ in range(51):
            codes.append(client.get("/api/scene").status_code)
            now[0] += 0.019  # 51 requests in 0.969 s
        assert codes == [200] * 50 + [429]
        assert error_of(client.get("/api/scene"), 429)["message"].startswith("more than 50")
        now[0] = 100.0 + 1.0  # the first request is a second old: one more may come
        assert client.get("/api/scene").status_code == 200
        assert client.get("/api/scene").status_code == 429
        now[0] += 1.0
        assert client.get("/api/scene").status_code == 200


def test_unknown_routes_and_methods_answer_the_error_object(client: TestClient) -> None:
    assert error_of(client.get("/api/nothing"), 404)["where"] == "/api/nothing"
    assert error_of(client.delete("/api/scene"), 405)["where"] == "/api/scene"
    assert error_of(client.get("/api/save"), 405)["where"] == "/api/save"


def test_a_fault_of_the_server_is_a_logged_500_without_a_traceback(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(api, "layout_answer", broken)
    response = client.post("/api/layout", json={"scene": SMALL_SHIP})
    error = error_of(response, 500)
    assert error == {
        "message": "internal error: RuntimeError; the server logged it",
        "where": "POST /api/layout",
    }
    assert "a bug" in caplog.text


# --- the guard as an ASGI application -------------------------------------------------------


def call_guard(headers: list[tuple[bytes, bytes]], kind: str = "http") -> list[dict[str, Any]]:
    """Call the guard with a request of `headers`; return what it sent (the app sends 200)."""
    sent: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"passed"})

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(dict(message))

    guard = Guard(app, hosts=own_addresses("127.0.0.1", 8765))
    scope = {"type": kind, "headers": headers, "client": ("127.0.0.1", 5000), "path": "/"}
    asyncio.run(guard(scope, receive, send))
    return sent


def test_the_guard_refuses_two_host_headers_and_a_bad_length() -> None:
    host = (b"host", b"127.0.0.1:8765")
    assert call_guard([host])[0]["status"] == 200
    assert call_guard([host, (b"host", b"127.0.0.1:8765")])[0]["status"] == 403
    assert call_guard([])[0]["status"] == 403
    for length in (b"-1", b"12x", b"1e9"):
        sent = call_guard([host, (b"content-length", length)])
        assert sent[0]["status"] == 400
        assert json.loads(sent[1]["body"])["error"]["where"] == "Content-Length"
    two = call_guard([host, (b"content-length", b"1"), (b"content-length", b"1")])
    assert two[0]["status"] == 400
    origins = [host, (b"origin", b"http://127.0.0.1:8765"), (b"origin", b"http://127.0.0.1:8765")]
    assert call_guard(origins)[0]["status"] == 403


def test_the_guard_closes_a_websocket() -> None:
    assert call_guard([(b"host", b"127.0.0.1:8765")], kind="websocket") == [
        {"type": "websocket.close", "code": 1008}
    ]


# --- saving where it cannot, and client saves ----------------------------------------------------


def test_a_save_that_cannot_be_written_is_400_naming_the_path(tmp_path: Path) -> None:
    folder = tmp_path / "gone"
    folder.mkdir()
    path = folder / "table.toml"
    path.write_text(TOURNAMENT.read_text("utf-8"), "utf-8")
    with client_of(BoardDocument.open(str(path))) as client:
        path.unlink()
        folder.rmdir()
        error = error_of(client.post("/api/save"), 400)
    assert error["where"] == str(path)
    assert "no folder" in error["message"]


class ClientFileError(ValueError):
    """As the client-save reader's error: a ValueError, not an InvalidInputError."""


class FakeClients(types.ModuleType):
    """A stand-in for ``tabletop.app.clients``: a 'save' is a file that begins with SAVE."""

    def __init__(self) -> None:
        super().__init__("tabletop.app.clients")

    def sniff(self, data: bytes, name: str) -> str | None:
        return "fake" if data.startswith(b"SAVE") else None

    def read_client(self, source: Any, **options: Any) -> Any:
        data = source if isinstance(source, bytes) else Path(source).read_bytes()
        if b"broken" in data:
            raise ClientFileError("game.vsav: piece 'ab12': key 'position': expected 2 numbers")
        scene = {"ruleset": "xwing2", "phase": "play", "ships": SMALL_SHIP["ships"]}
        return types.SimpleNamespace(scene_data=lambda phase="play": scene)


@pytest.fixture
def fake_clients(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tabletop.app.clients", FakeClients())


@pytest.mark.usefixtures("fake_clients")
def test_a_client_save_opens_and_saves_beside_itself(tmp_path: Path) -> None:
    save = tmp_path / "game.vsav"
    save.write_bytes(b"SAVE of a game")
    board = BoardDocument.open(str(save))
    assert board.scene()["phase"] == "play"
    with client_of(board) as client:
        assert client.post("/api/save").json() == {"saved": str(tmp_path / "game.board.toml")}
    assert save.read_bytes() == b"SAVE of a game"


@pytest.mark.usefixtures("fake_clients")
def test_load_reads_a_client_save_by_its_content(client: TestClient) -> None:
    loaded = client.post("/api/load", content=b"SAVE x", headers={"X-Filename": "g.json"})
    assert loaded.json()["scene"]["ships"] == SMALL_SHIP["ships"]
    plain = client.post(
        "/api/load", content=b"ruleset = 'armada'", headers={"X-Filename": "s.toml"}
    )
    assert plain.json() == {"scene": {"ruleset": "armada"}}


def test_without_the_clients_package_only_scene_files_load(client: TestClient) -> None:
    error = error_of(
        client.post("/api/load", content=b"SAVE", headers={"X-Filename": "g.vsav"}), 400
    )
    assert error["message"] == "unknown scene file type '.vsav'; expected .toml or .json"


# --- bad bodies of every route ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "body", "where"),
    [
        ("/api/layout", {"scene": {"ruleset": "chess"}}, "scene: key 'ruleset'"),
        ("/api/layout", {}, "key 'scene'"),
        ("/api/layout", {"scene": {}, "zoom": 2}, "key 'zoom'"),
        (
            "/api/render",
            {"scene": {"ships": [{"id": "a"}]}, "format": "png"},
            "scene: ships[0] 'a': key 'base'",
        ),
        ("/api/render", {"scene": {}}, "key 'format'"),
        ("/api/preview-move", {"scene": {}, "ship": "a"}, "key 'maneuver'"),
        ("/api/preview-move", [], "request body"),
    ],
)
def test_every_route_refuses_a_bad_body_with_400(
    client: TestClient, path: str, body: Any, where: str
) -> None:
    assert error_of(client.post(path, json=body), 400)["where"] == where


def test_every_interface_answers_to_loopback_and_this_machines_names() -> None:
    import socket

    names = own_addresses("0.0.0.0", 8765)
    assert {"localhost:8765", "127.0.0.1:8765", "[::1]:8765", "0.0.0.0:8765"} <= names
    assert f"{socket.gethostname().lower()}:8765" in names
    assert own_addresses("192.0.2.7", 8765) == frozenset({"192.0.2.7:8765"})
    assert own_addresses("fe80::1", 8765) == frozenset({"[fe80::1]:8765"})


@pytest.mark.usefixtures("fake_clients")
def test_a_save_the_reader_refuses_is_400_or_exit_2_never_a_traceback(
    client: TestClient, tmp_path: Path
) -> None:
    from tabletop.app.cli import main

    expected = "game.vsav: piece 'ab12': key 'position': expected 2 numbers"
    response = client.post("/api/load", content=b"SAVE broken", headers={"X-Filename": "g.vsav"})
    assert error_of(response, 400) == {"message": expected, "where": "g.vsav"}
    save = tmp_path / "game.vsav"
    save.write_bytes(b"SAVE broken")
    err = io.StringIO()
    assert main(["serve", str(save)], out=io.StringIO(), err=err) == 2
    assert err.getvalue() == f"tabletop serve: error: {save}: {expected}\n"
