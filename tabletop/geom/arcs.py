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
>>> from tabletop.geom.rulesets import get_ruleset
>>> from tabletop.geom.shapes import base_footprint, world_polygon
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
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeAlias

import numpy as np
import shapely

from tabletop.geom.errors import InvalidInputError
from tabletop.geom.measure import closest_points
from tabletop.geom.poses import FloatArray, as_poses
from tabletop.geom.rulesets import Ruleset
from tabletop.geom.shapes import base_footprint, rectangle, world_polygon, world_polygons
from tabletop.geom.tolerance import EPSILON_MM

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

__all__ = [
    "FAR_MM",
    "XWING_ARCS",
    "AttackRange",
    "Shot",
    "arc_region_outline",
    "attack_range",
    "attack_ranges",
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
    tabletop.geom.errors.InvalidInputError: unknown arc 'side'; expected one of: front, rear, left, right, full-front, full-rear, bullseye
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
    outline = _region(*_region_key(ruleset, base, arc))
    outline.flags.writeable = False  # a caller writing into it would corrupt the cache
    return outline


_RegionKey = tuple[str, float, float, float, tuple[float, float]]


def _region_key(ruleset: Ruleset, base: str, arc: str) -> _RegionKey:
    """Return what an arc region depends on: the arguments of :func:`_region`."""
    parse_xwing_arc(arc)
    width, length = ruleset.base_size(base)
    bullseye = (ruleset.xwing_bullseye_width, ruleset.xwing_range_bands[2])
    return arc, ruleset.arc_half_angle(base), width, length, bullseye


@_functools.lru_cache(maxsize=1024)
def _placed_region(key: _RegionKey, x: float, y: float, heading: float) -> shapely.Polygon:
    """Place an arc region once per pose, as ``world_polygon`` does: one pose, many shots."""
    outline = _region(*key)
    return world_polygon(outline, np.array([x, y, heading], dtype=np.float64))


#: How far from an arc region a target may lie and still meet it grown by the length
#: tolerance: twice the mitre limit (shapely's default, 5) of that growth.
_CLOSED_REACH_MM = 10.0 * EPSILON_MM

#: The target's part in the arc when it has none (geometries are immutable: shared).
_EMPTY = shapely.Polygon()


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
        (built as :func:`~tabletop.geom.shapes.world_polygon` builds it); else it is built here.
    """
    key = _region_key(ruleset, attacker_base, arc)
    base = attacker_polygon
    if base is None:
        base = world_polygon(base_footprint(ruleset, attacker_base).outline, attacker_pose)
    if _clearly_outside(ruleset, attacker_pose, attacker_base, target, arc):
        # What the general path finds for such a target: no part in the region, none
        # within reach of the grown one, so the plain distance to the whole target.
        d, points = closest_points(base, target)
        return AttackRange(False, float(d), points, _EMPTY)
    px, py, heading = np.asarray(attacker_pose, dtype=np.float64).reshape(3).tolist()
    region = _placed_region(key, px, py, heading)
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


#: One shot of :func:`attack_ranges`: the ruleset, the attacker's pose ``(x, y, heading)``,
#: its base name, the target outline, the arc and the attacker's placed base.
Shot: TypeAlias = (
    "tuple[Ruleset, tuple[float, float, float], str, shapely.Geometry, str, shapely.Geometry]"
)


def attack_ranges(shots: Sequence[Shot]) -> list[AttackRange]:
    """Return :func:`attack_range` of each shot, the GEOS calls made over all shots at once.

    Each shot is ``attack_range(ruleset, pose, base, target, arc, attacker_polygon=placed)``
    (the attacker's `placed` base as :func:`~tabletop.geom.shapes.world_polygon` places
    it). The steps are that function's, each GEOS operation called once over the shots
    it concerns (GEOS computes each element alone, so every answer has the same bits); a
    shot whose target comes within the grown region's reach without meeting the region,
    rare, is measured by :func:`attack_range` itself.

    Examples
    --------
    >>> from tabletop.geom.rulesets import get_ruleset
    >>> xw = get_ruleset("xwing2")
    >>> base = base_footprint(xw, "small").outline
    >>> placed = world_polygon(base, [0.0, 0.0, 90.0])
    >>> target = world_polygon(base, [0.0, 200.0, 270.0])
    >>> shots = [(xw, (0.0, 0.0, 90.0), "small", target, arc, placed) for arc in ("front", "rear")]
    >>> [(r.in_arc, r.distance) for r in attack_ranges(shots)]
    [(True, 160.0), (False, 160.0)]
    """
    found: list[AttackRange | None] = [None] * len(shots)
    measured: dict[int, tuple[shapely.Geometry, bool, shapely.Geometry]] = {}
    general = []
    for k, (ruleset, pose, base, target, arc, _) in enumerate(shots):
        parse_xwing_arc(arc)
        if _clearly_outside(ruleset, pose, base, target, arc):
            measured[k] = (target, False, _EMPTY)
        else:
            general.append(k)
    if general:
        regions = []
        for k in general:
            ruleset, (x, y, heading), base, _, arc, _ = shots[k]
            regions.append(_placed_region(_region_key(ruleset, base, arc), x, y, heading))
        outsides = _outside([shots[k][3] for k in general], [shots[k][5] for k in general])
        parts = shapely.intersection(outsides, regions)
        for k, outside, region, part in zip(general, outsides, regions, parts, strict=True):
            if not part.is_empty:
                measured[k] = (part, True, part)
            elif shapely.distance(outside, region) > _CLOSED_REACH_MM:
                measured[k] = (shots[k][3], False, part)
    order = sorted(measured)
    lines = shapely.shortest_line([shots[k][5] for k in order], [measured[k][0] for k in order])
    ends = np.asarray(shapely.get_coordinates(lines), dtype=np.float64)
    if not shapely.is_missing(lines).any() and len(ends) == 2 * len(order):
        for k, points in zip(order, ends.reshape(-1, 2, 2), strict=True):
            (x0, y0), (x1, y1) = points.tolist()
            dx, dy = x1 - x0, y1 - y0
            # closest_points' one-pair arithmetic: numpy's norm, sqrt of the summed squares.
            _, in_region, part = measured[k]
            found[k] = AttackRange(in_region, _math.sqrt(dx * dx + dy * dy), points, part)
    return [
        attack_range(ruleset, pose, base, target, arc, attacker_polygon=placed)
        if shot is None
        else shot
        for shot, (ruleset, pose, base, target, arc, placed) in zip(found, shots, strict=True)
    ]


#: How much farther than the grown region's reach a target's every vertex must lie beyond
#: an arc's bounding line for the region not to be built, mm: far above the rounding of
#: a vertex placed or moved into the ship frame at the table's largest coordinates.
_OUTSIDE_MARGIN_MM = 1e-3


def _clearly_outside(
    ruleset: Ruleset, pose: ArrayLike, base: str, target: shapely.Geometry, arc: str
) -> bool:
    """Return whether `target` lies wholly beyond one line bounding `arc`'s region.

    The test is sufficient, not necessary: ``False`` decides nothing. Every vertex of the
    target moved into the ship frame must lie beyond the same line (a ray's line of a
    wedge narrower than a half-plane, the base line of a full arc, a side of the
    bullseye strip) by more than the grown region's reach and a margin; the region lies
    on the other side, so the target's part in it, and in it grown, is empty.
    """
    px, py, heading = np.asarray(pose, dtype=np.float64).reshape(3).tolist()
    theta = _math.radians(heading)
    s, c = _math.sin(theta), _math.cos(theta)
    _, length = ruleset.base_size(base)
    lines = _bounding_lines(
        arc,
        ruleset.arc_half_angle(base),
        length,
        ruleset.xwing_bullseye_width,
        ruleset.xwing_range_bands[2],
    )
    coords = shapely.get_coordinates(target).tolist()
    if not coords:
        return False
    for nx, ny, limit in lines:
        # The line's outward normal (nx, ny) in the ship frame (x to the right of the
        # heading, y along it, as to_world places), turned into the world.
        wx, wy = nx * s + ny * c, ny * s - nx * c
        reach = limit + wx * px + wy * py
        if all(wx * x + wy * y > reach for x, y in coords):
            return True
    return False


@_functools.lru_cache(maxsize=256)
def _bounding_lines(
    arc: str, half_angle: float, length: float, strip_width: float, strip_length: float
) -> tuple[tuple[float, float, float], ...]:
    """Return lines ``n . p > limit`` (unit ``n``, ship frame) beyond which `arc` cannot reach.

    The arguments are those of the region (:func:`arc_region_outline`).

    Each limit carries the grown region's reach and :data:`_OUTSIDE_MARGIN_MM`.
    """
    far = _CLOSED_REACH_MM + _OUTSIDE_MARGIN_MM
    if arc in ("front", "rear", "left", "right"):
        a = _math.radians(half_angle)
        ca, sa = _math.cos(a), _math.sin(a)
        # The rays leave the base centre at (+-sin a, cos a) (front): beyond a ray's
        # line, on the side away from the other ray, is outside the wedge.
        normals = {
            "front": [(ca, -sa), (-ca, -sa)],
            "rear": [(ca, sa), (-ca, sa)],
            "right": [(-ca, sa), (-ca, -sa)],
            "left": [(ca, sa), (ca, -sa)],
        }[arc]
        return tuple((nx, ny, far) for nx, ny in normals)
    if arc == "full-front":
        return ((0.0, -1.0, far),)
    if arc == "full-rear":
        return ((0.0, 1.0, far),)
    # bullseye: the strip from the front edge to the range-3 line beyond it
    half = strip_width / 2.0
    near_end = length / 2.0
    far_end = near_end + strip_length
    return (
        (1.0, 0.0, half + far),
        (-1.0, 0.0, half + far),
        (0.0, 1.0, far_end + far),
        (0.0, -1.0, -near_end + far),
    )


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
    >>> from tabletop.geom.rulesets import get_ruleset
    >>> from tabletop.geom.shapes import base_footprint, world_polygons
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
