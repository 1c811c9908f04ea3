"""Writing files: never over an existing file without --force, never over an input, only
to a regular file or a new path in an existing folder, short temporary names, stale
temporary files swept, the umask honoured and a replaced file's mode kept."""

from __future__ import annotations

import io
import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tabletop.app.cli import main
from tabletop.app.common.paths import (
    STALE_TEMPORARY_SECONDS,
    output_target,
    publish,
    sweep_stale_temporaries,
    temporary_path,
)
from tabletop.geom.errors import InvalidInputError

ROOT = Path(__file__).resolve().parents[1]
DOGFIGHT = ROOT / "examples" / "xwing-dogfight.toml"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def setup_to(path: Path | str, *extra: str) -> tuple[int, str, str]:
    return run("setup", "--ruleset", "xwing2", "--seed", "1", "-o", str(path), *extra)


@pytest.fixture
def umask_027() -> Iterator[None]:
    old = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(old)


# --- point 7: no command writes over an existing file unless --force -------------------


def test_setup_refuses_an_existing_file_and_leaves_it_whole(tmp_path: Path) -> None:
    target = tmp_path / "judge.toml"
    target.write_text("the judge's scene\n", "utf-8")
    code, stdout, stderr = setup_to(target)
    assert code == 2
    assert stdout == ""
    assert "the file exists; refusing to write over it (--force replaces it)" in stderr
    assert target.read_text("utf-8") == "the judge's scene\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["judge.toml"]


def test_setup_json_error_for_an_existing_file(tmp_path: Path) -> None:
    target = tmp_path / "judge.toml"
    target.write_text("x", "utf-8")
    code, stdout, _ = setup_to(target, "--json")
    assert code == 2
    assert '"where": "' + str(target) + '"' in stdout


def test_setup_writes_a_new_path_and_force_replaces(tmp_path: Path) -> None:
    target = tmp_path / "table.toml"
    assert setup_to(target)[0] == 0
    first = target.read_text("utf-8")
    target.write_text("old\n", "utf-8")
    code, _, stderr = setup_to(target, "--force")
    assert code == 0, stderr
    assert target.read_text("utf-8") == first


def test_render_refuses_an_existing_file_and_force_replaces(tmp_path: Path) -> None:
    target = tmp_path / "shot.svg"
    target.write_text("keep me", "utf-8")
    code, _, stderr = run("render", str(DOGFIGHT), "-o", str(target))
    assert code == 2
    assert "refusing to write over it (--force replaces it)" in stderr
    assert target.read_text("utf-8") == "keep me"
    code, stdout, stderr = run("render", str(DOGFIGHT), "-o", str(target), "--force")
    assert code == 0, stderr
    assert stdout.startswith(f"wrote {target} (svg,")
    assert target.read_text("utf-8").startswith("<?xml")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shot.svg"]


def test_render_never_over_its_input_even_with_force(tmp_path: Path) -> None:
    scene = tmp_path / "scene.svg"  # a scene of another suffix cannot be read; the name is
    scene.write_bytes(DOGFIGHT.read_bytes())  # what matters
    toml = tmp_path / "scene.toml"
    os.link(scene, toml)
    for argv in (
        ("render", str(toml), "-o", str(toml), "--force"),
        ("render", str(toml), "-o", str(tmp_path / "." / "scene.toml"), "--force"),
        ("render", str(toml), "-o", str(scene), "--force"),  # the same file by a hard link
    ):
        code, _, stderr = run(*argv)
        assert code == 2, argv
        assert "refusing to write over the input scene" in stderr
        assert "even with --force" in stderr
    assert toml.read_bytes() == DOGFIGHT.read_bytes()


# --- point 10: only a regular file or a new path in an existing folder ------------------


@pytest.mark.parametrize("force", [(), ("--force",)])
def test_a_device_node_is_refused(force: tuple[str, ...]) -> None:
    before = os.stat("/dev/null")
    code, _, stderr = run("setup", "--ruleset", "xwing2", "-o", "/dev/null", *force)
    assert code == 2
    assert "is not a regular file (a device, FIFO or socket)" in stderr
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode)
    assert (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)


def test_a_fifo_a_folder_and_a_symbolic_link_are_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    real = tmp_path / "real.toml"
    real.write_text("real\n", "utf-8")
    link = tmp_path / "link.toml"
    link.symlink_to(real)
    cases = {
        fifo: "is not a regular file",
        folder: "is a folder",
        link: "is a symbolic link",
    }
    for path, message in cases.items():
        code, _, stderr = setup_to(path, "--force")
        assert code == 2, path
        assert message in stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert real.read_text("utf-8") == "real\n"
    assert link.is_symlink()


def test_a_trailing_slash_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    code, _, stderr = run("render", str(DOGFIGHT), "-o", str(tmp_path / "x.png") + "/")
    assert code == 2
    assert "ends in '/', which names a folder; expected a file name" in stderr
    code, _, stderr = setup_to(str(tmp_path / "x.toml") + "/")
    assert code == 2
    assert list(tmp_path.iterdir()) == []


def test_a_missing_folder_is_refused(tmp_path: Path) -> None:
    code, _, stderr = setup_to(tmp_path / "nowhere" / "x.toml")
    assert code == 2
    assert "no folder" in stderr


