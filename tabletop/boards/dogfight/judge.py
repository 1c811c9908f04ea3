"""The judge: why a play is illegal, in words and by the name of the rule it breaks.

:func:`judge` walks the board square by square (it shares no code with the bitboard
generator, so each checks the other) and raises
:class:`~tabletop.boards.errors.IllegalPlayError` with one of these rules:

``game-over``, ``wrong-phase``, ``not-in-hand``, ``wrong-card-kind``, ``no-fighter``,
``not-your-fighter``, ``card-restriction``, ``not-a-line``, ``too-far``,
``wrong-distance``, ``blocked``, ``occupied``, ``not-a-knight-jump``, ``knight-advance``,
``advance-blocked``, ``out-of-range``, ``no-target``, ``own-target``, ``discard-count``,
``no-tactics``, for a card with an effect of its own (``use``) ``no-effect`` and
``not-a-use``, and with a physical deck ``not-in-deck`` (a card drawn that no deck,
reshuffled or not, can hold now).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

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
)
from tabletop.boards.dogfight.rules import SIDES, square_name
from tabletop.boards.errors import IllegalPlayError
from tabletop.boards.words import counted, with_article

if TYPE_CHECKING:
    from tabletop.boards.dogfight.movegen import Tables

__all__ = ["judge"]

_PHASES_OF: dict[type, tuple[int, ...]] = {
    Discard: (VECTOR,),
    Tactics: (VECTOR, MOVE, FIRE),
    Move: (MOVE,),
    Advance: (MOVE,),
    Pass: (MOVE, FIRE),
    Fire: (FIRE,),
    Defend: (DEFEND,),
    Take: (DEFEND,),
    Draw: (DRAW,),
    Use: (MOVE, FIRE),  # the card's effect may narrow this (see _judge_use)
}


def _line(origin: int, target: int) -> tuple[int, int, int] | None:
    """Return the step (file, rank) and the distance from origin to target on a line."""
    df, dr = target % 8 - origin % 8, target // 8 - origin // 8
    if (df == 0 and dr == 0) or (df and dr and abs(df) != abs(dr)):
        return None
    distance = max(abs(df), abs(dr))
    return (df > 0) - (df < 0), (dr > 0) - (dr < 0), distance


def _between(origin: int, step: tuple[int, int], distance: int) -> list[int]:
    f, r = origin % 8, origin // 8
    return [(r + step[1] * k) * 8 + f + step[0] * k for k in range(1, distance)]


def _is_knight_jump(origin: int, target: int) -> bool:
    df, dr = abs(target % 8 - origin % 8), abs(target // 8 - origin // 8)
    return {df, dr} == {1, 2}


def _holder(position: Position, square: int) -> int | None:
    for side in (0, 1):
        if position.occupied[side] >> square & 1:
            return side
    return None


def judge(tables: Tables, position: Position, play: Play) -> None:
    """Raise :class:`IllegalPlayError` when `play` is illegal in `position`; else return.

    Raises
    ------
    IllegalPlayError
        With the rule's name and the rule applied to this play in words.
    """
    text = str(play)

    def illegal(rule: str, reason: str) -> IllegalPlayError:
        return IllegalPlayError(text, rule, reason)

    _judge_phase(position, play, text, illegal)
    if isinstance(play, Draw):
        _judge_draw(tables, position, play.card, illegal)
        return
    check = _Checks(tables, position, illegal)
    _JUDGE_OF[type(play)](check, play)


def _judge_phase(
    position: Position, play: Play, text: str, illegal: Callable[[str, str], IllegalPlayError]
) -> None:
    """Refuse any play once the game is over, and a play out of its phase."""
    if position.phase == OVER:
        raise illegal("game-over", "the game is over; no play is legal")
    phases = _PHASES_OF[type(play)]
    if position.phase not in phases:
        word = text.split()[0]
        allowed = " or ".join(PHASES[p] for p in phases)
        raise illegal(
            "wrong-phase",
            f"{word!r} is played in the {allowed} phase, and this is the "
            f"{PHASES[position.phase]} phase",
        )


class _Checks:
    """The checks shared by the plays: the card in hand, the fighter, the line, the path."""

    def __init__(
        self,
        tables: Tables,
        position: Position,
        illegal: Callable[[str, str], IllegalPlayError],
    ) -> None:
        self.tables, self.position, self.illegal = tables, position, illegal
        self.side = position.to_play
        self.deciding = 1 - self.side if position.phase == DEFEND else self.side
        self.name = SIDES[self.deciding]
        self.hand = position.hands[self.deciding]

    def card_of(self, card: str, kind: str) -> int:
        """Return the index of `card`, held by the side deciding and of the `kind` needed."""
        tables = self.tables
        c = tables.index[card]
        if not self.hand[c]:
            raise self.illegal("not-in-hand", f"the {self.name} hold no {card}")
        if tables.kinds[c] != kind:
            raise self.illegal(
                "wrong-card-kind",
                f"{card} is {with_article(tables.kinds[c])} card, not {with_article(kind)} card",
            )
        return c

    def fighter_of(self, square: int, card: int) -> int:
        """Return the type of the own fighter on `square`, which may play `card`."""
        holder = _holder(self.position, square)
        if holder is None:
            raise self.illegal("no-fighter", f"no fighter on {square_name(square)}")
        if holder != self.side:
            raise self.illegal(
                "not-your-fighter", f"the fighter on {square_name(square)} is the {SIDES[holder]}'s"
            )
        kind = self.position.board[square]
        if not self.tables.playable[card][kind]:
            raise self.illegal("card-restriction", _restriction(self.tables, card, kind))
        return kind

    def line_of(self, origin: int, target: int) -> tuple[int, int, int]:
        """Return the step and distance of the line from `origin` to `target`."""
        # Moves and shots alike run along one of the 8 directions.
        line = _line(origin, target)
        if line is None:
            raise self.illegal(
                "not-a-line",
                f"{square_name(target)} is not on a straight or diagonal line "
                f"from {square_name(origin)}",
            )
        return line

    def knight_jump(self, origin: int, target: int, reason: str) -> None:
        """Refuse a knight's-jump card played to a square that is not a knight's jump away."""
        if not _is_knight_jump(origin, target):
            raise self.illegal("not-a-knight-jump", reason)


def _judge_discard(check: _Checks, play: Discard) -> None:
    hand, name, limit = check.hand, check.name, check.tables.rules.hand_limit
    throw = sum(hand) - limit
    if len(play.cards) != throw:
        raise check.illegal(
            "discard-count",
            f"the {name} hold {sum(hand)} cards and must throw away exactly {throw} "
            f"to keep {limit}, not {len(play.cards)}",
        )
    for card in set(play.cards):
        have, want = hand[check.tables.index[card]], play.cards.count(card)
        if have < want:
            raise check.illegal("not-in-hand", f"the {name} hold {have} {card}, not {want}")


def _judge_tactics(check: _Checks, play: Tactics) -> None:
    if not any(check.hand[c] for c in check.tables.draw_cards):
        raise check.illegal("no-tactics", f"the {check.name} hold no Tactics")


def _judge_move(check: _Checks, play: Move) -> None:
    tables, position = check.tables, check.position
    c = check.card_of(play.card, "move")
    check.fighter_of(play.origin, c)
    if tables.knight[c]:
        check.knight_jump(
            play.origin,
            play.target,
            f"{play.card} is a knight's jump, and {square_name(play.origin)} to "
            f"{square_name(play.target)} is not one",
        )
    else:
        _judge_move_line(check, play, c)
    if _holder(position, play.target) is not None:
        raise check.illegal("occupied", f"{square_name(play.target)} holds a fighter")


def _judge_move_line(check: _Checks, play: Move, c: int) -> None:
    """Refuse a line move too far, not the card's distance, or through a fighter."""
    tables = check.tables
    step_file, step_rank, distance = check.line_of(play.origin, play.target)
    value = tables.values[c]
    if tables.rules.move_up_to and distance > value:
        raise check.illegal(
            "too-far",
            f"{play.card} moves up to {counted(value, 'square')}, this is {distance}",
        )
    if not tables.rules.move_up_to and distance != value:
        raise check.illegal(
            "wrong-distance",
            f"{play.card} moves exactly {counted(value, 'square')}, this is {distance}",
        )
    for square in _between(play.origin, (step_file, step_rank), distance):
        if _holder(check.position, square) is not None:
            raise check.illegal(
                "blocked",
                f"the fighter on {square_name(square)} is in the way; "
                "no fighter moves through another",
            )


