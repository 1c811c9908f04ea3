"""Output files of every ``-o``: none left by a failed command, bad names refused (exit 2).

A command whose report cannot be written (standard output full, closed or a pipe nobody
reads) fails, and the file it was to write is not there; a name longer than the folder
allows and a name ending in ``/`` are refused with the error, before any work, and no
file is written under a name the user did not give.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from common import ROOT, run

TABLETOP = [sys.executable, "-m", "tabletop"]
SAVE = str(ROOT / "tests" / "data" / "tts" / "xwing2-backup-1.11.15-gasclouds.json")
BATTLE = str(ROOT / "examples" / "pocket" / "battle-60.toml")
SCENE = str(ROOT / "examples" / "xwing-tournament.toml")
XWS = '{"faction": "rebelalliance", "pilots": [{"id": "lukeskywalker", "ship": "t65xwing"}], '
XWS += '"obstacles": ["core2asteroid5", "yt2400debris1", "gascloud3"]}'


def _writers(folder: Path, name: str) -> dict[str, list[str]]:
    """Every command that writes a scene or a log with ``-o``, writing `name` in `folder`."""
    listed = folder / "list.json"
    listed.write_text(XWS)
    out = f"{folder}/{name}"  # as typed: a Path would drop a trailing "/"
    return {
        "import": ["import", SAVE, "-o", out],
        "setup": ["setup", "--ruleset", "xwing2", "-o", out],
        "setup --count": ["setup", "--ruleset", "xwing2", "--count", "3", "-o", out],
        "setup --from": ["setup", "--from", str(listed), "-o", out],
        "dogfight play": ["dogfight", "play", "--games", "2", "-o", out],
        "pocket play": ["pocket", "play", BATTLE, "--games", "2", "-o", out],
    }


def _written(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name != "list.json")


def _stdout_full(argv: list[str]) -> int:
    with open("/dev/full", "wb") as full:
        done = subprocess.run([*TABLETOP, *argv], stdout=full, stderr=subprocess.PIPE, timeout=120)
    assert b"cannot write the output" in done.stderr
    return done.returncode


def _stdout_closed(argv: list[str]) -> int:
    done = subprocess.run(
        ["sh", "-c", 'exec "$@" >&-', "sh", *TABLETOP, *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        timeout=120,
    )
    assert b"cannot write the output" in done.stderr
    return done.returncode


def _stdout_gone(argv: list[str]) -> int:
    reader, writer = os.pipe()
    os.close(reader)  # nobody reads: the first write is EPIPE (or SIGPIPE)
    try:
        done = subprocess.run(
            [*TABLETOP, *argv], stdout=writer, stderr=subprocess.PIPE, timeout=120
        )
    finally:
        os.close(writer)
    return done.returncode


@pytest.mark.parametrize("command", ["import", "setup", "setup --count", "setup --from"])
@pytest.mark.parametrize("stdout", [_stdout_full, _stdout_closed, _stdout_gone])
def test_a_report_that_cannot_be_written_leaves_no_file(
    tmp_path: Path, command: str, stdout: object
) -> None:
    argv = _writers(tmp_path, "out.toml")[command]
    assert callable(stdout)
    code = stdout(argv)
    assert code in (2, 141)
    assert _written(tmp_path) == []  # nor a temporary file


@pytest.mark.parametrize("command", ["import", "setup", "setup --from", "dogfight play"])
def test_the_same_command_with_its_report_writes_the_file(tmp_path: Path, command: str) -> None:
    code, out, _ = run(*_writers(tmp_path, "out.toml")[command])
    assert code == 0
    assert out
    assert _written(tmp_path) == ["out.toml"]


def _every_output(folder: Path, name: str) -> list[list[str]]:
    out = f"{folder}/{name}"  # as typed: a Path would drop a trailing "/"
    return [
        *_writers(folder, name).values(),
        ["event", "new", "--game", "armada", "-o", out],
        ["render", SCENE, "-o", out.replace(".toml", ".svg")],
    ]


def test_a_name_longer_than_the_folder_allows_is_exit_2(tmp_path: Path) -> None:
    name = "a" * 252 + ".toml"  # 257 bytes; as a picture (.svg) 256: past NAME_MAX
    for argv in _every_output(tmp_path, name):
        code, _, err = run(*argv)
        assert code == 2, argv
        assert "the file name is 25" in err, argv
        assert "bytes long; this folder allows at most 255" in err, argv
    assert _written(tmp_path) == []


def test_a_name_at_the_limit_is_written(tmp_path: Path) -> None:
    name = "a" * 250 + ".toml"  # 255 bytes: the most a name may have
    code, _, err = run("import", SAVE, "-o", tmp_path / name)
    assert code == 0, err
    assert _written(tmp_path) == [name]


def test_a_long_name_is_the_error_object_with_json(tmp_path: Path) -> None:
    code, out, _ = run("import", SAVE, "-o", str(tmp_path / ("a" * 251 + ".toml")), "--json")
    assert code == 2
    assert out.startswith('{"error": {"message": "the file name is 256 bytes long')


def test_a_name_ending_in_a_slash_is_exit_2_and_writes_nothing(tmp_path: Path) -> None:
    for argv in _every_output(tmp_path, "x.toml/"):
        code, _, err = run(*argv)
        assert code == 2, argv
        assert "ends in '/', which names a folder; expected a file name" in err, argv
    assert _written(tmp_path) == []
