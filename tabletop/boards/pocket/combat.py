"""Charges, engagements, shooting and wounds: the steps an order pushes and resolves.

Every function works on a :class:`~tabletop.boards.pocket.state.PocketState` in place. An order
pushes its steps on the state's stack (the first to happen on top); the engine pops the
automatic ones and stops at each decision (a reaction, a target, a roll, a hit to take).

Examples
--------
The seed's worked examples: troops with black dice 3, 3, 4, 4, 5.

>>> count_hits([3, 3, 4, 4, 5], [4])
2
>>> count_hits([3, 3, 4, 4, 5], [4, 5])
3
>>> count_hits([3, 3, 4, 4, 5], [6]), count_hits([None, 4], [4, 4])
(0, 2)
"""

from __future__ import annotations

import math as _math
from collections.abc import Sequence

from tabletop.boards.pocket.rules import PocketRules
from tabletop.boards.pocket.state import Contact, PocketState, TroopState, UnitState, opponent
from tabletop.boards.pocket.zones import (
    ENGAGEMENT_ROW,
    NEIGHBOUR_SECTORS,
    front_row,
    rear_row,
    zone,
    zone_row,
    zone_sector,
)

__all__ = [
    "STRIKE_KINDS",
    "ZoneIndex",
    "add_contact",
    "apply_hit",
    "charge_targets",
    "count_hits",
    "destroy_troop",
    "order_cost",
    "resolve_strike",
    "settle",
    "shoot_targets",
    "strike_dice",
    "zone_index",
]

#: The kinds of strike, each with its dice and die value: a charge's fight, a join's,
#: a counterattack (also the blows at a unit leaving), a shot and a reaction's shot.
STRIKE_KINDS: tuple[str, ...] = ("charge", "join", "counter", "shoot", "react-shoot")


def count_hits(values: Sequence[int | None], dice: Sequence[int]) -> int:
    """Return the hits of `dice` against troops' die `values`: one per troop per equal die."""
    return sum(values.count(d) for d in dice)


def order_cost(unit: UnitState) -> int:
    """Return the tokens an order on `unit` costs: its order tokens + 1 (Reactive: the same, at least 1)."""
    if unit.traits.has("reactive"):
        return max(unit.orders, 1)
    return unit.orders + 1


#: The units on the field by zone.
ZoneIndex = dict[str, list[UnitState]]


def zone_index(state: PocketState) -> ZoneIndex:
    """Return the units on the field by zone, in the file's order."""
    index: ZoneIndex = {}
    for u in state.units.values():
        if u.zone is not None and u.troops:
            index.setdefault(u.zone, []).append(u)
    return index


def _enemies_in(index: ZoneIndex, player: int, zones: Sequence[str]) -> list[UnitState]:
    found = [u for z in zones for u in index.get(z, ()) if u.player != player]
    if len(zones) > 1:
        found.sort(key=lambda u: u.index)
    return found


def charge_targets(
    state: PocketState, unit: UnitState, index: ZoneIndex | None = None
) -> tuple[str, list[UnitState]]:
    """Return the kind of charge `unit` can make (normal, rear or flank) and its targets."""
    if index is None:
        index = zone_index(state)
    enemy = opponent(unit.player)
    sector = unit.sector
    near = _enemies_in(
        index, unit.player, (zone(sector, front_row(enemy)), zone(sector, ENGAGEMENT_ROW))
    )
    if near:
        return ("normal", near)
    # No enemy in that front row or engagement zone: the enemy rear of the same sector.
    rear = _enemies_in(index, unit.player, (zone(sector, rear_row(enemy)),))
    if rear:
        return ("rear", rear)
    # No enemy in the sector at all: flank into a neighbouring sector.
    flank_zones = [
        zone(n, r)
        for n in NEIGHBOUR_SECTORS[sector]
        for r in (ENGAGEMENT_ROW, front_row(enemy), rear_row(enemy))
    ]
    return ("flank", _enemies_in(index, unit.player, flank_zones))


def _front_and_engagement(sectors: Sequence[str], enemy: int) -> list[str]:
    return [zone(s, r) for s in sectors for r in (front_row(enemy), ENGAGEMENT_ROW)]


def shoot_targets(
    state: PocketState, unit: UnitState, rules: PocketRules, index: ZoneIndex | None = None
) -> list[UnitState]:
    """Return the enemy units `unit` may shoot at from where it stands."""
    if index is None:
        index = zone_index(state)
    enemy = opponent(unit.player)
    sector, row = unit.sector, unit.row
    neighbours = NEIGHBOUR_SECTORS[sector]
    found: list[UnitState] = []
    # From the front row (or the rear, with Long range): the sector, then its fallbacks.
    if row == front_row(unit.player) or (
        row == rear_row(unit.player) and unit.traits.has("long range")
    ):
        found = _enemies_in(index, unit.player, _front_and_engagement((sector,), enemy))
        if not found:
            found = _enemies_in(index, unit.player, (zone(sector, rear_row(enemy)),))
        if not found and not _enemies_in(
            index,
            unit.player,
            [zone(sector, r) for r in (front_row(enemy), ENGAGEMENT_ROW, rear_row(enemy))],
        ):
            found = _enemies_in(index, unit.player, _front_and_engagement(neighbours, enemy))
    # Wide arc: the neighbouring sectors' front rows and engagement zones too, from the
    # front row or the engagement zone, even while the own sector has targets.
    if unit.traits.has("wide arc") and row in (front_row(unit.player), ENGAGEMENT_ROW):
        extra = _enemies_in(index, unit.player, _front_and_engagement(neighbours, enemy))
        if row == ENGAGEMENT_ROW and rules.wide_arc_from_engagement == "own-sector-too":
            extra = _enemies_in(index, unit.player, _front_and_engagement((sector,), enemy)) + extra
        found = found + [u for u in extra if u not in found]
    return sorted(found, key=lambda u: u.index)


