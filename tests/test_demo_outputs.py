"""``make demo`` ends with what it wrote to ``out/`` and what each file shows (issue 36.6)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from common import ROOT

from benchmarks.demo_outputs import START, describe, main

MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")


def _demo_recipe() -> str:
    start = MAKEFILE.index("\ndemo:")
    return MAKEFILE[start : MAKEFILE.index("\n\n", start)]


def demo_writes() -> list[str]:
    """The names the demo recipe writes to out/, its loops spelt out over examples/."""
    recipe = _demo_recipe()
    names = list(re.findall(r"out/([\w.-]+\.(?:png|toml))", recipe))
    if "out/$$(basename $$f .toml).png" in recipe:
        names += [f"{p.stem}.png" for p in sorted((ROOT / "examples").glob("*.toml"))]
    if "out/$$(basename $$f | tr . -).toml" in recipe:
        saves = sorted((ROOT / "examples" / "saves").glob("*.*"))
        kinds = (".json", ".vsav", ".vlog")
        names += [f"{p.name.replace('.', '-')}.toml" for p in saves if p.suffix in kinds]
    return sorted(set(names))


def test_every_file_the_demo_writes_is_described() -> None:
    names = demo_writes()
    assert "board.png" in names
    assert "xwing2-tournament-json.toml" in names
    assert "xwing-contested.png" in names
    for name in names:
        assert describe(name) != "(not one of the demo files)", name


def test_the_demo_ends_with_the_list_and_starts_the_clock_first() -> None:
    recipe = _demo_recipe().splitlines()
    commands = [line.strip() for line in recipe if line.startswith("\t") and "@#" not in line]
    assert commands[1] == "touch out/.demo-start"
    assert commands[-1] == "@$(BIN)/python -m benchmarks.demo_outputs out"


def test_the_list_names_new_files_and_counts_older_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "mine.txt"
    old.write_text("kept", encoding="utf-8")
    os.utime(old, (1_000_000, 1_000_000))
    (tmp_path / START).touch()
    (tmp_path / "board.png").write_bytes(b"png")
    (tmp_path / "xwing2-first-moves-vlog.toml").write_text("", encoding="utf-8")
    assert main([str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"make demo wrote 2 files to {tmp_path}/:"
    assert lines[1].split() == [str(tmp_path / "board.png"), *describe("board.png").split()]
    assert lines[2].endswith(
        "the VASSAL log examples/saves/xwing2-first-moves.vlog imported as a scene (its last step)"
    )
    assert lines[3] == "  (and 1 older file left there from before)"
    assert len(lines) == 4
