"""Playoffs: seeding, the next rounds, a playoff-only start, drops before and during."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tabletop.tournament import (
    Event,
    EventCompleteError,
    Match,
    Player,
    Round,
    audit,
    pair_next,
    standings,
)


def field(n: int) -> tuple[Player, ...]:
    return tuple(Player(f"p{k:02}", f"P{k}") for k in range(1, n + 1))


def play(event: Event, winner_is_first: bool = True) -> Event:
    """Pair the next round and let the first (or second) player of every table win."""
    pairing = pair_next(event)
    matches = tuple(
        replace(m, winner=m.players[0 if winner_is_first else 1])
        for m in pairing.to_round().matches
    )
    return event.with_rounds((*event.rounds, Round(pairing.kind, matches, pairing.to_round().byes)))


@pytest.mark.parametrize("cut", [4, 8, 16, 32])
def test_seeding_and_round_two(cut: int) -> None:
    event = Event(
        "destiny", "destiny", "E", 3, field(2 * cut), structure="custom", swiss_rounds=1, cut=cut
    )
    event = play(event)
    seeds = [s.player.id for s in standings(event)][:cut]
    first = pair_next(event)
    assert first.kind == "playoff"
    assert [(p.table, p.players) for p in first.pairs] == [
        (k, (seeds[k - 1], seeds[cut - k])) for k in range(1, cut // 2 + 1)
    ]
    # the lower seed wins every table; then winner of table j v winner of table last - j + 1
    lower_wins = tuple(replace(m, winner=m.players[1]) for m in first.to_round().matches)
    event = event.with_rounds((*event.rounds, Round("playoff", lower_wins)))
    second = pair_next(event)
    tables = cut // 2
    winners = {k: seeds[cut - k] for k in range(1, tables + 1)}
    assert [(p.table, p.players) for p in second.pairs] == [
        (j, (winners[j], winners[tables + 1 - j])) for j in range(1, tables // 2 + 1)
    ]


def test_the_final_ends_the_event() -> None:
    event = Event("destiny", "destiny", "E", 3, field(8), structure="custom", swiss_rounds=1, cut=4)
    for _ in range(3):
        event = play(event)
    with pytest.raises(EventCompleteError, match="the event is complete"):
        pair_next(event)
    assert audit(event).legal


def test_a_playoff_start_with_ten_players_gives_six_byes() -> None:
    event = Event(
        "destiny", "destiny", "E", 11, field(10), structure="custom", swiss_rounds=0, cut=10
    )
    first = pair_next(event)
    assert (len(first.pairs), len(first.byes)) == (2, 6)
    tables = sorted([p.table for p in first.pairs] + [b.table or 0 for b in first.byes])
    assert tables == list(range(1, 9))
    event = play(event)
    second = pair_next(event)
    through = {p.table: p.players[0] for p in first.pairs} | {b.table: b.player for b in first.byes}
    assert [(p.table, p.players) for p in second.pairs] == [
        (j, (through[j], through[9 - j])) for j in range(1, 5)
    ]
    assert pair_next(event) == second  # seeded: the same file gives the same pairing


def test_a_drop_before_the_cut_moves_everyone_below_up() -> None:
    event = Event("destiny", "destiny", "E", 5, field(8), structure="custom", swiss_rounds=1, cut=4)
    event = play(event)
    ranked = [s.player.id for s in standings(event)]
    event = event.with_player(replace(event.player(ranked[1]), dropped_after=1))
    first = pair_next(event)
    assert [p.players for p in first.pairs] == [(ranked[0], ranked[4]), (ranked[2], ranked[3])]


def test_a_drop_during_the_playoff_gives_the_next_opponent_a_bye() -> None:
    event = Event("destiny", "destiny", "E", 5, field(8), structure="custom", swiss_rounds=1, cut=4)
    event = play(event)
    first = pair_next(event)
    event = play(event)  # higher seeds win: tables 1 and 2
    quitter = first.pairs[1].players[0]
    event = event.with_player(replace(event.player(quitter), dropped_after=2))
    final = pair_next(event)
    assert final.pairs == ()
    assert [(b.player, b.table) for b in final.byes] == [(first.pairs[0].players[0], 1)]


def test_a_best_of_three_playoff_needs_two_game_wins() -> None:
    event = Event("destiny", "destiny", "E", 5, field(9), structure="advanced")
    assert pair_next(event).kind == "swiss"
    match = Match(1, ("p01", "p02"), games=("p01", "p02", "p01"))
    assert match.has_result
