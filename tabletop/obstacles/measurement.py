"""Measurement results: one common core and the typed detail of each game.

A :class:`Measurement` holds what every game reports (distance, closest points, the
nearest band line, margin, contested, arc); its :attr:`~Measurement.detail` is an
:class:`XWingDetail` (range, obstruction, tied segments) or an :class:`ArmadaDetail`
(distance and range bands, defending hull zone, obstruction, line of sight). Both
details answer the same questions (:meth:`band_words`, :attr:`arc_word`,
:attr:`obstructed`), so a report never asks which game it is.

Examples
--------
>>> XWingDetail(band=2).band_words()
'range 2'
>>> from tabletop.obstacles.measurement import ArmadaDetail
>>> ArmadaDetail(distance_band=None, range_band=None).band_words()
'beyond distance 5, beyond long range'
"""

from __future__ import annotations

import dataclasses as _dc
from typing import TYPE_CHECKING, Any, TypeAlias

from tabletop.geom.measure import json_mm
from tabletop.geom.mmtext import mm, mm_same_precision, mm_text
from tabletop.geom.poses import FloatArray
from tabletop.geom.tolerance import EPSILON_MM
from tabletop.obstacles.obstruction import Obstructed
from tabletop.obstacles.rulings import RANGE_BAND_NAMES

if TYPE_CHECKING:
    from tabletop.obstacles.armada_detail import ArmadaDetail, MeasurementDetail
    from tabletop.obstacles.rulings import Ruling

__all__ = [
    "RANGE_BAND_NAMES",
    "ArmadaDetail",
    "Measurement",
    "MeasurementDetail",
    "Segment",
    "XWingDetail",
]


#: Points in mm as they are reported (rounded by :func:`tabletop.geom.measure.json_mm`).
Segment: TypeAlias = tuple[tuple[float, float], ...]


def segment_of(points: Any) -> Segment:
    """Return points (an array of ``(x, y)``, mm) as a reported :data:`Segment`."""
    return tuple((json_mm(x), json_mm(y)) for x, y in points)


def _points_json(points: Segment) -> list[list[float]]:
    return [[x, y] for x, y in points]


@_dc.dataclass(frozen=True, slots=True)
class Clearance:
    """How far the measured line of fire clears one obstacle (or obstructing ship).

    Attributes
    ----------
    id : str
        The obstacle or ship.
    margin : float
        Signed, mm: positive, the gap between the segment and it; 0, a tangent (touching,
        which obstructs); negative, how far the segment crosses it (how far the line would
        have to move sideways to clear it).
    contested : bool
        ``|margin| <= contested_within``: a judge's call.

    Examples
    --------
    >>> Clearance("rock", 0.0, True).to_json()
    {'id': 'rock', 'how': 'tangent', 'margin': 0.0, 'contested': True}
    >>> Clearance("rock", -0.01, True).words()
    'rock: crossing, 0.01 mm across the line of fire, contested'
    """

    id: str
    margin: float
    contested: bool

    @property
    def how(self) -> str:
        """``clear``, ``tangent`` (touching: obstructs) or ``crossing``."""
        if abs(self.margin) <= EPSILON_MM:
            return "tangent"
        return "clear" if self.margin > 0.0 else "crossing"

    def to_json(self) -> dict[str, Any]:
        """Return ``{"id", "how", "margin", "contested"}``."""
        return {
            "id": self.id,
            "how": self.how,
            "margin": json_mm(self.margin),
            "contested": self.contested,
        }

    def words(self) -> str:
        """Return the clearance for people, the margin at the precision it needs."""
        flag = ", contested" if self.contested else ""
        if self.how == "tangent":
            return f"{self.id}: tangent, the line of fire touches it (obstructs){flag}"
        amount = mm(abs(self.margin))
        if self.how == "clear":
            return f"{self.id}: clear, {amount} mm from the line of fire{flag}"
        return f"{self.id}: crossing, {amount} mm across the line of fire{flag}"


