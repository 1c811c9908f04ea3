"""The vectorised per-rule passes of ``check`` give what the per-object ones give.

Without ``--margins`` a rule measures every object in one vectorised pass and records
only the measurements near its line (at most ``contested_within`` plus
:data:`NEAR_SLACK_MM` past it); with ``--margins`` it records every object one at a time,
as it always has. Both must report the same violations, contested calls, rulings and
fixes, every length within ``AGREEMENT_MM`` (``tests/agreement.py``: the two passes do
their own arithmetic) and every verdict exactly, on scenes with objects exactly at, just inside and just outside
every line (the edge, spacing, deployment, setup-area and play-area lines, the contested
zone's edge and the slack's edge), 1e-4 mm off: well clear of the 1e-6 mm tolerance.
The outlines every rule shares are placed once per check, in one pass per shape: they
must be the outlines the objects place one at a time, within the same agreement.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np
import pytest
import shapely
from agreement import arrays_agree, assert_agree, geometries_agree

from tabletop.geom.objects import Ship, ship_polygons
from tabletop.geom.rulesets import RULESET_NAMES, get_ruleset
from tabletop.obstacles._margins import NEAR_SLACK_MM, _edge_distances
from tabletop.obstacles.catalog import catalog
from tabletop.obstacles.legality import CheckReport, check
from tabletop.obstacles.placement import placement_limits
from tabletop.obstacles.scene import Obstacle, Scene, obstacle_polygons
from tabletop.obstacles.sceneformat import _plain_points, scene_from_dict

SQUARE = [[0.0, 0.0], [30.0, 0.0], [30.0, 30.0], [0.0, 30.0]]  # mm
SMALL = 40.0  # a small base's side, mm
OFF = 1e-4  # mm: "just inside" and "just outside", far beyond the 1e-6 mm tolerance


def line_cases(contested_within: float) -> list[float]:
    """Margins (mm) at, just inside and just outside each line a pass decides by."""
    cases = [0.0, OFF, -OFF, 5.0, -5.0, 20.0]
    for line in (contested_within, contested_within + NEAR_SLACK_MM):
        cases += [line, line - OFF, line + OFF]
    return cases


def facts(report: CheckReport) -> tuple[Any, ...]:
    """Everything a report without margins says: its verdicts, floats and points."""

    def points(value: Any) -> Any:
        return None if value is None else np.asarray(value).tolist()

    violations = [
        (
            v.rule,
            v.objects,
            v.distance,
            v.limit,
            v.margin,
            v.contested,
            points(v.points),
            v.ruling,
            v.message,
            v.fix,
            v.fixable,
        )
        for v in report.violations
    ]
    contested = [
        (m.rule, m.objects, m.distance, m.limit, m.margin, m.contested, points(m.points), m.ruling)
        for m in report.contested
    ]
    return report.legal, violations, contested, dict(report.checked)


def xwing_scene(margin: float, rng: random.Random) -> dict[str, Any]:
    """An X-Wing table whose objects sit `margin` mm inside each line (negative: past it)."""
    ruleset = get_ruleset("xwing2")
    scene = scene_from_dict({"ruleset": "xwing2", "area": "3x3ft"})
    limits = placement_limits(ruleset, scene.area)
    width, height = scene.area.width, scene.area.height
    deploy = ruleset.deployment_limit
    left = limits.edge + margin  # edge rule: the square's left side
    right = left + 30.0 + limits.spacing + margin  # spacing rule: the next square
    top = height - limits.edge - margin - 30.0  # edge rule at the top
    angle = rng.choice([0.0, 90.0, rng.uniform(0.0, 360.0)])
    return {
        "ruleset": "xwing2",
        "area": "3x3ft",
        "obstacles": [
            {"id": "a", "outline": SQUARE, "kind": "asteroid", "at": [left, 400.0]},
            {"id": "b", "outline": SQUARE, "kind": "debris", "at": [right, 400.0]},
            {"id": "c", "outline": SQUARE, "kind": "gas", "at": [450.0, top]},
            {"id": "d", "outline": SQUARE, "kind": "asteroid", "at": [600.0, 250.0]},
            {
                "id": "e",
                "outline": SQUARE,
                "kind": "asteroid",
                "at": [650.0, 500.0],
                "angle": angle,
            },
        ],
        "ships": [
            # Deployment: the base's far side `margin` inside the limit of its edge.
            {"id": "s1", "base": "small", "at": [300.0, deploy - margin - SMALL / 2]},
            {
                "id": "s2",
                "base": "small",
                "player": 2,
                "at": [500.0, height - deploy + margin + SMALL / 2],
            },
            # Play area: `margin` inside the left edge and the top edge.
            {"id": "s3", "base": "small", "at": [margin + SMALL / 2, 30.0]},
            {"id": "s4", "base": "small", "player": 2, "at": [800.0, height - margin - 20.0]},
            # Overlap: two bases `margin` apart side by side (guides included).
            {"id": "s5", "base": "small", "at": [width - 200.0, 30.0]},
            {"id": "s6", "base": "small", "at": [width - 200.0 + SMALL + margin, 30.0]},
        ],
    }


def armada_scene(margin: float) -> dict[str, Any]:
    """An Armada table: obstacles and ships `margin` mm inside the setup area and edges."""
    ruleset = get_ruleset("armada")
    scene = scene_from_dict({"ruleset": "armada", "area": "6x3ft"})
    limits = placement_limits(ruleset, scene.area)
    x0, _, x1, _ = limits.area.bounds
    height = scene.area.height
    deploy = ruleset.deployment_limit
    return {
        "ruleset": "armada",
        "area": "6x3ft",
        "obstacles": [
            {"id": "a", "outline": SQUARE, "kind": "asteroid", "at": [x0 + margin, 450.0]},
            {"id": "b", "outline": SQUARE, "kind": "debris", "at": [x1 - margin - 30.0, 300.0]},
            {"id": "c", "outline": SQUARE, "kind": "asteroid", "at": [900.0, 450.0]},
        ],
        "ships": [
            {"id": "s1", "base": "small", "at": [x0 + margin + 21.5, 60.0]},
            {"id": "s2", "base": "small", "at": [900.0, deploy - margin - 35.0]},
            {"id": "q1", "base": "squadron", "at": [960.0, 60.0]},
            {"id": "s3", "base": "small", "player": 2, "at": [900.0, height - 60.0]},
            {"id": "q2", "base": "squadron", "player": 2, "at": [x1 - margin - 17.5, 800.0]},
        ],
    }


def random_scene(rng: random.Random, ruleset: str) -> dict[str, Any]:
    """Catalog tokens and ships anywhere on (and just off) the table, at any angle."""
    names = sorted(catalog(get_ruleset(ruleset)))
    bases = ["small", "medium", "large"] + (["squadron"] if ruleset == "armada" else [])
    return {
        "ruleset": ruleset,
        "area": "6x3ft",
        "obstacles": [
            {
                "id": f"t{i}",
                "token": rng.choice(names),
                "at": [rng.uniform(-20.0, 1850.0), rng.uniform(-20.0, 935.0)],
                "angle": rng.uniform(0.0, 360.0),
                "flipped": rng.random() < 0.3,
            }
            for i in range(12)
        ],
        "ships": [
            {
                "id": f"s{i}",
                "base": rng.choice(bases),
                "player": 1 + i % 2,
                "at": [rng.uniform(-10.0, 1840.0), rng.uniform(-10.0, 925.0)],
                "heading": rng.choice([90.0, 270.0, rng.uniform(0.0, 360.0)]),
            }
            for i in range(10)
        ],
    }


def assert_same_report(data: dict[str, Any], *, fixes: bool = False) -> CheckReport:
    scene = scene_from_dict(data)
    fast = check(scene, fixes=fixes)
    # A fresh scene: nothing placed by the first check is reused by the reference.
    every = check(scene_from_dict(data), fixes=fixes, margins=True)
    assert fast.margins is None
    assert_agree(facts(fast), facts(every))
    return every


@pytest.mark.parametrize("margin", line_cases(1.0))
def test_xwing_lines(margin: float) -> None:
    assert get_ruleset("xwing2").contested_within == 1.0
    report = assert_same_report(xwing_scene(margin, random.Random(margin)))
    broken = {v.rule for v in report.violations}
    if margin < 0.0:
        # Worked out by hand: every line is crossed by 1e-4 or 5 mm.
        assert {"obstacle-edge", "obstacle-spacing", "ship-deployment"} <= broken
        assert {"outside-play-area", "ship-overlap"} <= broken
    if margin > 2.0:
        assert not broken


@pytest.mark.parametrize("margin", line_cases(1.0))
def test_armada_lines(margin: float) -> None:
    report = assert_same_report(armada_scene(margin))
    broken = {v.rule for v in report.violations}
    if margin < 0.0:
        assert {"obstacle-setup-area", "ship-deployment"} <= broken
    if margin >= 0.0:  # the setup area's line is closed: on it is inside
        assert "obstacle-setup-area" not in broken


def test_contested_calls_are_kept() -> None:
    # On the line and just inside it, the calls are contested, with a ruling.
    report = check(scene_from_dict(xwing_scene(OFF, random.Random(1))))
    rules = {m.rule for m in report.contested}
    assert {"obstacle-edge", "obstacle-spacing"} <= rules
    assert all(m.ruling for m in report.contested)


@pytest.mark.parametrize("ruleset", ["xwing2", "xwing1", "armada"])
def test_random_tables(ruleset: str) -> None:
    rng = random.Random(f"vectorised {ruleset}")
    for _ in range(12):
        assert_same_report(random_scene(rng, ruleset))


def test_fixes_alike() -> None:
    assert_same_report(xwing_scene(-5.0, random.Random(2)), fixes=True)


def test_nearest_edge_from_bounds() -> None:
    # The edge rule's pass: each outline's nearest edge from its bounds, as the
    # least of the four distances measured vertex by vertex.
    rng = random.Random("edges")
    scene = scene_from_dict(random_scene(rng, "xwing2"))
    area = scene.area
    shapes = [s for _ in range(20) for s in obstacle_polygons(random_obstacles(rng))]
    x0, y0, x1, y1 = shapely.bounds(np.asarray(shapes, dtype=object)).T
    nearest = np.minimum.reduce([y0, area.height - y1, x0, area.width - x1])
    one_by_one = [min(float(d) for _, d, _ in _edge_distances(s, area)) for s in shapes]
    assert arrays_agree(nearest, one_by_one)


def random_obstacles(rng: random.Random) -> list[Obstacle]:
    ruleset = get_ruleset("xwing2")
    names = sorted(catalog(ruleset))
    out = []
    for i in range(40):
        angle = rng.choice([0.0, 90.0, 45.0, rng.uniform(-720.0, 720.0)])
        x, y, flipped = rng.uniform(-1e3, 1e4), rng.uniform(-10.0, 1e3), rng.random() < 0.3
        if i % 2:
            out.append(
                Obstacle.from_token(ruleset, f"o{i}", rng.choice(names), x, y, angle, flipped)
            )
        else:
            square = np.array(rng.choice([SQUARE, [[0.0, 0.0], [30.0, 0.0], [15.0, 26.0]]]))
            out.append(Obstacle(f"o{i}", square, "asteroid", x, y, angle, flipped))
    return out


def test_obstacles_placed_as_one_at_a_time() -> None:
    rng = random.Random("obstacles")
    obstacles = random_obstacles(rng) * 2  # each twice: already placed ones are kept
    together = obstacle_polygons(obstacles)
    for o, shape in zip(obstacles, together, strict=True):
        alone = dataclasses.replace(o)  # a copy that places itself
        assert arrays_agree(
            shapely.get_coordinates(shape),
            alone.world_outline()[[*range(len(alone.world_outline())), 0]],
        )
        assert arrays_agree(o.world_outline(), alone.world_outline())


@pytest.mark.parametrize("name", RULESET_NAMES)
def test_ships_placed_as_one_at_a_time(name: str) -> None:
    ruleset = get_ruleset(name)
    rng = random.Random(name)
    bases = sorted(ruleset.base_sizes)
    ships = [
        Ship(
            f"s{i}",
            rng.choice(bases),
            rng.uniform(-1e3, 1e4),
            rng.uniform(-10.0, 1e3),
            rng.choice([0.0, 90.0, 270.0, rng.uniform(0.0, 360.0)]),
        )
        for i in range(400)
    ]
    for guides in (False, True):
        together = ship_polygons(ships, ruleset, guides=guides)
        for ship, shape in zip(ships, together, strict=True):
            alone = ship.polygon(ruleset, guides=guides)
            assert geometries_agree(shape, alone)


def test_scene_reused() -> None:
    # A scene checked twice answers the same, to the bit (its placed outlines are kept).
    scene: Scene = scene_from_dict(random_scene(random.Random(5), "xwing2"))
    assert facts(check(scene, fixes=False)) == facts(check(scene, fixes=False))


def test_plain_outlines_read_as_point_by_point() -> None:
    # Float pairs in range are read in one array, the same as point by point; anything
    # else is left to the point-by-point reading (which converts it or names the fault).
    rng = random.Random("outlines")
    for _ in range(200):
        value = [[rng.uniform(-1e6, 1e6), rng.uniform(-1e6, 1e6)] for _ in range(rng.randint(3, 9))]
        points = _plain_points(value)
        assert points is not None
        assert np.array_equal(points, np.array([tuple(p) for p in value], dtype=np.float64))
    odd: list[list[Any]] = [
        [[0, 0], [1.0, 0.0], [0.0, 1.0]],
        [[0.0, 0.0], [1.0, 0.0], [0.0, float("nan")]],
        [[0.0, 0.0], [1.0, 0.0], [0.0, 1e6 + 1.0]],
        [[0.0, 0.0], [1.0, 0.0], [0.0, True]],
        [[0.0, 0.0], [1.0, 0.0], [0.0]],
        [[0.0, 0.0], [1.0, 0.0], (0.0, 1.0)],
        [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0, 2.0]],
    ]
    for value in odd:
        assert _plain_points(value) is None
    assert _plain_points([[0.0, 0.0], [1.0, 0.0], [0.0, 1e6]]) is not None  # on the bound
