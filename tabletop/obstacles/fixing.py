"""The shortest move that makes an obstacle's placement legal, to 10^-3 mm.

A move ``v`` of one obstacle (everything else held still) is legal when the moved outline
is more than the edge limit from every edge (Armada: entirely in the setup area), which
bounds ``v`` to a box, and more than the spacing limit from every other obstacle, which
forbids ``v`` from each other obstacle's *forbidden region* (the Minkowski sum of that
obstacle and the reflected outline, grown by the spacing limit).

:func:`shortest_fix` works in two stages:

0. **Nowhere?** A move ``v`` is illegal when any one point ``m`` of the moved outline
   lies within the spacing limit of another obstacle, that is when ``m + v`` is in that
   obstacle grown by the limit: so the grown obstacles, shifted back by ``m``, are moves
   known illegal. When the shifts by a few points of the outline cover every move the
   edge rules allow, no move is legal and the fix is null, found in milliseconds where
   stage 1 would build every forbidden region of the table to learn the same. The
   grown obstacles lie inside the true ones (a hair less than the limit; a rounded
   corner's chords inside its circle), so this never refuses a legal move; when they do
   not cover the box, the stages below decide.
1. **Where.** Only obstacles within the spacing limit plus a search radius ``R`` can
   forbid a move shorter than ``R`` (a move of ``|v|`` changes a distance by at most
   ``|v|``), so the legal region is built from those alone, inside the disk of radius
   ``R``, from polygons that *contain* the true forbidden regions (outlines of many
   vertices simplified and grown by the simplification's tolerance; round corners cut
   into chords outside the true circle). ``R`` doubles until that region is not empty.
   Its nearest point is legal, and within a few hundredths of a millimetre of the
   shortest move.
2. **Exactly.** From that point the move is refined with exact distances (shapely,
   on the true outlines): each nearby obstacle's distance, linearised at the current
   point (a distance to a convex piece is convex, so the linearised rule never allows
   an illegal move), the small quadratic problem "shortest move obeying these lines"
   solved in closed form, and a bisection back onto the legal side whenever a step
   overshoots. The result lands :data:`FIX_CLEARANCE_MM` past the nearest line.

Examples
--------
>>> import shapely
>>> from tabletop.geom.areas import play_area
>>> from tabletop.geom.rulesets import get_ruleset
>>> from tabletop.obstacles.placement import placement_limits
>>> limits = placement_limits(get_ruleset("xwing2"), play_area("3x3ft"))
>>> rock = shapely.box(437.2, 195.0, 477.2, 235.0)  # 195 mm from the bottom edge
>>> move = shortest_fix(rock, [], limits)
>>> [round(float(v), 4) for v in move]
[0.0, 5.0]
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import shapely

from tabletop.geom.poses import FloatArray
from tabletop.geom.tolerance import EPSILON_MM
from tabletop.obstacles.placement import PlacementLimits

if TYPE_CHECKING:  # numpy.typing only for annotations: check's start-up leaves it out.
    import numpy.typing as npt

__all__ = ["FIX_CLEARANCE_MM", "MAX_REGION_VERTICES", "grown_by_spacing", "shortest_fix"]

#: How far past the nearest line a fix lands, mm: the rules say "more than". Ten times the
#: length tolerance, so a move rounded to 10^-6 mm in JSON still lands past the line; and
#: small enough that where two lines meet at a shallow corner (the landing point slides
#: along one line by the clearance over the sine of the angle) the fix stays well inside
#: the 10^-3 mm it is held to.
FIX_CLEARANCE_MM = 1e-5

#: Outlines with more vertices are simplified (and grown to contain the original) before
#: the region of stage 1 is built, which bounds its time and memory; stage 2 measures on
#: the true outlines whatever their size.
MAX_REGION_VERTICES = 64

#: Chords per quarter circle of a grown corner in stage 1.
_QUAD_SEGS = 32
#: Stage 2 steps at most this many times.
_MAX_STEPS = 60
#: Distances (mm) within which a rule counts as near the current point in stage 2.
_NEAR_MM = 2.0
#: Stage 0 shifts the grown obstacles by at most this many points of the outline.
_COVER_POINTS = 24
#: How much less than the spacing limit stage 0 grows obstacles by, mm: far above the
#: rounding of a buffer's vertices, far below anything a fix is measured to.
_COVER_HAIR_MM = 1e-6
#: Chords per quarter circle of stage 0's grown corners (inside the true circle).
_COVER_QUAD_SEGS = 8


def grown_by_spacing(shapes: Sequence[shapely.Geometry], spacing: float) -> list[shapely.Geometry]:
    """Return each obstacle grown by a hair less than the spacing limit, inside the true region.

    A point of another outline inside one of these is within the spacing limit of that
    obstacle. An outline of more than :data:`MAX_REGION_VERTICES` vertices is grown from
    some of its vertices (a union of disks, inside the grown outline). Built once per table and shared between its fixes (``grown=`` of
    :func:`shortest_fix`).

    Examples
    --------
    >>> import shapely
    >>> (grown,) = grown_by_spacing([shapely.box(0, 0, 10, 10)], 100.0)
    >>> grown.covers(shapely.Point(-99.9, 5.0)), grown.covers(shapely.Point(-100.0, 5.0))
    (True, False)
    """
    distance = spacing - _COVER_HAIR_MM
    grown = []
    for shape in shapes:
        coords = np.asarray(shapely.get_coordinates(shape))
        if len(coords) > MAX_REGION_VERTICES + 1:
            # Growing a long jagged outline whole takes GEOS gigabytes; disks round some
            # of its own vertices are inside the grown outline too, and cheap.
            step = math.ceil(len(coords) / MAX_REGION_VERTICES)
            shape = shapely.multipoints(coords[::step])
        grown.append(shapely.buffer(shape, distance, quad_segs=_COVER_QUAD_SEGS))
    return grown


def _no_legal_move(
    polygon: shapely.Geometry,
    box: FloatArray,
    others: Sequence[shapely.Geometry],
    grown: Sequence[shapely.Geometry],
    tree: shapely.STRtree,
    spacing: float,
) -> bool:
    """Stage 0: whether the grown obstacles, shifted back, cover every move of `box`.

    True proves the fix null. False says only that this cover did not show it, early
    when a move the cover leaves is found legal by exact distances.
    """
    x0, y0, x1, y1 = box
    min_x, min_y, max_x, max_y = polygon.bounds
    # Only obstacles within the spacing limit of where the outline can go matter.
    swept = shapely.box(min_x + x0, min_y + y0, max_x + x1, max_y + y1)
    near = [int(i) for i in tree.query(swept, predicate="dwithin", distance=spacing)]
    if not near:
        return False
    array = np.asarray(others, dtype=object)[near]
    points = np.asarray(shapely.get_coordinates(polygon))
    step = max(1, math.ceil(len(points) / _COVER_POINTS))
    # Exact distances between long outlines near the line cost GEOS every edge pair
    # (a quarter of a second at 10,000 vertices): there, only the shifts are tried.
    exact = len(points) + max(shapely.get_num_coordinates(array)) <= 4 * MAX_REGION_VERTICES
    if exact:
        # Before the union: a legal move at a corner, a side's middle or the centre of
        # the box ends the attempt for the price of a few distances.
        xs, ys = np.meshgrid([x0, (x0 + x1) / 2, x1], [y0, (y0 + y1) / 2, y1])
        tries = [
            shapely.transform(polygon, lambda xy, v=v: xy + v)
            for v in np.column_stack([xs.ravel(), ys.ravel()])
        ]
        close = shapely.dwithin(np.asarray(tries, dtype=object)[:, None], array[None, :], spacing)
        if not np.all(np.any(close, axis=1)):
            return False
    cover = shapely.union_all([grown[i] for i in near])
    left = shapely.box(x0, y0, x1, y1)
    for point in points[::step]:
        left = shapely.difference(left, shapely.transform(cover, lambda xy, p=point: xy - p))
        if left.is_empty:
            return True
        if exact:
            # A move left over that is legal ends the attempt: stage 1 will find one.
            v = np.asarray(shapely.get_coordinates(shapely.point_on_surface(left))[0])
            moved = shapely.transform(polygon, lambda xy, v=v: xy + v)
            if not np.any(shapely.dwithin(moved, array, spacing)):
                return False
    return False


def _coarse(polygon: shapely.Geometry) -> tuple[shapely.Geometry, float]:
    """Return `polygon` simplified to at most MAX_REGION_VERTICES, and the tolerance."""
    count = len(shapely.get_coordinates(polygon))
    if count <= MAX_REGION_VERTICES + 1:
        return polygon, 0.0
    minx, miny, maxx, maxy = polygon.bounds
    tolerance = max(maxx - minx, maxy - miny) * 1e-4
    while True:
        simple = shapely.simplify(polygon, tolerance, preserve_topology=True)
        if len(shapely.get_coordinates(simple)) <= MAX_REGION_VERTICES + 1:
            return simple, tolerance
        tolerance *= 2.0


def _triangles(polygon: shapely.Geometry) -> list[shapely.Geometry]:
    parts = shapely.get_parts(shapely.constrained_delaunay_triangles(polygon))
    return [p for p in parts if p.area > 0.0]


@functools.lru_cache(maxsize=4096)
def _convex_pieces(wkb: bytes) -> tuple[FloatArray, ...]:
    """Cut a polygon into few convex pieces (triangles merged while the union stays convex).

    Few pieces make the Minkowski sum cheap: it is the union of the convex hulls of the
    pieces' pairwise vertex sums.
    """
    polygon = shapely.from_wkb(wkb)
    left = _triangles(polygon)
    pieces: list[FloatArray] = []
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
                    piece = hull
                    del left[k]
                    grown = True
                    break
        pieces.append(np.asarray(shapely.get_coordinates(piece)[:-1], dtype=np.float64))
    return tuple(pieces)


@functools.lru_cache(maxsize=4096)
def _stacked_pieces(wkb: bytes) -> tuple[FloatArray, npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Return a polygon's convex pieces' vertices one after another, each piece's start and size."""
    pieces = _convex_pieces(wkb)
    sizes = np.array([len(p) for p in pieces], dtype=np.intp)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.intp)
    return np.concatenate(pieces), starts, sizes