@_dc.dataclass(frozen=True, slots=True)
class XWingDetail:
    """What an X-Wing measurement adds: the range band and, with an arc, obstruction.

    Attributes
    ----------
    band : int or None
        Range 0-5 (0 only in 2.0), None beyond range 5.
    obstructed : bool, "attacker-chooses" or None
        With an arc: whether an obstacle or a huge ship crosses the measured segment;
        None without an arc.
    obstructed_by : tuple of str
        What crosses it, sorted.
    tied_segments : tuple of Segment or None
        Where the closest points are not unique, each band of equally short segments
        (as a polygon); None where they are unique.
    clearances : tuple of Clearance
        With an arc: each blocker the measured segment crosses, touches or clears by no
        more than ``contested_within``, smallest margin first.
    """

    band: int | None
    obstructed: Obstructed | None = None
    obstructed_by: tuple[str, ...] = ()
    tied_segments: tuple[Segment, ...] | None = None
    clearances: tuple[Clearance, ...] = ()

    #: What a measurement from part of a base is called in this game.
    arc_word = "arc"

    @property
    def line_of_sight(self) -> bool | None:
        """X-Wing has no separate line of sight: always None."""
        return None

    @property
    def defending_zone(self) -> str | None:
        """X-Wing has no hull zones: always None."""
        return None

    @property
    def sight_line(self) -> Segment | None:
        """X-Wing traces no separate sight line: always None."""
        return None

    def out_of_arc(self) -> XWingDetail:
        """Return the detail of a defender out of arc: no attack, so nothing on obstruction."""
        return _dc.replace(self, obstructed=None, obstructed_by=(), clearances=())

    def unasked_json(self) -> dict[str, Any]:
        """Return the obstruction fields of a defender out of arc: null, none asked."""
        return {"obstructed": None, "obstructed_by": []}

    def band_words(self) -> str:
        """Return the band in words (``range 2``, ``beyond range 5``)."""
        return "beyond range 5" if self.band is None else f"range {self.band}"

    def band_json(self) -> dict[str, Any]:
        """Return the band fields of the JSON answer."""
        return {"band": self.band}

    def arc_json(self) -> dict[str, Any]:
        """Return the fields an arc adds after ``in_arc``."""
        out: dict[str, Any] = {}
        if self.tied_segments is not None:
            out["tied_segments"] = [_points_json(band) for band in self.tied_segments]
        if self.obstructed is not None:
            out["obstructed"] = self.obstructed
            out["obstructed_by"] = list(self.obstructed_by)
            if self.contested_clearance:
                out["clearances"] = [c.to_json() for c in self.clearances]
        return out

    @property
    def contested_clearance(self) -> bool:
        """Whether the line of fire passes within ``contested_within`` of a blocker's edge."""
        return any(c.contested for c in self.clearances)


def _clearances(detail: MeasurementDetail) -> tuple[Clearance, ...]:
    return detail.clearances


