"""Measuring between scene objects: distance, band, arc and attack range.

This is what ``tabletop measure`` prints. Distances between ships use the bases
without guides (an Armada squadron is its disk); with an arc, the distance is the
attack range to the in-arc part of the defender (X-Wing: its base; Armada: the
defending hull zone, or the squadron's disk).

Examples
--------
>>> from geom.rulesets import get_ruleset
>>> from geom.areas import play_area
>>> from geom.objects import Ship
>>> from obstacles.scene import Scene
>>> xw = get_ruleset("xwing2")
>>> a = Ship("a", "small", 100.0, 100.0, 90.0)
>>> b = Ship("b", "small", 100.0, 340.0, 270.0)
>>> m = measure(Scene(xw, play_area("3x3ft"), ships=(a, b)), "a", "b")
>>> m.distance, m.band, m.contested
(200.0, 2, True)
"""

from __future__ import annotations

import dataclasses as _dc
from typing import Any

import numpy as np
import shapely

from geom.arcs import attack_range, parse_xwing_arc
from geom.errors import InvalidInputError
from geom.hulls import (
    HULL_ZONES,
    ArmadaAttack,
    HullArcs,
    armada_attack_range,
    hull_arcs,
    hull_zone,
)
from geom.measure import band, band_report, closest_points, json_mm
from geom.objects import Ship
from geom.poses import FloatArray
from geom.rulesets import EPSILON_MM
from geom.shapes import world_polygon
from obstacles.obstruction import (
    SightLine,
    armada_sight_line,
    obstructed_band,
    obstructed_segment,
    tied_bands,
)
from obstacles.scene import Obstacle, Scene

__all__ = ["RANGE_BAND_NAMES", "Measurement", "json_mm", "measure"]

#: Armada range bands by index.
RANGE_BAND_NAMES: tuple[str, ...] = ("close", "medium", "long")


