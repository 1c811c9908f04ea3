"""The arc shot's shortcuts against the general path they stand in for.

Three filters decide without the general geometry: a target wholly beyond a line
bounding the arc is out of it (no region built), two bases far from parallel have no
tied segments, and an obstacle whose reach disk is off the shot's segment does not
obstruct it. Each is tried at its line, 1e-7 mm inside and outside, and against the
general path (the filter switched off) to the last bit: where a filter decides, the
distance is measured by the general path's own call on the same target. Shots ranged
together (:func:`attack_ranges`, GEOS over all shots at once and its own arithmetic) are
each ranged as alone: the same verdict and target part, every length and point within
``AGREEMENT_MM`` (``tests/agreement.py``).

Targets are built in the attacker's ship frame (+x right, +y forward) from the arc
geometry of ``rules.md`` and mapped to the world with the plain rotation below.
"""

from __future__ import annotations

import json
import math
import random

import pytest
import shapely
from agreement import agree, arrays_agree, geometries_agree
from hypothesis import given
from hypothesis import strategies as st

import tabletop.geom.arcs
import tabletop.obstacles.measuring
from tabletop.geom.arcs import XWING_ARCS, AttackRange, Shot, attack_range, attack_ranges
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.rulesets import get_ruleset
from tabletop.geom.shapes import base_footprint, world_polygon
from tabletop.obstacles.measuring import _disk_off_segment, edges_may_be_parallel, measure
from tabletop.obstacles.obstruction import _edge_list, _edges, tied_bands
from tabletop.obstacles.sceneformat import scene_from_dict

XW = get_ruleset("xwing2")
#: rules.md: the arc half-angle per base, degrees from the heading; and base lengths.
HALF_ANGLES = {"small": 40.62, "medium": 41.40, "large": 41.76, "huge": 41.45}
LENGTHS = {"small": 40.0, "medium": 60.0, "large": 80.0, "huge": 225.0}
POSES = ((0.0, 0.0, 90.0), (457.2, 300.0, 30.0), (250.0, 600.0, 205.0))
#: The filter's reach: the grown region's (10 tolerances of 1e-6 mm) and its 1e-3 mm.
FILTER_MM = 10e-6 + 1e-3


def world(p: tuple[float, float], pose: tuple[float, float, float]) -> tuple[float, float]:
    """Ship-frame point to the world: x along the ship's right, y along its heading."""
    x, y, heading = pose
    t = math.radians(heading)
    return (
        x + p[0] * math.sin(t) + p[1] * math.cos(t),
        y - p[0] * math.cos(t) + p[1] * math.sin(t),
    )


