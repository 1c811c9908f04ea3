"""Positions of Dogfight: fighters on squares, hands, deck, discard, kills and phase.

A :class:`Position` is mutable for speed, with an explicit :meth:`Position.copy`; the
engine (:class:`tabletop.boards.dogfight.engine.Dogfight`) builds, checks and changes it. Cards
are held as indices into the rules' card table: a hand as a count per card, the deck as
a list whose *last* item is the top card, the discard pile in the order thrown.

:func:`placement_violations` judges a setup or a position's fighters against the
contract's rules (``setup-rank``, ``setup-count``, ``two-on-square``, ``wrong-side``,
``too-many``) without building anything, so ``check`` can report every problem at once.

Examples
--------
>>> from tabletop.boards.dogfight.rules import STANDARD
>>> found = placement_violations(STANDARD, [("rebels", "a1", "X-Wing"),
...                                         ("empire", "a1", "TIE Fighter")], setup=False)
>>> [(v.rule, v.squares) for v in found]
[('two-on-square', ('a1',))]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tabletop.boards.dogfight.rules import SIDES, FighterType, Rules, parse_square, square_name
from tabletop.boards.errors import InvalidPositionError
from tabletop.boards.rng import Rng

__all__ = [
    "DEFEND",
    "DRAW",
    "FIRE",
    "MOVE",
    "OVER",
    "PHASES",
    "VECTOR",
    "Position",
    "Violation",
    "placement_violations",
]

#: The phases by index: the vector decision (a hand over the limit), move, fire, the
#: target's defence, a finished game, and (with a physical deck only) a card to name
#: from the real deck.
PHASES: tuple[str, ...] = ("vector", "move", "fire", "defend", "over", "draw")
#: Phase indices.
VECTOR, MOVE, FIRE, DEFEND, OVER, DRAW = range(6)


class Position:
    """One moment of a game (mutable; the engine keeps it consistent).

    Attributes
    ----------
    board : list of int
        Per square, the index of its fighter's type in the rules, or -1.
    occupied : list of int
        Per side, the bitboard of its fighters.
    to_play : int
        The side whose turn it is (0 rebels, 1 empire); in the defend phase the other
        side decides.
    phase : int
        One of :data:`PHASES`' indices.
    hands : list of list of int
        Per side, how many of each card it holds.
    deck, discard : list of int
        Card indices; the deck's top is its last item.
    kills : list of int
        Enemy fighters each side has destroyed.
    quiet_turns : int
        Completed turns in a row without a kill.
    turns, plies : int
        Turns completed and plays made since the position was built.
    winner : int or None
        The winning side once over; None while going on or for a draw.
    shot : tuple of int or None
        In the defend phase, the shooter's square and the target's.
    last : object or None
        The last play made, for pictures.
    rng : Rng
        The stream that shuffles the discard into a new deck.
    physical : bool
        Whether the deck is a real one: its order is unknown, ``deck`` is the cards in it
        (sorted, order meaningless), and each card drawn is named by a ``draw`` play.
    draws_due : int
        With a physical deck, the cards still to be named in the draw phase.
    after_draw : int
        The phase the draws return to (vector: the hand limit is then applied).
    """

    __slots__ = (
        "after_draw",
        "board",
        "deck",
        "discard",
        "draws_due",
        "hands",
        "kills",
        "last",
        "occupied",
        "phase",
        "physical",
        "plies",
        "quiet_turns",
        "rng",
        "shot",
        "to_play",
        "turns",
        "winner",
    )

    def __init__(self, card_kinds: int, seed: int = 0) -> None:
        self.board = [-1] * 64
        self.occupied = [0, 0]
        self.to_play = 0
        self.phase = MOVE
        self.hands = [[0] * card_kinds, [0] * card_kinds]
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.kills = [0, 0]
        self.quiet_turns = 0
        self.turns = 0
        self.plies = 0
        self.winner: int | None = None
        self.shot: tuple[int, int] | None = None
        self.last: object | None = None
        self.rng = Rng(seed)
        self.physical = False
        self.draws_due = 0
        self.after_draw = MOVE

    def copy(self) -> Position:
        """Return an independent copy."""
        twin = Position.__new__(Position)
        twin.board = self.board[:]
        twin.occupied = self.occupied[:]
        twin.to_play = self.to_play
        twin.phase = self.phase
        twin.hands = [self.hands[0][:], self.hands[1][:]]
        twin.deck = self.deck[:]
        twin.discard = self.discard[:]
        twin.kills = self.kills[:]
        twin.quiet_turns = self.quiet_turns
        twin.turns = self.turns
        twin.plies = self.plies
        twin.winner = self.winner
        twin.shot = self.shot
        twin.last = self.last
        twin.rng = self.rng.copy()
        twin.physical = self.physical
        twin.draws_due = self.draws_due
        twin.after_draw = self.after_draw
        return twin

    def key(self) -> tuple[object, ...]:
        """Return everything that decides the rest of the game (for comparing positions)."""
        return (
            tuple(self.board),
            self.to_play,
            self.phase,
            tuple(map(tuple, self.hands)),
            tuple(self.deck),
            tuple(self.discard),
            tuple(self.kills),
            self.quiet_turns,
            self.winner,
            self.shot,
            self.rng.state,
            self.physical,
            self.draws_due,
            self.after_draw,
        )

    def __eq__(self, other: object) -> bool:
        """Compare everything that decides the rest of the game."""
        return isinstance(other, Position) and self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def fighters(self, side: int) -> list[int]:
        """Return the squares of a side's fighters, lowest first."""
        return [sq for sq in range(64) if self.occupied[side] >> sq & 1]


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule of a setup or position: its name, the squares, and in words."""

    rule: str
    squares: tuple[str, ...]
    message: str

    def to_json(self) -> dict[str, object]:
        """Return the contract's JSON form."""
        return {"rule": self.rule, "squares": list(self.squares), "message": self.message}


