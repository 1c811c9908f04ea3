"""Pairing: the seed's worked examples, the bye rules, a round where greedy rematches."""

from __future__ import annotations

from tabletop.tournament import (
    Event,
    Player,
    SwissState,
    pair_swiss,
    plain_max_weight_perfect_matching,
    simulate_event,
)


def state(
    round_number: int,
    table: list[tuple[str, int, int]],
    met: dict[tuple[str, str], int],
    had_bye: tuple[str, ...] = (),
) -> SwissState:
    """A state from a standings table [(id, tp, mov)] already in rank order."""
    return SwissState(
        round_number,
        tuple(p for p, _, _ in table),
        {p: k for k, (p, _, _) in enumerate(table, 1)},
        {p: tp for p, tp, _ in table},
        {p: mov for p, _, mov in table},
        {frozenset(pair): r for pair, r in met.items()},
        frozenset(had_bye),
        frozenset(p for p, _, _ in table),
    )


def armada_event(ids: list[str], **factions: str) -> Event:
    players = tuple(Player(p, p.title(), faction=factions.get(p)) for p in ids)
    return Event("armada", "armada-2015", "E", 7, players)


def pairs_of(event: Event, s: SwissState) -> list[tuple[str, str]]:
    return [p.players for p in pair_swiss(event, state=s).pairs]


def test_the_seed_pairing_example_first_step() -> None:
    # Michele, Carlo, Silvia at 24 TP (MoV 438, 375, 372); Giacomo tops the 22s.
    ids = ["michele", "carlo", "silvia", "giacomo", "helena", "ivo"]
    table = [
        ("michele", 24, 438),
        ("carlo", 24, 375),
        ("silvia", 24, 372),
        ("giacomo", 22, 300),
        ("helena", 22, 250),
        ("ivo", 20, 100),
    ]
    got = pair_swiss(armada_event(ids), state=state(3, table, {}))
    assert [p.players for p in got.pairs] == [
        ("michele", "carlo"),
        ("silvia", "giacomo"),
        ("helena", "ivo"),
    ]
    assert got.pairs[1].explanation.endswith("(float from 24 TP to 22 TP)")


def test_the_seed_pairing_example_second_step() -> None:
    # Michele won (30), Carlo 28; Andrea (Giacomo) beat Silvia: Silvia, Andrea, Carlo at 28.
    # Xavier, also at 30, takes the leader's place (the seed leaves that player out).
    ids = ["michele", "xavier", "andrea", "carlo", "silvia", "helena", "ivo", "jo"]
    met = {("michele", "carlo"): 3, ("silvia", "andrea"): 3, ("helena", "ivo"): 3}
    for andrea_mov in (405, 374):  # Andrea above Carlo, or between Carlo and Silvia
        table = [("michele", 30, 471), ("xavier", 30, 300)]
        rest = [("andrea", 28, andrea_mov), ("carlo", 28, 375), ("silvia", 28, 372)]
        rest.sort(key=lambda row: -row[2])
        table += [*rest, ("helena", 26, 200), ("ivo", 24, 100), ("jo", 20, 50)]
        got = pairs_of(armada_event(ids), state(4, table, met))
        assert {frozenset(p) for p in got} == {
            frozenset(p)
            for p in [
                ("michele", "xavier"),
                ("andrea", "carlo"),
                ("silvia", "helena"),
                ("ivo", "jo"),
            ]
        }


def greedy(ranked: list[str], met: set[frozenset[str]]) -> list[tuple[str, str]]:
    """The plain pairer: each top player meets the highest one below not met, no look-ahead."""
    left, pairs = list(ranked), []
    while len(left) > 1:
        a = left.pop(0)
        b = next((x for x in left if frozenset((a, x)) not in met), left[0])
        left.remove(b)
        pairs.append((a, b))
    return pairs


def test_a_four_player_round_three_where_greedy_would_rematch() -> None:
    # R1: A-B, C-D; R2: A-C, B-E (E has dropped), D bye. Only A-D and B-C are legal.
    met = {("A", "B"): 1, ("C", "D"): 1, ("A", "C"): 2, ("B", "E"): 2}
    table = [("B", 2, 0), ("D", 1, 0), ("A", 1, 0), ("C", 1, 0)]
    s = state(3, table, met)
    assert greedy(["B", "D", "A", "C"], set(s.met)) == [("B", "D"), ("A", "C")]  # a rematch
    got = pair_swiss(armada_event(["A", "B", "C", "D"]), state=s)
    assert [p.players for p in got.pairs] == [("B", "C"), ("D", "A")]
    assert not any(p.rematch for p in got.pairs)
    assert got.warnings == ()
    assert got.pairs[0].explanation.startswith(
        "rank 1 v rank 4: rank 2 would force a rematch elsewhere"
    )


