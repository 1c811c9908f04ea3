"""Charges: the three reactions, rear and flank, engagements and counterattacks."""

from __future__ import annotations

import pytest
from pocket_common import battle, costs, decision, listed, play, start, troop

from tabletop.boards.errors import IllegalPlayError
from tabletop.boards.pocket import PocketBattles, PocketRules, PocketState, count_hits


def test_the_seeds_hit_examples() -> None:
    # Troops showing 3, 3, 4, 4, 5: a 4 scores 2 hits; a 4 and a 5 score 3.
    values = [3, 3, 4, 4, 5]
    assert count_hits(values, [4]) == 2
    assert count_hits(values, [4, 5]) == 3
    assert count_hits(values, [6]) == 0
    assert count_hits(values, [3, 3]) == 4


def two_fronts(size: int = 100) -> tuple[PocketBattles, PocketState]:
    red = [("a", "B2", [troop("a1", melee=4), troop("a2", melee=4)])]
    blue = [
        ("i", "B4", [troop("i1", melee=3)]),
        ("s", "B4", [troop("s1", melee=None, shoot=2)]),
        ("far", "B5", [troop("f1")]),
    ]
    return start(battle(red, blue, size=size))


def test_a_charge_needs_the_front_row_and_melee_on_every_troop() -> None:
    red = [
        ("front", "A2", [troop("f1")]),
        ("rear", "B1", [troop("r1")]),
        ("mixed", "C2", [troop("m1"), troop("m2", melee=None, shoot=3)]),
    ]
    game, state = start(battle(red, [("x", "B4", [troop("x1")])]))
    plays = listed(game, state)
    assert "order front charge" in plays
    assert "order rear charge" not in plays
    assert "order mixed charge" not in plays
    with pytest.raises(IllegalPlayError) as error:
        play(game, state, "order rear charge")
    assert error.value.rule == "charge-front-row"


def test_the_charger_moves_into_the_engagement_zone_and_the_opponent_answers() -> None:
    game, state = two_fronts()
    play(game, state, "order a charge")
    assert state.units["a"].zone == "B3"
    d = decision(game, state)
    assert (d.player, d.kind) == (2, "react")
    assert listed(game, state) == ["react intercept i", "react shoot s", "react wait"]


def test_wait_is_always_legal_also_with_no_token() -> None:
    game, state = two_fronts(size=10)
    play(game, state, "pass")  # red out; blue plays
    play(game, state, "pass")  # blue out: round ends, round 2 starts
    play(game, state, "end", "end")
    # Round 2: blue first. Blue passes, red charges; blue has no token.
    play(game, state, "pass", "order a charge")
    assert listed(game, state) == ["react wait"]


def test_intercept_moves_the_interceptor_into_contact_and_the_charger_keeps_its_die() -> None:
    game, state = two_fronts()
    play(game, state, "order a charge", "react intercept i")
    assert state.units["i"].zone == "B3"
    d = decision(game, state)
    # No target play: the charger rolls at once, 1 die + 1 for charging.
    assert (d.kind, d.player, d.dice) == ("roll", 1, 2)
    assert state.pool[2] == 9
    assert state.units["i"].orders == 1


def test_the_charger_strikes_then_the_survivors_counterattack() -> None:
    game, state = two_fronts()
    play(game, state, "order a charge", "react intercept i", "roll 6 6")
    # No hit: the interceptor's counterattack, one die.
    assert (
        decision(game, state).kind,
        decision(game, state).player,
        decision(game, state).dice,
    ) == ("roll", 2, 1)
    play(game, state, "roll 3")
    assert decision(game, state).kind == "hits"
    assert decision(game, state).player == 1
    play(game, state, "wound a1")
    # Both stand: they stay in contact in the engagement zone.
    assert state.units["a"].zone == "B3"
    assert state.units["i"].zone == "B3"
    assert state.contacts_of("a") == ["i"]


def test_a_unit_left_with_no_enemy_in_contact_returns_to_its_front_row() -> None:
    game, state = two_fronts()
    play(game, state, "order a charge", "react intercept i", "roll 4 1", "wound i1")
    assert not state.units["i"].alive
    assert state.units["a"].zone == "B2"
    assert state.contacts == []


def test_react_shoot_is_a_normal_shot_at_the_charger_then_the_target() -> None:
    game, state = two_fronts()
    play(game, state, "order a charge", "react shoot s")
    d = decision(game, state)
    assert (d.kind, d.player, d.dice) == ("roll", 2, 1)
    play(game, state, "roll 2", "wound a1")
    assert len(state.units["a"].troops) == 1
    # A surviving charger picks its target in the front row or the engagement zone.
    assert listed(game, state) == ["target i", "target s"]
    play(game, state, "target s")
    assert decision(game, state).dice == 2


