"""The query oracle's direct paths: the plain forms of a scene and a request, read at once.

:func:`plain_scene` (from :mod:`tabletop.obstacles.plainscene`, where every scene file
is read first) builds the :class:`Scene` of a scene structure in the plain form a
program writes, and returns None for anything else: the caller then parses it with
:func:`tabletop.app.scene.scenefile.parse_scene`, whose checks name every fault.

:func:`plain_measure` answers a ``measure`` request between two ships with rectangular
bases, without an arc, as :func:`tabletop.obstacles.measuring.measure` and
:meth:`Measurement.to_json` do, with the same arithmetic in the same order, writing the
answer's fields directly; any other request returns None and takes the general path.
"""

from __future__ import annotations

import collections
import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import shapely

from tabletop.geom.arcs import XWING_ARCS
from tabletop.geom.objects import Ship
from tabletop.geom.rulesets import RULESETS, Ruleset, XWingRuleset
from tabletop.geom.shapes import base_footprint
from tabletop.geom.tolerance import EPSILON_MM
from tabletop.obstacles.measuring import measurement_detail
from tabletop.obstacles.plainscene import plain_scene
from tabletop.obstacles.rulings import contested_ruling, line_report
from tabletop.obstacles.scene import Scene

__all__ = [
    "MeasuredFields",
    "measure_pair",
    "measured_fields",
    "measurement_json",
    "plain_measure",
    "plain_scene",
]


#: Each plain ruleset's band lines, whether touching is band 0, and the contested width.
_BANDS: dict[str, tuple[tuple[float, ...], bool, float]] = {}

#: Placed base outlines by ``(ruleset, base, x, y, heading)``, most recent last: a scene
#: asked again finds its ships placed.
_OUTLINES: collections.OrderedDict[tuple[str, str, float, float, float], shapely.Polygon] = (
    collections.OrderedDict()
)
_OUTLINES_SIZE = 1024


def _corners(ruleset: Ruleset, ship: Ship) -> np.ndarray[Any, np.dtype[np.float64]] | None:
    """Return a ship base's world corners by :func:`tabletop.geom.poses.to_world`'s arithmetic.

    None for a disk base (measured as a centre and a radius, by the general path).
    """
    footprint = base_footprint(ruleset, ship.base)
    if footprint.is_disk:
        return None
    # to_world for one pose: the same rotation matrix, product and sum, bit for bit.
    theta = math.radians(ship.heading)
    c, s = math.cos(theta), math.sin(theta)
    rotation = np.array([[s, -c], [c, s]])
    local = np.asarray(footprint.outline, dtype=np.float64)
    corners: np.ndarray[Any, np.dtype[np.float64]] = local @ rotation + np.array(
        [ship.x, ship.y], dtype=np.float64
    )
    return corners


def _outlines(ruleset: Ruleset, first: Ship, second: Ship) -> list[shapely.Polygon] | None:
    """Return both ships' placed outlines, built in one shapely call; None for a disk base."""
    keys = [(ruleset.name, ship.base, ship.x, ship.y, ship.heading) for ship in (first, second)]
    found: list[shapely.Polygon | None] = [_OUTLINES.get(key) for key in keys]
    missing = [index for index, polygon in enumerate(found) if polygon is None]
    if missing:
        corners = []
        for index in missing:
            placed = _corners(ruleset, (first, second)[index])
            if placed is None:
                return None
            corners.append(placed)
        for index, polygon in zip(missing, shapely.polygons(np.stack(corners)), strict=True):
            found[index] = _OUTLINES[keys[index]] = polygon
        while len(_OUTLINES) > _OUTLINES_SIZE:
            _OUTLINES.popitem(last=False)
    return [polygon for polygon in found if polygon is not None]


def measure_pair(
    scene: Scene, request: Mapping[str, Any], *, arcs: bool = False
) -> tuple[Ship, Ship] | None:
    """Return the two ships of a measure request the direct path answers, else None.

    None for an arc (with `arcs`, only for one not of :data:`XWING_ARCS` or not in an
    X-Wing scene), a hull zone, an obstacle, a line of the table, an id the scene lacks,
    a value of the wrong type, or a ruleset not the registered one: the general path
    answers those. (A disk base is found when the outlines are placed.)
    """
    a, b = request.get("from"), request.get("to")
    if "defending_zone" in request or type(a) is not str or a == b:
        return None
    if "arc" in request:
        arc = request["arc"]
        if not arcs or type(arc) is not str or arc not in XWING_ARCS:
            return None
        if type(scene.ruleset) is not XWingRuleset:
            return None
    if type(b) is not str or not scene.has(a) or not scene.has(b):
        return None
    first, second = scene.get(a), scene.get(b)
    if (
        type(first) is not Ship
        or type(second) is not Ship
        or RULESETS.get(scene.ruleset.name) is not scene.ruleset
    ):
        return None
    return first, second


def plain_measure(scene: Scene, request: Mapping[str, Any]) -> dict[str, Any] | None:
    """Answer a measure request between two ships of a plain scene, without an arc.

    Returns the object :meth:`Measurement.to_json` gives for
    ``measure(scene, request["from"], request["to"])``, or None when the request is not
    of that kind (see :func:`measure_pair`; a disk base too): the general path answers
    those.
    """
    ships = measure_pair(scene, request)
    if ships is None:
        return None
    outlines = _outlines(scene.ruleset, *ships)
    if outlines is None:
        return None
    line = shapely.shortest_line(outlines[0], outlines[1])
    if line is None:
        return None
    # closest_points' one-pair arithmetic: the line's ends, numpy's norm on plain floats.
    ends = np.asarray(shapely.get_coordinates(line), dtype=np.float64).reshape(2, 2)
    return measurement_json(scene.ruleset, request["from"], request["to"], ends.tolist())


