"""What the Tabletop Simulator X-Wing 2.0 mod's ruler would show, beside the rules' reading.

Online events are judged from that mod, whose arc ruler differs from the rules in three
ways (formulas carried from its public ``ArcCheck.lua``):

* **From the printed arc edge.** Attack range is measured from the part of the
  attacker's base edge between the printed arc lines, not from the closest point of the
  base: for the front arc, the front edge for ``|x| <= h tan(θ/2)`` (rays from the base
  centre at the arc's half-angle cross it 2.85 / 3.58 / 4.29 mm inside the corners of a
  small / medium / large base); for a side arc, the side edge and the corner strips of
  the front and rear edges; for the full front arc, the front edge and the front halves
  of the sides. It measures to the part of the defender's base (no guides) inside the
  arc's sector seen from the attacker's centre.
* **Bands as ⌊d / 100⌋ + 1.** A length exactly on a band line reads as the farther band,
  and touching is range 1: the mod has no range 0.
* **A 14 mm bullseye** (the rules' ruler is 15 mm wide here), measured from the front
  edge's middle 14 mm.

Without an arc the mod measures base to base, as the rules do; only the bands can differ.
The mod plays X-Wing 2.0 with small, medium and large bases; other rulesets and huge
bases are refused.

Examples
--------
>>> from tabletop.geom.areas import play_area
>>> from tabletop.geom.objects import Ship
>>> from tabletop.geom.rulesets import get_ruleset
>>> from tabletop.obstacles.measuring import measure
>>> from tabletop.obstacles.scene import Scene
>>> a = Ship("a", "small", 100.0, 100.0, 90.0)
>>> b = Ship("b", "small", 100.0, 240.0, 270.0)
>>> scene = Scene(get_ruleset("xwing2"), play_area("3x3ft"), ships=(a, b))
>>> reading = tts_reading(scene, measure(scene, "a", "b"))
>>> reading.distance, reading.band, measure(scene, "a", "b").band
(100.0, 2, 1)
>>> print(reading.reasons[0])
the mod reads a length on a band line as the farther band (floor(d/100) + 1): 100.0 mm is range 2 there, range 1 by the rules
"""

from __future__ import annotations

import dataclasses as _dc
import math as _math
from typing import Any

import numpy as np
import shapely

from tabletop.geom.errors import InvalidInputError
from tabletop.geom.measure import closest_points, json_mm
from tabletop.geom.mmtext import mm_text
from tabletop.geom.objects import Ship
from tabletop.geom.poses import FloatArray, to_world
from tabletop.geom.tolerance import EPSILON_MM
from tabletop.obstacles.measurement import Measurement
from tabletop.obstacles.scene import Scene

__all__ = [
    "TTS_ARC_DEGREES",
    "TTS_BAND_MM",
    "TTS_BULLSEYE_MM",
    "TtsReading",
    "tts_band",
    "tts_reading",
]

#: The mod's printed front-arc angle per base, degrees (rays from the base centre).
TTS_ARC_DEGREES: dict[str, float] = {"small": 81.24, "medium": 82.8, "large": 83.52}
#: The mod's band length: range ⌊d / 100⌋ + 1.
TTS_BAND_MM = 100.0
#: The mod's bullseye width, mm.
TTS_BULLSEYE_MM = 14.0

# Far enough that a sector reaches every object the loader accepts (coordinates ±10⁶ mm).
_FAR_MM = 1.0e7
# The arcs the mod names, by this project's names, and their direction from the heading
# (degrees, positive to the ship's left).
_DIRECTIONS = {"front": 0.0, "rear": 180.0, "left": 90.0, "right": -90.0}


def tts_band(distance: float) -> int:
    """Return the mod's range for a length: ⌊d / 100⌋ + 1 (touching is range 1).

    Examples
    --------
    >>> tts_band(0.0), tts_band(99.999), tts_band(100.0), tts_band(299.9)
    (1, 1, 2, 3)
    """
    return _math.floor(distance / TTS_BAND_MM) + 1


