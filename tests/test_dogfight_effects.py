"""A card with an effect of its own: one registered entry, played by the unchanged engine.

The effects here are throwaway ones, registered by fixtures and removed afterwards: a
card that moves an own fighter to an empty square of its own back rank (move phase) and
one that destroys an enemy fighter anywhere on the enemy's back rank (fire phase).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace

import pytest

from tabletop.boards.dogfight import Dogfight, parse_play
from tabletop.boards.dogfight.effects import EFFECTS, Effect, register_effect, relocate
from tabletop.boards.dogfight.movegen import Tables
from tabletop.boards.dogfight.plays import Use
from tabletop.boards.dogfight.position import Position
from tabletop.boards.dogfight.rules import STANDARD, Card, parse_square
from tabletop.boards.errors import IllegalPlayError


def _retreat_uses(tables: Tables, position: Position, card: int) -> Iterable[tuple[int, ...]]:
    side = position.to_play
    back = range(8) if side == 0 else range(56, 64)
    taken = position.occupied[0] | position.occupied[1]
    empty = [sq for sq in back if not taken >> sq & 1]
    return [(origin, target) for origin in position.fighters(side) for target in empty]


def _strike_uses(tables: Tables, position: Position, card: int) -> Iterable[tuple[int, ...]]:
    enemy = 1 - position.to_play
    back = range(56, 64) if enemy == 1 else range(8)
    return [(sq,) for sq in position.fighters(enemy) if sq in back]


def _strike(position: Position, side: int, squares: tuple[int, ...]) -> None:
    (target,) = squares
    position.board[target] = -1
    position.occupied[1 - side] &= ~(1 << target)
    position.kills[side] += 1


@pytest.fixture
def game() -> Iterator[Dogfight]:
    retreat = Effect(
        "test-retreat",
        "moves an own fighter to an empty square of its own back rank",
        ("move",),
        _retreat_uses,
        relocate,
    )
    strike = Effect(
        "test-strike",
        "destroys an enemy fighter on the enemy's back rank",
        ("fire",),
        _strike_uses,
        _strike,
    )
    register_effect(retreat)
    register_effect(strike)
    cards = (
        *STANDARD.cards,
        Card("Retreat", 2, "special", effect="test-retreat"),
        Card("Orbital Strike", 1, "special", effect="test-strike"),
    )
    try:
        yield Dogfight(replace(STANDARD, cards=cards))
    finally:
        del EFFECTS["test-retreat"], EFFECTS["test-strike"]


def _start(game: Dogfight, phase: str, hand: list[str], **kw: object) -> Position:
    fighters = {"rebels": {"d4": "X-Wing", "a1": "B-Wing"}, "empire": {"e8": "TIE Fighter"}}
    return game.position(fighters, phase=phase, hands={"rebels": hand}, **kw)  # type: ignore[arg-type]


def test_generated_uses_are_the_effect_squares(game: Dogfight) -> None:
    start = _start(game, "move", ["Retreat"])
    uses = [str(p) for p in game.legal_plays(start) if isinstance(p, Use)]
    # Two own fighters; a1 is taken, so b1..h1 (7 squares) are free: 2 x 7 uses.
    empty = ["b1", "c1", "d1", "e1", "f1", "g1", "h1"]
    assert uses == [f"use a1 {t} Retreat" for t in empty] + [f"use d4 {t} Retreat" for t in empty]


def test_a_use_in_the_move_phase_moves_then_fire_follows(game: Dogfight) -> None:
    start = _start(game, "move", ["Retreat"])
    game.push(start, game.parse_play("use d4 h1 Retreat"))
    described = game.describe(start)
    assert described["fighters"] == {
        "rebels": {"a1": "B-Wing", "h1": "X-Wing"},
        "empire": {"e8": "TIE Fighter"},
    }
    assert described["phase"] == "fire"
    assert described["cards"]["rebels"] == []  # type: ignore[index]
    assert described["cards"]["discard"] == ["Retreat"]  # type: ignore[index]


def test_a_use_off_its_squares_is_refused_by_name(game: Dogfight) -> None:
    start = _start(game, "move", ["Retreat"])
    with pytest.raises(IllegalPlayError) as refused:
        game.push(start, game.parse_play("use d4 a1 Retreat"))  # a1: own fighter there
    assert refused.value.rule == "not-a-use"
    assert "empty square of its own back rank; not on d4 a1" in str(refused.value)


def test_a_use_out_of_its_phase_and_a_card_without_effect(game: Dogfight) -> None:
    start = _start(game, "fire", ["Retreat", "Blasters"])
    with pytest.raises(IllegalPlayError) as refused:
        game.push(start, game.parse_play("use d4 h1 Retreat"))
    assert refused.value.rule == "wrong-phase"
    with pytest.raises(IllegalPlayError) as refused:
        game.push(start, game.parse_play("use Blasters"))
    assert refused.value.rule == "no-effect"
    with pytest.raises(IllegalPlayError) as refused:
        game.push(start, game.parse_play("use e8 Orbital Strike"))
    assert refused.value.rule == "not-in-hand"


def test_a_fire_phase_use_ends_the_turn_and_can_win(game: Dogfight) -> None:
    start = _start(game, "fire", ["Orbital Strike"], kills={"rebels": 3})
    assert parse_play("use e8 Orbital Strike", frozenset(game.tables.names)) == Use(
        (parse_square("e8"),), "Orbital Strike"
    )
    game.push(start, game.parse_play("use e8 Orbital Strike"))
    # The empire's last fighter is gone: the rebels win on the spot.
    assert game.winner(start) == "rebels"
    assert start.kills == [4, 0]


def test_a_fire_phase_use_without_win_passes_the_turn(game: Dogfight) -> None:
    fighters = {
        "rebels": {"d4": "X-Wing"},
        "empire": {"e8": "TIE Fighter", "e5": "TIE Fighter"},
    }
    start = game.position(fighters, phase="fire", hands={"rebels": ["Orbital Strike"]})
    assert [str(p) for p in game.legal_plays(start)] == ["use e8 Orbital Strike", "pass"]
    game.push(start, game.legal_plays(start)[0])
    assert game.side_to_play(start) == "empire"
    assert start.kills == [1, 0]


def test_an_unknown_effect_or_a_second_registration_is_refused(game: Dogfight) -> None:
    cards = (*STANDARD.cards, Card("Cloak", 1, "special", effect="cloak"))
    with pytest.raises(ValueError, match="card 'Cloak': unknown effect 'cloak'"):
        Dogfight(replace(STANDARD, cards=cards))
    with pytest.raises(ValueError, match="registered already"):
        register_effect(EFFECTS["test-retreat"])
    with pytest.raises(ValueError, match="expected some of move, fire"):
        register_effect(replace(EFFECTS["test-retreat"], name="x", phases=("defend",)))
