"""Obstruction: X-Wing attack segments and Armada lines of sight against obstacles.

X-Wing: the measured attack segment is obstructed when it meets an obstacle outline
(touching counts); huge ships other than the attacker and defender obstruct like
obstacles. When the closest points are not unique — two edges facing each other
parallel (within 0.01° and 0.01 mm) — every segment of that band of tied segments is
equally the measurement: the answer is ``True`` when every one is obstructed, ``False``
when none is, ``"attacker-chooses"`` otherwise.

Armada: line of sight runs between the targeting points of the two hull zones (a
squadron's centre). It is obstructed when the part of it outside the attacker's and
defender's tokens meets an obstacle or another ship's base (never a squadron), and there
is no line of sight when it crosses another hull zone of the defender.

Examples
--------
>>> import shapely
>>> a = shapely.box(0, 0, 40, 40)
>>> b = shapely.box(0, 140, 40, 180)
>>> bands = tied_bands(a, b, 100.0)
>>> [band.tolist() for band in bands]
[[[40.0, 40.0], [0.0, 40.0], [0.0, 140.0], [40.0, 140.0]]]
>>> obstructed_band(bands, [shapely.box(30, 80, 60, 90)])
('attacker-chooses', [0])
"""

from __future__ import annotations

import itertools as _itertools
import math as _math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

import numpy as np
import shapely

from tabletop.geom.poses import FloatArray
from tabletop.geom.tolerance import EPSILON_MM

if TYPE_CHECKING:
    from tabletop.obstacles.sightline import SightLine, armada_sight_line, traced_clearance

__all__ = [
    "TIE_ANGLE_DEGREES",
    "TIE_DISTANCE_MM",
    "Obstructed",
    "SightLine",
    "armada_sight_line",
    "obstructed_band",
    "obstructed_segment",
    "segment_clearance",
    "tied_bands",
    "traced_clearance",
]

#: Edges within this angle of parallel, and lengths within this distance, tie (rules.md).
TIE_ANGLE_DEGREES = 0.01
TIE_DISTANCE_MM = 0.01

#: Whether an attack is obstructed: yes, no, or (tied segments crossing) the attacker's choice.
Obstructed = bool | Literal["attacker-chooses"]


def _edges(geometry: shapely.Geometry) -> FloatArray:
    """Return every edge of a geometry's boundary (lines: the lines) as ``(e, 2, 2)``."""
    if (
        isinstance(geometry, shapely.Polygon)
        and not geometry.is_empty
        and shapely.get_num_interior_rings(geometry) == 0
    ):
        # A base or a part of one (the common case): its exterior ring's coordinates.
        coords = shapely.get_coordinates(geometry)
        if len(coords) >= 2:
            return np.stack([coords[:-1], coords[1:]], axis=1)
    parts = shapely.get_parts(geometry)
    edges = []
    for part in parts:
        if part.geom_type == "Polygon":
            rings = [part.exterior, *part.interiors]
        elif part.geom_type in ("LineString", "LinearRing"):
            rings = [part]
        else:
            continue
        for ring in rings:
            coords = np.asarray(ring.coords, dtype=np.float64)
            if len(coords) >= 2:
                edges.append(np.stack([coords[:-1], coords[1:]], axis=1))
    if not edges:
        return np.zeros((0, 2, 2))
    return np.concatenate(edges)


def _edge_list(geometry: shapely.Geometry) -> list[list[list[float]]]:
    """Return :func:`_edges` as nested lists, a base's ring without the numpy round trip."""
    if (
        isinstance(geometry, shapely.Polygon)
        and not geometry.is_empty
        and shapely.get_num_interior_rings(geometry) == 0
    ):
        coords = shapely.get_coordinates(geometry).tolist()
        return [[p, q] for p, q in _itertools.pairwise(coords)]
    edges: list[list[list[float]]] = _edges(geometry).tolist()
    return edges


def tied_bands(a: shapely.Geometry, b: shapely.Geometry, distance: float) -> list[FloatArray]:
    """Return the bands of tied shortest segments between `a` and `b`.

    Each band is a quadrilateral ``(4, 2)``: ``a(t0), a(t1), b(t1), b(t0)``, where the
    segments from an edge of `a` to a parallel edge of `b` at `distance` sweep it. An
    empty list means the closest points are unique.
    """
    if distance <= TIE_DISTANCE_MM:
        return []
    sin_tol = _math.sin(_math.radians(TIE_ANGLE_DEGREES))
    # Outlines have a handful of edges: plain floats beat small numpy arrays here.
    others = []
    for (q0x, q0y), (q1x, q1y) in _edge_list(b):
        length = _math.hypot(q1x - q0x, q1y - q0y)
        if length > 0.0:
            others.append((q0x, q0y, q1x, q1y, (q1x - q0x) / length, (q1y - q0y) / length))
    bands = []
    for (p0x, p0y), (p1x, p1y) in _edge_list(a):
        length = _math.hypot(p1x - p0x, p1y - p0y)
        if length <= 0.0:
            continue
        ux, uy = (p1x - p0x) / length, (p1y - p0y) / length
        nx, ny = -uy, ux
        for q0x, q0y, q1x, q1y, dx, dy in others:
            if abs(ux * dy - uy * dx) > sin_tol:
                continue
            # Both ends of the other edge sit at the measured distance off this edge's line.
            h0 = (q0x - p0x) * nx + (q0y - p0y) * ny
            h1 = (q1x - p0x) * nx + (q1y - p0y) * ny
            if h0 * h1 <= 0.0:
                continue
            if (
                abs(abs(h0) - distance) > TIE_DISTANCE_MM
                or abs(abs(h1) - distance) > TIE_DISTANCE_MM
            ):
                continue
            s0 = (q0x - p0x) * ux + (q0y - p0y) * uy
            s1 = (q1x - p0x) * ux + (q1y - p0y) * uy
            t0, t1 = max(0.0, min(s0, s1)), min(length, max(s0, s1))
            if t1 - t0 <= TIE_DISTANCE_MM:
                continue
            offset = (h0 + h1) / 2.0
            a0 = (p0x + ux * t0, p0y + uy * t0)
            a1 = (p0x + ux * t1, p0y + uy * t1)
            bands.append(
                np.array(
                    [
                        a0,
                        a1,
                        (a1[0] + nx * offset, a1[1] + ny * offset),
                        (a0[0] + nx * offset, a0[1] + ny * offset),
                    ]
                )
            )
    return bands