def strike_dice(state: PocketState, unit: UnitState, kind: str, rules: PocketRules) -> int:
    """Return how many dice `unit` rolls for a strike of `kind` (see :data:`STRIKE_KINDS`)."""
    t = unit.traits
    spur = 1 if state.spurred == unit.id and kind in ("charge", "join", "shoot") else 0
    if kind == "charge":
        return 1 + (2 if t.has("impetuous") else 1) + rules.bonus_dice(t.engagement) + spur
    if kind in ("join", "counter"):
        return 1 + rules.bonus_dice(t.engagement) + spur
    return 1 + rules.bonus_dice(t.shoot) + spur


def _linked(state: PocketState, target: UnitState) -> list[UnitState]:
    # The target and every unit linked to it by contacts, friend or foe.
    seen = {target.id}
    queue = [target.id]
    while queue:
        current = queue.pop()
        for other in state.contacts_of(current):
            if other not in seen:
                seen.add(other)
                queue.append(other)
    rest = sorted((state.units[u] for u in seen if u != target.id), key=lambda u: u.index)
    return [target, *rest]


def resolve_strike(
    state: PocketState,
    attacker: UnitState,
    defender: UnitState,
    kind: str,
    dice: Sequence[int],
    rules: PocketRules,
) -> int:
    """Score `dice` for `attacker` and push the hits each unit takes; return the hits scored."""
    stat = "shoot" if kind in ("shoot", "react-shoot") else "melee"
    values = [getattr(t.spec, stat) for t in attacker.troops]
    hits = count_hits(values, dice)
    # +N wounds: N more hits when at least one scored.
    if hits:
        hits += attacker.traits.wounds
    if not hits:
        return 0
    if stat == "shoot" and rules.engagement_split == "each-rounded-up":
        involved = _linked(state, defender)
        share = _math.ceil(hits / len(involved))
        # The target first: its frame goes on top.
        for unit in reversed(involved):
            state.stack.append(("hits", unit.id, share))
    else:
        state.stack.append(("hits", defender.id, hits))
    return hits


def destroy_troop(state: PocketState, unit: UnitState, troop: TroopState) -> None:
    """Remove `troop` from the field: its wound tokens come back, its points count as destroyed."""
    unit.troops.remove(troop)
    player = unit.player
    state.spent[player] += troop.wounds
    state.destroyed[opponent(player)] += troop.spec.points
    state.destroyed_troops[opponent(player)] += 1
    if unit.troops:
        unit.refresh_traits()
        return
    # The unit is destroyed: its order tokens are spent and its contacts end.
    state.spent[player] += unit.orders
    unit.orders = 0
    state.contacts = [c for c in state.contacts if not c.has(unit.id)]


def apply_hit(
    state: PocketState, unit: UnitState, troop: TroopState, kill: bool, rules: PocketRules
) -> None:
    """Take one hit on `troop`: a wound (with its token) or a kill."""
    if kill or troop.wounds + 1 >= max(troop.spec.wounds, 1):
        destroy_troop(state, unit, troop)
        return
    # A wound that leaves its troop standing takes one token: from the round's unspent
    # tokens, else an order token of the hit unit, else of the unit with the most.
    player = unit.player
    if state.pool[player] > 0:
        state.pool[player] -= 1
    elif unit.orders > 0:
        unit.orders -= 1
    else:
        donors = [u for u in state.player_units(player) if u.orders > 0]
        if donors and rules.wound_token_source == "most-orders":
            donor = max(donors, key=lambda u: (u.orders, -u.index))
            donor.orders -= 1
        else:
            # No token anywhere: the troop is removed at once.
            destroy_troop(state, unit, troop)
            return
    troop.wounds += 1


def settle(state: PocketState) -> None:
    """Send every unit left in the engagement zone with no contact to its own front row."""
    for unit in state.units.values():
        if unit.on_field and unit.engaged_row and not any(c.has(unit.id) for c in state.contacts):
            unit.zone = zone(unit.sector, front_row(unit.player))


def add_contact(state: PocketState, a: UnitState, b: UnitState) -> None:
    """Put `a` and `b` in contact in the engagement zone (once)."""
    for c in state.contacts:
        if c.has(a.id) and c.has(b.id):
            return
    state.contacts.append(Contact(a.id, b.id, state.turn))
    for unit in (a, b):
        if unit.zone is not None and zone_row(unit.zone) != ENGAGEMENT_ROW:
            unit.zone = zone(zone_sector(unit.zone), ENGAGEMENT_ROW)
