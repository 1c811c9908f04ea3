"""An Armada shot: attack range and line of sight from a hull zone.

From one hull zone of the attacker to the hull zone of the defender the rules choose (the
closest in arc; of those equally close, one with line of sight) or to a squadron, with
the obstacles and ships that obstruct the line of sight; every length in mm.
"""

from __future__ import annotations

import dataclasses as _dc
from typing import NamedTuple

import numpy as np
import shapely

from tabletop.geom.errors import InvalidInputError
from tabletop.geom.hulls import (
    HULL_ZONES,
    ArmadaAttack,
    HullArcs,
    armada_attack_range,
    hull_arcs,
    hull_zone,
)
from tabletop.geom.objects import Ship
from tabletop.geom.poses import FloatArray
from tabletop.geom.shapes import world_polygon
from tabletop.geom.tolerance import EPSILON_MM, within
from tabletop.obstacles.measurement import Clearance, Segment, segment_of
from tabletop.obstacles.obstruction import SightLine, armada_sight_line, traced_clearance
from tabletop.obstacles.scene import Scene


class _ArmadaArc(NamedTuple):
    """What an Armada hull-zone shot found besides its range."""

    obstructed: bool
    obstructed_by: tuple[str, ...]
    line_of_sight: bool
    sight_line: Segment
    defending_zone: str | None
    clearances: tuple[Clearance, ...] = ()


ArmadaShot = tuple[float, FloatArray, bool, str | None, list[str], _ArmadaArc]


def _check_hull_zones(
    scene: Scene, attacker: Ship, defender: Ship, zone: str, defending_zone: str | None
) -> None:
    """Refuse a squadron attacker, unknown zone names and a zone asked of a squadron."""
    ruleset = scene.ruleset
    if ruleset.base_spec(attacker.base).is_disk:
        raise InvalidInputError(
            f"{attacker.id!r} is a squadron: it has no hull zones to measure an arc from"
        )
    for name in (zone, defending_zone):
        if name is not None and name not in HULL_ZONES:
            raise InvalidInputError(
                f"unknown hull zone {name!r}; expected one of: " + ", ".join(HULL_ZONES)
            )
    if ruleset.base_spec(defender.base).is_disk and defending_zone is not None:
        raise InvalidInputError(f"{defender.id!r} is a squadron: it has no hull zones")


class _ZoneShooter(NamedTuple):
    """An attack from one hull zone, ready to be aimed at any zone of the defender."""

    scene: Scene
    attacker: Ship
    arcs_a: HullArcs
    zone: str
    defender: Ship
    arcs_b: HullArcs | None
    geometry: list[shapely.Geometry]

    def shoot(self, target_zone: str | None) -> tuple[ArmadaAttack, SightLine]:
        """Attack range and line of sight to `target_zone` (None: the rules choose)."""
        ruleset = self.scene.ruleset
        attacker, defender, arcs_a, arcs_b = self.attacker, self.defender, self.arcs_a, self.arcs_b
        shot = armada_attack_range(
            ruleset,
            attacker.pose,
            attacker.base,
            arcs_a,
            self.zone,
            defender.pose,
            defender.base,
            arcs_b,
            defending_zone=target_zone,
        )
        sight_zone = target_zone or shot.defending_zone
        if arcs_b is not None and sight_zone is None:
            sight_zone = _nearest_zone(self.scene, attacker, arcs_a, self.zone, defender, arcs_b)
        sight = armada_sight_line(
            ruleset,
            attacker.pose,
            attacker.base,
            arcs_a,
            self.zone,
            defender.pose,
            defender.base,
            arcs_b,
            sight_zone,
            self.geometry,
        )
        if shot.crossed:
            # RRG 1.6: attack range measured through another hull zone of the defender
            # leaves no line of sight to this one, whatever the targeting points say.
            sight = _dc.replace(sight, line_of_sight=False)
        return _dc.replace(shot, defending_zone=sight_zone), sight

    def best(self, defending_zone: str | None) -> tuple[ArmadaAttack, SightLine]:
        """Aim at the asked zone, else the closest in-arc one, else the rules' choice.

        Of in-arc zones equally close, one with line of sight is taken.
        """
        if self.arcs_b is None or defending_zone is not None:
            return self.shoot(defending_zone)
        shots = [self.shoot(z) for z in HULL_ZONES]
        in_arc = [s for s in shots if s[0].in_arc]
        if not in_arc:
            return self.shoot(None)
        nearest = min(s[0].distance for s in in_arc)
        tied = [s for s in in_arc if s[0].distance <= nearest + EPSILON_MM]
        return next((s for s in tied if s[1].line_of_sight), tied[0])


def _armada_shot(
    scene: Scene,
    attacker: Ship,
    defender: Ship,
    zone: str,
    defending_zone: str | None,
    blockers: list[tuple[str, shapely.Geometry]],
) -> ArmadaShot:
    """Attack range and line of sight from a hull zone to a hull zone or a squadron."""
    _check_hull_zones(scene, attacker, defender, zone, defending_zone)
    ruleset = scene.ruleset
    notes: list[str] = []
    arcs_a, note_a = hull_arcs(ruleset, attacker.base, attacker.hull)
    notes += [f"{attacker.id}: {note_a}"] if note_a else []
    arcs_b: HullArcs | None = None
    if not ruleset.base_spec(defender.base).is_disk:
        arcs_b, note_b = hull_arcs(ruleset, defender.base, defender.hull)
        notes += [f"{defender.id}: {note_b}"] if note_b else []
    shooter = _ZoneShooter(
        scene, attacker, arcs_a, zone, defender, arcs_b, [g for _, g in blockers]
    )
    chosen, sight = shooter.best(defending_zone)
    notes += [
        f"{defender.id}: the attack-range segment runs {inside:.3f} mm through the {name} "
        f"hull zone, not the defending {chosen.defending_zone} one: no line of sight (RRG 1.6)"
        for name, inside in chosen.crossed
    ]
    notes += [f"{attacker.id}: {sight.attacker_note}"] if sight.attacker_note else []
    notes += [f"{defender.id}: {sight.defender_note}"] if sight.defender_note else []
    detail = _ArmadaArc(
        bool(sight.blocked_by),
        tuple(sorted(blockers[i][0] for i in sight.blocked_by)),
        sight.line_of_sight,
        segment_of(sight.points),
        chosen.defending_zone,
        _sight_clearances(sight, blockers, scene.ruleset.contested_within),
    )
    return chosen.distance, chosen.points, chosen.in_arc, chosen.defending_zone, notes, detail


def _sight_clearances(
    sight: SightLine, blockers: list[tuple[str, shapely.Geometry]], within_mm: float
) -> tuple[Clearance, ...]:
    """How far the traced line of sight clears each blocker within the contested distance."""
    if sight.traced is None or sight.traced.is_empty:
        return ()
    found = []
    for ident, geometry in blockers:
        if not shapely.dwithin(sight.traced, geometry, within_mm + EPSILON_MM):
            continue
        margin = traced_clearance(sight.traced, geometry)
        if margin <= within_mm + EPSILON_MM:
            found.append(Clearance(ident, margin, bool(within(abs(margin), within_mm))))
    return tuple(sorted(found, key=lambda c: (c.margin, c.id)))


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
