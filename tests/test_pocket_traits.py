"""The traits: Double order and Spur (orders), and those that always apply."""

from __future__ import annotations

import pytest
from pocket_common import battle, costs, decision, listed, play, start, troop

from tabletop.boards.errors import IllegalPlayError
from tabletop.boards.pocket import PocketBattles, PocketRules, PocketState


def commanders() -> tuple[PocketBattles, PocketState]:
    red = [
        ("boss", "B1", [troop("b1", traits=["double order", "spur"])]),
        ("a", "B2", [troop("a1")]),
        ("c", "A2", [troop("c1")]),
    ]
    blue = [("x", "B4", [troop("x1", wounds=3)])]
    return start(battle(red, blue))


def test_trait_orders_are_not_allowed_in_the_attackers_first_turn() -> None:
    game, state = commanders()
    assert "order boss trait double order" not in listed(game, state)
    with pytest.raises(IllegalPlayError) as error:
        play(game, state, "order boss trait double order")
    assert error.value.rule == "first-turn-trait"
    # Spur is not offered either: the charge goes straight to the reaction.
    play(game, state, "order a charge")
    assert decision(game, state).kind == "react"


def test_double_order_gives_two_orders_to_two_other_units_paid_as_usual() -> None:
    game, state = commanders()
    play(game, state, "pass", "pass")
    assert costs(game, state)["order boss trait double order"] == 1
    play(game, state, "order boss trait double order")
    assert decision(game, state).kind == "double order"
    plays = listed(game, state)
    assert not any(p.startswith("order boss") for p in plays)
    play(game, state, "order c move A1")
    assert not any(p.startswith("order c") for p in listed(game, state))
    play(game, state, "order a move A2")
    # Two orders given: the turn is over.
    assert decision(game, state).player == 2
    assert state.pool[1] == 10 - 1 - 1 - 1 - 1


def test_spur_is_decided_after_a_charge_before_any_reaction_and_adds_a_die() -> None:
    game, state = commanders()
    play(game, state, "pass", "pass", "order a charge")
    d = decision(game, state)
    assert (d.kind, d.player) == ("spur", 1)
    assert costs(game, state) == {"order boss trait spur": 1, "no spur": 0}
    play(game, state, "order boss trait spur", "react wait", "target x")
    assert decision(game, state).dice == 3
    assert state.units["boss"].orders == 1


def test_no_spur_costs_nothing_and_the_roll_is_as_usual() -> None:
    game, state = commanders()
    play(game, state, "pass", "pass", "order a charge", "no spur", "react wait", "target x")
    assert decision(game, state).dice == 2
    assert state.pool[1] == 8


def test_spur_is_offered_only_when_a_unit_with_spur_can_pay() -> None:
    red = [("boss", "B1", [troop("b1", traits=["spur"])]), ("a", "B2", [troop("a1")])]
    game, state = start(battle(red, [("x", "B4", [troop("x1")])], size=30))
    play(game, state, "pass", "pass", "order boss move A1", "pass")
    # boss now costs 2; red has 1 token left.
    play(game, state, "order a charge")
    assert decision(game, state).kind == "react"


def test_a_slow_unit_cannot_reposition_but_may_make_a_tactical_move() -> None:
    red = [("slow", "B2", [troop("s1", traits=["slow"])])]
    game, state = start(battle(red, [("x", "B5", [troop("x1")])]))
    plays = listed(game, state)
    assert not any(p.startswith("reposition slow") for p in plays)
    assert "order slow move A2" in plays
    with pytest.raises(IllegalPlayError) as error:
        play(game, state, "reposition slow A2")
    assert error.value.rule == "slow"


def test_long_range_cannot_shoot_at_a_charger_from_the_rear() -> None:
    red = [("a", "B2", [troop("a1")])]
    blue = [
        ("lr", "B5", [troop("l1", melee=None, shoot=3, traits=["long range"])]),
        ("f", "B4", [troop("f1")]),
    ]
    game, state = start(battle(red, blue))
    play(game, state, "order a charge")
    assert "react shoot lr" not in listed(game, state)


def test_wide_arc_shoots_from_the_engagement_zone_into_neighbouring_sectors() -> None:
    red = [("w", "B2", [troop("w1", melee=3, shoot=4, wounds=3, traits=["wide arc"])])]
    blue = [("x", "B4", [troop("x1", wounds=3)]), ("n", "A4", [troop("n1")])]
    for rules, expected in (
        (PocketRules(), ["order w shoot n"]),
        (
            PocketRules(wide_arc_from_engagement="own-sector-too"),
            ["order w shoot x", "order w shoot n"],
        ),
    ):
        game, state = start(battle(red, blue, rules=rules))
        play(game, state, "order w charge", "react wait", "target x", "roll 1 1", "roll 1", "pass")
        assert [p for p in listed(game, state) if "shoot" in p] == expected


def test_plus_n_engagement_also_adds_to_counterattacks() -> None:
    red = [("a", "B2", [troop("a1", wounds=3)])]
    blue = [("x", "B4", [troop("x1", wounds=3, traits=["+2 engagement"])])]
    game, state = start(battle(red, blue))
    play(game, state, "order a charge", "react wait", "target x", "roll 1 1")
    assert decision(game, state).dice == 3


def test_spur_also_follows_a_shoot_or_a_join_order() -> None:
    red = [
        ("boss", "B1", [troop("b1", traits=["spur"])]),
        ("s", "B2", [troop("s1", melee=None, shoot=3)]),
    ]
    blue = [("x", "B4", [troop("x1", wounds=3)])]
    game, state = start(battle(red, blue))
    play(game, state, "pass", "pass", "order s shoot x")
    assert decision(game, state).kind == "spur"
    play(game, state, "order boss trait spur")
    assert decision(game, state).dice == 2
    red = [("boss", "B1", [troop("b1", traits=["spur"])]), ("a", "B2", [troop("a1", wounds=3)])]
    game, state = start(battle(red, blue))
    play(game, state, "order a charge", "react wait", "target x", "roll 1 1", "roll 1", "pass")
    play(game, state, "order a join x", "order boss trait spur")
    assert decision(game, state).dice == 2