@_dc.dataclass(frozen=True, slots=True, eq=False)
class TtsReading:
    """What the mod's ruler shows for one measurement, and why it differs from the rules.

    Attributes
    ----------
    distance : float
        mm, from the printed arc edge with an arc (else base to base).
    band : int
        The mod's range, ⌊d / 100⌋ + 1.
    in_arc : bool or None
        With an arc: whether the mod finds the defender in it.
    points : ndarray of shape (2, 2)
        Where the mod's ruler lies (on the attacker, then on the defender).
    agrees : bool
        Whether the mod shows the rules' band (and, with an arc, their in-arc answer).
    reasons : tuple of str
        Why the mod's reading differs from the rules' (empty when it does not): a longer
        length is said even when the band is the same.
    """

    distance: float
    band: int
    in_arc: bool | None
    points: FloatArray
    agrees: bool = True
    reasons: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Return the ``tts`` object of ``tabletop measure --also tts --json``."""
        out: dict[str, Any] = {"distance": json_mm(self.distance), "band": self.band}
        if self.in_arc is not None:
            out["in_arc"] = self.in_arc
        out["points"] = [[json_mm(x), json_mm(y)] for x, y in self.points]
        out["agrees"] = self.agrees
        out["reasons"] = list(self.reasons)
        return out

    def describe(self) -> str:
        """Return the lines ``tabletop measure --also tts`` adds for people."""
        where = ""
        if self.in_arc is not None:
            where = ", in arc" if self.in_arc else ", NOT in arc (base to base follows)"
        line = TTS_BAND_MM * round(self.distance / TTS_BAND_MM)
        shown = mm_text(self.distance, line=line)
        lines = [f"  TTS mod:    range {self.band}, {shown} mm{where}"]
        if self.agrees:
            lines.append(
                "  TTS agrees: same band" + (", same arc" if self.in_arc is not None else "")
            )
        lines.extend(f"  TTS differs: {reason}" for reason in self.reasons)
        return "\n".join(lines)


def _half(scene: Scene, ship: Ship) -> float:
    width, length = scene.ruleset.base_size(ship.base)
    if abs(width - length) > EPSILON_MM or ship.base not in TTS_ARC_DEGREES:
        raise InvalidInputError(
            f"{ship.id!r} has a {ship.base} base: the mod's ruler is modelled for small, "
            "medium and large bases only"
        )
    return width / 2.0


def _own_segments(arc: str, h: float, degrees: float) -> list[list[tuple[float, float]]]:
    """Return the attacker's measuring segments in its own frame (x right, y forward)."""
    a = _math.tan(_math.radians(degrees / 2.0)) * h
    half_eye = TTS_BULLSEYE_MM / 2.0
    segments = {
        "front": [[(-a, h), (a, h)]],
        "rear": [[(-a, -h), (a, -h)]],
        "left": [[(-a, -h), (-h, -h)], [(-h, -h), (-h, h)], [(-h, h), (-a, h)]],
        "right": [[(a, -h), (h, -h)], [(h, -h), (h, h)], [(h, h), (a, h)]],
        "bullseye": [[(-half_eye, h), (half_eye, h)]],
        "full-front": [[(-h, 0.0), (-h, h)], [(-h, h), (h, h)], [(h, h), (h, 0.0)]],
        "full-rear": [[(-h, 0.0), (-h, -h)], [(-h, -h), (h, -h)], [(h, -h), (h, 0.0)]],
    }
    return segments[arc]


def _sector(arc: str, degrees: float) -> list[tuple[float, float]]:
    """Return the arc's region seen from the attacker's centre, in its own frame."""
    if arc == "bullseye":
        half_eye = TTS_BULLSEYE_MM / 2.0
        return [(-half_eye, 0.0), (half_eye, 0.0), (half_eye, _FAR_MM), (-half_eye, _FAR_MM)]
    if arc in ("full-front", "full-rear"):
        direction, spread = (0.0 if arc == "full-front" else 180.0), 90.0
    else:
        direction = _DIRECTIONS[arc]
        spread = degrees / 2.0 if arc in ("front", "rear") else (180.0 - degrees) / 2.0
    points = [(0.0, 0.0)]
    for step in range(9):
        angle = _math.radians(90.0 + direction - spread + step * spread / 4.0)
        points.append((_FAR_MM * _math.cos(angle), _FAR_MM * _math.sin(angle)))
    return points


def _world(points: Any, ship: Ship) -> FloatArray:
    return to_world(np.asarray(points, dtype=np.float64), ship.pose)


