"""Stage 1 of the fix search: a legal move near the shortest one, from forbidden regions.

A move ``v`` of an outline ``A`` brings it within ``g`` of an obstacle ``O`` when ``v``
is in ``O ⊕ (−A)`` grown by ``g``: the obstacle's *forbidden region*. Cut into convex
pieces ``a_k`` and ``o_l``, that sum is the union of the convex hulls ``H_kl`` of the
pieces' pairwise vertex sums, so the region is the union of the hulls grown by ``g``.
Each grown hull here *contains* its true part (outlines of many vertices simplified and
grown by the simplification's tolerance; round corners cut into chords outside the true
circle), so a move outside every grown hull is legal.

The nearest such move within a disk needs only the few hulls that bound it, and a hull
is grown only when the search lands in it: the nearest move outside the hulls cut so far
is found; if it lies in another hull within reach (the deepest first), that hull is cut
too and the search runs again; else the move is the nearest outside every hull within
reach, as if all had been cut at once.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import shapely

from tabletop.geom.poses import FloatArray

if TYPE_CHECKING:  # numpy.typing only for annotations: check's start-up leaves it out.
    import numpy.typing as npt

__all__ = ["MAX_REGION_VERTICES", "HullCache", "boxes_within", "stage_one"]

#: Outlines with more vertices are simplified (and grown to contain the original) before
#: the forbidden regions of stage 1 are built, which bounds their time and memory; stage 2
#: measures on the true outlines whatever their size.
MAX_REGION_VERTICES = 64

#: Chords per quarter circle of a grown hull.
_QUAD_SEGS = 32
#: How far (mm) past a hull's reach a move is still asked whether it is in the hull.
_REACH_SLACK_MM = 1.0
#: The move that leaves an obstacle where it is.
_ORIGIN = shapely.Point(0.0, 0.0)


@dataclasses.dataclass
class HullCache:
    """The pair hulls of two outlines by their shapes (each from its lower-left corner).

    Shared between the fixes of one table: a table of alike tokens at alike angles sums
    and grows each hull once, and the shortest and the placeable fix of an obstacle
    share their sums.
    """

    #: The hulls by (obstacle's shape, reflected outline's shape).
    hulls: dict[tuple[bytes, bytes], npt.NDArray[np.object_]] = dataclasses.field(
        default_factory=dict
    )
    #: Each hull grown, by (the same two shapes, the growth in mm, the hull's index).
    grown: dict[tuple[bytes, bytes, float, int], shapely.Geometry] = dataclasses.field(
        default_factory=dict
    )
    #: Each outline's shape, by the outline object's identity (the outline is kept, so
    #: the identity is not reused while the cache lives).
    shapes: dict[int, tuple[shapely.Geometry, _Shape]] = dataclasses.field(default_factory=dict)

    def shape_of(self, outline: shapely.Geometry) -> _Shape:
        """Return an outline's shape, worked out once per table."""
        found = self.shapes.get(id(outline))
        if found is None:
            coarse, tolerance = _coarse(outline)
            key, corner = _shape_key(coarse)
            hull_area = float(shapely.area(shapely.convex_hull(coarse)))
            convex = hull_area - float(shapely.area(coarse)) <= 1e-9 * hull_area
            found = self.shapes[id(outline)] = (
                outline,
                _Shape(coarse, tolerance, key, corner, convex),
            )
        return found[1]


@dataclasses.dataclass(frozen=True)
class _Shape:
    """An outline as stage 1 sums it: simplified, and where from (its lower-left corner)."""

    #: The outline, simplified to at most MAX_REGION_VERTICES vertices.
    coarse: shapely.Geometry
    #: How far (mm) the simplification may have moved its edges.
    tolerance: float
    #: The simplified outline's vertices from its lower-left corner, as bytes.
    key: bytes
    #: That corner, mm.
    corner: FloatArray
    #: Whether it is convex (then it is one piece, and has one hull with any outline).
    convex: bool


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


