"""The board server's guard and its edges: Host, Origin, size, rate, faults, saves.

Through Starlette's test client, and, for what a client would not send (two Host
headers), the guard called as the ASGI application it is. The live verdict's WebSocket:
test_board_server_websocket.py.
"""

from __future__ import annotations

import asyncio
import io
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from board_saves import (
    ENCODINGS,
    TTS_PURPLE_ORANGE,
    TTS_RED_BLUE,
    TTS_RESOLUTION_MM,
    VASSAL_RESOLUTION_MM,
    Placed,
    angle_gap,
    tts_two_mats,
    vassal_log,
    vassal_log_placed,
    vassal_placed,
    vassal_save,
)
from board_server_support import (
    SMALL_SHIP,
    TOURNAMENT,
    TestClient,
    client_of,
    error_of,
    scene_text,
)
from common import run, run_json

from tabletop.app.board import api
from tabletop.app.board.document import BoardDocument
from tabletop.app.web.guard import Guard, RateLimiter, own_addresses


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


def test_the_guard_refuses_a_websocket_without_origin() -> None:
    # the websockets that pass: tests/test_board_server_websocket.py
    assert call_guard([(b"host", b"127.0.0.1:8765")], kind="websocket") == [
        {"type": "websocket.close", "code": 1008}
    ]


# --- saving where it cannot ------------------------------------------------------------------------


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


# --- client saves: files of each client's format, written by the test writers ---------------


