"""Structures: every edge of Armada's and Destiny's tables, and the event's own numbers."""

from __future__ import annotations

import pytest

from tabletop.tournament import (
    Event,
    Player,
    Structure,
    StructureError,
    get_regulation,
    structure_of,
)


def event(game: str, players: int, **options: object) -> Event:
    field = tuple(Player(f"p{k}", f"P{k}") for k in range(players))
    return Event(game, get_regulation(game).id, "E", 1, field, **options)  # type: ignore[arg-type]


BASIC = [
    (4, 3, 0),
    (8, 3, 0),
    (9, 4, 0),
    (16, 4, 0),
    (17, 4, 4),
    (24, 4, 4),
    (25, 5, 4),
    (40, 5, 4),
    (41, 5, 8),
    (44, 5, 8),
    (45, 6, 8),
    (76, 6, 8),
    (77, 6, 16),
    (148, 6, 16),
    (149, 7, 16),
    (600, 7, 16),
]
ADVANCED = [
    (9, 4, 4),
    (12, 4, 4),
    (13, 5, 4),
    (24, 5, 4),
    (25, 6, 8),
    (40, 6, 8),
    (41, 7, 8),
    (76, 7, 8),
    (77, 8, 8),
    (148, 8, 8),
    (149, 8, 16),
    (288, 8, 16),
    (289, 9, 16),
    (512, 9, 16),
    (513, 9, 32),
    (565, 9, 32),
]


@pytest.mark.parametrize(("players", "rounds", "cut"), BASIC)
def test_destiny_basic_rows(players: int, rounds: int, cut: int) -> None:
    assert structure_of(event("destiny", players, structure="basic")) == Structure(rounds, cut, 1)


@pytest.mark.parametrize(("players", "rounds", "cut"), ADVANCED)
def test_destiny_advanced_rows(players: int, rounds: int, cut: int) -> None:
    assert structure_of(event("destiny", players, structure="advanced")) == Structure(
        rounds, cut, 3
    )


def test_counts_outside_a_table_name_the_table() -> None:
    with pytest.raises(
        StructureError, match=r"3 registered players is outside the destiny 'basic' table"
    ):
        structure_of(event("destiny", 3, structure="basic"))
    with pytest.raises(StructureError, match="'advanced' table"):
        structure_of(event("destiny", 8, structure="advanced"))
    # unless the event gives swiss_rounds; the cut is then 0
    assert structure_of(event("destiny", 8, structure="advanced", swiss_rounds=3)) == Structure(
        3, 0, 3
    )


def test_the_event_numbers_replace_the_row() -> None:
    assert structure_of(event("destiny", 40, structure="basic", cut=8)) == Structure(5, 8, 1)
    assert structure_of(event("destiny", 40, structure="basic", swiss_rounds=2)) == Structure(
        2, 4, 1
    )
    custom = event("destiny", 10, structure="custom", swiss_rounds=0, cut=10, playoff_games=3)
    assert structure_of(custom) == Structure(0, 10, 3)
    with pytest.raises(StructureError, match="give swiss_rounds"):
        structure_of(event("destiny", 10, structure="custom"))


@pytest.mark.parametrize(("players", "rounds"), [(2, 3), (32, 3), (33, 5), (200, 5)])
def test_armada_round_table(players: int, rounds: int) -> None:
    for tier in ("competitive", "premier"):
        assert structure_of(event("armada", players, tier=tier)) == Structure(rounds, 0, 1)


def test_armada_informal_needs_swiss_rounds_and_may_add_a_cut() -> None:
    with pytest.raises(StructureError, match="'informal' tier has no round table"):
        structure_of(event("armada", 12, tier="informal"))
    assert structure_of(event("armada", 12, tier="informal", swiss_rounds=4, cut=4)) == Structure(
        4, 4, 1
    )
