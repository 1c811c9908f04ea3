"""Distances with closest points, overlap, bands and the contested flag.

The array functions take numpy arrays of shapely geometries (and disk radii) and
broadcast like shapely's own; the scalar helpers unpack one answer. Distances are the
least Euclidean distance between closed outlines, 0 when they touch or overlap.

Band rule (``rules.md``): band k holds ``d <= D_k`` (a measurement exactly on a line is
the shorter band), lengths within :data:`EPSILON_MM` being equal.

Examples
--------
>>> import shapely
>>> a = shapely.box(0, 0, 40, 40)
>>> b = shapely.box(140, 0, 180, 40)
>>> float(geometry_distance(a, b))
100.0
>>> line_band(100.0, (100.0, 200.0, 300.0))
1
>>> line_band(100.00001, (100.0, 200.0, 300.0))
2
>>> line_band(300.5, (100.0, 200.0, 300.0)) is None
True
>>> contested(99.0, (100.0, 200.0), within=1.0), contested(98.9, (100.0, 200.0), within=1.0)
(True, False)
"""

from __future__ import annotations

import dataclasses as _dc
import math as _math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import shapely

from tabletop.geom.poses import FloatArray
from tabletop.geom.tolerance import EPSILON_MM, same_length

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

__all__ = [
    "EPSILON_MM",
    "BandReport",
    "band_report",
    "closest_points",
    "contested",
    "geometry_distance",
    "inside",
    "json_mm",
    "line_band",
    "line_bands",
    "overlaps",
]


def geometry_distance(
    a: ArrayLike, b: ArrayLike, radius_a: ArrayLike = 0.0, radius_b: ArrayLike = 0.0
) -> FloatArray:
    """Return the least distance between geometries `a` and `b`, in mm (array-first).

    A geometry with a radius stands for itself grown by that radius (a disk is a point
    with a radius), so distances to disks are exact.
    """
    core = np.asarray(shapely.distance(a, b), dtype=np.float64)
    grown = core - np.asarray(radius_a, dtype=np.float64) - np.asarray(radius_b, dtype=np.float64)
    return np.maximum(grown, 0.0)


def closest_points(
    a: ArrayLike, b: ArrayLike, radius_a: ArrayLike = 0.0, radius_b: ArrayLike = 0.0
) -> tuple[FloatArray, FloatArray]:
    """Return ``(distance, points)``: distances ``(...)`` and point pairs ``(..., 2, 2)``.

    ``points[..., 0, :]`` lies on `a`, ``points[..., 1, :]`` on `b`. Where the outlines
    overlap, both points are one shared point.

    Examples
    --------
    >>> import shapely
    >>> d, p = closest_points(shapely.box(0, 0, 40, 40), shapely.Point(70, 20), 0.0, 10.0)
    >>> float(d), p.tolist()
    (20.0, [[40.0, 20.0], [60.0, 20.0]])
    """
    if (
        isinstance(a, shapely.Geometry)
        and isinstance(b, shapely.Geometry)
        and isinstance(radius_a, float | int)
        and isinstance(radius_b, float | int)
        and radius_a == 0
        and radius_b == 0
    ):
        # One pair of outlines, the common case of a query: the arithmetic below without
        # its array overhead (the norm is numpy's, sqrt of the summed squares).
        line = shapely.shortest_line(a, b)
        if line is not None:
            pts = np.asarray(shapely.get_coordinates(line), dtype=np.float64).reshape(2, 2)
            (x0, y0), (x1, y1) = pts.tolist()
            dx, dy = x1 - x0, y1 - y0
            return np.asarray(_math.sqrt(dx * dx + dy * dy), dtype=np.float64), pts
    lines = shapely.shortest_line(a, b)
    coords = np.asarray(shapely.get_coordinates(lines), dtype=np.float64)
    shape = np.shape(lines)
    pts = coords.reshape((*shape, 2, 2))
    ra = np.broadcast_to(np.asarray(radius_a, dtype=np.float64), shape)
    rb = np.broadcast_to(np.asarray(radius_b, dtype=np.float64), shape)
    if np.any(ra > 0) or np.any(rb > 0):
        delta = pts[..., 1, :] - pts[..., 0, :]
        core = np.hypot(delta[..., 0], delta[..., 1])
        safe = np.where(core > 0, core, 1.0)
        unit = delta / safe[..., None]
        gap = np.maximum(core - ra - rb, 0.0)
        start = pts[..., 0, :] + unit * ra[..., None]
        end = start + unit * gap[..., None]
        pts = np.stack([start, end], axis=-2)
    d = np.linalg.norm(pts[..., 1, :] - pts[..., 0, :], axis=-1)
    return np.asarray(d, dtype=np.float64), pts


