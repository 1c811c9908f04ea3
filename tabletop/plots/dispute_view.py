"""What a dispute picture shows: its view, the line in question, and the distance's text.

:func:`dispute_window` chooses the square view (centre and half-width, mm) around the
measurement; :func:`dispute_line` the line of the rule in question (the placement limit
of a violation between the two objects, otherwise the nearest band line of the
measurement). Nothing here draws: :mod:`tabletop.plots.dispute` draws the picture.

Examples
--------
>>> from tabletop.geom.areas import play_area
>>> from tabletop.geom.objects import Ship
>>> from tabletop.geom.rulesets import get_ruleset
>>> from tabletop.obstacles.measuring import measure
>>> xw = get_ruleset("xwing2")
>>> a = Ship("a", "small", 100.0, 100.0, 0.0)
>>> def window(b: Ship, zoom: float | None = None) -> tuple[float, float, float]:
...     return dispute_window(measure(Scene(xw, play_area("3x3ft"), ships=(a, b)), "a", "b"), zoom)

Two bases 60 mm apart, face to face: the whole distance, 10 mm to spare each way
(the closest points are the first of the tied ones, y = 80).

>>> window(Ship("b", "small", 200.0, 100.0, 0.0))
(150.0, 80.0, 40.0)

A corner 251.7 mm away: the view is the part between the corner and the 300 mm line.

>>> window(Ship("b", "small", 400.0, 100.0, 45.0))
(395.857864, 100.0, 34.142136)
>>> window(Ship("b", "small", 400.0, 100.0, 45.0), 20.0)
(395.857864, 100.0, 20.0)
>>> dispute_text(251.7157287525381)
'251.715729'
"""

from __future__ import annotations

import dataclasses as _dc
from typing import TYPE_CHECKING

import numpy as np
import shapely

from tabletop.geom.errors import InvalidInputError
from tabletop.geom.measure import json_mm
from tabletop.geom.mmtext import mm, mm_text
from tabletop.geom.tolerance import EPSILON_MM
from tabletop.obstacles.measuring import EDGE_TARGETS, Measurement, edge_line
from tabletop.obstacles.scene import Scene

if TYPE_CHECKING:
    from tabletop.obstacles.verdicts import CheckReport, Margin, Violation

__all__ = [
    "LARGEST_ZOOM_MM",
    "SMALLEST_ZOOM_MM",
    "DisputeLine",
    "check_zoom",
    "dispute_line",
    "dispute_notes",
    "dispute_ruling",
    "dispute_text",
    "dispute_window",
    "printed_names",
]

#: Smallest and largest half-width of the view, mm: beyond 150 mm a millimetre is under
#: three pixels of a 1000-pixel picture and the grid turns grey.
SMALLEST_ZOOM_MM = 1.0
LARGEST_ZOOM_MM = 150.0
# Room kept around the dimension line inside a default view, mm.
_ROOM_MM = 10.0
# The default view shows the whole distance only while it fits in this half-width, mm.
_WHOLE_UP_TO_MM = 60.0
# The placement rules that measure the closest distance between the two, as `measure`
# does: a legal pair of them is drawn against the rule's own line.
_CLOSEST_RULES = ("obstacle-edge", "obstacle-spacing")
# Half-width of a default view around the line when the distance does not fit, mm.
_AT_LINE_MM = 30.0


def check_zoom(zoom_mm: float) -> float:
    """Return `zoom_mm` (the view's half-width) if drawable, else refuse it.

    Raises
    ------
    InvalidInputError
        Outside :data:`SMALLEST_ZOOM_MM` to :data:`LARGEST_ZOOM_MM`.

    Examples
    --------
    >>> check_zoom(500.0)
    Traceback (most recent call last):
    ...
    tabletop.geom.errors.InvalidInputError: --zoom 500 mm: expected a half-width of 1 to 150 mm, so that a millimetre shows
    """
    if not SMALLEST_ZOOM_MM <= zoom_mm <= LARGEST_ZOOM_MM:
        raise InvalidInputError(
            f"--zoom {zoom_mm:g} mm: expected a half-width of {SMALLEST_ZOOM_MM:g} to "
            f"{LARGEST_ZOOM_MM:g} mm, so that a millimetre shows"
        )
    return float(zoom_mm)


