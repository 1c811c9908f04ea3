"""`tabletop fix`: check's fixes applied until the scene is legal, written to a new file only.

The contested example (rock-a 195.2 mm from the bottom edge and 83.923133 mm from rock-b)
needs one move; the moves are check's own (its report gives them), and the scene written
is checked again here. Every console example of docs/fix.md is run and compared with what
the program prints.
"""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from pathlib import Path

import pytest
from common import ROOT, run, run_json

CONTESTED = ROOT / "examples" / "xwing-contested.toml"


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder holding examples/xwing-contested.toml, made the current one."""
    (tmp_path / "examples").mkdir()
    shutil.copy(CONTESTED, tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_contested_example_is_fixed_and_the_result_is_legal(table: Path) -> None:
    code, out, _ = run("check", "examples/xwing-contested.toml", "--json")
    assert code == 1
    check = json.loads(out)
    placeable = check["violations"][0]["fix"]["placeable"]["move"]
    code, out, err = run("fix", "examples/xwing-contested.toml", "-o", "out.toml")
    assert (code, err) == (0, "")
    assert "now legal" in out
    written = tomllib.loads((table / "out.toml").read_text(encoding="utf-8"))
    rock_a = next(o for o in written["obstacles"] if o["id"] == "rock-a")
    assert rock_a["at"] == pytest.approx([300.0 + placeable[0], 211.23 + placeable[1]], abs=1e-6)
    # Everything else is as written: rock-b keeps its integer angle, the ships their places.
    rock_b = next(o for o in written["obstacles"] if o["id"] == "rock-b")
    assert rock_b == {
        "id": "rock-b",
        "token": "coreasteroid1",
        "at": [380.0, 300.0],
        "angle": 45,
        "flipped": True,
    }
    code, out, _ = run("check", "out.toml")
    assert code == 0, out
    margins = run_json("check", "out.toml", "--json", "--margins")["margins"]
    # Placeable: every line cleared by 1.1 mm or more (no contested call left).
    assert min(m["margin"] for m in margins if m["objects"][0] == "rock-a") >= 1.1 - 1e-6


def test_shortest_moves_land_just_past_the_line(table: Path) -> None:
    data = run_json("fix", "examples/xwing-contested.toml", "-o", "s.json", "--shortest", "--json")
    assert data["legal"]
    assert data["fixes"] == "shortest"
    assert data["clearance"] is None
    assert [m["object"] for m in data["moves"]] == ["rock-a"]
    margins = run_json("check", "s.json", "--json", "--margins")["margins"]
    edge = next(m for m in margins if m["rule"] == "obstacle-edge" and m["objects"] == ["rock-a"])
    # 10^-5 mm past the line: legal (more than 200 mm), however close.
    assert 0.0 < edge["margin"] <= 1.1e-5
    assert json.loads((table / "s.json").read_text(encoding="utf-8"))["ruleset"] == "xwing2"


def test_never_over_the_input_or_an_existing_file(table: Path) -> None:
    before = CONTESTED.read_bytes()
    code, _, err = run(
        "fix", "examples/xwing-contested.toml", "-o", "examples/xwing-contested.toml"
    )
    assert code == 2
    assert "never writes over its input" in err
    (table / "taken.toml").write_text("keep me", encoding="utf-8")
    code, out, err = run("fix", "examples/xwing-contested.toml", "-o", "taken.toml")
    assert (code, out) == (2, "")
    assert "the file exists" in err
    assert (table / "taken.toml").read_text(encoding="utf-8") == "keep me"
    assert (table / "examples" / "xwing-contested.toml").read_bytes() == before


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["-o", "out.txt"], "ending in .toml or .json"),
        (["-o", "out.toml", "--clearance", "0"], "--clearance"),
        (["-o", "out.toml", "--shortest", "--clearance", "2"], "--shortest takes none"),
        (["-o", "out.toml", "--placed", "nobody"], "nobody"),
    ],
)
def test_bad_options_exit_2_and_write_nothing(table: Path, argv: list[str], says: str) -> None:
    code, out, err = run("fix", "examples/xwing-contested.toml", *argv)
    assert (code, out) == (2, "")
    assert says in err
    assert not (table / "out.toml").exists()
    assert not (table / "out.txt").exists()


def test_what_cannot_be_fixed_remains_and_exits_1(table: Path) -> None:
    text = CONTESTED.read_text(encoding="utf-8").replace("at = [141, 60]", "at = [130, 60]")
    (table / "crowded.toml").write_text(text, encoding="utf-8")
    code, out, _ = run("fix", "crowded.toml", "-o", "out.toml")
    assert code == 1
    assert "  remains: ship-overlap: wedge overlaps biggs (guides included)\n" in out
    assert out.endswith("wrote out.toml (still illegal)\n")
    code, _, _ = run("check", "out.toml")
    assert code == 1  # the ships still overlap; the obstacles are legal now
    report = json.loads(run("check", "out.toml", "--json")[1])
    assert [v["rule"] for v in report["violations"]] == ["ship-overlap"]


def test_a_legal_scene_is_written_as_it_is(table: Path) -> None:
    run("fix", "examples/xwing-contested.toml", "-o", "legal.toml")
    data = run_json("fix", "legal.toml", "-o", "again.toml", "--json")
    assert (data["legal"], data["moves"], data["violations_before"]) == (True, [], 0)
    assert tomllib.loads((table / "again.toml").read_text(encoding="utf-8")) == tomllib.loads(
        (table / "legal.toml").read_text(encoding="utf-8")
    )


def _console_examples(page: str) -> list[tuple[str, str]]:
    """Return each ``$ tabletop ...`` line of a page's code blocks and the text under it."""
    found = []
    for block in re.findall(r"```\n(.*?)```", page, re.S):
        for command, output in re.findall(r"^\$ (tabletop .*)\n((?:(?!\$ ).*\n)*)", block, re.M):
            found.append((command, output))
    return found


def test_every_console_example_of_the_fix_page_prints_what_it_shows(table: Path) -> None:
    examples = _console_examples((ROOT / "docs" / "fix.md").read_text(encoding="utf-8"))
    assert len(examples) == 4
    for command, shown in examples:
        code, out, err = run(*command.split()[1:])
        assert out + err == shown, command
        assert code == (2 if "error:" in shown else 0), command
