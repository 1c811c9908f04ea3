"""X-Wing arcs: the arc lines per base size, targets 1 mm either side, the bullseye strip,
and attack range measured to the in-arc (clipped) part of the defender.

Targets are built in the attacker's ship frame (+x right, +y forward) from the arc
geometry of ``rules.md`` and mapped to the world with the plain rotation below, not with
the kernel's own pose code.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from tabletop.geom.arcs import (
    XWING_ARCS,
    arc_region_outline,
    attack_range,
    parse_xwing_arc,
    targets_in_arc,
)
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.rulesets import get_ruleset

XW = get_ruleset("xwing2")

#: rules.md: (width, length) and the arc half-angle, degrees from the heading.
BASES: dict[str, tuple[float, float, float]] = {
    "small": (40.0, 40.0, 40.62),
    "medium": (60.0, 60.0, 41.40),
    "large": (80.0, 80.0, 41.76),
    "huge": (80.0, 225.0, 41.45),
    "huge-short": (80.0, 195.0, 41.45),
}
#: Attacker poses the whole construction is tried at.
POSES = ((0.0, 0.0, 90.0), (457.2, 300.0, 30.0), (250.0, 600.0, 205.0))
TARGET_SIDE = 40.0  # a small base
ALONG = 250.0  # how far along an arc line the target sits, mm


def to_world(
    points: list[tuple[float, float]], pose: tuple[float, float, float]
) -> shapely.Polygon:
    """Ship-frame points to a world polygon: x along the ship's right, y along its heading."""
    x0, y0, heading = pose
    h = math.radians(heading)
    right = (math.sin(h), -math.cos(h))
    forward = (math.cos(h), math.sin(h))
    return shapely.Polygon(
        [
            (x0 + x * right[0] + y * forward[0], y0 + x * right[1] + y * forward[1])
            for x, y in points
        ]
    )


def to_world_point(x: float, y: float, pose: tuple[float, float, float]) -> tuple[float, float]:
    x0, y0, heading = pose
    h = math.radians(heading)
    return (x0 + x * math.sin(h) + y * math.cos(h), y0 - x * math.cos(h) + y * math.sin(h))


def box_along(
    u: tuple[float, float], n: tuple[float, float], along: float, near: float
) -> list[tuple[float, float]]:
    """A target square with one side on the line ``n = near``, spanning ``near … near + 40``
    across the line through the base centre along `u`, centred `along` mm out on it."""
    return [
        (a * u[0] + b * n[0], a * u[1] + b * n[1])
        for a, b in (
            (along - 20.0, near),
            (along + 20.0, near),
            (along + 20.0, near + TARGET_SIDE),
            (along - 20.0, near + TARGET_SIDE),
        )
    ]


def lines(
    alpha: float,
) -> dict[str, tuple[tuple[float, float], tuple[float, float], set[str], set[str]]]:
    """Every arc line as (direction u, normal n, arcs on the +n side, arcs on the -n side).

    The front lines leave the base centre at ± alpha from the heading, the rear lines at
    ± alpha from the reverse heading; the beam lines are the line through the centre
    perpendicular to the heading that splits full front from full rear.
    """
    s, c = math.sin(math.radians(alpha)), math.cos(math.radians(alpha))
    return {
        "front-right": ((s, c), (-c, s), {"front", "full-front"}, {"right", "full-front"}),
        "front-left": ((-s, c), (c, s), {"front", "full-front"}, {"left", "full-front"}),
        "rear-right": ((s, -c), (-c, -s), {"rear", "full-rear"}, {"right", "full-rear"}),
        "rear-left": ((-s, -c), (c, -s), {"rear", "full-rear"}, {"left", "full-rear"}),
        "beam-right": ((1.0, 0.0), (0.0, 1.0), {"right", "full-front"}, {"right", "full-rear"}),
        "beam-left": ((-1.0, 0.0), (0.0, 1.0), {"left", "full-front"}, {"left", "full-rear"}),
    }


