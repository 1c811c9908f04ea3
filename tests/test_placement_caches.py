"""The caches a table asked again with one piece moved uses (the live verdict of a drag).

Placed outlines of ships and obstacles are kept by their exact numbers, and the ship-
overlap rule keeps its last answer for the very same outlines. Each must give what a
computation from nothing gives: the same vertices to the bit (0.0 and -0.0 apart), and a
check asked through the caches the same report as with every cache emptied first.
"""

from __future__ import annotations

import copy
import json
import random
import tomllib
from pathlib import Path
from typing import Any

import pytest
import shapely

from tabletop.geom import objects
from tabletop.geom.objects import Ship, placement_key, ship_polygons
from tabletop.geom.rulesets import get_ruleset
from tabletop.obstacles import _overlap_rule
from tabletop.obstacles import scene as scene_module
from tabletop.obstacles.legality import check
from tabletop.obstacles.scene import Scene, obstacle_polygons

ROOT = Path(__file__).resolve().parent.parent
TOURNAMENT = tomllib.loads((ROOT / "examples" / "xwing-tournament.toml").read_text("utf-8"))


def empty_caches() -> None:
    objects._SHIP_OUTLINES.clear()
    scene_module._PLACED.clear()
    _overlap_rule._LAST_OVERLAPS[0] = None


def report_of(data: dict[str, Any], *, fresh: bool) -> str:
    if fresh:
        empty_caches()
    report = check(Scene.from_dict(copy.deepcopy(data)), margins=True).to_json()
    return json.dumps(report, sort_keys=True)


def test_a_zero_and_a_negative_zero_are_two_keys() -> None:
    assert placement_key(0.0, 1.0) != placement_key(-0.0, 1.0)
    assert placement_key(0.0, 1.0) == placement_key(0.0, 1.0)
    assert len({placement_key(0.0), placement_key(-0.0)}) == 2


def test_a_ship_placed_from_the_cache_is_the_one_placed_anew() -> None:
    xwing = get_ruleset("xwing2")
    fleet = [Ship("a", "small", 120.0, 60.0, 90.0), Ship("b", "large", -0.0, 0.0, 30.0)]
    first = ship_polygons(fleet, xwing)
    again = ship_polygons(fleet, xwing)
    assert all(a is b for a, b in zip(first, again, strict=True))  # from the cache
    objects._SHIP_OUTLINES.clear()
    anew = ship_polygons(fleet, xwing)
    for cached, fresh in zip(again, anew, strict=True):
        assert shapely.get_coordinates(cached).tobytes() == shapely.get_coordinates(fresh).tobytes()
    # the other zero is placed for itself, not taken for the first
    other = ship_polygons([Ship("b", "large", 0.0, 0.0, 30.0)], xwing)[0]
    assert other is not again[1]


def test_an_obstacle_placed_from_the_cache_is_the_one_placed_anew() -> None:
    scene = Scene.from_dict(copy.deepcopy(TOURNAMENT))
    first = obstacle_polygons(scene.obstacles)
    again = obstacle_polygons(Scene.from_dict(copy.deepcopy(TOURNAMENT)).obstacles)
    assert all(a is b for a, b in zip(first, again, strict=True))
    scene_module._PLACED.clear()
    anew = obstacle_polygons(Scene.from_dict(copy.deepcopy(TOURNAMENT)).obstacles)
    for cached, fresh in zip(again, anew, strict=True):
        assert shapely.get_coordinates(cached).tobytes() == shapely.get_coordinates(fresh).tobytes()


@pytest.mark.parametrize("seed", range(6))
def test_a_drag_checked_through_the_caches_reports_as_from_nothing(seed: int) -> None:
    """A piece moved in 30 steps (an obstacle or a ship, into trouble and out)."""
    draw = random.Random(seed)
    data: dict[str, Any] = copy.deepcopy(TOURNAMENT)
    kind = "obstacles" if seed % 2 == 0 else "ships"
    index = draw.randrange(len(data[kind]))
    x, y = data[kind][index]["at"]
    dx, dy = draw.uniform(-8.0, 8.0), draw.uniform(-8.0, 8.0)
    empty_caches()
    for step in range(30):
        data[kind][index]["at"] = [round(x + dx * step, 2), round(y + dy * step, 2)]
        through_caches = report_of(data, fresh=False)
        assert through_caches == report_of(data, fresh=True), f"step {step}"
        report_of(data, fresh=False)  # the caches hold this position again for the next


def test_the_overlap_answer_is_kept_only_for_the_very_same_outlines() -> None:
    data: dict[str, Any] = copy.deepcopy(TOURNAMENT)
    data["ships"][1]["at"] = list(data["ships"][0]["at"])  # two ships on one spot
    empty_caches()
    overlapping = report_of(data, fresh=False)
    assert "ship-overlap" in rules_broken(overlapping)
    data["ships"][1]["at"][0] += 150.0
    apart = report_of(data, fresh=False)
    assert apart == report_of(data, fresh=True)
    assert "ship-overlap" not in rules_broken(apart)


def rules_broken(report: str) -> list[str]:
    return [v["rule"] for v in json.loads(report)["violations"]]


def test_a_table_larger_than_a_hand_drags_on_keeps_no_cache() -> None:
    xwing = get_ruleset("xwing2")
    many = [Ship(f"s{i}", "small", 50.0 + 10.0 * i, 60.0, 90.0) for i in range(65)]
    few = many[:64]
    assert ship_polygons(few, xwing)[0] is ship_polygons(few, xwing)[0]
    assert ship_polygons(many, xwing)[0] is not ship_polygons(many, xwing)[0]
