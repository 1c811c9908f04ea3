"""Standings: SoS and extended SoS to exact fractions on hand-worked events."""

from __future__ import annotations

from fractions import Fraction as F

from tabletop.tournament import Bye, Event, Match, Player, Round, standings


def destiny_event() -> Event:
    """Five players, byes in rounds 1 and 2, D dropped after round 2 (worked by hand)."""
    players = tuple(
        Player(p, p, dropped_after=2 if p == "D" else None) for p in ("A", "B", "C", "D", "E")
    )
    r1 = Round(
        "swiss", (Match(1, ("A", "B"), winner="A"), Match(2, ("C", "D"), winner="C")), (Bye("E"),)
    )
    r2 = Round(
        "swiss", (Match(1, ("A", "C"), winner="A"), Match(2, ("E", "B"), winner="E")), (Bye("D"),)
    )
    r3 = Round("swiss", (Match(1, ("E", "A"), winner="E"), Match(2, ("B", "C"), winner="B")))
    return Event("destiny", "destiny", "Hand", 1, players, (r1, r2, r3))


def test_destiny_sos_and_esos_are_exact() -> None:
    # TP/rounds played: A 2/3, B 1/3, C 1/3, D 1/2 (a bye is a round played), E 3/3.
    # SoS(A) = (1/3 + 1/3 + 1)/3 = 5/9; SoS(B) = (2/3 + 1 + 1/3)/3 = 2/3;
    # SoS(C) = (1/2 + 2/3 + 1/3)/3 = 1/2; SoS(D) = 1/3; SoS(E) = (1/3 + 2/3)/2 = 1/2.
    # ESoS: A (2/3 + 1/2 + 1/2)/3 = 5/9; B (5/9 + 1/2 + 1/2)/3 = 14/27;
    # C (1/3 + 5/9 + 2/3)/3 = 14/27; D 1/2; E (2/3 + 5/9)/2 = 11/18.
    rows = {s.player.id: s for s in standings(destiny_event())}
    assert {p: rows[p].sos for p in rows} == {
        "A": F(5, 9),
        "B": F(2, 3),
        "C": F(1, 2),
        "D": F(1, 3),
        "E": F(1, 2),
    }
    assert {p: rows[p].esos for p in rows} == {
        "A": F(5, 9),
        "B": F(14, 27),
        "C": F(14, 27),
        "D": F(1, 2),
        "E": F(11, 18),
    }
    assert [(s.player.id, s.tp) for s in standings(destiny_event())] == [
        ("E", 3),
        ("A", 2),
        ("B", 1),
        ("C", 1),
        ("D", 1),
    ]
    assert rows["D"].dropped
    assert not rows["A"].dropped
    assert (rows["E"].wins, rows["E"].byes, rows["E"].rounds_played) == (2, 1, 3)
    assert rows["D"].opponents == ("C",)


def test_standings_as_of_an_earlier_round() -> None:
    rows = {s.player.id: s for s in standings(destiny_event(), 1)}
    assert (rows["E"].tp, rows["E"].sos) == (1, F(0))  # a bye is not an opponent
    assert rows["B"].sos == F(1)  # A: 1 TP in 1 round


def test_armada_mov_and_sos_with_byes() -> None:
    # R1: P 200-100 Q (MoV 100: 8/2); R 150-150 S, S second (5/5, MoV 0); T bye (9, 150).
    # R2: T 180-60 P (MoV 120: 8/2); Q 100-79 R (MoV 21: 6/4); S bye.
    players = tuple(Player(p, p) for p in "PQRST")
    r1 = Round(
        "swiss",
        (
            Match(1, ("P", "Q"), scores=(200, 100)),
            Match(2, ("R", "S"), scores=(150, 150), second_player="S"),
        ),
        (Bye("T"),),
    )
    r2 = Round(
        "swiss",
        (Match(1, ("T", "P"), scores=(180, 60)), Match(2, ("Q", "R"), scores=(100, 79))),
        (Bye("S"),),
    )
    rows = standings(Event("armada", "armada-2015", "Hand", 1, players, (r1, r2)))
    got = [(s.player.id, s.tp, s.mov, int(s.sos), s.wins, s.losses, s.byes) for s in rows]
    assert got == [
        ("T", 17, 270, 10, 1, 0, 1),
        ("S", 14, 150, 9, 1, 0, 1),
        ("P", 10, 100, 25, 1, 1, 0),
        ("R", 9, 0, 22, 0, 2, 0),
        ("Q", 8, 21, 19, 1, 1, 0),
    ]


def test_armada_ties_go_to_mov_then_sos() -> None:
    # A and B both win 6-4 (MoV 30); A's opponent C then wins again (more SoS for A).
    players = tuple(Player(p, p) for p in "ABCDEF")
    r1 = Round(
        "swiss",
        (
            Match(1, ("A", "C"), scores=(130, 100)),
            Match(2, ("B", "D"), scores=(130, 100)),
            Match(3, ("E", "F"), scores=(131, 100)),
        ),
    )
    r2 = Round(
        "swiss",
        (
            Match(1, ("E", "A"), scores=(100, 100), second_player="A"),
            Match(2, ("B", "F"), scores=(100, 100), second_player="B"),
            Match(3, ("C", "D"), scores=(100, 100), second_player="C"),
        ),
    )
    rows = {
        s.player.id: s
        for s in standings(Event("armada", "armada-2015", "Hand", 1, players, (r1, r2)))
    }
    # A: 6 + 5 = 11, MoV 30, SoS C (4+5) + E (6+5) = 20; B: 11, MoV 30, SoS D 9 + F 9 = 18
    assert (rows["A"].tp, rows["A"].mov, rows["A"].sos) == (11, 30, F(20))
    assert (rows["B"].tp, rows["B"].mov, rows["B"].sos) == (11, 30, F(18))
    assert rows["A"].rank < rows["B"].rank
    # E: 6 + 5 = 11, MoV 31 beats both on MoV
    assert rows["E"].rank == 1


def test_a_returning_player_takes_a_loss_for_each_round_missed() -> None:
    players = (
        Player("A", "A", dropped_after=1, returned_for=3),
        Player("B", "B"),
        Player("C", "C"),
        Player("D", "D"),
    )
    r1 = Round("swiss", (Match(1, ("A", "B"), winner="A"), Match(2, ("C", "D"), winner="C")))
    r2 = Round("swiss", (Match(1, ("B", "C"), winner="B"),), (Bye("D"),))
    rows = {
        s.player.id: s for s in standings(Event("destiny", "destiny", "E", 1, players, (r1, r2)))
    }
    assert (rows["A"].tp, rows["A"].wins, rows["A"].losses, rows["A"].rounds_played) == (1, 1, 1, 1)
    assert not rows["A"].dropped  # back for round 3
    # B's SoS: A 1 TP in 1 round played, C 1 TP in 2 -> (1 + 1/2) / 2 = 3/4
    assert rows["B"].sos == F(3, 4)
