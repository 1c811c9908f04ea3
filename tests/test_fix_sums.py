"""The fix search's Minkowski sums: built faster, the very same polygons and fixes.

The sum of two outlines is the union of the convex hulls of their convex pieces'
pairwise vertex sums. It used to take each pair's hull from a multipoint and build every
sum once per growth (the shortest fix and the placeable fix of an obstacle each built
theirs); it now takes the hull from a line through the same points and builds each sum
once per table. Both are compared here with the construction they replace, written out
below: the same sums byte for byte on random catalog tokens at random angles, and the
same report (every fix, placeable fix, way and message) on random tables.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
import shapely

from tabletop.app.scenefile import parse_scene
from tabletop.geom.rulesets import get_ruleset
from tabletop.geom.shapes import place_outline
from tabletop.obstacles import fixing, legality
from tabletop.obstacles.catalog import catalog
from tabletop.obstacles.legality import check

NAMES = sorted(catalog(get_ruleset("xwing2")))


def previous_sum(a: shapely.Geometry, b: shapely.Geometry) -> shapely.Geometry:
    """The construction replaced: each pair's hull from a multipoint of its sums."""
    sums = [
        (pa[:, None, :] + pb[None, :, :]).reshape(-1, 2)
        for pa in fixing._convex_pieces(shapely.to_wkb(a))
        for pb in fixing._convex_pieces(shapely.to_wkb(b))
    ]
    points = np.concatenate(sums)
    owner = np.repeat(np.arange(len(sums)), [len(p) for p in sums])
    hulls = shapely.convex_hull(shapely.multipoints(points, indices=owner))
    return shapely.union_all(hulls)


def token(name: str, x: float, y: float, angle: float) -> shapely.Geometry:
    outline = np.asarray(catalog(get_ruleset("xwing2"))[name].outline, dtype=np.float64)
    return shapely.Polygon(place_outline(outline, np.array([x, y, angle, 0.0])))


