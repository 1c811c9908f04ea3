"""X-Wing firing arcs and attack range.

Arc lines are rays from the base centre at ± the ruleset's half-angle for the base size
(``xwing_arc_half_angles``). The front arc lies between them ahead of the ship, the rear
arc is its mirror, left and right are the rest; full front and full rear are the
half-planes split by the line through the base centre perpendicular to the heading; the
bullseye is a strip ``xwing_bullseye_width`` wide on the heading from the front edge to
the range-3 line beyond it. An object is in an arc when any part of it lies in the arc
region outside the attacker's own base, arc lines included.

Examples
--------
>>> import numpy as np
>>> from geom.rulesets import get_ruleset
>>> from geom.shapes import base_footprint, world_polygon
>>> xw = get_ruleset("xwing2")
>>> target = world_polygon(base_footprint(xw, "small").outline, [0.0, 200.0, 270.0])
>>> shot = attack_range(xw, [0.0, 0.0, 90.0], "small", target, "front")
>>> shot.in_arc, float(shot.distance)
(True, 160.0)
>>> attack_range(xw, [0.0, 0.0, 90.0], "small", target, "rear").in_arc
False
"""

from __future__ import annotations

import dataclasses as _dc
import functools as _functools
import math as _math

import numpy as np
import shapely
from numpy.typing import ArrayLike, NDArray

from geom.errors import InvalidInputError
from geom.measure import closest_points
from geom.poses import FloatArray, as_poses
from geom.rulesets import Ruleset
from geom.shapes import base_footprint, rectangle, world_polygon, world_polygons
from geom.tolerance import EPSILON_MM

__all__ = [
    "FAR_MM",
    "XWING_ARCS",
    "AttackRange",
    "arc_region_outline",
    "attack_range",
    "parse_xwing_arc",
    "targets_in_arc",
]

#: The X-Wing arc names accepted by ``measure --arc``.
XWING_ARCS: tuple[str, ...] = (
    "front",
    "rear",
    "left",
    "right",
    "full-front",
    "full-rear",
    "bullseye",
)

#: How far unbounded arcs are drawn, mm: beyond any scene (coordinates are within ±10^6).
FAR_MM = 1.0e7


def parse_xwing_arc(arc: str) -> str:
    """Return `arc` if it is an X-Wing arc name, else raise listing the accepted names.

    Examples
    --------
    >>> parse_xwing_arc("bullseye")
    'bullseye'
    >>> parse_xwing_arc("side")
    Traceback (most recent call last):
    ...
    geom.errors.InvalidInputError: unknown arc 'side'; expected one of: front, rear, left, right, full-front, full-rear, bullseye
    """
    if arc not in XWING_ARCS:
        raise InvalidInputError(f"unknown arc {arc!r}; expected one of: " + ", ".join(XWING_ARCS))
    return arc


@_functools.lru_cache(maxsize=256)
def _region(
    arc: str, half_angle: float, width: float, length: float, bullseye: tuple[float, float]
) -> FloatArray:
    a = _math.radians(half_angle)
    s, c = FAR_MM * _math.sin(a), FAR_MM * _math.cos(a)
    if arc == "front":
        wedge = [(0.0, 0.0), (s, c), (-s, c)]
    elif arc == "rear":
        wedge = [(0.0, 0.0), (-s, -c), (s, -c)]
    elif arc == "right":
        wedge = [(0.0, 0.0), (s, -c), (s, c)]
    elif arc == "left":
        wedge = [(0.0, 0.0), (-s, c), (-s, -c)]
    elif arc == "full-front":
        wedge = [(-FAR_MM, 0.0), (FAR_MM, 0.0), (FAR_MM, FAR_MM), (-FAR_MM, FAR_MM)]
    elif arc == "full-rear":
        wedge = [(-FAR_MM, -FAR_MM), (FAR_MM, -FAR_MM), (FAR_MM, 0.0), (-FAR_MM, 0.0)]
    else:  # bullseye: starts at the front edge, so the base is already outside it
        strip_width, strip_length = bullseye
        return rectangle(strip_width, strip_length, (0.0, length / 2.0 + strip_length / 2.0))
    region = shapely.Polygon(wedge).difference(shapely.Polygon(rectangle(width, length)))
    region = shapely.orient_polygons(region)
    return np.asarray(region.exterior.coords, dtype=np.float64)[:-1]