def _pair_sums(wkb_a: bytes, wkb_b: bytes) -> tuple[FloatArray, npt.NDArray[np.intp]]:
    """Return every pair of pieces' vertex sums one pair after another, and each sum's pair.

    Pairs in the order piece of `a`, then piece of `b`; within a pair, a vertex of `a`,
    then a vertex of `b`: the very additions, in the very order, of a loop over the pairs.
    """
    points_a, starts_a, sizes_a = _stacked_pieces(wkb_a)
    points_b, starts_b, sizes_b = _stacked_pieces(wkb_b)
    piece_a = np.repeat(np.arange(len(sizes_a)), len(sizes_b))
    piece_b = np.tile(np.arange(len(sizes_b)), len(sizes_a))
    counts = sizes_a[piece_a] * sizes_b[piece_b]
    owner = np.repeat(np.arange(len(counts)), counts)
    first = np.concatenate([[0], np.cumsum(counts)[:-1]])
    within = np.arange(int(counts.sum())) - first[owner]
    width = sizes_b[piece_b][owner]
    index_a = starts_a[piece_a][owner] + within // width
    index_b = starts_b[piece_b][owner] + within % width
    return points_a[index_a] + points_b[index_b], owner


def _sum(a: shapely.Geometry, b: shapely.Geometry) -> shapely.Geometry:
    """Return the Minkowski sum of two polygons, from their convex pieces."""
    # Every pair's hull in one vectorised call: the points of all pairs, each tagged
    # with its pair. GEOS takes a hull from a geometry's coordinates in order, whatever
    # holds them: a line through a pair's points gives the very hull a multipoint of
    # them gives, without a point object per point (half the cost).
    points, owner = _pair_sums(shapely.to_wkb(a), shapely.to_wkb(b))
    hulls = shapely.convex_hull(shapely.linestrings(points, indices=owner))
    return shapely.union_all(hulls)


