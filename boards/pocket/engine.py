"""The Pocket Battles rules object: decisions, legal plays, checked pushes, the outcome.

:class:`PocketBattles` implements :class:`boards.game.Game` for one battle's setup (the
units and troops its plays may name); the rules record of the battle says every ruling.
Sides are the strings ``"1"`` and ``"2"``.

Examples
--------
>>> from boards.pocket.examples import example_battle
>>> game = PocketBattles(example_battle())
>>> state = game.start()
>>> decision = game.decision(state)
>>> decision.player, decision.kind, len(decision.plays) > 0
(1, 'turn', True)
>>> game.push(state, game.parse_play("order nobody charge"))
Traceback (most recent call last):
...
boards.errors.InvalidPlayError: cannot read play 'order nobody charge': unknown unit 'nobody'; expected one of: spears, riders, archers, legion, cohort, scouts
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from boards.errors import IllegalPlayError, InvalidPlayError
from boards.game import Outcome
from boards.pocket.army import Battle
from boards.pocket.combat import (
    add_contact,
    apply_hit,
    charge_targets,
    destroy_troop,
    order_cost,
    resolve_strike,
    settle,
    shoot_targets,
    strike_dice,
    zone_index,
)
from boards.pocket.plays import (
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
    Roll,
    Surrender,
    Target,
    Wound,
    parse_play,
    play_text,
)
from boards.pocket.state import PocketState, UnitState, opponent
from boards.pocket.zones import ADJACENT, ENGAGEMENT_ROW, front_row, own_zones, zone

__all__ = ["DECISION_KINDS", "Decision", "PocketBattles"]

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
_EXPECTED = {
    "deploy": "deploy UNIT ZONE",
    "turn": "reposition UNIT ZONE, an order, or pass",
    "action": "an order or pass (the turn's reposition is done)",
    "spur": "order UNIT trait spur or no spur",
    "react": "react intercept UNIT, react shoot UNIT or react wait",
    "target": "target UNIT",
    "hits": "wound TROOP or kill TROOP",
    "double order": "an order to another unit (double order)",
    "end": "remove TROOP or end",
}


def _strs(value: object) -> tuple[str, ...]:
    # A frame's tuple of unit ids.
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


class PocketBattles:
    """The rules of Pocket Battles applied to one battle's setup.

    Parameters
    ----------
    battle : Battle
        The armies (the units and troops plays may name), attacker, seed and rules.
    """

    length_unit = "rounds"

    def __init__(self, battle: Battle) -> None:
        self.battle = battle
        self.rules = battle.rules
        self.unit_ids = tuple(u.id for a in battle.armies for u in a.units)
        self.troop_ids = tuple(t.id for a in battle.armies for u in a.units for t in u.troops)
        self._units = frozenset(self.unit_ids)
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
        self._troops = frozenset(self.troop_ids)

    # -- the protocol ------------------------------------------------------------------

    def start(self, seed: int | None = None) -> PocketState:
        """Return the battle's first position (deployment, or round 1 when deployed)."""
        state = PocketState(self.battle, seed)
        if self.battle.deployed:
            self._new_round(state)
        return state

    def parse_play(self, text: str) -> Play:
        """Read a play, checking that the units and troops it names exist."""
        play = parse_play(text)
        units = [getattr(play, "unit", None)]
        if isinstance(play, Order) and play.kind in ("join", "shoot"):
            units.append(play.arg)
        for unit in units:
            if unit is not None and unit not in self._units:
                raise InvalidPlayError(
                    text, f"unknown unit {unit!r}; expected one of: {', '.join(self.unit_ids)}"
                )
        troop = getattr(play, "troop", None)
        if troop is not None and troop not in self._troops:
            raise InvalidPlayError(
                text, f"unknown troop {troop!r}; expected one of: {', '.join(self.troop_ids)}"
            )
        return play

    def play_text(self, play: Play) -> str:
        """Return the play's canonical text."""
        return play_text(play)

    def side_to_play(self, state: PocketState) -> str | None:
        """Return ``"1"`` or ``"2"``, who decides now (None when the battle is over)."""
        player = self._decider(state)
        return None if player is None else str(player)

    def legal_plays(self, state: PocketState) -> list[Play]:
        """Return the plays of the current decision; at a roll, the roll the seed gives.

        ``surrender`` is always legal but not listed.
        """
        if state.winner is not None:
            return []
        if state.stack and state.stack[-1][0] == "strike":
            peek = state.rng.copy()
            return [Roll(tuple(peek.roll() for _ in range(self._dice_due(state))))]
        return [p for p, _ in self._cached_options(state)]

    def outcome(self, state: PocketState) -> Outcome | None:
        """Return the winner and the rounds played, or None while the battle goes on."""
        if state.winner is None:
            return None
        return Outcome(str(state.winner), state.round)

    def decision(self, state: PocketState) -> Decision:
        """Return the current decision with every legal play and its token cost."""
        if state.winner is not None:
            return Decision(None, "over", ())
        kind = self._kind(state)
        if kind == "roll":
            return Decision(self._decider(state), kind, (), self._dice_due(state))
        return Decision(self._decider(state), kind, tuple(self._cached_options(state)))

    def push(self, state: PocketState, play: Play) -> None:
        """Apply `play` to `state` in place, validating it first.

        A play given while a roll is due draws that roll from the state's stream, then
        applies to the decision after it.

        Raises
        ------
        IllegalPlayError
            When the rules forbid the play here; the state is left as it was.
        """
        if state.winner is not None:
            raise IllegalPlayError(play_text(play), "battle-over", "the battle is over")
        if self._kind(state) == "roll" and not isinstance(play, Roll):
            trial = state.copy()
            while self._kind(trial) == "roll":
                dice = tuple(trial.rng.roll() for _ in range(self._dice_due(trial)))
                self._roll(trial, dice)
                self._advance(trial)
            if trial.winner is None:
                self._push_checked(trial, play)
            else:
                raise IllegalPlayError(play_text(play), "battle-over", "the battle is over")
            for name in PocketState.__slots__:
                setattr(state, name, getattr(trial, name))
            return
        self._push_checked(state, play)

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
            out: list[tuple[Play, int]] = []
            if kind == "turn":
                for u in state.player_units(player):
                    if u.row != ENGAGEMENT_ROW and not u.traits.has("slow"):
                        out.extend((p, 0) for p in self._repositions[u.id, u.zone or ""])
            alone: tuple[str, ...] = (state.repositioned,) if state.repositioned else ()
            out.extend(self._order_options(state, player, alone))
            out.append((Pass(), 1))
            return out
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
            out = []
            for t in state.units[str(frame[1])].troops:
                out.append((Wound(t.id), 0))
                if t.wounds + 1 < max(t.spec.wounds, 1):
                    out.append((Kill(t.id), 0))
            return out
        if kind == "double order":
            excluded = _strs(frame[3]) + ((state.repositioned,) if state.repositioned else ())
            return self._order_options(state, player, excluded)
        return []

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

    # -- applying plays ----------------------------------------------------------------

    def _cached_options(self, state: PocketState) -> list[tuple[Play, int]]:
        # The plays of a decision are asked for by the policy and again by the push:
        # they are kept until the position changes.
        if state.options is None:
            state.options = self._options(state)
        return state.options

    def _push_checked(self, state: PocketState, play: Play) -> None:
        kind = self._kind(state)
        player = self._decider(state) or 0
        text = play_text(play)
        if isinstance(play, Surrender):
            if kind == "roll":
                raise IllegalPlayError(
                    text, "surrender-at-roll", "a roll is due; surrender after it"
                )
            state.winner = opponent(player)
            state.phase = "over"
        elif kind == "roll":
            if not isinstance(play, Roll):
                raise IllegalPlayError(text, "roll-due", "a roll is due")
            due = self._dice_due(state)
            if len(play.dice) != due:
                raise IllegalPlayError(
                    text, "roll-dice", f"the roll due has {due} dice, not {len(play.dice)}"
                )
            # Written dice advance the stream as drawn ones do, so the rolls after them
            # are the seed's either way.
            for _ in play.dice:
                state.rng.roll()
            self._roll(state, play.dice)
        else:
            options = self._cached_options(state)
            cost = next((c for p, c in options if p is play or p == play), None)
            if cost is None and isinstance(play, Kill) and (Wound(play.troop), 0) in options:
                # A kill of a troop that any wound removes is that wound.
                cost = 0
            if cost is None:
                rule, reason = self._diagnose(state, play, kind, player)
                raise IllegalPlayError(text, rule, reason)
            self._apply(state, play, kind, player)
        state.plays += 1
        state.last_play = text
        state.options = None
        self._advance(state)

    def _roll(self, state: PocketState, dice: Sequence[int]) -> None:
        frame = state.stack.pop()
        attacker, defender = state.units[str(frame[1])], state.units[str(frame[2])]
        resolve_strike(state, attacker, defender, str(frame[3]), dice, self.rules)

    def _pay(self, state: PocketState, unit: UnitState) -> None:
        cost = order_cost(unit)
        state.pool[unit.player] -= cost
        unit.orders += cost

    def _apply(self, state: PocketState, play: Play, kind: str, player: int) -> None:
        units = state.units
        if isinstance(play, Deploy):
            units[play.unit].zone = play.zone
            state.last_deployer = player
            self._next_deployer(state)
        elif isinstance(play, Reposition):
            units[play.unit].zone = play.zone
            state.repositioned = play.unit
            state.phase = "action"
        elif isinstance(play, NoSpur):
            state.stack.pop()
        elif isinstance(play, Pass):
            state.pool[player] -= 1
            state.spent[player] += 1
            state.phase = "acting"
        elif isinstance(play, Order):
            if kind == "spur":
                frame = state.stack.pop()
                self._pay(state, units[play.unit])
                state.spurred = str(frame[2])
                return
            if kind == "double order":
                frame = state.stack.pop()
                excluded = (*_strs(frame[3]), play.unit)
                state.stack.append(("follow", player, int(str(frame[2])) - 1, excluded))
            else:
                state.phase = "acting"
            self._order(state, units[play.unit], play)
        elif isinstance(play, React):
            frame = state.stack.pop()
            charger = units[str(frame[2])]
            if play.kind == "wait":
                state.stack.append(("target", charger.player, charger.id))
            else:
                reactor = units[play.unit or ""]
                self._pay(state, reactor)
                if play.kind == "intercept":
                    add_contact(state, charger, reactor)
                    state.stack.append(("strike", reactor.id, charger.id, "counter"))
                    state.stack.append(("strike", charger.id, reactor.id, "charge"))
                else:
                    state.stack.append(("target", charger.player, charger.id))
                    state.stack.append(("strike", reactor.id, charger.id, "react-shoot"))
        elif isinstance(play, Target):
            charger = units[str(state.stack.pop()[2])]
            target = units[play.unit]
            if charge_targets(state, charger)[0] == "flank":
                state.stack.append(("flank", charger.id, target.id, target.sector))
            else:
                add_contact(state, charger, target)
            state.stack.append(("strike", target.id, charger.id, "counter"))
            state.stack.append(("strike", charger.id, target.id, "charge"))
        elif isinstance(play, Wound | Kill):
            frame = state.stack.pop()
            unit = units[str(frame[1])]
            troop = next(t for t in unit.troops if t.id == play.troop)
            apply_hit(state, unit, troop, isinstance(play, Kill), self.rules)
            left = int(str(frame[2])) - 1
            if left and unit.alive:
                state.stack.append(("hits", unit.id, left))
        elif isinstance(play, Remove):
            unit = next(
                u for u in state.player_units(player) if any(t.id == play.troop for t in u.troops)
            )
            destroy_troop(state, unit, next(t for t in unit.troops if t.id == play.troop))
        elif isinstance(play, End):
            state.end_index += 1
            if state.end_index == 1:
                state.to_play = opponent(state.first_player)
            else:
                self._new_round(state)

    def _order(self, state: PocketState, unit: UnitState, play: Order) -> None:
        self._pay(state, unit)
        state.spurred = None
        stack = state.stack
        uid, player = unit.id, unit.player
        if play.kind == "move":
            unit.zone = play.arg
        elif play.kind == "charge":
            mode = charge_targets(state, unit)[0]
            unit.zone = zone(unit.sector, ENGAGEMENT_ROW)
            stack.append(("settle",))
            if mode == "normal":
                stack.append(("react", opponent(player), uid))
            else:
                stack.append(("target", player, uid))
            stack.append(("spur", player, uid))
        elif play.kind == "join":
            other = play.arg or ""
            stack.extend(
                [("settle",), ("strike", other, uid, "counter"), ("strike", uid, other, "join")]
            )
            stack.append(("spur", player, uid))
        elif play.kind == "leave":
            strikers = tuple(state.contacts_of(uid))
            stack.extend([("settle",), ("leave", uid, strikers)])
            stack.extend(("strike", s, uid, "counter") for s in reversed(strikers))
        elif play.kind == "shoot":
            stack.extend(
                [("settle",), ("strike", uid, play.arg or "", "shoot"), ("spur", player, uid)]
            )
        else:  # trait double order: two more orders, one play each
            stack.append(("follow", player, 2, (uid,)))

    # -- automatic steps ---------------------------------------------------------------

    def _advance(self, state: PocketState) -> None:
        units = state.units
        while state.winner is None:
            if not state.stack:
                if state.phase == "acting":
                    self._end_turn(state)
                    continue
                return
            frame = state.stack[-1]
            kind = frame[0]
            if kind == "strike":
                attacker, defender = units[str(frame[1])], units[str(frame[2])]
                stat = "shoot" if frame[3] in ("shoot", "react-shoot") else "melee"
                if (
                    attacker.on_field
                    and defender.on_field
                    and any(getattr(t.spec, stat) is not None for t in attacker.troops)
                ):
                    return
            elif kind == "hits":
                if units[str(frame[1])].on_field and int(str(frame[2])) > 0:
                    return
            elif kind in ("react", "target"):
                charger = units[str(frame[2])]
                if charger.on_field and (kind == "react" or charge_targets(state, charger)[1]):
                    return
            elif kind == "spur":
                if self._spur_options(state, frame):
                    return
            elif kind == "follow":
                if int(str(frame[2])) > 0 and self._options(state):
                    return
            elif kind == "flank":
                state.stack.pop()
                self._flank_return(state, units[str(frame[1])], units[str(frame[2])], str(frame[3]))
                continue
            elif kind == "leave":
                state.stack.pop()
                self._leave_return(state, units[str(frame[1])], [units[s] for s in _strs(frame[2])])
                continue
            else:  # settle
                state.stack.pop()
                settle(state)
                continue
            state.stack.pop()

    def _flank_return(
        self, state: PocketState, charger: UnitState, target: UnitState, sector: str
    ) -> None:
        # After a flank fight no contact remains: both go to their own front rows of the
        # target's sector (the target only when it has no other contact).
        if charger.on_field:
            charger.zone = zone(sector, front_row(charger.player))
        if target.on_field and not state.contacts_of(target.id):
            target.zone = zone(sector, front_row(target.player))

    def _leave_return(self, state: PocketState, unit: UnitState, strikers: list[UnitState]) -> None:
        if unit.on_field:
            state.contacts = [c for c in state.contacts if not c.has(unit.id)]
            unit.zone = zone(unit.sector, front_row(unit.player))
        for striker in strikers:
            if not striker.on_field:
                continue
            if self.rules.leave_return == "all-strikers":
                state.contacts = [c for c in state.contacts if not c.has(striker.id)]
            if not state.contacts_of(striker.id):
                striker.zone = zone(striker.sector, front_row(striker.player))

    # -- turns and rounds --------------------------------------------------------------

    def _next_deployer(self, state: PocketState) -> None:
        def waiting(player: int) -> bool:
            return any(u.player == player and u.zone is None for u in state.units.values())

        last = state.last_deployer or opponent(self.battle.attacker)
        if waiting(opponent(last)):
            state.to_play = opponent(last)
        elif waiting(last):
            state.to_play = last
        else:
            self._new_round(state)

    def _new_round(self, state: PocketState) -> None:
        battle = self.battle
        state.round += 1
        state.first_player = battle.attacker if state.round % 2 else battle.defender
        for player in (1, 2):
            units = state.player_units(player)
            leader = any(u.traits.has("leader") for u in units)
            wounds = sum(u.wound_tokens() for u in units)
            state.allotment[player] = max(battle.size // 10 + leader, wounds)
            state.pool[player] = state.allotment[player] - wounds
            state.spent[player] = 0
        for unit in state.units.values():
            unit.orders = 0
        state.first_turn = state.round == 1
        state.end_index = 0
        first = state.first_player
        if state.pool[first] > 0:
            self._start_turn(state, first)
        elif state.pool[opponent(first)] > 0:
            self._start_turn(state, opponent(first))
        else:
            self._end_round(state)

    def _start_turn(self, state: PocketState, player: int) -> None:
        state.to_play = player
        state.phase = "turn"
        state.repositioned = None
        state.spurred = None
        state.turn += 1

    def _end_turn(self, state: PocketState) -> None:
        state.first_turn = False
        state.repositioned = None
        settle(state)
        player = state.to_play
        if state.pool[opponent(player)] > 0:
            self._start_turn(state, opponent(player))
        elif state.pool[player] > 0:
            self._start_turn(state, player)
        else:
            self._end_round(state)

    def _end_round(self, state: PocketState) -> None:
        winner = self.victor(state)
        if winner is not None:
            state.winner = winner
            state.phase = "over"
            return
        state.phase = "end"
        state.end_index = 0
        state.to_play = state.first_player

    def victor(self, state: PocketState) -> int | None:
        """Return who wins if the round ended now (None when the battle goes on)."""
        battle = self.battle
        past = [False] + [2 * state.destroyed[p] >= battle.army(opponent(p)).points for p in (1, 2)]
        if past[1] and past[2]:
            keys = {
                p: (
                    (state.destroyed_troops[p], state.destroyed[p])
                    if self.rules.tie_break == "troops"
                    else (state.destroyed[p],)
                )
                for p in (1, 2)
            }
            if keys[1] == keys[2]:
                return battle.defender
            return 1 if keys[1] > keys[2] else 2
        if past[1]:
            return 1
        if past[2]:
            return 2
        return None

    # -- why a play is illegal -----------------------------------------------------------

    def _diagnose(self, state: PocketState, play: Play, kind: str, player: int) -> tuple[str, str]:
        """Return the rule a play breaks here and the rule in words."""
        expected = _EXPECTED.get(kind, kind)
        unit_id = getattr(play, "unit", None)
        unit = state.units.get(unit_id) if isinstance(unit_id, str) else None
        if isinstance(play, Deploy) and kind == "deploy" and unit is not None:
            if unit.player != player:
                return (
                    "not-your-unit",
                    f"{unit.id} is player {unit.player}'s unit; player {player} deploys now",
                )
            if unit.zone is not None:
                return ("deployed-already", f"{unit.id} is deployed already")
            return (
                "deployment-zone",
                f"{play.zone} is not one of player {player}'s zones ({', '.join(own_zones(player))})",
            )
        if isinstance(play, Reposition) and kind == "action":
            return ("one-reposition", "the turn's free reposition is done; now an order or pass")
        if (
            isinstance(play, Order | Reposition)
            and kind in ("turn", "action", "double order")
            and unit is not None
        ):
            return self._diagnose_order(state, play, kind, player, unit)
        if isinstance(play, Order) and kind == "spur" and play.arg == "spur" and unit is not None:
            if state.first_turn:
                return (
                    "first-turn-trait",
                    "trait orders are not allowed in the attacker's first turn",
                )
            if unit.player != player or not unit.traits.has("spur"):
                return ("spur-unit", f"{unit.id} is not one of player {player}'s units with Spur")
            return (
                "order-cost",
                f"an order on {unit.id} costs {order_cost(unit)}; player {player} has {state.pool[player]} tokens",
            )
        if isinstance(play, React) and kind == "react" and unit is not None:
            if unit.player != player or not unit.on_field:
                return (
                    "not-your-unit",
                    f"{unit.id} is not one of player {player}'s units on the field",
                )
            if unit.zone != zone(state.units[str(state.stack[-1][2])].sector, front_row(player)):
                return (
                    "react-front-row",
                    f"{unit.id} is not in player {player}'s front row of the charged sector",
                )
            if order_cost(unit) > state.pool[player]:
                return (
                    "order-cost",
                    f"an order on {unit.id} costs {order_cost(unit)}; player {player} has {state.pool[player]} tokens",
                )
            stat = "melee" if play.kind == "intercept" else "shoot"
            return (
                f"react-{play.kind}",
                f"every troop of {unit.id} needs a {stat} value to {play.kind}",
            )
        if isinstance(play, Target) and kind == "target":
            return (
                "charge-target",
                f"{play.unit} is not a target of this charge; expected one of: "
                + ", ".join(
                    t.id for t in charge_targets(state, state.units[str(state.stack[-1][2])])[1]
                ),
            )
        if isinstance(play, Wound | Kill) and kind == "hits":
            hit = state.units[str(state.stack[-1][1])]
            return (
                "hit-troop",
                f"the hit is on {hit.id}; expected one of its troops: "
                + ", ".join(t.id for t in hit.troops),
            )
        if isinstance(play, Remove) and kind == "end":
            return (
                "remove-wounded",
                f"{play.troop} is not one of player {player}'s troops carrying a wound token",
            )
        return ("wrong-decision", f"player {player} decides a {kind}: expected {expected}")

    def _diagnose_order(
        self, state: PocketState, play: Order | Reposition, kind: str, player: int, unit: UnitState
    ) -> tuple[str, str]:
        # One commented rule per block, in the order a player meets them.
        # A player orders only their own units on the field.
        if unit.player != player or not unit.on_field:
            return (
                "not-your-unit",
                f"{unit.id} is not one of player {player}'s units on the field",
            )
        # The unit repositioned this turn cannot be ordered.
        if unit.id == state.repositioned:
            return (
                "repositioned-unit",
                f"{unit.id} was repositioned this turn and cannot be ordered",
            )
        # A double order goes to two other units.
        if kind == "double order" and unit.id in _strs(state.stack[-1][3]):
            return ("double-order-other", f"{unit.id} was ordered already in this double order")
        if isinstance(play, Reposition):
            # A Slow unit never repositions.
            if unit.traits.has("slow"):
                return (
                    "slow",
                    f"{unit.id} is Slow: no free reposition (a tactical move is allowed)",
                )
            return (
                "adjacent-zone",
                f"{play.zone} is not adjacent to {unit.zone} in player {player}'s half",
            )
        # Only Double order and Spur are trait orders, not in the attacker's first turn.
        if play.kind == "trait":
            if play.arg not in ("double order", "spur"):
                return (
                    "trait-order",
                    f"{play.arg!r} is not an order; the trait orders are double order and spur",
                )
            if state.first_turn:
                return (
                    "first-turn-trait",
                    "trait orders are not allowed in the attacker's first turn",
                )
            if play.arg == "spur":
                return (
                    "spur-after-order",
                    "spur is given right after a charge, join or shoot order",
                )
            if not unit.traits.has("double order"):
                return ("trait-missing", f"{unit.id} has no troop with double order")
        # An order costs the unit's order tokens + 1 (Reactive: the same, at least 1).
        cost = order_cost(unit)
        if cost > state.pool[player]:
            return (
                "order-cost",
                f"an order on {unit.id} costs {cost}; player {player} has {state.pool[player]} tokens",
            )
        row = unit.row
        if play.kind == "move":
            if row == ENGAGEMENT_ROW:
                return ("move-engaged", f"{unit.id} is in the engagement zone: leave it instead")
            return (
                "adjacent-zone",
                f"{play.arg} is not adjacent to {unit.zone} in player {player}'s half",
            )
        if play.kind == "charge":
            if row != front_row(player):
                return ("charge-front-row", f"{unit.id} is not in its front row")
            if not unit.all_have("melee"):
                return ("charge-melee", f"not every troop of {unit.id} has a melee value")
            return ("charge-target", f"{unit.id} has no enemy to charge")
        if play.kind == "join":
            if not unit.all_have("melee"):
                return ("join-melee", f"not every troop of {unit.id} has a melee value")
            if play.arg not in state.contacts_of(unit.id):
                return ("join-contact", f"{unit.id} is not in contact with {play.arg}")
            return (
                "join-start-of-turn",
                f"{unit.id} and {play.arg} were not in contact at the start of the turn",
            )
        if play.kind == "leave":
            return ("leave-contact", f"{unit.id} is in contact with no enemy")
        if play.kind == "shoot":
            if not unit.all_have("shoot"):
                return ("shoot-values", f"not every troop of {unit.id} has a shoot value")
            targets = [t.id for t in shoot_targets(state, unit, self.rules)]
            return (
                "shoot-target",
                f"{unit.id} cannot shoot {play.arg} from {unit.zone}; it may shoot: {', '.join(targets) or 'nothing'}",
            )
        return ("wrong-decision", f"player {player} decides a {kind}")