def arc_region_outline(ruleset: Ruleset, base: str, arc: str) -> FloatArray:
    """Return the region of `arc` outside the base, in the ship frame, as ``(k, 2)`` vertices.

    Unbounded arcs are cut at :data:`FAR_MM`. The array is shared (cached) and read-only.
    """
    parse_xwing_arc(arc)
    width, length = ruleset.base_size(base)
    outline = _region(
        arc,
        ruleset.arc_half_angle(base),
        width,
        length,
        (ruleset.xwing_bullseye_width, ruleset.xwing_range_bands[2]),
    )
    outline.flags.writeable = False  # a caller writing into it would corrupt the cache
    return outline


#: How far from an arc region a target may lie and still meet it grown by the length
#: tolerance: twice the mitre limit (shapely's default, 5) of that growth.
_CLOSED_REACH_MM = 10.0 * EPSILON_MM


@_dc.dataclass(frozen=True, eq=False)
class AttackRange:
    """An attack measured from an arc.

    Attributes
    ----------
    in_arc : bool
        Whether any part of the target lies in the arc region.
    distance : float
        Attack range in mm: from the attacker's base to the in-arc part of the target;
        when the target is not in the arc, the plain distance.
    points : ndarray of shape (2, 2)
        The closest points that gave `distance` (attacker first).
    target_part : shapely geometry
        The part of the target inside the arc (empty when not in arc).
    """

    in_arc: bool
    distance: float
    points: FloatArray
    target_part: shapely.Geometry


def attack_range(
    ruleset: Ruleset,
    attacker_pose: ArrayLike,
    attacker_base: str,
    target: shapely.Geometry,
    arc: str,
    *,
    attacker_polygon: shapely.Geometry | None = None,
) -> AttackRange:
    """Measure attack range from an X-Wing ship's arc to a target outline (world frame).

    Parameters
    ----------
    ruleset : Ruleset
        An X-Wing ruleset.
    attacker_pose : array_like of shape (3,)
        The attacker's ``(x, y, heading)``.
    attacker_base : str
        The attacker's base name.
    target : shapely geometry
        The defender's base without guides, in the world frame.
    arc : str
        One of :data:`XWING_ARCS`.
    attacker_polygon : shapely geometry, optional
        The attacker's base placed at `attacker_pose` where the caller has it already
        (built as :func:`~geom.shapes.world_polygon` builds it); else it is built here.
    """
    region = world_polygon(arc_region_outline(ruleset, attacker_base, arc), attacker_pose)
    base = attacker_polygon
    if base is None:
        base = world_polygon(base_footprint(ruleset, attacker_base).outline, attacker_pose)
    outside = _outside(target, base)
    part = shapely.intersection(outside, region)
    if part.is_empty and shapely.distance(outside, region) <= _CLOSED_REACH_MM:
        # Within the length tolerance of an arc line is on it, and on it is in the arc.
        # (The grown region reaches no farther than the mitre limit of 5 tolerances: a
        # target farther off cannot meet it, and growing the region is the dear step.)
        part = shapely.intersection(outside, _closed(region))
    in_region = not part.is_empty
    measured = part if in_region else target
    d, points = closest_points(base, measured)
    return AttackRange(in_region, float(d), points, part)


def targets_in_arc(
    ruleset: Ruleset,
    attacker_poses: ArrayLike,
    attacker_base: str,
    targets: ArrayLike,
    arc: str,
) -> NDArray[np.bool_]:
    """Return whether each target geometry lies partly in the arc of each pose (array-first).

    Examples
    --------
    >>> import numpy as np
    >>> from geom.rulesets import get_ruleset
    >>> from geom.shapes import base_footprint, world_polygons
    >>> xw = get_ruleset("xwing2")
    >>> poses = np.array([[0.0, 0.0, 90.0], [0.0, 0.0, 270.0]])
    >>> targets = world_polygons(base_footprint(xw, "small").outline, [[0.0, 200.0, 0.0]])
    >>> targets_in_arc(xw, poses, "small", targets, "front").tolist()
    [True, False]
    """
    poses = np.atleast_2d(as_poses(attacker_poses))
    regions = world_polygons(arc_region_outline(ruleset, attacker_base, arc), poses)
    bases = world_polygons(base_footprint(ruleset, attacker_base).outline, poses)
    return np.asarray(
        shapely.intersects(_closed(regions), _outside(targets, bases)), dtype=np.bool_
    )


def _closed(regions: ArrayLike) -> FloatArray:
    """Grow arc regions by the length tolerance: a target on an arc line is in the arc."""
    return np.asarray(shapely.buffer(regions, EPSILON_MM, join_style="mitre"))


def _outside(targets: ArrayLike, bases: ArrayLike) -> FloatArray:
    """Return the part of each target outside the attacker's base (arcs are beyond the base)."""
    return np.asarray(shapely.difference(targets, bases))