#: The third part of the `cache` key of a sum not yet grown: no grown sum has a negative
#: growth (the spacing limit plus a clearance).
_UNGROWN = -1.0


def _cached_sum(
    a: shapely.Geometry,
    b: shapely.Geometry,
    cache: dict[tuple[bytes, bytes, float], shapely.Geometry],
) -> shapely.Geometry:
    """Return :func:`_sum` of `a` and `b`, once per table for the same two exact polygons.

    The shortest fix and the placeable fix of an obstacle grow the same sums by different
    distances; the sum itself, most of the cost, is built once. Keyed by the polygons'
    exact bytes, so the sum is the very one each would build.
    """
    key = (shapely.to_wkb(a), shapely.to_wkb(b), _UNGROWN)
    found = cache.get(key)
    if found is None:
        found = cache[key] = _sum(a, b)
    return found


def _shape_key(polygon: shapely.Geometry) -> tuple[bytes, FloatArray]:
    """Return a polygon's shape (its vertices from its lower-left corner) and that corner."""
    coords = np.asarray(shapely.get_coordinates(polygon), dtype=np.float64)
    corner = coords.min(axis=0)
    return np.round(coords - corner, 9).tobytes(), corner


def _grown(region: shapely.Geometry, distance: float) -> shapely.Geometry:
    # GEOS cuts a rounded corner into chords of up to twice the nominal angle, so a radius
    # of r / cos(pi / (2 * quad_segs)) keeps every chord outside the true circle of r.
    radius = distance / math.cos(math.pi / (2 * _QUAD_SEGS))
    return shapely.buffer(region, radius, quad_segs=_QUAD_SEGS)


