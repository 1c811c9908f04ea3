"""``measure --ruling``: the line a contested flag was raised by, its margin, and the ruling.

rules.md (Measuring): "a measurement that falls exactly on the line between two bands
counts as the shorter band"; contested within 1.0 mm of a band line; X-Wing 2.0's range 0
is touching (1st edition has no range 0: touching is range 1). Worked out by hand: two
small ships side by side at x = 100 and x = 140 + d are d mm apart.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from common import ROOT, json_scene_file, run


def pair(ruleset: str, gap: float) -> dict[str, Any]:
    return {
        "ruleset": ruleset,
        "phase": "play",
        "ships": [
            {"id": "a", "base": "small", "at": [100.0, 100.0], "heading": 90.0},
            {"id": "b", "base": "small", "at": [140.0 + gap, 100.0], "heading": 90.0},
        ],
    }


def ruling_of(tmp_path: Path, data: dict[str, Any]) -> dict[str, Any]:
    path = json_scene_file(tmp_path, data)
    code, out, _ = run("measure", path, "a", "b", "--ruling", "--json")
    assert code == 0
    answer = json.loads(out)
    assert isinstance(answer, dict)
    return answer


@pytest.mark.parametrize(
    ("ruleset", "gap", "line", "margin", "words"),
    [
        (
            "xwing2",
            200.0005,
            200.0,
            -0.0005,
            "within 1.0 mm of the 200.0 mm line (0.0005 mm beyond it): "
            "on the line counts as range 2",
        ),
        (
            "xwing2",
            200.0,
            200.0,
            0.0,
            "within 1.0 mm of the 200.0 mm line (on it): on the line counts as range 2",
        ),
        (
            "xwing2",
            199.0,
            200.0,
            1.0,
            "within 1.0 mm of the 200.0 mm line (1.0 mm inside it): on the line counts as range 2",
        ),
        (
            "xwing2",
            0.4,
            0.0,
            -0.4,
            "within 1.0 mm of touching (0.4 mm apart): touching counts as range 0",
        ),
    ],
)
def test_the_flag_names_its_line_and_the_ruling(
    tmp_path: Path, ruleset: str, gap: float, line: float, margin: float, words: str
) -> None:
    answer = ruling_of(tmp_path, pair(ruleset, gap))
    assert answer["contested"] is True
    assert answer["contested_line"] == line
    assert answer["contested_margin"] == pytest.approx(margin, abs=1e-6)
    assert answer["ruling"] == words


@pytest.mark.parametrize(("ruleset", "gap"), [("xwing2", 198.99), ("xwing1", 0.4)])
def test_not_contested_has_no_ruling(tmp_path: Path, ruleset: str, gap: float) -> None:
    answer = ruling_of(tmp_path, pair(ruleset, gap))
    assert answer["contested"] is False
    assert answer["contested_line"] is None
    assert answer["ruling"] is None


def test_the_example_s_flag_was_raised_by_range_0_s_line() -> None:
    # wedge and biggs, 1.0 mm apart: the flag is range 0's, while nearest_line stays 100.
    scene = ROOT / "examples" / "xwing-contested.toml"
    code, out, _ = run("measure", scene, "wedge", "biggs", "--ruling")
    assert code == 0
    assert (
        "  ruling:     within 1.0 mm of touching (1.0 mm apart): touching counts as range 0"
    ) in out
