"""Properties over simulated events, each decided independently of the pairing's weights.

Never an avoidable rematch (the fewest rematches possible is found by a maximum matching
on the graph of pairs that have not met), never an avoidable second bye, the bye to the
lowest eligible player in the regulation's order, and the audit finds nothing in events
the project paired itself.
"""

from __future__ import annotations

import random
from typing import Any

import rustworkx
from hypothesis import given
from hypothesis import strategies as st

from tabletop.tournament import Event, Round, SwissState, audit, simulate_event, swiss_state
from tabletop.tournament.matching import plain_max_weight_perfect_matching

#: Each game's format that takes any number of Swiss rounds, as simulations need.
OPEN_FORMAT: dict[str, dict[str, Any]] = {
    "armada": {"tier": "informal"},
    "destiny": {"structure": "custom"},
}


def largest_legal_matching(players: list[str], met: set[frozenset[str]]) -> int:
    """Pairs in a maximum matching of the non-rematch graph (cardinality only)."""
    graph = rustworkx.PyGraph()
    graph.add_nodes_from(players)
    for i, a in enumerate(players):
        for j in range(i + 1, len(players)):
            if frozenset((a, players[j])) not in met:
                graph.add_edge(i, j, 1)
    return len(rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w))


def fewest_rematches(players: list[str], met: set[frozenset[str]]) -> int:
    """Rematches a pairing of an even field cannot avoid."""
    return len(players) // 2 - largest_legal_matching(players, met)


def check_event(event: Event) -> int:
    """Assert the pairing properties of every Swiss round; return the rounds checked."""
    checked = 0
    for number, round_ in enumerate(event.rounds, 1):
        if round_.kind == "swiss":
            check_swiss_round(event, number, round_)
            checked += 1
    return checked


def check_swiss_round(event: Event, number: int, round_: Round) -> None:
    """The round seats the active players, with the fewest rematches, and a fair bye."""
    state = swiss_state(event.with_rounds(event.rounds[: number - 1]), number)
    met = set(state.met)
    earned = {
        b.player for b in round_.byes if number == 1 and event.player(b.player).first_round_bye
    }
    pool = [p for p in state.ranked if p in state.active and p not in earned]
    assert sorted(pool) == sorted(p for p in round_.seated() if p not in earned)
    rematches = sum(frozenset(m.players) in met for m in round_.matches)
    byes = [b.player for b in round_.byes if b.player not in earned]
    if len(pool) % 2 == 0:
        assert byes == []
        assert rematches == fewest_rematches(pool, met)
        return
    (bye,) = byes
    check_bye(event, number, state, pool, met, bye, rematches)


def check_bye(
    event: Event,
    number: int,
    state: SwissState,
    pool: list[str],
    met: set[frozenset[str]],
    bye: str,
    rematches: int,
) -> None:
    """The bye leaves the fewest rematches, to a first-timer, lowest by the bye order."""
    cost = {p: fewest_rematches([q for q in pool if q != p], met) for p in pool}
    best = min(cost.values())
    assert rematches == best == cost[bye]
    first_time = [p for p in pool if cost[p] == best and p not in state.had_bye]
    if first_time:
        assert bye not in state.had_bye
    if number > 1:
        # The bye goes to the lowest by the regulation's bye order among those eligible.
        eligible = first_time or [p for p in pool if cost[p] == best]
        order = event.regulation.bye_order
        keys = [
            tuple(state.tp[p] if k == "tp" else state.mov[p] for k in order)
            for p in [bye, *eligible]
        ]
        assert keys[0] == min(keys[1:])


def test_the_independent_check_agrees_with_the_plain_matcher() -> None:
    rng = random.Random(4)
    for _ in range(40):
        players = [f"p{k}" for k in range(2 * rng.randrange(1, 7))]
        met = {frozenset(rng.sample(players, 2)) for _ in range(rng.randrange(0, 12))}
        edges = [
            (i, j, int(frozenset((a, b)) not in met))
            for i, a in enumerate(players)
            for j, b in enumerate(players)
            if i < j
        ]
        plain = plain_max_weight_perfect_matching(len(players), edges)
        legal = sum(int(frozenset((players[i], players[j])) not in met) for i, j in plain)
        assert largest_legal_matching(players, met) >= legal
        assert fewest_rematches(players, met) == len(players) // 2 - legal


def test_thousands_of_small_simulated_events() -> None:
    rng = random.Random(2026)
    rounds = events = 0
    for seed in range(2000):
        game = "armada" if seed % 2 else "destiny"
        players = rng.choice([4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 20, 24])
        options: dict[str, Any] = OPEN_FORMAT[game]
        event = simulate_event(
            game,
            players,
            seed,
            drop_rate=rng.choice([0.0, 0.0, 0.1]),
            swiss_rounds=min(players - 1, rng.choice([3, 4, 5, 6])),
            **options,
        )
        rounds += check_event(event)
        events += 1
        if seed % 10 == 0:
            assert audit(event).findings == ()
    assert events == 2000
    assert rounds > 7000


@given(
    game=st.sampled_from(["armada", "destiny"]),
    players=st.integers(4, 64),
    seed=st.integers(0, 10**6),
    drop_rate=st.sampled_from([0.0, 0.05, 0.2]),
    swiss_rounds=st.integers(1, 7),
)
def test_simulated_events_up_to_64_players(
    game: str, players: int, seed: int, drop_rate: float, swiss_rounds: int
) -> None:
    options: dict[str, Any] = OPEN_FORMAT[game]
    event = simulate_event(
        game,
        players,
        seed,
        drop_rate=drop_rate,
        swiss_rounds=min(swiss_rounds, players - 1),
        **options,
    )
    check_event(event)
    assert audit(event).findings == ()
