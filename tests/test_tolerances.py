"""Lengths within 1e-6 mm are equal (rules.md), on arc lines and obstruction too."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from tabletop.app.scene.scenefile import parse_scene
from tabletop.geom.tolerance import beyond, within
from tabletop.obstacles.measuring import measure


def xwing(*ships: dict[str, Any], obstacles: tuple[dict[str, Any], ...] = ()) -> Any:
    return parse_scene({"phase": "play", "ships": list(ships), "obstacles": list(obstacles)})


@pytest.mark.parametrize("base", ["small", "medium", "large"])
@pytest.mark.parametrize(
    ("offset", "inside"),
    [(0.0, True), (-1e-7, True), (-9e-7, True), (-2e-6, False), (1e-6, True)],
)
def test_a_corner_on_the_front_arc_line_is_in_arc(base: str, offset: float, inside: bool) -> None:
    # The attacker faces +y at (400, 400); its right front-arc line leaves the centre at
    # 90 - half-angle degrees. The target (small, heading 90) lies right of that line with
    # its upper-left corner on it 200 mm out, moved `offset` mm across it (positive: into
    # the arc); the rest of the target is outside the arc.
    half = {"small": 40.62, "medium": 41.40, "large": 41.76}[base]
    theta = math.radians(90.0 - half)
    normal = (-math.sin(theta), math.cos(theta))  # into the arc
    corner = (
        400.0 + 200.0 * math.cos(theta) + offset * normal[0],
        400.0 + 200.0 * math.sin(theta) + offset * normal[1],
    )
    scene = xwing(
        {"id": "a", "base": base, "at": [400.0, 400.0], "heading": 90},
        {"id": "b", "base": "small", "at": [corner[0] + 20.0, corner[1] - 20.0], "heading": 90},
    )
    assert measure(scene, "a", "b", arc="front").in_arc is inside


@pytest.mark.parametrize(
    ("gap", "expected"),
    [
        (0.0, "attacker-chooses"),
        (1e-7, "attacker-chooses"),
        (9e-7, "attacker-chooses"),
        (2e-6, False),
    ],
)
def test_an_obstacle_touching_a_tied_band_within_the_tolerance(
    gap: float, expected: object
) -> None:
    # Two small ships face each other 160 mm apart (x 220..380); the tied segments fill
    # y 380..420. A 10 mm square's lower edge lies `gap` above y = 420.
    square = [[-5.0, -5.0], [5.0, -5.0], [5.0, 5.0], [-5.0, 5.0]]
    scene = xwing(
        {"id": "a", "base": "small", "at": [200.0, 400.0], "heading": 0},
        {"id": "b", "base": "small", "at": [400.0, 400.0], "heading": 180},
        obstacles=({"id": "box", "outline": square, "at": [300.0, 425.0 + gap]},),
    )
    m = measure(scene, "a", "b", arc="front")
    assert m.distance == pytest.approx(160.0)
    assert m.detail.obstructed == expected


def test_armada_equally_close_hull_zones_go_to_the_one_with_line_of_sight() -> None:
    # Two generic small tokens side by side, 200 mm between centres. From a's left zone,
    # b's front and left zones are both 161.5 mm away (token edges at x 880.75 and
    # 719.25); only b's left zone, which faces a, has line of sight.
    scene = parse_scene(
        {
            "ruleset": "armada",
            "phase": "play",
            "ships": [
                {"id": "a", "base": "small", "at": [900.0, 300.0], "heading": 90},
                {"id": "b", "base": "small", "at": [700.0, 300.0], "heading": 270},
            ],
        }
    )
    m = measure(scene, "a", "b", arc="left")
    assert m.distance == pytest.approx(880.75 - 719.25)
    assert (m.defending_zone, m.detail.line_of_sight) == ("left", True)
    named = measure(scene, "a", "b", arc="left", defending_zone="front")
    assert named.defending_zone == "front"
    assert named.detail.line_of_sight is False


@pytest.mark.parametrize(
    ("length", "limit", "is_beyond", "is_within"),
    [
        (200.0, 200.0, False, True),  # on the line: within, not beyond
        (200.0000005, 200.0, False, True),  # half the tolerance over: still on the line
        (199.9999995, 200.0, False, True),  # half the tolerance short
        (200.000002, 200.0, True, False),  # twice the tolerance over: beyond
        (199.0, 200.0, False, True),
    ],
)
def test_the_one_tolerance_at_and_either_side_of_a_line(
    length: float, limit: float, is_beyond: bool, is_within: bool
) -> None:
    assert beyond(length, limit) is is_beyond
    assert within(length, limit) is is_within
    assert bool(beyond(np.array([length]), limit)[0]) is is_beyond


def test_the_kernels_compile_the_same_predicates() -> None:
    pytest.importorskip("numba")
    from tabletop.obstacles import _kernels  # the numba kernels: only with the `fast` extra

    assert getattr(_kernels._beyond, "py_func") is beyond  # noqa: B009  (a numba attribute)
    assert getattr(_kernels._within, "py_func") is within  # noqa: B009