def overlaps(
    a: ArrayLike, b: ArrayLike, radius_a: ArrayLike = 0.0, radius_b: ArrayLike = 0.0
) -> NDArray[np.bool_]:
    """Return whether `a` and `b` share area (touching is not overlapping).

    Overlap deeper than :data:`EPSILON_MM` counts, so floating-point noise on a
    placement exactly touching another is not an overlap.

    Examples
    --------
    >>> import shapely
    >>> bool(overlaps(shapely.box(0, 0, 40, 40), shapely.box(40, 0, 80, 40)))
    False
    >>> bool(overlaps(shapely.box(0, 0, 40, 40), shapely.box(39.99, 0, 80, 40)))
    True
    """
    ra = np.asarray(radius_a, dtype=np.float64)
    rb = np.asarray(radius_b, dtype=np.float64)
    shrunk = shapely.buffer(a, -EPSILON_MM, join_style="mitre")
    polygonal = np.asarray(shapely.intersects(shrunk, b) & ~shapely.is_empty(shrunk))
    core = np.asarray(shapely.distance(a, b), dtype=np.float64)
    rounded = core < ra + rb - EPSILON_MM
    has_radius = (ra > 0) | (rb > 0)
    return np.asarray(np.where(has_radius, rounded, polygonal), dtype=np.bool_)


def inside(geometry: shapely.Geometry, region: shapely.Geometry) -> bool:
    """Return whether `geometry` lies entirely in `region` (its edge included).

    Within :data:`EPSILON_MM` of the region's edge is on it, so an object computed to
    touch the edge from inside is inside.

    Examples
    --------
    >>> import shapely
    >>> table = shapely.box(0, 0, 914.4, 914.4)
    >>> inside(shapely.box(0, 0, 40, 40), table), inside(shapely.box(-0.01, 0, 40, 40), table)
    (True, False)
    """
    grown = shapely.buffer(region, EPSILON_MM, join_style="mitre")
    return bool(shapely.covers(grown, geometry))


def line_bands(
    d: ArrayLike, lines: Sequence[float], *, zero_band: bool = False
) -> NDArray[np.int64]:
    """Return the band of each distance: 1-based, -1 beyond the last line (array-first).

    Parameters
    ----------
    d : array_like
        Distances, mm.
    lines : sequence of float
        Increasing upper bounds of the bands, mm.
    zero_band : bool, default False
        Whether a distance of 0 (touching or overlapping) is band 0 (X-Wing 2.0).

    Examples
    --------
    >>> line_bands([0.0, 50.0, 100.0, 150.0, 999.0], (100.0, 200.0), zero_band=True).tolist()
    [0, 1, 1, 2, -1]
    """
    dist = np.asarray(d, dtype=np.float64)
    # The vectorised form of tabletop.geom.tolerance.within: a distance is in band k when it is
    # within line k, so the search runs on the lines grown by the tolerance.
    edges = np.asarray(lines, dtype=np.float64) + EPSILON_MM
    index = np.searchsorted(edges, dist, side="left") + 1
    result = np.where(index > len(edges), -1, index)
    if zero_band:
        result = np.where(dist <= EPSILON_MM, 0, result)
    return np.asarray(result, dtype=np.int64)


def line_band(d: float, lines: Sequence[float], *, zero_band: bool = False) -> int | None:
    """Return the band of one distance, or None beyond the last line."""
    # line_bands for one distance, without arrays: the lines increase, so the band is
    # 1 + how many lines (grown by the tolerance) lie below the distance.
    dist = float(d)
    if zero_band and dist <= EPSILON_MM:
        return 0
    if dist != dist:  # NaN sorts after every line, as in searchsorted
        return None
    index = 1 + sum(1 for line in lines if float(line) + EPSILON_MM < dist)
    return None if index > len(lines) else index


def contested(d: float, lines: Sequence[float], *, within: float = 1.0) -> bool:
    """Return whether `d` is within `within` mm of any band line (where judges are called)."""
    return bool(any(abs(d - line) <= within + EPSILON_MM for line in lines))


@_dc.dataclass(frozen=True)
class BandReport:
    """A distance placed among band lines, for reports.

    Attributes
    ----------
    band : int or None
        The band (None beyond the last line).
    nearest_line : float
        The band line nearest to the distance, mm.
    margin : float
        ``nearest_line - distance``: positive means inside (shorter than) that line.
    contested : bool
        Whether the distance is within ``contested_within`` of a band line.
    """

    band: int | None
    nearest_line: float
    margin: float
    contested: bool


def band_report(
    d: float, lines: Sequence[float], *, zero_band: bool = False, within: float = 1.0
) -> BandReport:
    """Return the band, the nearest band line, the margin to it and the contested flag.

    Examples
    --------
    >>> band_report(199.4, (100.0, 200.0, 300.0))
    BandReport(band=2, nearest_line=200.0, margin=0.6, contested=True)
    >>> band_report(0.5, (100.0, 200.0), zero_band=True).contested
    True
    """
    nearest = min(lines, key=lambda line: abs(d - line))
    margin = nearest - d
    if same_length(margin, 0.0):
        margin = 0.0
    return BandReport(
        band=line_band(d, lines, zero_band=zero_band),
        nearest_line=float(nearest),
        margin=round(float(margin), 9),
        # Where touching is a band of its own (X-Wing 2.0 range 0), touching is a line
        # too: a distance within `within` of 0 is as contested as one near 100.
        contested=contested(d, lines, within=within) or (zero_band and d <= within + EPSILON_MM),
    )


def json_mm(value: float) -> float:
    """Round a length for JSON: to 1e-6 mm, the project's equality tolerance (no -0.0).

    Examples
    --------
    >>> json_mm(199.99999999997), json_mm(-0.0000001)
    (200.0, 0.0)
    """
    return round(float(value), 6) + 0.0