@_dc.dataclass(frozen=True, slots=True, eq=False)
class Measurement:
    """A measurement from object A to object B.

    Attributes
    ----------
    from_id, to_id : str
        The objects.
    distance : float
        mm; the attack range when an arc was given and B is in it.
    points : ndarray of shape (2, 2)
        The closest points that gave `distance` (on A, then on B).
    nearest_line, margin : float
        The nearest band line, and ``line - distance`` (positive: on the shorter side).
    contested : bool
        Within ``contested_within`` of a band line.
    detail : XWingDetail or ArmadaDetail
        The bands and, with an arc, obstruction and sight, as the game defines them.
    arc : str or None
        The arc (X-Wing) or hull zone (Armada) measured from.
    in_arc : bool or None
        Whether B is in that arc (None without an arc).
    notes : tuple of str
        What an answer assumed (a generic Armada token, an estimated targeting point).
    base_distance : float or None
        Armada, with a hull zone in arc: the plain distance between the two bases, beside
        the attack range measured from the hull zone on the ship's hull token (None
        otherwise).
    ruling : Ruling or None
        Contested: the line that raised the flag (`nearest_line`) and how it is ruled.
    """

    from_id: str
    to_id: str
    distance: float
    points: FloatArray
    nearest_line: float
    margin: float
    contested: bool
    detail: MeasurementDetail
    arc: str | None = None
    in_arc: bool | None = None
    notes: tuple[str, ...] = ()
    base_distance: float | None = None
    ruling: Ruling | None = None

    @property
    def band(self) -> int | None:
        """X-Wing range band (None for Armada or beyond range 5)."""
        return self.detail.band if isinstance(self.detail, XWingDetail) else None

    @property
    def distance_band(self) -> int | None:
        """Armada distance band (None for X-Wing or beyond distance 5)."""
        return None if isinstance(self.detail, XWingDetail) else self.detail.distance_band

    @property
    def range_band(self) -> str | None:
        """Armada range band name (None for X-Wing or beyond long range)."""
        return None if isinstance(self.detail, XWingDetail) else self.detail.range_band

    @property
    def defending_zone(self) -> str | None:
        """Armada: the defending hull zone measured to."""
        return self.detail.defending_zone

    def band_words(self) -> str:
        """Return the band in words (``range 2``, ``distance 3, medium range``)."""
        return self.detail.band_words()

    def to_json(self) -> dict[str, Any]:
        """Return the JSON object of ``tabletop measure --json`` (``cli.md``)."""
        out: dict[str, Any] = {
            "from": self.from_id,
            "to": self.to_id,
            "distance": json_mm(self.distance),
        }
        out.update(self.detail.band_json())
        out["contested"] = self.contested
        out["points"] = [[json_mm(x), json_mm(y)] for x, y in self.points]
        out["nearest_line"] = json_mm(self.nearest_line)
        out["margin"] = json_mm(self.margin)
        if self.ruling is None:
            out.update({"contested_line": None, "contested_margin": None, "ruling": None})
        else:
            out.update(self.ruling.to_json())
        if self.arc is not None:
            out["arc"] = self.arc
            out["in_arc"] = self.in_arc
            out.update(self.detail.arc_json())
            if self.in_arc is False:
                # Out of arc there is no attack: obstruction and sight are not answered.
                out.update(self.detail.unasked_json())
        if self.notes:
            out["notes"] = list(self.notes)
        if self.base_distance is not None:
            out["base_distance"] = json_mm(self.base_distance)
        return out

    def describe(self) -> str:
        """Return the report of ``tabletop measure`` for people.

        Examples
        --------
        >>> import numpy as np
        >>> m = Measurement("a", "b", 150.0, np.array([[100.0, 120.0], [100.0, 270.0]]),
        ...     200.0, 50.0, False, XWingDetail(band=2))
        >>> print(m.describe())
        a to b
          distance:   150.0 mm
          band:       range 2
          margin:     50.0 mm inside the 200.0 mm line
          contested:  no
          closest:    (100.0, 120.0) to (100.0, 270.0)
        """
        detail = self.detail
        head = f"{self.from_id} to {self.to_id}"
        lines = []
        if self.arc is not None:
            head += f", from the {self.arc} {detail.arc_word}"
            where = "in arc" if self.in_arc else "NOT in arc (the plain distance follows)"
            if detail.defending_zone:
                where += f", to the {detail.defending_zone} hull zone"
            lines.append(f"  arc:        {where}")
        lines.insert(0, head)
        # The distance and its margin at the same precision, however fine the call.
        # A ruling prints the margin in full (mm()): the numbers beside it say it alike.
        distance, margin, *corners = mm_same_precision(
            [self.distance, abs(self.margin), *(float(v) for p in self.points for v in p)],
            lines=[self.nearest_line, None, None, None, None, None],
            beside=mm(abs(self.margin)) if self.contested and self.ruling is not None else None,
        )
        lines.append(f"  distance:   {distance} mm")
        lines.append(f"  band:       {self.band_words()}")
        # On the line within the tolerance is in the shorter band: inside it.
        side = "inside" if self.margin >= -EPSILON_MM else "beyond"
        line = mm_text(self.nearest_line)
        if self.nearest_line == 0.0:
            lines.append(f"  margin:     {margin} mm from touching (the 0.0 mm line)")
        else:
            lines.append(f"  margin:     {margin} mm {side} the {line} mm line")
        contested = "no"
        if self.contested:
            ruling = "a line" if self.ruling is None else self.ruling.text()
            contested = f"YES: {ruling}"
        lines.append(f"  contested:  {contested}")
        (x0, y0, x1, y1) = corners
        lines.append(f"  closest:    ({x0}, {y0}) to ({x1}, {y1})")
        if self.base_distance is not None:
            lines.append(
                f"  measured:   from the {self.arc} hull zone on the hull token (attack range); "
                f"base to base is {mm_text(self.base_distance)} mm"
            )
        if detail.obstructed is not None:
            by = ", ".join(detail.obstructed_by)
            verdict = {True: "YES", False: "no", "attacker-chooses": "the attacker chooses"}[
                detail.obstructed
            ]
            tied = " (tied shortest segments)" if detail.tied_segments is not None else ""
            tangent = {c.id for c in _clearances(detail) if c.how == "tangent"}
            if tangent:
                # A line that only touches a blocker does not cross it; it obstructs all the same.
                crossing = ", ".join(i for i in detail.obstructed_by if i not in tangent)
                by = ", ".join(
                    ([f"crossing {crossing}"] if crossing else [])
                    + [f"touching {', '.join(sorted(tangent))} (tangent)"]
                )
                lines.append(f"  obstructed: {verdict}{tied}, {by}")
            else:
                lines.append(f"  obstructed: {verdict}{tied}" + (f", crossing {by}" if by else ""))
            if detail.contested_clearance:
                lines.extend(f"  clearance:  {c.words()}" for c in detail.clearances)
        if detail.line_of_sight is not None:
            sight = "yes" if detail.line_of_sight else "NO: traced through another hull zone"
            lines.append(f"  sight:      {sight}")
        lines.extend(f"  note:       {note}" for note in self.notes)
        return "\n".join(lines)


def __getattr__(name: str) -> object:
    """Load :class:`ArmadaDetail` (and the :data:`MeasurementDetail` union) on first use.

    PEP 562: an X-Wing measurement never builds an Armada detail, so its class is
    defined in :mod:`tabletop.obstacles.armada_detail` with the union of both details,
    imported with the first Armada measurement; ``from tabletop.obstacles.measurement
    import ArmadaDetail`` (or ``MeasurementDetail``) works as before.
    """
    if name not in ("ArmadaDetail", "MeasurementDetail"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from tabletop.obstacles import armada_detail

    value: object = getattr(armada_detail, name)
    globals()[name] = value
    return value