def test_a_charger_destroyed_by_the_shot_does_not_fight() -> None:
    red = [("a", "B2", [troop("a1")])]
    blue = [("s", "B4", [troop("s1", melee=None, shoot=2)])]
    game, state = start(battle(red, blue))
    play(game, state, "order a charge", "react shoot s", "roll 2", "wound a1")
    assert not state.units["a"].alive
    assert decision(game, state).player == 2
    assert decision(game, state).kind == "turn"


def test_with_no_enemy_in_front_or_engagement_the_charge_goes_to_the_rear_without_reaction() -> (
    None
):
    red = [("a", "B2", [troop("a1")])]
    blue = [("r", "B5", [troop("r1", melee=None)]), ("x", "A4", [troop("x1")])]
    game, state = start(battle(red, blue))
    play(game, state, "order a charge")
    d = decision(game, state)
    assert (d.player, d.kind) == (1, "target")
    assert listed(game, state) == ["target r"]
    play(game, state, "target r", "roll 1 2")
    # Both stand: in contact in the engagement zone.
    assert state.units["r"].zone == "B3"
    assert state.contacts_of("r") == ["a"]


def test_with_no_enemy_in_the_sector_the_charge_may_flank_a_neighbouring_sector() -> None:
    red = [("a", "B2", [troop("a1"), troop("a2")])]
    blue = [("f", "A5", [troop("f1", melee=3, wounds=3)]), ("c", "C4", [troop("c1")])]
    game, state = start(battle(red, blue))
    play(game, state, "order a charge")
    assert decision(game, state).kind == "target"
    assert listed(game, state) == ["target f", "target c"]
    play(game, state, "target f", "roll 4 6", "wound f1", "wound f1", "roll 3", "wound a1")
    # After a flank fight both go to their own front rows of the target's sector.
    assert state.units["a"].zone == "A2"
    assert state.units["f"].zone == "A4"
    assert state.contacts == []


def test_a_flanked_target_with_another_contact_stays_engaged() -> None:
    red = [("a", "B2", [troop("a1")]), ("e", "A2", [troop("e1")])]
    blue = [("f", "A4", [troop("f1", wounds=3, melee=None)])]
    game, state = start(battle(red, blue, size=100))
    play(game, state, "order e charge", "react wait", "target f", "roll 1 1", "pass")
    assert state.contacts_of("f") == ["e"]
    play(game, state, "order a charge", "target f", "roll 4 1", "wound f1")
    assert state.units["a"].zone == "A2"
    assert state.units["f"].zone == "A3"
    assert state.contacts_of("a") == []


def test_a_charge_is_legal_only_when_it_has_a_target() -> None:
    red = [("a", "A2", [troop("a1")])]
    blue = [("c", "C4", [troop("c1")])]
    game, state = start(battle(red, blue))
    assert "order a charge" not in listed(game, state)
    with pytest.raises(IllegalPlayError) as error:
        play(game, state, "order a charge")
    assert error.value.rule == "charge-target"


@pytest.mark.parametrize(
    ("traits", "rules", "dice"),
    [
        ((), PocketRules(), 2),
        (("impetuous",), PocketRules(), 3),
        (("+2 engagement",), PocketRules(), 4),
        (("+2 engagement",), PocketRules(engagement_dice="one-die"), 3),
        (("impetuous", "+1 engagement"), PocketRules(), 4),
    ],
)
def test_the_charge_dice(traits: tuple[str, ...], rules: PocketRules, dice: int) -> None:
    red = [("a", "B2", [troop("a1", traits=traits)])]
    game, state = start(battle(red, [("x", "B4", [troop("x1")])], rules=rules))
    play(game, state, "order a charge", "react wait", "target x")
    assert decision(game, state).dice == dice


def test_plus_n_wounds_adds_n_hits_when_at_least_one_scored() -> None:
    red = [("a", "B2", [troop("a1", melee=4, traits=["+2 wounds"])])]
    blue = [("x", "B4", [troop("x1", wounds=5, melee=None)])]
    game, state = start(battle(red, blue))
    play(game, state, "order a charge", "react wait", "target x", "roll 4 1")
    assert state.stack[-1] == ("hits", "x", 3)
    game, state = start(battle(red, blue))
    play(game, state, "order a charge", "react wait", "target x", "roll 1 1")
    assert decision(game, state).player == 2
    assert decision(game, state).kind == "turn"


