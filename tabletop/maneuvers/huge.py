"""X-Wing huge ships on the move, by the rules of each edition (``rules.md``, Huge ships).

The rules object says which edition's rules apply (``xwing_huge_overlaps``,
``xwing_huge_template_counts``); this module never tests a ruleset's name.

2.0 (Rules Reference, huge-ship appendix): *a huge ship overlapping another huge ship
executes the maneuver one speed lower, again until it overlaps none (a stationary maneuver
after speed 0), then it and each huge ship it overlapped suffer critical damage equal to
the revealed speed. A huge ship overlapping a standard ship completes its maneuver; the
standard ship suffers critical damage equal to the revealed speed and is set aside until
the huge ship has moved, then placed by its owner.* Obstacles it moves through or ends on
are reported as for standard ships, and the final base's by section.

1st edition (Huge Ship Rules): *only the final position counts, per section; every
obstacle the final base overlaps is removed; the template overlapping an obstacle has no
effect. A final position overlapping small or large ships destroys them (the huge ship's
player rolls one attack die per small and two per large ship, and suffers the hits).
Overlapping another huge ship uses the standard bump, without skipping the action step,
and both are dealt one faceup damage card.*
"""

from __future__ import annotations

import dataclasses as _dc

import numpy as np
import shapely

from tabletop.geom.measure import overlaps
from tabletop.geom.poses import FloatArray, compose
from tabletop.maneuvers._shared import place
from tabletop.maneuvers.notation import XWingManeuver, maneuver_name
from tabletop.maneuvers.overlaps import Damage, ShipOverlap, ShipOverlaps
from tabletop.maneuvers.result import MoveResult, ObstacleHit, TemplateMove
from tabletop.maneuvers.xwing import _maneuver, _Table, xwing_local_move

__all__ = ["huge_maneuver"]

#: The sentences each answer rests on, as ``rules.md`` (Huge ships) quotes or states them.
_SOURCE_2E = "2.0 Rules Reference, huge-ship appendix"
_SOURCE_1E = "1e Huge Ship Rules"
_RULE_2E_HUGE = (
    "a huge ship overlapping another huge ship executes the maneuver one speed lower, again "
    "until it overlaps none (a stationary maneuver after speed 0), then it and each huge "
    "ship it overlapped suffer critical damage equal to the revealed speed"
)
_RULE_2E_STANDARD = (
    "A huge ship overlapping a standard ship completes its maneuver; the standard ship "
    "suffers critical damage equal to the revealed speed and is set aside until the huge "
    "ship has moved, then placed by its owner"
)
_RULE_1E_DESTROYED = (
    "A final position overlapping small or large ships destroys them (the move completes; "
    "the huge ship's player rolls one attack die per small and two per large ship "
    "overlapped, and suffers the hits)"
)
_RULE_1E_HUGE = (
    "Overlapping another huge ship uses the standard bump, without skipping the action "
    "step, and both are dealt one faceup damage card"
)
#: How each edition sets the template (the answer's ``maneuver_rule``).
_MOVE_1E = (
    _SOURCE_1E + ', "Straight Maneuver Example"',
    "sets it so that the bottom line of the template aligns with the rear edge of the "
    "GR-75's front base … moves the GR-75 so that the rear edge of the GR-75's front base "
    "aligns with the 2 speed line",
)
_MOVE_2E = (
    "rules.md, Final poses (every base)",
    "straight s: (0, 2h + 40s), 0°; bank s: (R(1 − cos45°) + h·sin45°, h + R·sin45° + "
    "h·cos45°), −45° heading change",
)


def _sections(
    table: _Table, final: FloatArray, only: set[str] | None = None
) -> tuple[tuple[ObstacleHit, ...], tuple[tuple[str, tuple[str, ...]], ...]]:
    """Return the obstacles under the fore and aft halves of the final base (guides included).

    They come as ``ends-on`` hits in resolve order and per section; `only` keeps the
    ids given.
    """
    width, length = table.scene.ruleset.base_size(table.ship.base)
    outline = shapely.Polygon(table.outline)
    halves = {
        "fore": shapely.box(-width, 0.0, width, length),
        "aft": shapely.box(-width, -length, width, 0.0),
    }
    obstacles = table.scene.obstacles
    sections: list[tuple[str, tuple[str, ...]]] = []
    overlapped: set[int] = set()
    for name, half in halves.items():
        section = place(shapely.intersection(outline, half), final)
        ids = [
            i
            for i, poly in enumerate(table.obstacle_polygons)
            if overlaps(section, poly) and (only is None or obstacles[i].id in only)
        ]
        overlapped.update(ids)
        sections.append((name, tuple(table.nearest_first(ids))))
    hits = tuple((ident, "ends-on") for ident in table.nearest_first(overlapped))
    return hits, tuple(sections)  # type: ignore[return-value]


def _only(table: _Table, indices: list[int]) -> _Table:
    """Return the table with only the other ships at `indices` in it."""
    return _dc.replace(
        table,
        others=tuple(table.others[i] for i in indices),
        other_polygons=table.other_polygons[indices] if indices else np.zeros(0, dtype=object),
    )


def _at_speed(maneuver: XWingManeuver, speed: int) -> XWingManeuver:
    if speed == 0:
        return XWingManeuver("stationary", 0)
    return _dc.replace(maneuver, speed=speed)


def _is_huge(table: _Table, index: int) -> bool:
    return table.scene.ruleset.base_spec(table.others[index].base).is_huge


