"""The contested flag, ``nearest_line`` and ``margin`` name one line; attacks ask about range.

Worked out by hand (rules.md, Measuring): band k holds d <= D_k, and a distance within
``contested_within`` (1.0 mm) of a band line is contested; in X-Wing 2.0 touching is range
0, so a distance within 1.0 mm of touching is contested by touching's line (0 mm).

* Two small X-Wing ships (40 mm bases) side by side, centres 40 + g apart along x, face
  each other's sides g mm apart: the distance is g, the closest points (320, 80) and
  (320 + g, 80) (the lower corners, tied along the edges; the lowest pair is reported).
* Armada: a small ship without a hull (generic token, ``armada_token_sizes["small"]``:
  width x length, front edge at y = 300 + length / 2) faces +y; a squadron (disk of
  diameter ``armada_squadron_diameter`` = 31) straight ahead, its centre r + 15.5 beyond
  the token's front edge: the attack range from the front hull zone is r. The range lines
  are close 123.5, medium 187.0, long 304.8; the distance lines 76.5, 124.5, 185, 245,
  304.8 (rules.md, Armada).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from common import json_scene_file, run

from tabletop.geom.rulesets import get_ruleset


def xwing_pair(gap: float) -> dict[str, Any]:
    return {
        "ruleset": "xwing2",
        "phase": "play",
        "ships": [
            {"id": "a", "base": "small", "at": [300.0, 100.0], "heading": 90.0},
            {"id": "b", "base": "small", "at": [340.0 + gap, 100.0], "heading": 90.0},
        ],
    }


def measure_json(tmp_path: Path, data: dict[str, Any], *extra: str) -> dict[str, Any]:
    code, out, err = run("measure", json_scene_file(tmp_path, data), *extra, "--json")
    assert (code, err) == (0, ""), err
    answer: dict[str, Any] = json.loads(out)
    return answer


@pytest.mark.parametrize(
    ("gap", "line", "margin", "contested"),
    [
        (0.4, 0.0, -0.4, True),  # the case: touching's line raised the flag
        (0.0, 0.0, 0.0, True),  # touching: on the line, range 0
        (1.0, 0.0, -1.0, True),  # exactly the contested distance: still contested
        (1.5, 100.0, 98.5, False),  # beyond it: no flag, the nearest band line
        (99.6, 100.0, 0.4, True),  # the 100 mm line raised it
    ],
)
def test_the_flag_the_line_and_the_margin_are_one_line(
    tmp_path: Path, gap: float, line: float, margin: float, contested: bool
) -> None:
    answer = measure_json(tmp_path, xwing_pair(gap), "a", "b")
    assert answer["distance"] == pytest.approx(gap, abs=1e-6)
    assert answer["contested"] is contested
    assert answer["nearest_line"] == line
    assert answer["margin"] == pytest.approx(margin, abs=1e-6)
    if contested:
        assert answer["contested_line"] == line
        assert answer["contested_margin"] == pytest.approx(margin, abs=1e-6)
    else:
        assert (answer["contested_line"], answer["ruling"]) == (None, None)


def test_the_flag_names_its_line_and_ruling_without_being_asked(tmp_path: Path) -> None:
    path = json_scene_file(tmp_path, xwing_pair(0.4))
    code, out, _ = run("measure", path, "a", "b")
    assert code == 0
    assert "  margin:     0.4 mm from touching (the 0.0 mm line)\n" in out
    assert (
        "  contested:  YES: within 1.0 mm of touching (0.4 mm apart): touching counts as range 0\n"
    ) in out
    answer = measure_json(tmp_path, xwing_pair(0.4), "a", "b")
    assert answer["ruling"] == (
        "within 1.0 mm of touching (0.4 mm apart): touching counts as range 0"
    )


def armada_attack(attack_range: float) -> dict[str, Any]:
    _, length = get_ruleset("armada").armada_token_sizes["small"]
    squadron_y = 300.0 + length / 2.0 + attack_range + 31.0 / 2.0
    return {
        "ruleset": "armada",
        "phase": "play",
        "area": "6x3ft",
        "ships": [
            {"id": "a", "base": "small", "at": [900.0, 300.0], "heading": 90.0},
            {"id": "sq", "base": "squadron", "at": [900.0, squadron_y], "heading": 90.0},
        ],
    }


@pytest.mark.parametrize(
    ("attack_range", "line", "margin", "contested", "ruling"),
    [
        # The issue's case: 12.2 mm beyond distance 2's 124.5 line, 13.2 beyond close range.
        (136.7, 123.5, -13.2, False, None),
        # Within 1 mm of both 123.5 (range) and 124.5 (distance): the range line rules.
        (
            123.9,
            123.5,
            -0.4,
            True,
            "within 1.0 mm of the 123.5 mm line (0.4 mm beyond it): "
            "on the line counts as close range",
        ),
        # 0.5 inside distance 3's 185 line, 1.5 inside medium range's 187: no range call.
        (185.5, 187.0, 1.5, False, None),
        # On the long-range line, which is distance 5's too: only range is asked.
        (
            304.8,
            304.8,
            0.0,
            True,
            "within 1.0 mm of the 304.8 mm line (on it): on the line counts as long range",
        ),
    ],
)
def test_an_armada_attack_s_margin_is_to_the_range_ruler_s_line(
    tmp_path: Path,
    attack_range: float,
    line: float,
    margin: float,
    contested: bool,
    ruling: str | None,
) -> None:
    answer = measure_json(tmp_path, armada_attack(attack_range), "a", "sq", "--arc", "front")
    assert answer["in_arc"] is True
    assert answer["distance"] == pytest.approx(attack_range, abs=1e-6)
    assert answer["nearest_line"] == line
    assert answer["margin"] == pytest.approx(margin, abs=1e-6)
    assert answer["contested"] is contested
    assert answer["ruling"] == ruling


def test_a_plain_armada_distance_keeps_every_line(tmp_path: Path) -> None:
    # Without an arc the question is a distance: base to base, 136.7 - (71 - length) / 2
    # ... the base's front edge is at 300 + 71 / 2 = 335.5.
    data = armada_attack(136.7)
    _, length = get_ruleset("armada").armada_token_sizes["small"]
    base_gap = 136.7 - (71.0 - length) / 2.0
    answer = measure_json(tmp_path, data, "a", "sq")
    assert answer["distance"] == pytest.approx(base_gap, abs=1e-6)
    assert answer["nearest_line"] == 124.5  # distance 2's line, the nearest of all
    assert answer["margin"] == pytest.approx(124.5 - base_gap, abs=1e-6)


def test_out_of_arc_says_nothing_about_obstruction(tmp_path: Path) -> None:
    # b sits 160 mm behind a (bases 40 mm, centres 200 apart): out of a's front arc; a
    # 60 mm wide rock between them crosses every line of fire, but no attack is made.
    data = {
        "ruleset": "xwing2",
        "phase": "play",
        "ships": [
            {"id": "a", "base": "small", "at": [300.0, 300.0], "heading": 90.0},
            {"id": "b", "base": "small", "at": [300.0, 100.0], "heading": 90.0},
        ],
        "obstacles": [
            {
                "id": "rock",
                "outline": [[-30, -10], [30, -10], [30, 10], [-30, 10]],
                "at": [300.0, 200.0],
            }
        ],
    }
    answer = measure_json(tmp_path, data, "a", "b", "--arc", "front")
    assert answer["in_arc"] is False
    assert answer["distance"] == pytest.approx(160.0, abs=1e-6)
    assert (answer["obstructed"], answer["obstructed_by"]) == (None, [])
    assert "clearances" not in answer
    code, out, _ = run("measure", json_scene_file(tmp_path, data), "a", "b", "--arc", "front")
    assert code == 0
    for word in ("obstructed", "clearance", "rock"):
        assert word not in out
    # In arc (b ahead of a), the same rock obstructs.
    answer = measure_json(tmp_path, data, "b", "a", "--arc", "front")
    assert (answer["in_arc"], answer["obstructed"], answer["obstructed_by"]) == (
        True,
        True,
        ["rock"],
    )


def test_armada_out_of_arc_answers_no_sight_or_obstruction(tmp_path: Path) -> None:
    answer = measure_json(tmp_path, armada_attack(136.7), "a", "sq", "--arc", "rear")
    assert answer["in_arc"] is False
    assert answer["obstructed"] is None
    assert (answer["line_of_sight"], answer["sight_line"]) == (None, None)


def test_a_distance_its_margin_and_its_points_at_one_precision(tmp_path: Path) -> None:
    # b's near edge 200.0005 mm from a's: 0.0005 mm beyond the 200 mm line.
    data = {
        "ruleset": "xwing2",
        "phase": "play",
        "ships": [
            {"id": "a", "base": "small", "at": [300.0, 100.0], "heading": 90.0},
            {"id": "b", "base": "small", "at": [300.0, 340.0005], "heading": 90.0},
        ],
    }
    code, out, _ = run("measure", json_scene_file(tmp_path, data), "a", "b")
    assert code == 0
    assert "  distance:   200.0005 mm\n" in out
    assert "  margin:     0.0005 mm beyond the 200.0 mm line\n" in out
    # The edges face each other parallel (tied segments): either end of the band is one.
    assert any(
        f"  closest:    ({x}.0000, 120.0000) to ({x}.0000, 320.0005)\n" in out for x in (280, 320)
    )
