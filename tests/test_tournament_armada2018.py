"""The armada-2018 regulation, every number worked out by hand from tournament.md.

Its MoV → TP table (winner / loser): 0–59 → 6/5, 60–139 → 7/4, 140–219 → 8/3,
220–299 → 9/2, 300–400 → 10/1; MoV is the winner's score minus the loser's, at least 0
and at most 400; a bye is 8 TP and 140 MoV; a concession gives the winner the larger of
the game's MoV and 140 (at most 400) and the conceding player 0 TP; "One Player
Defeated" wins whatever the scores; SoS is the average over opponents of (the opponent's
TP ÷ the rounds the opponent played), byes excluded.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tabletop.tournament import (
    ARMADA_2015,
    ARMADA_2018,
    Bye,
    Event,
    Match,
    Player,
    ResultError,
    Round,
    audit,
    get_regulation,
    pair_swiss,
    score_match,
    standings,
)

# (winner's score, loser's score, MoV counted, winner TP, loser TP): both sides of
# every band edge, and the cap.
EDGES = [
    (100, 100, 0, 6, 5),
    (159, 100, 59, 6, 5),
    (160, 100, 60, 7, 4),
    (239, 100, 139, 7, 4),
    (240, 100, 140, 8, 3),
    (319, 100, 219, 8, 3),
    (320, 100, 220, 9, 2),
    (399, 100, 299, 9, 2),
    (400, 100, 300, 10, 1),
    (400, 0, 400, 10, 1),
    (451, 50, 400, 10, 1),  # 401: counted at the cap
    (520, 0, 400, 10, 1),
]


@pytest.mark.parametrize(("high", "low", "mov", "win", "lose"), EDGES)
def test_every_band_edge_and_the_cap(high: int, low: int, mov: int, win: int, lose: int) -> None:
    # the winner second at the table: the order of the players does not matter
    match = Match(1, ("a", "b"), scores=(low, high), second_player="b")
    outcome = score_match(ARMADA_2018, match)
    assert outcome is not None
    assert (outcome.winner, outcome.margin, outcome.tp, outcome.mov) == (
        "b",
        mov,
        (lose, win),
        (0, mov),
    )


def test_the_regulation_record_and_its_source() -> None:
    reg = get_regulation("armada-2018")
    assert (reg.fleet_cap, reg.squadron_cap, reg.bye_tp, reg.bye_mov) == (400, 134, 8, 140)
    assert (reg.mov_cap, reg.concession_mov, reg.round_minutes) == (400, 140, 135)
    assert reg.squadron_cap_advisory
    assert reg.defeat_win
    assert reg.status.startswith("[C]")
    assert "Cryodex" in " ".join(reg.sources)
    assert get_regulation("armada") is ARMADA_2015  # 2015 stays the default


def test_a_concession_gives_at_least_140_and_the_conceder_nothing() -> None:
    # 130 to 100: the game's MoV 30 is raised to 140 → 8 TP, the conceding player 0
    m = Match(1, ("a", "b"), scores=(130, 100), concession="b")
    got = score_match(ARMADA_2018, m)
    assert got is not None
    assert (got.winner, got.margin, got.tp) == ("a", 140, (8, 0))
    # 400 to 20: MoV 380 stands (over 140) → 10 TP
    m = Match(1, ("a", "b"), scores=(20, 400), concession="a")
    got = score_match(ARMADA_2018, m)
    assert got is not None
    assert (got.winner, got.margin, got.tp) == ("b", 380, (0, 10))
    # equal scores, b concedes: MoV 0 raised to 140
    m = Match(1, ("a", "b"), scores=(100, 100), concession="b")
    got = score_match(ARMADA_2018, m)
    assert got is not None
    assert (got.margin, got.tp) == (140, (8, 0))
    # the 2015 regulation has no floor: 30 → 6 TP, 0 for the conceding player
    got = score_match(ARMADA_2015, Match(1, ("a", "b"), scores=(130, 100), concession="b"))
    assert got is not None
    assert (got.margin, got.tp) == (30, (6, 0))
    with pytest.raises(ResultError, match="conceded with the higher score"):
        Match(1, ("a", "b"), scores=(130, 100), concession="a")


def test_one_player_defeated_wins_with_the_lower_score() -> None:
    # a keeps a ship: a wins 120 to 200; MoV max(0, 120 - 200) = 0 → 6 / 5
    m = Match(1, ("a", "b"), scores=(120, 200), defeated="b")
    got = score_match(ARMADA_2018, m)
    assert got is not None
    assert (got.winner, got.margin, got.tp, got.mov) == ("a", 0, (6, 5), (0, 0))
    # b defeated with 350 to 40 against: MoV 310 → 10 / 1
    got = score_match(ARMADA_2018, Match(1, ("a", "b"), scores=(350, 40), defeated="b"))
    assert got is not None
    assert (got.winner, got.margin, got.tp) == ("a", 310, (10, 1))
    with pytest.raises(ResultError, match="no 'One Player Defeated' win"):
        score_match(ARMADA_2015, Match(1, ("a", "b"), scores=(350, 40), defeated="b"))
    with pytest.raises(ResultError, match="not both"):
        Match(1, ("a", "b"), scores=(350, 40), defeated="b", concession="b")
    with pytest.raises(ResultError, match="not at this table"):
        Match(1, ("a", "b"), scores=(350, 40), defeated="c")


def _two_rounds() -> Event:
    players = tuple(Player(p, p.upper()) for p in "abcde")
    r1 = Round(
        "swiss",
        (
            Match(1, ("a", "b"), scores=(300, 100)),  # MoV 200: a 8, b 3
            Match(2, ("c", "d"), scores=(150, 100)),  # MoV 50: c 6, d 5
        ),
        (Bye("e"),),  # 8 TP, 140 MoV
    )
    r2 = Round(
        "swiss",
        (
            Match(1, ("a", "c"), scores=(200, 180)),  # MoV 20: a 6, c 5
            Match(2, ("e", "b"), scores=(100, 260)),  # MoV 160: b 8, e 3
        ),
        (Bye("d"),),
    )
    return Event("armada", "armada-2018", "E", 1, players, (r1, r2), swiss_rounds=3)


def test_the_bye_and_sos_over_two_rounds() -> None:
    rows = {s.player.id: s for s in standings(_two_rounds())}
    # TP: a 8 + 6 = 14, b 3 + 8 = 11, c 6 + 5 = 11, d 5 + 8 = 13, e 8 + 3 = 11
    assert {p: r.tp for p, r in rows.items()} == {"a": 14, "b": 11, "c": 11, "d": 13, "e": 11}
    # MoV: a 200 + 20, b 160, c 50, d 140 (the bye), e 140 (the bye)
    assert {p: r.mov for p, r in rows.items()} == {"a": 220, "b": 160, "c": 50, "d": 140, "e": 140}
    # SoS: a (11/2 + 11/2) / 2; b (14/2 + 11/2) / 2; c (13/2 + 14/2) / 2; d and e one
    # opponent each (the bye is not one): 11/2
    assert {p: r.sos for p, r in rows.items()} == {
        "a": Fraction(11, 2),
        "b": Fraction(25, 4),
        "c": Fraction(27, 4),
        "d": Fraction(11, 2),
        "e": Fraction(11, 2),
    }
    # ranks: a 14, d 13, then at 11 by MoV: b 160, e 140, c 50
    assert [s.player.id for s in standings(_two_rounds())] == ["a", "d", "b", "e", "c"]


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    event = _two_rounds().with_rounds(_two_rounds().rounds[:1])
    # after round 1: a 8 (MoV 200), e 8 (140), c 6, d 5, b 3 → b is last
    got = pair_swiss(event)
    assert [b.player for b in got.byes] == ["b"]
    assert "lowest rank" in got.byes[0].reason
    assert "rank 5" in got.byes[0].reason
    # a v e and c v d would rematch c and d (round 1): the two other pairings cross the
    # groups (8, 6, 5 TP: indexes 0, 1, 2) equally, 1 + 4 = 4 + 1, and one is drawn
    pairs = sorted(tuple(sorted(p.players)) for p in got.pairs)
    assert pairs in ([("a", "c"), ("d", "e")], [("a", "d"), ("c", "e")])
    # the audit knows the regulation: the round as paired is legal
    paired = event.with_rounds((*event.rounds, got.to_round()))
    assert audit(paired).legal


def test_check_reports_a_mov_over_the_cap_and_a_loser_over_the_table() -> None:
    players = tuple(Player(p, p.upper(), fleet_points=400, squadron_points=140) for p in "ab")
    r1 = Round("swiss", (Match(1, ("a", "b"), scores=(451, 50), tp=(10, 2)),))
    report = audit(Event("armada", "armada-2018", "E", 1, players, (r1,), swiss_rounds=3))
    rules = {(f.round, f.table, f.rule) for f in report.findings}
    assert rules == {(1, 1, "mov-cap"), (1, 1, "tp")}
    tp = next(f for f in report.findings if f.rule == "tp")
    assert "the loser's 2 TP are more than the table allows (1)" in tp.message
    # squadrons over 134 are only a warning (the cap is not confirmed)
    assert [w.rule for w in report.warnings] == ["squadron-points", "squadron-points"]
    assert "warnings" in report.to_json()


@pytest.mark.parametrize("seed", range(12))
def test_simulated_2018_events_are_legal_and_never_rematch(seed: int) -> None:
    from tabletop.tournament import simulate_event

    event = simulate_event("armada-2018", 5 + seed, seed, drop_rate=0.1)
    assert event.regulation_id == "armada-2018"
    report = audit(event)
    assert report.legal, report.findings
    met: set[frozenset[str]] = set()
    for round_ in event.rounds:
        for m in round_.matches:
            assert frozenset(m.players) not in met
            met.add(frozenset(m.players))
