"""A standard stream closed by the shell (``>&-``, ``<&-``): exit 2 and one line, never a
traceback, and a command that changes a file leaves it unchanged."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
SCENE = str(EXAMPLES / "xwing-dogfight.toml")
BATTLE = str(EXAMPLES / "pocket" / "battle-60.toml")
TABLETOP = [sys.executable, "-m", "tabletop"]


def _closing(fd: int) -> Callable[[], None]:
    def close() -> None:
        os.close(fd)

    return close


def _run_closed(argv: list[str], fd: int, folder: Path) -> subprocess.CompletedProcess[bytes]:
    """Run with descriptor `fd` closed, as ``>&-`` (1) or ``<&-`` (0) leaves it."""
    return subprocess.run(
        [*TABLETOP, *argv],
        stdin=subprocess.DEVNULL if fd != 0 else None,
        stdout=subprocess.DEVNULL if fd != 1 else None,
        stderr=subprocess.PIPE,
        preexec_fn=_closing(fd),
        cwd=folder,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("closed")
    roster = folder / "players.csv"
    roster.write_text("id,name\n" + "".join(f"p{k},Player {k}\n" for k in range(1, 7)))
    for argv in (
        ["event", "new", "--game", "destiny", "--players", str(roster), "-o", "event.toml"],
        ["event", "pair", "event.toml"],
        ["dogfight", "play", "--seed", "2", "--games", "1", "-o", "game.toml"],
        ["pocket", "play", BATTLE, "--seed", "2", "--games", "1", "-o", "battle.toml"],
    ):
        done = subprocess.run([*TABLETOP, *argv], cwd=folder, capture_output=True, check=False)
        assert done.returncode == 0, done.stderr
    return folder


@pytest.mark.parametrize(
    "argv",
    [
        ["check", SCENE],
        ["report", SCENE],
        ["measure", SCENE, "wedge", "howl"],
        ["list", "tokens"],
        ["event", "standings", "event.toml"],
        ["event", "standings", "event.toml", "--json"],
        ["event", "check", "event.toml"],
        ["dogfight", "replay", "game.toml"],
        ["dogfight", "moves", "game.toml"],
        ["pocket", "replay", "battle.toml"],
        ["pocket", "check", "battle.toml"],
        ["--help"],
    ],
)
def test_a_closed_stdout_is_exit_2_and_one_line(files: Path, argv: list[str]) -> None:
    done = _run_closed(argv, 1, files)
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert err.count("\n") == 1, err
    assert err.endswith("error: cannot write the output: standard output is closed\n")


@pytest.mark.parametrize(
    "argv",
    [
        ["event", "result", "event.toml", "1", "1", "--winner", "p1"],
        ["event", "drop", "event.toml", "p2"],
    ],
)
def test_a_closed_stdout_leaves_the_event_unchanged(files: Path, argv: list[str]) -> None:
    event = files / "event.toml"
    before = hashlib.sha256(event.read_bytes()).hexdigest()
    done = _run_closed(argv, 1, files)
    assert done.returncode == 2
    assert done.stderr.decode().count("\n") == 1
    assert hashlib.sha256(event.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in files.iterdir() if p.name.startswith(".")) == []


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["query"], "tabletop query: error: standard input is closed; requests come on it"),
        (["check", "-"], "tabletop check: error: <stdin>: there is no standard input to read"),
    ],
)
def test_a_closed_stdin_is_exit_2_and_one_line(files: Path, argv: list[str], line: str) -> None:
    done = _run_closed(argv, 0, files)
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert err.count("\n") == 1, err
    assert err.startswith(line)


def test_a_closed_stdin_does_not_trouble_a_command_that_does_not_read_it(files: Path) -> None:
    done = _run_closed(["event", "standings", "event.toml"], 0, files)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ["dogfight", "play", "--games", "2", "-o", "out.toml"],
        ["pocket", "play", BATTLE, "--games", "2", "-o", "out.toml"],
        ["render", SCENE, "-o", "out.png"],
        ["dogfight", "render", str(EXAMPLES / "dogfight" / "midgame.toml"), "-o", "out.png"],
        ["pocket", "render", BATTLE, "-o", "out.svg"],
    ],
)
def test_a_full_output_leaves_no_log_nor_picture(tmp_path: Path, argv: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [*TABLETOP, *argv], stdout=full, stderr=subprocess.PIPE, cwd=tmp_path, check=False
        )
    assert done.returncode == 2
    assert done.stderr.decode().endswith(
        "error: cannot write the output: No space left on device\n"
    )
    assert list(tmp_path.iterdir()) == []  # neither the file nor a temporary one
    done = subprocess.run([*TABLETOP, *argv], capture_output=True, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr
    assert [p.name for p in tmp_path.iterdir()] == [argv[-1]]


def test_a_full_output_leaves_no_event_picture(files: Path) -> None:
    picture = files / "standings.png"
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [*TABLETOP, "event", "render", "event.toml", "-o", picture.name],
            stdout=full,
            stderr=subprocess.PIPE,
            cwd=files,
            check=False,
        )
    assert done.returncode == 2
    assert b"cannot write the output" in done.stderr
    assert not picture.exists()
