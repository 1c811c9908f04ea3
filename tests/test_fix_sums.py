"""The fix search's Minkowski sums: built faster and fewer, the very same fixes.

The sum of two outlines is the union of the convex hulls of their convex pieces'
pairwise vertex sums. Stage 1 used to take each pair's hull from a multipoint, build the
whole grown sum of every obstacle within reach, and cut them all from the disk at once;
it now takes the hulls from a line through the same points, once per table, and grows
and cuts only the hulls the search lands in. Both are compared here with the
construction they replace, written out below: the same hulls on random catalog tokens
at random angles, and the same report (every fix, placeable fix, way and message) on
random tables, the numbers within ``AGREEMENT_MM`` (``tests/agreement.py``: two
constructions of the same geometry may round differently). Where one construction gives
both sides (a cache, the same additions) the bits are compared.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest
import shapely
from agreement import AGREEMENT_MM, arrays_agree, assert_agree, geometries_agree

from tabletop.app.scene.scenefile import parse_scene
from tabletop.geom.rulesets import get_ruleset
from tabletop.geom.shapes import place_outline
from tabletop.obstacles import fix_regions, fixing
from tabletop.obstacles.catalog import catalog
from tabletop.obstacles.legality import check
from tabletop.obstacles.placement import placement_limits
from tabletop.obstacles.scene import obstacle_polygons

NAMES = sorted(catalog(get_ruleset("xwing2")))


def previous_sum(a: shapely.Geometry, b: shapely.Geometry) -> shapely.Geometry:
    """The construction replaced: each pair's hull from a multipoint of its sums."""
    sums = [
        (pa[:, None, :] + pb[None, :, :]).reshape(-1, 2)
        for pa in fix_regions._convex_pieces(shapely.to_wkb(a))
        for pb in fix_regions._convex_pieces(shapely.to_wkb(b))
    ]
    points = np.concatenate(sums)
    owner = np.repeat(np.arange(len(sums)), [len(p) for p in sums])
    hulls = shapely.convex_hull(shapely.multipoints(points, indices=owner))
    return shapely.union_all(hulls)


def previous_pieces(wkb: bytes) -> list[np.ndarray]:
    """The convex pieces as first cut: every touching triangle tried, by a union."""
    parts = shapely.get_parts(shapely.constrained_delaunay_triangles(shapely.from_wkb(wkb)))
    left = [p for p in parts if p.area > 0.0]
    pieces = []
    while left:
        piece = left.pop(0)
        grown = True
        while grown:
            grown = False
            for k, other in enumerate(left):
                if not shapely.intersects(piece, other):
                    continue
                hull = shapely.convex_hull(shapely.union(piece, other))
                if abs(hull.area - piece.area - other.area) <= 1e-9 * hull.area:
                    piece, grown = hull, True
                    del left[k]
                    break
        pieces.append(np.asarray(shapely.get_coordinates(piece)[:-1]))
    return pieces


COLLINEAR = [
    # A rectangle with a vertex in the middle of each side, an L and a triangle with points
    # along their edges: pieces whose hulls drop vertices that later triangles share.
    [(0, 0), (20, 0), (40, 0), (40, 10), (40, 20), (20, 20), (0, 20), (0, 10)],
    [(0, 0), (10, 0), (30, 0), (30, 10), (20, 10), (10, 10), (10, 30), (10, 40), (0, 40), (0, 20)],
    [(0, 0), (5, 0), (10, 0), (15, 0), (20, 0), (10, 10)],
]


@pytest.mark.parametrize("seed", range(3))
def test_the_convex_pieces_are_the_previous_ones(seed: int) -> None:
    rng = random.Random(seed)
    shapes = [shapely.Polygon(ring) for ring in COLLINEAR]
    for _ in range(10):
        name = rng.choice(NAMES)
        shapes.append(token(name, rng.uniform(0, 900), rng.uniform(0, 900), rng.uniform(0, 360)))
    for shape in shapes:
        for outline in (shape, shapely.transform(shape, lambda xy: -xy)):
            wkb = shapely.to_wkb(outline)
            new = fix_regions._convex_pieces(wkb)
            old = previous_pieces(wkb)
            assert len(new) == len(old)
            for piece, before in zip(new, old, strict=True):
                assert arrays_agree(piece, before)


