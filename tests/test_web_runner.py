"""The web layer as it runs: slow, broken and vanishing clients against a real server.

A small application behind the shared guard and runner (the board's and the event
server's) is served on a free loopback port with short limits, and spoken to over raw
sockets: half-sent headers and trickled bodies are cut off with the error object, a
request that is not HTTP gets the error object, a client that hangs up mid-body is one
line in the log, and a fault is logged once and answered 500.
"""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tabletop.app.web.responses import json_body, json_response
from tabletop.app.web.runner import bind, create_app, make_server

HEADER_SECONDS = 0.6
BODY_SECONDS = 0.6
#: Time allowed beyond a limit for the server to act on it (a loaded 2-core machine).
SLACK_SECONDS = 3.0


async def echo(request: Request) -> Response:
    return json_response({"got": await json_body(request)})


async def broken(request: Request) -> Response:
    raise ZeroDivisionError("boom")


class Served:
    """A server on a free loopback port, stopped at the end."""

    def __init__(self) -> None:
        self.listener = bind("127.0.0.1", 0)
        self.port = int(self.listener.getsockname()[1])
        routes = [Route("/echo", echo, methods=["POST"]), Route("/broken", broken)]
        app = create_app(routes, host="127.0.0.1", port=self.port, body_seconds=BODY_SECONDS)
        self.server = make_server(app, header_seconds=HEADER_SECONDS)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.listener]}, daemon=True
        )
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.01)
        assert self.server.started

    def connect(self) -> socket.socket:
        conn = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        return conn

    def head(self, method: str, path: str, **fields: str) -> bytes:
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        lines += [f"{k.replace('_', '-')}: {v}" for k, v in fields.items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.listener.close()


@pytest.fixture
def served() -> Iterator[Served]:
    live = Served()
    try:
        yield live
    finally:
        live.stop()


def _read_all(conn: socket.socket) -> bytes:
    data = b""
    while True:
        try:
            piece = conn.recv(65536)
        except (ConnectionResetError, TimeoutError):
            break
        if not piece:
            break
        data += piece
    return data


def _status_and_error(data: bytes) -> tuple[int, Any]:
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    assert b"content-type: application/json" in head.lower(), head
    return status, json.loads(body)["error"]


def test_a_whole_request_is_answered(served: Served) -> None:
    with served.connect() as conn:
        body = b'{"a": 1}'
        conn.sendall(
            served.head("POST", "/echo", Content_Length=str(len(body)), Connection="close") + body
        )
        data = _read_all(conn)
    assert data.startswith(b"HTTP/1.1 200")
    assert json.loads(data.partition(b"\r\n\r\n")[2]) == {"got": {"a": 1}}


def test_half_sent_headers_are_cut_off_with_the_error_object(served: Served) -> None:
    conns = [served.connect() for _ in range(20)]
    started = time.monotonic()
    for conn in conns:
        conn.sendall(b"GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    answers = []
    for conn in conns:
        with conn:
            answers.append(_read_all(conn))
    took = time.monotonic() - started
    assert took < HEADER_SECONDS + SLACK_SECONDS
    for data in answers:
        status, error = _status_and_error(data)
        assert status == 408
        assert "headers did not arrive" in error["message"]


def test_a_connection_that_sends_nothing_is_closed(served: Served) -> None:
    started = time.monotonic()
    with served.connect() as conn:
        data = _read_all(conn)
    assert time.monotonic() - started < HEADER_SECONDS + SLACK_SECONDS
    assert data.startswith(b"HTTP/1.1 408")


def test_a_trickled_body_is_cut_off_with_the_error_object(served: Served) -> None:
    started = time.monotonic()
    with served.connect() as conn:
        conn.sendall(served.head("POST", "/echo", Content_Length="100"))
        data = b""
        for _ in range(40):  # a byte every 0.1 s: 4 s in all, far past the body's limit
            try:
                conn.sendall(b" ")
            except OSError:
                break
            time.sleep(0.1)
            if time.monotonic() - started > BODY_SECONDS + SLACK_SECONDS:
                break
        data = _read_all(conn)
    assert time.monotonic() - started < BODY_SECONDS + SLACK_SECONDS + 1
    status, error = _status_and_error(data)
    assert status == 408
    assert error["message"] == f"the body did not arrive within {BODY_SECONDS:g} s"


def test_a_request_that_is_not_http_gets_the_error_object(served: Served) -> None:
    with served.connect() as conn:
        conn.sendall(b"HELLO THERE\r\n\r\n")
        data = _read_all(conn)
    status, error = _status_and_error(data)
    assert (status, error) == (400, {"message": "not a valid HTTP request", "where": None})


def test_a_hang_up_mid_body_is_one_line_in_the_log(
    served: Served, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    with served.connect() as conn:
        conn.sendall(served.head("POST", "/echo", Content_Length="1000") + b'{"a": ')
        time.sleep(0.1)
    time.sleep(0.5)
    records = [r for r in caplog.records if r.levelno >= logging.INFO and r.name != "asyncio"]
    assert [r.getMessage() for r in records] == [
        "POST /echo: the client hung up before its body was whole"
    ]
    assert records[0].exc_info is None


def test_a_fault_is_logged_once_and_answered_with_the_error_object(
    served: Served, caplog: pytest.LogCaptureFixture
) -> None:
    with served.connect() as conn:
        conn.sendall(served.head("GET", "/broken", Connection="close"))
        data = _read_all(conn)
    status, error = _status_and_error(data)
    assert status == 500
    assert error == {
        "message": "internal error: ZeroDivisionError; the server logged it",
        "where": "GET /broken",
    }
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [(r.name, r.getMessage()) for r in errors] == [
        ("tabletop.web", "fault answering GET /broken")
    ]