def _move_box(polygon: shapely.Geometry, limits: PlacementLimits, clearance: float) -> FloatArray:
    """Return the legal moves by the edge and setup-area rules: ``[x0, y0, x1, y1]``."""
    return np.array(limits.move_box(polygon.bounds, clearance))


def _stage_one(
    polygon: shapely.Geometry,
    box: FloatArray,
    others: Sequence[shapely.Geometry],
    tree: shapely.STRtree | None,
    spacing: float,
    clearance: float,
    cache: dict[tuple[bytes, bytes, float], shapely.Geometry],
) -> FloatArray | None:
    """Return a legal move near the shortest one (stage 1), or None when none exists.

    `cache` holds grown sums by the two outlines' shapes (each moved to its lower-left
    corner): a table of alike tokens at alike angles builds each sum once.
    """
    x0, y0, x1, y1 = box
    whole = shapely.box(x0, y0, x1, y1)
    # The farthest legal move is at most the box's far corner: past that, give up.
    reach = float(np.max(np.hypot([x0, x1, x0, x1], [y0, y0, y1, y1]))) + 1.0
    base = shapely.Point(0.0, 0.0)
    mine, tolerance_mine = _coarse(polygon)
    mine_key, mine_corner = _shape_key(mine)
    reflected = shapely.transform(mine, lambda xy: -(xy - mine_corner))
    sums: dict[int, shapely.Geometry] = {}
    radius = 1.0
    if len(others) and tree is not None:
        _, gap = tree.query_nearest(polygon, return_distance=True, all_matches=False)
        radius = max(radius, 2.0 * float(spacing - float(np.min(gap))))
    radius = max(radius, 2.0 * float(max(x0, y0, -x1, -y1, 0.0)))
    while True:
        radius = min(radius, reach)
        disk = shapely.buffer(base, radius, quad_segs=16)
        region = shapely.intersection(whole, disk)
        near: list[int] = []
        if tree is not None and not region.is_empty:
            near = [
                int(i) for i in tree.query(polygon, predicate="dwithin", distance=spacing + radius)
            ]
        forbidden = []
        for i in near:
            if i not in sums:
                other, tolerance_other = _coarse(others[i])
                grow = spacing + clearance + tolerance_mine + tolerance_other
                other_key, other_corner = _shape_key(other)
                key = (other_key, mine_key, grow)
                if key not in cache:
                    local = shapely.transform(other, lambda xy, c=other_corner: xy - c)
                    cache[key] = _grown(_cached_sum(local, reflected, cache), grow)
                shift = other_corner - mine_corner
                sums[i] = shapely.transform(cache[key], lambda xy, d=shift: xy + d)
            forbidden.append(sums[i])
        if forbidden and not region.is_empty:
            region = shapely.difference(region, shapely.union_all(forbidden))
        if not region.is_empty:
            if shapely.contains(region, base):
                return np.zeros(2)
            return np.asarray(shapely.get_coordinates(shapely.shortest_line(base, region))[1])
        if radius >= reach:
            return None
        radius *= 2.0


