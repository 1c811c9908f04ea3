"""One writer at a time: concurrent ``tabletop event`` processes lose nothing.

Every test here runs the command line as separate processes, as a tournament organizer's
terminals would: a lock taken by threads of one process proves nothing about processes.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.app.common.locking import exclusive_lock, lock_path, lock_wait_s
from tabletop.app.event.eventfile import load_event
from tabletop.geom.errors import InvalidInputError

TABLETOP = [sys.executable, "-m", "tabletop"]
#: Examples of the process-spawning properties: a few by default, many when hunting.
EXAMPLES = 40 if os.environ.get("TABLETOP_HYPOTHESIS") == "thorough" else 3
#: Players at the six tables of round 1, and two who dropped before it.
SEATED = [f"p{k:02d}" for k in range(1, 13)]
DROPPED = ["late1", "late2"]


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, "OPENBLAS_NUM_THREADS": "1", **extra}


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _event(folder: Path) -> Path:
    """An informal Armada event of 14 players, 2 dropped before round 1, round 1 paired."""
    lines = ["game = 'armada'", "seed = 11", "tier = 'informal'", "swiss_rounds = 3", ""]
    for pid in SEATED:
        lines += ["[[players]]", f"id = '{pid}'", f"name = 'Player {pid}'", ""]
    for pid in DROPPED:
        lines += ["[[players]]", f"id = '{pid}'", f"name = 'Player {pid}'", "dropped_after = 0"]
        lines.append("")
    path = folder / "event.toml"
    path.write_text("\n".join(lines))
    done = subprocess.run(
        [*TABLETOP, "event", "pair", str(path)], capture_output=True, env=_env(), check=False
    )
    assert done.returncode == 0, done.stderr
    return path


def _start(argv: list[str], **extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [*TABLETOP, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(TABLETOP_LOCK_WAIT="120", **extra),
    )


def _finish(process: subprocess.Popen[bytes]) -> tuple[int, str]:
    _, err = process.communicate(timeout=300)
    return process.returncode, err.decode()


def _round1_scores(data: dict[str, Any]) -> dict[int, list[int]]:
    return {m["table"]: m["scores"] for m in data["rounds"][0]["matches"] if "scores" in m}


def test_six_results_at_once_keep_all_six(tmp_path: Path) -> None:
    path = _event(tmp_path)
    writers = [
        _start(["event", "result", str(path), "1", str(t), "--scores", "150", str(100 + t)])
        for t in range(1, 7)
    ]
    outcomes = [_finish(w) for w in writers]
    assert [code for code, _ in outcomes] == [0] * 6, outcomes
    data = tomllib.loads(path.read_text())
    assert _round1_scores(data) == {t: [150, 100 + t] for t in range(1, 7)}
    load_event(path)  # and the tool reads what it wrote


def test_four_drops_at_once_keep_all_four(tmp_path: Path) -> None:
    path = _event(tmp_path)
    dropped = SEATED[:4]
    outcomes = [_finish(_start(["event", "drop", str(path), pid])) for pid in dropped]
    assert [code for code, _ in outcomes] == [0] * 4, outcomes
    players = {p["id"]: p for p in tomllib.loads(path.read_text())["players"]}
    assert [players[pid].get("dropped_after") for pid in dropped] == [1, 1, 1, 1]


@pytest.mark.parametrize(
    "argv",
    [
        ["pair"],
        ["result", "1", "1", "--scores", "150", "100"],
        ["drop", "p01"],
        ["return", "late1"],
    ],
)
def test_a_read_only_event_is_refused_by_every_writer(tmp_path: Path, argv: list[str]) -> None:
    path = _event(tmp_path)
    for table in range(1, 7):  # every result in, so that pair would append round 2
        command = ["event", "result", str(path), "1", str(table), "--scores", "150", "100"]
        assert _finish(_start(command))[0] == 0
    before = _digest(path)
    path.chmod(0o444)
    try:
        done = subprocess.run(
            [*TABLETOP, "event", argv[0], str(path), *argv[1:]]
            + (["--replace"] if argv[0] == "result" else []),
            capture_output=True,
            env=_env(),
            check=False,
        )
    finally:
        path.chmod(0o644)
    assert done.returncode == 2, done.stderr
    assert done.stderr.decode().endswith(
        "is read-only; refusing to replace it (make it writable to change it)\n"
    )
    assert _digest(path) == before


#: Late arrivals the property may register (``event add``) while round 1 is played.
LATE = ("late-a", "late-b", "late-c")
_OPERATION = st.one_of(
    st.tuples(st.just("result"), st.integers(1, 6)),
    st.tuples(st.just("drop"), st.sampled_from(SEATED)),
    st.tuples(st.just("return"), st.sampled_from(DROPPED)),
    st.tuples(st.just("pair"), st.just(0)),
    st.tuples(st.just("add"), st.sampled_from(LATE)),
)


def _argv(path: Path, operation: tuple[str, Any]) -> list[str]:
    action, what = operation
    if action == "result":
        return ["event", "result", str(path), "1", str(what), "--scores", "160", str(90 + what)]
    if action in ("drop", "return"):
        return ["event", action, str(path), str(what)]
    if action == "add":
        return ["event", "add", str(path), str(what), "--name", f"Late {what}"]
    return ["event", "pair", str(path)]


def _is_in(data: dict[str, Any], operation: tuple[str, Any]) -> bool:
    action, what = operation
    players = {p["id"]: p for p in data["players"]}
    if action == "result":
        return _round1_scores(data).get(what) == [160, 90 + what]
    if action == "drop":
        return "dropped_after" in players[what]
    if action == "return":
        return "returned_for" in players[what] or "dropped_after" not in players[what]
    if action == "add":
        return what in players
    return len(data.get("rounds", [])) == 2


@settings(max_examples=EXAMPLES)
@given(
    st.lists(_OPERATION, min_size=2, max_size=7, unique_by=lambda o: (o[0], o[1])),
)
def test_concurrent_writers_keep_every_change_they_report(
    tmp_path_factory: pytest.TempPathFactory, operations: list[tuple[str, Any]]
) -> None:
    path = _event(tmp_path_factory.mktemp("event"))
    writers = [_start(_argv(path, o)) for o in operations]
    outcomes = [_finish(w) for w in writers]
    data = tomllib.loads(path.read_text())
    load_event(path)
    for operation, (code, err) in zip(operations, outcomes, strict=True):
        if code == 0:
            assert _is_in(data, operation), (operation, data)
        else:
            assert code == 2, err
            assert "Traceback" not in err
            # Only pairing may be refused: while a result of round 1 is missing.
            assert operation[0] == "pair", (operation, err)
            assert "no result yet" in err, err


def _wait_for(path: Path, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.01)


#: A child that runs the command line with one step of the write made to stop and say
#: so, so that the test can kill it with SIGKILL exactly there.
_STOPPING_CHILD = """
import os, sys, time
from pathlib import Path
import tabletop.app.common.files as files
import tabletop.app.common.locking as locking
marker, point, argv = Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
real_fsync, real_publish = os.fsync, locking.publish

