"""Ships: the friendly object over poses and base footprints.

Examples
--------
>>> from tabletop.geom.rulesets import get_ruleset
>>> wedge = Ship("wedge", "small", 120.0, 60.0, 90.0)
>>> wedge.polygon(get_ruleset("xwing2")).bounds
(100.0, 40.0, 140.0, 80.0)
>>> wedge.x = 0.0
Traceback (most recent call last):
...
dataclasses.FrozenInstanceError: cannot assign to field 'x'
"""

from __future__ import annotations

import dataclasses as _dc
import functools as _functools
import math as _math
from collections.abc import Sequence

import numpy as np
import shapely

from tabletop.geom.poses import FloatArray, normalize_heading
from tabletop.geom.rulesets import DISK_BASES, Ruleset
from tabletop.geom.shapes import Footprint, base_footprint, world_polygon

__all__ = ["CACHED_TABLE_MOST", "Ship", "placement_key", "ship_polygons"]

#: The most pieces of one kind whose placed outlines are kept for the next call (a table
#: a hand drags on; a larger one is placed anew, its keys costing more than they save).
CACHED_TABLE_MOST = 64


def placement_key(*numbers: float) -> tuple[float | bool, ...]:
    """Return a dict key of a placement's numbers that tells 0.0 from -0.0.

    The two are equal as floats but may place an outline a sign of zero apart; a cache of
    placed outlines keyed by the numbers alone would give one for the other.

    Examples
    --------
    >>> placement_key(1.5, 0.0) == placement_key(1.5, -0.0)
    False
    """
    return (*numbers, *(_math.copysign(1.0, n) < 0 for n in numbers))


@_dc.dataclass(frozen=True)
class Ship:
    """A ship (or an Armada squadron) on the table.

    Attributes
    ----------
    id : str
        Unique in its scene.
    base : str
        A base name of the scene's ruleset.
    x, y : float
        Centre of the base, mm.
    heading : float
        Degrees counter-clockwise from +x.
    player : int
        1 or 2.
    hull : str or None
        Armada only: the hull whose printed token to use.
    """

    id: str
    base: str
    x: float
    y: float
    heading: float = 90.0
    player: int = 1
    hull: str | None = None

    @property
    def pose(self) -> FloatArray:
        """The pose ``(x, y, heading)`` as a float array."""
        return np.array([self.x, self.y, self.heading], dtype=np.float64)

    @property
    def is_squadron(self) -> bool:
        """Whether this is an Armada squadron (a disk base)."""
        return self.base in DISK_BASES

    def footprint(self, ruleset: Ruleset, *, guides: bool = False) -> Footprint:
        """Return the base footprint in the ship frame (with guides where asked)."""
        return base_footprint(ruleset, self.base, guides=guides)

    def polygon(self, ruleset: Ruleset, *, guides: bool = False) -> shapely.Polygon:
        """Return the base outline in the world (a disk as its inscribed polygon)."""
        return _placed(self.footprint(ruleset, guides=guides), self.x, self.y, self.heading)

    def measured_shape(self, ruleset: Ruleset) -> tuple[shapely.Geometry, float]:
        """Return ``(geometry, radius)`` for exact distances: a disk is its centre and radius."""
        footprint = self.footprint(ruleset)
        if footprint.is_disk:
            return shapely.Point(self.x, self.y), footprint.radius
        return _placed(footprint, self.x, self.y, self.heading), 0.0

    def moved(self, x: float, y: float, heading: float) -> Ship:
        """Return a copy of the ship at another pose."""
        return _dc.replace(self, x=float(x), y=float(y), heading=normalize_heading(heading))


#: Placed base outlines by footprint and (heading, x, y): the outlines ship_polygons placed
#: lately (emptied when full; a footprint is one object per size, so the key is cheap).
_SHIP_OUTLINES: dict[tuple[Footprint, tuple[float | bool, ...]], shapely.Polygon] = {}
_SHIP_OUTLINES_SIZE = 4096


@_functools.lru_cache(maxsize=1024)
def _placed(footprint: Footprint, x: float, y: float, heading: float) -> shapely.Polygon:
    """Place a footprint once per pose: scenes are asked many questions.

    Footprints are cached per size, so the key is cheap.
    """
    return world_polygon(footprint.outline, np.array([x, y, heading], dtype=np.float64))


def ship_polygons(
    ships: Sequence[Ship], ruleset: Ruleset, *, guides: bool = False
) -> list[shapely.Polygon]:
    """Return each ship's :meth:`Ship.polygon`, placed in one pass per footprint and heading.

    Ships of one footprint and heading share the rotated outline (the same 2 x 2 rotation
    :func:`~tabletop.geom.poses.to_world` applies to one pose, computed once), so each
    outline has the same vertices as one ship at a time; a check places every ship once
    instead of once per rule. On a table of at most :data:`CACHED_TABLE_MOST` ships an
    outline placed lately is taken from a small cache: a table asked again with one piece
    moved (the live verdict of a drag) has every other ship where it was.

    Examples
    --------
    >>> from tabletop.geom.rulesets import get_ruleset
    >>> xwing = get_ruleset("xwing2")
    >>> fleet = [Ship("a", "small", 120.0, 60.0, 90.0), Ship("b", "small", 300.0, 60.0, 90.0)]
    >>> [p.bounds for p in ship_polygons(fleet, xwing)]
    [(100.0, 40.0, 140.0, 80.0), (280.0, 40.0, 320.0, 80.0)]
    """
    out: list[shapely.Polygon] = [None] * len(ships)
    cached = len(ships) <= CACHED_TABLE_MOST
    footprints: dict[str, Footprint] = {}
    groups: dict[tuple[str, float], list[int]] = {}
    for index, ship in enumerate(ships):
        footprint = footprints.get(ship.base)
        if footprint is None:
            footprint = footprints[ship.base] = base_footprint(ruleset, ship.base, guides=guides)
        known = None
        if cached:
            known = _SHIP_OUTLINES.get((footprint, placement_key(ship.heading, ship.x, ship.y)))
        if known is not None:
            out[index] = known
        else:
            groups.setdefault((ship.base, ship.heading), []).append(index)
    if len(_SHIP_OUTLINES) > _SHIP_OUTLINES_SIZE:
        _SHIP_OUTLINES.clear()
    for (base, heading), members in groups.items():
        footprint = footprints[base]
        theta = _math.radians(np.float64(heading))
        c, s = _math.cos(theta), _math.sin(theta)
        turned = np.asarray(footprint.outline, dtype=np.float64) @ np.array([[s, -c], [c, s]])
        at = np.array([v for i in members for v in (ships[i].x, ships[i].y)], dtype=np.float64)
        at = at.reshape(-1, 2)
        placed = shapely.polygons(turned[None, :, :] + at[:, None, :])
        for i, polygon in zip(members, placed.tolist(), strict=True):
            out[i] = polygon
            if cached:
                _SHIP_OUTLINES[footprint, placement_key(heading, ships[i].x, ships[i].y)] = polygon
    return out
