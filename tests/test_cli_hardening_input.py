"""Reading input: scenes on stdin (-), FIFOs refused without a hang, a byte-order mark
accepted, arguments that are not UTF-8, words after --, huge values cut in messages."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.app.cli import main
from tabletop.app.common.datafile import MAX_FILE_BYTES, FileError, read_data, show
from tabletop.app.common.text import MESSAGE_LIMIT

ROOT = Path(__file__).resolve().parents[1]
DOGFIGHT = ROOT / "examples" / "xwing-dogfight.toml"
SMALL_JSON = '{"ships": [{"id": "a", "base": "small", "at": [100, 40]}]}'
TWO_SHIPS = {
    "ships": [
        {"id": "a", "base": "small", "at": [100, 100]},
        {"id": "b", "base": "small", "at": [100, 340], "player": 2},
    ]
}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def feed(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


# --- scenes on stdin --------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ("check", "-", "--json"),
        ("measure", "-", "a", "b", "--json"),
        ("move", "-", "a", "straight", "1", "--json"),
        ("report", "-", "--json"),
    ],
)
def test_every_scene_command_reads_stdin_as_json_or_toml(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, argv: tuple[str, ...]
) -> None:
    toml = (
        '[[ships]]\nid = "a"\nbase = "small"\nat = [100, 100]\n\n'
        '[[ships]]\nid = "b"\nbase = "small"\nat = [100, 340]\nplayer = 2\n'
    )
    file = tmp_path / "scene.toml"
    file.write_text(toml, "utf-8")
    expected = run(argv[0], str(file), *argv[2:])
    assert expected[0] in (0, 1), expected[2]  # check finds the ships off their zones
    for text in (toml, json.dumps(TWO_SHIPS), " \n\t" + json.dumps(TWO_SHIPS)):
        feed(monkeypatch, text.encode())
        code, stdout, stderr = run(*argv)
        assert code == expected[0], stderr
        answer, wanted = json.loads(stdout), json.loads(expected[1])
        if argv[0] == "report":
            assert answer["scene"] == "-"
            answer["scene"] = wanted["scene"]
        assert answer == wanted


def test_render_reads_stdin(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    feed(monkeypatch, DOGFIGHT.read_bytes())
    out = tmp_path / "shot.svg"
    code, stdout, stderr = run("render", "-", "-o", str(out))
    assert code == 0, stderr
    assert stdout.startswith(f"wrote {out} (svg,")


def test_stdin_is_named_in_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    feed(monkeypatch, b'{"ships": [{"id": "a", "base": "tiny", "at": [1, 2]}]}')
    code, _, stderr = run("check", "-")
    assert code == 2
    assert stderr.startswith("tabletop check: error: <stdin>: ships[0] 'a': key 'base':")
    feed(monkeypatch, b"ships = [")
    code, _, stderr = run("check", "-")
    assert "<stdin>: not valid TOML" in stderr


def test_human_reports_name_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    for command in ("check", "report"):
        feed(monkeypatch, SMALL_JSON.encode())
        code, stdout, stderr = run(command, "-")
        assert code == 0, stderr
        assert stdout.startswith("<stdin>: xwing2, ")


def test_stdin_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    feed(monkeypatch, SMALL_JSON.encode())
    assert read_data("-") == json.loads(SMALL_JSON)
    with pytest.raises(FileError, match="standard input was read already"):
        read_data("-")


@pytest.mark.parametrize(("extra", "ok"), [(0, True), (1, False)])
def test_stdin_is_bounded_like_a_file(
    monkeypatch: pytest.MonkeyPatch, extra: int, ok: bool
) -> None:
    body = SMALL_JSON.encode()
    data = body + b" " * (MAX_FILE_BYTES - len(body) + extra)
    assert len(data) == MAX_FILE_BYTES + extra
    feed(monkeypatch, data)
    if ok:
        assert read_data("-") == json.loads(SMALL_JSON)
    else:
        with pytest.raises(FileError, match=f"over {MAX_FILE_BYTES} bytes"):
            read_data("-")


def test_stdin_that_is_not_utf8(monkeypatch: pytest.MonkeyPatch) -> None:
    feed(monkeypatch, b'{"a": "\xff"}')
    with pytest.raises(FileError, match=r"<stdin>: not UTF-8 text \(byte 7\)"):
        read_data("-")


# --- files that are not regular files ---------------------------------------------------


def test_a_fifo_with_no_writer_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "scene.toml"
    os.mkfifo(fifo)
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "check", str(fifo)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "is not a regular file (a FIFO, device or socket)" in done.stderr
    assert "give - and send it on standard input" in done.stderr


def test_a_folder_with_a_scene_suffix_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "scene.toml"
    folder.mkdir()
    with pytest.raises(FileError, match="is a directory, not a scene file"):
        read_data(folder)


# --- byte-order mark --------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_a_leading_byte_order_mark_is_accepted(tmp_path: Path, suffix: str) -> None:
    text = DOGFIGHT.read_text("utf-8") if suffix == ".toml" else SMALL_JSON
    plain, marked = tmp_path / f"plain{suffix}", tmp_path / f"marked{suffix}"
    plain.write_text(text, "utf-8")
    marked.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert read_data(marked) == read_data(plain)


def test_a_byte_order_mark_elsewhere_is_still_an_error(tmp_path: Path) -> None:
    file = tmp_path / "two.json"
    file.write_bytes(b" \xef\xbb\xbf" + SMALL_JSON.encode())
    with pytest.raises(FileError, match="not valid JSON"):
        read_data(file)


# --- arguments --------------------------------------------------------------------------


def test_an_argument_that_is_not_utf8_is_a_clear_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "check", os.fsdecode(b"bad\xff.toml"), "--json"],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert b"Traceback" not in done.stderr
    assert b"tabletop check: error: argument 2 ('bad\\xff.toml') is not valid UTF-8" in done.stderr
    assert json.loads(done.stdout)["error"]["message"].startswith("argument 2 ('bad\\xff.toml')")


def test_an_id_json_after_double_dash_is_an_id(tmp_path: Path) -> None:
    scene = tmp_path / "scene.json"
    scene.write_text(
        json.dumps(
            {
                "ships": [
                    {"id": "--json", "base": "small", "at": [100, 100]},
                    {"id": "--", "base": "small", "at": [100, 340], "player": 2},
                ]
            }
        ),
        "utf-8",
    )
    code, stdout, stderr = run("measure", str(scene), "--", "--json", "--")
    assert code == 0, stderr
    assert stdout.startswith("--json to --\n")  # the human report: --json was not an option
    code, stdout, _ = run("measure", str(scene), "--", "--", "--json")
    assert stdout.startswith("-- to --json\n")
    code, stdout, _ = run("measure", str(scene), "--json", "--", "--", "--json")
    assert json.loads(stdout)["from"] == "--"
    code, stdout, stderr = run("measure", str(scene), "--", "--json", "nobody")
    assert code == 2
    assert stdout == ""  # the error is not JSON either
    assert "nobody" in stderr


def test_options_still_come_anywhere_before_double_dash() -> None:
    code, stdout, stderr = run("measure", "--arc", "front", str(DOGFIGHT), "wedge", "--", "howl")
    assert code == 0, stderr
    assert stdout.startswith("wedge to howl, from the front arc")


# --- huge values ------------------------------------------------------------------------


def test_show_says_how_long_a_cut_string_was() -> None:
    # reprlib cuts a string whose repr (quotes included) is over 80 characters
    assert show("x" * 78) == repr("x" * 78)
    assert show("x" * 79).endswith("' (79 characters)")
    assert len(show("x" * 1_000_000)) < 120


def test_a_huge_key_is_cut_in_the_message(tmp_path: Path) -> None:
    scene = tmp_path / "scene.json"
    key = "k" * 1_000_000
    scene.write_text(json.dumps({key: 1}), "utf-8")
    code, stdout, stderr = run("check", str(scene), "--json")
    assert code == 2
    assert len(stderr) < 2 * MESSAGE_LIMIT
    assert "1000000 characters" in stderr
    error = json.loads(stdout)["error"]
    assert len(error["where"]) <= MESSAGE_LIMIT
    assert "1000000 characters" in error["where"]


def test_a_huge_id_argument_is_cut_in_the_message() -> None:
    ident = "i" * 100_000
    code, _, stderr = run("measure", str(DOGFIGHT), ident, "wedge")
    assert code == 2
    assert len(stderr) < 2 * MESSAGE_LIMIT
    assert "characters" in stderr
