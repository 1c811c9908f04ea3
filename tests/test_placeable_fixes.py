"""Fixes a hand can place (``check --clearance MM``) and the token being placed (``--placed``).

Worked out by hand on a 3' x 3' X-Wing table with 40 mm squares: ``rock`` centred at
(457.2, 215) is 195 mm from the bottom edge (margin -5 to "more than 200"); the shortest
fix moves it 5.00001 mm up (it lands 10^-5 mm past the line), a placeable one with a
clearance of 1.1 mm moves it 6.1 mm up, with 2 mm, 7 mm. ``a`` at (300, 457.2) and ``b``
at (430, 457.2) are 90 mm apart (margin -10 to "more than 100"): the fix moves the token
being placed 10.00001 mm away from the other, a placeable one 11.1 mm. A slow shapely
check measures each placeable move's result independently.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import shapely
from common import json_scene_file, run

SQUARE40 = [[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]]


def square_at(x: float, y: float) -> shapely.Polygon:
    return shapely.box(x - 20.0, y - 20.0, x + 20.0, y + 20.0)


def scene(*obstacles: tuple[str, float, float]) -> dict[str, Any]:
    return {
        "ruleset": "xwing2",
        "obstacles": [{"id": i, "outline": SQUARE40, "at": [x, y]} for i, x, y in obstacles],
    }


def check_json(tmp_path: Path, data: dict[str, Any], *options: str) -> dict[str, Any]:
    path = json_scene_file(tmp_path, data)
    code, out, _ = run("check", path, "--json", *options)
    assert code == 1
    answer = json.loads(out)
    assert isinstance(answer, dict)
    return answer


@pytest.mark.parametrize(("clearance", "dy"), [(1.1, 6.1), (2.0, 7.0), (0.5, 5.5)])
def test_a_placeable_fix_lands_the_clearance_past_the_edge_line(
    tmp_path: Path, clearance: float, dy: float
) -> None:
    data = check_json(tmp_path, scene(("rock", 457.2, 215.0)), "--clearance", str(clearance))
    (violation,) = data["violations"]
    fix = violation["fix"]
    assert fix["move"] == pytest.approx([0.0, 5.00001], abs=1e-6)
    placeable = fix["placeable"]
    assert placeable["move"] == pytest.approx([0.0, dy], abs=1e-5)
    assert placeable["clearance"] == clearance
    assert placeable["way"] == f"{dy} mm up"
    # Independently: the moved square is 200 + clearance from the bottom edge.
    moved = square_at(457.2, 215.0 + placeable["move"][1])
    assert moved.bounds[1] == pytest.approx(200.0 + clearance, abs=1e-5)


def test_by_default_the_fix_is_placeable_clear_of_the_contested_zone(tmp_path: Path) -> None:
    # Without --clearance the placeable fix lands 1.1 mm past the line: 0.1 mm beyond the
    # 1.0 mm contested zone. 195 mm from the edge, it moves 200 + 1.1 - 195 = 6.1 mm up.
    data = check_json(tmp_path, scene(("rock", 457.2, 215.0)))
    assert data["violations"][0]["fix"] == {
        "object": "rock",
        "move": [0.0, 5.00001],
        "way": "5.00001 mm up",
        "placeable": {"move": [0.0, 6.1], "clearance": 1.1, "way": "6.1 mm up"},
    }
    path = json_scene_file(tmp_path, scene(("rock", 457.2, 215.0)))
    code, out, _ = run("check", path)
    assert code == 1
    assert (
        "     fix: move rock by (+0.0, +5.00001) mm (5.00001 mm up), the shortest "
        "(just past the line)\n"
        "     placeable: move rock by (+0.0, +6.1) mm (6.1 mm up), 1.1 mm past every line\n"
    ) in out
    # Independently: the placeable move leaves the square 201.1 mm from the bottom edge,
    # outside the contested zone (more than 1.0 mm past the 200 mm line).
    moved = square_at(457.2, 215.0 + 6.1)
    assert moved.bounds[1] - 200.0 > 1.0


def test_the_default_placeable_spacing_fix_moves_the_token_placed(tmp_path: Path) -> None:
    # a and b 90 mm apart, b being placed: b moves 100 + 1.1 - 90 = 11.1 mm right (away).
    data = check_json(tmp_path, scene(("a", 300.0, 457.2), ("b", 430.0, 457.2)), "--placed", "b")
    fix = data["violations"][0]["fix"]
    assert fix["object"] == "b"
    assert fix["move"] == pytest.approx([10.00001, 0.0], abs=1e-6)
    assert fix["way"] == "10.00001 mm right"
    assert fix["placeable"]["move"] == pytest.approx([11.1, 0.0], abs=1e-5)
    assert fix["placeable"]["way"] == "11.1 mm right"
    moved = square_at(430.0 + fix["placeable"]["move"][0], 457.2)
    assert shapely.distance(moved, square_at(300.0, 457.2)) == pytest.approx(101.1, abs=1e-5)


@pytest.mark.parametrize(
    ("placed", "first", "dx"), [(None, "a", -11.1), ("a", "a", -11.1), ("b", "b", 11.1)]
)
def test_the_token_being_placed_is_the_one_moved(
    tmp_path: Path, placed: str | None, first: str, dx: float
) -> None:
    options = ["--clearance", "1.1"] + ([] if placed is None else ["--placed", placed])
    data = check_json(tmp_path, scene(("a", 300.0, 457.2), ("b", 430.0, 457.2)), *options)
    (violation,) = data["violations"]
    assert violation["rule"] == "obstacle-spacing"
    assert violation["objects"][0] == first
    assert violation["message"].startswith(f"{first} is 90.0 mm from ")
    fix = violation["fix"]
    assert fix["object"] == first
    assert fix["move"] == pytest.approx([dx / 11.1 * 10.00001, 0.0], abs=1e-6)
    assert fix["placeable"]["move"] == pytest.approx([dx, 0.0], abs=1e-5)
    assert fix["placeable"]["way"] == f"11.1 mm {'right' if dx > 0 else 'left'}"
    # Independently: after the placeable move the two squares are 101.1 mm apart.
    x_a, x_b = (300.0 + dx, 430.0) if first == "a" else (300.0, 430.0 + dx)
    gap = shapely.distance(square_at(x_a, 457.2), square_at(x_b, 457.2))
    assert gap == pytest.approx(101.1, abs=1e-5)


def test_the_report_says_which_way(tmp_path: Path) -> None:
    path = json_scene_file(tmp_path, scene(("a", 300.0, 457.2), ("b", 430.0, 457.2)))
    code, out, _ = run("check", path, "--clearance", "1.1", "--placed", "b")
    assert code == 1
    assert (
        "     fix: move b by (+10.00001, +0.0) mm (10.00001 mm right), the shortest "
        "(just past the line)\n"
    ) in out
    assert (
        "     placeable: move b by (+11.1, +0.0) mm (11.1 mm right), 1.1 mm past every line" in out
    )


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (("--placed", "nobody"), "no obstacle has the id 'nobody'"),
        (("--clearance", "-1"), "expected a length in mm"),
        (("--clearance", "nan"), "expected a length in mm"),
    ],
)
def test_bad_options_exit_2(tmp_path: Path, options: tuple[str, str], words: str) -> None:
    path = json_scene_file(tmp_path, scene(("rock", 457.2, 215.0)))
    code, out, err = run("check", path, *options)
    assert code == 2
    assert out == ""
    assert words in err


def test_the_scene_s_placed_last_names_the_token_moved(tmp_path: Path) -> None:
    data = {**scene(("a", 300.0, 457.2), ("b", 430.0, 457.2)), "placed_last": "b"}
    answer = check_json(tmp_path, data)
    (violation,) = answer["violations"]
    assert violation["objects"] == ["b", "a"]
    assert violation["fix"]["object"] == "b"
    assert violation["fix"]["move"] == [10.00001, 0.0]
    # --placed says otherwise for this one check.
    answer = check_json(tmp_path, data, "--placed", "a")
    assert answer["violations"][0]["fix"]["object"] == "a"


@pytest.mark.parametrize("value", ["nobody", 5, ["b"]])
def test_a_bad_placed_last_is_a_load_error(tmp_path: Path, value: object) -> None:
    data = {**scene(("a", 300.0, 457.2), ("b", 430.0, 457.2)), "placed_last": value}
    path = json_scene_file(tmp_path, data)
    code, out, err = run("check", path)
    assert code == 2
    assert out == ""
    assert "placed_last" in err
    assert "expected the id of an obstacle" in err
