"""The board games' messages in plain English: "an A-Wing", "1 square", "decides an action"."""

from __future__ import annotations

import pytest

from tabletop.boards import IllegalPlayError, Rng, random_policy, replay
from tabletop.boards.dogfight import Dogfight
from tabletop.boards.errors import ReplayError
from tabletop.boards.pocket import PocketBattles, example_battle
from tabletop.boards.words import counted, with_article

GAME = Dogfight()


def refusal(hands: dict[str, list[str]], phase: str, play: str) -> str:
    start = GAME.position(phase=phase, seed=1, hands=hands)
    with pytest.raises(ReplayError) as caught:
        replay(GAME, start, [play])
    return str(caught.value)


@pytest.mark.parametrize(
    ("noun", "said"),
    [
        ("A-Wing", "an A-Wing"),
        ("X-Wing", "an X-Wing"),
        ("B-Wing", "a B-Wing"),
        ("Y-Wing", "a Y-Wing"),
        ("TIE Fighter", "a TIE Fighter"),
        ("TIE Interceptor", "a TIE Interceptor"),
        ("attack", "an attack"),
        ("defence", "a defence"),
        ("action", "an action"),
        ("unit", "a unit"),
        ("order", "an order"),
    ],
)
def test_the_article_is_the_one_said(noun: str, said: str) -> None:
    assert with_article(noun) == said


def test_one_is_singular_and_every_other_count_plural() -> None:
    assert [counted(n, "square") for n in (0, 1, 2)] == ["0 squares", "1 square", "2 squares"]
    assert counted(1, "die", "dice") == "1 die"
    assert counted(3, "die", "dice") == "3 dice"


def test_a_card_for_other_fighters_names_an_a_wing() -> None:
    # The A-Wing on c1 may not fire Laser Cannons (X-Wings and TIE Interceptors only).
    said = refusal({"rebels": ["Laser Cannons"]}, "fire", "fire c1 c8 Laser Cannons")
    assert "Laser Cannons is for the X-Wing and TIE Interceptor only, not an A-Wing" in said


def test_a_card_beyond_the_a_wings_range_names_an_a_wing() -> None:
    # Fire-Linked needs Range 4; the A-Wing has Range 3.
    said = refusal({"rebels": ["Fire-Linked"]}, "fire", "fire c1 c8 Fire-Linked")
    assert "Fire-Linked needs Range 4; an A-Wing has Range 3" in said


def test_a_one_square_card_says_1_square() -> None:
    # Maneuver moves up to 1 square; a1 to a3 is 2.
    said = refusal({"rebels": ["Maneuver"]}, "move", "move a1 a3 Maneuver")
    assert "Maneuver moves up to 1 square, this is 2 (rule: too-far)" in said
    # Blasters reaches 1 square: the b1 X-Wing cannot shoot b8.
    said = refusal({"rebels": ["Blasters"]}, "fire", "fire b1 b8 Blasters")
    assert "Blasters reaches 1 square, the target is 7 away (rule: out-of-range)" in said


def test_a_wrong_card_kind_says_an_attack_card() -> None:
    said = refusal({"rebels": ["Blasters"]}, "move", "move a1 a2 Blasters")
    assert "Blasters is an attack card, not a move card (rule: wrong-card-kind)" in said


def test_pocket_says_decides_an_action() -> None:
    game = PocketBattles(example_battle(60, deployed=True, seed=5))
    state = game.start()
    rng = Rng(4)
    for _ in range(3000):
        if game.decision(state).kind == "action":
            break
        game.push(state, random_policy(game, state, game.legal_plays(state), rng))
    decision = game.decision(state)
    assert decision.kind == "action"
    with pytest.raises(IllegalPlayError) as caught:
        game.push(state.copy(), game.parse_play("end"))
    assert f"player {decision.player} decides an action" in caught.value.reason


def test_pocket_says_decides_the_hits_taken() -> None:
    game = PocketBattles(example_battle())
    state = replay(
        game, game.start(), ["order riders charge", "react wait", "target scouts", "roll 3 5 1"]
    ).state
    with pytest.raises(IllegalPlayError) as caught:
        game.push(state.copy(), game.parse_play("end"))
    assert caught.value.reason == (
        "player 2 decides the hits taken: expected wound TROOP or kill TROOP"
    )
