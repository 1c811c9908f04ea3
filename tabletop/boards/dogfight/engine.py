"""The Dogfight rules object: building positions, executing plays, victory, the draw rule.

:class:`Dogfight` implements the shared :class:`tabletop.boards.game.Game` protocol.
:meth:`Dogfight.push` checks a play against the rules (naming the rule it breaks) and
then executes it; :meth:`Dogfight.push_unchecked` executes a play known to be legal,
as python-chess's ``push`` does after ``is_legal``, for simulation and perft, whose plays
come from the generator.

A turn runs by itself between decisions: the engine draws the 3 cards of the vector
phase (shuffling the discard into a new deck when the deck runs out) and goes straight
to the move phase unless the hand is over the limit. With a physical deck (a game played
with real cards) the engine cannot know the cards: each card drawn is then a decision of
its own, ``draw CARD`` in the draw phase, checked against what the deck can still hold.

Examples
--------
>>> game = Dogfight()
>>> start = game.standard(seed=11)
>>> game.side_to_play(start), PHASES[start.phase], sum(start.hands[0])
('rebels', 'move', 3)
>>> game.perft(start, 1) == len(game.legal_plays(start))
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from tabletop.boards.dogfight.judge import judge
from tabletop.boards.dogfight.movegen import Tables, advance_result, generate
from tabletop.boards.dogfight.plays import (
    Advance,
    Defend,
    Discard,
    Draw,
    Fire,
    Move,
    Pass,
    Play,
    Tactics,
    Take,
    Use,
    parse_play,
)
from tabletop.boards.dogfight.position import (
    DEFEND,
    DRAW,
    FIRE,
    MOVE,
    OVER,
    PHASES,
    VECTOR,
    Position,
    placement_violations,
)
from tabletop.boards.dogfight.rules import SIDES, STANDARD, Rules, parse_square, square_name
from tabletop.boards.errors import InvalidPositionError, WorkLimitError
from tabletop.boards.game import Outcome

__all__ = ["Dogfight"]


def _set_kills(position: Position, kills: Mapping[str, int]) -> None:
    """Set each side's kills, refusing an unknown side or a negative count."""
    for side, count in kills.items():
        if side not in SIDES:
            raise InvalidPositionError(f"unknown side {side!r}; expected rebels or empire", "kills")
        if count < 0:
            raise InvalidPositionError(f"expected 0 or more kills, got {count}", "kills")
        position.kills[SIDES.index(side)] = count