def _shortest_obeying(lines: Sequence[tuple[FloatArray, float]]) -> FloatArray | None:
    """Return the shortest ``v`` with ``n . v >= b`` for every ``(n, b)``, or None if none.

    In two dimensions the answer is the origin, the foot on one line, or the corner of
    two lines: every candidate is tried and the shortest one obeying all lines kept.
    """
    candidates = [np.zeros(2)]
    for n, b in lines:
        candidates.append(n * (b / float(n @ n)))
    for (n1, b1), (n2, b2) in itertools.combinations(lines, 2):
        matrix = np.array([n1, n2])
        det = float(np.linalg.det(matrix))
        if abs(det) > 1e-12:
            candidates.append(np.linalg.solve(matrix, np.array([b1, b2])))
    best: FloatArray | None = None
    for v in candidates:
        # Only a shorter candidate can take the place of the best: test its lines then.
        if best is None or float(v @ v) < float(best @ best):
            if all(float(n @ v) >= b - 1e-12 for n, b in lines):
                best = v
    return best


class _TrialMoves:
    """The outline at the trial moves of stage 2, measured exactly against the others."""

    def __init__(
        self,
        polygon: shapely.Geometry,
        box: FloatArray,
        others: Sequence[shapely.Geometry],
        tree: shapely.STRtree | None,
        target: float,
        *,
        remember: bool,
    ) -> None:
        self.box = box
        self.others = np.asarray(others, dtype=object)
        self.tree = tree
        self.target = target
        # The outline's coordinates, moved by numpy as shapely.transform moves them (the
        # same additions), without its copies and call per move.
        self.coords = np.asarray(shapely.get_coordinates(polygon))
        self.holder = np.array([polygon], dtype=object)
        # Late in a bisection the step falls below the coordinates' last bit and its
        # trial moves round to moves already tried: each exact move's answer is kept.
        self.known: dict[bytes, bool] | None = {} if remember else None

    def moved(self, v: FloatArray) -> shapely.Geometry:
        shapely.set_coordinates(self.holder, self.coords + v)
        return self.holder[0]

    def within_reach(self, shape: shapely.Geometry, reach: float) -> list[int]:
        if self.tree is None:
            return []
        return [int(i) for i in self.tree.query(shape, predicate="dwithin", distance=reach)]

    def legal(self, v: FloatArray) -> bool:
        """Whether move `v` obeys the edge box and the spacing limit."""
        x0, y0, x1, y1 = self.box
        if not (x0 <= v[0] <= x1 and y0 <= v[1] <= y1):
            return False
        key = np.asarray(v, dtype=np.float64).tobytes()
        answer = None if self.known is None else self.known.get(key)
        if answer is None:
            shape = self.moved(v)
            near = self.within_reach(shape, self.target)
            gaps = shapely.distance(shape, self.others[near]) if near else None
            answer = gaps is None or bool(np.min(gaps) >= self.target)
            if self.known is not None:
                self.known[key] = answer
        return answer

    def cuts(self, v: FloatArray) -> dict[int, tuple[FloatArray, float]]:
        """Each near obstacle's distance rule, linearised at `v`, by obstacle."""
        shape = self.moved(v)
        near = self.within_reach(shape, self.target + _NEAR_MM)
        if not near:
            return {}
        lines = shapely.get_coordinates(shapely.shortest_line(shape, self.others[near]))
        found = {}
        for k, i in enumerate(near):
            delta = lines[2 * k] - lines[2 * k + 1]
            gap = float(np.hypot(*delta))
            if gap <= EPSILON_MM:
                continue
            n = delta / gap
            found[i] = (n, self.target - gap + float(n @ v))
        return found