def tts_reading(scene: Scene, rules: Measurement) -> TtsReading:
    """Return what the mod's ruler shows for the measurement `rules`, and why they differ.

    Parameters
    ----------
    scene : Scene
        An X-Wing 2.0 scene.
    rules : Measurement
        The rules' reading (:func:`tabletop.obstacles.measuring.measure`), ship to ship.

    Raises
    ------
    InvalidInputError
        For another ruleset, an obstacle or a line of the table, or a base the mod's
        ruler is not modelled for.
    """
    if scene.ruleset.name != "xwing2":
        raise InvalidInputError(
            f"--also tts: the Tabletop Simulator mod plays X-Wing 2.0; this scene's ruleset "
            f"is {scene.ruleset.name}"
        )
    ships = {s.id: s for s in scene.ships}
    for ident in (rules.from_id, rules.to_id):
        if ident not in ships:
            raise InvalidInputError(
                f"--also tts: {ident!r} is not a ship; the mod's ruler measures ship to ship"
            )
    attacker, defender = ships[rules.from_id], ships[rules.to_id]
    h_a, h_d = _half(scene, attacker), _half(scene, defender)
    degrees = TTS_ARC_DEGREES[attacker.base]
    square = [(-h_d, -h_d), (h_d, -h_d), (h_d, h_d), (-h_d, h_d), (-h_d, -h_d)]
    outline = shapely.LineString(_world(square, defender))
    in_arc: bool | None = None
    if rules.arc is None:
        own = shapely.Polygon(_world(square[:4], attacker))
        target = shapely.Polygon(_world(square[:4], defender))
    else:
        own = shapely.MultiLineString(
            [_world(s, attacker) for s in _own_segments(rules.arc, h_a, degrees)]
        )
        part = shapely.intersection(
            outline, shapely.Polygon(_world(_sector(rules.arc, degrees), attacker))
        )
        in_arc = not part.is_empty
        # Out of arc the mod names no range; the plain distance base to base is shown.
        if in_arc:
            target = part
        else:
            own = shapely.Polygon(_world(square[:4], attacker))
            target = shapely.Polygon(_world(square[:4], defender))
    d, points = closest_points(own, target)
    distance = float(d)
    band = tts_band(distance)
    agrees = band == rules.band and (in_arc is None or in_arc == rules.in_arc)
    reading = TtsReading(distance, band, in_arc, np.asarray(points).reshape(2, 2), agrees)
    return _dc.replace(reading, reasons=_reasons(rules, reading, attacker.base, degrees, h_a))


def _reasons(
    rules: Measurement, tts: TtsReading, base: str, degrees: float, h: float
) -> tuple[str, ...]:
    """Say why the mod's reading differs from the rules' (nothing when they agree)."""
    reasons: list[str] = []
    arc = rules.arc
    if arc is not None and tts.in_arc != rules.in_arc:
        width = (
            "14 mm wide where the rules' ruler is 15 mm"
            if arc == "bullseye"
            else "cast from the base centre"
        )
        seen = "in" if tts.in_arc else "out of"
        reasons.append(f"the mod finds the defender {seen} the {arc} arc: its arc is {width}")
    longer = tts.distance - rules.distance
    if arc is not None and tts.in_arc and rules.in_arc and longer > EPSILON_MM:
        if arc == "bullseye":
            edge = "the middle 14 mm of the front edge"
        elif arc in ("front", "rear"):
            a = _math.tan(_math.radians(degrees / 2.0)) * h
            edge = (
                f"the {arc} edge between the printed arc lines (|x| <= {a:.2f} mm on a {base} "
                f"base, {h - a:.2f} mm in from each corner)"
            )
        else:
            edge = f"the part of the base edge between the printed {arc} arc lines"
        reasons.append(
            f"the mod measures from the printed arc edge, {edge}; the rules from the closest "
            f"point of the base: {mm_text(longer)} mm longer"
        )
    rules_band = rules.band
    if rules_band != tts.band:
        d = rules.distance
        if rules_band == 0:
            reasons.append(
                "the mod has no range 0: touching is range 1 there, range 0 by the rules"
            )
        elif longer > EPSILON_MM and arc is not None:
            reasons.append(
                f"that longer length is range {tts.band} there, range {_band_name(rules_band)} by the rules"
            )
        elif abs(d / TTS_BAND_MM - round(d / TTS_BAND_MM)) * TTS_BAND_MM <= EPSILON_MM:
            reasons.append(
                "the mod reads a length on a band line as the farther band (floor(d/100) + 1): "
                f"{mm_text(d)} mm is range {tts.band} there, range {_band_name(rules_band)} by the rules"
            )
        else:
            reasons.append(
                f"the mod's range is floor(d/100) + 1 = {tts.band}; the rules' is {_band_name(rules_band)}"
            )
    return tuple(reasons)


def _band_name(band: int | None) -> str:
    return "beyond 5" if band is None else str(band)