def stop():
    marker.write_text(point)
    time.sleep(600)

def fsync(fd):
    real_fsync(fd)
    if point == "synced":
        stop()

def publish(temporary, target):
    if point == "before-rename":
        stop()
    real_publish(temporary, target)

os.fsync = fsync
locking.publish = publish
if point == "writing":
    real_write = os.write
    # The bytes are written by files.stage_file: its view of os writes half, then stops.
    files.os = type(os)("os_view")
    files.os.__dict__.update(os.__dict__)
    files.os.fdopen = lambda fd, mode: _Half(fd)

    class _Half:
        def __init__(self, fd):
            self.fd = fd
        def __enter__(self):
            return self
        def __exit__(self, *exc):
            os.close(self.fd)
        def write(self, data):
            real_write(self.fd, data[: len(data) // 2])
            stop()
        def flush(self):
            pass
        def fileno(self):
            return self.fd

from tabletop.app.cli import main
sys.exit(main(argv))
"""


@pytest.mark.parametrize("point", ["writing", "synced", "before-rename"])
def test_kill_9_in_the_middle_of_a_write_leaves_the_old_file(tmp_path: Path, point: str) -> None:
    path = _event(tmp_path)
    before = _digest(path)
    marker = tmp_path / "stopped"
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            _STOPPING_CHILD,
            str(marker),
            point,
            "event",
            "result",
            str(path),
            "1",
            "1",
            "--scores",
            "150",
            "100",
        ],
        env=_env(),
        stderr=subprocess.PIPE,
    )
    try:
        _wait_for(marker)
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(timeout=60)
        assert child.stderr is not None
        child.stderr.close()
    assert child.returncode == -signal.SIGKILL
    assert _digest(path) == before
    # The kernel released the dead writer's lock: the next writer goes straight through.
    done = subprocess.run(
        [*TABLETOP, "event", "result", str(path), "1", "1", "--scores", "150", "100"],
        capture_output=True,
        env=_env(TABLETOP_LOCK_WAIT="5"),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert _round1_scores(tomllib.loads(path.read_text()))[1] == [150, 100]


@settings(max_examples=EXAMPLES)
@given(st.floats(0.0, 0.6), st.integers(1, 6))
def test_kill_9_at_a_random_moment_leaves_the_old_or_the_new_file(
    tmp_path_factory: pytest.TempPathFactory, delay_s: float, table: int
) -> None:
    path = _event(tmp_path_factory.mktemp("event"))
    old = path.read_bytes()
    writer = _start(["event", "result", str(path), "1", str(table), "--scores", "170", "20"])
    time.sleep(delay_s)
    writer.send_signal(signal.SIGKILL)
    writer.communicate(timeout=60)
    now = path.read_bytes()
    if now != old:
        assert _round1_scores(tomllib.loads(now.decode()))[table] == [170, 20]
    load_event(path)
    others = {p.name for p in path.parent.iterdir()} - {path.name, lock_path(path).name}
    assert all(name.startswith(".") for name in others), others  # at most a temporary


def test_a_lock_not_obtained_is_exit_2_naming_the_holder_and_changes_nothing(
    tmp_path: Path,
) -> None:
    path = _event(tmp_path)
    before = _digest(path)
    with exclusive_lock(path, command="tabletop event pair held-by-the-test"):
        done = subprocess.run(
            [*TABLETOP, "event", "result", str(path), "1", "1", "--scores", "150", "100"],
            capture_output=True,
            env=_env(TABLETOP_LOCK_WAIT="0.3"),
            check=False,
        )
    assert done.returncode == 2
    err = done.stderr.decode()
    assert f"pid {os.getpid()}: tabletop event pair held-by-the-test" in err
    assert "waited 0.3 s" in err
    assert "Traceback" not in err
    assert _digest(path) == before


def test_full_output_read_only_file_and_bad_wait_change_nothing(tmp_path: Path) -> None:
    path = _event(tmp_path)
    before = _digest(path)
    result = ["event", "result", str(path), "1", "1", "--scores", "150", "100"]
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [*TABLETOP, *result], stdout=full, stderr=subprocess.PIPE, env=_env(), check=False
        )
    assert done.returncode == 2
    assert b"cannot write the output" in done.stderr
    assert _digest(path) == before
    path.chmod(0o444)
    try:
        done = subprocess.run([*TABLETOP, *result], capture_output=True, env=_env(), check=False)
    finally:
        path.chmod(0o644)
    assert done.returncode == 2
    assert b"is read-only; refusing to replace it" in done.stderr
    assert _digest(path) == before
    done = subprocess.run(
        [*TABLETOP, *result], capture_output=True, env=_env(TABLETOP_LOCK_WAIT="soon"), check=False
    )
    assert done.returncode == 2
    assert b"TABLETOP_LOCK_WAIT is the seconds to wait" in done.stderr
    assert _digest(path) == before


@pytest.mark.parametrize(
    ("given_value", "expected"),
    [(None, 10.0), ("", 10.0), ("0", 0.0), ("2.5", 2.5), ("86400", 86400.0)],
)
def test_the_wait_for_a_lock(given_value: str | None, expected: float) -> None:
    environ = {} if given_value is None else {"TABLETOP_LOCK_WAIT": given_value}
    assert lock_wait_s(environ) == expected


@pytest.mark.parametrize("given_value", ["-1", "86401", "nan", "inf", "ten"])
def test_a_wait_out_of_range_is_refused(given_value: str) -> None:
    with pytest.raises(InvalidInputError, match="TABLETOP_LOCK_WAIT"):
        lock_wait_s({"TABLETOP_LOCK_WAIT": given_value})
