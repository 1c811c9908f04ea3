"""Shapes and poses: base footprints, guides, frozen value types, frame round trips."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pytest
import shapely
from agreement import AGREEMENT_MM
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from tabletop.geom.arcs import AttackRange, attack_range
from tabletop.geom.areas import PlayArea, play_area
from tabletop.geom.hulls import ArmadaAttack, HullArcs, armada_attack_range, hull_arcs
from tabletop.geom.measure import BandReport, band_report
from tabletop.geom.objects import Ship
from tabletop.geom.poses import as_poses, compose, to_local, to_world
from tabletop.geom.rulesets import RULESETS, Ruleset, get_ruleset
from tabletop.geom.shapes import (
    DISK_SEGMENTS,
    Footprint,
    base_footprint,
    place_outline,
    rectangle,
    world_polygon,
    world_polygons,
)

XW = get_ruleset("xwing2")
AR = get_ruleset("armada")
XWING_SIZES = {
    "small": (40.0, 40.0),
    "medium": (60.0, 60.0),
    "large": (80.0, 80.0),
    "huge": (80.0, 225.0),
    "huge-short": (80.0, 195.0),
}
ARMADA_SIZES = {
    "small": (43.0, 71.0),
    "medium": (63.0, 102.0),
    "large": (77.5, 129.0),
    "huge": (77.5, 351.4),
}


def signed_area(outline: np.ndarray) -> float:
    x, y = outline[:, 0], outline[:, 1]
    return float(0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


# -- bases and guides -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset_name", "base"),
    [*(("xwing2", b) for b in XWING_SIZES), *(("armada", b) for b in ARMADA_SIZES)],
)
def test_base_footprints_are_the_rules_rectangles(ruleset_name: str, base: str) -> None:
    sizes = XWING_SIZES if ruleset_name == "xwing2" else ARMADA_SIZES
    width, length = sizes[base]
    footprint = base_footprint(get_ruleset(ruleset_name), base)
    assert not footprint.is_disk
    assert footprint.outline.tolist() == [
        [-width / 2, -length / 2],
        [width / 2, -length / 2],
        [width / 2, length / 2],
        [-width / 2, length / 2],
    ]
    assert signed_area(footprint.outline) == pytest.approx(width * length)


@pytest.mark.parametrize("base", list(XWING_SIZES))
def test_guides_geometry(base: str) -> None:
    # rules.md: 2 front + 2 rear guides, 3.6 wide, inner edges at x = ±10, 1.6 deep.
    width, length = XWING_SIZES[base]
    footprint = base_footprint(XW, base, guides=True)
    outline = footprint.outline
    assert signed_area(outline) > 0.0  # counter-clockwise
    assert len(outline) == 4 + 4 * 4  # each guide adds four corners to the outline
    polygon = footprint.polygon()
    body = shapely.box(-width / 2, -length / 2, width / 2, length / 2)
    guides = [
        shapely.box(x0, y0, x0 + 3.6, y0 + 1.6)
        for x0 in (10.0, -13.6)
        for y0 in (length / 2, -length / 2 - 1.6)
    ]
    expected = shapely.union_all([body, *guides])
    assert shapely.symmetric_difference(polygon, expected).area == pytest.approx(0.0, abs=1e-9)
    assert polygon.area == pytest.approx(width * length + 4 * 3.6 * 1.6, abs=1e-9)
    nubs = shapely.difference(polygon, body)
    parts = sorted(tuple(round(v, 9) for v in g.bounds) for g in shapely.get_parts(nubs))
    assert parts == sorted(
        [
            (-13.6, length / 2, -10.0, length / 2 + 1.6),
            (10.0, length / 2, 13.6, length / 2 + 1.6),
            (-13.6, -length / 2 - 1.6, -10.0, -length / 2),
            (10.0, -length / 2 - 1.6, 13.6, -length / 2),
        ]
    )
    assert polygon.bounds == pytest.approx(
        (-width / 2, -length / 2 - 1.6, width / 2, length / 2 + 1.6)
    )


def test_small_base_with_guides_area_by_hand() -> None:
    # 40 × 40 + 4 × 3.6 × 1.6 = 1623.04
    assert base_footprint(XW, "small", guides=True).polygon().area == pytest.approx(1623.04)


@pytest.mark.parametrize("base", list(ARMADA_SIZES))
def test_armada_bases_have_no_guides(base: str) -> None:
    plain = base_footprint(AR, base)
    with_guides = base_footprint(AR, base, guides=True)
    assert with_guides.outline.tolist() == plain.outline.tolist()


def test_squadron_is_an_exact_disk() -> None:
    footprint = base_footprint(AR, "squadron")
    assert footprint.is_disk
    assert footprint.radius == 15.5
    assert len(footprint.outline) == DISK_SEGMENTS
    assert np.hypot(footprint.outline[:, 0], footprint.outline[:, 1]) == pytest.approx(15.5)
    assert signed_area(footprint.outline) > 0.0
    wide = get_ruleset("armada", {"armada_squadron_diameter": 40.0})
    assert base_footprint(wide, "squadron").radius == 20.0


def test_unknown_base_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown base 'tiny' for xwing2; expected one of: small"):
        base_footprint(XW, "tiny")
    with pytest.raises(ValueError, match="unknown base 'squadron'"):
        base_footprint(XW, "squadron")


def test_rectangle_corners() -> None:
    assert rectangle(2.0, 4.0, (10.0, 20.0)).tolist() == [
        [9.0, 18.0],
        [11.0, 18.0],
        [11.0, 22.0],
        [9.0, 22.0],
    ]


# -- frozen value types ---------------------------------------------------------------


def _value_objects() -> list[tuple[str, Any, str]]:
    small = base_footprint(XW, "small")
    target = world_polygon(small.outline, [0.0, 200.0, 0.0])
    arcs, _ = hull_arcs(AR, "small", "cr90")
    shot = attack_range(XW, [0.0, 0.0, 90.0], "small", target, "front")
    armada_shot = armada_attack_range(
        AR, (0.0, 0.0, 90.0), "small", arcs, "front", (0.0, 200.0, 0.0), "squadron", None
    )
    return [
        ("Ruleset", XW, "range_zero"),
        ("Ruleset.contested_within", AR, "contested_within"),
        ("Footprint", small, "radius"),
        ("Footprint.outline", small, "outline"),
        ("Ship", Ship("a", "small", 1.0, 2.0), "x"),
        ("Ship.hull", Ship("a", "small", 1.0, 2.0), "hull"),
        ("PlayArea", play_area("3x3ft"), "width"),
        ("HullArcs", arcs, "front_half_angle"),
        ("BandReport", band_report(150.0, (100.0, 200.0)), "band"),
        ("AttackRange", shot, "distance"),
        ("ArmadaAttack", armada_shot, "in_arc"),
    ]


@pytest.mark.parametrize(
    ("name", "value", "field"), _value_objects(), ids=[v[0] for v in _value_objects()]
)
def test_value_types_are_frozen(name: str, value: Any, field: str) -> None:
    assert dataclasses.is_dataclass(value)
    before = getattr(value, field)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, field, 0.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(value, field)
    assert getattr(value, field) is before


@pytest.mark.parametrize(
    "cls", [Ruleset, Footprint, Ship, PlayArea, HullArcs, BandReport, AttackRange, ArmadaAttack]
)
def test_value_classes_are_frozen_dataclasses(cls: type) -> None:
    params = getattr(cls, "__dataclass_params__")  # noqa: B009
    assert params.frozen


def test_ruleset_tables_are_read_only() -> None:
    with pytest.raises(TypeError):
        XW.base_sizes["small"] = (1.0, 1.0)  # type: ignore[index]
    with pytest.raises(TypeError):
        XW.xwing_arc_half_angles["small"] = 0.0  # type: ignore[index]
    with pytest.raises(TypeError):
        RULESETS["chess"] = XW  # type: ignore[index]


def test_overrides_leave_the_shared_ruleset_alone() -> None:
    changed = get_ruleset("xwing2", {"xwing_range_bands": [90, 190, 290, 390, 490]})
    assert changed.xwing_range_bands == (90.0, 190.0, 290.0, 390.0, 490.0)
    assert get_ruleset("xwing2").xwing_range_bands == (100.0, 200.0, 300.0, 400.0, 500.0)
    assert RULESETS["xwing2"] is get_ruleset("xwing2")


def test_ship_moved_returns_a_new_ship() -> None:
    ship = Ship("a", "small", 1.0, 2.0, 90.0)
    other = ship.moved(5.0, 6.0, 370.0)
    assert (ship.x, ship.y, ship.heading) == (1.0, 2.0, 90.0)
    assert (other.x, other.y, other.heading) == (5.0, 6.0, 10.0)
    assert other.pose.tolist() == [5.0, 6.0, 10.0]


# -- frames ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("local", "pose", "expected"),
    [
        # Facing +y (heading 90): forward is +y, the ship's right is +x.
        ((0.0, 20.0), (100.0, 50.0, 90.0), (100.0, 70.0)),
        ((10.0, 0.0), (100.0, 50.0, 90.0), (110.0, 50.0)),
        # Facing +x (heading 0): forward is +x, the right is -y.
        ((0.0, 20.0), (0.0, 0.0, 0.0), (20.0, 0.0)),
        ((10.0, 0.0), (0.0, 0.0, 0.0), (0.0, -10.0)),
        # Facing -x (heading 180): the right is +y.
        ((10.0, 5.0), (1.0, 1.0, 180.0), (-4.0, 11.0)),
        # Heading 30: forward (cos 30, sin 30), right (sin 30, -cos 30).
        (
            (2.0, 4.0),
            (0.0, 0.0, 30.0),
            (2 * 0.5 + 4 * math.sqrt(3) / 2, -2 * math.sqrt(3) / 2 + 4 * 0.5),
        ),
    ],
)
def test_to_world_by_hand(
    local: tuple[float, float], pose: tuple[float, float, float], expected: tuple[float, float]
) -> None:
    world = to_world(np.array([local]), np.array(pose))
    assert world.shape == (1, 2)
    assert world[0] == pytest.approx(expected, abs=1e-12)
    assert to_local(world, np.array(pose))[0] == pytest.approx(local, abs=1e-12)


finite = st.floats(min_value=-1e5, max_value=1e5, allow_nan=False, allow_infinity=False)
angle = st.floats(min_value=-720.0, max_value=720.0, allow_nan=False, allow_infinity=False)
point_sets = hnp.arrays(np.float64, st.tuples(st.integers(1, 6), st.just(2)), elements=finite)


@given(point_sets, st.tuples(finite, finite, angle))
def test_to_world_to_local_round_trip(points: np.ndarray, pose: tuple[float, float, float]) -> None:
    world = to_world(points, np.array(pose))
    assert world.shape == points.shape
    assert to_local(world, np.array(pose)) == pytest.approx(points, abs=1e-6)
    assert to_world(to_local(points, np.array(pose)), np.array(pose)) == pytest.approx(
        points, abs=1e-6
    )
    # A rigid motion: distances between points are kept.
    if len(points) > 1:
        assert np.linalg.norm(world[1] - world[0]) == pytest.approx(
            np.linalg.norm(points[1] - points[0]), abs=1e-6
        )


@given(
    point_sets, hnp.arrays(np.float64, st.tuples(st.integers(1, 4), st.just(3)), elements=finite)
)
def test_to_world_broadcasts_over_poses(points: np.ndarray, poses: np.ndarray) -> None:
    world = to_world(points, poses)
    assert world.shape == (len(poses), *points.shape)
    for i, pose in enumerate(poses):
        # Many poses at once and one alone: within the agreement (tests/agreement.py).
        assert world[i] == pytest.approx(to_world(points, pose), abs=AGREEMENT_MM)


@pytest.mark.parametrize(
    ("pose", "move", "expected"),
    [
        ((0.0, 0.0, 90.0), (0.0, 100.0, -45.0), (0.0, 100.0, 45.0)),
        ((10.0, 10.0, 0.0), (5.0, 0.0, 90.0), (10.0, 5.0, 90.0)),  # 5 to the right of +x is -y
        ((0.0, 0.0, 350.0), (0.0, 0.0, 20.0), (0.0, 0.0, 10.0)),
        ((1.0, 2.0, 180.0), (0.0, 3.0, 0.0), (-2.0, 2.0, 180.0)),
    ],
)
def test_compose_by_hand(
    pose: tuple[float, float, float],
    move: tuple[float, float, float],
    expected: tuple[float, float, float],
) -> None:
    assert compose(pose, move) == pytest.approx(np.array(expected), abs=1e-12)


def test_as_poses_checks_the_last_axis() -> None:
    assert as_poses([1, 2, 3]).dtype == np.float64
    with pytest.raises(ValueError, match="last axis of length 3"):
        as_poses([1.0, 2.0])


def test_place_outline_mirrors_then_rotates_and_stays_counter_clockwise() -> None:
    triangle = [[0.0, 0.0], [2.0, 0.0], [0.0, 1.0]]
    # Mirrored: (0, 0), (-2, 0), (0, 1), order restored: (0, 1), (-2, 0), (0, 0); turned
    # 90° counter-clockwise ((x, y) -> (-y, x)): (-1, 0), (0, -2), (0, 0); moved to (5, 5).
    placed = place_outline(triangle, [5.0, 5.0, 90.0, 1.0])
    assert placed == pytest.approx(np.array([[4.0, 5.0], [5.0, 3.0], [5.0, 5.0]]), abs=1e-12)
    assert signed_area(placed) > 0.0
    plain = place_outline(triangle, [0.0, 0.0, 180.0, 0.0])
    assert plain == pytest.approx(np.array([[0.0, 0.0], [-2.0, 0.0], [0.0, -1.0]]), abs=1e-12)


def test_world_polygons_one_per_pose() -> None:
    outline = base_footprint(XW, "small").outline
    polygons = world_polygons(outline, [[0.0, 0.0, 90.0], [100.0, 0.0, 45.0]])
    assert polygons.shape == (2,)
    assert polygons[0].bounds == pytest.approx((-20.0, -20.0, 20.0, 20.0))
    half_diagonal = 20.0 * math.sqrt(2.0)
    assert polygons[1].bounds == pytest.approx(
        (100.0 - half_diagonal, -half_diagonal, 100.0 + half_diagonal, half_diagonal)
    )
    assert world_polygon(outline, [0.0, 0.0, 90.0]).equals(polygons[0])


def test_play_area_presets() -> None:
    assert play_area("3x3ft") == PlayArea(914.4, 914.4, "3x3ft")
    assert play_area({"width": 1000, "height": 500}).polygon().area == pytest.approx(500000.0)
    assert play_area("6x3ft").setup_area(armada=True).bounds == (304.8, 0.0, 1524.0, 914.4)
