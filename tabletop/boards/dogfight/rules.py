"""The rules record of Star Wars Dogfight: fighters, cards and every ruling, as data.

The record follows the contract (``dogfight.md``): the fighter and card tables, the
turn's numbers (3 cards drawn, a hand of 5, Tactics draws 2), victory on the 5th kill,
and each ruling the seed leaves open as a named option whose default is the contract's.
A group that reads the seed otherwise builds its own record with
:func:`dataclasses.replace`.

Squares are numbered ``rank * 8 + file`` from 0 (``a1``) to 63 (``h8``).

Examples
--------
>>> STANDARD.fighter("X-Wing")
FighterType(name='X-Wing', side='rebels', count=2, move=5, range=4)
>>> STANDARD.card("Laser Cannons").only, STANDARD.card("Ion Thrusters").value
(('X-Wing', 'TIE Interceptor'), None)
>>> sum(card.count for card in STANDARD.cards)
68
>>> square_name(0), square_name(63), parse_square("e4")
('a1', 'h8', 28)
>>> STANDARD.may_play("Laser Cannons", "X-Wing"), STANDARD.may_play("Dive", "B-Wing")
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "CARD_KINDS",
    "SIDES",
    "STANDARD",
    "Card",
    "FighterType",
    "Rules",
    "parse_square",
    "square_name",
]

#: The two sides, in the order of their indices (0 rebels, 1 empire).
SIDES: tuple[str, str] = ("rebels", "empire")
#: What a card does: moves a fighter, fires, cancels a shot, or (Tactics) draws cards.
CARD_KINDS: tuple[str, ...] = ("move", "attack", "defence", "special")

_FILES = "abcdefgh"


def square_name(square: int) -> str:
    """Return the chess name of a square number (0 is ``a1``, 63 is ``h8``)."""
    return _FILES[square % 8] + str(square // 8 + 1)


def parse_square(text: str) -> int:
    """Return the number of a square named like ``e4``.

    Raises
    ------
    ValueError
        For anything but a file ``a``-``h`` followed by a rank ``1``-``8``.
    """
    if len(text) != 2 or text[0] not in _FILES or text[1] not in "12345678":
        raise ValueError(f"{text!r} is not a square; expected a file a-h and a rank 1-8, like e4")
    return (int(text[1]) - 1) * 8 + _FILES.index(text[0])


@dataclass(frozen=True, slots=True)
class FighterType:
    """One line of a fighter table: its side, how many start, Move and Range."""

    name: str
    side: str
    count: int
    move: int
    range: int


@dataclass(frozen=True, slots=True)
class Card:
    """One line of the card table.

    Attributes
    ----------
    value : int or None
        The squares a move card travels or an attack card reaches; None for a knight's
        jump (``K``) and for cards without a number.
    knight : bool
        A ``K`` card: a knight's jump (move) or a knight's-jump shot (attack).
    only : tuple of str
        The sides or fighter types that alone may play it (empty: anyone able).
    draws : int
        Cards drawn by playing it (Tactics).
    effect : str or None
        The name of a registered :class:`~tabletop.boards.dogfight.effects.Effect` the card
        applies, played as ``use [SQUARE ...] CARD`` (None for the contract's cards).
    """

    name: str
    count: int
    kind: str
    value: int | None = None
    knight: bool = False
    only: tuple[str, ...] = ()
    draws: int = 0
    effect: str | None = None


FIGHTERS: tuple[FighterType, ...] = (
    FighterType("A-Wing", "rebels", 2, 6, 3),
    FighterType("B-Wing", "rebels", 2, 4, 4),
    FighterType("X-Wing", "rebels", 2, 5, 4),
    FighterType("Y-Wing", "rebels", 2, 4, 3),
    FighterType("TIE Fighter", "empire", 6, 5, 3),
    FighterType("TIE Interceptor", "empire", 2, 6, 4),
)

CARDS: tuple[Card, ...] = (
    Card("Maneuver", 5, "move", 1),
    Card("Loop", 5, "move", 2),
    Card("Break Away", 5, "move", 3),
    Card("Pursuit", 4, "move", 4),
    Card("Dive", 3, "move", 5),
    Card("Afterburners", 2, "move", 6),
    Card("Blasters", 5, "attack", 1),
    Card("Attack Run", 5, "attack", 2),
    Card("Targeters", 5, "attack", 3),
    Card("Fire-Linked", 5, "attack", 4),
    Card("Evasion", 4, "defence"),
    Card("Deflector Shields", 2, "defence", only=("rebels",)),
    Card("Ion Thrusters", 2, "move", knight=True, only=("empire",)),
    Card("Laser Cannons", 4, "attack", 5, only=("X-Wing", "TIE Interceptor")),
    Card("Agility", 2, "defence", only=("A-Wing",)),
    Card("Ion Cannons", 2, "attack", 3, only=("B-Wing",)),
    Card("Laser Turret", 2, "attack", knight=True, only=("Y-Wing",)),
    Card("Tight Turns", 4, "defence", only=("TIE Fighter",)),
    Card("Tactics", 2, "special", draws=2),
)

#: The standard setup of the contract: square to fighter type, by side.
STANDARD_SETUP: dict[str, dict[str, str]] = {
    "rebels": {
        "a1": "X-Wing",
        "b1": "X-Wing",
        "c1": "A-Wing",
        "d1": "A-Wing",
        "e1": "B-Wing",
        "f1": "B-Wing",
        "g1": "Y-Wing",
        "h1": "Y-Wing",
    },
    "empire": {
        "a8": "TIE Fighter",
        "b8": "TIE Fighter",
        "c8": "TIE Fighter",
        "d8": "TIE Fighter",
        "e8": "TIE Fighter",
        "f8": "TIE Fighter",
        "g8": "TIE Interceptor",
        "h8": "TIE Interceptor",
    },
}


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything the engine needs to know about the game, each ruling a named option.

    Attributes
    ----------
    move_up_to : bool
        Ruling: a move card's number is an upper bound (1 up to the value squares);
        False reads it as exact.
    restricted_ignores_stats : bool
        Ruling: a card restricted to a side or type may be played for it whatever its
        Move or Range (an X-Wing fires Laser Cannons at 5); False also asks the stat.
    advance_needs_all : bool
        Ruling: False lets a group advance leave blocked or too-slow fighters where they
        are (legal when one fighter moves); True makes it legal only when all move.
    shots_blocked_by_own : bool
        Ruling: a shot is blocked by the first fighter met, own or enemy; False lets a
        shot pass over the shooter's own fighters.
    first_side : str
        Ruling: the side that plays first in a new game.
    quiet_turns_draw : int
        Ruling: this many turns in a row without a kill end the game in a draw.
    setup_ranks : int
        Ruling: the back ranks of each side's setup ("the first two rows").
    """

    fighters: tuple[FighterType, ...] = FIGHTERS
    cards: tuple[Card, ...] = CARDS
    setup: dict[str, dict[str, str]] = field(default_factory=lambda: STANDARD_SETUP)
    draw_per_turn: int = 3
    hand_limit: int = 5
    kills_to_win: int = 5
    move_up_to: bool = True
    restricted_ignores_stats: bool = True
    advance_needs_all: bool = False
    shots_blocked_by_own: bool = True
    first_side: str = "rebels"
    quiet_turns_draw: int = 100
    setup_ranks: int = 2

    def fighter(self, name: str) -> FighterType:
        """Return the fighter type called `name`.

        Raises
        ------
        KeyError
            For a name not in the table.
        """
        for fighter in self.fighters:
            if fighter.name == name:
                return fighter
        raise KeyError(name)

    def card(self, name: str) -> Card:
        """Return the card called `name` (case-sensitive).

        Raises
        ------
        KeyError
            For a name not in the table.
        """
        for card in self.cards:
            if card.name == name:
                return card
        raise KeyError(name)

    def rulings(self) -> dict[str, object]:
        """Return the named rulings and their values, for reports."""
        names = (
            "move_up_to",
            "restricted_ignores_stats",
            "advance_needs_all",
            "shots_blocked_by_own",
            "first_side",
            "quiet_turns_draw",
            "setup_ranks",
        )
        return {name: getattr(self, name) for name in names}

    def may_play(self, card_name: str, fighter_name: str) -> bool:
        """Say whether a card may be played for a fighter of a type, by the contract's ruling.

        A restricted card goes only to its sides or types (and, unless
        :attr:`restricted_ignores_stats`, only where the stat reaches its value); an
        unrestricted move (attack) card to a fighter whose Move (Range) reaches its value;
        defence and special cards to anyone.
        """
        card, fighter = self.card(card_name), self.fighter(fighter_name)
        stat = {"move": fighter.move, "attack": fighter.range}.get(card.kind)
        stat_ok = card.value is None or stat is None or stat >= card.value
        if card.only:
            allowed = fighter.name in card.only or fighter.side in card.only
            return allowed and (self.restricted_ignores_stats or stat_ok)
        return stat_ok


#: The contract's rules, every ruling at its default.
STANDARD = Rules()
