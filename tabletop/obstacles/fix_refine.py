"""Stage 2 of the fix search: from a legal move, the shortest legal move near it, exactly.

From the move stage 1 found (:mod:`tabletop.obstacles.fixing`), the move is refined
with exact distances (shapely, on the true outlines): each nearby obstacle's distance,
linearised at the current point (a distance to a convex piece is convex, so the
linearised rule never allows an illegal move), the small quadratic problem "shortest
move obeying these lines" solved in closed form, and a bisection back onto the legal
side whenever a step overshoots.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import shapely

from tabletop.geom.poses import FloatArray
from tabletop.geom.tolerance import EPSILON_MM
from tabletop.obstacles.fix_regions import boxes_within

if TYPE_CHECKING:  # numpy.typing only for annotations: check's start-up leaves it out.
    import numpy.typing as npt

__all__ = ["refine"]

#: Stage 2 steps at most this many times.
_MAX_STEPS = 60
#: Distances (mm) within which a rule counts as near the current point in stage 2.
_NEAR_MM = 2.0
#: How much longer (relative, squared) than the best a corner's lower bound must be for
#: the corner to be skipped: far above the rounding of a 2 x 2 solve.
_FLOOR_MARGIN = 1e-6
#: How much wider (mm) than the limit stage 2 takes the boxes it compares, against rounding.
_BOX_HAIR_MM = 1e-6


def _shortest_obeying(lines: Sequence[tuple[FloatArray, float]]) -> FloatArray | None:
    """Return the shortest ``v`` with ``n . v >= b`` for every ``(n, b)``, or None if none.

    In two dimensions the answer is the origin, the foot on one line, or the corner of
    two lines: every candidate is tried, in that order, and the first shortest one
    obeying all lines kept.
    """
    best: FloatArray | None = None
    best_squared = math.inf

    def consider(v: FloatArray) -> None:
        nonlocal best, best_squared
        # Only a shorter candidate can take the place of the best: test its lines then.
        if best is None or float(v @ v) < best_squared:
            if all(float(n @ v) >= b - 1e-12 for n, b in lines):
                best, best_squared = v, float(v @ v)

    consider(np.zeros(2))
    for n, b in lines:
        consider(n * (b / float(n @ n)))
    for (n1, b1), (n2, b2) in itertools.combinations(lines, 2):
        # A corner lies on both lines, so it is at least as far from the origin as either
        # line: a corner that far cannot be shorter than the best, and is not solved for.
        floor = max(abs(b1) / math.hypot(*n1), abs(b2) / math.hypot(*n2))
        if floor * floor > best_squared * (1.0 + _FLOOR_MARGIN):
            continue
        matrix = np.array([n1, n2])
        det = float(np.linalg.det(matrix))
        if abs(det) > 1e-12:
            consider(np.linalg.solve(matrix, np.array([b1, b2])))
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
        # The others' boxes, and the outline's: an obstacle whose box is farther than
        # the limit from the moved outline's box is farther from the outline too.
        self.bounds = shapely.bounds(self.others).reshape(-1, 4)
        self.own_bounds = np.asarray(polygon.bounds, dtype=np.float64)

    def moved(self, v: FloatArray) -> shapely.Geometry:
        shapely.set_coordinates(self.holder, self.coords + v)
        return self.holder[0]

    def within_reach(self, shape: shapely.Geometry, reach: float) -> list[int]:
        if self.tree is None:
            return []
        return [int(i) for i in self.tree.query(shape, predicate="dwithin", distance=reach)]

    def boxes_within(self, v: FloatArray, reach: float) -> npt.NDArray[np.intp]:
        """Return the others whose boxes are within `reach` (and a hair) of the moved box."""
        box = self.own_bounds + np.array([v[0], v[1], v[0], v[1]])
        return np.flatnonzero(boxes_within(self.bounds, box, reach + _BOX_HAIR_MM))

    def legal(self, v: FloatArray) -> bool:
        """Whether move `v` obeys the edge box and the spacing limit."""
        x0, y0, x1, y1 = self.box
        if not (x0 <= v[0] <= x1 and y0 <= v[1] <= y1):
            return False
        key = np.asarray(v, dtype=np.float64).tobytes()
        answer = None if self.known is None else self.known.get(key)
        if answer is None:
            shape = self.moved(v)
            near = self.boxes_within(v, self.target)
            # Only the gaps under the limit decide; those the boxes let in besides are
            # over it, so the answer is the index query's to the bit.
            answer = not len(near) or bool(
                np.min(shapely.distance(shape, self.others[near])) >= self.target
            )
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


def refine(
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