def dispute_text(distance_mm: float) -> str:
    """Return a distance as the dimension line writes it: the JSON number of ``measure``."""
    text = f"{json_mm(distance_mm):.6f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


@_dc.dataclass(frozen=True)
class DisputeLine:
    """The line of the rule in question between the two objects.

    Attributes
    ----------
    at_mm : float
        Its distance from `around` (a band line or a placement limit), mm.
    around : str
        The object (or table line) it is measured from.
    what : str
        ``band line`` or ``limit``.
    contested_within : float
        Half-width of the contested band around it, mm.
    violation : Violation or None
        The violation whose limit it is.
    rule : Margin or None
        A rule the two keep, whose limit it is (``check``'s measurement of it).
    """

    at_mm: float
    around: str
    what: str
    contested_within: float
    violation: Violation | None = None
    rule: Margin | None = None


def dispute_line(scene: Scene, measurement: Measurement, report: CheckReport | None) -> DisputeLine:
    """Return the line in question: the rule's own line between the two, else the band line.

    The rule's line is a violation's limit between the two objects (the closest call, by
    ``|margin|``, of several), else the limit of an obstacle rule the two keep (a report
    made with ``margins=True`` lists them: two obstacles are ruled by their spacing, an
    obstacle and an edge by the edge limit, not by a range band). Only without either is
    the measurement's nearest band line taken.
    """
    within = float(scene.ruleset.contested_within)
    pair = {measurement.from_id, measurement.to_id}
    found = [
        v
        for v in (report.violations if report is not None else ())
        if v.limit is not None and v.points is not None and _between(scene, v, pair)
    ]
    if found:
        v = min(found, key=lambda v: abs(v.margin if v.margin is not None else 0.0))
        assert v.limit is not None
        # The limit is drawn around the first object, as the measurement is taken.
        return DisputeLine(float(v.limit), measurement.from_id, "limit", within, v)
    kept = [
        m
        for m in ((report.margins or ()) if report is not None else ())
        if m.rule in _CLOSEST_RULES and m.points is not None and _between(scene, m, pair)
    ]
    if kept:
        m = min(kept, key=lambda m: abs(m.margin))
        return DisputeLine(float(m.limit), measurement.from_id, "limit", within, rule=m)
    return DisputeLine(float(measurement.nearest_line), measurement.from_id, "band line", within)


def _between(scene: Scene, violation: Violation | Margin, pair: set[str]) -> bool:
    """Whether a violation is between the two: both objects, or one and a table line it ends on."""
    objects = set(violation.objects)
    if objects == pair:
        return True
    others = pair - objects
    if len(objects) != 1 or len(others) != 1 or not objects < pair:
        return False
    (other,) = others
    if other not in EDGE_TARGETS or violation.points is None:
        return False
    end = shapely.Point(np.asarray(violation.points, dtype=np.float64).reshape(2, 2)[1])
    try:
        line = edge_line(scene, other)
    except InvalidInputError:
        return False
    return bool(shapely.distance(line, end) <= EPSILON_MM)


def dispute_window(
    measurement: Measurement, zoom_mm: float | None, line_mm: float | None = None
) -> tuple[float, float, float]:
    """Return the view ``(centre x, centre y, half-width)`` in mm.

    The view is centred on the middle of the measurement when it fits (with `zoom_mm`, or
    by default while the distance is under about 100 mm), otherwise on the middle between
    the closest point of the second object and the line in question (`line_mm` from the
    first; default the nearest band line), where the call is.
    """
    pts = np.asarray(measurement.points, dtype=np.float64).reshape(2, 2)
    half = float(measurement.distance) / 2.0
    fits = half + _ROOM_MM <= (zoom_mm if zoom_mm is not None else _WHOLE_UP_TO_MM)
    if fits:
        centre = (pts[0] + pts[1]) / 2.0
        zoom = zoom_mm if zoom_mm is not None else max(half + _ROOM_MM, _ROOM_MM)
    else:
        d = pts[1] - pts[0]
        unit = d / float(np.hypot(*d))
        at = measurement.nearest_line if line_mm is None else line_mm
        at_line = pts[0] + unit * float(at)
        centre = (at_line + pts[1]) / 2.0
        gap = float(np.hypot(*(pts[1] - at_line))) / 2.0
        default = min(max(gap + _ROOM_MM, _AT_LINE_MM), LARGEST_ZOOM_MM)
        zoom = zoom_mm if zoom_mm is not None else default
    return json_mm(centre[0]), json_mm(centre[1]), json_mm(zoom)