def test_an_unavoidable_rematch_is_the_fewest_and_is_warned() -> None:
    # four players who have all met: one rematch per table is unavoidable
    met = dict.fromkeys([("A", "B"), ("C", "D"), ("A", "C"), ("B", "D"), ("A", "D"), ("B", "C")], 1)
    table = [("A", 3, 0), ("B", 2, 0), ("C", 1, 0), ("D", 0, 0)]
    got = pair_swiss(armada_event(["A", "B", "C", "D"]), state=state(4, table, met))
    assert [p.players for p in got.pairs] == [("A", "B"), ("C", "D")]
    assert all(p.rematch for p in got.pairs)
    assert len(got.warnings) == 2
    assert "unavoidable rematch at table 1: A v B" in got.warnings[0]


def test_the_bye_goes_to_the_lowest_player_who_can_take_it() -> None:
    table = [("A", 10, 300), ("B", 8, 200), ("C", 5, 100), ("D", 4, 90), ("E", 4, 50)]
    got = pair_swiss(armada_event(list("ABCDE")), state=state(2, table, {}))
    assert [b.player for b in got.byes] == ["E"]  # lowest TP, then lowest MoV
    # E has had a bye: D, the next in the order, gets it
    got = pair_swiss(armada_event(list("ABCDE")), state=state(2, table, {}, had_bye=("E",)))
    assert [b.player for b in got.byes] == ["D"]
    # D and E have met A, B and C, so giving the bye to D or E leaves a forced rematch;
    # C is the lowest for whom the rest pair legally
    met = {(x, y): 1 for x in "DE" for y in "ABC"}
    got = pair_swiss(armada_event(list("ABCDE")), state=state(2, table, met))
    assert [b.player for b in got.byes] == ["C"]
    assert "would leave the rest unpairable" in got.byes[0].reason


def test_mirror_matches_are_told_to_assign_id_tokens() -> None:
    event = armada_event(["A", "B"], A="imperial", B="imperial")
    got = pair_swiss(event, state=state(2, [("A", 6, 0), ("B", 4, 0)], {}))
    assert got.pairs[0].mirror
    assert "assign ID tokens, white and black" in got.pairs[0].explanation


def test_destiny_pairs_within_groups_and_floats_the_odd_one_out() -> None:
    # Ivan, Svetlana and Evgeny at 5 TP; the others have 4: one of the three floats down.
    ids = ["ivan", "svetlana", "evgeny", "kirill", "lena", "max"]
    players = tuple(Player(p, p) for p in ids)
    event = Event("destiny", "destiny", "E", 3, players)
    table = [
        ("ivan", 5, 0),
        ("svetlana", 5, 0),
        ("evgeny", 5, 0),
        ("kirill", 4, 0),
        ("lena", 4, 0),
        ("max", 4, 0),
    ]
    got = pair_swiss(event, state=state(6, table, {}))
    floats = [p for p in got.pairs if p.tp[0] != p.tp[1]]
    assert len(floats) == 1
    assert floats[0].tp == (5, 4)
    assert floats[0].explanation.startswith("float: the 5-TP group has an odd one out")
    assert pair_swiss(event, state=state(6, table, {})) == got  # seeded


def test_the_plain_matcher_gives_the_same_pairings() -> None:
    for seed in range(20):
        event = simulate_event("armada", 4 + seed % 9, seed, rounds=2)
        compiled = pair_swiss(event)
        plain = pair_swiss(event, matcher=plain_max_weight_perfect_matching)
        assert plain == compiled


def test_first_round_byes_and_round_one_clubs() -> None:
    players = tuple(
        Player(f"p{k}", f"P{k}", club="torino" if k < 4 else "milano", first_round_bye=k == 0)
        for k in range(8)
    )
    event = Event("armada", "armada-2015", "E", 9, players, tier="informal", swiss_rounds=3)
    got = pair_swiss(event)
    assert next(b.player for b in got.byes) == "p0"
    clubs = {p.id: p.club for p in players}
    # 3 torino and 4 milano players left, one of whom has the bye: no club-mates meet
    assert len(got.byes) == 2
    same = sum(clubs[a] == clubs[b] for a, b in (p.players for p in got.pairs))
    assert same == 0
