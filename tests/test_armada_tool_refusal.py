"""Armada: a course whose final base would overlap the maneuver tool moves nothing.

The line is touching: the tool's inner edge lies on the base side (its centre line
``half width`` outboard of it), so a straight course ends touching the tool, which is
not overlapping. With ``click_degrees`` set to 0.01 a yaw of one click turns the last
joint 0.01° toward or away from the tool: away it stays clear, toward it the final
base cuts into the tool's first joint, and the course is refused.
"""

from __future__ import annotations

import numpy as np
import pytest
from common import run_json, tool_detail

from tabletop.geom.areas import play_area
from tabletop.geom.objects import Ship
from tabletop.geom.rulesets import get_ruleset
from tabletop.maneuvers import execute
from tabletop.obstacles.scene import Scene

TOOL = {"click_degrees": 0.01, "to_pivot": 46.13, "pivot_to_guides": 22.27, "half_width": 7.625}
FINE = get_ruleset("armada").with_constants({"armada_tool": TOOL})
START = np.array([900.0, 200.0, 90.0])


def _scene() -> Scene:
    ship = Ship("a", "small", 900.0, 200.0)
    return Scene(FINE, play_area("6x3ft"), phase="play", obstacles=(), ships=(ship,))


def test_a_straight_course_ends_touching_the_tool_and_moves() -> None:
    result = execute(_scene(), "a", "speed 1 side left")
    assert result.legal is None
    assert result.complete is True
    assert tool_detail(result).tool_overlap is False
    assert result.final.tolist() == pytest.approx([900.0, 200.0 + 68.4, 90.0])


@pytest.mark.parametrize(
    ("words", "side", "heading"),
    [("speed 1 yaw 1 side left", "left", 90.01), ("speed 1 yaw -1 side right", "right", 89.99)],
)
def test_turning_away_from_the_tool_moves(words: str, side: str, heading: float) -> None:
    result = execute(_scene(), "a", words)
    assert result.legal is None
    assert result.complete is True
    assert tool_detail(result).side == side
    assert tool_detail(result).tool_overlap is False
    assert result.final[2] == pytest.approx(heading)


@pytest.mark.parametrize(
    ("words", "side"), [("speed 1 yaw -1 side left", "left"), ("speed 1 yaw 1 side right", "right")]
)
def test_turning_into_the_tool_is_refused_and_moves_nothing(words: str, side: str) -> None:
    result = execute(_scene(), "a", words)
    assert result.legal is False
    assert result.reason == f"the ship would overlap the tool on the {side} side"
    assert result.complete is False
    assert result.bumped is None
    assert result.final.tolist() == START.tolist()
    assert result.template is None
    assert tool_detail(result).side == side
    assert tool_detail(result).tool_overlap is True
    assert tool_detail(result).speed == 1


def test_the_bundled_example_refuses_the_right_side_course() -> None:
    # The command: the Victory's final base at yaw 0 1 overlaps a tool laid on its
    # right, so the course is illegal, never complete, and the ship stays at (800, 80).
    out = run_json(
        "move", "examples/armada-standard.toml", "victory", "speed 2 yaw 0 1 side right", "--json"
    )
    assert out["legal"] is False
    assert out["reason"] == "the ship would overlap the tool on the right side"
    assert out["complete"] is False
    assert out["final"] == {"at": [800.0, 80.0], "heading": 90.0}
    assert out["final"] == out["start"]
    assert (out["side"], out["tool_overlap"], out["speed"]) == ("right", True, 2)
    # Without the side the tool goes on the left, where it fits, and the ship moves.
    free = run_json("move", "examples/armada-standard.toml", "victory", "speed 2 yaw 0 1", "--json")
    assert "legal" not in free
    assert (free["complete"], free["side"], free["final"]["heading"]) == (True, "left", 112.5)


def test_a_course_that_overlaps_the_tool_on_both_sides_is_refused() -> None:
    # With 60° clicks, speed 3 yaw 1 2 -1 curls the ship back onto the tool whichever
    # side it is laid on; no side named, so the answer names both.
    tool = dict(TOOL, click_degrees=60.0)
    wide = get_ruleset("armada").with_constants({"armada_tool": tool})
    ship = Ship("a", "small", 900.0, 400.0)
    scene = Scene(wide, play_area("6x3ft"), phase="play", obstacles=(), ships=(ship,))
    result = execute(scene, "a", "speed 3 yaw 1 2 -1")
    assert result.legal is False
    assert result.reason == "the ship would overlap the tool on both sides"
    assert result.complete is False
    assert result.final.tolist() == [900.0, 400.0, 90.0]
    assert tool_detail(result).tool_overlap is True
