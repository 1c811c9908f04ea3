"""An Armada line of sight from hull zone to hull zone, traced against its blockers.

Re-exported by :mod:`tabletop.obstacles.obstruction`; imported with the first Armada
shot, since an X-Wing measurement never traces one.

Examples
--------
>>> import shapely
>>> traced = shapely.MultiLineString([[(0, 0), (10, 0)], [(90, 0), (100, 0)]])
>>> traced_clearance(traced, shapely.box(95, 0.5, 96, 3))
0.5
"""

from __future__ import annotations

import dataclasses as _dc
import math as _math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import shapely

from tabletop.geom.poses import FloatArray, to_world
from tabletop.geom.rulesets import Ruleset
from tabletop.geom.shapes import world_polygon
from tabletop.geom.tolerance import EPSILON_MM
from tabletop.obstacles.obstruction import segment_clearance

if TYPE_CHECKING:
    from tabletop.geom.hulls import HullArcs

__all__ = ["SightLine", "armada_sight_line", "traced_clearance"]


@_dc.dataclass(frozen=True, eq=False)
class SightLine:
    """An Armada line of sight.

    Attributes
    ----------
    points : ndarray of shape (2, 2)
        From the attacking targeting point to the defending one.
    line_of_sight : bool
        False when the line crosses another hull zone of the defender.
    blocked_by : list of int
        Indexes of the blockers the traced part meets.
    attacker_note, defender_note : str or None
        Where a targeting point was estimated (the centroid of the hull zone).
    traced : shapely geometry or None
        The part of the line outside the attacker's and defender's tokens (what can be
        obstructed).
    """

    points: FloatArray
    line_of_sight: bool
    blocked_by: list[int]
    attacker_note: str | None = None
    defender_note: str | None = None
    traced: shapely.Geometry | None = None


def armada_sight_line(
    ruleset: Ruleset,
    attacker_pose: FloatArray,
    attacker_base: str,
    attacker_arcs: HullArcs,
    zone: str,
    defender_pose: FloatArray,
    defender_base: str,
    defender_arcs: HullArcs | None,
    defending_zone: str | None,
    blockers: Sequence[shapely.Geometry],
) -> SightLine:
    """Trace line of sight from a hull zone to a hull zone (or a squadron's centre)."""
    # The hull tables load with the first Armada shot: an X-Wing measurement never uses them.
    from tabletop.geom.hulls import hull_token, targeting_point, zones_crossed

    tp_a, attacker_note = targeting_point(ruleset, attacker_base, attacker_arcs, zone)
    defender_note = None
    start = to_world(np.array([tp_a]), attacker_pose)[0]
    attacker_token = world_polygon(hull_token(ruleset, attacker_base), attacker_pose)
    if defender_arcs is None or defending_zone is None:
        end = np.asarray(defender_pose[:2], dtype=np.float64)
        radius = ruleset.armada_squadron_diameter / 2.0
        defender_token = shapely.Point(end).buffer(radius, quad_segs=64)
    else:
        tp_b, defender_note = targeting_point(ruleset, defender_base, defender_arcs, defending_zone)
        end = to_world(np.array([tp_b]), defender_pose)[0]
        defender_token = world_polygon(hull_token(ruleset, defender_base), defender_pose)
    line = shapely.LineString([start, end])
    # Through the interior of another hull zone (not along an arc line): no sight.
    crossed = (
        defender_arcs is not None
        and defending_zone is not None
        and bool(
            zones_crossed(
                ruleset, defender_pose, defender_base, defender_arcs, defending_zone, [start, end]
            )
        )
    )
    traced = shapely.difference(line, shapely.union(attacker_token, defender_token))
    blocked = (
        []
        if traced.is_empty
        else [i for i, b in enumerate(blockers) if shapely.dwithin(traced, b, EPSILON_MM)]
    )
    return SightLine(
        np.array([start, end]), not crossed, blocked, attacker_note, defender_note, traced
    )


def traced_clearance(traced: shapely.Geometry, blocker: shapely.Geometry) -> float:
    """Return how far a traced line of sight clears `blocker`, signed as :func:`segment_clearance`.

    The traced line is the straight sight line with the parts under the two tokens cut
    out: each remaining piece is a segment, and the least clearance of them counts.

    Examples
    --------
    >>> traced = shapely.MultiLineString([[(0, 0), (10, 0)], [(90, 0), (100, 0)]])
    >>> traced_clearance(traced, shapely.box(95, 0.5, 96, 3))
    0.5
    """
    clearances = [
        segment_clearance(shapely.get_coordinates(part)[[0, -1]], blocker)
        for part in shapely.get_parts(traced)
        if not part.is_empty
    ]
    return min(clearances) if clearances else _math.inf
