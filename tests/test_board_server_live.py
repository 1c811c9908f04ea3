"""The board's server as it runs: ``tabletop serve`` on a free port, spoken to over sockets.

What only a real server shows: the address it prints, Ctrl-C (exit 130), answers laid
out byte for byte as ``tabletop query`` run as a command writes them (the command
measures a chunk of requests together, the server each alone: their numbers within
``AGREEMENT_MM``, ``tests/agreement.py``), paths sent as written (an HTTP client would
tidy ``..`` away before sending), and a large body refused before it is sent whole.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from agreement import texts_agree

from tabletop.app.board import server

ROOT = Path(__file__).resolve().parent.parent
TOURNAMENT = ROOT / "examples" / "xwing-tournament.toml"
_ADDRESS = re.compile(r"on http://127\.0\.0\.1:(\d+)/")


class Live:
    """A running ``tabletop serve`` and how to talk to it."""

    def __init__(self, process: subprocess.Popen[str], port: int, banner: str) -> None:
        self.process, self.port, self.banner = process, port, banner

    def raw(self, request: bytes, *, timeout: float = 10.0) -> tuple[int, bytes]:
        """Send `request` as it is; return the status and the body."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as conn:
            conn.sendall(request)
            return _response(conn)

    def call(
        self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        fields = {"Host": f"127.0.0.1:{self.port}", "Connection": "close"}
        fields.update(headers or {})
        if body or method in ("POST", "PUT"):
            fields["Content-Length"] = str(len(body))
        head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields.items())
        return self.raw(head.encode("latin-1") + b"\r\n" + body)


def _response(conn: socket.socket) -> tuple[int, bytes]:
    data = b""
    while True:
        try:
            piece = conn.recv(65536)
        except ConnectionResetError:
            break
        if not piece:
            break
        data += piece
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    if b"transfer-encoding: chunked" in head.lower():
        body = _unchunk(body)
    return status, body


def _unchunk(body: bytes) -> bytes:
    out = b""
    while body:
        size_text, _, rest = body.partition(b"\r\n")
        size = int(size_text, 16)
        if size == 0:
            break
        out += rest[:size]
        body = rest[size + 2 :]
    return out


def start(*args: str) -> Live:
    process = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "serve", *args, "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert process.stdout is not None
    banner = process.stdout.readline()
    match = _ADDRESS.search(banner)
    assert match, banner + (process.stderr.read() if process.stderr else "")
    return Live(process, int(match.group(1)), banner)


def stop(live: Live) -> int:
    live.process.send_signal(signal.SIGINT)
    code = live.process.wait(timeout=20)
    for stream in (live.process.stdout, live.process.stderr):
        if stream is not None:
            stream.close()
    return code


@pytest.fixture(scope="module")
def live() -> Iterator[Live]:
    running = start(str(TOURNAMENT.relative_to(ROOT)))
    try:
        yield running
    finally:
        if running.process.poll() is None:
            stop(running)


def test_it_prints_its_address_and_ctrl_c_exits_130() -> None:
    running = start("--read-only")
    assert running.banner == (
        f"tabletop serve: an empty 3'x3' X-Wing 2.0 table on http://127.0.0.1:{running.port}/"
        ", read-only (Ctrl-C stops it)\n"
    )
    status, body = running.call("PUT", "/api/scene", b'{"version": 1, "scene": {}}')
    assert status == 403
    assert b"read-only" in body
    assert stop(running) == 130


def _requests() -> list[dict[str, Any]]:
    scene = json.loads(json.dumps(__import__("tomllib").loads(TOURNAMENT.read_text("utf-8"))))
    return [
        {"op": "check", "scene": scene, "margins": True},
        {"op": "check", "scene": scene, "fix": False, "id": "drag-7"},
        {"op": "measure", "scene": scene, "from": "wedge", "to": "vader", "arc": "front"},
        {"op": "move", "scene": scene, "ship": "wedge", "maneuver": "bank 2 left"},
        {"op": "measure_many", "scene": scene, "pairs": [{"from": "wedge", "to": "rock-a"}]},
        {"op": "fly", "scene": scene},
        {"op": "check", "scene": scene, "colour": "red"},
        {"op": "measure", "scene": scene, "from": "wedge", "to": "nobody"},
    ]


def test_query_is_what_tabletop_query_prints(live: Live) -> None:
    lines = [json.dumps(r).encode("utf-8") for r in _requests()] + [b"{not json", b"[1]"]
    scene = json.loads(json.dumps(__import__("tomllib").loads(TOURNAMENT.read_text("utf-8"))))
    assert {s["id"] for s in scene["ships"]} >= {"wedge", "vader"}
    for line in lines:
        printed = subprocess.run(
            [sys.executable, "-m", "tabletop", "query"],
            input=line + b"\n",
            capture_output=True,
            check=True,
            cwd=ROOT,
        ).stdout
        status, body = live.call("POST", "/api/query", line)
        assert texts_agree(body.decode(), printed.decode()), (line[:80], body, printed)
        assert status == (400 if "error" in json.loads(printed) else 200)