def _judge_advance(check: _Checks, play: Advance) -> None:
    tables, position = check.tables, check.position
    c = check.card_of(play.card, "move")
    if tables.knight[c]:
        raise check.illegal("knight-advance", f"{play.card} is a knight's jump: no group advance")
    moves = _walk_advance(tables, position, c)
    count = position.occupied[check.side].bit_count()
    if not moves or (tables.rules.advance_needs_all and len(moves) < count):
        which = "no fighter" if not moves else f"only {len(moves)} of {count} fighters"
        raise check.illegal(
            "advance-blocked",
            f"{which} can advance {counted(tables.values[c], 'square')} (blocked, the board's edge, "
            "or Move below the card)",
        )


def _judge_fire(check: _Checks, play: Fire) -> None:
    tables, position = check.tables, check.position
    c = check.card_of(play.card, "attack")
    check.fighter_of(play.origin, c)
    holder = _holder(position, play.target)
    if tables.knight[c]:
        check.knight_jump(
            play.origin,
            play.target,
            f"{play.card} hits a knight's jump away, and {square_name(play.target)} "
            f"is not one from {square_name(play.origin)}",
        )
    else:
        _judge_fire_line(check, play, c)
    if holder is None:
        raise check.illegal("no-target", f"no fighter on {square_name(play.target)}")
    if holder == check.side:
        raise check.illegal("own-target", f"the fighter on {square_name(play.target)} is your own")


