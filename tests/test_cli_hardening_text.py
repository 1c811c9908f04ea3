"""Control characters in ids and file names are escaped in human reports (JSON keeps them
exact); the shared escape and cut functions."""

from __future__ import annotations

import io
import json
import unicodedata
from pathlib import Path

import pytest

from tabletop.app.cli import main
from tabletop.app.common.text import clip, printable, printable_lines, printable_report

EVIL = "red\x1b[31m\nFAKE LINE"
SPLIT = "two\u2028parts"
BIDI = "abc\u202edef"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def scene(tmp_path: Path) -> Path:
    path = tmp_path / "scene.json"
    path.write_text(
        json.dumps(
            {
                "ships": [
                    {"id": EVIL, "base": "small", "at": [100, 100]},
                    {"id": SPLIT, "base": "small", "at": [100, 340], "player": 2},
                    {"id": BIDI, "base": "small", "at": [300, 340], "player": 2},
                ]
            }
        ),
        "utf-8",
    )
    return path


def _no_raw_controls(text: str) -> None:
    for char in text:
        if char != "\n":
            assert unicodedata.category(char) not in ("Cc", "Zl", "Zp"), repr(char)
            assert char != "\u202e"


@pytest.mark.parametrize(
    ("argv", "lines"),
    [
        (("measure", "{scene}", EVIL, SPLIT), 6),
        (("check", "{scene}"), None),
        (("move", "{scene}", EVIL, "straight", "1"), 7),
        (("report", "{scene}"), 5),
    ],
)
def test_human_reports_escape_ids(scene: Path, argv: tuple[str, ...], lines: int | None) -> None:
    code, stdout, stderr = run(*(a.replace("{scene}", str(scene)) for a in argv))
    assert code in (0, 1), stderr
    _no_raw_controls(stdout)
    assert "red\\x1b[31m\\nFAKE LINE" in stdout
    assert not any(line.startswith("FAKE LINE") for line in stdout.split("\n"))
    if argv[0] != "check":
        assert "two\\u2028parts" in stdout or argv[0] == "move"
    if lines is not None:
        assert stdout.count("\n") == lines


def test_json_keeps_ids_exact(scene: Path) -> None:
    code, stdout, _ = run("measure", str(scene), EVIL, SPLIT, "--json")
    assert code == 0
    answer = json.loads(stdout)
    assert (answer["from"], answer["to"]) == (EVIL, SPLIT)


def test_error_messages_escape_ids(scene: Path) -> None:
    code, _, stderr = run("measure", str(scene), "no\x1b[2Jbody", EVIL)
    assert code == 2
    _no_raw_controls(stderr)
    assert stderr.endswith("\n")


def test_setup_escapes_the_file_name(tmp_path: Path) -> None:
    target = tmp_path / "a\x1b[31mb.toml"
    code, stdout, _ = run("setup", "--ruleset", "xwing2", "-o", str(target))
    assert code == 0
    _no_raw_controls(stdout)
    assert "a\\x1b[31mb.toml" in stdout
    assert target.exists()


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x00", "\\x00"),
        ("\x1b", "\\x1b"),
        ("\x1f", "\\x1f"),
        ("\x7f", "\\x7f"),
        ("\x85", "\\x85"),
        ("\x9b", "\\x9b"),
        ("\n", "\\n"),
        ("\r", "\\r"),
        ("\t", "\\t"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
        ("\u202e", "\\u202e"),
        ("\u2066", "\\u2066"),
        ("\udcff", "\\udcff"),
    ],
)
def test_printable_escapes(raw: str, shown: str) -> None:
    assert printable(f"a{raw}b") == f"a{shown}b"


@pytest.mark.parametrize("kept", [" ", "é", "\\", "x-wing", "🚀", "👩\u200d🚀", "\u00a0", "ß"])
def test_printable_keeps(kept: str) -> None:
    assert printable(kept) == kept


def test_printable_lines_keeps_only_line_breaks() -> None:
    assert printable_lines("a\x1b\nb\r") == "a\\x1b\nb\\r"


def test_printable_report_escapes_a_name_with_a_newline_whole() -> None:
    text = "x\ny to z\n  ok"
    assert printable_report(text, ["x\ny"]) == "x\\ny to z\n  ok"
    assert printable_report(text) == text


@pytest.mark.parametrize(("size", "whole"), [(999, True), (1000, True), (1001, False)])
def test_clip_at_the_line(size: int, whole: bool) -> None:
    text = "v" * size
    clipped = clip(text)
    assert (clipped == text) is whole
    assert len(clipped) <= 1000
    if not whole:
        assert f"[{size} characters, " in clipped
