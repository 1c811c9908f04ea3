"""Listing the plays of a decision: who decides, what kind, every legal play and its cost.

:class:`PlayListing` is the part of the rules object that reads a position without
changing it; :class:`~tabletop.boards.pocket.engine.PocketBattles` builds on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from tabletop.boards.pocket.army import Battle
from tabletop.boards.pocket.combat import (
    charge_targets,
    order_cost,
    shoot_targets,
    strike_dice,
    zone_index,
)
from tabletop.boards.pocket.plays import (
    Deploy,
    End,
    Kill,
    NoSpur,
    Order,
    Pass,
    Play,
    React,
    Remove,
    Reposition,
    Target,
    Wound,
    play_text,
)
from tabletop.boards.pocket.state import PocketState, UnitState, opponent
from tabletop.boards.pocket.zones import ADJACENT, ENGAGEMENT_ROW, front_row, own_zones, zone

__all__ = ["DECISION_KINDS", "Decision", "PlayListing", "frame_ids"]

#: Every kind of decision a battle asks for, in the order a battle meets them.
DECISION_KINDS: tuple[str, ...] = (
    "deploy",
    "turn",
    "action",
    "spur",
    "react",
    "target",
    "roll",
    "hits",
    "double order",
    "end",
    "over",
)
_ADJACENT = {z: tuple(sorted(n)) for z, n in ADJACENT.items()}
_FRAME_DECISIONS = {
    "spur": "spur",
    "react": "react",
    "target": "target",
    "strike": "roll",
    "hits": "hits",
    "follow": "double order",
}


def frame_ids(value: object) -> tuple[str, ...]:
    """Return a stack frame's tuple of unit ids as strings."""
    return tuple(str(v) for v in cast(tuple[object, ...], value))


@dataclass(frozen=True, slots=True)
class Decision:
    """The decision a position asks for: who, what kind, and the plays with their cost.

    At a roll, `dice` is the number of dice due and `plays` is empty.
    """

    player: int | None
    kind: str
    plays: tuple[tuple[Play, int], ...]
    dice: int = 0

    def to_json(self) -> dict[str, Any]:
        """Return the contract's JSON of ``actions``."""
        out: dict[str, Any] = {"player": self.player, "decision": self.kind}
        if self.kind == "roll":
            out["dice"] = self.dice
        out["plays"] = [{"play": play_text(p), "cost": c} for p, c in self.plays]
        return out


