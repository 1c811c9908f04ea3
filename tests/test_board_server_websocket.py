"""The live verdict's WebSocket (``/api/live``) and the guard in front of it.

The handshake is held to the server's own ``Host`` and to a required ``Origin`` of its
own page (refused 403 with the error object, never reaching the route); each message is
a request of ``tabletop query`` answered with the command's line, and is held to the
rate and the size of a request. Through Starlette's test client, and over a socket to
the real server (uvicorn's wsproto protocol), whose answers must be the command's byte
for byte.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from board_server_support import BASE, ROOT, TOURNAMENT, TestClient, client_of

from benchmarks.live_socket import LiveSocket, Refused
from tabletop.app.board.document import BoardDocument
from tabletop.app.web.guard import Guard, own_addresses

LIVE = "ws://127.0.0.1:8765/api/live"
ORIGIN = {"origin": BASE}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with client_of(BoardDocument.open(str(TOURNAMENT))) as test_client:
        yield test_client


def scene(client: TestClient) -> Any:
    return json.loads(client.get("/api/scene").text)["scene"]


def refused(client: TestClient, url: str, headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
    """Open a WebSocket that must be refused; return its status and error object."""
    from starlette.testclient import WebSocketDenialResponse

    with pytest.raises(WebSocketDenialResponse) as caught:
        with client.websocket_connect(url, headers=headers):
            pass
    body = json.loads(caught.value.content)
    assert set(body) == {"error"}
    assert set(body["error"]) == {"message", "where"}
    error: dict[str, Any] = body["error"]
    return caught.value.status_code, error


def test_a_check_over_the_socket_is_answered_with_its_id(client: TestClient) -> None:
    with client.websocket_connect(LIVE, headers=ORIGIN) as live:
        for ident in (1, 2):
            live.send_text(json.dumps({"op": "check", "id": ident, "scene": scene(client)}))
            answer = json.loads(live.receive_text())
            assert answer["id"] == ident
            assert answer["legal"] is True
        live.send_text("not json")
        assert json.loads(live.receive_text())["error"]["where"] == "request 1"


@pytest.mark.parametrize("host", ["evil.example", "127.0.0.1:9999", "localhost.evil:8765"])
def test_a_foreign_host_is_refused(client: TestClient, host: str) -> None:
    status, error = refused(client, f"ws://{host}/api/live", ORIGIN)
    assert (status, error["where"]) == (403, "Host")


@pytest.mark.parametrize(
    "origin", [None, "http://evil.example", "http://127.0.0.1:9999", "https://127.0.0.1:8765"]
)
def test_an_origin_is_required_and_must_be_its_own(client: TestClient, origin: str | None) -> None:
    status, error = refused(client, LIVE, {} if origin is None else {"origin": origin})
    assert (status, error["where"]) == (403, "Origin")


def test_messages_over_the_socket_rate_are_answered_with_the_error_and_go_no_further() -> None:
    board = BoardDocument.open(str(TOURNAMENT))
    with client_of(board, rate=2, message_rate=3) as client:
        text = json.dumps({"op": "check", "id": 0, "scene": scene(client)})  # request 1
        with client.websocket_connect(LIVE, headers=ORIGIN) as live:  # request 2
            answers = []
            for _ in range(5):  # the socket's 3 in this second, then 2 refused
                live.send_text(text)
                answers.append(json.loads(live.receive_text()))
        # the socket's messages are not the client's requests, nor the other way round
        assert client.get("/api/scene").status_code == 429
    assert [set(a) >= {"id", "legal"} for a in answers] == [True, True, True, False, False]
    message = "more than 3 messages in one second on this socket; slow down"
    assert answers[4] == {"error": {"message": message, "where": None}}


def test_a_socket_may_ask_once_a_frame_at_60_hz() -> None:
    board = BoardDocument.open(str(TOURNAMENT))
    with client_of(board) as client:
        text = json.dumps({"op": "check", "id": 0, "scene": scene(client)})
        with client.websocket_connect(LIVE, headers=ORIGIN) as live:
            answers = []
            for _ in range(60):
                live.send_text(text)
                answers.append(json.loads(live.receive_text()))
    assert all(a.get("id") == 0 for a in answers), [a for a in answers if "error" in a][:1]


def test_a_message_over_the_body_limit_is_refused_and_the_socket_stays_open() -> None:
    with client_of(BoardDocument.open(str(TOURNAMENT)), max_body=4000) as client:
        with client.websocket_connect(LIVE, headers=ORIGIN) as live:
            live.send_text(" " * 4001)
            message = json.loads(live.receive_text())["error"]["message"]
            assert message == "the body is 4001 bytes; this server takes at most 4000 bytes"
            live.send_text("é" * 2001)  # 4002 bytes in UTF-8
            assert "4002 bytes" in json.loads(live.receive_text())["error"]["message"]
            live.send_text(json.dumps({"op": "check", "id": 5, "scene": {}}))
            assert json.loads(live.receive_text())["id"] == 5


def test_without_the_http_answer_extension_a_refusal_is_a_close() -> None:
    sent: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("a refused socket reaches no route")

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    async def send(message: Any) -> None:
        sent.append(dict(message))

    guard = Guard(app, hosts=own_addresses("127.0.0.1", 8765))
    scope = {"type": "websocket", "headers": [(b"host", b"127.0.0.1:8765")], "path": "/"}
    asyncio.run(guard(scope, receive, send))
    assert sent == [{"type": "websocket.close", "code": 1008}]


# --- the real server -------------------------------------------------------------------------


def test_the_real_server_answers_as_the_command_and_refuses_as_the_guard() -> None:
    from benchmarks.board import Server, requests, tournament_table

    lines = list(requests(tournament_table(), 3))
    with_ids = [json.dumps({**json.loads(line), "id": n}) for n, line in enumerate(lines)]
    command = subprocess.run(
        [sys.executable, "-m", "tabletop", "query"],
        input="\n".join(with_ids) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    with Server() as server:
        with LiveSocket(server.port) as live:
            answers = [live.ask(text) for text in with_ids]
        assert "\n".join(answers) + "\n" == command.stdout
        for host, origin, where in (
            ("evil.example:80", None, "Host"),
            (None, "-", "Origin"),
            (None, "http://evil.example", "Origin"),
        ):
            with pytest.raises(Refused) as caught:
                with LiveSocket(server.port, host=host, origin=origin):
                    pass
            assert caught.value.status == 403
            assert json.loads(caught.value.body)["error"]["where"] == where


def test_a_fault_of_the_server_is_logged_once_and_closes_the_socket(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    from tabletop.app.web.runner import create_app

    async def broken(socket: WebSocket) -> None:
        await socket.accept()
        await socket.receive_text()
        raise RuntimeError("a bug")

    async def broken_early(socket: WebSocket) -> None:
        raise RuntimeError("a bug before the handshake")

    routes = [WebSocketRoute("/api/live", broken), WebSocketRoute("/early", broken_early)]
    app = create_app(routes, host="127.0.0.1", port=8765)
    with TestClient(app, base_url=BASE, raise_server_exceptions=False) as client:
        with client.websocket_connect(LIVE, headers=ORIGIN) as live:
            live.send_text("{}")
            with pytest.raises(WebSocketDisconnect) as closed:
                live.receive_text()
        assert closed.value.code == 1011
        status, error = refused(client, "ws://127.0.0.1:8765/early", ORIGIN)
    assert status == 500
    assert error["message"] == "internal error: RuntimeError; the server logged it"
    faults = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert faults == ["fault answering WebSocket /api/live", "fault answering WebSocket /early"]