def placed_entries(scene: dict[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    """Every piece of a scene by id: (kind, its scene-file entry)."""
    found = {e["id"]: ("obstacle", e) for e in scene.get("obstacles", [])}
    found.update({e["id"]: ("ship", e) for e in scene.get("ships", [])})
    return found


def assert_placed(scene: dict[str, Any], placed: tuple[Placed, ...], resolution_mm: float) -> None:
    """The scene holds exactly the pieces the save was written with, at their poses."""
    found = placed_entries(scene)
    assert set(found) == {p.id for p in placed}
    for piece in placed:
        kind, entry = found[piece.id]
        assert kind == piece.kind, piece.id
        assert abs(entry["at"][0] - piece.x_mm) <= resolution_mm, piece.id
        assert abs(entry["at"][1] - piece.y_mm) <= resolution_mm, piece.id
        angle = entry["heading"] if kind == "ship" else entry["angle"]
        assert angle_gap(angle, piece.angle_deg) <= 1e-3, piece.id
        assert entry["base" if kind == "ship" else "token"] == piece.became, piece.id
        assert entry.get("flipped", False) is piece.flipped, piece.id


def serve_refused(*argv: str) -> str:
    """Run ``tabletop serve ARGV``, which must refuse (exit 2); return what it printed."""
    from tabletop.app.cli import main

    out, err = io.StringIO(), io.StringIO()
    assert main(["serve", *argv], out=out, err=err) == 2
    assert out.getvalue() == ""
    assert "Traceback" not in err.getvalue()
    return err.getvalue()


def test_a_two_mat_tts_save_opens_on_the_table_given_and_saves_beside_itself(
    tmp_path: Path,
) -> None:
    path = tts_two_mats(tmp_path / "game.json")
    original = path.read_bytes()
    # pieces on both mats: refused without --table, naming each mat and its pieces
    refused = serve_refused(str(path))
    assert refused.startswith(f"tabletop serve: error: {path}")
    assert "m1 'Red-Blue': 4 pieces" in refused
    assert "m2 'Purple-Orange': 2 pieces" in refused
    for table, placed in (("m1", TTS_RED_BLUE), ("Purple-Orange", TTS_PURPLE_ORANGE)):
        board = BoardDocument.open(str(path), table=table)
        scene = board.scene()
        assert_placed(scene, placed, TTS_RESOLUTION_MM)
        assert (scene["phase"], scene["source"]["client"]) == ("play", "tts-xwing2")
        assert scene == run_json("import", path, "--table", table, "--json")["scene"]
    setup = BoardDocument.open(str(path), table="m1", phase="setup")
    assert setup.scene()["phase"] == "setup"
    with client_of(board) as client:
        assert client.get("/api/scene").json() == {"version": 1, "scene": scene}
        saved = client.post("/api/save").json()
    assert saved == {"saved": str(tmp_path / "game.board.toml")}
    assert path.read_bytes() == original
    # the board's file checks as the save itself does on that table
    assert (
        run("check", tmp_path / "game.board.toml", "--json")[:2]
        == run("check", path, "--table", "Purple-Orange", "--json")[:2]
    )
    assert "nowhere" in serve_refused(str(path), "--table", "nowhere")


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_vassal_save_in_each_encoding_opens_loads_and_saves_beside_itself(
    client: TestClient, tmp_path: Path, encoding: str
) -> None:
    path = vassal_save(tmp_path / "game.vsav", encoding)
    original = path.read_bytes()
    board = BoardDocument.open(str(path))
    scene = board.scene()
    assert_placed(scene, vassal_placed(), VASSAL_RESOLUTION_MM)
    assert scene["source"]["client"] == "vassal-xwing"
    assert scene["source"]["position_mm"] == pytest.approx(1 / 2.825, abs=1e-6)
    assert scene == run_json("import", path, "--json")["scene"]
    # loaded into another board: the same scene, that board unchanged
    before = scene_text(client)
    loaded = client.post("/api/load", content=original, headers={"X-Filename": "game.vsav"})
    assert loaded.json() == {"scene": scene}
    assert scene_text(client) == before
    # saved beside the save, never over it, nor over another file of that name
    taken = tmp_path / "game.board.toml"
    taken.write_text("# a judge's own notes\n", "utf-8")
    with client_of(board) as board_client:
        assert board_client.post("/api/save").json() == {
            "saved": str(tmp_path / "game.board-2.toml")
        }
    assert taken.read_text("utf-8") == "# a judge's own notes\n"
    assert path.read_bytes() == original
    assert run_json("check", tmp_path / "game.board-2.toml", "--json")["legal"] is True


def test_a_vassal_log_opens_at_the_step_given(client: TestClient, tmp_path: Path) -> None:
    path = vassal_log(tmp_path / "game.vlog")
    original = path.read_bytes()
    scenes = []
    for step in (0, 1, 2):
        scene = BoardDocument.open(str(path), step=step).scene()
        assert_placed(scene, vassal_log_placed(step), VASSAL_RESOLUTION_MM)
        assert scene == run_json("import", path, "--step", str(step), "--json")["scene"]
        scenes.append(scene)
    # without --step: its last position, at start and through /api/load alike
    board = BoardDocument.open(str(path))
    assert board.scene() == scenes[2]
    loaded = client.post("/api/load", content=original, headers={"X-Filename": "game.vlog"})
    assert loaded.json() == {"scene": scenes[2]}
    assert "step" in serve_refused(str(path), "--step", "3")
    with client_of(BoardDocument.open(str(path), step=1)) as board_client:
        assert board_client.post("/api/save").json() == {"saved": str(tmp_path / "game.board.toml")}
    assert path.read_bytes() == original
    assert run_json("check", tmp_path / "game.board.toml", "--json")["legal"] is True


def test_client_options_on_a_scene_file_or_no_file_are_refused(tmp_path: Path) -> None:
    scene = tmp_path / "table.toml"
    scene.write_text(TOURNAMENT.read_text("utf-8"), "utf-8")
    assert serve_refused(str(scene), "--step", "1") == (
        f"tabletop serve: error: {scene}: --step apply to a client file "
        "(a TTS or VASSAL save); this is a scene file\n"
    )
    assert serve_refused("--table", "m1", "--phase", "setup") == (
        "tabletop serve: error: SCENE: --table, --phase apply to a client file "
        "(a TTS or VASSAL save); no file was given\n"
    )
    assert scene.read_text("utf-8") == TOURNAMENT.read_text("utf-8")


NAN_SAVE = (
    b'{"GameMode": "X-Wing 2.0", "ObjectStates": [{"GUID": "a1b2c3", "Transform": {"posX": NaN}}]}'
)


@pytest.mark.parametrize(
    ("name", "needle"),
    [
        ("bad.json", "object 'a1b2c3': key 'Transform.posX': expected a finite number"),
        ("bad.vsav", "truncated"),
    ],
)
def test_a_save_the_reader_refuses_is_400_or_exit_2_never_a_traceback(
    client: TestClient, tmp_path: Path, name: str, needle: str
) -> None:
    if name.endswith(".json"):
        raw = NAN_SAVE
    else:
        whole = vassal_save(tmp_path / "whole.vsav", "xz").read_bytes()
        raw = whole[: len(whole) // 2]
    before = scene_text(client)
    error = error_of(client.post("/api/load", content=raw, headers={"X-Filename": name}), 400)
    assert error["where"].startswith(name)
    assert needle in f"{error['where']}: {error['message']}"
    assert scene_text(client) == before
    path = tmp_path / name
    path.write_bytes(raw)
    refused = serve_refused(str(path))
    assert refused.startswith(f"tabletop serve: error: {path}")
    assert needle in refused
    written = {name} | ({"whole.vsav"} if name.endswith(".vsav") else set())
    assert {p.name for p in tmp_path.iterdir()} == written  # no board file beside it