def bounding_lines(arc: str, base: str) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Return (a point on the line, its outward unit normal) per line bounding `arc`."""
    a = math.radians(HALF_ANGLES[base])
    sa, ca = math.sin(a), math.cos(a)
    length = LENGTHS[base]
    if arc in ("front", "rear", "left", "right"):
        rays = {
            "front": [((sa, ca), (ca, -sa)), ((-sa, ca), (-ca, -sa))],
            "rear": [((sa, -ca), (ca, sa)), ((-sa, -ca), (-ca, sa))],
            "right": [((sa, ca), (-ca, sa)), ((sa, -ca), (-ca, -sa))],
            "left": [((-sa, ca), (ca, sa)), ((-sa, -ca), (ca, -sa))],
        }[arc]
        return [((250.0 * d[0], 250.0 * d[1]), n) for d, n in rays]
    if arc == "full-front":
        return [((150.0, 0.0), (0.0, -1.0))]
    if arc == "full-rear":
        return [((-150.0, 0.0), (0.0, 1.0))]
    # bullseye: 15 mm wide, from the front edge to range 3 (300 mm) beyond it
    near = length / 2.0
    return [
        ((7.5, near + 100.0), (1.0, 0.0)),
        ((-7.5, near + 200.0), (-1.0, 0.0)),
        ((0.0, near + 300.0), (0.0, 1.0)),
    ]


def triangle(
    point: tuple[float, float], normal: tuple[float, float], off: float, pose: tuple[float, ...]
) -> shapely.Polygon:
    """A target with one vertex `off` mm beyond the line (outward), the rest 5 mm farther."""
    nx, ny = normal
    tx, ty = -ny, nx
    apex = (point[0] + off * nx, point[1] + off * ny)
    far = (apex[0] + 5.0 * nx, apex[1] + 5.0 * ny)
    corners = [apex, (far[0] + 3.0 * tx, far[1] + 3.0 * ty), (far[0] - 3.0 * tx, far[1] - 3.0 * ty)]
    return shapely.Polygon([world(c, pose) for c in corners])  # type: ignore[arg-type]


def general_range(monkeypatch: pytest.MonkeyPatch, *args: object) -> tabletop.geom.arcs.AttackRange:
    with monkeypatch.context() as m:
        m.setattr(tabletop.geom.arcs, "_clearly_outside", lambda *a: False)
        return attack_range(*args)  # type: ignore[arg-type]


OFFSETS = (-1e-7, 0.0, 1e-7, 1e-6 + 1e-7, FILTER_MM - 1e-7, FILTER_MM + 1e-7, 0.5, 20.0)


@pytest.mark.parametrize("arc", XWING_ARCS)
@pytest.mark.parametrize("base", sorted(HALF_ANGLES))
def test_outside_filter_at_each_arc_line(
    monkeypatch: pytest.MonkeyPatch, arc: str, base: str
) -> None:
    for pose in POSES:
        for point, normal in bounding_lines(arc, base):
            for off in OFFSETS:
                target = triangle(point, normal, off, pose)
                decided = tabletop.geom.arcs._clearly_outside(XW, pose, base, target, arc)
                # Beyond the filter's reach it decides; within it (and inside) it leaves
                # the question to the general path.
                assert decided == (off > FILTER_MM), (pose, point, off)
                fast = attack_range(XW, pose, base, target, arc)
                slow = general_range(monkeypatch, XW, pose, base, target, arc)
                # On the line, or within the length tolerance of it, is in the arc.
                assert fast.in_arc == slow.in_arc == (off <= 1e-6), (pose, point, off)
                assert fast.distance == slow.distance
                assert fast.points.tolist() == slow.points.tolist()


@given(
    heading=st.floats(0.0, 360.0, exclude_max=True),
    x=st.floats(-600.0, 600.0),
    y=st.floats(-600.0, 600.0),
    turn=st.floats(0.0, 360.0, exclude_max=True),
    arc=st.sampled_from(XWING_ARCS),
    base=st.sampled_from(sorted(HALF_ANGLES)),
)
def test_outside_filter_agrees_with_the_general_path(
    heading: float, x: float, y: float, turn: float, arc: str, base: str
) -> None:
    pose = (300.0, 400.0, heading)
    target = world_polygon(base_footprint(XW, "small").outline, [300.0 + x, 400.0 + y, turn])
    fast = attack_range(XW, pose, base, target, arc)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(tabletop.geom.arcs, "_clearly_outside", lambda *a: False)
        slow = attack_range(XW, pose, base, target, arc)
    assert fast.in_arc == slow.in_arc
    assert fast.distance == slow.distance
    assert fast.points.tolist() == slow.points.tolist()


@pytest.mark.parametrize(
    ("difference", "may"),
    [
        (0.0, True),
        (0.02, True),
        (0.02 + 1e-7, False),
        (45.0, False),
        (89.98 - 1e-7, False),
        (89.98, True),
        (90.0, True),
        (-0.02, True),
        (-0.02 - 1e-7, False),
        (180.02 - 1e-7, True),
        (270.02 + 1e-7, False),
    ],
)
def test_parallel_filter_at_twice_the_tie_angle(difference: float, may: bool) -> None:
    # Exactly on the line only from heading 0 (elsewhere the sum rounds either way).
    on_line = abs(abs(difference) % 90.0 - 0.02) < 1e-9 or abs(difference % 90.0 - 89.98) < 1e-9
    for heading in (0.0,) if on_line else (0.0, 37.5, 359.99):
        assert edges_may_be_parallel(heading + difference, heading) == may


@given(
    a=st.floats(0.0, 360.0, exclude_max=True),
    b=st.floats(0.0, 360.0, exclude_max=True),
    x=st.floats(-300.0, 300.0),
    y=st.floats(60.0, 300.0),
    base=st.sampled_from(sorted(HALF_ANGLES)),
)
def test_far_from_parallel_bases_have_no_tied_segments(
    a: float, b: float, x: float, y: float, base: str
) -> None:
    attacker = world_polygon(base_footprint(XW, base).outline, [0.0, -200.0, a])
    defender = world_polygon(base_footprint(XW, "small").outline, [x, y + 100.0, b])
    distance = shapely.distance(attacker, defender)
    if not edges_may_be_parallel(a, b):
        assert tied_bands(attacker, defender, distance) == []


def test_near_parallel_bases_keep_their_tied_segments() -> None:
    # Two small bases face to face, headings 0.005 degrees apart: a tie the filter keeps.
    attacker = world_polygon(base_footprint(XW, "small").outline, [0.0, 0.0, 90.0])
    defender = world_polygon(base_footprint(XW, "small").outline, [0.0, 140.0, 90.005])
    assert edges_may_be_parallel(90.0, 90.005)
    assert tied_bands(attacker, defender, shapely.distance(attacker, defender))


@pytest.mark.parametrize(
    ("centre", "off"),
    [
        ((50.0, 10.0), True),  # 10 mm off the middle of the segment (0,0)-(100,0)
        ((50.0, 5.0 + 1e-7), True),
        ((50.0, 5.0 - 1e-7), False),
        ((50.0, -5.0 - 1e-7), True),
        ((-3.0, 4.0 + 1e-7), True),  # beyond an end: 5 mm from (0, 0) at (3, 4)
        ((-3.0, 4.0 - 1e-7), False),
        ((103.0, -4.0 + 1e-7), False),
    ],
)
def test_disk_off_segment_at_its_radius(centre: tuple[float, float], off: bool) -> None:
    assert _disk_off_segment(centre[0], centre[1], 5.0, [0.0, 100.0], [0.0, 0.0]) == off


def test_disk_off_a_point_segment() -> None:
    assert _disk_off_segment(3.0, 4.0 + 1e-7, 5.0, [0.0, 0.0], [0.0, 0.0])
    assert not _disk_off_segment(3.0, 4.0 - 1e-7, 5.0, [0.0, 0.0], [0.0, 0.0])


@pytest.mark.parametrize(
    "geometry",
    [
        shapely.box(0.0, 0.0, 2.0, 1.0),
        shapely.box(0.0, 0.0, 4.0, 4.0).difference(shapely.box(1.0, 1.0, 2.0, 2.0)),
        shapely.MultiPolygon([shapely.box(0, 0, 1, 1), shapely.box(3, 3, 4, 5)]),
        shapely.LineString([(0, 0), (1, 2), (3, 3)]),
        shapely.Polygon(),
    ],
)
def test_edge_list_is_the_edges(geometry: shapely.Geometry) -> None:
    assert _edge_list(geometry) == _edges(geometry).tolist()


def _scene(rng: random.Random) -> dict[str, object]:
    bases = ["small", "medium", "large", "huge", "huge-short"]
    ships = []
    for i in range(4):
        heading = rng.choice([0.0, 90.0, 180.0, 45.0, rng.uniform(0.0, 360.0)])
        ships.append(
            {
                "id": f"s{i}",
                "base": rng.choice(bases),
                "at": [rng.uniform(100.0, 800.0), rng.uniform(100.0, 800.0)],
                "heading": heading,
                "player": 1 + i % 2,
            }
        )
    obstacles = [
        {
            "id": f"o{j}",
            "token": f"coreasteroid{j}",
            "at": [rng.uniform(100.0, 800.0), rng.uniform(100.0, 800.0)],
            "angle": rng.uniform(0.0, 360.0),
        }
        for j in range(rng.randrange(5))
    ]
    return {"ruleset": "xwing2", "phase": "play", "obstacles": obstacles, "ships": ships}


def test_shots_with_and_without_the_filters_answer_alike() -> None:
    rng = random.Random(15)
    for _ in range(60):
        scene = scene_from_dict(_scene(rng))
        arc = rng.choice(XWING_ARCS)
        fast = measure(scene, "s0", "s1", arc=arc).to_json()
        with pytest.MonkeyPatch.context() as m:
            m.setattr(tabletop.geom.arcs, "_clearly_outside", lambda *a: False)
            m.setattr(tabletop.obstacles.measuring, "edges_may_be_parallel", lambda *a: True)
            m.setattr(tabletop.obstacles.measuring, "_disk_off_segment", lambda *a: False)
            slow = measure(scene, "s0", "s1", arc=arc).to_json()
        assert json.dumps(fast) == json.dumps(slow)


def same_range(together: AttackRange, alone: AttackRange) -> None:
    """Two attack ranges agree: the flag exactly; distance, points and part within the agreement."""
    assert together.in_arc == alone.in_arc
    assert agree(together.distance, alone.distance)
    assert arrays_agree(together.points, alone.points)
    assert geometries_agree(together.target_part, alone.target_part)


def test_shots_ranged_together_at_each_arc_line_are_each_alone() -> None:
    # Every line of every arc and base, the target's nearest vertex on it, either side of
    # the length tolerance and of the filter's reach: in the region, within the grown
    # region's reach only (ranged alone), and beyond the filter.
    shots: list[Shot] = []
    for arc in XWING_ARCS:
        for base in sorted(HALF_ANGLES):
            for pose in POSES:
                placed = world_polygon(base_footprint(XW, base).outline, list(pose))
                for point, normal in bounding_lines(arc, base):
                    for off in (*OFFSETS, -1e-6 - 1e-7, 5e-6, 9e-6, 11e-6):
                        target = triangle(point, normal, off, pose)
                        shots.append((XW, pose, base, target, arc, placed))
    together = attack_ranges(shots)
    assert len(together) == len(shots)
    for shot, found in zip(shots, together, strict=True):
        ruleset, pose, base, target, arc, placed = shot
        same_range(found, attack_range(ruleset, pose, base, target, arc, attacker_polygon=placed))
    assert {r.in_arc for r in together} == {True, False}


def test_random_shots_ranged_together_are_each_alone() -> None:
    rng = random.Random("ranged together")
    shots: list[Shot] = []
    for k in range(3000):
        rules = get_ruleset(rng.choice(["xwing1", "xwing2"]))
        base, other = rng.choice(sorted(rules.base_sizes)), rng.choice(sorted(rules.base_sizes))
        heading = rng.choice([0.0, 90.0, 270.0, rng.uniform(-720.0, 720.0)])
        pose = (rng.uniform(0.0, 900.0), rng.uniform(0.0, 900.0), heading)
        if k % 10 == 0:  # the same attacker again: its region from the cache
            pose = shots[-1][1] if shots else pose
        placed = world_polygon(base_footprint(rules, base).outline, list(pose))
        near = [pose[0] + rng.uniform(-150.0, 150.0), pose[1] + rng.uniform(-150.0, 150.0)]
        turn = rng.choice([heading, heading + 90.0, rng.uniform(0.0, 360.0)])
        target = world_polygon(base_footprint(rules, other).outline, [*near, turn])
        shots.append((rules, pose, base, target, rng.choice(XWING_ARCS), placed))
    for shot, found in zip(shots, attack_ranges(shots), strict=True):
        ruleset, pose, base, target, arc, placed = shot
        same_range(found, attack_range(ruleset, pose, base, target, arc, attacker_polygon=placed))


def test_an_unknown_arc_ranged_together_is_refused_as_alone() -> None:
    placed = world_polygon(base_footprint(XW, "small").outline, [0.0, 0.0, 0.0])
    with pytest.raises(InvalidInputError, match="unknown arc 'side'"):
        attack_ranges([(XW, (0.0, 0.0, 0.0), "small", placed, "side", placed)])
