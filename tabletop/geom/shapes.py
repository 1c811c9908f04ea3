"""Shapes in the ship frame: bases, guides, squadron disks, and world polygons.

Every outline is a counter-clockwise ``(k, 2)`` array of vertices in the ship frame
(+y forward, +x right, mm), closed implicitly. A squadron disk is exact: its
:class:`Footprint` carries the radius, so distances to it are measured to the circle,
and the polygon is only for overlap tests and drawing.

Examples
--------
>>> from tabletop.geom.rulesets import get_ruleset
>>> footprint = base_footprint(get_ruleset("xwing2"), "small")
>>> footprint.outline.tolist()
[[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]]
>>> round(base_footprint(get_ruleset("xwing2"), "small", guides=True).polygon().area, 4)
1623.04
"""

from __future__ import annotations

import dataclasses as _dc
import functools as _functools
from typing import TYPE_CHECKING

import numpy as np
import shapely

from tabletop.geom.poses import FloatArray, to_world
from tabletop.geom.rulesets import Ruleset

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = [
    "DISK_SEGMENTS",
    "Footprint",
    "base_footprint",
    "place_outline",
    "rectangle",
    "world_polygon",
    "world_polygons",
]

#: Vertices of the polygon that stands for a disk in overlap tests and drawings.
DISK_SEGMENTS = 256


def rectangle(width: float, length: float, centre: tuple[float, float] = (0.0, 0.0)) -> FloatArray:
    """Return the counter-clockwise corners of a `width` × `length` rectangle.

    Examples
    --------
    >>> rectangle(2, 4).tolist()
    [[-1.0, -2.0], [1.0, -2.0], [1.0, 2.0], [-1.0, 2.0]]
    """
    cx, cy = centre
    w, h = width / 2.0, length / 2.0
    return np.array(
        [[cx - w, cy - h], [cx + w, cy - h], [cx + w, cy + h], [cx - w, cy + h]], dtype=np.float64
    )


@_dc.dataclass(frozen=True, eq=False)
class Footprint:
    """An outline in the ship frame, with the radius of a disk where it is one.

    Attributes
    ----------
    outline : ndarray of shape (k, 2)
        Counter-clockwise vertices, mm.
    radius : float
        0 for polygons; for a disk, its radius (the outline is then an inscribed
        polygon of :data:`DISK_SEGMENTS` vertices, used for overlap and drawing only).
    """

    outline: FloatArray
    radius: float = 0.0

    def polygon(self) -> shapely.Polygon:
        """Return the outline as a shapely polygon in the ship frame."""
        return shapely.Polygon(self.outline)

    @property
    def is_disk(self) -> bool:
        """Whether the footprint is a disk (a squadron base)."""
        return self.radius > 0.0


def _guides(guide: tuple[float, float, float], length: float) -> list[FloatArray]:
    w, inner, depth = guide
    half = length / 2.0
    nubs = []
    for side in (-1.0, 1.0):
        cx = side * (inner + w / 2.0)
        nubs.append(rectangle(w, depth, (cx, half + depth / 2.0)))
        nubs.append(rectangle(w, depth, (cx, -half - depth / 2.0)))
    return nubs


def base_footprint(ruleset: Ruleset, base: str, *, guides: bool = False) -> Footprint:
    """Return the footprint of a base of `ruleset` in the ship frame.

    Parameters
    ----------
    ruleset : Ruleset
        Supplies the base sizes (and the guide geometry for X-Wing).
    base : str
        A base name of the ruleset (``small``, ``medium``, ..., ``squadron``).
    guides : bool, default False
        X-Wing only: include the four guides (nubs). They count for maneuvers and
        overlap, never for range, arcs or fleeing.

    Raises
    ------
    InvalidInputError
        For a base the ruleset does not have.
    """
    spec = ruleset.base_spec(base)
    guide = (
        (ruleset.xwing_guide_width, ruleset.xwing_guide_inner, ruleset.xwing_guide_depth)
        if guides and ruleset.ship_guides and not spec.is_disk
        else None
    )
    return _footprint(spec.is_disk, spec.width, spec.length, guide)


@_functools.lru_cache(maxsize=64)
def _footprint(
    disk: bool, width: float, length: float, guide: tuple[float, float, float] | None
) -> Footprint:
    """Build a footprint once per size (footprints are read-only)."""
    if disk:
        radius = width / 2.0
        angles = np.linspace(0.0, 2.0 * np.pi, DISK_SEGMENTS, endpoint=False)
        outline = np.stack([radius * np.cos(angles), radius * np.sin(angles)], axis=-1)
        outline.setflags(write=False)
        return Footprint(outline, radius)
    body = rectangle(width, length)
    if guide is None:
        body.setflags(write=False)
        return Footprint(body)
    merged = shapely.union_all([shapely.Polygon(p) for p in [body, *_guides(guide, length)]])
    merged = shapely.orient_polygons(shapely.normalize(merged))  # normalize turns it clockwise
    coords = np.asarray(shapely.get_exterior_ring(merged).coords, dtype=np.float64)[:-1]
    coords.setflags(write=False)
    return Footprint(coords)


def world_polygon(outline: ArrayLike, pose: ArrayLike) -> shapely.Polygon:
    """Return a ship-frame outline placed at `pose` as a shapely polygon."""
    # shapely.Polygon(coords) is this same call behind a LinearRing built in Python.
    polygon: shapely.Polygon = shapely.polygons(to_world(outline, pose))
    return polygon


def world_polygons(outline: ArrayLike, poses: ArrayLike) -> FloatArray:
    """Return one shapely polygon per pose ``(n, 3)`` of the same outline (array-first)."""
    corners = to_world(outline, np.atleast_2d(np.asarray(poses, dtype=np.float64)))
    return np.asarray(shapely.polygons(corners))


def place_outline(outline: ArrayLike, placements: ArrayLike) -> FloatArray:
    """Place a token outline by ``(x, y, angle, flipped)`` rows: ``(..., k, 2)`` world vertices.

    The token frame is the world's (x right, y up); a flipped token is mirrored
    (x → −x) before it is rotated by `angle` degrees counter-clockwise about its
    reference point and moved to ``(x, y)``. Mirroring reverses the vertex order, which
    is restored, so outlines stay counter-clockwise.

    Examples
    --------
    >>> square = [[0.0, 0.0], [2.0, 0.0], [2.0, 1.0], [0.0, 1.0]]
    >>> (place_outline(square, [10.0, 0.0, 90.0, 0.0]).round(9) + 0.0).tolist()
    [[10.0, 0.0], [10.0, 2.0], [9.0, 2.0], [9.0, 0.0]]
    >>> (place_outline(square, [0.0, 0.0, 0.0, 1.0]) + 0.0).tolist()
    [[0.0, 1.0], [-2.0, 1.0], [-2.0, 0.0], [0.0, 0.0]]
    """
    local = np.asarray(outline, dtype=np.float64)
    place = np.asarray(placements, dtype=np.float64)
    flipped = place[..., 3, None, None] != 0
    mirrored = np.where(flipped, local[::-1] * np.array([-1.0, 1.0]), local)
    theta = np.radians(place[..., 2])
    c, s = np.cos(theta)[..., None], np.sin(theta)[..., None]
    x = mirrored[..., 0] * c - mirrored[..., 1] * s + place[..., 0, None]
    y = mirrored[..., 0] * s + mirrored[..., 1] * c + place[..., 1, None]
    return np.stack([x, y], axis=-1)
