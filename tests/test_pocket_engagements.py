"""Joining and leaving an engagement, and shooting with its fallbacks and the split."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from pocket_common import UnitPlan, battle, decision, listed, play, start, troop

from tabletop.boards.errors import IllegalPlayError
from tabletop.boards.pocket import PocketBattles, PocketRules, PocketState


def engaged(rules: PocketRules | None = None) -> tuple[PocketBattles, PocketState]:
    """Red's a and blue's x in contact in B3 after round 1's first turns (nobody hit)."""
    red = [("a", "B2", [troop("a1", wounds=3)]), ("h", "B2", [troop("h1", wounds=3)])]
    blue = [("x", "B4", [troop("x1", wounds=3)]), ("y", "B4", [troop("y1", wounds=3, melee=None)])]
    game, state = start(battle(red, blue, rules=rules))
    play(game, state, "order a charge", "react wait", "target x", "roll 1 1", "roll 1")
    return game, state


def test_join_needs_units_in_contact_since_the_start_of_the_turn() -> None:
    game, state = engaged()
    # Blue's turn: x met a in red's turn, so x may charge into the engagement.
    assert "order x join a" in listed(game, state)
    play(game, state, "order x join a")
    # As an engagement without the charge die; the ordered unit strikes first.
    d = decision(game, state)
    assert (d.kind, d.player, d.dice) == ("roll", 2, 1)
    play(game, state, "roll 4", "wound a1")
    d = decision(game, state)
    assert (d.kind, d.player, d.dice) == ("roll", 1, 1)


def test_join_with_a_unit_not_in_contact_is_refused() -> None:
    game, state = engaged()
    with pytest.raises(IllegalPlayError) as error:
        play(game, state, "order y join a")
    assert error.value.rule == "join-melee"
    red = [("a", "B2", [troop("a1", wounds=3)])]
    blue = [("x", "B4", [troop("x1", wounds=3)]), ("z", "B4", [troop("z1")])]
    game, state = start(battle(red, blue))
    play(game, state, "order a charge", "react wait", "target x", "roll 1 1", "roll 1")
    with pytest.raises(IllegalPlayError) as error:
        play(game, state, "order z join a")
    assert error.value.rule == "join-contact"


def test_leave_every_enemy_in_contact_strikes_once_in_contact_order() -> None:
    game, state = engaged()
    play(game, state, "pass")
    # Red's h charges x too: x is in contact with a, then h.
    play(game, state, "order h charge", "react wait", "target x", "roll 1 1", "roll 1")
    assert state.contacts_of("x") == ["a", "h"]
    play(game, state, "order x leave")
    # a strikes first, then h, each one die, without orders.
    d = decision(game, state)
    assert (d.kind, d.player, d.dice) == ("roll", 1, 1)
    assert state.stack[-1][:2] == ("strike", "a")
    play(game, state, "roll 4", "wound x1")
    assert state.stack[-1][:2] == ("strike", "h")
    play(game, state, "roll 6")
    # The survivor goes to its front row; strikers left with no contact to theirs.
    assert state.units["x"].zone == "B4"
    assert state.units["a"].zone == "B2"
    assert state.units["h"].zone == "B2"
    assert state.contacts == []
    assert state.units["x"].troops[0].wounds == 1


def striker_still_engaged(rules: PocketRules | None = None) -> tuple[PocketBattles, PocketState]:
    # x is in contact with a; a is also in contact with z. x leaves: a stays with z.
    red = [("a", "B2", [troop("a1", wounds=3)])]
    blue = [("x", "B4", [troop("x1", wounds=3)]), ("z", "B4", [troop("z1", wounds=3)])]
    game, state = start(battle(red, blue, rules=rules))
    play(game, state, "order a charge", "react wait", "target x", "roll 1 1", "roll 1")
    play(game, state, "order z charge", "react wait", "target a", "roll 1 1", "roll 1", "pass")
    play(game, state, "order x leave", "roll 6")
    return game, state


def test_a_striker_still_engaged_with_another_unit_stays() -> None:
    _game, state = striker_still_engaged()
    assert state.units["x"].zone == "B4"
    assert state.units["a"].zone == "B3"
    assert state.contacts_of("a") == ["z"]


def test_the_all_strikers_ruling_sends_every_striker_back() -> None:
    _game, state = striker_still_engaged(PocketRules(leave_return="all-strikers"))
    assert state.units["a"].zone == "B2"
    assert state.units["z"].zone == "B4"
    assert state.contacts == []


