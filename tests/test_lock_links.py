"""The lock beside an event file: never a link followed, never another file truncated.

A symbolic link, a hard link, a FIFO or a large file at ``NAME.lock`` is refused (exit 2)
and neither the event nor the file the link names is changed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.app.common.locking import exclusive_lock, lock_path
from tabletop.geom.errors import InvalidInputError

TABLETOP = [sys.executable, "-m", "tabletop"]
RESULT = ["1", "1", "--scores", "150", "100"]
PRECIOUS = b"the only copy of something\n"


def _event(folder: Path) -> Path:
    """A paired two-player event (round 1 has one table, no result yet)."""
    path = folder / "e.toml"
    path.write_text(
        "game = 'armada'\nseed = 11\ntier = 'informal'\nswiss_rounds = 3\n\n"
        "[[players]]\nid = 'a'\nname = 'A'\n\n[[players]]\nid = 'b'\nname = 'B'\n"
    )
    done = subprocess.run([*TABLETOP, "event", "pair", str(path)], capture_output=True)
    assert done.returncode == 0, done.stderr
    lock_path(path).unlink()  # the test puts its own thing there
    return path


def _result(path: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*TABLETOP, "event", "result", str(path), *RESULT],
        capture_output=True,
        env={**os.environ, "TABLETOP_LOCK_WAIT": "0"},
        timeout=120,
    )


def test_a_lock_that_links_to_another_file_is_refused_and_the_file_kept(
    tmp_path: Path,
) -> None:
    path = _event(tmp_path)
    before = path.read_bytes()
    precious = tmp_path / "precious.txt"
    precious.write_bytes(PRECIOUS)
    (tmp_path / "e.toml.lock").symlink_to("precious.txt")
    done = _result(path)
    assert done.returncode == 2, done.stderr
    err = done.stderr.decode()
    assert "e.toml.lock' is a symbolic link; refusing to follow it" in err
    assert "Traceback" not in err
    assert precious.read_bytes() == PRECIOUS
    assert path.read_bytes() == before


def test_a_lock_that_links_to_the_event_itself_leaves_it_byte_for_byte(tmp_path: Path) -> None:
    path = _event(tmp_path)
    before = path.read_bytes()
    (tmp_path / "e.toml.lock").symlink_to("e.toml")
    done = _result(path)
    assert done.returncode == 2
    assert b"is a symbolic link" in done.stderr
    assert path.read_bytes() == before


def test_a_dangling_link_is_refused_and_creates_nothing(tmp_path: Path) -> None:
    path = _event(tmp_path)
    (tmp_path / "e.toml.lock").symlink_to("made-by-the-lock")
    done = _result(path)
    assert done.returncode == 2
    assert not (tmp_path / "made-by-the-lock").exists()


def test_a_hard_link_fifo_or_big_file_at_the_lock_is_refused(tmp_path: Path) -> None:
    path = _event(tmp_path)
    before = path.read_bytes()
    lock = tmp_path / "e.toml.lock"
    precious = tmp_path / "precious.txt"
    precious.write_bytes(PRECIOUS)
    os.link(precious, lock)
    assert b"has 2 names" in _result(path).stderr
    lock.unlink()
    os.mkfifo(lock)
    assert b"is not a regular file" in _result(path).stderr
    lock.unlink()
    lock.write_bytes(b"x" * 4097)
    done = _result(path)
    assert done.returncode == 2
    assert b"more than a lock file's one line" in done.stderr
    assert lock.read_bytes() == b"x" * 4097
    assert precious.read_bytes() == PRECIOUS
    assert path.read_bytes() == before


def test_a_lock_file_of_its_own_still_works_and_names_its_holder(tmp_path: Path) -> None:
    path = _event(tmp_path)
    lock = lock_path(path)
    lock.write_text("pid 1: an older holder\n")
    with exclusive_lock(path, command="tabletop event pair " + "x" * 5000):
        assert lock.read_bytes().startswith(f"pid {os.getpid()}: tabletop event pair".encode())
        assert lock.stat().st_size <= 4096
    assert lock.read_bytes() == b""
    done = _result(path)
    assert done.returncode == 0, done.stderr
    assert lock.read_bytes() == b""


def test_the_lock_function_refuses_a_link_itself(tmp_path: Path) -> None:
    target = tmp_path / "precious.txt"
    target.write_bytes(PRECIOUS)
    (tmp_path / "f.toml.lock").symlink_to(target)
    with pytest.raises(InvalidInputError, match="symbolic link"):
        with exclusive_lock(tmp_path / "f.toml", command="test"):
            pass
    assert target.read_bytes() == PRECIOUS
