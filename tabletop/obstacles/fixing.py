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
   shortest move. A forbidden region is a union of grown convex hulls, and only the
   hulls the search lands in are grown and cut (:mod:`tabletop.obstacles.fix_regions`).
2. **Exactly.** From that point the move is refined with exact distances (shapely,
   on the true outlines): each nearby obstacle's distance, linearised at the current
   point (a distance to a convex piece is convex, so the linearised rule never allows
   an illegal move), the small quadratic problem "shortest move obeying these lines"
   solved in closed form, and a bisection back onto the legal side whenever a step
   overshoots (:mod:`tabletop.obstacles.fix_refine`). The result lands
   :data:`FIX_CLEARANCE_MM` past the nearest line.

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

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import shapely

from tabletop.geom.poses import FloatArray
from tabletop.obstacles import fix_refine
from tabletop.obstacles.fix_regions import MAX_REGION_VERTICES, HullCache, stage_one
from tabletop.obstacles.placement import PlacementLimits

#: Stage 2 (a name of this module, so a test can watch each refinement).
_refine = fix_refine.refine

if TYPE_CHECKING:  # numpy.typing only for annotations: check's start-up leaves it out.
    pass

__all__ = ["FIX_CLEARANCE_MM", "MAX_REGION_VERTICES", "grown_by_spacing", "shortest_fix"]

#: How far past the nearest line a fix lands, mm: the rules say "more than". Ten times the
#: length tolerance, so a move rounded to 10^-6 mm in JSON still lands past the line; and
#: small enough that where two lines meet at a shallow corner (the landing point slides
#: along one line by the clearance over the sine of the angle) the fix stays well inside
#: the 10^-3 mm it is held to.
FIX_CLEARANCE_MM = 1e-5

#: Stage 0 shifts the grown obstacles by at most this many points of the outline.
_COVER_POINTS = 24
#: How much less than the spacing limit stage 0 grows obstacles by, mm: far above the
#: rounding of a buffer's vertices, far below anything a fix is measured to.
_COVER_HAIR_MM = 1e-6
#: Stage 0 tries the moves of a grid of this many points a side over the box first.
_TRIES_PER_SIDE = 9
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
        # Before the union: a legal move at any point of a grid over the box ends the
        # attempt for the price of a few distances.
        xs, ys = np.meshgrid(
            np.linspace(x0, x1, _TRIES_PER_SIDE), np.linspace(y0, y1, _TRIES_PER_SIDE)
        )
        moves = np.column_stack([xs.ravel(), ys.ravel()])
        if shapely.get_num_interior_rings(polygon) == 0:
            # Every moved outline of one ring in one call.
            tries = shapely.polygons(points[None, :, :] + moves[:, None, :])
        else:
            tries = np.asarray([shapely.transform(polygon, lambda xy, v=v: xy + v) for v in moves])
        close = shapely.dwithin(tries[:, None], array[None, :], spacing)
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


def _move_box(polygon: shapely.Geometry, limits: PlacementLimits, clearance: float) -> FloatArray:
    """Return the legal moves by the edge and setup-area rules: ``[x0, y0, x1, y1]``."""
    return np.array(limits.move_box(polygon.bounds, clearance))


def shortest_fix(
    polygon: shapely.Geometry,
    others: Sequence[shapely.Geometry],
    limits: PlacementLimits,
    *,
    tree: shapely.STRtree | None = None,
    clearance: float = FIX_CLEARANCE_MM,
    cache: HullCache | None = None,
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
        The pair hulls of the forbidden regions already built
        (:data:`~tabletop.obstacles.fix_regions.HullCache`), shared between the fixes
        of one table.
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
    start = stage_one(
        polygon,
        box,
        others,
        tree if len(others) else None,
        limits.spacing,
        clearance,
        HullCache() if cache is None else cache,
    )
    if start is None:
        return None
    move = _refine(
        polygon, start, box, others, tree if len(others) else None, limits.spacing, clearance
    )
    move[np.abs(move) < 1e-9] = 0.0
    return np.asarray(move, dtype=np.float64)