@pytest.mark.parametrize("seed", range(6))
def test_the_sums_are_the_previous_ones_byte_for_byte(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(8):
        a = token(rng.choice(NAMES), rng.uniform(0, 900), rng.uniform(0, 900), rng.uniform(0, 360))
        b = token(rng.choice(NAMES), rng.uniform(0, 900), rng.uniform(0, 900), rng.uniform(0, 360))
        reflected = shapely.transform(b, lambda xy: -xy)
        new, old = fixing._sum(a, reflected), previous_sum(a, reflected)
        assert shapely.to_wkb(new) == shapely.to_wkb(old)
        # And so, trivially, the same region to well within 1e-9 mm.
        assert abs(new.area - old.area) <= 1e-9 * old.area
        assert shapely.hausdorff_distance(new.boundary, old.boundary) <= 1e-9


def test_a_sum_is_built_once_per_table_for_both_growths() -> None:
    a = token("coreasteroid2", 300.0, 300.0, 17.0)
    b = shapely.transform(token("gascloud2", 0.0, 0.0, 233.0), lambda xy: -xy)
    cache: dict[tuple[bytes, bytes, float], shapely.Geometry] = {}
    first = fixing._cached_sum(a, b, cache)
    assert fixing._cached_sum(a, b, cache) is first
    assert shapely.to_wkb(first) == shapely.to_wkb(previous_sum(a, b))


def random_table(seed: int, count: int) -> dict[str, Any]:
    rng = random.Random(seed)
    return {
        "ruleset": "xwing2",
        "area": "6x3ft",
        "obstacles": [
            {
                "id": f"t{i}",
                "token": rng.choice(NAMES),
                "at": [rng.uniform(100.0, 1728.8), rng.uniform(100.0, 814.4)],
                "angle": rng.uniform(0.0, 360.0),
            }
            for i in range(count)
        ],
    }


class _UnsharedCache(dict[tuple[bytes, bytes, float], shapely.Geometry]):
    """A cache that forgets the sums not yet grown: each growth builds its own, as before."""

    def __setitem__(self, key: tuple[bytes, bytes, float], value: shapely.Geometry) -> None:
        if key[2] != fixing._UNGROWN:
            super().__setitem__(key, value)


@pytest.mark.parametrize("seed", [1, 2])
def test_every_fix_is_the_previous_one(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    scene = parse_scene(random_table(seed, 24))
    new = check(scene, clearance=1.1).to_json()
    fixes = [v["fix"] for v in new["violations"] if v.get("fix")]
    assert len(fixes) >= 5
    assert any(f.get("placeable") for f in fixes)
    shortest = fixing.shortest_fix
    # One cache for the table, as before, that keeps only the grown sums.
    unshared = _UnsharedCache()

    def previous_fix(*args: Any, **kwargs: Any) -> Any:
        kwargs["cache"] = unshared
        return shortest(*args, **kwargs)

    monkeypatch.setattr(fixing, "_sum", previous_sum)
    monkeypatch.setattr(legality, "shortest_fix", previous_fix)
    old = check(scene, clearance=1.1).to_json()
    assert new == old
    assert any(key[2] != fixing._UNGROWN for key in unshared)
    assert all(key[2] != fixing._UNGROWN for key in unshared)


@pytest.mark.parametrize("seed", [3, 4])
def test_stage_two_remembering_its_trial_moves_gives_every_fix_to_the_bit(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stage 2 keeps each trial move's legality; measuring every trial gives the same bits."""
    scene = parse_scene(random_table(seed, 24))
    refine = fixing._refine
    found: dict[bool, list[tuple[bytes, ...] | None]] = {}
    for remember in (True, False):
        moves: list[tuple[bytes, ...] | None] = []

        def recorded(
            *args: Any,
            remember: bool = remember,
            moves: list[tuple[bytes, ...] | None] = moves,
            **kwargs: Any,
        ) -> Any:
            move = refine(*args, remember=remember, **kwargs)
            moves.append(tuple(float(v).hex().encode() for v in move))
            return move

        monkeypatch.setattr(fixing, "_refine", recorded)
        check(scene, clearance=1.1)
        found[remember] = moves
    assert len(found[True]) >= 10
    assert found[True] == found[False]


def test_stage_two_moves_an_outline_as_shapely_transform_does() -> None:
    """The trial outlines are built by numpy: the same coordinates, byte for byte."""
    rng = random.Random(7)
    for _ in range(20):
        shape = token(rng.choice(NAMES), rng.uniform(0, 900), rng.uniform(0, 900), 37.0)
        holder = np.array([shape], dtype=object)
        coords = np.asarray(shapely.get_coordinates(shape))
        v = np.array([rng.uniform(-50, 50), rng.uniform(-1e-9, 1e-9)])
        shapely.set_coordinates(holder, coords + v)
        expected = shapely.transform(shape, lambda xy, v=v: xy + v)
        assert shapely.to_wkb(holder[0]) == shapely.to_wkb(expected)


@pytest.mark.parametrize("seed", range(3))
def test_the_pair_sums_are_the_loops_additions_in_its_order(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(6):
        a = token(rng.choice(NAMES), rng.uniform(0, 900), rng.uniform(0, 900), rng.uniform(0, 360))
        b = token(rng.choice(NAMES), rng.uniform(0, 900), rng.uniform(0, 900), rng.uniform(0, 360))
        wkb_a, wkb_b = shapely.to_wkb(a), shapely.to_wkb(b)
        loop = [
            (pa[:, None, :] + pb[None, :, :]).reshape(-1, 2)
            for pa in fixing._convex_pieces(wkb_a)
            for pb in fixing._convex_pieces(wkb_b)
        ]
        points, owner = fixing._pair_sums(wkb_a, wkb_b)
        assert points.tobytes() == np.concatenate(loop).tobytes()
        assert owner.tolist() == np.repeat(np.arange(len(loop)), [len(p) for p in loop]).tolist()
