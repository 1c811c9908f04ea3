"""Deployment, turns and rounds, the end of a round and victory."""

from __future__ import annotations

import pytest
from pocket_common import battle, decision, listed, play, start, troop

from tabletop.boards.errors import IllegalPlayError
from tabletop.boards.pocket import PocketBattles, PocketRules, example_battle


def test_deployment_alternates_from_the_attacker_then_the_other_places_the_rest() -> None:
    red = [("r1", None, [troop("a")])]
    blue = [(f"b{k}", None, [troop(f"t{k}")]) for k in range(3)]
    game, state = start(battle(red, blue, attacker=2))
    assert decision(game, state).kind == "deploy"
    assert decision(game, state).player == 2
    assert len(listed(game, state)) == 3 * 6
    play(game, state, "deploy b0 B4")
    assert decision(game, state).player == 1
    assert listed(game, state)[:2] == ["deploy r1 A1", "deploy r1 A2"]
    play(game, state, "deploy r1 B2")
    # Red is out of units: blue places all the rest.
    play(game, state, "deploy b1 B5")
    assert decision(game, state).player == 2
    play(game, state, "deploy b2 A5")
    # Round 1: the attacker takes the first turn.
    assert (state.round, decision(game, state).kind, decision(game, state).player) == (1, "turn", 2)


def test_a_unit_deploys_only_into_its_players_six_zones() -> None:
    game, state = start(battle([("r", None, [troop("a")])], [("b", None, [troop("c")])]))
    with pytest.raises(IllegalPlayError) as error:
        play(game, state, "deploy r B4")
    assert error.value.rule == "deployment-zone"


def test_a_turn_is_an_optional_reposition_then_one_action() -> None:
    red = [("a", "B2", [troop("a1")]), ("b", "B1", [troop("b1")])]
    game, state = start(battle(red, [("x", "B5", [troop("x1")])]))
    play(game, state, "reposition a A2")
    assert decision(game, state).kind == "action"
    assert decision(game, state).player == 1
    plays = listed(game, state)
    assert not any(p.startswith("reposition") for p in plays)
    # The repositioned unit cannot be ordered this turn.
    assert not any(p.startswith("order a ") for p in plays)
    with pytest.raises(IllegalPlayError) as error:
        play(game, state, "order a move B2")
    assert error.value.rule == "repositioned-unit"
    play(game, state, "order b move A1")
    assert decision(game, state).player == 2
    assert state.pool[1] == 9


def test_the_first_turn_alternates_round_by_round() -> None:
    game, state = start(battle([("a", "B2", [troop("a1")])], [("x", "B5", [troop("x1")])], size=10))
    play(game, state, "pass", "pass", "end", "end")
    assert state.round == 2
    assert decision(game, state).player == 2
    play(game, state, "pass", "pass", "end", "end")
    assert state.round == 3
    assert decision(game, state).player == 1


def test_at_the_end_of_a_round_troops_carrying_a_wound_token_may_be_removed() -> None:
    red = [("a", "B2", [troop("a1")])]
    blue = [("x", "B4", [troop("x1", wounds=2, melee=None)]), ("y", "B5", [troop("y1", points=50)])]
    game, state = start(battle(red, blue, size=20))
    play(game, state, "order a charge", "react wait", "target x", "roll 4 1", "wound x1")
    assert state.pool[2] == 1
    play(game, state, "pass", "pass")
    # Both out: the round ends; the first player of the round removes first.
    assert decision(game, state).kind == "end"
    assert decision(game, state).player == 1
    assert listed(game, state) == ["end"]
    play(game, state, "end")
    assert listed(game, state) == ["remove x1", "end"]
    play(game, state, "remove x1", "end")
    # Order tokens and the removed troop's wound token come back.
    assert state.round == 2
    assert state.pool[1:] == [2, 2]
    assert state.destroyed[1] == 5


def test_a_wound_token_left_on_a_troop_is_a_token_short_next_round() -> None:
    red = [("a", "B2", [troop("a1")])]
    blue = [("x", "B4", [troop("x1", wounds=2, melee=None)]), ("y", "B5", [troop("y1", points=50)])]
    game, state = start(battle(red, blue, size=20))
    play(
        game,
        state,
        "order a charge",
        "react wait",
        "target x",
        "roll 4 1",
        "wound x1",
        "pass",
        "pass",
        "end",
        "end",
    )
    assert state.pool[1:] == [2, 1]


def half(destroyed_red: int, destroyed_blue: int, rules: PocketRules | None = None) -> int | None:
    game = PocketBattles(example_battle(rules=rules))  # red 54 points, blue 51
    state = game.start()
    state.destroyed[1], state.destroyed[2] = destroyed_red, destroyed_blue
    return game.victor(state)


def test_a_player_who_destroyed_half_the_enemy_armys_points_wins() -> None:
    # Blue's army is 51 points: 25.5 is half, so 26 wins and 25 does not.
    assert half(26, 0) == 1
    assert half(25, 0) is None
    # Red's is 54: 27 exactly is half.
    assert half(0, 27) == 2
    assert half(0, 26) is None


def test_when_both_pass_half_the_one_who_destroyed_more_points_wins() -> None:
    assert half(30, 40) == 2
    assert half(41, 40) == 1


def test_on_a_tie_the_defender_wins() -> None:
    assert half(30, 30) == 2
    game = PocketBattles(
        battle([("a", "B2", [troop("a1")])], [("x", "B4", [troop("x1")])], attacker=2)
    )
    state = game.start()
    state.destroyed[1] = state.destroyed[2] = 5
    assert game.victor(state) == 1


def test_the_troops_ruling_counts_troops_first() -> None:
    game = PocketBattles(example_battle(rules=PocketRules(tie_break="troops")))
    state = game.start()
    state.destroyed[1:] = [30, 40]
    state.destroyed_troops[1:] = [5, 4]
    assert game.victor(state) == 1


def test_the_victory_check_comes_at_the_end_of_the_round() -> None:
    red = [("a", "B2", [troop("a1", melee=4)])]
    blue = [
        ("x", "B4", [troop("x1", melee=None, points=10)]),
        ("y", "B5", [troop("y1", points=10)]),
    ]
    game, state = start(battle(red, blue, size=20))
    play(game, state, "order a charge", "react wait", "target x", "roll 4 1", "wound x1")
    assert state.destroyed[1] == 10
    assert state.winner is None
    play(game, state, "pass", "pass", "pass")
    assert state.winner == 1
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome.length == 1


def test_a_player_may_surrender_at_any_decision_but_a_roll() -> None:
    game, state = start(battle([("a", "B2", [troop("a1")])], [("x", "B4", [troop("x1")])]))
    play(game, state, "order a charge", "surrender")
    assert state.winner == 1
    game, state = start(battle([("a", "B2", [troop("a1")])], [("x", "B4", [troop("x1")])]))
    play(game, state, "order a charge", "react wait", "target x")
    # A surrender given while a roll is due comes after the roll, from the seed.
    play(game, state, "surrender")
    assert state.winner is not None
