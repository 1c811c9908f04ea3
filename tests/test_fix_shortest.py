"""Fixes are the shortest legal move to 10^-3 mm, against a brute-force search.

The brute force is this file's own: for each of many directions it marches out from the
obstacle's place by the *slack* of the placement rules (every rule's slack is a distance,
so it changes by at most the length of a move: no legal move is nearer than the slack's
size, and a step of that size skips none), then refines the best direction twice. Its
shortest move is exact along each direction it tries; the fix must be within 0.001 mm of
it, legal, and past the nearest line by no more than 0.001 mm.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray
from test_fixes import AREAS, EDGE_LIMIT, MARKER, RULESETS, SPACING_LIMIT, scenes, world_vertices

from tabletop.app.scene.scenefile import parse_scene
from tabletop.obstacles.legality import check

FloatArray = NDArray[np.float64]

#: The accuracy a fix is held to (issue 14: "within 0.001 mm of the true shortest and
#: landing past the line by no more than 0.001 mm").
ACCURACY = 0.001


def slack(data: dict[str, Any], ident: str, moves: FloatArray) -> FloatArray:
    """The least slack of every placement rule for each move (> 0 legal), mm."""
    ruleset = data["ruleset"]
    width, height = AREAS[data["area"]]
    edge, spacing = EDGE_LIMIT[ruleset], SPACING_LIMIT[ruleset]
    entries = {o["id"]: o for o in data["obstacles"]}
    points = world_vertices(entries[ident], ruleset)[None, :, :] + moves[:, None, :]
    lo, hi = points.min(axis=1), points.max(axis=1)
    parts = [lo[:, 0] - edge, lo[:, 1] - edge, width - hi[:, 0] - edge, height - hi[:, 1] - edge]
    if ruleset == "armada" and width > height:
        parts += [lo[:, 0] - MARKER, width - MARKER - hi[:, 0]]
    polygons = shapely.polygons(points)
    for other, entry in entries.items():
        if other != ident:
            gap = shapely.distance(polygons, shapely.Polygon(world_vertices(entry, ruleset)))
            parts.append(np.asarray(gap) - spacing)
    return np.asarray(np.min(np.stack(parts), axis=0), dtype=np.float64)


def first_legal(
    data: dict[str, Any], ident: str, angles: FloatArray, limit: float, least: float = 0.05
) -> FloatArray:
    """For each direction, the length of the first legal move along it (inf past `limit`).

    Steps by the slack (never under `least` mm, so a march along a line ends), then
    bisects the last step onto the line.
    """
    units = np.stack([np.cos(angles), np.sin(angles)], axis=-1)
    t = np.zeros(len(angles))
    before = np.zeros(len(angles))
    active = np.ones(len(angles), dtype=bool)
    for _ in range(5000):
        idx = np.flatnonzero(active)
        if not len(idx):
            break
        g = slack(data, ident, units[idx] * t[idx, None])
        done = g >= 1e-9
        moving = idx[~done]
        before[moving] = t[moving]
        t[moving] += np.maximum(-g[~done], least)
        active[idx[done]] = False
        active &= t <= limit
    found = ~active & (t <= limit)
    lo, hi = before.copy(), t.copy()
    for _ in range(40):
        mid = (lo + hi) / 2.0
        legal = slack(data, ident, units * mid[:, None]) >= 1e-9
        hi = np.where(legal, mid, hi)
        lo = np.where(legal, lo, mid)
    return np.where(found, hi, np.inf)


def brute_force_shortest(data: dict[str, Any], ident: str, limit: float) -> float:
    """The shortest legal move over 360 directions, the best dozen refined six times each."""
    angles = np.linspace(0.0, 2.0 * math.pi, 360, endpoint=False)
    lengths = first_legal(data, ident, angles, limit)
    shortest = float(lengths.min())
    # The shortest move may lie between two coarse directions, even next to one along
    # which no move is legal (a corner of two lines): refine around every coarse
    # direction within 0.5 mm of the best, the dozen best of them.
    near = np.flatnonzero(lengths <= shortest + 0.5)
    for start in near[np.argsort(lengths[near])][:12]:
        best = float(angles[start])
        width = 2.0 * math.pi / 360
        for _ in range(6):
            fine = np.linspace(best - width, best + width, 21)
            found = first_legal(data, ident, fine, shortest + 0.1, least=2e-4)
            if np.isfinite(found).any():
                best = float(fine[int(np.argmin(found))])
                shortest = min(shortest, float(found.min()))
            width /= 5.0
    return shortest


def assert_shortest(data: dict[str, Any]) -> int:
    report = check(parse_scene(data))
    seen = 0
    done: set[str] = set()
    for v in report.violations:
        if not v.fixable or v.fix is None or v.objects[0] in done:
            continue
        ident = v.objects[0]
        done.add(ident)
        move = np.array(v.fix["move"], dtype=np.float64)
        length = float(np.hypot(*move))
        landed = float(slack(data, ident, move[None, :])[0])
        assert 1e-6 < landed <= ACCURACY, f"{ident}: the fix lands {landed} mm past the line"
        shortest = brute_force_shortest(data, ident, 1.5 * length + 1.0)
        assert abs(length - shortest) <= ACCURACY, (
            f"{ident}: fix {move.tolist()} of {length:.6f} mm; brute force {shortest:.6f} mm"
        )
        seen += 1
    return seen


@pytest.mark.parametrize(("ruleset", "area"), RULESETS)
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_every_fix_is_the_shortest_by_brute_force(
    ruleset: str, area: str, data: st.DataObject
) -> None:
    assert_shortest(data.draw(scenes(ruleset, area)))


SQUARE40 = [[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]]


@pytest.mark.parametrize("gap", [99.9996, 99.999, 99.0, 90.0])
def test_two_obstacles_just_short_of_the_spacing_line(gap: float) -> None:
    # Two 40 mm squares side by side `gap` apart: the first moves straight away by
    # 100 - gap and a hair (0.0004 mm needs a move under 0.0014 mm, never 0.003).
    data = {
        "ruleset": "xwing2",
        "area": "3x3ft",
        "obstacles": [
            {"id": "a", "outline": SQUARE40, "at": [300.0, 457.2]},
            {"id": "b", "outline": SQUARE40, "at": [300.0 + 40.0 + gap, 457.2]},
        ],
    }
    (v,) = check(parse_scene(data)).violations
    assert v.fix is not None
    dx, dy = v.fix["move"]
    assert dy == 0.0
    assert 100.0 - gap < -dx <= 100.0 - gap + ACCURACY
    assert assert_shortest(data) == 1


def test_corner_to_corner_round_the_arc() -> None:
    # Corner to corner 70 mm apart on the diagonal (Armada, more than 76.5): the shortest
    # move is 6.5 mm along the diagonal, on the rounded part of the forbidden region.
    step = 40.0 + 70.0 / math.sqrt(2.0)
    data = {
        "ruleset": "armada",
        "area": "6x3ft",
        "obstacles": [
            {"id": "a", "outline": SQUARE40, "at": [900.0 + step, 400.0 + step]},
            {"id": "b", "outline": SQUARE40, "at": [900.0, 400.0]},
        ],
    }
    (v,) = check(parse_scene(data)).violations
    assert v.fix is not None
    dx, dy = v.fix["move"]
    assert 6.5 < math.hypot(dx, dy) <= 6.5 + ACCURACY
    assert math.degrees(math.atan2(dy, dx)) == pytest.approx(45.0, abs=0.01)
    assert assert_shortest(data) == 1


def test_many_vertex_outlines_too_close() -> None:
    # Two 3,000-vertex circles (radius 60) 80 mm apart: the first moves 20 mm and a hair
    # straight away, measured on the true outlines (the region is built from simplified
    # ones, whose size is bounded).
    theta = np.linspace(0.0, 2.0 * math.pi, 3000, endpoint=False)
    circle = np.stack([60.0 * np.cos(theta), 60.0 * np.sin(theta)], axis=-1).tolist()
    data = {
        "ruleset": "xwing2",
        "area": "3x3ft",
        "obstacles": [
            {"id": "a", "outline": circle, "at": [300.0, 457.2]},
            {"id": "b", "outline": circle, "at": [300.0 + 120.0 + 80.0, 457.2]},
        ],
    }
    (v,) = check(parse_scene(data)).violations
    assert v.fix is not None
    dx, dy = v.fix["move"]
    assert 20.0 < -dx <= 20.0 + ACCURACY
    assert abs(dy) <= ACCURACY
