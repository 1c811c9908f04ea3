"""``tabletop event serve`` as a command: what it prints, the stream, the CLI beside it.

The server runs as its own process on a free loopback port (stopped as Ctrl-C stops it).
"""

from __future__ import annotations

import importlib.util
import json
import time
from pathlib import Path

import pytest
from event_server_support import armada_event, cli

from benchmarks.event_server import EventServer
from tabletop.app.event.server.secretsfile import read_secrets, secrets_path

if importlib.util.find_spec("uvicorn") is None:
    pytest.skip("the serve extra is needed", allow_module_level=True)

import httpx


def test_it_prints_the_addresses_and_the_secrets_file_and_streams_changes(
    tmp_path: Path,
) -> None:
    event = armada_event(tmp_path)
    with EventServer(event) as server:
        head = "".join(server.lines)
        secret = read_secrets(secrets_path(event))
        assert secret is not None
        assert server.token == secret.token
        assert f"public page: {server.url}/" in head
        assert f"TO console: {server.url}/to#{secret.token}" in head
        assert f"secrets: {secrets_path(event)}" in head
        with (
            httpx.Client(base_url=server.url, timeout=10) as client,
            client.stream("GET", "/api/stream") as stream,
        ):
            assert stream.headers["content-type"].startswith("text/event-stream")
            lines = stream.iter_lines()
            first = json.loads(next(line for line in lines if line.startswith("data:"))[5:])
            started = time.monotonic()
            assert cli("event", "result", str(event), "1", "1", "--scores", "140", "100")[0] == 0
            second = json.loads(next(line for line in lines if line.startswith("data:"))[5:])
            assert second["version"] != first["version"]
            assert time.monotonic() - started < 2.0  # a change in the terminal, seen at once
            after = client.get("/api/event").json()
            assert after["version"] == second["version"]
            assert after["pairs"][0]["result"]["score_a"] == 140
        errors = server.stop()
    assert secret.token not in errors
    printed = tmp_path / "slips.html"
    assert cli("event", "print", str(event), "--what", "slips", "-o", str(printed))[0] == 0
    if importlib.util.find_spec("segno") is not None:
        assert "<svg" in printed.read_text()  # the QR code of the public page


def test_read_only_serves_pages_and_refuses_writes(tmp_path: Path) -> None:
    event = armada_event(tmp_path)
    before = event.read_bytes()
    with EventServer(event, ("--read-only",)) as server:
        assert "(read-only)" in server.lines[0]
        with httpx.Client(base_url=server.url, timeout=10) as client:
            assert client.get("/").status_code == 200
            assert client.get("/api/event").status_code == 200
            headers = {"Authorization": f"Bearer {server.token}"}
            answer = client.post("/api/to/clock", json={"action": "start"}, headers=headers)
            assert answer.status_code == 403
    assert event.read_bytes() == before


def test_on_every_interface_it_prints_the_qr_code_of_the_public_page(tmp_path: Path) -> None:
    event = armada_event(tmp_path)
    with EventServer(event, ("--host", "0.0.0.0")) as server:
        assert server.process is not None
        assert server.process.stdout is not None
        head = "".join(server.lines)
        assert "public page: http://" in head
        assert "TO console: http://127.0.0.1:" in head  # the token is for this laptop
        port = server.url.rsplit(":", 1)[1]
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
            assert client.get("/api/event").status_code == 200
        if importlib.util.find_spec("segno") is not None:
            drawn = [server.process.stdout.readline() for _ in range(5)]
            assert any("█" in line or "▀" in line for line in drawn)
