"""A closed output pipe and Ctrl-C end a command quietly with 141 and 130, after what was
answered is flushed; a stderr that cannot be written still leaves exit code 2."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOGFIGHT = str(ROOT / "examples" / "xwing-dogfight.toml")
TABLETOP = [sys.executable, "-m", "tabletop"]
MEASURE = json.dumps(
    {
        "op": "measure",
        "scene": {
            "ships": [
                {"id": "a", "base": "small", "at": [100, 100]},
                {"id": "b", "base": "small", "at": [100, 340], "player": 2},
            ]
        },
        "from": "a",
        "to": "b",
    }
)


def _closed_pipe() -> int:
    read, write = os.pipe()
    os.close(read)  # nobody will read: every write meets EPIPE
    return write


@pytest.mark.parametrize(
    "argv",
    [
        ["report", DOGFIGHT],
        ["report", DOGFIGHT, "--json"],
        ["check", DOGFIGHT],
        ["measure", DOGFIGHT, "wedge", "howl"],
    ],
)
def test_a_closed_pipe_exits_141_without_a_word(argv: list[str]) -> None:
    write = _closed_pipe()
    try:
        done = subprocess.run(
            [*TABLETOP, *argv], stdout=write, stderr=subprocess.PIPE, timeout=120, check=False
        )
    finally:
        os.close(write)
    assert done.returncode == 141
    assert done.stderr == b""  # no traceback, no "Exception ignored ... BrokenPipeError"


def test_query_into_head_gives_heads_lines_then_exits_141() -> None:
    # Far more answers than a pipe holds, so the writer meets the closed pipe for sure.
    lines = "\n" * 200_000
    # Through head: the first two answers reach it whole.
    query = subprocess.Popen(
        [*TABLETOP, "query"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    head = subprocess.Popen(["head", "-n", "2"], stdin=query.stdout, stdout=subprocess.PIPE)
    assert query.stdout is not None
    assert query.stdin is not None
    query.stdout.close()
    try:
        query.stdin.write(lines.encode())
        query.stdin.close()
    except BrokenPipeError:
        pass
    shown, _ = head.communicate(timeout=300)
    assert query.wait(timeout=300) == 141
    assert query.stderr is not None
    assert query.stderr.read() == b""
    answers = shown.decode().splitlines()
    assert len(answers) == 2
    for number, text in enumerate(answers, 1):
        assert json.loads(text)["error"]["where"] == f"request {number}"


def _as_at_a_terminal() -> None:
    """Give the child Ctrl-C's default, as a shell gives a command it runs in the foreground.

    A suite started as a background job (``make test &``) runs with SIGINT ignored, and a
    child inherits that: it would rightly ignore the Ctrl-C this test sends.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_on_query_flushes_the_answers_and_exits_130() -> None:
    query = subprocess.Popen(
        [*TABLETOP, "query"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_as_at_a_terminal,
    )
    assert query.stdin is not None
    assert query.stdout is not None
    assert query.stderr is not None
    query.stdin.write((MEASURE + "\n").encode())
    query.stdin.flush()
    first = query.stdout.readline()  # answered: now it waits on stdin
    assert json.loads(first)["distance"] == 200.0
    query.send_signal(signal.SIGINT)
    assert query.wait(timeout=60) == 130
    assert query.stdout.read() == b""
    assert query.stderr.read() == b""  # no KeyboardInterrupt traceback
    query.stdin.close()


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "missing.toml"],
        ["check", "missing.toml", "--json"],
        ["measure", DOGFIGHT, "wedge", "nobody"],
        ["nonsense"],
    ],
)
def test_bad_input_exits_2_even_when_stderr_is_full(argv: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [*TABLETOP, *argv], stdout=subprocess.PIPE, stderr=full, timeout=120, check=False
        )
    assert done.returncode == 2


def test_a_full_stdout_is_an_error_not_a_traceback() -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [*TABLETOP, "check", DOGFIGHT], stdout=full, stderr=subprocess.PIPE, timeout=120
        )
    assert done.returncode == 2
    assert b"Traceback" not in done.stderr
    assert b"cannot write the output: No space left on device" in done.stderr