@functools.lru_cache(maxsize=4096)
def _convex_pieces(wkb: bytes) -> tuple[FloatArray, ...]:
    """Cut a polygon into few convex pieces (triangles merged while the union stays convex).

    Few pieces make the Minkowski sum cheap: it is the union of the convex hulls of the
    pieces' pairwise vertex sums.
    """
    polygon = shapely.from_wkb(wkb)
    parts = shapely.get_parts(shapely.constrained_delaunay_triangles(polygon))
    left = [p for p in parts if p.area > 0.0]
    # Two pieces of a triangulation whose union is convex share a whole edge, so both its
    # ends: a triangle with fewer corners in common with the piece (any triangle it was
    # made of) cannot join it, and is not united to find out. A flat triangle left out
    # can leave two triangles sharing only part of an edge: then every pair is tried.
    shared_edges = len(left) == len(parts)
    corners = [{tuple(xy) for xy in shapely.get_coordinates(p).tolist()} for p in left]
    pieces: list[FloatArray] = []
    while left:
        piece, seen = left.pop(0), corners.pop(0)
        grown = True
        while grown:
            grown = False
            for k, other in enumerate(left):
                if shared_edges and len(seen & corners[k]) < 2:
                    continue
                if not shapely.intersects(piece, other):
                    continue
                hull = shapely.convex_hull(shapely.union(piece, other))
                if abs(hull.area - piece.area - other.area) <= 1e-9 * hull.area:
                    piece = hull
                    seen |= corners.pop(k)
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


def _shape_key(polygon: shapely.Geometry) -> tuple[bytes, FloatArray]:
    """Return a polygon's shape (its vertices from its lower-left corner) and that corner."""
    coords = np.asarray(shapely.get_coordinates(polygon), dtype=np.float64)
    corner = coords.min(axis=0)
    return np.round(coords - corner, 9).tobytes(), corner


def pair_hulls(a: shapely.Geometry, b: shapely.Geometry) -> npt.NDArray[np.object_]:
    """Return the convex hulls whose union is the Minkowski sum of two polygons."""
    # Every pair's hull in one vectorised call: the points of all pairs, each tagged
    # with its pair. GEOS takes a hull from a geometry's coordinates in order, whatever
    # holds them: a line through a pair's points gives the very hull a multipoint of
    # them gives, without a point object per point (half the cost).
    points, owner = _pair_sums(shapely.to_wkb(a), shapely.to_wkb(b))
    hulls: npt.NDArray[np.object_] = shapely.convex_hull(shapely.linestrings(points, indices=owner))
    return hulls


def boxes_within(bounds: FloatArray, box: FloatArray, reach: float) -> npt.NDArray[np.bool_]:
    """Return which boxes are within `reach` (mm, in x and in y) of `box`.

    Boxes are ``[min x, min y, max x, max y]``, one a row of `bounds`. A shape whose box
    is not within reach of another's box is farther than `reach` from it.

    Examples
    --------
    >>> boxes = np.array([[0.0, 0.0, 1.0, 1.0], [5.0, 0.0, 6.0, 1.0]])
    >>> boxes_within(boxes, np.array([2.0, 0.0, 3.0, 1.0]), 1.0).tolist()
    [True, False]
    """
    x0, y0, x1, y1 = box
    within: npt.NDArray[np.bool_] = (
        (bounds[:, 0] <= x1 + reach)
        & (bounds[:, 2] >= x0 - reach)
        & (bounds[:, 1] <= y1 + reach)
        & (bounds[:, 3] >= y0 - reach)
    )
    return within


def _grown(region: shapely.Geometry, distance: float) -> shapely.Geometry:
    # GEOS cuts a rounded corner into chords of up to twice the nominal angle, so a radius
    # of r / cos(pi / (2 * quad_segs)) keeps every chord outside the true circle of r.
    return shapely.buffer(region, _chord_radius(distance), quad_segs=_QUAD_SEGS)


def _chord_radius(distance: float) -> float:
    return distance / math.cos(math.pi / (2 * _QUAD_SEGS))


def stage_one(
    polygon: shapely.Geometry,
    box: FloatArray,
    others: Sequence[shapely.Geometry],
    tree: shapely.STRtree | None,
    spacing: float,
    clearance: float,
    cache: HullCache,
) -> FloatArray | None:
    """Return a legal move near the shortest one (stage 1), or None when none exists.

    Only obstacles within the spacing limit plus a search radius ``R`` can forbid a move
    shorter than ``R`` (a move of ``|v|`` changes a distance by at most ``|v|``); ``R``
    doubles until the legal moves within it are not none.
    """
    x0, y0, x1, y1 = box
    whole = shapely.box(x0, y0, x1, y1)
    # The farthest legal move is at most the box's far corner: past that, give up.
    reach = float(np.max(np.hypot([x0, x1, x0, x1], [y0, y0, y1, y1]))) + 1.0
    regions = _ForbiddenHulls(polygon, others, spacing, clearance, cache)
    radius = 1.0
    if len(others) and tree is not None:
        _, gap = tree.query_nearest(polygon, return_distance=True, all_matches=False)
        radius = max(radius, 2.0 * float(spacing - float(np.min(gap))))
    radius = max(radius, 2.0 * float(max(x0, y0, -x1, -y1, 0.0)))
    while True:
        radius = min(radius, reach)
        region = shapely.intersection(whole, shapely.buffer(_ORIGIN, radius, quad_segs=16))
        near: list[int] = []
        if tree is not None and not region.is_empty:
            near = [
                int(i) for i in tree.query(polygon, predicate="dwithin", distance=spacing + radius)
            ]
        move = regions.nearest_outside(region, near)
        if move is not None:
            return move
        if radius >= reach:
            return None
        radius *= 2.0


