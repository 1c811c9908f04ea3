"""Bulk options at their bounds: ``--jobs`` tied to the machine, a ``--scheduler`` that is not Dask.

The listeners here bind 127.0.0.1 alone, and every command is bounded in time.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest
from common import run

from tabletop.app.common import jobs
from tabletop.app.common.jobs import JobsError, add_job_options, most_jobs, open_runner, processors
from tabletop.app.common.scheduler_probe import scheduler_timeout_s
from tabletop.geom.errors import InvalidInputError

TABLETOP = [sys.executable, "-m", "tabletop"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(exit_on_error=False)
    add_job_options(parser)
    return parser


def test_the_most_jobs_is_four_per_processor(monkeypatch: pytest.MonkeyPatch) -> None:
    assert most_jobs() == 4 * processors()
    monkeypatch.setattr(jobs, "processors", lambda: 3)
    assert most_jobs() == 12
    assert _parser().parse_args(["--jobs", "12"]).jobs == 12  # at the bound
    assert _parser().parse_args(["--jobs", "1"]).jobs == 1
    with pytest.raises(argparse.ArgumentError, match="expected at most 12 processes"):
        _parser().parse_args(["--jobs", "13"])  # just past it
    with pytest.raises(JobsError, match="expected 1 to 12 processes, got 13"):
        open_runner(13, None)


@pytest.mark.parametrize(
    "argv",
    [
        ["dogfight", "play", "--games", "40"],
        ["setup", "--ruleset", "xwing2", "--count", "24", "--json"],
        ["query"],
    ],
)
@pytest.mark.parametrize("jobs_given", ["1000000", str(10**30), "9" * 5000])
def test_too_many_jobs_is_exit_2_before_any_work(argv: list[str], jobs_given: str) -> None:
    started = time.process_time()
    code, out, err = run(*argv, "--jobs", jobs_given)
    assert code == 2
    assert f"expected at most {most_jobs()} processes" in err
    assert len(err.splitlines()[0]) < 200  # a 5,000-digit number is not echoed whole
    assert out == "" or out.startswith('{"error": {"message": "argument --jobs: expected at most')
    assert time.process_time() - started < 1.0


def test_query_jobs_ten_to_the_thirty_is_no_traceback() -> None:
    done = subprocess.run(
        [*TABLETOP, "query", "--jobs", str(10**30)],
        input=b"",
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert b"Traceback" not in done.stderr
    assert b"expected at most" in done.stderr


def _listen(answer: bytes | None) -> Iterator[int]:
    """Accept connections on 127.0.0.1 and say `answer` (None: nothing) to each."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                client, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            held.append(client)
            if answer is not None:
                client.sendall(answer)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join(5)
        for client in held:
            client.close()
        server.close()


@pytest.fixture
def silent() -> Iterator[int]:
    yield from _listen(None)


@pytest.fixture
def garbage() -> Iterator[int]:
    yield from _listen(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi" * 4)


@pytest.fixture
def short_greeting() -> Iterator[int]:
    yield from _listen(b"\x3a\x00\x00")


@pytest.fixture
def small_lie() -> Iterator[int]:
    yield from _listen(b"\x10\x00\x00\x00\x00\x00\x00\x00" + b"not a handshake!")


def _play_on(port: int, timeout_s: str = "1") -> tuple[int, str, float]:
    pytest.importorskip("dask.distributed")
    started = time.monotonic()
    done = subprocess.run(
        [*TABLETOP, "dogfight", "play", "--games", "2", "--scheduler", f"tcp://127.0.0.1:{port}"],
        capture_output=True,
        timeout=45,
        env={**os.environ, "TABLETOP_SCHEDULER_TIMEOUT": timeout_s},
    )
    return done.returncode, done.stderr.decode(), time.monotonic() - started


def test_a_listener_that_says_nothing_is_given_up_on(silent: int) -> None:
    code, err, seconds = _play_on(silent)
    assert code == 2, err
    assert f"tcp://127.0.0.1:{silent} is not a Dask scheduler: it said nothing within 1 s" in err
    assert "Traceback" not in err
    assert seconds < 15


def test_a_listener_that_answers_garbage_is_not_a_scheduler(garbage: int) -> None:
    code, err, seconds = _play_on(garbage)
    assert code == 2, err
    assert "is not a Dask scheduler: its greeting announces" in err
    assert "Traceback" not in err
    assert "allocate" not in err
    assert seconds < 15


def test_a_short_or_wrong_greeting_is_not_a_scheduler(short_greeting: int, small_lie: int) -> None:
    code, err, _ = _play_on(short_greeting)
    assert code == 2
    assert "it said only 3 bytes within 1 s" in err
    code, err, _ = _play_on(small_lie)
    assert code == 2
    assert "its greeting is not a Dask handshake" in err


def test_nothing_listening_is_exit_2_at_once() -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
    code, err, seconds = _play_on(port, "5")
    assert code == 2
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port} within 5 s" in err
    assert seconds < 15


@pytest.mark.parametrize(
    ("given_value", "expected"), [(None, 10.0), ("", 10.0), ("0.5", 0.5), ("3600", 3600.0)]
)
def test_the_scheduler_timeout(given_value: str | None, expected: float) -> None:
    environ = {} if given_value is None else {"TABLETOP_SCHEDULER_TIMEOUT": given_value}
    assert scheduler_timeout_s(environ) == expected


@pytest.mark.parametrize("given_value", ["0", "-1", "3601", "nan", "inf", "soon"])
def test_a_scheduler_timeout_out_of_range_is_refused(given_value: str) -> None:
    with pytest.raises(InvalidInputError, match="TABLETOP_SCHEDULER_TIMEOUT"):
        scheduler_timeout_s({"TABLETOP_SCHEDULER_TIMEOUT": given_value})