def huge_maneuver(table: _Table, maneuver: XWingManeuver) -> MoveResult:
    """Execute a huge ship's maneuver (straight, bank, stationary) by its edition's rules."""
    if table.scene.ruleset.xwing_huge_overlaps == "destroy":
        return _first_edition(table, maneuver)
    return _second_edition(table, maneuver)


def _second_edition(table: _Table, maneuver: XWingManeuver) -> MoveResult:
    ruleset, ship = table.scene.ruleset, table.ship
    huge = [i for i in range(len(table.others)) if _is_huge(table, i)]
    tried: list[int] = []
    huge_at: dict[int, list[int]] = {}
    flown = maneuver
    hits = np.zeros(len(table.others), dtype=bool)
    # Overlapping a huge ship: the maneuver one speed lower, again until none is overlapped.
    for speed in range(maneuver.speed, -1, -1):
        flown = _at_speed(maneuver, speed)
        final = compose(ship.pose, xwing_local_move(flown, ship.base, ruleset))
        hits = table.ship_hits(np.array([table.at(final)], dtype=object))[0]
        tried.append(speed)
        for i in huge:
            if hits[i]:
                huge_at.setdefault(i, []).append(speed)
        if not any(hits[i] for i in huge):
            break
    # The huge ship completes what it flies over standard ships: no other ship stops it.
    moved = _maneuver(_only(table, []), flown)
    revealed = maneuver.speed
    standard = [i for i in range(len(table.others)) if hits[i] and i not in huge]
    ships = [
        ShipOverlap(table.others[i].id, table.others[i].base, "speed-down", tuple(huge_at[i]))
        for i in huge_at
    ] + [
        ShipOverlap(table.others[i].id, table.others[i].base, "set-aside", (tried[-1],))
        for i in standard
    ]
    damage: list[Damage] = []
    if huge_at:
        damage.append(Damage(ship.id, revealed, "critical", _RULE_2E_HUGE, _SOURCE_2E))
        damage += [
            Damage(table.others[i].id, revealed, "critical", _RULE_2E_HUGE, _SOURCE_2E)
            for i in sorted(huge_at, key=lambda i: table.others[i].id)
        ]
    damage += [
        Damage(table.others[i].id, revealed, "critical", _RULE_2E_STANDARD, _SOURCE_2E)
        for i in sorted(standard, key=lambda i: table.others[i].id)
    ]
    bumped = None
    if huge_at:
        polygon = table.at(moved.final)
        bumped = table.others[table.nearest_ship(sorted(huge_at), polygon)].id
    # Obstacles as for standard ships; the final base's also by section.
    ends_on = {ident for ident, how in moved.obstacles if how == "ends-on"}
    _, sections = _sections(table, moved.final, only=ends_on)
    return _dc.replace(
        moved,
        maneuver=maneuver_name(maneuver),
        complete=not huge_at,
        bumped=bumped,
        detail=TemplateMove(progress=_progress(moved), sections=sections, maneuver_rule=_MOVE_2E),
        overlaps=ShipOverlaps(
            speeds_tried=tuple(tried),
            flown=maneuver_name(flown),
            ships=tuple(sorted(ships, key=lambda s: s.ship)),
            damage=tuple(damage),
        ),
    )


def _progress(moved: MoveResult) -> float | None:
    detail = moved.detail
    return detail.progress if isinstance(detail, TemplateMove) else None


def _first_edition(table: _Table, maneuver: XWingManeuver) -> MoveResult:
    ship = table.ship
    huge = [i for i in range(len(table.others)) if _is_huge(table, i)]
    # Huge ships bump as standard ships do; small and large ships do not stop the move.
    moved = _maneuver(_only(table, huge), maneuver)
    hits = table.ship_hits(np.array([table.at(moved.final)], dtype=object))[0]
    destroyed = [i for i in range(len(table.others)) if hits[i] and i not in huge]
    ships = [
        ShipOverlap(table.others[i].id, table.others[i].base, "destroyed", (maneuver.speed,))
        for i in destroyed
    ]
    damage: list[Damage] = []
    if destroyed:
        # One die per small ship, two per larger one (1e has small and large bases).
        dice = sum(1 if table.others[i].base == "small" else 2 for i in destroyed)
        damage.append(Damage(ship.id, dice, "attack-dice", _RULE_1E_DESTROYED, _SOURCE_1E))
    if moved.bumped is not None:
        bumped = next(s for s in table.others if s.id == moved.bumped)
        ships.append(ShipOverlap(bumped.id, bumped.base, "bump", (maneuver.speed,)))
        damage.append(Damage(ship.id, 1, "faceup-card", _RULE_1E_HUGE, _SOURCE_1E))
        damage.append(Damage(bumped.id, 1, "faceup-card", _RULE_1E_HUGE, _SOURCE_1E))
    # Only the final position counts for obstacles, per section; they are removed.
    obstacles, sections = _sections(table, moved.final)
    return _dc.replace(
        moved,
        obstacles=obstacles,
        counted_template=None,
        detail=TemplateMove(
            progress=_progress(moved),
            sections=sections,
            removed=tuple(ident for ident, _ in obstacles),
            # 1e: a huge ship's bump does not skip the action step (Huge Ship Rules).
            skips_action=False,
            maneuver_rule=_MOVE_1E,
        ),
        overlaps=ShipOverlaps(
            speeds_tried=(maneuver.speed,),
            flown=maneuver_name(maneuver),
            ships=tuple(sorted(ships, key=lambda s: s.ship)),
            damage=tuple(damage),
        ),
    )
