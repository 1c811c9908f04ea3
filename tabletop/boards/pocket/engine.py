"""The Pocket Battles rules object: decisions, legal plays, checked pushes, the outcome.

:class:`PocketBattles` implements :class:`tabletop.boards.game.Game` for one battle's setup (the
units and troops its plays may name); the rules record of the battle says every ruling.
Sides are the strings ``"1"`` and ``"2"``.

Examples
--------
>>> from tabletop.boards.pocket.examples import example_battle
>>> game = PocketBattles(example_battle())
>>> state = game.start()
>>> decision = game.decision(state)
>>> decision.player, decision.kind, len(decision.plays) > 0
(1, 'turn', True)
>>> game.push(state, game.parse_play("order nobody charge"))
Traceback (most recent call last):
...
tabletop.boards.errors.InvalidPlayError: cannot read play 'order nobody charge': unknown unit 'nobody'; expected one of: spears, riders, archers, legion, cohort, scouts
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletop.boards.errors import IllegalPlayError, InvalidPlayError
from tabletop.boards.game import Outcome
from tabletop.boards.pocket.army import Battle
from tabletop.boards.pocket.combat import (
    add_contact,
    apply_hit,
    charge_targets,
    destroy_troop,
    order_cost,
    resolve_strike,
    settle,
)
from tabletop.boards.pocket.diagnose import PlayDiagnosis
from tabletop.boards.pocket.listing import DECISION_KINDS, Decision, frame_ids
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
    Roll,
    Surrender,
    Target,
    Wound,
    parse_play,
    play_text,
)
from tabletop.boards.pocket.state import PocketState, UnitState, opponent
from tabletop.boards.pocket.zones import ENGAGEMENT_ROW, front_row, zone
from tabletop.boards.words import counted

__all__ = ["DECISION_KINDS", "Decision", "PocketBattles"]


class PocketBattles(PlayDiagnosis):
    """The rules of Pocket Battles applied to one battle's setup.

    Parameters
    ----------
    battle : Battle
        The armies (the units and troops plays may name), attacker, seed and rules.
    """

    length_unit = "rounds"

    def __init__(self, battle: Battle) -> None:
        super().__init__(battle)
        self._units = frozenset(self.unit_ids)
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

    # -- applying plays ----------------------------------------------------------------

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
                    text,
                    "roll-dice",
                    f"the roll due has {counted(due, 'die', 'dice')}, not {len(play.dice)}",
                )
            # Written dice advance the stream as drawn ones do, so the rolls after them
            # are the seed's either way.
            for _ in play.dice:
                state.rng.roll()
            self._roll(state, play.dice)
        else:
            options = self._cached_options(state)
            cost = next((c for p, c in options if p is play or p == play), None)
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
            self._apply_order(state, play, kind, player)
        elif isinstance(play, React):
            self._react(state, play)
        elif isinstance(play, Target):
            self._target(state, play)
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

    def _apply_order(self, state: PocketState, play: Order, kind: str, player: int) -> None:
        """Apply an order: a spur, one of a double order, or the turn's order."""
        units = state.units
        if kind == "spur":
            frame = state.stack.pop()
            self._pay(state, units[play.unit])
            state.spurred = str(frame[2])
            return
        if kind == "double order":
            frame = state.stack.pop()
            excluded = (*frame_ids(frame[3]), play.unit)
            state.stack.append(("follow", player, int(str(frame[2])) - 1, excluded))
        else:
            state.phase = "acting"
        self._order(state, units[play.unit], play)

    def _react(self, state: PocketState, play: React) -> None:
        """Apply a reaction to a charge: wait, intercept (contact) or shoot first."""
        units = state.units
        frame = state.stack.pop()
        charger = units[str(frame[2])]
        if play.kind == "wait":
            state.stack.append(("target", charger.player, charger.id))
            return
        reactor = units[play.unit or ""]
        self._pay(state, reactor)
        if play.kind == "intercept":
            add_contact(state, charger, reactor)
            state.stack.append(("strike", reactor.id, charger.id, "counter"))
            state.stack.append(("strike", charger.id, reactor.id, "charge"))
        else:
            state.stack.append(("target", charger.player, charger.id))
            state.stack.append(("strike", reactor.id, charger.id, "react-shoot"))

    def _target(self, state: PocketState, play: Target) -> None:
        """Apply a charge's target: a flank charge or contact, then the two strikes."""
        units = state.units
        charger = units[str(state.stack.pop()[2])]
        target = units[play.unit]
        if charge_targets(state, charger)[0] == "flank":
            state.stack.append(("flank", charger.id, target.id, target.sector))
        else:
            add_contact(state, charger, target)
        state.stack.append(("strike", target.id, charger.id, "counter"))
        state.stack.append(("strike", charger.id, target.id, "charge"))

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
                self._leave_return(
                    state, units[str(frame[1])], [units[s] for s in frame_ids(frame[2])]
                )
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