def placement_violations(
    rules: Rules, placements: Sequence[tuple[str, str, str]], *, setup: bool
) -> list[Violation]:
    """Judge fighters placed as ``(side, square, type)`` as a setup or as a position.

    A setup must match the table's counts (``setup-count``) on the side's back ranks
    (``setup-rank``); a position may hold at most the table's count of a type
    (``too-many``). Both need one fighter a square (``two-on-square``) and each type on
    its own side (``wrong-side``, counted toward neither side).

    Raises
    ------
    InvalidPositionError
        For an unknown side, an unknown fighter type or a square off the board.
    """
    found: list[Violation] = []
    seen: dict[int, list[str]] = {}
    counted: dict[tuple[str, str], list[str]] = {}
    for side, text, type_name in placements:
        square, fighter = _placed(rules, side, text, type_name)
        seen.setdefault(square, []).append(text)
        if fighter.side != side:
            found.append(
                Violation(
                    "wrong-side",
                    (text,),
                    f"{type_name} on {text} flies for the {fighter.side}, not the {side}",
                )
            )
            continue
        counted.setdefault((side, type_name), []).append(text)
        if setup:
            found.extend(_rank_violations(rules, side, square, text, type_name))
    found.extend(_shared_squares(seen))
    found.extend(_count_violations(rules, counted, setup=setup))
    return found


def _placed(rules: Rules, side: str, text: str, type_name: str) -> tuple[int, FighterType]:
    """Return the square and the fighter type of one placement, refusing unknown names."""
    if side not in SIDES:
        raise InvalidPositionError(f"unknown side {side!r}; expected rebels or empire")
    try:
        square = parse_square(text)
    except ValueError as error:
        raise InvalidPositionError(str(error), f"fighters.{side}") from None
    try:
        return square, rules.fighter(type_name)
    except KeyError:
        names = ", ".join(f.name for f in rules.fighters)
        raise InvalidPositionError(
            f"unknown fighter type {type_name!r} on {text}; expected one of: {names}",
            f"fighters.{side}",
        ) from None


def _rank_violations(
    rules: Rules, side: str, square: int, text: str, type_name: str
) -> list[Violation]:
    """Return ``setup-rank`` when a fighter is set up off its side's back ranks."""
    ranks = range(rules.setup_ranks) if side == "rebels" else range(8 - rules.setup_ranks, 8)
    if square // 8 in ranks:
        return []
    first, last = ranks[0] + 1, ranks[-1] + 1
    return [
        Violation(
            "setup-rank",
            (text,),
            f"{type_name} on {text}: the {side} set up on ranks {first}-{last}",
        )
    ]


def _shared_squares(seen: dict[int, list[str]]) -> list[Violation]:
    """Return ``two-on-square`` for each square named more than once, by square number."""
    return [
        Violation(
            "two-on-square",
            (square_name(square),),
            f"{len(on_square)} fighters on {square_name(square)}; one fighter a square",
        )
        for square, on_square in sorted(seen.items())
        if len(on_square) > 1
    ]


def _count_violations(
    rules: Rules, counted: dict[tuple[str, str], list[str]], *, setup: bool
) -> list[Violation]:
    """Return ``setup-count`` (a setup) or ``too-many`` (a position) by the fighter table."""
    found: list[Violation] = []
    for fighter in rules.fighters:
        where = tuple(counted.get((fighter.side, fighter.name), []))
        if setup and len(where) != fighter.count:
            found.append(
                Violation(
                    "setup-count",
                    where,
                    f"the {fighter.side} set up {len(where)} {fighter.name}, "
                    f"the table gives {fighter.count}",
                )
            )
        elif not setup and len(where) > fighter.count:
            found.append(
                Violation(
                    "too-many",
                    where,
                    f"the {fighter.side} have {len(where)} {fighter.name}, at most {fighter.count}",
                )
            )
    return found
