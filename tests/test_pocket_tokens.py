"""The token economy: size / 10 tokens, the Leader's extra one, doubling costs, wounds."""

from __future__ import annotations

import pytest
from pocket_common import battle, costs, decision, listed, play, start, troop

from tabletop.boards.errors import IllegalPlayError
from tabletop.boards.pocket import PocketBattles, PocketRules, PocketState


def simple(size: int = 100, red_traits: tuple[str, ...] = ()) -> tuple[PocketBattles, PocketState]:
    red = [("a", "B1", [troop("a1", traits=red_traits)])]
    blue = [("b", "B5", [troop("b1")])]
    return start(battle(red, blue, size=size))


@pytest.mark.parametrize(("size", "tokens"), [(10, 1), (60, 6), (80, 8), (100, 10)])
def test_each_round_a_player_has_size_over_10_tokens(size: int, tokens: int) -> None:
    _game, state = simple(size)
    assert state.pool[1:] == [tokens, tokens]


def test_a_leader_on_the_field_gives_one_more_token() -> None:
    _game, state = simple(60, ("leader",))
    assert state.pool[1:] == [7, 6]


def test_the_leader_token_is_counted_when_tokens_are_handed_out() -> None:
    # Blue's lone troop kills red's leader in round 1; red keeps 7 for the round, 6 next.
    red = [
        ("chief", "B2", [troop("c1", traits=["leader"])]),
        ("other", "A1", [troop("o1", points=50)]),
    ]
    blue = [("b", "B4", [troop("b1", melee=4)])]
    game, state = start(battle(red, blue, size=60, attacker=2))
    play(game, state, "order b charge", "react wait", "target chief", "roll 4 1", "wound c1")
    assert not state.units["chief"].alive
    assert state.pool[1] == 7
    while decision(game, state).kind != "end":
        play(game, state, "pass")
    play(game, state, "end", "end")
    assert state.round == 2
    assert state.pool[1:] == [6, 6]


def test_an_order_costs_1_then_2_then_4_then_8() -> None:
    game, state = simple(160)
    seen = []
    for zone in ("A1", "B1", "A1", "B1"):
        seen.append(costs(game, state)[f"order a move {zone}"])
        play(game, state, f"order a move {zone}", "pass")
    assert seen == [1, 2, 4, 8]
    assert state.units["a"].orders == 15


def test_a_reactive_unit_costs_exactly_its_order_tokens_at_least_1() -> None:
    game, state = simple(160, ("reactive",))
    seen = []
    for zone in ("A1", "B1", "A1", "B1"):
        seen.append(costs(game, state)[f"order a move {zone}"])
        play(game, state, f"order a move {zone}", "pass")
    assert seen == [1, 1, 2, 4]


def test_a_player_who_cannot_pay_cannot_give_that_order() -> None:
    game, state = simple(30)
    play(game, state, "order a move A1", "pass")  # 1 paid, 2 left; next costs 2
    assert "order a move B1" in listed(game, state)
    play(game, state, "order a move B1", "pass")  # 3 paid, 0 left
    assert state.pool[1] == 0
    # Blue has one token left and plays on alone; red is skipped.
    assert decision(game, state).player == 2


def test_an_order_over_the_pool_is_refused_naming_the_rule() -> None:
    game, state = simple(30)
    play(game, state, "order a move A1", "pass", "order a move B1", "pass")
    game2, state2 = simple(40)
    play(
        game2, state2, "order a move A1", "pass", "order a move B1", "pass"
    )  # 1 left, next costs 4
    with pytest.raises(IllegalPlayError) as error:
        play(game2, state2, "order a move A1")
    assert error.value.rule == "order-cost"


def test_pass_sets_one_token_aside() -> None:
    game, state = simple(60)
    play(game, state, "pass")
    assert state.pool[1] == 5
    assert state.spent[1] == 1
    assert costs(game, state)["pass"] == 1


def fight(rules: PocketRules | None = None) -> tuple[PocketBattles, PocketState]:
    """Red (4 tokens with its Leader) against blue (3) whose lone troop has 2 wound points."""
    red = [("a", "B2", [troop("a1", melee=4)]), ("chief", "A1", [troop("l1", traits=["leader"])])]
    blue = [
        ("b", "B4", [troop("b1", wounds=2, melee=None)]),
        ("c", "C5", [troop("c1")]),
        ("d", "A5", [troop("d1")]),
    ]
    return start(battle(red, blue, size=30, rules=rules))


def test_a_wound_token_comes_from_the_unspent_tokens_first() -> None:
    game, state = fight()
    play(game, state, "order a charge", "react wait", "target b", "roll 4 1", "wound b1")
    assert state.pool[2] == 2
    assert state.units["b"].troops[0].wounds == 1


def test_then_an_order_token_of_the_hit_unit() -> None:
    red = [("a", "B2", [troop("a1", melee=4)]), ("chief", "C1", [troop("l1", traits=["leader"])])]
    blue = [("b", "B4", [troop("b1", wounds=2, melee=None)])]
    game, state = start(battle(red, blue, size=30))
    play(game, state, "pass", "order b move A4", "pass", "order b move B4")
    assert state.pool[2] == 0
    assert state.units["b"].orders == 3
    play(game, state, "order a charge", "react wait", "target b", "roll 4 1", "wound b1")
    assert state.units["b"].troops[0].wounds == 1
    assert state.units["b"].orders == 2


def test_then_the_unit_with_the_most_order_tokens_first_in_the_file() -> None:
    game, state = fight()
    play(game, state, "pass", "order c move C4", "pass", "order d move A4", "pass", "pass")
    assert state.pool[2] == 0
    assert state.units["c"].orders == 1
    assert state.units["d"].orders == 1
    play(game, state, "order a charge", "react wait", "target b", "roll 4 1", "wound b1")
    assert state.units["b"].troops[0].wounds == 1
    assert (state.units["c"].orders, state.units["d"].orders) == (0, 1)


def test_the_hit_unit_only_ruling_removes_the_troop_instead() -> None:
    game, state = fight(PocketRules(wound_token_source="hit-unit-only"))
    play(game, state, "pass", "order c move C4", "pass", "order d move A4", "pass", "pass")
    play(game, state, "order a charge", "react wait", "target b", "roll 4 1", "wound b1")
    assert not state.units["b"].alive


def test_with_no_token_anywhere_the_wounded_troop_is_removed_at_once() -> None:
    game, state = fight()
    play(game, state, "pass", "pass", "pass", "pass", "pass", "pass")
    assert state.pool[2] == 0
    play(game, state, "order a charge", "react wait", "target b", "roll 4 1", "wound b1")
    assert not state.units["b"].alive
    assert state.destroyed[1] == 5


def test_a_wound_that_removes_its_troop_and_a_kill_take_no_token() -> None:
    game, state = fight()
    play(game, state, "order a charge", "react wait", "target b", "roll 4 1", "kill b1")
    assert state.pool[2] == 3
    assert not state.units["b"].alive


def test_a_player_with_no_token_left_is_skipped_until_the_round_ends() -> None:
    game, state = simple(30)
    play(game, state, "order a move A1", "pass", "order a move B1")
    assert state.pool[1:] == [0, 2]
    play(game, state, "pass")
    assert decision(game, state).player == 2
    play(game, state, "pass")
    assert decision(game, state).kind == "end"
