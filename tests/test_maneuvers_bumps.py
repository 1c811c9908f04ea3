"""Bumps: exact stopping points worked out by hand, and properties of every bump.

Small base: 40 × 40; guides stick out 1.6 mm at x = ±10 … ±13.6 (rules.md). A ship moving
straight at heading 90° has its front at y + 20 (body) or y + 21.6 (guides).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from common import template_detail
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tabletop.geom.areas import play_area
from tabletop.geom.measure import geometry_distance, overlaps
from tabletop.geom.objects import Ship
from tabletop.geom.poses import to_local
from tabletop.geom.rulesets import get_ruleset
from tabletop.maneuvers import execute
from tabletop.obstacles.scene import Scene

XW = get_ruleset("xwing2")
AREA = play_area("3x3ft")


def scene_of(*ships: Ship) -> Scene:
    return Scene(XW, AREA, phase="play", ships=ships)


@pytest.mark.parametrize(
    ("blocker_x", "stop_y", "why"),
    [
        (300.0, 248.4 - 21.6, "front guides meet the blocker's rear guides: 270 - 21.6 - 21.6"),
        (330.0, 250.0 - 21.6, "front guide (x 310-313.6) meets the blocker's body (x >= 310)"),
        (335.0, 250.0 - 20.0, "bodies meet: the guides miss each other"),
        (339.9, 250.0 - 20.0, "bodies overlap by 0.1 mm sideways"),
    ],
)
def test_straight_into_a_ship_ahead_stops_touching(
    blocker_x: float, stop_y: float, why: str
) -> None:
    scene = scene_of(Ship("a", "small", 300.0, 100.0), Ship("b", "small", blocker_x, 270.0))
    result = execute(scene, "a", "straight 3")
    assert result.bumped == "b", why
    assert not result.complete
    assert result.final[0] == pytest.approx(300.0, abs=1e-9)
    assert result.final[1] == pytest.approx(stop_y, abs=1e-6), why
    assert result.final[2] == pytest.approx(90.0)
    assert result.bump_point is not None
    touch = shapely.Point(result.bump_point)
    moved = scene.ships[0].moved(*result.final).polygon(XW, guides=True)
    assert touch.distance(moved) <= 1e-6
    assert touch.distance(scene.ships[1].polygon(XW, guides=True)) <= 1e-6
    assert template_detail(result).progress == pytest.approx(stop_y - 100.0, abs=1e-6)


def test_no_bump_when_the_ships_just_miss_sideways() -> None:
    scene = scene_of(Ship("a", "small", 300.0, 100.0), Ship("b", "small", 340.0, 270.0))
    result = execute(scene, "a", "straight 3")
    assert result.complete
    assert result.bumped is None
    assert result.final[1] == pytest.approx(260.0)


def test_bump_at_another_heading() -> None:
    # The same geometry as the first case, turned to heading 0 (moving along +x).
    scene = scene_of(Ship("a", "small", 100.0, 300.0, 0.0), Ship("b", "small", 270.0, 300.0, 0.0))
    result = execute(scene, "a", "straight 3")
    assert result.bumped == "b"
    assert result.final.tolist() == pytest.approx([226.8, 300.0, 0.0], abs=1e-6)


def test_bump_into_a_corner() -> None:
    # The blocker turned 45°: its lowest corner at (300, 270 - 20√2) hits the front edge
    # between the guides.
    scene = scene_of(Ship("a", "small", 300.0, 100.0), Ship("b", "small", 300.0, 270.0, 45.0))
    result = execute(scene, "a", "straight 3")
    assert result.final[1] == pytest.approx(270.0 - 20.0 * math.sqrt(2.0) - 20.0, abs=1e-6)


def test_a_ship_touching_at_the_start_stays_put() -> None:
    scene = scene_of(Ship("a", "small", 300.0, 100.0), Ship("b", "small", 300.0, 143.2))
    result = execute(scene, "a", "straight 1")
    assert result.bumped == "b"
    assert template_detail(result).progress == 0.0
    assert result.final.tolist() == pytest.approx([300.0, 100.0, 90.0])


def test_bumped_advanced_maneuver_does_not_turn() -> None:
    scene = scene_of(Ship("a", "small", 300.0, 100.0), Ship("b", "small", 300.0, 270.0))
    result = execute(scene, "a", "koiogran 3")
    assert result.bumped == "b"
    assert result.final[2] == pytest.approx(90.0)
    free = execute(scene_of(Ship("a", "small", 300.0, 100.0)), "a", "koiogran 3")
    assert free.final[2] == pytest.approx(270.0)


def test_the_last_ship_overlapped_is_the_one_touched() -> None:
    # Two ships on the path: the move ends touching the nearer one, which it overlaps last
    # while backing up; the far one would have been overlapped at the full move.
    scene = scene_of(
        Ship("a", "small", 300.0, 100.0),
        Ship("near", "small", 300.0, 250.0),
        Ship("far", "small", 300.0, 330.0),
    )
    result = execute(scene, "a", "straight 5")
    assert result.bumped == "near"
    assert result.final[1] == pytest.approx(250.0 - 43.2, abs=1e-6)


def test_bank_bump_ends_on_the_pose_path_and_touching() -> None:
    scene = scene_of(Ship("a", "small", 300.0, 100.0), Ship("b", "small", 240.0, 215.0, 135.0))
    result = execute(scene, "a", "bank 2 left")
    assert result.bumped == "b"
    final = shapely.Polygon(scene.ships[0].moved(*result.final).polygon(XW, guides=True))
    other = scene.ships[1].polygon(XW, guides=True)
    assert not overlaps(final, other)
    assert float(geometry_distance(final, other)) <= 0.05


# -- properties -------------------------------------------------------------------

HALF = {"small": 20.0, "medium": 30.0, "large": 40.0}
BANK_R = {1: 80.0, 2: 130.0, 3: 180.0}
TURN_R = {1: 35.0, 2: 62.5, 3: 90.0}
MANEUVERS = [
    *(f"straight {s}" for s in range(1, 6)),
    *(f"koiogran {s}" for s in range(1, 6)),
    *(
        f"{b} {s} {d}"
        for b in ("bank", "turn", "segnor")
        for s in (1, 2, 3)
        for d in ("left", "right")
    ),
    *(f"reverse straight {s}" for s in (1, 2)),
    *(f"reverse bank {s} {d}" for s in (1, 2) for d in ("left", "right")),
]


def guide_path(words: str, h: float) -> shapely.LineString:
    """The rules.md guide path in the ship frame, built here independently as a fine polyline."""
    parts = words.split()
    reverse = parts[0] == "reverse"
    if reverse:
        parts = parts[1:]
    bearing, speed = parts[0], int(parts[1])
    points = [(0.0, -h), (0.0, h)]
    if bearing in ("straight", "koiogran"):
        end, direction = (0.0, h + 40.0 * speed), (0.0, 1.0)
        points.append(end)
    else:
        radius = BANK_R[speed] if bearing in ("bank", "segnor") else TURN_R[speed]
        sweep = math.radians(45.0 if bearing in ("bank", "segnor") else 90.0)
        for phi in np.linspace(0.0, sweep, 4000)[1:]:
            points.append((radius * (1 - math.cos(phi)), h + radius * math.sin(phi)))
        end, direction = points[-1], (math.sin(sweep), math.cos(sweep))
    points.append((end[0] + 3 * h * direction[0], end[1] + 3 * h * direction[1]))
    xy = np.array(points)
    if parts[-1] == "left":
        xy[:, 0] *= -1
    if reverse:
        xy[:, 1] *= -1
    return shapely.LineString(xy)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    words=st.sampled_from(MANEUVERS),
    base=st.sampled_from(["small", "medium", "large"]),
    heading=st.floats(0.0, 360.0),
    blocker_base=st.sampled_from(["small", "medium", "large"]),
    along=st.floats(0.3, 1.3),
    sideways=st.floats(-70.0, 70.0),
    blocker_heading=st.floats(0.0, 360.0),
)
def test_bumped_ship_never_overlaps_ends_touching_and_stays_on_the_path(
    words: str,
    base: str,
    heading: float,
    blocker_base: str,
    along: float,
    sideways: float,
    blocker_heading: float,
) -> None:
    start = Ship("a", base, 457.2, 457.2, heading)
    free = execute(scene_of(start), "a", words)
    # Put the blocker somewhere around the straight line from the start to the free end.
    at = start.pose[:2] + along * (free.final[:2] - start.pose[:2])
    normal = np.array([-math.sin(math.radians(heading)), math.cos(math.radians(heading))])
    bx, by = at + sideways * normal
    blocker = Ship("b", blocker_base, float(bx), float(by), blocker_heading)
    assume(not overlaps(start.polygon(XW, guides=True), blocker.polygon(XW, guides=True)))
    result = execute(scene_of(start, blocker), "a", words)
    moved = start.moved(*result.final).polygon(XW, guides=True)
    other = blocker.polygon(XW, guides=True)
    # Never overlapping.
    assert not overlaps(moved, other)
    if result.bumped is not None:
        assert not result.complete
        # Ends touching the ship it bumped.
        assert float(geometry_distance(moved, other)) <= 0.05
    # The final pose lies on the pose path: both guide points on the guide path.
    h = HALF[base]
    local = to_local(np.array([result.final[:2]]), start.pose)[0]
    turn = math.radians(result.final[2] - heading)
    forward = np.array([-math.sin(turn), math.cos(turn)])
    path = guide_path(words, h)
    for point in (local + h * forward, local - h * forward):
        assert path.distance(shapely.Point(point)) <= 0.01