def arcs_hit(base: str, pose: tuple[float, float, float], target: shapely.Polygon) -> set[str]:
    targets = np.array([target])
    return {arc for arc in XWING_ARCS if bool(targets_in_arc(XW, pose, base, targets, arc)[0])}


# -- half-angles and regions ------------------------------------------------------------


@pytest.mark.parametrize("base", list(BASES))
def test_half_angle_per_base_size(base: str) -> None:
    alpha = BASES[base][2]
    assert XW.arc_half_angle(base) == alpha
    region = arc_region_outline(XW, base, "front")
    far = region[np.argmax(region[:, 1])]  # a far corner of the front wedge
    assert math.degrees(math.atan2(abs(far[0]), far[1])) == pytest.approx(alpha, abs=1e-9)
    rear = arc_region_outline(XW, base, "rear")
    far = rear[np.argmin(rear[:, 1])]
    assert math.degrees(math.atan2(abs(far[0]), -far[1])) == pytest.approx(alpha, abs=1e-9)


@pytest.mark.parametrize("base", list(BASES))
@pytest.mark.parametrize("arc", [a for a in XWING_ARCS if a != "bullseye"])
def test_arc_regions_exclude_the_attackers_base(base: str, arc: str) -> None:
    width, length, _ = BASES[base]
    region = shapely.Polygon(arc_region_outline(XW, base, arc))
    own = shapely.box(-width / 2, -length / 2, width / 2, length / 2)
    assert region.is_valid
    assert shapely.intersection(region, own).area == pytest.approx(0.0, abs=1e-6)


# -- a target 1 mm either side of every arc line, and partly in ------------------------


@pytest.mark.parametrize("base", list(BASES))
@pytest.mark.parametrize(
    "line", ["front-right", "front-left", "rear-right", "rear-left", "beam-right", "beam-left"]
)
@pytest.mark.parametrize("side", [1.0, -1.0])
@pytest.mark.parametrize("placement", ["wholly-1mm-clear", "partly-1mm-across"])
@pytest.mark.parametrize("pose", POSES)
def test_target_either_side_of_an_arc_line(
    base: str, line: str, side: float, placement: str, pose: tuple[float, float, float]
) -> None:
    u, n, plus_arcs, minus_arcs = lines(BASES[base][2])[line]
    normal = (side * n[0], side * n[1])
    mine, other = (plus_arcs, minus_arcs) if side > 0 else (minus_arcs, plus_arcs)
    near = 1.0 if placement == "wholly-1mm-clear" else -1.0
    target = to_world(box_along(u, normal, ALONG, near), pose)
    # Wholly on one side, 1 mm clear: in that side's arcs, 1 mm outside the other side's.
    # Across the line by 1 mm: in the arcs of both sides.
    expected = mine if near > 0 else mine | other
    assert arcs_hit(base, pose, target) == expected
    for arc in XWING_ARCS:
        assert attack_range(XW, pose, base, target, arc).in_arc is (arc in expected)


@pytest.mark.parametrize("base", list(BASES))
def test_target_dead_ahead_and_dead_astern(base: str) -> None:
    length = BASES[base][1]
    pose = (100.0, 100.0, 90.0)
    ahead = to_world(
        [
            (-20.0, length / 2 + 100),
            (20.0, length / 2 + 100),
            (20.0, length / 2 + 140),
            (-20.0, length / 2 + 140),
        ],
        pose,
    )
    astern = to_world(
        [
            (-20.0, -length / 2 - 140),
            (20.0, -length / 2 - 140),
            (20.0, -length / 2 - 100),
            (-20.0, -length / 2 - 100),
        ],
        pose,
    )
    assert arcs_hit(base, pose, ahead) == {"front", "full-front", "bullseye"}
    assert arcs_hit(base, pose, astern) == {"rear", "full-rear"}
    shot = attack_range(XW, pose, base, ahead, "front")
    assert shot.distance == pytest.approx(100.0, abs=1e-9)


# -- the bullseye strip -------------------------------------------------------------------


