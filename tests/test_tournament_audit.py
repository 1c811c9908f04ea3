"""The audit finds planted faults and names round and table; it finds nothing in our own events."""

from __future__ import annotations

from tabletop.tournament import Bye, Event, Match, Player, Round, audit, simulate_event


def four_rounds() -> tuple[Player, ...]:
    return tuple(Player(p, p) for p in "ABCDEF")


def test_an_avoidable_rematch_is_found_with_round_and_table() -> None:
    players = four_rounds()
    r1 = Round(
        "swiss",
        (
            Match(1, ("A", "B"), winner="A"),
            Match(2, ("C", "D"), winner="C"),
            Match(3, ("E", "F"), winner="E"),
        ),
    )
    r2 = Round(
        "swiss",
        (
            Match(1, ("A", "B"), winner="A"),
            Match(2, ("C", "E"), winner="C"),
            Match(3, ("D", "F"), winner="D"),
        ),
    )
    event = Event(
        "destiny", "destiny", "E", 1, players, (r1, r2), structure="custom", swiss_rounds=3
    )
    findings = [(f.round, f.table, f.rule) for f in audit(event).findings]
    assert (2, 1, "avoidable-rematch") in findings


def test_a_wrong_tp_is_found() -> None:
    players = four_rounds()[:2]
    r1 = Round("swiss", (Match(1, ("A", "B"), scores=(138, 105), tp=(7, 3)),))
    event = Event("armada", "armada-2015", "E", 1, players, (r1,))
    (finding,) = audit(event).findings
    assert (finding.round, finding.table, finding.rule) == (1, 1, "tp")
    assert "gives [6, 4]" in finding.message


def test_a_bye_to_the_wrong_player_is_found() -> None:
    players = tuple(Player(p, p) for p in "ABCDE")
    r1 = Round(
        "swiss",
        (Match(1, ("A", "B"), scores=(200, 100)), Match(2, ("C", "D"), scores=(150, 100))),
        (Bye("E"),),
    )
    # after round 1: E 9, A 8, C 6, D 4, B 2: the bye goes to B (lowest TP), not to A
    r2 = Round(
        "swiss",
        (Match(1, ("E", "C"), scores=(1, 0)), Match(2, ("D", "B"), scores=(1, 0))),
        (Bye("A"),),
    )
    event = Event("armada", "armada-2015", "E", 1, players, (r1, r2))
    rules = {(f.round, f.rule): f.message for f in audit(event).findings}
    assert "bye to" not in rules.get((2, "bye-order"), "bye to")
    assert "the bye went to A" in rules[(2, "bye-order")]
    assert "goes to B" in rules[(2, "bye-order")]


def test_a_result_for_a_dropped_player_is_found() -> None:
    players = (*four_rounds()[:3], Player("D", "D", dropped_after=1))
    r1 = Round("swiss", (Match(1, ("A", "B"), winner="A"), Match(2, ("C", "D"), winner="C")))
    r2 = Round("swiss", (Match(1, ("A", "C"), winner="A"), Match(2, ("B", "D"), winner="B")))
    event = Event(
        "destiny", "destiny", "E", 1, players, (r1, r2), structure="custom", swiss_rounds=3
    )
    findings = {(f.round, f.table, f.rule) for f in audit(event).findings}
    assert (2, 2, "dropped-result") in findings


def test_fleets_over_the_cap_are_named() -> None:
    players = (
        Player("A", "A", fleet_points=301, squadron_points=100),
        Player("B", "B", fleet_points=300, squadron_points=101),
    )
    rules = [
        (f.rule, f.message.split(":")[0])
        for f in audit(Event("armada", "armada-2015", "E", 1, players)).findings
    ]
    assert rules == [("fleet-points", "A"), ("squadron-points", "B")]


def test_a_wrong_playoff_seeding_is_found() -> None:
    event = simulate_event("destiny", 8, 4, structure="custom", swiss_rounds=2, cut=4, rounds=3)
    playoff = event.rounds[2]
    (m1, m2) = playoff.matches
    swapped = (
        Match(1, (m1.players[0], m2.players[1])),
        Match(2, (m2.players[0], m1.players[1])),
    )
    bad = event.with_rounds((*event.rounds[:2], Round("playoff", swapped)))
    assert {(f.round, f.table, f.rule) for f in audit(bad).findings} >= {
        (3, 1, "cut"),
        (3, 2, "cut"),
    }


def test_our_own_events_are_clean() -> None:
    for seed in range(6):
        assert audit(simulate_event("armada", 13, seed, drop_rate=0.1, cut=4)).legal
        assert audit(
            simulate_event("destiny", 24, seed, drop_rate=0.05, structure="advanced")
        ).legal