@pytest.mark.parametrize("length", [246, 247, 248, 249, 250, 254, 255])
def test_setup_writes_legal_long_names(tmp_path: Path, length: int) -> None:
    target = tmp_path / ("n" * (length - len(".toml")) + ".toml")
    code, _, stderr = setup_to(target)
    assert code == 0, stderr
    assert target.is_file()
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


def test_render_writes_a_250_character_name(tmp_path: Path) -> None:
    target = tmp_path / ("r" * 246 + ".svg")
    code, stdout, stderr = run("render", str(DOGFIGHT), "-o", str(target), "--json")
    assert code == 0, stderr
    assert f'"output": "{target}"' in stdout
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


@pytest.mark.parametrize("command", ["setup", "render"])
def test_a_256_byte_name_is_a_clear_error(tmp_path: Path, command: str) -> None:
    target = tmp_path / ("x" * 252 + (".toml" if command == "setup" else ".png"))
    assert len(target.name.encode()) in (256, 257)
    if command == "setup":
        code, _, stderr = setup_to(target)
    else:
        code, _, stderr = run("render", str(DOGFIGHT), "-o", str(target))
    assert code == 2
    size = len(target.name.encode())
    assert f"the file name is {size} bytes long; this folder allows at most 255" in stderr
    assert "Traceback" not in stderr


# --- modes ------------------------------------------------------------------------------


def test_setup_honours_the_umask(tmp_path: Path, umask_027: None) -> None:
    target = tmp_path / "table.toml"
    assert setup_to(target)[0] == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_force_keeps_the_mode_of_the_file_it_replaces(tmp_path: Path, umask_027: None) -> None:
    target = tmp_path / "table.toml"
    target.write_text("old", "utf-8")
    target.chmod(0o604)
    assert setup_to(target, "--force")[0] == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o604
    assert target.read_text("utf-8") != "old"


# --- temporary files --------------------------------------------------------------------


def _leftover(folder: Path, name: str, age: float) -> Path:
    path = folder / name
    path.write_text("partial", "utf-8")
    then = time.time() - age
    os.utime(path, (then, then))
    return path


def test_the_next_write_sweeps_stale_temporaries_of_our_naming(tmp_path: Path) -> None:
    stale = _leftover(tmp_path, ".tabletop-0123456789abcdef.tmp", STALE_TEMPORARY_SECONDS + 60)
    young = _leftover(tmp_path, ".tabletop-fedcba9876543210.tmp", STALE_TEMPORARY_SECONDS - 60)
    foreign = _leftover(tmp_path, ".tabletop-notours.tmp", 10 * 3600)
    someone_else = _leftover(tmp_path, ".table.toml.swp", 10 * 3600)
    assert setup_to(tmp_path / "table.toml")[0] == 0
    assert not stale.exists()
    assert young.exists()  # another writer may be writing it now
    assert foreign.exists()
    assert someone_else.exists()


def test_the_stale_line_is_strictly_older(tmp_path: Path) -> None:
    now = 1_000_000_000.0
    names = {}
    for label, age in (("inside", -1.0), ("line", 0.0), ("outside", 1.0)):
        path = tmp_path / f".tabletop-{label.encode().hex():0<16}.tmp"
        path.write_text("x", "utf-8")
        os.utime(path, (now - STALE_TEMPORARY_SECONDS - age,) * 2)
        names[label] = path.name
    removed = sweep_stale_temporaries(tmp_path, now=now)
    assert removed == [names["outside"]]


def test_the_temporary_name_is_short() -> None:
    name = temporary_path(Path("folder")).name
    assert len(name) == len(".tabletop-") + 16 + len(".tmp")


def test_a_file_that_appears_while_writing_is_not_replaced(tmp_path: Path) -> None:
    target_path = tmp_path / "table.toml"
    target = output_target(target_path)
    temporary = temporary_path(tmp_path)
    temporary.write_text("new", "utf-8")
    target_path.write_text("someone else's", "utf-8")
    with pytest.raises(InvalidInputError, match="a file appeared there while writing"):
        publish(temporary, target)
    assert target_path.read_text("utf-8") == "someone else's"
    assert not temporary.exists()


def test_concurrent_writers_leave_one_complete_file(tmp_path: Path) -> None:
    import threading

    from tabletop.app.common.files import atomic_write

    target = tmp_path / "table.toml"
    payloads = [f"writer {i}\n".encode() * 20_000 for i in range(12)]
    outcomes: list[str] = []

    def write(payload: bytes, force: bool) -> None:
        try:
            atomic_write(target, payload, force=force)
            outcomes.append("wrote")
        except InvalidInputError as error:
            outcomes.append(error.message)

    for force in (False, True):
        target.unlink(missing_ok=True)
        outcomes.clear()
        threads = [threading.Thread(target=write, args=(p, force)) for p in payloads]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert target.read_bytes() in payloads  # one whole payload, never a mixture
        assert [p.name for p in tmp_path.iterdir()] == ["table.toml"]  # no temporaries
        if not force:  # the first to finish wins; the others refuse to replace it
            assert outcomes.count("wrote") == 1
            assert all("refusing to write over it" in o for o in outcomes if o != "wrote")
        else:
            assert outcomes.count("wrote") == len(payloads)