@_dc.dataclass(frozen=True, eq=False)
class Measurement:
    """A measurement from object A to object B.

    Attributes
    ----------
    from_id, to_id : str
        The objects.
    game : {"xwing", "armada"}
        Which band fields apply.
    distance : float
        mm; the attack range when an arc was given and B is in it.
    points : ndarray of shape (2, 2)
        The closest points that gave `distance` (on A, then on B).
    band : int or None
        X-Wing range (0-5), None beyond 5 or for Armada.
    distance_band : int or None
        Armada distance 1-5, None beyond.
    range_band : str or None
        Armada ``close``, ``medium`` or ``long``, None beyond.
    nearest_line, margin : float
        The nearest band line, and ``line - distance`` (positive: on the shorter side).
    contested : bool
        Within ``contested_within`` of a band line.
    arc : str or None
        The arc (X-Wing) or hull zone (Armada) measured from.
    in_arc : bool or None
        Whether B is in that arc (None without an arc).
    defending_zone : str or None
        Armada: the defending hull zone measured to.
    notes : tuple of str
        What an answer assumed (a generic Armada token, an estimated targeting point).
    """

    from_id: str
    to_id: str
    game: str
    distance: float
    points: FloatArray
    band: int | None
    distance_band: int | None
    range_band: str | None
    nearest_line: float
    margin: float
    contested: bool
    arc: str | None = None
    in_arc: bool | None = None
    defending_zone: str | None = None
    notes: tuple[str, ...] = ()
    extra: dict[str, Any] = _dc.field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Return the JSON object of ``tabletop measure --json`` (``cli.md``)."""
        out: dict[str, Any] = {
            "from": self.from_id,
            "to": self.to_id,
            "distance": json_mm(self.distance),
        }
        if self.game == "xwing":
            out["band"] = self.band
        else:
            out["distance_band"] = self.distance_band
            out["range_band"] = self.range_band
        out["contested"] = self.contested
        out["points"] = [[json_mm(x), json_mm(y)] for x, y in self.points]
        out["nearest_line"] = json_mm(self.nearest_line)
        out["margin"] = json_mm(self.margin)
        if self.arc is not None:
            out["arc"] = self.arc
            out["in_arc"] = self.in_arc
            if self.game == "armada":
                out["defending_zone"] = self.defending_zone
        out.update(self.extra)
        if self.notes:
            out["notes"] = list(self.notes)
        return out


def _shape(scene: Scene, obj: Ship | Obstacle) -> tuple[shapely.Geometry, float]:
    if isinstance(obj, Ship):
        return obj.measured_shape(scene.ruleset)
    return obj.polygon(), 0.0


def measure(
    scene: Scene, a: str, b: str, *, arc: str | None = None, defending_zone: str | None = None
) -> Measurement:
    """Measure from object `a` to object `b` of `scene`, optionally from an arc of `a`.

    Parameters
    ----------
    scene : Scene
        The scene holding both objects.
    a, b : str
        Object ids. With `arc`, both must be ships.
    arc : str, optional
        X-Wing: ``front``, ``rear``, ``left``, ``right``, ``full-front``, ``full-rear``
        or ``bullseye``. Armada: the attacking hull zone ``front``, ``left``, ``right``
        or ``rear``.
    defending_zone : str, optional
        Armada: the defending hull zone to measure to. Without it, the closest in-arc
        hull zone is taken; of zones equally close, the first with line of sight.

    Raises
    ------
    InvalidInputError
        For an unknown id, an arc from or to an obstacle, an unknown arc name, the same
        object twice, or an arc from an Armada squadron.
    """
    ruleset = scene.ruleset
    first, second = scene.get(a), scene.get(b)
    if a == b:
        raise InvalidInputError(f"cannot measure {a!r} to itself; give two different ids")
    notes: list[str] = []
    extra: dict[str, Any] = {}
    in_arc: bool | None = None
    if defending_zone is not None and (arc is None or ruleset.game != "armada"):
        raise InvalidInputError("a defending hull zone is for Armada attacks from a hull zone")
    if arc is None:
        (ga, ra), (gb, rb) = _shape(scene, first), _shape(scene, second)
        d_arr, pts = closest_points(ga, gb, ra, rb)
        distance = float(d_arr)
    else:
        attacker, defender = _attack_pair(scene, first, second)
        blockers = _blockers(scene, attacker, defender)
        if ruleset.game == "xwing":
            parse_xwing_arc(arc)
            shot = attack_range(
                ruleset, attacker.pose, attacker.base, defender.polygon(ruleset), arc
            )
            distance, pts, in_arc = shot.distance, shot.points, shot.in_arc
            measured = shot.target_part if shot.in_arc else defender.polygon(ruleset)
            bands = tied_bands(attacker.polygon(ruleset), measured, distance)
            if bands:
                blocked, hits = obstructed_band(bands, [g for _, g in blockers])
                extra["tied_segments"] = [
                    [[json_mm(x), json_mm(y)] for x, y in band] for band in bands
                ]
            else:
                blocked, hits = obstructed_segment(pts, [g for _, g in blockers])
            extra["obstructed"] = blocked
            extra["obstructed_by"] = sorted(blockers[i][0] for i in hits)
        else:
            armada = _armada_shot(scene, attacker, defender, arc, defending_zone, blockers)
            distance, pts, in_arc, defending_zone, armada_notes, armada_extra = armada
            if not in_arc:
                # Out of arc: the plain distance between the bases (cli.md).
                (ga, ra), (gb, rb) = _shape(scene, first), _shape(scene, second)
                d_arr, pts = closest_points(ga, gb, ra, rb)
                distance = float(d_arr)
            notes += armada_notes
            extra.update(armada_extra)
    within = ruleset.contested_within
    if ruleset.game == "xwing":
        report = band_report(
            distance, ruleset.xwing_range_bands, zero_band=ruleset.range_zero, within=within
        )
        xw_band, d_band, r_band = report.band, None, None
    else:
        report = band_report(distance, ruleset.band_lines, within=within)
        xw_band = None
        d_band = band(distance, ruleset.armada_distance_bands)
        r_index = band(distance, ruleset.armada_range_bands)
        r_band = None if r_index is None else RANGE_BAND_NAMES[r_index - 1]
    return Measurement(
        from_id=a,
        to_id=b,
        game=ruleset.game,
        distance=distance,
        points=np.asarray(pts, dtype=np.float64).reshape(2, 2),
        band=xw_band,
        distance_band=d_band,
        range_band=r_band,
        nearest_line=report.nearest_line,
        margin=report.margin,
        contested=report.contested,
        arc=arc,
        in_arc=in_arc,
        defending_zone=defending_zone,
        notes=tuple(notes),
        extra=extra,
    )


def _blockers(scene: Scene, attacker: Ship, defender: Ship) -> list[tuple[str, shapely.Geometry]]:
    """Return what can obstruct an attack: obstacles, and ships other than the two.

    X-Wing: only huge ships obstruct; Armada: every ship's base, never a squadron.
    """
    ruleset = scene.ruleset
    found: list[tuple[str, shapely.Geometry]] = [(o.id, o.polygon()) for o in scene.obstacles]
    for ship in scene.ships:
        if ship.id in (attacker.id, defender.id) or ship.is_squadron:
            continue
        if ruleset.game == "armada" or ship.base.startswith("huge"):
            found.append((ship.id, ship.polygon(ruleset)))
    return found


ArmadaShot = tuple[float, FloatArray, bool, str | None, list[str], dict[str, Any]]


def _armada_shot(
    scene: Scene,
    attacker: Ship,
    defender: Ship,
    zone: str,
    defending_zone: str | None,
    blockers: list[tuple[str, shapely.Geometry]],
) -> ArmadaShot:
    """Attack range and line of sight from a hull zone to a hull zone or a squadron."""
    ruleset = scene.ruleset
    if attacker.is_squadron:
        raise InvalidInputError(
            f"{attacker.id!r} is a squadron: it has no hull zones to measure an arc from"
        )
    for name in (zone, defending_zone):
        if name is not None and name not in HULL_ZONES:
            raise InvalidInputError(
                f"unknown hull zone {name!r}; expected one of: " + ", ".join(HULL_ZONES)
            )
    if defender.is_squadron and defending_zone is not None:
        raise InvalidInputError(f"{defender.id!r} is a squadron: it has no hull zones")
    notes: list[str] = []
    arcs_a, note_a = hull_arcs(ruleset, attacker.base, attacker.hull)
    notes += [f"{attacker.id}: {note_a}"] if note_a else []
    arcs_b: HullArcs | None = None
    if not defender.is_squadron:
        arcs_b, note_b = hull_arcs(ruleset, defender.base, defender.hull)
        notes += [f"{defender.id}: {note_b}"] if note_b else []
    geometry = [g for _, g in blockers]

    def shoot(target_zone: str | None) -> tuple[ArmadaAttack, SightLine]:
        shot = armada_attack_range(
            ruleset,
            attacker.pose,
            attacker.base,
            arcs_a,
            zone,
            defender.pose,
            defender.base,
            arcs_b,
            defending_zone=target_zone,
        )
        sight_zone = target_zone or shot.defending_zone
        if arcs_b is not None and sight_zone is None:
            sight_zone = _nearest_zone(scene, attacker, arcs_a, zone, defender, arcs_b)
        sight = armada_sight_line(
            ruleset,
            attacker.pose,
            attacker.base,
            arcs_a,
            zone,
            defender.pose,
            defender.base,
            arcs_b,
            sight_zone,
            geometry,
        )
        return _dc.replace(shot, defending_zone=sight_zone), sight

    if arcs_b is None or defending_zone is not None:
        chosen, sight = shoot(defending_zone)
    else:
        # The closest in-arc hull zone; of zones equally close, one with line of sight.
        shots = [shoot(z) for z in HULL_ZONES]
        in_arc = [s for s in shots if s[0].in_arc]
        if in_arc:
            nearest = min(s[0].distance for s in in_arc)
            tied = [s for s in in_arc if s[0].distance <= nearest + EPSILON_MM]
            chosen, sight = next((s for s in tied if s[1].line_of_sight), tied[0])
        else:
            chosen, sight = shoot(None)
    notes += [f"{attacker.id}: {sight.attacker_note}"] if sight.attacker_note else []
    notes += [f"{defender.id}: {sight.defender_note}"] if sight.defender_note else []
    extra: dict[str, Any] = {
        "obstructed": bool(sight.blocked_by),
        "obstructed_by": sorted(blockers[i][0] for i in sight.blocked_by),
        "line_of_sight": sight.line_of_sight,
        "sight_line": [[json_mm(x), json_mm(y)] for x, y in sight.points],
    }
    return chosen.distance, chosen.points, chosen.in_arc, chosen.defending_zone, notes, extra


def _nearest_zone(
    scene: Scene, attacker: Ship, arcs_a: HullArcs, zone: str, defender: Ship, arcs_b: HullArcs
) -> str:
    """Return the defender's hull zone nearest the attacking one (when none is in arc)."""
    ruleset = scene.ruleset
    attacking = world_polygon(
        np.asarray(hull_zone(ruleset, attacker.base, arcs_a, zone).exterior.coords)[:-1],
        attacker.pose,
    )

    def gap(name: str) -> float:
        local = hull_zone(ruleset, defender.base, arcs_b, name)
        target = world_polygon(np.asarray(local.exterior.coords)[:-1], defender.pose)
        return float(shapely.distance(attacking, target))

    return min(HULL_ZONES, key=gap)


def _attack_pair(
    scene: Scene, first: Ship | Obstacle, second: Ship | Obstacle
) -> tuple[Ship, Ship]:
    if not isinstance(first, Ship):
        raise InvalidInputError(f"{first.id!r} is an obstacle: only a ship measures from an arc")
    if not isinstance(second, Ship):
        if second.kind == "huge-ship":
            raise InvalidInputError(
                f"{second.id!r} is a huge ship placed as an obstacle: it cannot be an attack target"
            )
        raise InvalidInputError(f"{second.id!r} is an obstacle: an arc measures to a ship")
    return first, second