class PlayListing:
    """The decisions of a battle and their legal plays (the rules object's reading half).

    Parameters
    ----------
    battle : Battle
        The armies, attacker, seed and rules.
    """

    def __init__(self, battle: Battle) -> None:
        self.battle = battle
        self.rules = battle.rules
        self.unit_ids = tuple(u.id for a in battle.armies for u in a.units)
        self.troop_ids = tuple(t.id for a in battle.armies for u in a.units for t in u.troops)
        # The move and reposition plays of every unit from every zone, made once.
        self._moves = {
            (u, z): tuple(Order(u, "move", n) for n in near)
            for u in self.unit_ids
            for z, near in _ADJACENT.items()
        }
        self._repositions = {
            (u, z): tuple(Reposition(u, n) for n in near)
            for u in self.unit_ids
            for z, near in _ADJACENT.items()
        }

    # -- decisions ---------------------------------------------------------------------

    def _kind(self, state: PocketState) -> str:
        if state.winner is not None:
            return "over"
        if state.stack:
            return _FRAME_DECISIONS[str(state.stack[-1][0])]
        return state.phase

    def _decider(self, state: PocketState) -> int | None:
        if state.winner is not None:
            return None
        if state.stack:
            frame = state.stack[-1]
            if frame[0] in ("strike", "hits"):
                return state.units[str(frame[1])].player
            return int(str(frame[1]))
        return state.to_play

    def _dice_due(self, state: PocketState) -> int:
        frame = state.stack[-1]
        return strike_dice(state, state.units[str(frame[1])], str(frame[3]), self.rules)

    def _order_options(
        self, state: PocketState, player: int, excluded: Sequence[str]
    ) -> list[tuple[Play, int]]:
        out: list[tuple[Play, int]] = []
        pool = state.pool[player]
        front = front_row(player)
        index = zone_index(state)
        for u in state.units.values():
            if u.player != player or u.zone is None or not u.troops or u.id in excluded:
                continue
            cost = order_cost(u)
            if cost > pool:
                continue
            row = u.row
            uid = u.id
            if row != ENGAGEMENT_ROW:
                out.extend((p, cost) for p in self._moves[uid, u.zone or ""])
            melee = u.all_melee
            if row == front and melee and charge_targets(state, u, index)[1]:
                out.append((Order(uid, "charge"), cost))
            if row == ENGAGEMENT_ROW:
                others = [c for c in state.contacts if c.has(uid)]
                if melee:
                    out.extend(
                        (Order(uid, "join", c.other(uid)), cost)
                        for c in others
                        if c.turn < state.turn
                    )
                if others:
                    out.append((Order(uid, "leave"), cost))
            if u.all_shoot:
                out.extend(
                    (Order(uid, "shoot", t.id), cost)
                    for t in shoot_targets(state, u, self.rules, index)
                )
            if u.traits.has("double order") and not state.first_turn:
                out.append((Order(uid, "trait", "double order"), cost))
        return out

    def _options(self, state: PocketState) -> list[tuple[Play, int]]:
        kind = self._kind(state)
        player = self._decider(state) or 0
        if kind == "deploy":
            zones = own_zones(player)
            return [
                (Deploy(u.id, z), 0)
                for u in state.units.values()
                if u.player == player and u.zone is None and u.alive
                for z in zones
            ]
        if kind in ("turn", "action"):
            return self._turn_options(state, player, repositions=kind == "turn")
        if kind == "end":
            plays: list[tuple[Play, int]] = [
                (Remove(t.id), 0) for u in state.player_units(player) for t in u.troops if t.wounds
            ]
            return [*plays, (End(), 0)]
        frame = state.stack[-1]
        if kind == "spur":
            return [*self._spur_options(state, frame), (NoSpur(), 0)]
        if kind == "react":
            return self._react_options(state, state.units[str(frame[2])])
        if kind == "target":
            return [(Target(t.id), 0) for t in charge_targets(state, state.units[str(frame[2])])[1]]
        if kind == "hits":
            # Every troop may be killed, whatever its wound points: a kill of a troop that
            # one more wound removes is the same hit as that wound, and replay takes both.
            troops = state.units[str(frame[1])].troops
            return [(hit, 0) for t in troops for hit in (Wound(t.id), Kill(t.id))]
        if kind == "double order":
            excluded = frame_ids(frame[3]) + ((state.repositioned,) if state.repositioned else ())
            return self._order_options(state, player, excluded)
        return []

    def _turn_options(
        self, state: PocketState, player: int, *, repositions: bool
    ) -> list[tuple[Play, int]]:
        """List a turn's free repositions (before any), its orders and pass."""
        out: list[tuple[Play, int]] = []
        if repositions:
            for u in state.player_units(player):
                if u.row != ENGAGEMENT_ROW and not u.traits.has("slow"):
                    out.extend((p, 0) for p in self._repositions[u.id, u.zone or ""])
        alone: tuple[str, ...] = (state.repositioned,) if state.repositioned else ()
        out.extend(self._order_options(state, player, alone))
        out.append((Pass(), 1))
        return out

    def _spur_options(
        self, state: PocketState, frame: tuple[object, ...]
    ) -> list[tuple[Play, int]]:
        if state.first_turn:
            return []
        player, ordered = int(str(frame[1])), str(frame[2])
        out: list[tuple[Play, int]] = []
        for u in state.player_units(player):
            if u.id in (ordered, state.repositioned) or not u.traits.has("spur"):
                continue
            cost = order_cost(u)
            if cost <= state.pool[player]:
                out.append((Order(u.id, "trait", "spur"), cost))
        return out

    def _react_options(self, state: PocketState, charger: UnitState) -> list[tuple[Play, int]]:
        player = opponent(charger.player)
        there = zone(charger.sector, front_row(player))
        out: list[tuple[Play, int]] = []
        for u in state.player_units(player):
            if u.zone != there:
                continue
            cost = order_cost(u)
            if cost > state.pool[player]:
                continue
            if u.all_have("melee"):
                out.append((React("intercept", u.id), cost))
            if u.all_have("shoot"):
                out.append((React("shoot", u.id), cost))
        return [*out, (React("wait"), 0)]

    def _cached_options(self, state: PocketState) -> list[tuple[Play, int]]:
        # The plays of a decision are asked for by the policy and again by the push:
        # they are kept until the position changes.
        if state.options is None:
            state.options = self._options(state)
        return state.options
