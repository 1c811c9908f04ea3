"""Close calls in ``measure``: the line of fire's clearance from each obstacle, and margins
printed at the precision of their distance.

Worked out by hand: ``a`` (small, at (300, 100), facing +y) attacks ``b`` (small, at
(360, 300)) from its front arc; the closest points are the corners (320, 120) and
(340, 280) (b's corner is 12.5 degrees off a's heading, well inside the 40.62-degree
arc), so the line of fire runs along u = (20, 160) / 161.245155. A 20 x 20 rock is laid
with one side parallel to that line, g mm to its left (along n = (-160, 20) / 161.245155)
beside the line's midpoint (330, 200): the line clears it by g when g > 0, touches it
(a tangent) when g = 0 and crosses it by -g when g < 0. rules.md: "Obstructed: the
measured attack segment intersects an obstacle outline (touching counts)"; contested
within 1.0 mm.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from common import json_scene_file, run

LENGTH = math.hypot(20.0, 160.0)
U = (20.0 / LENGTH, 160.0 / LENGTH)
N = (-U[1], U[0])


def scene(gap: float) -> dict[str, Any]:
    corners = [
        [gap * N[0] + s * 10.0 * U[0] + k * N[0], gap * N[1] + s * 10.0 * U[1] + k * N[1]]
        for s, k in ((-1, 0.0), (1, 0.0), (1, 20.0), (-1, 20.0))
    ]
    return {
        "ruleset": "xwing2",
        "phase": "play",
        "ships": [
            {"id": "a", "base": "small", "at": [300.0, 100.0], "heading": 90.0},
            {"id": "b", "base": "small", "at": [360.0, 300.0], "heading": 90.0},
        ],
        "obstacles": [{"id": "rock", "outline": corners, "at": [330.0, 200.0]}],
    }


def measure(tmp_path: Path, gap: float, *json_flag: str) -> tuple[int, str]:
    path = json_scene_file(tmp_path, scene(gap))
    code, out, _ = run("measure", path, "a", "b", "--arc", "front", *json_flag)
    return code, out


@pytest.mark.parametrize(
    ("gap", "how", "obstructed", "line"),
    [
        (0.01, "clear", False, "rock: clear, 0.01 mm from the line of fire, contested"),
        (0.0, "tangent", True, "rock: tangent, the line of fire touches it (obstructs), contested"),
        (-0.01, "crossing", True, "rock: crossing, 0.01 mm across the line of fire, contested"),
        (1.0, "clear", False, "rock: clear, 1.0 mm from the line of fire, contested"),
        (-1.0, "crossing", True, "rock: crossing, 1.0 mm across the line of fire, contested"),
    ],
)
def test_the_line_of_fire_s_clearance_from_an_obstacle(
    tmp_path: Path, gap: float, how: str, obstructed: bool, line: str
) -> None:
    code, out = measure(tmp_path, gap, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["points"] == [[320.0, 120.0], [340.0, 280.0]]
    assert data["distance"] == pytest.approx(LENGTH, abs=1e-6)
    assert data["obstructed"] is obstructed
    (entry,) = data["clearances"]
    assert entry["id"] == "rock"
    assert entry["how"] == how
    assert entry["margin"] == pytest.approx(gap, abs=1e-6)
    assert entry["contested"] is True
    code, out = measure(tmp_path, gap)
    assert f"  clearance:  {line}\n" in out
    if how == "tangent":
        # A tangent touches the rock; it does not cross it.
        assert "  obstructed: YES, touching rock (tangent)\n" in out
        assert "crossing" not in out


@pytest.mark.parametrize("gap", [1.01, -1.01])
def test_beyond_the_contested_distance_no_clearance_is_printed(tmp_path: Path, gap: float) -> None:
    code, out = measure(tmp_path, gap, "--json")
    assert code == 0
    data = json.loads(out)
    assert "clearances" not in data
    assert data["obstructed"] is (gap < 0)


def test_a_distance_and_its_margin_print_at_the_same_precision(tmp_path: Path) -> None:
    # Two small ships side by side, 200.0005 mm apart: 0.0005 beyond the 200 line.
    data = {
        "ruleset": "xwing2",
        "phase": "play",
        "ships": [
            {"id": "a", "base": "small", "at": [100.0, 100.0], "heading": 90.0},
            {"id": "b", "base": "small", "at": [340.0005, 100.0], "heading": 90.0},
        ],
    }
    path = json_scene_file(tmp_path, data)
    code, out, _ = run("measure", path, "a", "b")
    assert code == 0
    assert "  distance:   200.0005 mm\n" in out
    assert "  margin:     0.0005 mm beyond the 200.0 mm line\n" in out
    code, out, _ = run("report", path)
    assert code == 0
    assert "200.0005" in out
    assert "-0.0005" in out


@pytest.mark.parametrize(
    ("gap", "how", "obstructed"),
    [
        (0.3, "clear", False),
        (0.0, "tangent", True),
        (-0.3, "crossing", True),
        (1.0, "clear", False),
    ],
)
def test_an_armada_sight_line_s_clearance(
    tmp_path: Path, gap: float, how: str, obstructed: bool
) -> None:
    """Worked out by hand: ``a`` (small, no hull: the generic token, 38.5 x 70.25, its front
    hull zone the triangle from the front corners to the centre) at (500, 200) facing +y
    has its front targeting point at the zone's centroid, (500, 200 + 70.25 / 3) =
    (500, 223.416667); the squadron's is its centre (500, 400): the sight line is x = 500.
    A 20 x 20 rock whose left side is at x = 500 + gap (y 290-310, outside both tokens)
    is cleared by gap, touched, or crossed by -gap."""
    square = [[0.0, -10.0], [20.0, -10.0], [20.0, 10.0], [0.0, 10.0]]
    data = {
        "ruleset": "armada",
        "phase": "play",
        "ships": [
            {"id": "a", "base": "small", "at": [500.0, 200.0], "heading": 90.0},
            {"id": "s", "base": "squadron", "at": [500.0, 400.0], "heading": 90.0},
        ],
        "obstacles": [{"id": "rock", "outline": square, "at": [500.0 + gap, 300.0]}],
    }
    path = json_scene_file(tmp_path, data)
    code, out, _ = run("measure", path, "a", "s", "--arc", "front", "--json")
    assert code == 0
    answer = json.loads(out)
    assert answer["sight_line"] == [[500.0, 223.416667], [500.0, 400.0]]
    assert answer["obstructed"] is obstructed
    (entry,) = answer["clearances"]
    assert (entry["id"], entry["how"], entry["contested"]) == ("rock", how, True)
    assert entry["margin"] == pytest.approx(gap, abs=1e-6)