@pytest.mark.parametrize(
    "path",
    [
        "/static/../../etc/passwd",
        "/static/../../../../../../etc/passwd",
        "/static/..%2f..%2f..%2f..%2fetc%2fpasswd",
        "/static/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/static/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
        "/static/..%5c..%5cetc%5cpasswd",
        "/static/%252e%252e/%252e%252e/etc/passwd",
        "/static//etc/passwd",
        "/static/%2fetc%2fpasswd",
        "/static/....//....//etc/passwd",
        "/../../etc/passwd",
        "/static/../board/api.py",
        "/static/../api.py",
        "//etc/passwd",
        "http://127.0.0.1/etc/passwd",
    ],
)
def test_no_path_outside_the_static_folder_is_served(live: Live, path: str) -> None:
    status, body = live.call("GET", path)
    assert status in (400, 404)
    assert b"root:" not in body
    assert b"import" not in body


def test_foreign_host_and_origin_are_refused_over_the_wire(live: Live) -> None:
    before = live.call("GET", "/api/scene")
    status, body = live.call("GET", "/api/scene", headers={"Host": "attacker.example"})
    assert (status, json.loads(body)["error"]["where"]) == (403, "Host")
    put = b'{"version": 1, "scene": {}}'
    status, _ = live.call("PUT", "/api/scene", put, headers={"Origin": "http://attacker.example"})
    assert status == 403
    assert live.call("GET", "/api/scene") == before


def test_a_50_mb_body_is_refused_before_it_is_sent(live: Live) -> None:
    size = 50 * 1024 * 1024
    head = (
        f"PUT /api/scene HTTP/1.1\r\nHost: 127.0.0.1:{live.port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {size}\r\n\r\n"
    )
    start_time = time.perf_counter()
    with socket.create_connection(("127.0.0.1", live.port), timeout=10) as conn:
        conn.sendall(head.encode() + b"x" * 65536)
        status, body = _response(conn)
    took = time.perf_counter() - start_time
    assert status == 413
    assert json.loads(body)["error"]["where"] == "Content-Length"
    assert took < 0.5
    assert live.call("GET", "/api/scene")[0] == 200  # and the server goes on


def test_a_host_not_loopback_is_said_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    monkeypatch.setattr(server, "bind", lambda host, port: listener)
    monkeypatch.setattr(server, "serve", lambda app, sock: True)
    out = io.StringIO()
    args = argparse.Namespace(
        scene=None, port=0, host="192.0.2.10", open=False, read_only=False, json=False
    )
    assert server.run(args, out) == 130
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(
        "tabletop serve: an empty 3'x3' X-Wing 2.0 table on http://192.0.2.10:"
    )
    assert lines[1].startswith("tabletop serve: listening on 192.0.2.10, not only")
    assert len(lines) == 2


def run_cli(*argv: str) -> tuple[int, str, str]:
    from tabletop.app.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = main(["serve", *argv], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_a_file_it_cannot_open_is_exit_2_before_it_listens(tmp_path: Path) -> None:
    assert run_cli(str(tmp_path / "nope.toml")) == (
        2,
        "",
        f"tabletop serve: error: {tmp_path / 'nope.toml'}: no such file\n",
    )
    bad = tmp_path / "bad.toml"
    bad.write_text('[[ships]]\nid = "a"\nbase = "tiny"\nat = [1, 2]\n', "utf-8")
    code, _, err = run_cli(str(bad))
    assert code == 2
    assert err.startswith(f"tabletop serve: error: {bad}: ships[0] 'a': key 'base': unknown base")
    assert run_cli("-")[0] == 2


def test_a_port_in_use_is_exit_2_naming_the_port() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = run_cli("--port", str(port))
    assert (code, out) == (2, "")
    assert err.startswith(f"tabletop serve: error: --port: cannot listen on 127.0.0.1 port {port}:")


def test_without_the_serve_extra_it_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name, *a)
    )
    code, _, err = run_cli()
    assert code == 2
    assert "install the serve extra: pip install 'tabletop-judge[serve]'" in err


def test_open_opens_the_page_in_the_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    import webbrowser

    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", opened.append)

    def serve_a_second(app: Any, listener: socket.socket) -> bool:
        time.sleep(1.0)  # the page opens half a second after the server starts
        return False

    monkeypatch.setattr(server, "serve", serve_a_second)
    args = argparse.Namespace(
        scene=None, port=0, host="127.0.0.1", open=True, read_only=False, json=False
    )
    assert server.run(args, io.StringIO()) == 0
    assert len(opened) == 1
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", opened[0])


def test_a_vassal_log_served_at_a_step_saves_beside_itself(tmp_path: Path) -> None:
    from board_saves import VASSAL_RESOLUTION_MM, vassal_log, vassal_log_placed

    path = vassal_log(tmp_path / "game.vlog")
    original = path.read_bytes()
    running = start(str(path), "--step", "1")
    try:
        assert running.banner.startswith(f"tabletop serve: {path} (--step 1) on http://")
        status, body = running.call("GET", "/api/scene")
        assert status == 200
        scene = json.loads(body)["scene"]
        ships = {s["id"]: s["at"] for s in scene["ships"]}
        for piece in vassal_log_placed(1):
            if piece.kind == "ship":  # after step 1 Soontir Fel is at (650, 700)
                x, y = ships[piece.id]
                assert abs(x - piece.x_mm) <= VASSAL_RESOLUTION_MM
                assert abs(y - piece.y_mm) <= VASSAL_RESOLUTION_MM
        status, body = running.call("POST", "/api/save")
        assert (status, json.loads(body)) == (200, {"saved": str(tmp_path / "game.board.toml")})
    finally:
        assert stop(running) == 130
    assert path.read_bytes() == original
    assert "Soontir Fel" in (tmp_path / "game.board.toml").read_text("utf-8")
