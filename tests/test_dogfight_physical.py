"""Dogfight with a real deck: ``deck = "physical"``, every card drawn a ``draw CARD`` play.

Outcomes are worked out by hand from the 68-card table of ``dogfight.md``: which cards a
deck can still hold (its copies less those in hands and the discard), the reshuffle of an
empty deck (the discard), the hand limit after the vector draws, Tactics' 2 draws.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tabletop.app.cli import main

#: The contract's deck, card by card (name, copies): 68 cards in all.
DECK = {
    "Maneuver": 5, "Loop": 5, "Break Away": 5, "Pursuit": 4, "Dive": 3, "Afterburners": 2,
    "Blasters": 5, "Attack Run": 5, "Targeters": 5, "Fire-Linked": 5, "Evasion": 4,
    "Deflector Shields": 2, "Ion Thrusters": 2, "Laser Cannons": 4, "Agility": 2,
    "Ion Cannons": 2, "Laser Turret": 2, "Tight Turns": 4, "Tactics": 2,
}  # fmt: skip


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["dogfight", *argv], out, err)
    return code, out.getvalue(), err.getvalue()


def run_json(*argv: str) -> dict[str, object]:
    code, out, err = run(*argv, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def all_but(*kept: str) -> list[str]:
    """Every card of the deck except one copy of each card named in `kept`."""
    left = dict(DECK)
    for name in kept:
        left[name] -= 1
    return [name for name, count in left.items() for _ in range(count)]


def toml_list(names: list[str]) -> str:
    return "[" + ", ".join(f'"{n}"' for n in names) + "]"


def game(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "real.toml"
    path.write_text('game = "dogfight"\ndeck = "physical"\n' + text, encoding="utf-8")
    return path


def test_the_deck_holds_68_cards() -> None:
    assert sum(DECK.values()) == 68


def test_a_physical_game_starts_with_three_cards_to_name(tmp_path: Path) -> None:
    path = game(tmp_path, "")
    data = run_json("moves", str(path))
    assert (data["to_play"], data["phase"]) == ("rebels", "draw")
    assert data["plays"] == sorted(f"draw {name}" for name in DECK)
    for number, card in enumerate(["Loop", "Dive", "Evasion"], start=1):
        pushed = run_json("push", str(path), f"draw {card}")
        assert pushed["plays"] == number
    # 3 cards in hand, at most 5: the move phase begins at once.
    assert (pushed["phase"], pushed["to_play"]) == ("move", "rebels")
    cards = pushed["cards"]
    assert isinstance(cards, dict)
    assert sorted(cards["rebels"]) == ["Dive", "Evasion", "Loop"]
    assert cards["deck"] == 65


def test_a_hand_over_the_limit_after_the_draws_is_the_vector_decision(tmp_path: Path) -> None:
    path = game(tmp_path, '[cards]\nrebels = ["Loop", "Loop", "Dive", "Blasters"]\n')
    assert run_json("push", str(path), "draw Loop")["phase"] == "draw"
    assert run_json("push", str(path), "draw Tactics")["phase"] == "draw"
    data = run_json("push", str(path), "draw Maneuver")
    # 4 + 3 = 7 cards, over 5: discard 2 (or play Tactics).
    assert (data["phase"], data["to_play"]) == ("vector", "rebels")
    assert "tactics" in data["legal"]  # type: ignore[operator]
    assert "discard Loop Loop" in data["legal"]  # type: ignore[operator]


def test_a_card_whose_copies_are_all_out_cannot_be_drawn(tmp_path: Path) -> None:
    path = game(tmp_path, '[cards]\nrebels = ["Afterburners"]\ndiscard = ["Afterburners"]\n')
    before = path.read_bytes()
    code, _, err = run("push", str(path), "draw Afterburners")
    assert code == 2
    assert (
        "'draw Afterburners': no Afterburners is left in the deck: of its 2 copies, "
        "1 in hands and 1 in the discard (rule: not-in-deck)"
    ) in err
    assert path.read_bytes() == before
    assert "draw Afterburners" not in run_json("moves", str(path))["plays"]  # type: ignore[operator]


def test_an_empty_deck_is_the_discard_reshuffled(tmp_path: Path) -> None:
    # The rebels hold 2 Evasion and both Afterburners; the other 62 cards are thrown.
    hand = ["Evasion", "Evasion", "Afterburners", "Afterburners"]
    discard = all_but(*hand)
    assert len(discard) == 64
    path = game(tmp_path, f"[cards]\nrebels = {toml_list(hand)}\ndiscard = {toml_list(discard)}\n")
    data = run_json("moves", str(path))
    assert data["phase"] == "draw"
    assert "draw Afterburners" not in data["plays"]  # type: ignore[operator]
    code, _, err = run("push", str(path), "draw Afterburners")
    assert code == 2
    assert (
        "the deck is empty and the discard, shuffled into a new deck, holds no Afterburners" in err
    )
    first = run_json("push", str(path), "draw Evasion")
    cards = first["cards"]
    assert isinstance(cards, dict)
    # The reshuffle: 64 in the new deck, 1 drawn; the discard is empty.
    assert (cards["deck"], cards["discard"]) == (63, [])
    run_json("push", str(path), "draw Evasion")
    code, _, err = run("push", str(path), "draw Evasion")
    assert code == 2
    assert "of its 4 copies, 4 in hands and 0 in the discard" in err


def test_the_draw_stops_short_when_deck_and_discard_are_empty(tmp_path: Path) -> None:
    rebels = ["Loop", "Dive", "Blasters", "Evasion", "Pursuit"]
    empire = all_but(*rebels)
    path = game(tmp_path, f"[cards]\nrebels = {toml_list(rebels)}\nempire = {toml_list(empire)}\n")
    data = run_json("moves", str(path))
    # No card to draw anywhere: the rebels' 5 cards are within the limit, so: move.
    assert (data["to_play"], data["phase"]) == ("rebels", "move")


def test_tactics_asks_for_two_cards_then_returns_to_its_phase(tmp_path: Path) -> None:
    path = game(tmp_path, 'phase = "move"\n[cards]\nrebels = ["Tactics", "Loop"]\n')
    data = run_json("push", str(path), "tactics")
    assert (data["phase"], data["to_play"]) == ("draw", "rebels")
    cards = data["cards"]
    assert isinstance(cards, dict)
    assert cards["discard"] == ["Tactics"]
    run_json("push", str(path), "draw Dive")
    data = run_json("push", str(path), "draw Tactics")
    assert data["phase"] == "move"
    cards = data["cards"]
    assert isinstance(cards, dict)
    assert sorted(cards["rebels"]) == ["Dive", "Loop", "Tactics"]


def test_the_bot_does_not_name_a_real_card(tmp_path: Path) -> None:
    path = game(tmp_path, 'phase = "fire"\n')
    data = run_json("push", str(path), "pass", "--bot", "random")
    # The rebels' pass ends the turn; the empire's first decision is a real draw.
    assert (data["plays"], data["to_play"], data["phase"]) == (1, "empire", "draw")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('[cards]\ndeck = ["Loop"]\n', "cards.deck"),
        ("", "key 'deck'"),
    ],
)
def test_a_physical_deck_with_an_order_or_an_unknown_deck_is_bad_input(
    tmp_path: Path, text: str, said: str
) -> None:
    path = tmp_path / "bad.toml"
    deck = "physical" if text else "virtual"
    path.write_text(f'game = "dogfight"\ndeck = "{deck}"\n{text}', encoding="utf-8")
    code, _, err = run("replay", str(path))
    assert code == 2
    assert said in err


def test_a_seeded_game_has_no_draw_play(tmp_path: Path) -> None:
    path = tmp_path / "seeded.toml"
    path.write_text('game = "dogfight"\nseed = 11\n', encoding="utf-8")
    code, _, err = run("push", str(path), "draw Loop")
    assert code == 2
    assert (
        "'draw' is played in the draw phase, and this is the move phase (rule: wrong-phase)" in err
    )


def test_a_real_game_replays_through_many_reshuffles(tmp_path: Path) -> None:
    import random

    from tabletop.app.dogfight.gamefile import load_game_file
    from tabletop.boards.dogfight import Dogfight

    # A quiet real game from the standard setup (no shot, so no one wins first), every
    # card named at random among those the deck can hold: 68 cards stay 68 and the deck
    # runs out again and again.
    game = Dogfight()
    path = game_file_with(tmp_path, [])
    position = load_game_file(path).final(game)
    rng = random.Random(5)
    plays: list[str] = []
    reshuffles = 0
    while game.winner(position) is None and reshuffles < 3:
        legal = sorted(str(p) for p in game.legal_plays(position))
        quiet = [p for p in legal if not p.startswith("fire")]
        play = rng.choice(quiet or legal)
        if play.startswith("draw ") and not position.deck:
            reshuffles += 1
        game.push(position, game.parse_play(play))
        plays.append(play)
        held = sum(map(sum, position.hands)) + len(position.deck) + len(position.discard)
        assert held == 68
    assert reshuffles == 3
    path = game_file_with(tmp_path, plays)
    data = run_json("replay", str(path))
    assert data["plays"] == len(plays)
    assert (data["to_play"], data["phase"]) == (game.side_to_play(position), "draw")
    assert load_game_file(path).final(game) == position


def game_file_with(tmp_path: Path, plays: list[str]) -> Path:
    return game(tmp_path, "plays = " + toml_list(plays) + "\n")
