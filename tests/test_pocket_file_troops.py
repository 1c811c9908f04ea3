"""A unit written without its `troops` key is bad input naming the unit; `troops = []` is a verdict."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tabletop.app.cli import main

BATTLE = """game = "pocket-battles"
size = 60

[[armies]]
player = 1
[[armies.units]]
id = "spears"
zone = "B2"
{troops}
[[armies]]
player = 2
[[armies.units]]
id = "blue"
zone = "B4"
troops = [ {{ id = "b1", points = 6, formation = 3, wounds = 1, melee = 4 }} ]
"""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["pocket", *argv], out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("action", ["check", "actions", "replay"])
def test_a_unit_without_troops_is_exit_2_naming_the_unit(tmp_path: Path, action: str) -> None:
    path = tmp_path / "b.toml"
    path.write_text(BATTLE.format(troops=""), encoding="utf-8")
    code, out, err = run(action, str(path))
    assert (code, out) == (2, "")
    assert (
        "b.toml: armies[0] units[0] 'spears': key 'troops': unit 'spears' has no troops key; "
        "expected troops = [...]"
    ) in err
    code, out, _ = run(action, str(path), "--json")
    assert code == 2
    assert json.loads(out)["error"]["where"].endswith("units[0] 'spears': key 'troops'")


def test_an_empty_troops_list_is_the_check_verdict_unit_empty(tmp_path: Path) -> None:
    path = tmp_path / "b.toml"
    path.write_text(BATTLE.format(troops="troops = []"), encoding="utf-8")
    code, out, _ = run("check", str(path), "--json")
    assert code == 1
    violations = json.loads(out)["violations"]
    assert {"rule": "unit-empty", "unit": "spears"}.items() <= violations[0].items()