@pytest.mark.parametrize("base", list(BASES))
def test_bullseye_strip_geometry(base: str) -> None:
    _, length, _ = BASES[base]
    strip = shapely.Polygon(arc_region_outline(XW, base, "bullseye"))
    assert strip.bounds == pytest.approx((-7.5, length / 2, 7.5, length / 2 + 300.0), abs=1e-9)
    assert strip.area == pytest.approx(15.0 * 300.0, abs=1e-6)


@pytest.mark.parametrize("base", list(BASES))
@pytest.mark.parametrize("pose", POSES)
@pytest.mark.parametrize(
    ("x_near", "y_near", "expected"),
    [
        # a small base beside the strip, its near side 1 mm inside / outside x = ±7.5
        (6.5, 150.0, True),
        (8.5, 150.0, False),
        (-6.5, 150.0, True),
        (-8.5, 150.0, False),
        # a small base on the centre line, its near side 1 mm short of / beyond the far end
        (0.0, 299.0, True),
        (0.0, 301.0, False),
    ],
)
def test_bullseye_edges(
    base: str, pose: tuple[float, float, float], x_near: float, y_near: float, expected: bool
) -> None:
    _, length, _ = BASES[base]
    front = length / 2
    if x_near == 0.0:  # centred on the heading, near side y_near beyond the front edge
        xs = (-20.0, 20.0)
        ys = (front + y_near, front + y_near + 40.0)
    else:  # beside the centre line, near side at x_near, centred 150 beyond the front edge
        xs = (x_near, x_near + 40.0) if x_near > 0 else (x_near - 40.0, x_near)
        ys = (front + y_near - 20.0, front + y_near + 20.0)
    target = to_world([(xs[0], ys[0]), (xs[1], ys[0]), (xs[1], ys[1]), (xs[0], ys[1])], pose)
    assert ("bullseye" in arcs_hit(base, pose, target)) is expected
    assert "front" in arcs_hit(base, pose, target)


@pytest.mark.parametrize("base", list(BASES))
def test_bullseye_small_probe_wholly_inside(base: str) -> None:
    front = BASES[base][1] / 2
    pose = (300.0, 200.0, 123.0)
    probe = to_world([(1.5, front + 1), (6.5, front + 1), (6.5, front + 6), (1.5, front + 6)], pose)
    assert arcs_hit(base, pose, probe) == {"front", "full-front", "bullseye"}
    shot = attack_range(XW, pose, base, probe, "bullseye")
    assert shot.in_arc
    assert shot.distance == pytest.approx(1.0, abs=1e-9)


def test_bullseye_width_is_a_constant() -> None:
    wide = get_ruleset("xwing2", {"xwing_bullseye_width": 20.0})
    strip = shapely.Polygon(arc_region_outline(wide, "small", "bullseye"))
    assert strip.bounds == pytest.approx((-10.0, 20.0, 10.0, 320.0), abs=1e-9)


# -- attack range to the in-arc part --------------------------------------------------


def _rigid(
    pose: tuple[float, float, float], spin: float, shift: tuple[float, float]
) -> tuple[float, float, float]:
    t = math.radians(spin)
    x, y, heading = pose
    return (
        x * math.cos(t) - y * math.sin(t) + shift[0],
        x * math.sin(t) + y * math.cos(t) + shift[1],
        heading + spin,
    )