def _judge_fire_line(check: _Checks, play: Fire, c: int) -> None:
    """Refuse a line shot out of the card's range or blocked on its way."""
    tables = check.tables
    step_file, step_rank, distance = check.line_of(play.origin, play.target)
    if distance > tables.values[c]:
        raise check.illegal(
            "out-of-range",
            f"{play.card} reaches {counted(tables.values[c], 'square')}, "
            f"the target is {distance} away",
        )
    for square in _between(play.origin, (step_file, step_rank), distance):
        in_way = _holder(check.position, square)
        if in_way is not None and (tables.rules.shots_blocked_by_own or in_way != check.side):
            raise check.illegal("blocked", f"the fighter on {square_name(square)} blocks the shot")


def _judge_defend(check: _Checks, play: Defend) -> None:
    c = check.card_of(play.card, "defence")
    assert check.position.shot is not None
    kind = check.position.board[check.position.shot[1]]
    if not check.tables.playable[c][kind]:
        raise check.illegal("card-restriction", _restriction(check.tables, c, kind))


def _judge_use(check: _Checks, play: Use) -> None:
    tables, position = check.tables, check.position
    c = tables.index[play.card]
    if not check.hand[c]:
        raise check.illegal("not-in-hand", f"the {check.name} hold no {play.card}")
    effect = tables.effects[c]
    if effect is None:
        raise check.illegal(
            "no-effect",
            f"{play.card} has no effect to use; it is played as a {tables.kinds[c]} card",
        )
    phase = PHASES[position.phase]
    if phase not in effect.phases:
        raise check.illegal(
            "wrong-phase",
            f"{play.card} is used in the {' or '.join(effect.phases)} phase, and this is the "
            f"{phase} phase",
        )
    if play.squares not in set(effect.uses(tables, position, c)):
        where = " ".join(square_name(sq) for sq in play.squares) or "no square"
        raise check.illegal("not-a-use", f"{play.card} {effect.text}; not on {where}")


def _judge_nothing(check: _Checks, play: Play) -> None:
    """Pass and take: legal in their phase whatever the hand."""


_JUDGE_OF: dict[type, Callable[[_Checks, Any], None]] = {
    Discard: _judge_discard,
    Tactics: _judge_tactics,
    Move: _judge_move,
    Advance: _judge_advance,
    Fire: _judge_fire,
    Defend: _judge_defend,
    Pass: _judge_nothing,
    Take: _judge_nothing,
    Use: _judge_use,
}


def _restriction(tables: Tables, card: int, kind: int) -> str:
    rules_card = tables.rules.cards[card]
    fighter = tables.rules.fighters[kind]
    if rules_card.only and not (fighter.name in rules_card.only or fighter.side in rules_card.only):
        return f"{rules_card.name} is for the {' and '.join(rules_card.only)} only, not {with_article(fighter.name)}"
    stat = "Move" if rules_card.kind == "move" else "Range"
    have = fighter.move if rules_card.kind == "move" else fighter.range
    return f"{rules_card.name} needs {stat} {rules_card.value}; {with_article(fighter.name)} has {stat} {have}"


def _walk_advance(tables: Tables, position: Position, card: int) -> list[tuple[int, int]]:
    side = position.to_play
    value = tables.values[card]
    occupied = {sq for sq in range(64) if _holder(position, sq) is not None}
    rank_step = 1 if side == 0 else -1
    mine = [sq for sq in range(64) if position.occupied[side] >> sq & 1]
    mine.sort(key=lambda sq: -(sq // 8) * rank_step)  # front-most first
    moved = []
    for sq in mine:
        if not tables.playable[card][position.board[sq]]:
            continue
        path = [sq + 8 * rank_step * k for k in range(1, value + 1)]
        if any(not 0 <= p < 64 or p in occupied for p in path):
            continue
        occupied.discard(sq)
        occupied.add(path[-1])
        moved.append((sq, path[-1]))
    return moved


def _judge_draw(
    tables: Tables, position: Position, card: str, illegal: Callable[[str, str], IllegalPlayError]
) -> None:
    """Refuse a card a physical deck cannot turn up now (the deck, or the reshuffled discard)."""
    c = tables.index[card]
    if position.deck:
        if c not in position.deck:
            held = sum(hand[c] for hand in position.hands)
            thrown = position.discard.count(c)
            raise illegal(
                "not-in-deck",
                f"no {card} is left in the deck: of its "
                f"{counted(tables.rules.card(card).count, 'copy', 'copies')}, {held} in hands "
                f"and {thrown} in the discard",
            )
    elif c not in position.discard:
        raise illegal(
            "not-in-deck",
            f"the deck is empty and the discard, shuffled into a new deck, holds no {card}",
        )
