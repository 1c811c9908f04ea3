"""Legal-play generation on bitboards, and the rules compiled into lookup tables.

:class:`Tables` turns a :class:`~tabletop.boards.dogfight.rules.Rules` record into per-card and
per-type tables (who may play what, how far); :func:`generate` lists the legal plays of
a position with bitboard operations (rays cut at their first blocker, knight masks,
reach masks by distance), never stepping square by square. Plays are interned, so a
generated play is the same object every time it comes up.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from tabletop.boards.dogfight.bitboards import FORWARD, KNIGHT, RING, WITHIN, free_and_first
from tabletop.boards.dogfight.effects import EFFECTS, Effect
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
from tabletop.boards.dogfight.position import DEFEND, DRAW, FIRE, MOVE, PHASES, VECTOR, Position
from tabletop.boards.dogfight.rules import SIDES, Rules

__all__ = ["PASS", "TACTICS", "TAKE", "Tables", "advance_result", "generate"]

#: The plays without arguments (one object each).
PASS, TACTICS, TAKE = Pass(), Tactics(), Take()


@dataclass(frozen=True, slots=True)
class Tables:
    """A rules record compiled for generation.

    Attributes
    ----------
    names : tuple of str
        Card names by index.
    index : dict
        Card name to index.
    kinds : tuple of str
        Card kind by index.
    values : tuple of int
        Card value by index (0 for a knight's jump or no number).
    knight : tuple of bool
        Whether each card is a knight's jump.
    playable : tuple of tuple of bool
        ``playable[card][type]``: the card may be played for a fighter of the type.
    draws : tuple of int
        Cards drawn by playing each card (Tactics 2, others 0).
    type_side : tuple of int
        The side of each fighter type.
    type_names : tuple of str
        Fighter type names by index.
    move_cards, attack_cards, defence_cards, draw_cards : tuple of int
        The card indices of each use.
    advance_cards : tuple of int
        Move cards that may drive a group advance (numbered, not knight's jumps).
    effects : tuple of Effect or None
        The registered effect of each card (None for the contract's cards).
    """

    rules: Rules
    names: tuple[str, ...]
    index: dict[str, int]
    kinds: tuple[str, ...]
    values: tuple[int, ...]
    knight: tuple[bool, ...]
    playable: tuple[tuple[bool, ...], ...]
    draws: tuple[int, ...]
    type_side: tuple[int, ...]
    type_names: tuple[str, ...]
    move_cards: tuple[int, ...]
    attack_cards: tuple[int, ...]
    defence_cards: tuple[int, ...]
    draw_cards: tuple[int, ...]
    advance_cards: tuple[int, ...]
    effects: tuple[Effect | None, ...]

    @classmethod
    def of(cls, rules: Rules) -> Tables:
        """Compile `rules`."""
        cards = rules.cards
        kinds = tuple(card.kind for card in cards)
        return cls(
            rules=rules,
            names=tuple(card.name for card in cards),
            index={card.name: i for i, card in enumerate(cards)},
            kinds=kinds,
            values=tuple(0 if card.value is None else card.value for card in cards),
            knight=tuple(card.knight for card in cards),
            playable=tuple(
                tuple(rules.may_play(card.name, fighter.name) for fighter in rules.fighters)
                for card in cards
            ),
            draws=tuple(card.draws for card in cards),
            type_side=tuple(SIDES.index(fighter.side) for fighter in rules.fighters),
            type_names=tuple(fighter.name for fighter in rules.fighters),
            move_cards=tuple(i for i, k in enumerate(kinds) if k == "move"),
            attack_cards=tuple(i for i, k in enumerate(kinds) if k == "attack"),
            defence_cards=tuple(i for i, k in enumerate(kinds) if k == "defence"),
            draw_cards=tuple(i for i, card in enumerate(cards) if card.draws),
            advance_cards=tuple(
                i for i, card in enumerate(cards) if card.kind == "move" and not card.knight
            ),
            effects=tuple(_effect(card.name, card.effect) for card in cards),
        )

    def reach(self, card: int, square: int, free: int, empty: int) -> int:
        """Return where a move card takes the fighter on `square` (given its free lines)."""
        if self.knight[card]:
            return KNIGHT[square] & empty
        value = min(self.values[card], 7)
        if self.rules.move_up_to:
            return free & WITHIN[square][value]
        return free & RING[square][value]


def _effect(card: str, name: str | None) -> Effect | None:
    if name is None:
        return None
    if name not in EFFECTS:
        known = ", ".join(sorted(EFFECTS)) or "none registered"
        raise ValueError(f"card {card!r}: unknown effect {name!r}; expected one of: {known}")
    return EFFECTS[name]


# Plays are interned, and so are the lists of one fighter's plays with one card to a
# set of target squares, and the discards of a hand: positions repeat a lot.
_CACHE: dict[tuple[object, ...], Play] = {}
_BATCHES: dict[tuple[object, ...], list[Play]] = {}
_CACHE_LIMIT = 1 << 20


def _batch(make: type[Move] | type[Fire], origin: int, targets: int, card: str) -> list[Play]:
    key = (make, origin, targets, card)
    plays = _BATCHES.get(key)
    if plays is None:
        if len(_BATCHES) >= _CACHE_LIMIT:
            _BATCHES.clear()
        plays = []
        while targets:
            low = targets & -targets
            to = low.bit_length() - 1
            targets ^= low
            play = _CACHE.get((make, origin, to, card))
            if play is None:
                play = _CACHE[(make, origin, to, card)] = make(origin, to, card)
            plays.append(play)
        _BATCHES[key] = plays
    return plays


def advance_result(tables: Tables, position: Position, card: int) -> list[tuple[int, int]]:
    """Return the ``(from, to)`` squares of the fighters a group advance moves, in order.

    Fighters go front-most first; one that would leave the board, pass through or land
    on a fighter, or whose type may not play the card, stays where it is.
    """
    side = position.to_play
    value = tables.values[card]
    occ = position.occupied[0] | position.occupied[1]
    own = position.occupied[side]
    board = position.board
    order = range(63, -1, -1) if side == 0 else range(64)
    forward = FORWARD[side]
    step = 8 * value if side == 0 else -8 * value
    moved: list[tuple[int, int]] = []
    if value > 7:
        return moved
    for sq in order:
        if not own >> sq & 1 or not tables.playable[card][board[sq]]:
            continue
        path = forward[sq][value]
        if path < 0 or path & occ:
            continue
        target = sq + step
        occ ^= (1 << sq) | (1 << target)
        moved.append((sq, target))
    return moved


def _advance_legal(tables: Tables, position: Position, card: int) -> bool:
    moved = advance_result(tables, position, card)
    if tables.rules.advance_needs_all:
        side = position.to_play
        return len(moved) == position.occupied[side].bit_count() and bool(moved)
    return bool(moved)


#: Hands up to this size list their discards through all combinations (fast in C);
#: larger ones, where copies repeat, through the distinct multisets alone.
_COMBINATIONS_UP_TO = 12


def _discards(tables: Tables, hand: list[int], throw: int) -> list[Play]:
    # Every multiset of `throw` cards from the hand, as a sorted (canonical) tuple.
    names = tables.names
    cards = sorted(names[c] for c, n in enumerate(hand) for _ in range(n))
    if len(cards) <= _COMBINATIONS_UP_TO:
        # Combinations of sorted cards are sorted; dict.fromkeys keeps each one once.
        combos: Iterable[tuple[str, ...]] = dict.fromkeys(itertools.combinations(cards, throw))
    else:
        held = Counter(cards)
        keep = len(cards) - throw
        if keep < throw:  # fewer multisets to walk on the side of the cards kept
            combos = [
                tuple(sorted((held - Counter(kept)).elements()))
                for kept in _multisets(tuple(sorted(held.items())), keep)
            ]
        else:
            combos = _multisets(tuple(sorted(held.items())), throw)
    out: list[Play] = []
    for combo in combos:
        play = _CACHE.get(combo)
        if play is None:
            play = _CACHE[combo] = Discard(combo)
        out.append(play)
    return out


@functools.lru_cache(maxsize=4096)
def _multisets(held: tuple[tuple[str, int], ...], size: int) -> list[tuple[str, ...]]:
    """Return the distinct multisets of `size` cards from ``(name, count)`` pairs, sorted."""
    if size == 0:
        return [()]
    if not held:
        return []
    (name, count), rest = held[0], held[1:]
    out: list[tuple[str, ...]] = []
    for take in range(min(count, size), -1, -1):
        out.extend((name,) * take + tail for tail in _multisets(rest, size - take))
    return out


def generate(tables: Tables, position: Position) -> list[Play]:
    """Return every legal play of the position's current decision (empty when over)."""
    phase = position.phase
    side = position.to_play
    if phase == MOVE or phase == FIRE:
        hand = position.hands[side]
        out = (
            _move_plays(tables, position, hand)
            if phase == MOVE
            else _fire_plays(tables, position, hand)
        )
        out.extend(_effect_plays(tables, position, hand))
        if any(hand[c] for c in tables.draw_cards):
            out.append(TACTICS)
        out.append(PASS)
        return out
    if phase == DEFEND:
        assert position.shot is not None
        hand = position.hands[1 - side]
        kind = position.board[position.shot[1]]
        out = [
            Defend(tables.names[c])
            for c in tables.defence_cards
            if hand[c] and tables.playable[c][kind]
        ]
        out.append(TAKE)
        return out
    if phase == VECTOR:
        hand = position.hands[side]
        out = _discards(tables, hand, sum(hand) - tables.rules.hand_limit)
        if any(hand[c] for c in tables.draw_cards):
            out.append(TACTICS)
        return out
    if phase == DRAW:
        # An empty deck is the discard reshuffled: any card in it may come up.
        pile = position.deck or position.discard
        return [Draw(tables.names[c]) for c in sorted(set(pile))]
    return []


def _move_plays(tables: Tables, position: Position, hand: list[int]) -> list[Play]:
    side = position.to_play
    cards = [c for c in tables.move_cards if hand[c]]
    out: list[Play] = []
    if not cards:
        return out
    own = position.occupied[side]
    occ = own | position.occupied[1 - side]
    empty = ~occ
    board = position.board
    names = tables.names
    playable = tables.playable
    bb = own
    while bb:
        low = bb & -bb
        sq = low.bit_length() - 1
        bb ^= low
        kind = board[sq]
        free = -1
        for c in cards:
            if not playable[c][kind]:
                continue
            if free < 0 and not tables.knight[c]:
                free = free_and_first(sq, occ)[0]
            targets = tables.reach(c, sq, free, empty)
            if targets:
                out.extend(_batch(Move, sq, targets, names[c]))
    for c in cards:
        if c in tables.advance_cards and _advance_legal(tables, position, c):
            key: tuple[object, ...] = ("advance", names[c])
            play = _CACHE.get(key)
            if play is None:
                play = _CACHE[key] = Advance(names[c])
            out.append(play)
    return out


def _fire_plays(tables: Tables, position: Position, hand: list[int]) -> list[Play]:
    side = position.to_play
    cards = [c for c in tables.attack_cards if hand[c]]
    out: list[Play] = []
    if not cards:
        return out
    own = position.occupied[side]
    enemy = position.occupied[1 - side]
    blockers = own | enemy if tables.rules.shots_blocked_by_own else enemy
    board = position.board
    names = tables.names
    playable = tables.playable
    bb = own
    while bb:
        low = bb & -bb
        sq = low.bit_length() - 1
        bb ^= low
        kind = board[sq]
        first = -1
        for c in cards:
            if not playable[c][kind]:
                continue
            if tables.knight[c]:
                targets = KNIGHT[sq] & enemy
            else:
                if first < 0:
                    first = free_and_first(sq, blockers)[1] & enemy
                targets = first & WITHIN[sq][min(tables.values[c], 7)]
            if targets:
                out.extend(_batch(Fire, sq, targets, names[c]))
    return out


def _effect_plays(tables: Tables, position: Position, hand: list[int]) -> list[Play]:
    """List the ``use`` plays of the held cards whose effect is played in this phase."""
    out: list[Play] = []
    phase = PHASES[position.phase]
    for c, effect in enumerate(tables.effects):
        if effect is not None and hand[c] and phase in effect.phases:
            out.extend(
                Use(squares, tables.names[c]) for squares in effect.uses(tables, position, c)
            )
    return out
