"""The shared board-game machinery: the seeded stream, intervals, replay and simulation."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from tabletop.boards import (
    IllegalPlayError,
    InvalidPlayError,
    ReplayError,
    Rng,
    derive_seed,
    random_policy,
    replay,
    simulate,
    wilson_interval,
)
from tabletop.boards.game import _Nim, _NimState


def test_splitmix64_matches_the_reference_stream() -> None:
    # The first outputs of Vigna's splitmix64.c seeded with 1234567.
    rng = Rng(1234567)
    assert [rng.next_u64() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


def test_a_copy_continues_the_same_stream_independently() -> None:
    rng = Rng(3)
    rng.next_u64()
    twin = rng.copy()
    assert [rng.roll() for _ in range(20)] == [twin.roll() for _ in range(20)]


@pytest.mark.parametrize("bound", [1, 2, 3, 6, 7, 68, 2**63 + 1])
def test_below_stays_in_range(bound: int) -> None:
    rng = Rng(bound)
    assert all(0 <= rng.below(bound) < bound for _ in range(500))


def test_below_refuses_an_empty_range() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        Rng(0).below(0)


def test_dice_are_uniform() -> None:
    # 60,000 rolls: each face 10,000 expected; chi-square with 5 degrees of freedom has a
    # 0.1 % tail beyond 20.5.
    rng = Rng(11)
    counts = Counter(rng.roll() for _ in range(60_000))
    assert sorted(counts) == [1, 2, 3, 4, 5, 6]
    chi2 = sum((c - 10_000) ** 2 / 10_000 for c in counts.values())
    assert chi2 < 20.5


def test_shuffles_are_uniform_over_the_six_orders_of_three() -> None:
    rng = Rng(5)
    counts = Counter(tuple(rng.shuffled("abc")) for _ in range(30_000))
    assert len(counts) == 6
    chi2 = sum((c - 5_000) ** 2 / 5_000 for c in counts.values())
    assert chi2 < 20.5


def test_derived_seeds_differ_by_game_and_by_seed() -> None:
    seeds = {derive_seed(s, i) for s in range(10) for i in range(100)}
    assert len(seeds) == 1000


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        # Worked by hand from (p + z²/2n ± z√(p(1-p)/n + z²/4n²)) / (1 + z²/n), z = 1.96.
        (50, 100, 0.40383, 0.59617),
        (0, 10, 0.0, 0.27753),
        (10, 10, 0.72247, 1.0),
        (1, 1, 0.20654, 1.0),
        (30, 30, 0.88649, 1.0),
    ],
)
def test_wilson_intervals(wins: int, games: int, low: float, high: float) -> None:
    got = wilson_interval(wins, games)
    assert got[0] == pytest.approx(low, abs=1e-5)
    assert got[1] == pytest.approx(high, abs=1e-5)


@pytest.mark.parametrize("games", [1, 3, 30, 10_000])
def test_wilson_bounds_are_exact_at_none_and_all(games: int) -> None:
    assert wilson_interval(0, games)[0] == 0.0
    assert wilson_interval(games, games)[1] == 1.0


def test_wilson_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(3, 2)


def test_replay_names_the_first_bad_play_by_number() -> None:
    with pytest.raises(ReplayError) as caught:
        replay(_Nim(), _NimState(5), ["1", "1", "x", "3"])
    assert caught.value.number == 3
    assert caught.value.rule is None
    assert isinstance(caught.value.cause, InvalidPlayError)
    with pytest.raises(ReplayError) as caught:
        replay(_Nim(), _NimState(2), ["1", "2"])
    assert caught.value.number == 2
    assert caught.value.rule == "too-many"
    assert isinstance(caught.value.cause, IllegalPlayError)


def test_replay_leaves_the_start_untouched() -> None:
    start = _NimState(5)
    result = replay(_Nim(), start, ["2"])
    assert (start.stones, result.state.stones, result.plays) == (5, 3, 1)


def test_simulation_is_reproducible_and_counts_every_game() -> None:
    def run() -> tuple[dict[str, int], int]:
        result = simulate(
            _Nim(),
            lambda seed: _NimState(9),
            {"first": random_policy, "second": random_policy},
            games=300,
            seed=4,
        )
        return dict(result.wins), result.draws

    wins, draws = run()
    assert (wins, draws) == run()
    assert sum(wins.values()) + draws == 300


def test_simulation_reports_progress_and_lengths() -> None:
    seen: list[tuple[int, int]] = []
    result = simulate(
        _Nim(),
        lambda seed: _NimState(4),
        {"first": random_policy, "second": random_policy},
        games=5,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert seen == [(i, 5) for i in range(1, 6)]
    # Four stones take 2 to 4 takes.
    assert 2 <= result.lengths.shortest <= result.lengths.longest <= 4
    low, high = result.interval("first")
    assert 0.0 <= low <= result.rate("first") <= high <= 1.0
    assert not math.isnan(result.lengths.mean)