class Dogfight:
    """The rules of Star Wars Dogfight as an engine.

    Parameters
    ----------
    rules : Rules
        The rules record (the contract's by default).
    """

    #: Game lengths are counted in turns (both sides' turns counted).
    length_unit = "turns"

    def __init__(self, rules: Rules = STANDARD) -> None:
        self.rules = rules
        self.tables = Tables.of(rules)
        self._names = frozenset(self.tables.names)
        self._execute = {
            Discard: self._discard,
            Move: self._move,
            Advance: self._advance,
            Fire: self._fire,
            Defend: self._defend,
            Take: self._take,
            Tactics: self._tactics,
            Pass: self._pass,
            Draw: self._draw_named,
            Use: self._use,
        }

    # -- building ---------------------------------------------------------------------

    def standard(self, seed: int = 0) -> Position:
        """Return a new game from the standard setup, its deck shuffled from `seed`."""
        return self.position(seed=seed)

    def position(
        self,
        fighters: Mapping[str, Mapping[str, str]] | None = None,
        *,
        to_play: str | None = None,
        phase: str = "vector",
        seed: int = 0,
        kills: Mapping[str, int] | None = None,
        quiet_turns: int = 0,
        hands: Mapping[str, Sequence[str]] | None = None,
        deck: Sequence[str] | None = None,
        discard: Sequence[str] = (),
        physical: bool = False,
    ) -> Position:
        """Build a position, checking it; a ``vector`` position draws its 3 cards at once.

        Parameters
        ----------
        fighters : mapping, optional
            Side to ``{square: type}``; the standard setup when omitted.
        deck : sequence of str, optional
            Top card first; when omitted, every card not in a hand or the discard,
            shuffled from `seed`.
        physical : bool
            A real deck: its cards are every card not in a hand or the discard, in an
            unknown order, and each draw is a ``draw CARD`` play (no `deck` may be given).

        Raises
        ------
        InvalidPositionError
            For an unknown side, type, card or square, a position whose fighters break
            a rule (two on a square, a type on the wrong side, more than the table's
            count), more copies of a card than the deck has, a position won by both
            sides, or a phase that cannot start a file.
        """
        rules = self.rules
        placements = self._placements(rules.setup if fighters is None else fighters)
        to_play = rules.first_side if to_play is None else to_play
        if to_play not in SIDES:
            raise InvalidPositionError(f"expected rebels or empire, got {to_play!r}", "to_play")
        if phase not in ("vector", "move", "fire"):
            raise InvalidPositionError(
                f"expected vector, move or fire (a file never starts in defend), got {phase!r}",
                "phase",
            )
        position = Position(len(self.tables.names), seed)
        position.physical = physical
        for side, square, kind in placements:
            sq = parse_square(square)
            position.board[sq] = self.tables.type_names.index(kind)
            position.occupied[SIDES.index(side)] |= 1 << sq
        position.to_play = SIDES.index(to_play)
        _set_kills(position, kills or {})
        if quiet_turns < 0:
            raise InvalidPositionError(f"expected 0 or more, got {quiet_turns}", "quiet_turns")
        position.quiet_turns = quiet_turns
        self._deal(position, hands or {}, deck, discard)
        self._open(position, phase)
        return position

    def _placements(self, fighters: Mapping[str, Mapping[str, str]]) -> list[tuple[str, str, str]]:
        """Return both sides' ``(side, square, type)``, refusing any placement rule broken."""
        for side in fighters:
            if side not in SIDES:
                raise InvalidPositionError(
                    f"unknown side {side!r}; expected rebels or empire", "fighters"
                )
        missing = [side for side in SIDES if side not in fighters]
        if missing:
            raise InvalidPositionError(
                f"the {missing[0]} are missing; give both sides' fighters", "fighters"
            )
        placements = [
            (side, square, kind) for side in SIDES for square, kind in fighters[side].items()
        ]
        problems = placement_violations(self.rules, placements, setup=False)
        if problems:
            first = problems[0]
            raise InvalidPositionError(first.message + f" (rule: {first.rule})", "fighters")
        return placements

    def _open(self, position: Position, phase: str) -> None:
        """Set the phase a built position starts in: over when won or drawn, else `phase`."""
        rules = self.rules
        winners = [
            side
            for side in (0, 1)
            if position.kills[side] >= rules.kills_to_win or not position.occupied[1 - side]
        ]
        if len(winners) > 1:
            raise InvalidPositionError(
                "both sides have won (5 kills, or no enemy fighter left); a game has one winner",
                "kills",
            )
        if winners:
            position.phase, position.winner = OVER, winners[0]
        elif position.quiet_turns >= rules.quiet_turns_draw:
            position.phase = OVER
        elif phase == "vector":
            self._begin_turn(position)
        else:
            position.phase = PHASES.index(phase)

    def _deal(
        self,
        position: Position,
        hands: Mapping[str, Sequence[str]],
        deck: Sequence[str] | None,
        discard: Sequence[str],
    ) -> None:
        tables = self.tables
        used: Counter[str] = Counter()

        def indices(names: Sequence[str], entry: str) -> list[int]:
            out = []
            for name in names:
                if name not in tables.index:
                    raise InvalidPositionError(
                        f"unknown card {name!r}; expected one of: {', '.join(tables.names)}",
                        entry,
                    )
                used[name] += 1
                out.append(tables.index[name])
            return out

        for side, names in hands.items():
            if side not in SIDES:
                raise InvalidPositionError(
                    f"unknown hand {side!r}; expected rebels, empire, deck or discard", "cards"
                )
            for c in indices(names, f"cards.{side}"):
                position.hands[SIDES.index(side)][c] += 1
        position.discard = indices(discard, "cards.discard")
        if position.physical and deck is not None:
            raise InvalidPositionError(
                'a physical deck\'s order is unknown; give no cards.deck with deck = "physical"',
                "cards.deck",
            )
        given_deck = None if deck is None else indices(deck, "cards.deck")
        for card in self.rules.cards:
            if used[card.name] > card.count:
                raise InvalidPositionError(
                    f"{used[card.name]} copies of {card.name!r} named; the deck has {card.count}",
                    "cards",
                )
        if given_deck is None:
            rest = [
                tables.index[card.name]
                for card in self.rules.cards
                for _ in range(card.count - used[card.name])
            ]
            given_deck = sorted(rest) if position.physical else position.rng.shuffled(rest)
        # Internally the top card is the last one, so a draw is a pop.
        position.deck = given_deck[::-1]

    # -- the protocol -----------------------------------------------------------------

    def parse_play(self, text: str) -> Play:
        """Read a play's text (see :func:`tabletop.boards.dogfight.plays.parse_play`)."""
        return parse_play(text, self._names)

    def play_text(self, play: Play) -> str:
        """Return the play's canonical text."""
        return str(play)

    def side_to_play(self, state: Position) -> str | None:
        """Return the side deciding now: the target's side in the defend phase."""
        if state.phase == OVER:
            return None
        return SIDES[1 - state.to_play if state.phase == DEFEND else state.to_play]

    def legal_plays(self, state: Position) -> list[Play]:
        """Return every legal play of the current decision."""
        return generate(self.tables, state)

    def push(self, state: Position, play: Play) -> None:
        """Check `play` against the rules, then execute it.

        Raises
        ------
        IllegalPlayError
            Naming the rule the play breaks.
        """
        judge(self.tables, state, play)
        self.push_unchecked(state, play)

    def push_unchecked(self, state: Position, play: Play) -> None:
        """Execute a play known to be legal (one from :meth:`legal_plays`)."""
        self._execute[type(play)](state, play)  # type: ignore[operator]
        state.plies += 1
        state.last = play

    def outcome(self, state: Position) -> Outcome | None:
        """Return the winner (None for a draw) and the turns played, once over."""
        if state.phase != OVER:
            return None
        return Outcome(None if state.winner is None else SIDES[state.winner], state.turns)

    def perft(self, state: Position, depth: int, most_positions: int | None = None) -> int:
        """Count the play sequences exactly `depth` plies deep (a finished game adds 0).

        Parameters
        ----------
        state : Position
            Where to count from.
        depth : int
            Plies.
        most_positions : int or None
            The most positions whose plays may be generated (None: no bound). The count
            grows about tenfold a ply and differently from each position, so a bound on
            the work, the same on every machine, is what keeps a count's time bounded.

        Raises
        ------
        WorkLimitError
            When the count needs more than `most_positions` positions expanded.
        """
        expanded = 0

        def count(position: Position, plies: int) -> int:
            nonlocal expanded
            if plies == 0:
                return 1
            expanded += 1
            if most_positions is not None and expanded > most_positions:
                raise WorkLimitError(
                    f"perft {depth} from this position needs more than {most_positions} "
                    "positions expanded, the most one count may take",
                    expanded - 1,
                    most_positions,
                )
            plays = generate(self.tables, position)
            if plies == 1:
                return len(plays)
            total = 0
            for play in plays:
                child = position.copy()
                self.push_unchecked(child, play)
                total += count(child, plies - 1)
            return total

        return count(state, depth)

    # -- turns and cards ----------------------------------------------------------------

    def needs_card(self, state: Position) -> bool:
        """Return whether the decision is a card drawn from a physical deck (a real card)."""
        return state.phase == DRAW

    def _draw(self, state: Position, side: int, count: int) -> None:
        if state.physical:
            # The table names each card: the draw phase holds the count, and the phase
            # the draws return to is the one in hand now (set by the caller).
            state.after_draw, state.draws_due, state.phase = state.phase, count, DRAW
            self._draws_done_if_short(state)
            return
        hand, deck = state.hands[side], state.deck
        for _ in range(count):
            if not deck:
                if not state.discard:
                    return  # deck and discard both empty: the draw stops short
                # The shuffled list's first card is the new top.
                deck.extend(reversed(state.rng.shuffled(state.discard)))
                state.discard.clear()
            hand[deck.pop()] += 1

    def _begin_turn(self, state: Position) -> None:
        state.phase = VECTOR
        self._draw(state, state.to_play, self.rules.draw_per_turn)
        if state.phase == VECTOR:
            self._after_draws(state)

    def _after_draws(self, state: Position) -> None:
        # The hand limit applies only in the vector phase.
        over = sum(state.hands[state.to_play]) > self.rules.hand_limit
        state.phase = MOVE if state.phase == VECTOR and not over else state.phase

    def _draws_done_if_short(self, state: Position) -> None:
        # Deck and discard both empty: the draw stops short.
        if state.draws_due and (state.deck or state.discard):
            return
        state.draws_due, state.phase = 0, state.after_draw
        self._after_draws(state)

    def _draw_named(self, state: Position, play: Draw) -> None:
        c = self.tables.index[play.card]
        if not state.deck:
            state.deck, state.discard = sorted(state.discard), []  # the reshuffle
        state.deck.remove(c)
        state.hands[state.to_play][c] += 1
        state.draws_due -= 1
        self._draws_done_if_short(state)

    def _end_turn(self, state: Position, kill: bool) -> None:
        state.turns += 1
        state.quiet_turns = 0 if kill else state.quiet_turns + 1
        if state.quiet_turns >= self.rules.quiet_turns_draw:
            state.phase = OVER
            return
        state.to_play = 1 - state.to_play
        self._begin_turn(state)

    def _spend(self, state: Position, side: int, name: str) -> None:
        c = self.tables.index[name]
        state.hands[side][c] -= 1
        state.discard.append(c)

    # -- executing each play -----------------------------------------------------------

    def _discard(self, state: Position, play: Discard) -> None:
        for name in play.cards:
            self._spend(state, state.to_play, name)
        state.phase = MOVE

    def _tactics(self, state: Position, play: Tactics) -> None:
        side = state.to_play
        card = next(c for c in self.tables.draw_cards if state.hands[side][c])
        self._spend(state, side, self.tables.names[card])
        self._draw(state, side, self.tables.draws[card])
        if state.phase != DRAW:
            self._after_draws(state)

    def _relocate(self, state: Position, origin: int, target: int) -> None:
        side = state.to_play
        state.board[target], state.board[origin] = state.board[origin], -1
        state.occupied[side] ^= (1 << origin) | (1 << target)

    def _move(self, state: Position, play: Move) -> None:
        self._spend(state, state.to_play, play.card)
        self._relocate(state, play.origin, play.target)
        state.phase = FIRE

    def _advance(self, state: Position, play: Advance) -> None:
        moved = advance_result(self.tables, state, self.tables.index[play.card])
        self._spend(state, state.to_play, play.card)
        for origin, target in moved:
            self._relocate(state, origin, target)
        state.phase = FIRE

    def _pass(self, state: Position, play: Pass) -> None:
        if state.phase == MOVE:
            state.phase = FIRE
        else:
            self._end_turn(state, kill=False)

    def _fire(self, state: Position, play: Fire) -> None:
        self._spend(state, state.to_play, play.card)
        state.shot = (play.origin, play.target)
        state.phase = DEFEND

    def _defend(self, state: Position, play: Defend) -> None:
        self._spend(state, 1 - state.to_play, play.card)
        state.shot = None
        self._end_turn(state, kill=False)

    def _take(self, state: Position, play: Take) -> None:
        assert state.shot is not None
        target = state.shot[1]
        side, enemy = state.to_play, 1 - state.to_play
        state.board[target] = -1
        state.occupied[enemy] &= ~(1 << target)
        state.kills[side] += 1
        state.shot = None
        if not self._won(state, side):
            self._end_turn(state, kill=True)

    def _won(self, state: Position, side: int) -> bool:
        """End the game won by `side` when it has the kills or no enemy is left."""
        if state.kills[side] < self.rules.kills_to_win and state.occupied[1 - side]:
            return False
        state.turns += 1
        state.quiet_turns = 0
        state.phase, state.winner = OVER, side
        return True

    def _use(self, state: Position, play: Use) -> None:
        # The card's effect is registered (Tables.of refuses an unknown one).
        side = state.to_play
        effect = self.tables.effects[self.tables.index[play.card]]
        assert effect is not None
        self._spend(state, side, play.card)
        effect.apply(state, side, play.squares)
        if self._won(state, side):
            return
        if state.phase == MOVE:
            state.phase = FIRE
        else:
            self._end_turn(state, kill=False)

    # -- reports ----------------------------------------------------------------------

    def describe(self, state: Position) -> dict[str, object]:
        """Return the position as the game file's structure (deck top first)."""
        names = self.tables.names

        def listed(counts: list[int]) -> list[str]:
            return [names[c] for c in range(len(counts)) for _ in range(counts[c])]

        fighters = {
            side: {
                square_name(sq): self.tables.type_names[state.board[sq]] for sq in state.fighters(i)
            }
            for i, side in enumerate(SIDES)
        }
        return {
            "to_play": self.side_to_play(state),
            "phase": PHASES[state.phase],
            "winner": self.winner(state),
            "kills": dict(zip(SIDES, state.kills, strict=True)),
            "quiet_turns": state.quiet_turns,
            "fighters": fighters,
            "cards": {
                "rebels": listed(state.hands[0]),
                "empire": listed(state.hands[1]),
                "deck": [names[c] for c in reversed(state.deck)],
                "discard": [names[c] for c in state.discard],
            },
            "shot": None if state.shot is None else [square_name(s) for s in state.shot],
        }

    def winner(self, state: Position) -> str | None:
        """Return ``rebels``, ``empire`` or ``draw`` once over, else None."""
        if state.phase != OVER:
            return None
        return "draw" if state.winner is None else SIDES[state.winner]