def test_a_striker_with_no_melee_value_does_not_strike_a_leaver() -> None:
    red = [("a", "B2", [troop("a1", wounds=3)])]
    blue = [("y", "B4", [troop("y1", wounds=3, melee=None)])]
    game, state = start(battle(red, blue))
    play(
        game, state, "order a charge", "react wait", "target y", "roll 1 1", "pass", "order a leave"
    )
    assert decision(game, state).kind == "turn"
    assert state.units["a"].zone == "B2"


def shooters(red_zone: str, traits: tuple[str, ...], blue: Sequence[UnitPlan]) -> list[str]:
    red = [("s", red_zone, [troop("s1", melee=None, shoot=4, traits=traits)])]
    game, state = start(battle(red, blue))
    return [p for p in listed(game, state) if p.startswith("order s shoot")]


def test_a_shooter_in_its_front_row_targets_the_front_and_engagement_of_its_sector() -> None:
    blue = [("f", "B4", [troop("f1")]), ("r", "B5", [troop("r1")]), ("n", "A4", [troop("n1")])]
    assert shooters("B2", (), blue) == ["order s shoot f"]


def test_with_none_there_the_rear_of_the_same_sector() -> None:
    blue = [("r", "B5", [troop("r1")]), ("n", "A4", [troop("n1")])]
    assert shooters("B2", (), blue) == ["order s shoot r"]


def test_with_no_enemy_in_the_sector_the_neighbouring_front_and_engagement() -> None:
    blue = [("n", "A4", [troop("n1")]), ("m", "C5", [troop("m1")])]
    assert shooters("B2", (), blue) == ["order s shoot n"]


def test_a_shooter_needs_the_front_row_unless_long_range() -> None:
    blue = [("f", "B4", [troop("f1")])]
    assert shooters("B1", (), blue) == []
    assert shooters("B1", ("long range",), blue) == ["order s shoot f"]


def test_wide_arc_adds_the_neighbouring_sectors_even_while_its_own_has_targets() -> None:
    blue = [("f", "B4", [troop("f1")]), ("n", "A4", [troop("n1")]), ("m", "C5", [troop("m1")])]
    assert shooters("B2", ("wide arc",), blue) == ["order s shoot f", "order s shoot n"]


def test_a_shot_rolls_one_die_plus_n_and_scores_on_shoot_values() -> None:
    red = [
        (
            "s",
            "B2",
            [troop("s1", melee=2, shoot=4, traits=["+2 shoot"]), troop("s2", melee=None, shoot=4)],
        )
    ]
    blue = [("f", "B4", [troop("f1", wounds=5, melee=None)])]
    game, state = start(battle(red, blue))
    after = ("pass", "pass")
    play(game, state, *after, "order s shoot f")
    assert decision(game, state).dice == 3
    play(game, state, "roll 4 2 1")
    assert state.stack[-1] == ("hits", "f", 2)


def test_hits_shot_into_an_engagement_are_split_rounded_up_target_first() -> None:
    red = [("a", "B2", [troop("a1", wounds=3)])]
    blue = [
        ("x", "B4", [troop("x1", wounds=3)]),
        (
            "s",
            "B4",
            [
                troop("s1", melee=None, shoot=4),
                troop("s2", melee=None, shoot=4),
                troop("s3", melee=None, shoot=4),
            ],
        ),
    ]
    game, state = start(battle(red, blue))
    play(game, state, "order a charge", "react wait", "target x", "roll 1 1", "roll 1")
    # Blue shoots into the engagement of x and a: 3 hits, 2 units, 2 each, a first.
    play(game, state, "order s shoot a", "roll 4")
    assert state.stack[-2:] == [("hits", "x", 2), ("hits", "a", 2)]


def test_the_target_only_ruling_puts_every_shot_hit_on_the_target() -> None:
    red = [("a", "B2", [troop("a1", wounds=3)])]
    blue = [("x", "B4", [troop("x1", wounds=3)]), ("s", "B4", [troop("s1", melee=None, shoot=4)])]
    game, state = start(battle(red, blue, rules=PocketRules(engagement_split="target-only")))
    play(game, state, "order a charge", "react wait", "target x", "roll 1 1", "roll 1")
    play(game, state, "order s shoot a", "roll 4")
    assert state.stack[-1:] == [("hits", "a", 1)]
