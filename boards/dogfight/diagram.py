"""A text diagram of a position: the board as a chess diagram, then cards and kills.

Rebels are capitals, the Empire lower case: ``A`` A-Wing, ``B`` B-Wing, ``X`` X-Wing,
``Y`` Y-Wing, ``f`` TIE Fighter, ``i`` TIE Interceptor; ``.`` an empty square.

Examples
--------
>>> from boards.dogfight.engine import Dogfight
>>> print(board_diagram(Dogfight(), Dogfight().standard(0)).splitlines()[0])
8  f f f f f f i i
"""

from __future__ import annotations

from boards.dogfight.engine import Dogfight
from boards.dogfight.position import Position
from boards.dogfight.rules import SIDES, FighterType

__all__ = ["board_diagram", "fighter_letter", "position_report"]


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


def position_report(game: Dogfight, position: Position) -> str:
    """Return the diagram with the phase, the kills, the hands and the pile sizes."""
    info = game.describe(position)
    cards = info["cards"]
    assert isinstance(cards, dict)
    winner = game.winner(position)
    state = (
        f"over: {winner}" if winner else f"{info['to_play']} to play, {info['phase']} phase"
    )
    lines = [board_diagram(game, position), state]
    lines.append(
        "kills: "
        + ", ".join(f"{side} {position.kills[i]}" for i, side in enumerate(SIDES))
        + f"; quiet turns {position.quiet_turns}"
    )
    for side in SIDES:
        lines.append(f"{side} hand: {', '.join(cards[side]) or '(empty)'}")
    lines.append(f"deck {len(cards['deck'])} cards, discard {len(cards['discard'])}")
    if position.last is not None:
        lines.append(f"last play: {position.last}")
    return "\n".join(lines)
