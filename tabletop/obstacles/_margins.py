"""A rule's measurement: signed margins, distances to the edges and into a box, limit words.

Shared by the rules of :mod:`tabletop.obstacles.legality` and
:mod:`tabletop.obstacles._deployment`; every length is in mm.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import shapely

from tabletop.geom.areas import PlayArea
from tabletop.geom.poses import FloatArray
from tabletop.geom.rules import RuleLine
from tabletop.geom.rulesets import Ruleset
from tabletop.geom.tolerance import same_length, within
from tabletop.obstacles.verdicts import Margin


def _margin(value: float) -> float:
    """Return a signed margin, lengths within EPSILON_MM of the line taken as on it."""
    return 0.0 if same_length(value, 0.0) else float(value)


def _contested(margin: float, ruleset: Ruleset) -> bool:
    return bool(within(abs(margin), ruleset.contested_within))


def _measure(
    ruleset: Ruleset,
    rule: str,
    objects: Sequence[str],
    line: RuleLine,
    distance: float,
    margin: float,
    points: FloatArray | None,
) -> Margin:
    """Return a rule's measurement against its `line`: the limit, and a ruling when contested.

    `margin` is signed, positive legal; within the tolerance of 0 it is on the line.
    """
    margin = _margin(margin)
    contested = _contested(margin, ruleset)
    return Margin(
        rule,
        tuple(objects),
        float(distance),
        float(line.line),
        margin,
        contested,
        points,
        _ruling(line, margin, ruleset) if contested else None,
    )


def _ruling(line: RuleLine, margin: float, ruleset: Ruleset) -> str:
    """Return the words a judge rules a contested call at `line` by."""
    # The rulings load with the first contested call: most tables have none.
    from tabletop.obstacles.rulings import rule_ruling

    return rule_ruling(line, margin, ruleset.contested_within).text()


#: Slack past the contested zone (mm) within which a measurement is still recorded
#: without ``--margins``: far more than any rounding between a vectorised margin and the
#: one :func:`_measure` is given, as the pairwise rules' index reach keeps.
NEAR_SLACK_MM = 1e-3


def _worth_recording(
    margins: FloatArray, ruleset: Ruleset, *, every: bool
) -> np.ndarray[Any, np.dtype[np.intp]]:
    """Return the indices of the measurements a rule records (:func:`_measure`).

    With `every` (``--margins``) all of them; otherwise those that may break the line
    or be contested (margin at most ``contested_within`` plus :data:`NEAR_SLACK_MM`): a
    report without margins lists only violations and contested calls, so the others
    need no record, and each one recorded is decided by its rule's line as before.
    """
    if every:
        return np.arange(len(margins))
    near = np.asarray(margins, dtype=np.float64) <= ruleset.contested_within + NEAR_SLACK_MM
    return np.flatnonzero(near)


def _edge_distances(
    polygon: shapely.Geometry, area: PlayArea
) -> list[tuple[str, float, FloatArray]]:
    """Signed distance of an outline from each edge, inward (negative past the edge)."""
    coords = np.asarray(shapely.get_coordinates(polygon), dtype=np.float64)
    out = []
    i = int(np.argmin(coords[:, 1]))
    out.append(("bottom", coords[i, 1], np.array([coords[i], [coords[i, 0], 0.0]])))
    i = int(np.argmax(coords[:, 1]))
    out.append(
        ("top", area.height - coords[i, 1], np.array([coords[i], [coords[i, 0], area.height]]))
    )
    i = int(np.argmin(coords[:, 0]))
    out.append(("left", coords[i, 0], np.array([coords[i], [0.0, coords[i, 1]]])))
    i = int(np.argmax(coords[:, 0]))
    out.append(
        ("right", area.width - coords[i, 0], np.array([coords[i], [area.width, coords[i, 1]]]))
    )
    return out


def _past_box(
    polygon: shapely.Geometry, box: tuple[float, float, float, float]
) -> tuple[str, float, FloatArray]:
    """How far an outline lies inside a box at its worst side: ``(side, inward, points)``.

    `inward` is negative by how far the outline reaches past that side; `points` are the
    farthest-out vertex and its foot on the side.
    """
    x0, y0, x1, y1 = box
    coords = np.asarray(shapely.get_coordinates(polygon), dtype=np.float64)
    sides = []
    i = int(np.argmin(coords[:, 1]))
    sides.append(("bottom", coords[i, 1] - y0, np.array([coords[i], [coords[i, 0], y0]])))
    i = int(np.argmax(coords[:, 1]))
    sides.append(("top", y1 - coords[i, 1], np.array([coords[i], [coords[i, 0], y1]])))
    i = int(np.argmin(coords[:, 0]))
    sides.append(("left", coords[i, 0] - x0, np.array([coords[i], [x0, coords[i, 1]]])))
    i = int(np.argmax(coords[:, 0]))
    sides.append(("right", x1 - coords[i, 0], np.array([coords[i], [x1, coords[i, 1]]])))
    side, inward, points = min(sides, key=lambda s: float(s[1]))
    return side, float(inward), points


def _past_boxes(
    polygons: Sequence[shapely.Geometry], box: tuple[float, float, float, float]
) -> list[tuple[str, float, FloatArray]]:
    """:func:`_past_box` of many outlines at once: the same vertices, sides and arithmetic.

    Each outline's extreme vertex on a side is the first of its vertices reaching that
    far, and its worst side the first of the least inward distance (bottom, top, left,
    right), as :func:`_past_box` picks them one outline at a time.
    """
    worst = _BoxExtremes(polygons, box)
    return [worst.entry(k) for k in range(len(polygons))]


class _BoxExtremes:
    """Every outline's worst side of a box, in one vectorised pass (:func:`_past_boxes`).

    ``inward[k]`` is outline k's least inward distance (negative past the side); the
    side and the points of outline k are built only when asked (:meth:`entry`), so a
    rule makes a record only for the outlines near its line.
    """

    def __init__(
        self, polygons: Sequence[shapely.Geometry], box: tuple[float, float, float, float]
    ) -> None:
        self.box = box
        if not len(polygons):
            self.inward: FloatArray = np.zeros(0)
            return
        x0, y0, x1, y1 = box
        coords, owner = shapely.get_coordinates(
            np.asarray(polygons, dtype=object), return_index=True
        )
        self.coords = coords = np.asarray(coords, dtype=np.float64)
        x, y = coords[:, 0], coords[:, 1]
        position = np.arange(len(coords))

        def first(values: FloatArray) -> np.ndarray[Any, np.dtype[np.intp]]:
            # Per outline, the index of the first vertex of the least value.
            order = np.lexsort((position, values, owner))
            starts = np.searchsorted(owner[order], np.arange(len(polygons)), side="left")
            return np.asarray(order[starts], dtype=np.intp)

        count = len(coords) // len(polygons)
        if count * len(polygons) == len(coords) and np.array_equal(
            owner, np.repeat(np.arange(len(polygons)), count)
        ):
            # Outlines of one vertex count (a table of alike rocks and bases): a row each,
            # and argmin/argmax pick the first vertex of the extreme value, as `first` does.
            starts = np.arange(0, len(coords), count)
            rows_y, rows_x = y.reshape(-1, count), x.reshape(-1, count)
            low, high = starts + rows_y.argmin(axis=1), starts + rows_y.argmax(axis=1)
            west, east = starts + rows_x.argmin(axis=1), starts + rows_x.argmax(axis=1)
        else:
            low, high, west, east = first(y), first(-y), first(x), first(-x)
        every = np.stack([y[low] - y0, y1 - y[high], x[west] - x0, x1 - x[east]], axis=1)
        self.side = np.argmin(every, axis=1)
        rows = np.arange(len(polygons))
        self.inward = every[rows, self.side]
        self.vertex = np.stack([low, high, west, east], axis=1)[rows, self.side]

    def entry(self, k: int) -> tuple[str, float, FloatArray]:
        """Return outline k's ``(side, inward, points)``, as :func:`_past_box` gives it."""
        x0, y0, x1, y1 = self.box
        side, i = int(self.side[k]), int(self.vertex[k])
        x, y = self.coords[i]
        foot = ([x, y0], [x, y1], [x0, y], [x1, y])[side]
        points = np.array([self.coords[i], foot])
        return _SIDES[side], float(self.inward[k]), points


_SIDES = ("bottom", "top", "left", "right")


def _with_band(ruleset: Ruleset, limit: float) -> str:
    """``200 mm (range 2)``: the band only where the limit is one of its lines."""
    words = ruleset.limit_words(limit)
    return f"{limit:g} mm ({words})" if words else f"{limit:g} mm"


def _apart(ruleset: Ruleset, limit: float) -> str:
    """``100 mm apart (range 1)``, the band only where the limit is one of its lines."""
    words = ruleset.limit_words(limit)
    return f"{limit:g} mm apart ({words})" if words else f"{limit:g} mm apart"


def _words_first(ruleset: Ruleset, limit: float) -> str:
    """``range 1 (100 mm)``, or ``150 mm`` where the limit is no band line."""
    words = ruleset.limit_words(limit)
    return f"{words} ({limit:g} mm)" if words else f"{limit:g} mm"