def printed_names(scene: Scene) -> dict[str, str]:
    """Return the printed name of every catalog-token obstacle, by obstacle id."""
    return scene.token_names()


def _named(obj_id: str, names: dict[str, str] | None) -> str:
    return obj_id if not names or obj_id not in names else f"{obj_id} ({names[obj_id]})"


def dispute_notes(
    measurement: Measurement, line: DisputeLine, names: dict[str, str] | None = None
) -> list[str]:
    """Return the notes beside the picture: the pair, the rule's line, distance and margin.

    Every length is printed as ``check`` and ``measure --json`` give it, to the
    micrometre, so a distance and its margin read at one precision; a placement rule's
    dispute names its own line and no range band.
    """
    m = measurement
    rows = [f"{_named(m.from_id, names)} to {_named(m.to_id, names)}"]
    ruled = line.violation if line.violation is not None else line.rule
    if ruled is not None:
        rows.append(f"rule: {ruled.rule}")
        rows.append(f"placement limit {mm_text(line.at_mm)} mm from {line.around}")
        distance = ruled.distance if ruled.distance is not None else m.distance
        rows.append(f"distance {mm(distance)} mm")
        if ruled.margin is not None:
            rows.append(f"margin {mm(ruled.margin, sign=True)} mm (negative: on the wrong side)")
        if line.violation is not None:
            rows.append("VIOLATION" + (", contested" if ruled.contested else ""))
        else:
            rows.append("legal" + (", contested" if ruled.contested else ""))
    else:
        rows.append(f"band line {mm_text(line.at_mm)} mm from {line.around}")
        rows.append(f"distance {mm(m.distance)} mm, {m.band_words()}")
        side = "inside" if m.margin >= -EPSILON_MM else "beyond"
        rows.append(f"margin {mm(abs(m.margin))} mm {side} the line")
        rows.append("contested" if m.contested else "not contested")
    rows.append(f"shaded: within {mm_text(line.contested_within)} mm of the line")
    rows.append("grid: 1 mm (10 mm darker)")
    return rows


def dispute_ruling(
    measurement: Measurement, line: DisputeLine, names: dict[str, str] | None = None
) -> str:
    """Return the ruling sentence printed under the picture: what the call rests on.

    A violation's is ``check``'s message (and its ruling at the line when contested); a
    placement rule kept, the measurement against the rule's line; a band line, the
    ruling ``measure`` gives.
    """
    m = measurement
    if line.violation is not None:
        v = line.violation
        text = v.message if v.ruling is None else f"{v.message}; {v.ruling}"
        return f"Ruling: {text}"
    if line.rule is not None:
        r = line.rule
        text = (
            f"{' and '.join(_named(o, names) for o in r.objects)}: legal under {r.rule}, "
            f"measured {mm(r.distance)} mm against the {mm(r.limit)} mm limit, margin "
            f"{mm(r.margin, sign=True)} mm"
        )
        return f"Ruling: {text}" + (f"; {r.ruling}" if r.ruling else "")
    if m.contested and m.ruling is not None:
        return f"Ruling: {m.ruling.text()}"
    return (
        f"Ruling: {mm(m.distance)} mm is {m.band_words()}, more than "
        f"{mm_text(line.contested_within)} mm from the {mm_text(line.at_mm)} mm line: "
        "not a close call"
    )