def obstructed_segment(
    points: FloatArray, blockers: Sequence[shapely.Geometry]
) -> tuple[bool, list[int]]:
    """Return whether one segment meets any blocker (touching counts), and which ones."""
    if not blockers:
        return False, []
    segment = (
        shapely.Point(points[0])
        if np.array_equal(points[0], points[1])
        else shapely.LineString(points)
    )
    # Touching counts, and lengths within the tolerance are equal: within it is touching.
    hits = [
        i for i, blocker in enumerate(blockers) if shapely.dwithin(segment, blocker, EPSILON_MM)
    ]
    return bool(hits), hits


def segment_clearance(points: FloatArray, blocker: shapely.Geometry) -> float:
    """Return how far the segment `points` clears `blocker`, signed, mm.

    Positive: the gap between them (the line of fire passes clear by that much). Zero:
    they touch (a tangent; touching obstructs). Negative: the segment crosses the blocker,
    by as far as the line would have to move sideways to clear it (the lesser of how far
    the blocker reaches either side of it, over the segment's length).

    Examples
    --------
    >>> import numpy as np
    >>> line = np.array([[0.0, 0.0], [100.0, 0.0]])
    >>> segment_clearance(line, shapely.box(40, 0.01, 60, 20))
    0.01
    >>> segment_clearance(line, shapely.box(40, 0.0, 60, 20))
    0.0
    >>> round(segment_clearance(line, shapely.box(40, -0.01, 60, 20)), 9)
    -0.01
    """
    a, b = np.asarray(points[0], dtype=np.float64), np.asarray(points[1], dtype=np.float64)
    segment = shapely.Point(a) if np.array_equal(a, b) else shapely.LineString([a, b])
    gap = float(shapely.distance(segment, blocker))
    if gap > EPSILON_MM:
        return gap
    length = float(np.hypot(*(b - a)))
    if length <= EPSILON_MM:
        return 0.0
    u = (b - a) / length
    n = np.array([-u[1], u[0]])
    # The strip of points beside the segment (between its ends), wider than any table.
    reach = 1e5
    strip = shapely.Polygon([a - reach * n, b - reach * n, b + reach * n, a + reach * n])
    coords = shapely.get_coordinates(shapely.intersection(blocker, strip))
    if len(coords) == 0:
        return 0.0
    side = (coords - a) @ n
    depth = min(max(float(side.max()), 0.0), max(-float(side.min()), 0.0))
    return -depth if depth > EPSILON_MM else 0.0


def obstructed_band(
    bands: Sequence[FloatArray], blockers: Sequence[shapely.Geometry]
) -> tuple[Obstructed, list[int]]:
    """Return the obstruction of a set of tied bands, and the blockers any segment meets.

    Every segment of a band is parallel, so the segments a blocker meets are exactly those
    whose position along the band lies in the projection of the blocker's part inside the
    band; the band is wholly obstructed when those projections cover it.
    """
    if not blockers:
        return False, []
    hits: set[int] = set()
    all_blocked = True
    any_blocked = False
    for band in bands:
        quad = shapely.Polygon(band)
        origin = band[0]
        axis = band[1] - band[0]
        length = float(np.hypot(*axis))
        u = axis / length
        intervals = []
        for i, blocker in enumerate(blockers):
            if not shapely.dwithin(quad, blocker, EPSILON_MM):
                continue
            inside = shapely.intersection(quad, _touching(blocker))
            if inside.is_empty:
                continue
            hits.add(i)
            for part in shapely.get_parts(inside):
                coords = shapely.get_coordinates(part)
                along = (coords - origin) @ u
                intervals.append((float(along.min()), float(along.max())))
        covered = _covers(intervals, length)
        all_blocked &= covered
        any_blocked |= bool(intervals)
    if not any_blocked:
        return False, []
    return (True if all_blocked else "attacker-chooses"), sorted(hits)


def _touching(blocker: shapely.Geometry) -> shapely.Geometry:
    """Return a blocker grown by the length tolerance: a segment that close touches it."""
    return shapely.buffer(blocker, EPSILON_MM, join_style="mitre")


def _covers(intervals: list[tuple[float, float]], length: float) -> bool:
    reach = 0.0
    for lo, hi in sorted(intervals):
        if lo > reach + 1e-9:
            return False
        reach = max(reach, hi)
    return reach >= length - 1e-9


def __getattr__(name: str) -> object:
    """Load the Armada line of sight on first use (PEP 562).

    :class:`SightLine`, :func:`armada_sight_line` and :func:`traced_clearance` live in
    :mod:`tabletop.obstacles.sightline`, imported with the first Armada shot: an X-Wing
    measurement never uses them. ``from tabletop.obstacles.obstruction import SightLine``
    works as before.
    """
    if name in ("SightLine", "armada_sight_line", "traced_clearance"):
        from tabletop.obstacles import sightline

        value: object = getattr(sightline, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