@pytest.mark.parametrize(
    ("spin", "shift"), [(0.0, (0.0, 0.0)), (30.0, (400.0, 250.0)), (-135.0, (700.0, 800.0))]
)
def test_attack_range_to_the_clipped_part_front_arc(
    spin: float, shift: tuple[float, float]
) -> None:
    # Attacker: small base at the origin heading +y, so ship frame = world frame. The
    # defender, a small base with corners (95, 80) … (135, 120), has its closest corner
    # (95, 80) outside the front arc: the right arc line x = y·tan(40.62°) passes it at
    # y = 95 / tan α ≈ 110.75. The in-arc part is the triangle (95, y1), (95, 120),
    # (120·tan α, 120); its closest point to the attacker base is (95, y1), nearest the
    # base corner (20, 20).
    tan_a = math.tan(math.radians(40.62))
    y1 = 95.0 / tan_a
    clipped = math.hypot(95.0 - 20.0, y1 - 20.0)  # ≈ 117.73: range 2
    plain = math.hypot(95.0 - 20.0, 80.0 - 20.0)  # ≈ 96.05: range 1
    pose = _rigid((0.0, 0.0, 90.0), spin, shift)
    target = to_world([(95.0, 80.0), (135.0, 80.0), (135.0, 120.0), (95.0, 120.0)], pose)
    shot = attack_range(XW, pose, "small", target, "front")
    assert shot.in_arc
    assert shot.distance == pytest.approx(clipped, abs=1e-9)
    assert shot.points[0] == pytest.approx(to_world_point(20.0, 20.0, pose), abs=1e-9)
    assert shot.points[1] == pytest.approx(to_world_point(95.0, y1, pose), abs=1e-9)
    assert shot.target_part.area == pytest.approx(
        0.5 * (120.0 - y1) * (120.0 * tan_a - 95.0), abs=1e-6
    )
    # From the right arc the closest corner itself is in arc: the plain distance.
    right = attack_range(XW, pose, "small", target, "right")
    assert right.in_arc
    assert right.distance == pytest.approx(plain, abs=1e-9)
    # Out of arc (rear): in_arc false and the plain distance.
    rear = attack_range(XW, pose, "small", target, "rear")
    assert not rear.in_arc
    assert rear.distance == pytest.approx(plain, abs=1e-9)
    assert rear.target_part.is_empty


@pytest.mark.parametrize(("spin", "shift"), [(0.0, (0.0, 0.0)), (45.0, (400.0, 250.0))])
def test_attack_range_to_the_clipped_part_bullseye(spin: float, shift: tuple[float, float]) -> None:
    # A small base turned 45° (a diamond of half-diagonal 20√2) centred at (30, 150) in the
    # attacker's frame: its lowest corner (30, 150 − 20√2) is outside the bullseye strip.
    # Its lower-left side x + y = 180 − 20√2 enters the strip at x = 7.5, the lowest
    # in-strip point, straight above the attacker's front edge (y = 20).
    h = 20.0 * math.sqrt(2.0)
    y_in = 180.0 - h - 7.5
    pose = _rigid((0.0, 0.0, 90.0), spin, shift)
    target = to_world(
        [(30.0, 150.0 - h), (30.0 + h, 150.0), (30.0, 150.0 + h), (30.0 - h, 150.0)], pose
    )
    shot = attack_range(XW, pose, "small", target, "bullseye")
    assert shot.in_arc
    assert shot.distance == pytest.approx(y_in - 20.0, abs=1e-9)  # ≈ 124.22
    assert shot.points[1] == pytest.approx(to_world_point(7.5, y_in, pose), abs=1e-9)
    front = attack_range(XW, pose, "small", target, "front")
    assert front.distance == pytest.approx(math.hypot(10.0, 130.0 - h), abs=1e-9)  # ≈ 102.21


def test_unknown_arc_names_are_rejected() -> None:
    assert parse_xwing_arc("full-rear") == "full-rear"
    with pytest.raises(InvalidInputError, match="expected one of: front, rear"):
        parse_xwing_arc("side")
    with pytest.raises(InvalidInputError, match="unknown arc"):
        arc_region_outline(XW, "small", "turret")


def test_arc_region_outline_is_read_only() -> None:
    # The outline is cached: writing into one answer must not change the next one.
    outline = arc_region_outline(XW, "small", "bullseye")
    with pytest.raises(ValueError, match="read-only"):
        outline[:] = 0.0
    strip = shapely.Polygon(arc_region_outline(XW, "small", "bullseye"))
    assert strip.bounds == pytest.approx((-7.5, 20.0, 7.5, 320.0), abs=1e-9)