def token(name: str, x: float, y: float, angle: float) -> shapely.Geometry:
    outline = np.asarray(catalog(get_ruleset("xwing2"))[name].outline, dtype=np.float64)
    return shapely.Polygon(place_outline(outline, np.array([x, y, angle, 0.0])))


@pytest.mark.parametrize("seed", range(6))
def test_the_sums_are_the_previous_ones(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(8):
        a = token(rng.choice(NAMES), rng.uniform(0, 900), rng.uniform(0, 900), rng.uniform(0, 360))
        b = token(rng.choice(NAMES), rng.uniform(0, 900), rng.uniform(0, 900), rng.uniform(0, 360))
        reflected = shapely.transform(b, lambda xy: -xy)
        new = shapely.union_all(fix_regions.pair_hulls(a, reflected))
        old = previous_sum(a, reflected)
        assert geometries_agree(new, old)


def test_the_hulls_are_summed_once_per_table_for_both_growths(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    summed: list[tuple[bytes, bytes]] = []
    pair_hulls = fix_regions.pair_hulls

    def counted(a: shapely.Geometry, b: shapely.Geometry) -> Any:
        summed.append((shapely.to_wkb(a), shapely.to_wkb(b)))
        return pair_hulls(a, b)

    monkeypatch.setattr(fix_regions, "pair_hulls", counted)
    report = check(parse_scene(random_table(5, 24)), clearance=1.1).to_json()
    assert any(v.get("fix") and v["fix"].get("placeable") for v in report["violations"])
    assert len(summed) >= 10
    assert len(set(summed)) == len(summed)


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


def whole_regions_stage_one(
    polygon: shapely.Geometry,
    box: Any,
    others: Any,
    tree: shapely.STRtree | None,
    spacing: float,
    clearance: float,
    cache: Any,
) -> Any:
    """The stage 1 replaced: every obstacle within reach, its whole grown sum, cut at once."""
    x0, y0, x1, y1 = box
    reach = float(np.max(np.hypot([x0, x1, x0, x1], [y0, y0, y1, y1]))) + 1.0
    mine, tolerance_mine = fix_regions._coarse(polygon)
    radius = 1.0
    if len(others) and tree is not None:
        _, gap = tree.query_nearest(polygon, return_distance=True, all_matches=False)
        radius = max(radius, 2.0 * float(spacing - float(np.min(gap))))
    radius = max(radius, 2.0 * float(max(x0, y0, -x1, -y1, 0.0)))
    origin = shapely.Point(0.0, 0.0)
    while True:
        radius = min(radius, reach)
        region = shapely.box(x0, y0, x1, y1).intersection(origin.buffer(radius, quad_segs=16))
        near = [] if tree is None else tree.query(polygon, "dwithin", spacing + radius)
        forbidden = []
        for i in near:
            other, tolerance_other = fix_regions._coarse(others[i])
            grow = spacing + clearance + tolerance_mine + tolerance_other
            whole = previous_sum(other, shapely.transform(mine, lambda xy: -xy))
            radius_out = grow / np.cos(np.pi / 64)
            forbidden.append(shapely.buffer(whole, radius_out, quad_segs=32))
        if forbidden and not region.is_empty:
            region = shapely.difference(region, shapely.union_all(forbidden))
        if not region.is_empty:
            if shapely.contains(region, origin):
                return np.zeros(2)
            return np.asarray(shapely.get_coordinates(shapely.shortest_line(origin, region))[1])
        if radius >= reach:
            return None
        radius *= 2.0


@pytest.mark.parametrize("seed", [1, 2])
def test_every_fix_is_the_previous_one(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    scene = parse_scene(random_table(seed, 24))
    new = check(scene, clearance=1.1).to_json()
    fixes = [v["fix"] for v in new["violations"] if v.get("fix")]
    assert len(fixes) >= 5
    assert any(f.get("placeable") for f in fixes)
    monkeypatch.setattr(fixing, "stage_one", whole_regions_stage_one)
    old = check(scene, clearance=1.1).to_json()
    assert_agree(new, old)


def crammed_squares(count: int, angle: float, token_name: str | None) -> dict[str, Any]:
    """`count` 30 mm squares 90 mm apart on a grid (each too close to its neighbours)."""
    side = 4
    square = [[-15.0, -15.0], [15.0, -15.0], [15.0, 15.0], [-15.0, 15.0]]
    entries: list[dict[str, Any]] = [
        {
            "id": f"o{i}",
            "outline": square,
            "kind": "asteroid",
            "at": [260.0 + (i % side) * 90.0, 260.0 + (i // side) * 90.0],
            "angle": angle * i,
        }
        for i in range(count)
    ]
    if token_name is not None:
        entries[5] = {"id": "o5", "token": token_name, "at": [350.0, 350.0], "angle": 10.0}
    size = 2 * 260.0 + side * 90.0
    return {"ruleset": "xwing2", "area": {"width": size, "height": size}, "obstacles": entries}


def fix_moves(report: dict[str, Any]) -> dict[tuple[str, float], list[float]]:
    """Return every move of a report's fixes by (object, clearance: 0 for the shortest)."""
    found = {}
    for violation in report["violations"]:
        fix = violation.get("fix")
        if fix:
            found[(fix["object"], 0.0)] = fix["move"]
            if fix.get("placeable"):
                found[(fix["object"], fix["placeable"]["clearance"])] = fix["placeable"]["move"]
    return found


@pytest.mark.parametrize(
    ("angle", "token_name"),
    [(0.0, None), (7.0, None), (0.0, "yt2400debris1"), (11.0, "coreasteroid2")],
)
def test_every_fix_of_a_crowd_is_as_short_as_the_previous_one(
    angle: float, token_name: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Convex crowds are cut at once, mixed ones a landing at a time: fixes as short, legal.

    On a grid of alike squares two moves are often equally short (up or right); which one
    is given may differ, its length may not, and it must be legal. Each move's two
    components are printed to 1e-6 mm, so two equally short moves' printed lengths may
    differ by up to two steps of the agreement.
    """
    scene = parse_scene(crammed_squares(12, angle, token_name))
    new = fix_moves(check(scene, clearance=1.1).to_json())
    assert len(new) >= 20
    monkeypatch.setattr(fixing, "stage_one", whole_regions_stage_one)
    old = fix_moves(check(scene, clearance=1.1).to_json())
    assert new.keys() == old.keys()
    shapes = dict(
        zip([o.id for o in scene.obstacles], obstacle_polygons(scene.obstacles), strict=True)
    )
    limits = placement_limits(scene.ruleset, scene.area)
    for (ident, clearance), move in new.items():
        assert math.hypot(*move) == pytest.approx(
            math.hypot(*old[(ident, clearance)]), abs=2 * AGREEMENT_MM
        )
        shift = np.array(move)
        moved = shapely.transform(shapes[ident], lambda xy, v=shift: xy + v)
        others = [p for name, p in shapes.items() if name != ident]
        gap = float(np.min(shapely.distance(moved, np.asarray(others, dtype=object))))
        assert gap >= limits.spacing + clearance - 1e-6
        x0, y0, x1, y1 = limits.move_box(shapes[ident].bounds, clearance)
        assert x0 - 1e-6 <= move[0] <= x1 + 1e-6
        assert y0 - 1e-6 <= move[1] <= y1 + 1e-6


@pytest.mark.parametrize("seed", [3, 4])
def test_stage_two_remembering_its_trial_moves_gives_every_fix_to_the_bit(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stage 2 keeps each trial move's legality; measuring every trial gives the same bits.

    One code path gives both sides: the kept legality is the very answer of the measure.
    """
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
    """The trial outlines are built by numpy: the same coordinates, byte for byte.

    Both sides are one addition of the same two floats, correctly rounded everywhere.
    """
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
    """The same additions of the same floats, in its order: the same bits."""
    rng = random.Random(seed)
    for _ in range(6):
        a = token(rng.choice(NAMES), rng.uniform(0, 900), rng.uniform(0, 900), rng.uniform(0, 360))
        b = token(rng.choice(NAMES), rng.uniform(0, 900), rng.uniform(0, 900), rng.uniform(0, 360))
        wkb_a, wkb_b = shapely.to_wkb(a), shapely.to_wkb(b)
        loop = [
            (pa[:, None, :] + pb[None, :, :]).reshape(-1, 2)
            for pa in fix_regions._convex_pieces(wkb_a)
            for pb in fix_regions._convex_pieces(wkb_b)
        ]
        points, owner = fix_regions._pair_sums(wkb_a, wkb_b)
        assert points.tobytes() == np.concatenate(loop).tobytes()
        assert owner.tolist() == np.repeat(np.arange(len(loop)), [len(p) for p in loop]).tolist()
