"""Obstacles on a move: moves-through / ends-on, resolve order, starting on one, bumps, huge ships.

Ship "a" is small at (300, 100) facing +y: its base spans y 80-120 (guides to 121.6), and
a straight s template spans x 290-310, y 120 to 120 + 40s. Obstacles are squares.
"""

from __future__ import annotations

import numpy as np
import pytest
from common import template_detail

from tabletop.geom.areas import play_area
from tabletop.geom.objects import Ship
from tabletop.geom.rulesets import get_ruleset
from tabletop.maneuvers import execute
from tabletop.obstacles.scene import Obstacle, Scene

XW = get_ruleset("xwing2")


def square(ident: str, x: float, y: float, side: float = 20.0) -> Obstacle:
    half = side / 2.0
    outline = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    return Obstacle(ident, outline, "asteroid", x, y)


def scene_of(obstacles: tuple[Obstacle, ...], *ships: Ship) -> Scene:
    return Scene(XW, play_area("3x3ft"), phase="play", obstacles=obstacles, ships=ships)


A = Ship("a", "small", 300.0, 100.0)


def test_several_obstacles_on_one_path_resolve_nearest_first() -> None:
    obstacles = (
        square("ends", 300.0, 360.0),  # under the final base (y 320-360): 230 from the start
        square("far-off", 400.0, 200.0),  # nowhere near
        square("first", 300.0, 180.0),  # on the template: 50 from the start base
        square("c-mid", 300.0, 250.0),  # on the template: 120 away
        square("b-left", 283.0, 250.0),  # also 120 away: ties resolve by id
        square("a-right", 317.0, 250.0),
        square("touching", 320.0, 200.0),  # touches the template's edge x = 310: not through
    )
    result = execute(scene_of(obstacles, A), "a", "straight 5")
    assert result.obstacles == (
        ("first", "moves-through"),
        ("a-right", "moves-through"),
        ("b-left", "moves-through"),
        ("c-mid", "moves-through"),
        ("ends", "ends-on"),
    )
    first = result.to_json()["obstacles"][0]
    assert (first["id"], first["how"], first["resolves"]) == ("first", "moves-through", 1)


def test_ends_on_wins_over_moves_through_and_guides_count() -> None:
    # On the template and under the final base: listed once, as ends-on.
    both = square("both", 300.0, 315.0)
    # Only the final front guides (y 360-361.6, x 310-313.6) reach it (y 360.5-366.5).
    nub = square("nub", 312.0, 363.5, side=6.0)
    result = execute(scene_of((both, nub), A), "a", "straight 5")
    assert result.obstacles == (("both", "ends-on"), ("nub", "ends-on"))


def test_an_obstacle_under_the_rear_of_the_start_base_is_ignored() -> None:
    result = execute(scene_of((square("under", 300.0, 85.0),), A), "a", "straight 1")
    assert result.obstacles == ()


def test_an_obstacle_started_on_counts_when_the_template_overlaps_it_again() -> None:
    result = execute(
        scene_of((square("under", 300.0, 115.0), square("later", 300.0, 145.0)), A),
        "a",
        "straight 2",
    )
    assert result.obstacles == (("under", "moves-through"), ("later", "moves-through"))


def test_a_stationary_ship_ignores_the_obstacle_it_sits_on() -> None:
    result = execute(scene_of((square("under", 300.0, 100.0),), A), "a", "stationary")
    assert result.obstacles == ()
    assert result.template is None


