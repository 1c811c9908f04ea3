"""A text diagram of a position: the board as a chess diagram, then cards and kills.

Rebels are capitals, the Empire lower case: ``A`` A-Wing, ``B`` B-Wing, ``X`` X-Wing,
``Y`` Y-Wing, ``f`` TIE Fighter, ``i`` TIE Interceptor; ``.`` an empty square.

Examples
--------
>>> from tabletop.boards.dogfight.engine import Dogfight
>>> print(board_diagram(Dogfight(), Dogfight().standard(0)).splitlines()[0])
8  f f f f f f i i
>>> reach = fighter_reach(Dogfight(), Dogfight().standard(0), 0)
>>> [len(reach.moves), reach.targets, reach.blockers]
[10, (), (1,)]
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from tabletop.boards.dogfight.bitboards import KNIGHT, WITHIN, free_and_first, squares
from tabletop.boards.dogfight.engine import Dogfight
from tabletop.boards.dogfight.position import Position
from tabletop.boards.dogfight.rules import SIDES, FighterType
from tabletop.boards.words import counted

__all__ = [
    "Reach",
    "board_diagram",
    "fighter_letter",
    "fighter_reach",
    "position_report",
    "to_win_words",
]


def fighter_letter(fighter: FighterType) -> str:
    """Return a type's letter: its initial (the word after ``TIE``), lower case for the Empire."""
    words = fighter.name.split()
    letter = (words[1] if words[0] == "TIE" and len(words) > 1 else words[0])[0]
    return letter.upper() if fighter.side == "rebels" else letter.lower()


def board_diagram(game: Dogfight, position: Position) -> str:
    """Return the board, rank 8 on top, files a-h left to right."""
    letters = [fighter_letter(f) for f in game.rules.fighters]
    rows = []
    for rank in range(7, -1, -1):
        cells = [
            letters[position.board[rank * 8 + f]] if position.board[rank * 8 + f] >= 0 else "."
            for f in range(8)
        ]
        rows.append(f"{rank + 1}  " + " ".join(cells))
    rows.append("   " + " ".join("abcdefgh"))
    return "\n".join(rows)


def to_win_words(game: Dogfight, position: Position) -> str:
    """Return what each side still needs to win, and how near the draw is.

    A side wins at its ``kills_to_win``-th kill, or when the enemy has no fighter left,
    whichever comes first; ``quiet_turns_draw`` turns without a kill are a draw.

    Examples
    --------
    >>> from tabletop.boards.dogfight.engine import Dogfight
    >>> game = Dogfight()
    >>> to_win_words(game, game.standard(0))
    'to win: rebels 5 more kills, empire 5 more kills; a draw after 100 more turns without a kill'
    """
    rules = game.rules
    needs = []
    for i, side in enumerate(SIDES):
        left = len(position.fighters(1 - i))
        kills = rules.kills_to_win - position.kills[i]
        if left < kills:
            needs.append(f"{side} {counted(left, 'more kill')} (every enemy fighter left)")
        else:
            needs.append(f"{side} {counted(kills, 'more kill')}")
    quiet = rules.quiet_turns_draw - position.quiet_turns
    return f"to win: {', '.join(needs)}; a draw after {counted(quiet, 'more turn')} without a kill"


def position_report(game: Dogfight, position: Position, shown: Collection[str] = SIDES) -> str:
    """Return the diagram with the phase, the kills, what each side needs, the hands, the piles.

    Parameters
    ----------
    game, position
        The game and the position to describe.
    shown : collection of str
        The sides whose hands are printed card by card; of any other side only the
        number of cards is (a hand hidden from the table).
    """
    info = game.describe(position)
    cards = info["cards"]
    assert isinstance(cards, dict)
    winner = game.winner(position)
    state = f"over: {winner}" if winner else f"{info['to_play']} to play, {info['phase']} phase"
    if position.draws_due:
        state += f", {position.draws_due} card{'s' if position.draws_due > 1 else ''} to draw"
    lines = [board_diagram(game, position), state]
    lines.append(
        "kills: "
        + ", ".join(f"{side} {position.kills[i]}" for i, side in enumerate(SIDES))
        + f"; quiet turns {position.quiet_turns}"
    )
    if not winner:
        lines.append(to_win_words(game, position))
    for side in SIDES:
        hand = cards[side]
        if side in shown:
            lines.append(f"{side} hand: {', '.join(hand) or '(empty)'}")
        else:
            lines.append(f"{side} hand: {counted(len(hand), 'card')}, hidden")
    physical = " (a physical deck: its order is unknown)" if position.physical else ""
    deck = counted(len(cards["deck"]), "card")
    lines.append(f"deck {deck}{physical}, discard {len(cards['discard'])}")
    if position.last is not None:
        lines.append(f"last play: {position.last}")
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Reach:
    """What one fighter can do from its square, by its own Move and Range.

    Attributes
    ----------
    moves : tuple of int
        Squares reachable along the 8 lines within its Move (none through a fighter).
    jumps : tuple of int
        Empty knight's-jump squares, when its side or type may play a knight move card.
    targets : tuple of int
        Enemies first met along a line within its Range (and, for a type that may fire
        a knight's-jump attack, enemies a knight's jump away).
    blockers : tuple of int
        Fighters first met within Range that cannot be shot (its own side's).
    blocked : tuple of int
        Squares within Range behind the first fighter met on their line.
    """

    square: int
    moves: tuple[int, ...]
    jumps: tuple[int, ...]
    targets: tuple[int, ...]
    blockers: tuple[int, ...]
    blocked: tuple[int, ...]


def fighter_reach(game: Dogfight, position: Position, square: int) -> Reach:
    """Return the reach of the fighter on `square` (its squares, targets, blocked squares).

    Raises
    ------
    ValueError
        When no fighter is on `square`.
    """
    kind = position.board[square]
    if kind < 0:
        raise ValueError(f"no fighter on {square}")
    fighter = game.rules.fighters[kind]
    tables = game.tables
    side = tables.type_side[kind]
    own, enemy = position.occupied[side], position.occupied[1 - side]
    occupied = own | enemy
    free, _ = free_and_first(square, occupied)
    moves = free & WITHIN[square][min(fighter.move, 7)]
    knight_move = any(tables.knight[c] and tables.playable[c][kind] for c in tables.move_cards)
    knight_fire = any(tables.knight[c] and tables.playable[c][kind] for c in tables.attack_cards)
    blockers = occupied if game.rules.shots_blocked_by_own else enemy
    reach = WITHIN[square][min(fighter.range, 7)]
    shot_free, first = free_and_first(square, blockers)
    first &= reach
    targets = first & enemy
    if knight_fire:
        targets |= KNIGHT[square] & enemy
    return Reach(
        square,
        tuple(squares(moves)),
        tuple(squares(KNIGHT[square] & ~occupied)) if knight_move else (),
        tuple(squares(targets)),
        tuple(squares(first & own)),
        tuple(squares(reach & ~shot_free & ~first)),
    )
