"""Where a bumped ship stops: the last position along its pose path that overlaps no ship.

A ship that would end overlapping a ship moves back along the template's pose path
(:class:`~tabletop.maneuvers.templates.PosePath`) until it overlaps none. The positions that
overlap form intervals of the path's progress; a free gap between two of them can be
far shorter than any fixed scan step, so the search never steps blindly. Going back
from an overlapping position, it steps by at most the depth of the overlap beyond the
length tolerance divided by the fastest any point of the base moves per millimetre of
progress: no point of the base then moves as far, so every position stepped over still
overlaps by more than the tolerance (conservative advancement). Where the overlap is
no deeper than that, it steps by :data:`BUMP_STEP_MM` of travel, less than half the
width of the tolerance band around any free position, so none is passed over. The
first free position found is then bisected against the overlapping one before it, to
1e-9 mm.

Examples
--------
>>> from tabletop.maneuvers.templates import PosePath, TemplateShape
>>> square = np.array([[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]])
>>> # On a straight every point moves 1 mm per mm, with the 25 % margin on the bound.
>>> round(path_speed(square, PosePath(TemplateShape("straight", 2), 20.0)), 6)
1.25
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import shapely

from tabletop.geom.poses import FloatArray, Millimetres
from tabletop.geom.tolerance import EPSILON_MM
from tabletop.maneuvers.templates import PosePath

__all__ = [
    "BUMP_STEP_MM",
    "CAREFUL_STEPS",
    "FALLBACK_SCAN_MM",
    "last_free_progress",
    "overlap_depth",
    "path_speed",
]

#: The smallest step of the backward search, in mm of travel of the fastest point of the
#: base: half the length tolerance, so the band of positions within the tolerance of a
#: free one (as wide as the tolerance on either side) is never stepped over.
BUMP_STEP_MM: Millimetres = EPSILON_MM / 2.0

#: Careful steps after which the search scans on at :data:`FALLBACK_SCAN_MM` instead.
CAREFUL_STEPS = 400
#: Step of that scan, mm of progress: only a base that has overlapped another by a
#: sliver for all those steps gets there, and only a gap shorter than this is missed.
FALLBACK_SCAN_MM: Millimetres = 0.01

#: Progress resolution at which the path's point speed is sampled, mm.
_SPEED_SAMPLE_MM = 0.05
#: Margin on the sampled speed: the speed varies smoothly along each piece of the path,
#: so the sampled maximum is within far less than this of the true one.
_SPEED_MARGIN = 1.25


def path_speed(outline: FloatArray, path: PosePath) -> float:
    """Return an upper bound of how far any point of `outline` moves per mm of progress.

    A rigid motion moves a point by an affine function of the point, whose length is
    greatest at a vertex, so the outline's vertices bound every point of the base.
    """
    count = max(2, int(np.ceil(path.length / _SPEED_SAMPLE_MM)) + 1)
    progress = np.linspace(0.0, path.length, count)
    poses = path.poses(progress)
    turn = np.radians(poses[:, 2])[:, None]
    # Each vertex in the path's frame at every sampled pose, shape (count, vertices).
    x = poses[:, :1] + outline[:, 0] * np.cos(turn) - outline[:, 1] * np.sin(turn)
    y = poses[:, 1:2] + outline[:, 0] * np.sin(turn) + outline[:, 1] * np.cos(turn)
    moved = np.hypot(np.diff(x, axis=0), np.diff(y, axis=0)).max(axis=1)
    step = path.length / (count - 1)
    return float(moved.max() / step) * _SPEED_MARGIN if step > 0.0 else 1.0


def overlap_depth(moving: shapely.Polygon, others: FloatArray) -> float:
    """Return a lower bound of how deep a point of `moving` lies inside one of `others`, mm.

    A point of the moving base at depth d inside another base (its distance to that
    base's boundary) stays inside it under any motion that moves no point as far as
    d, so the two still overlap. The points tried are the vertices of each overlap and
    a point inside it; any of them gives a true lower bound.
    """
    best = 0.0
    for other in others:
        part = shapely.intersection(moving, other)
        if part.is_empty or part.area <= 0.0:
            continue
        tried = np.vstack(
            [shapely.get_coordinates(part), shapely.get_coordinates(shapely.point_on_surface(part))]
        )
        depth = shapely.distance(shapely.points(tried), shapely.boundary(other))
        best = max(best, float(np.max(depth)))
    return best


def last_free_progress(
    polygon_at: Callable[[float], shapely.Polygon],
    hits_at: Callable[[shapely.Polygon], FloatArray],
    others: FloatArray,
    speed: float,
    total: Millimetres,
    hits_along: Callable[[FloatArray], FloatArray] | None = None,
) -> tuple[float, float, FloatArray | None]:
    """Search back from `total` for the last progress at which nothing is overlapped.

    Parameters
    ----------
    polygon_at : callable
        The moving base (with guides) at a progress.
    hits_at : callable
        Which of `others` a polygon overlaps, a bool array.
    others : ndarray of shapely polygons
        What the moving base may overlap.
    speed : float
        :func:`path_speed` of the base along its path.
    total : float
        The progress at the end of the path.
    hits_along : callable, optional
        Which of `others` the base overlaps at each of an array of progress values, a
        bool array ``(n, others)``; used for the fine scan once :data:`CAREFUL_STEPS`
        careful steps have not left the overlap.

    Returns
    -------
    low, high : float
        A free progress and the overlapping one just beyond it, 1e-9 mm apart (both
        ``total`` when the end is free, both 0 when even the start overlaps).
    hits : ndarray of bool or None
        What is overlapped at `high` (None when the end is free).
    """
    at = total
    moving = polygon_at(at)
    hits = hits_at(moving)
    if not hits.any():
        return total, total, None
    for _ in range(CAREFUL_STEPS):
        depth = overlap_depth(moving, others[hits])
        # Slightly less than (depth - tolerance) / speed: every position stepped over
        # still overlaps by more than the tolerance, so none of them is free.
        step = max(0.999 * (depth - EPSILON_MM), BUMP_STEP_MM) / speed
        before = max(at - step, 0.0)
        moving = polygon_at(before)
        before_hits = hits_at(moving)
        if not before_hits.any():
            break
        if before == 0.0:
            return 0.0, 0.0, before_hits
        at, hits = before, before_hits
    else:
        # A base sliding along another that it overlaps by a sliver keeps the careful
        # steps as short as the sliver is thin: scan on at FALLBACK_SCAN_MM instead.
        before, at, hits = _scan(polygon_at, hits_at, hits_along, at, hits)
        if before == at:
            return 0.0, 0.0, hits
    low, high, high_hits = before, at, hits
    while high - low > 1e-9:
        middle = 0.5 * (low + high)
        middle_hits = hits_at(polygon_at(middle))
        if middle_hits.any():
            high, high_hits = middle, middle_hits
        else:
            low = middle
    return low, high, high_hits


def _scan(
    polygon_at: Callable[[float], shapely.Polygon],
    hits_at: Callable[[shapely.Polygon], FloatArray],
    hits_along: Callable[[FloatArray], FloatArray] | None,
    at: float,
    hits: FloatArray,
) -> tuple[float, float, FloatArray]:
    """Scan back from `at` at :data:`FALLBACK_SCAN_MM`; return (free, overlapping, hits).

    Both progress values are 0 with the start's hits when the whole way back overlaps.
    """
    chunk = 256
    while at > 0.0:
        progress = np.maximum(at - FALLBACK_SCAN_MM * np.arange(1, chunk + 1), 0.0)
        if hits_along is not None:
            found = np.asarray(hits_along(progress), dtype=bool)
        else:
            found = np.array([hits_at(polygon_at(float(t))) for t in progress], dtype=bool)
        free = ~found.any(axis=1)
        if free.any():
            k = int(np.argmax(free))
            previous = at if k == 0 else float(progress[k - 1])
            previous_hits = hits if k == 0 else found[k - 1]
            return float(progress[k]), previous, previous_hits
        if progress[-1] == 0.0:
            return 0.0, 0.0, found[-1]
        at, hits = float(progress[-1]), found[-1]
    return 0.0, 0.0, hits