def test_a_unit_with_no_melee_value_does_not_counterattack() -> None:
    red = [("a", "B2", [troop("a1")])]
    blue = [("x", "B4", [troop("x1", wounds=3, melee=None, shoot=4)])]
    game, state = start(battle(red, blue))
    play(game, state, "order a charge", "react wait", "target x", "roll 4 1", "wound x1")
    assert decision(game, state).kind == "turn"
    assert decision(game, state).player == 2


def test_the_seeds_cavalry_examples() -> None:
    # A unit of 2 cavalry (2 WP each) and 1 infantry (1 WP) takes 1 hit: remove the
    # infantry, remove a cavalry (wasting 1 WP), or put a wound token on a cavalry.
    red = [("a", "B2", [troop("a1", melee=4), troop("a2", melee=4)])]
    blue = [
        (
            "k",
            "B4",
            [
                troop("cav-1", wounds=2, melee=None),
                troop("cav-2", wounds=2, melee=None),
                troop("inf", melee=None),
            ],
        )
    ]
    game, state = start(battle(red, blue))
    play(game, state, "order a charge", "react wait", "target k", "roll 4 6")
    assert state.stack[-1] == ("hits", "k", 2)
    assert listed(game, state) == [
        "wound cav-1",
        "kill cav-1",
        "wound cav-2",
        "kill cav-2",
        "wound inf",
        "kill inf",
    ]
    play(game, state, "wound cav-1")
    # The same unit later: any troop may be wounded or killed (the wounded cavalry's
    # second wound kills it, as the infantry's first does).
    assert listed(game, state) == [
        "wound cav-1",
        "kill cav-1",
        "wound cav-2",
        "kill cav-2",
        "wound inf",
        "kill inf",
    ]
    # The Roman example: the Celt removes the nobleman and wounds the mounted one.
    game, state = start(battle(red, blue))
    play(
        game,
        state,
        "order a charge",
        "react wait",
        "target k",
        "roll 4 6",
        "kill inf",
        "wound cav-1",
    )
    assert [(t.id, t.wounds) for t in state.units["k"].troops] == [("cav-1", 1), ("cav-2", 0)]


def test_hits_past_the_units_destruction_are_lost() -> None:
    red = [("a", "B2", [troop("a1", melee=4), troop("a2", melee=4), troop("a3", melee=4)])]
    blue = [("x", "B4", [troop("x1", melee=None)])]
    game, state = start(battle(red, blue))
    play(game, state, "order a charge", "react wait", "target x", "roll 4 4", "wound x1")
    assert state.stack == []
    assert decision(game, state).player == 2


def test_charging_an_engaged_unit_overwhelms_it_one_fight_against_one() -> None:
    red = [("a", "B2", [troop("a1")]), ("b", "B2", [troop("b1")])]
    blue = [("x", "B4", [troop("x1", wounds=4, melee=None)])]
    game, state = start(battle(red, blue))
    play(game, state, "order a charge", "react wait", "target x", "roll 1 1")
    play(game, state, "pass")
    play(game, state, "order b charge", "react wait")
    assert listed(game, state) == ["target x"]
    play(game, state, "target x", "roll 4 1", "wound x1")
    assert sorted(state.contacts_of("x")) == ["a", "b"]


def test_a_troop_with_0_wound_points_is_removed_by_any_hit() -> None:
    red = [("a", "B2", [troop("a1", melee=4)])]
    blue = [("x", "B4", [troop("x0", wounds=0, melee=None), troop("x1", wounds=2, melee=None)])]
    game, state = start(battle(red, blue))
    play(game, state, "order a charge", "react wait", "target x", "roll 4 1")
    assert listed(game, state) == ["wound x0", "kill x0", "wound x1", "kill x1"]
    play(game, state, "wound x0")
    assert [t.id for t in state.units["x"].troops] == ["x1"]
    assert state.pool[2] == 10


def test_a_reaction_costs_as_an_order_and_wait_costs_nothing() -> None:
    game, state = two_fronts()
    play(game, state, "pass", "order i move A4", "pass", "order i move B4", "order a charge")
    assert costs(game, state) == {"react intercept i": 4, "react shoot s": 1, "react wait": 0}


def test_a_reaction_is_not_the_reacting_players_turn() -> None:
    game, state = two_fronts()
    play(game, state, "order a charge", "react intercept i", "roll 6 6", "roll 6")
    # The fight is over; now blue takes its own turn, with its own reposition.
    d = decision(game, state)
    assert (d.kind, d.player) == ("turn", 2)
    assert any(p.startswith("reposition") for p in listed(game, state))