def measurement_json(ruleset: Ruleset, a: str, b: str, ends: list[list[float]]) -> dict[str, Any]:
    """Return :meth:`Measurement.to_json` of a measure between two outlines, from `a` to `b`.

    `ends` is the shortest line's two ends (on `a`, then on `b`), as GEOS gives them.
    """
    distance, band_fields, contested, points, line, margin, ruling = measured_fields(ruleset, ends)
    out: dict[str, Any] = {"from": a, "to": b, "distance": distance}
    out.update(band_fields)
    out["contested"] = contested
    out["points"] = points
    out["nearest_line"] = line
    out["margin"] = margin
    if ruling is None:
        out.update({"contested_line": None, "contested_margin": None, "ruling": None})
    else:
        out.update(ruling)
    return out


#: What :func:`measured_fields` gives: the distance, the band fields, the contested flag,
#: the points, the nearest line, the margin and the ruling's fields (None when not
#: contested), each as the answer writes it.
MeasuredFields = tuple[
    float, dict[str, Any], bool, list[list[float]], float, float, dict[str, Any] | None
]


def measured_fields(ruleset: Ruleset, ends: list[list[float]]) -> MeasuredFields:
    """Return the fields of a measure's answer from the shortest line's `ends`, rounded.

    The distance is :func:`tabletop.geom.measure.closest_points`' arithmetic on the ends
    (numpy's norm: the square root of the summed squares).
    """
    (x0, y0), (x1, y1) = ends
    dx, dy = x1 - x0, y1 - y0
    distance = math.sqrt(dx * dx + dy * dy)
    bands = _BANDS.get(ruleset.name)
    if bands is None:
        kind = ruleset.band_kinds[0]
        bands = _BANDS[ruleset.name] = (
            ruleset.band_lines,
            ruleset.zero_band(kind),
            ruleset.contested_within,
        )
    lines, zero_band, within = bands
    band = _band_report(distance, lines, zero_band, within)[0]
    line, margin, contested = (
        _line_report(distance, lines, zero_band, within)
        if distance == distance
        else (math.nan, math.nan, True)  # not a number: line_report's, below
    )
    # Near a line (rare), the flag, its line and the ruling from the functions measure
    # itself calls.
    ruling = None
    if contested:
        found = line_report(ruleset, distance)
        line, margin, contested = found.line, found.margin, found.contested
        ruling = contested_ruling(ruleset, distance) if contested else None
    return (
        round(distance, 6) + 0.0,
        measurement_detail(ruleset, distance, band, None).band_json(),
        contested,
        [
            [round(x0, 6) + 0.0, round(y0, 6) + 0.0],
            [round(x1, 6) + 0.0, round(y1, 6) + 0.0],
        ],
        round(line, 6) + 0.0,
        round(margin, 6) + 0.0,
        None if ruling is None else ruling.to_json(),
    )


def _line_report(
    d: float, lines: tuple[float, ...], zero_band: bool, within: float
) -> tuple[float, float, bool]:
    """:func:`tabletop.obstacles.rulings.line_report` of a distance (not NaN), as plain values.

    The same comparisons in the same order: the nearest line is the least of
    ``(gap, line)``, touching wins only where it is a band and the nearest is not within
    reach; the margin is snapped to 0 within the tolerance and rounded to 1e-9.

    Examples
    --------
    >>> _line_report(199.4, (100.0, 200.0, 300.0), True, 1.0)
    (200.0, 0.6, True)
    >>> _line_report(0.4, (100.0, 200.0), True, 1.0)
    (0.0, -0.4, True)
    """
    nearest, gap = lines[0], abs(d - lines[0])
    for line in lines[1:]:
        line_gap = abs(d - line)
        if line_gap < gap or (line_gap == gap and line < nearest):
            nearest, gap = line, line_gap
    if zero_band and d - within <= EPSILON_MM and not abs(d - nearest) - within <= EPSILON_MM:
        nearest = 0.0
    margin = nearest - d
    margin = 0.0 if abs(margin - 0.0) <= EPSILON_MM else round(float(margin), 9)
    return float(nearest), margin, bool(abs(d - nearest) - within <= EPSILON_MM)


def _band_report(
    d: float, lines: tuple[float, ...], zero_band: bool, within: float
) -> tuple[int | None, float, float, bool]:
    """:func:`tabletop.geom.measure.band_report` of a float, as plain values.

    The same comparisons and arithmetic in the same order: the nearest line is the first
    of the least gap, the margin is snapped to 0 within the tolerance and rounded to 1e-9.

    Examples
    --------
    >>> _band_report(199.4, (100.0, 200.0, 300.0), False, 1.0)
    (2, 200.0, 0.6, True)
    """
    nearest, gap = lines[0], abs(d - lines[0])
    for line in lines[1:]:
        if abs(d - line) < gap:
            nearest, gap = line, abs(d - line)
    margin = nearest - d
    if abs(margin) <= EPSILON_MM:
        margin = 0.0
    if zero_band and d <= EPSILON_MM:
        band: int | None = 0
    elif d != d:  # NaN: beyond every line, as line_band says
        band = None
    else:
        index = 1
        for line in lines:
            if line + EPSILON_MM < d:
                index += 1
        band = None if index > len(lines) else index
    reach = within + EPSILON_MM
    contested = any(abs(d - line) <= reach for line in lines) or (zero_band and d <= reach)
    return band, float(nearest), round(float(margin), 9), contested
