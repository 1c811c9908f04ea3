"""The battlefield: 15 zones, the mirrored sector words, adjacency."""

from __future__ import annotations

import pytest
from pocket_common import battle, listed, start, troop

from tabletop.boards.errors import InvalidPlayError
from tabletop.boards.pocket import ADJACENT, ZONES, own_zones, parse_play, zone_words


def test_the_battlefield_is_3_sectors_by_5_rows() -> None:
    assert len(ZONES) == 15
    assert ZONES[:5] == ("A1", "A2", "A3", "A4", "A5")


def test_rear_is_adjacent_to_the_neighbouring_rears_and_its_own_front() -> None:
    assert ADJACENT["B1"] == {"A1", "C1", "B2"}
    assert ADJACENT["A5"] == {"B5", "A4"}


def test_front_is_adjacent_to_the_neighbouring_fronts_and_its_own_rear() -> None:
    assert ADJACENT["B2"] == {"A2", "C2", "B1"}
    assert ADJACENT["C4"] == {"B4", "C5"}


def test_nothing_is_diagonal() -> None:
    assert "B2" not in ADJACENT["A1"]
    assert "A1" not in ADJACENT["B2"]


def test_a_and_c_are_not_neighbours() -> None:
    assert "C1" not in ADJACENT["A1"]
    assert "C2" not in ADJACENT["A2"]


def test_no_reposition_into_or_out_of_the_engagement_row_or_across_it() -> None:
    for z in ZONES:
        assert not any(n.endswith("3") for n in ADJACENT[z])
    assert ADJACENT["B3"] == frozenset()
    assert "B4" not in ADJACENT["B2"]


def test_a_player_deploys_into_their_six_zones() -> None:
    assert own_zones(1) == ("A1", "A2", "B1", "B2", "C1", "C2")
    assert own_zones(2) == ("A4", "A5", "B4", "B5", "C4", "C5")


def test_the_left_sector_of_a_player_is_the_opponents_right() -> None:
    assert zone_words("A1", 1) == "your left rear"
    assert zone_words("A5", 2) == "your right rear"
    assert zone_words("C4", 1) == "enemy right front"
    assert zone_words("C4", 2) == "your left front"
    assert zone_words("B3", 1) == "the engagement zone of your centre sector"


def test_d7_is_no_zone() -> None:
    with pytest.raises(InvalidPlayError, match="'D7' is not a zone"):
        parse_play("order spears move D7")


def test_a_zone_holds_any_number_of_units() -> None:
    red = [(f"u{k}", "B2", [troop(f"t{k}")]) for k in range(4)]
    game, state = start(battle(red, [("x", "B4", [troop("x1")])]))
    assert all(u.zone == "B2" for u in state.player_units(1))
    assert "reposition u0 A2" in listed(game, state)