def test_a_bumped_ship_counts_only_the_template_up_to_where_it_stops() -> None:
    # A large blocker at y 330 (body 290-370, guides from 288.4, at the same x as a's
    # guides) stops "a" with guides meeting: y = 288.4 - 21.6 = 266.8. Its rear guides are
    # at 246.8, so the template counts from y 120 to 246.8; the final base spans 245.2-288.4.
    obstacles = (
        square("early", 300.0, 128.0, side=10.0),  # y 123-133: on the counted template
        square("under-final", 330.0, 260.0, side=30.0),  # x 315-345: the final base only
        square("beyond", 300.0, 300.0),  # on the template past the stop: not listed
    )
    blocker = Ship("b", "large", 300.0, 330.0)
    result = execute(scene_of(obstacles, A, blocker), "a", "straight 5")
    assert result.bumped == "b"
    assert result.final[1] == pytest.approx(266.8, abs=1e-6)
    assert result.obstacles == (("early", "moves-through"), ("under-final", "ends-on"))
    assert result.counted_template is not None
    assert result.counted_template.bounds == pytest.approx((290.0, 120.0, 310.0, 246.8), abs=1e-6)
    assert result.template is not None
    assert result.template.bounds == pytest.approx((290.0, 120.0, 310.0, 320.0))


def test_a_ship_bumped_back_to_its_start_ignores_what_it_sits_on() -> None:
    blocker = Ship("b", "small", 300.0, 143.2)
    result = execute(scene_of((square("under", 300.0, 100.0),), A, blocker), "a", "straight 1")
    assert template_detail(result).progress == 0.0
    assert result.obstacles == ()


def test_moving_through_does_not_cancel_an_advanced_rotation() -> None:
    result = execute(scene_of((square("rock", 300.0, 160.0),), A), "a", "koiogran 3")
    assert result.obstacles == (("rock", "moves-through"),)
    assert result.final[2] == pytest.approx(270.0)


def test_a_bank_through_a_rock() -> None:
    # bank 1 right from (300, 100): the centre line passes (300 + 80(1 - cos 22.5°), 120 + 80 sin 22.5°).
    at = (300.0 + 80.0 * (1 - np.cos(np.radians(22.5))), 120.0 + 80.0 * np.sin(np.radians(22.5)))
    result = execute(scene_of((square("rock", *at, side=4.0),), A), "a", "bank 1 right")
    assert result.obstacles == (("rock", "moves-through"),)


def test_fleeing() -> None:
    near_edge = Ship("a", "small", 300.0, 860.0)
    assert execute(scene_of((), near_edge), "a", "straight 1").fled
    assert not execute(scene_of((), near_edge), "a", "stationary").fled
    # Exactly on the edge is inside: 814.4 + 80 + 20 = 914.4.
    assert not execute(scene_of((), Ship("a", "small", 300.0, 814.4)), "a", "straight 1").fled


def test_huge_ship_sections_and_removal() -> None:
    # A huge base (80 × 225) at (457.2, 300): by the 1e Huge Ship Rules straight 1 moves
    # the front base's rear edge (the centre line) 40 mm, to y 340, the base spanning
    # 227.5-452.5: aft half below 340, fore half above. The template (y 300-340) lies under
    # the final base; a rock under the starting base only (200-220) is not hit.
    huge = Ship("cr90", "huge", 457.2, 300.0)
    obstacles = (
        square("fore-rock", 457.2, 425.0),
        square("aft-rock", 457.2, 255.0),
        square("mid", 457.2, 340.0),
        square("start-only", 457.2, 210.0),
    )
    # The 1st-edition Huge Ship Rules remove them; 2.0 does not (tests/test_huge_ships.py).
    scene = Scene(
        get_ruleset("xwing1"), play_area("3x3ft"), phase="play", obstacles=obstacles, ships=(huge,)
    )
    result = execute(scene, "cr90", "straight 1")
    assert result.final[1] == pytest.approx(340.0)
    assert result.obstacles == (
        ("aft-rock", "ends-on"),
        ("mid", "ends-on"),
        ("fore-rock", "ends-on"),
    )
    assert template_detail(result).removed == ("aft-rock", "mid", "fore-rock")
    assert dict(template_detail(result).sections) == {
        "fore": ("mid", "fore-rock"),
        "aft": ("aft-rock", "mid"),
    }
    assert result.counted_template is None
    data = result.to_json()
    assert data["removed"] == ["aft-rock", "mid", "fore-rock"]
    mid = data["obstacles"][1]
    assert (mid["id"], mid["how"], mid["sections"]) == ("mid", "ends-on", ["fore", "aft"])