class _ForbiddenHulls:
    """The grown pair hulls of stage 1 for one outline, each grown when first needed."""

    def __init__(
        self,
        polygon: shapely.Geometry,
        others: Sequence[shapely.Geometry],
        spacing: float,
        clearance: float,
        cache: HullCache,
    ) -> None:
        self.polygon = polygon
        self.others = others
        self.spacing = spacing
        self.clearance = clearance
        self.cache = cache
        mine = cache.shape_of(polygon)
        self.mine, self.tolerance, self.key, self.corner = (
            mine.coarse,
            mine.tolerance,
            mine.key,
            mine.corner,
        )
        self.mine_convex = mine.convex
        self.reflected = shapely.transform(self.mine, lambda xy: -(xy - self.corner))
        self.placed: dict[int, npt.NDArray[np.object_]] = {}
        self.grown: dict[tuple[int, int], shapely.Geometry] = {}
        self.keys: dict[int, tuple[tuple[bytes, bytes], FloatArray]] = {}
        self.bounds: FloatArray | None = None
        self.widest: float | None = None
        # The hulls cut so far, in the order they were found: (obstacle, hull).
        self.chosen: list[tuple[int, int]] = []

    def shape(self, i: int) -> _Shape:
        return self.cache.shape_of(self.others[i])

    def _coarse_other(self, i: int) -> tuple[shapely.Geometry, float]:
        shape = self.shape(i)
        return shape.coarse, shape.tolerance

    def growth(self, i: int) -> float:
        """Return how far obstacle i's hulls are grown, mm: the limit and both simplifications."""
        return self.spacing + self.clearance + self.tolerance + self._coarse_other(i)[1]

    def reach(self, i: int) -> float:
        """Return a distance (mm) past which a moved outline is outside obstacle i's hulls."""
        tolerances = self.tolerance + self._coarse_other(i)[1]
        return _chord_radius(self.growth(i)) + tolerances + _REACH_SLACK_MM

    def _local(self, i: int) -> tuple[tuple[bytes, bytes], FloatArray]:
        """Return obstacle i's key in the cache and the shift from its shapes to the table."""
        found = self.keys.get(i)
        if found is None:
            shape = self.shape(i)
            key = (shape.key, self.key)
            if key not in self.cache.hulls:
                moved = shapely.transform(shape.coarse, lambda xy, c=shape.corner: xy - c)
                self.cache.hulls[key] = pair_hulls(moved, self.reflected)
            found = self.keys[i] = (key, shape.corner - self.corner)
        return found

    def hulls(self, i: int) -> npt.NDArray[np.object_]:
        """Return obstacle i's pair hulls, not grown, where the outline stands."""
        found = self.placed.get(i)
        if found is None:
            key, shift = self._local(i)
            local = self.cache.hulls[key]
            found = self.placed[i] = shapely.transform(local, lambda xy, d=shift: xy + d)
        return found

    def grown_hull(self, i: int, k: int) -> shapely.Geometry:
        found = self.grown.get((i, k))
        if found is None:
            (other_key, mine_key), shift = self._local(i)
            growth = self.growth(i)
            key = (other_key, mine_key, growth, k)
            local = self.cache.grown.get(key)
            if local is None:
                hull = self.cache.hulls[(other_key, mine_key)][k]
                local = self.cache.grown[key] = _grown(hull, growth)
            found = self.grown[(i, k)] = shapely.transform(local, lambda xy, d=shift: xy + d)
        return found

    def nearest_outside(self, region: shapely.Geometry, near: Sequence[int]) -> FloatArray | None:
        """Return the move of `region` nearest no move, outside every hull of the `near`.

        The hulls already cut from a smaller region stay cut (each is near still, the
        search radius only grows); more are cut each time the move lands in some.
        """
        wanted = set(near)
        cut = [pair for pair in self.chosen if pair[0] in wanted]
        if self._all_convex(near):
            # One hull an obstacle: each is cheap, and a crowd of them is crossed in one
            # cut rather than one landing at a time.
            fresh = [(i, 0) for i in near if (i, 0) not in set(cut)]
            cut.extend(fresh)
            self.chosen.extend(fresh)
        left = region
        if cut:
            left = shapely.difference(
                region, shapely.union_all([self.grown_hull(i, k) for i, k in cut])
            )
        while True:
            if left.is_empty:
                return None
            if shapely.contains(left, _ORIGIN):
                move = np.zeros(2)
            else:
                move = np.asarray(shapely.get_coordinates(shapely.shortest_line(_ORIGIN, left))[1])
            entered = self._entered(move, near, set(cut))
            if not entered:
                return move
            cut.extend(entered)
            self.chosen.extend(entered)
            grown = [self.grown_hull(*pair) for pair in entered]
            left = shapely.difference(
                left, grown[0] if len(grown) == 1 else shapely.union_all(grown)
            )

    def _entered(
        self, move: FloatArray, near: Sequence[int], cut: set[tuple[int, int]]
    ) -> list[tuple[int, int]]:
        """Return hulls not yet cut that contain `move` (touching counts): none, one or more.

        Nearest obstacle first, of each the moved outline is within the limit of, the hull
        the move is deepest in (one of its hulls must be cut before the move can leave its
        region), up to and with the first that is not convex: its hulls cost more to sum,
        and cutting one often moves the move out of the others. Else (the move is at most
        in the slack of a hull) the first such hull. The hulls of obstacles farther off
        are not even summed.
        """
        found: list[tuple[int, int]] = []
        if not near:
            return found
        point = shapely.Point(*move)
        for i, gap in self._gaps(move, near):
            if gap > self.reach(i) or (found and gap > self.growth(i)):
                break
            pair = self._deepest(i, point, cut)
            if pair is not None:
                found.append(pair)
                if gap > self.growth(i) or not self.shape(i).convex:
                    break
        return found

    def _all_convex(self, near: Sequence[int]) -> bool:
        """Return whether the outline and every `near` obstacle are convex (one hull each)."""
        return self.mine_convex and all(self.shape(i).convex for i in near)

    def _gaps(self, move: FloatArray, near: Sequence[int]) -> list[tuple[int, float]]:
        """Return (obstacle, gap) of the `near` the moved outline may be in reach of, nearest first.

        Obstacles whose boxes are farther than every reach from the moved
        outline's box are left out unmeasured: their gaps are farther still.
        """
        if self.bounds is None:
            self.bounds = shapely.bounds(np.asarray(self.others, dtype=object)).reshape(-1, 4)
        box = np.asarray(self.polygon.bounds) + np.array([*move, *move])
        chosen = np.asarray(near, dtype=np.intp)
        chosen = chosen[boxes_within(self.bounds[chosen], box, self.widest_reach())]
        if not len(chosen):
            return []
        moved = shapely.transform(self.polygon, lambda xy: xy + move)
        gaps = shapely.distance(moved, np.asarray(self.others, dtype=object)[chosen])
        order = np.argsort(gaps, kind="stable")
        return [(int(chosen[j]), float(gaps[j])) for j in order]

    def widest_reach(self) -> float:
        """Return a reach no obstacle's exceeds, mm (every simplification at its widest)."""
        if self.widest is None:
            # Only outlines of many vertices are simplified (and those few are measured).
            counts = shapely.get_num_coordinates(np.asarray(self.others, dtype=object))
            long = np.flatnonzero(counts > MAX_REGION_VERTICES + 1)
            most = max((self._coarse_other(int(i))[1] for i in long), default=0.0)
            worst = self.spacing + self.clearance + self.tolerance + most
            self.widest = _chord_radius(worst) + self.tolerance + most + _REACH_SLACK_MM
        return self.widest

    def _deepest(
        self, i: int, point: shapely.Geometry, cut: set[tuple[int, int]]
    ) -> tuple[int, int] | None:
        """Return obstacle i's hull not yet cut that contains `point`, the deepest, or None."""
        depths = shapely.distance(point, self.hulls(i)) - self.growth(i)
        limit = _chord_radius(self.growth(i)) - self.growth(i)
        for k in np.argsort(depths, kind="stable"):
            if depths[k] > limit:
                break
            pair = (i, int(k))
            if pair not in cut and shapely.intersects(self.grown_hull(*pair), point):
                return pair
        return None