def _refine(
    polygon: shapely.Geometry,
    start: FloatArray,
    box: FloatArray,
    others: Sequence[shapely.Geometry],
    tree: shapely.STRtree | None,
    spacing: float,
    clearance: float,
    *,
    remember: bool = True,
) -> FloatArray:
    """Stage 2: from the legal move `start`, the shortest legal move near it, exactly.

    With `remember`, each trial move's legality is kept and a move tried again (late in
    a bisection the trial moves round to moves already tried) is not measured again:
    the same answers, as ``remember=False`` shows by measuring every trial.
    """
    x0, y0, x1, y1 = box
    box_lines = [
        (np.array([1.0, 0.0]), x0),
        (np.array([0.0, 1.0]), y0),
        (np.array([-1.0, 0.0]), -x1),
        (np.array([0.0, -1.0]), -y1),
    ]
    trials = _TrialMoves(polygon, box, others, tree, spacing + clearance, remember=remember)
    legal, cuts = trials.legal, trials.cuts
    best = np.asarray(start, dtype=np.float64)
    # One linearisation per obstacle, the latest: the legal side of a round corner is
    # the union of its tangent half-planes, not their intersection.
    latest: dict[int, tuple[FloatArray, float]] = {}
    for _ in range(_MAX_STEPS):
        latest.update(cuts(best))
        step = _shortest_obeying([*box_lines, *latest.values()])
        if step is None or float(np.hypot(*step)) >= float(np.hypot(*best)) - 1e-9:
            break
        if legal(step):
            best = step
            continue
        # Overshot onto another rule: back along the step to the last legal point,
        # and learn that rule where the step crossed it.
        lo, hi = 0.0, 1.0
        for _ in range(50):
            mid = (lo + hi) / 2.0
            if legal(best + mid * (step - best)):
                lo = mid
            else:
                hi = mid
        crossing = cuts(best + hi * (step - best))
        known = cuts(best)  # once, not once per crossing rule: the same answer each time
        latest.update({i: line for i, line in crossing.items() if i not in known})
        if lo <= 0.0:
            continue
        best = best + lo * (step - best)
    return best


def shortest_fix(
    polygon: shapely.Geometry,
    others: Sequence[shapely.Geometry],
    limits: PlacementLimits,
    *,
    tree: shapely.STRtree | None = None,
    clearance: float = FIX_CLEARANCE_MM,
    cache: dict[tuple[bytes, bytes, float], shapely.Geometry] | None = None,
    grown: Sequence[shapely.Geometry] | None = None,
) -> FloatArray | None:
    """Return the shortest move ``(dx, dy)`` that makes a placement legal, or None.

    Parameters
    ----------
    polygon : shapely.Polygon
        The obstacle, placed.
    others : sequence of shapely polygons
        Every other obstacle, placed.
    limits : PlacementLimits
        The placement rules.
    tree : shapely.STRtree, optional
        An index of `others` (built when not given).
    clearance : float
        How far past the nearest line the move lands, mm.
    cache : dict, optional
        Forbidden regions already built, shared between the fixes of one table.
    grown : sequence of shapely polygons, optional
        `others` grown by :func:`grown_by_spacing` (built when not given), shared
        between the fixes of one table.

    Returns
    -------
    ndarray of shape (2,) or None
        The move (zeros when the placement is already legal), or None when no position
        at this rotation is legal.
    """
    box = _move_box(polygon, limits, clearance)
    if not (box[0] < box[2] and box[1] < box[3]):
        return None
    if len(others) and tree is None:
        tree = shapely.STRtree(np.asarray(others, dtype=object))
    if len(others) and tree is not None:
        if grown is None:
            grown = grown_by_spacing(others, limits.spacing)
        if _no_legal_move(polygon, box, others, grown, tree, limits.spacing):
            return None
    start = _stage_one(
        polygon,
        box,
        others,
        tree if len(others) else None,
        limits.spacing,
        clearance,
        {} if cache is None else cache,
    )
    if start is None:
        return None
    move = _refine(
        polygon, start, box, others, tree if len(others) else None, limits.spacing, clearance
    )
    move[np.abs(move) < 1e-9] = 0.0
    return np.asarray(move, dtype=np.float64)
