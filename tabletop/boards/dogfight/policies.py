"""Policies that play Dogfight, and the simulation of many games from the standard setup.

:func:`greedy_policy` takes a kill when it can (fires whenever a shot is there, defends
whenever it can), else moves toward a shot: the move after which the moved fighter has
the most shots, then the one that ends nearest an enemy. :func:`simulate_dogfight` runs
the shared :func:`tabletop.boards.game.simulate` harness with the generator's plays executed
unchecked (they are legal by construction) and keeps the first game's plays as a log.

Examples
--------
>>> from tabletop.boards import random_policy
>>> result, log = simulate_dogfight(Dogfight(), {"rebels": greedy_policy,
...                                 "empire": random_policy}, games=2, seed=3)
>>> result.games, sum(result.wins.values()) + result.draws, len(log.plays) > 0
(2, 2, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tabletop.boards.dogfight.bitboards import KNIGHT, WITHIN, free_and_first
from tabletop.boards.dogfight.engine import Dogfight
from tabletop.boards.dogfight.judge import judge
from tabletop.boards.dogfight.plays import Advance, Defend, Discard, Fire, Move, Play, Tactics
from tabletop.boards.dogfight.position import DEFEND, FIRE, MOVE, Position
from tabletop.boards.game import Game, Outcome, Policy, SimulationResult, play_games, simulate
from tabletop.boards.rng import Rng

__all__ = ["GameLog", "TrustedDogfight", "dogfight_outcomes", "greedy_policy", "simulate_dogfight"]


class TrustedDogfight(Dogfight):
    """The engine for simulation: :meth:`push` trusts the plays it has just generated.

    The simulation harness pushes a play drawn from :meth:`legal_plays` of the very
    position it pushes to, so judging it again would only repeat the generator's work.
    This engine remembers the last list it generated, for which position object and at
    which ply; a play found in that list by identity (plays are interned) is executed
    at once, and any other play is judged first, as :meth:`Dogfight.push` does.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._generated: tuple[Position | None, int, list[Play]] = (None, -1, [])

    def legal_plays(self, state: Position) -> list[Play]:
        """Return every legal play of the current decision, and remember them."""
        plays = self.generate(state)
        self._generated = (state, state.plies, plays)
        return plays

    def generate(self, state: Position) -> list[Play]:
        """Return the legal plays (the bitboard generator; a benchmark may put another)."""
        return super().legal_plays(state)

    def push(self, state: Position, play: Play) -> None:
        """Execute `play`: at once when just generated for `state`, else after judging it.

        Raises
        ------
        IllegalPlayError
            For a play that was not just generated for `state` and breaks a rule.
        """
        known, plies, plays = self._generated
        if not (known is state and plies == state.plies and any(p is play for p in plays)):
            judge(self.tables, state, play)
        self.push_unchecked(state, play)


@dataclass(frozen=True, slots=True)
class GameLog:
    """One simulated game: the seed of its starting position and its plays' texts."""

    seed: int
    plays: tuple[str, ...]


def _shots(
    game: Dogfight, kind: int, square: int, occupied: int, enemy: int, hand: list[int]
) -> int:
    tables = game.tables
    blockers = occupied if tables.rules.shots_blocked_by_own else enemy
    first = -1
    count = 0
    for c in tables.attack_cards:
        if not hand[c] or not tables.playable[c][kind]:
            continue
        if tables.knight[c]:
            count += (KNIGHT[square] & enemy).bit_count()
            continue
        if first < 0:
            first = free_and_first(square, blockers)[1] & enemy
        count += (first & WITHIN[square][min(tables.values[c], 7)]).bit_count()
    return count


def _nearest(square: int, enemy: int) -> int:
    best = 8
    while enemy:
        low = enemy & -enemy
        sq = low.bit_length() - 1
        enemy ^= low
        best = min(best, max(abs(sq % 8 - square % 8), abs(sq // 8 - square // 8)))
    return best


def _best(scored: list[tuple[tuple[int, ...], Play]], rng: Rng) -> Play:
    top = max(score for score, _ in scored)
    return rng.choice([play for score, play in scored if score == top])


def greedy_policy(
    game: Game[Position, Play], state: Position, plays: Sequence[Play], rng: Rng
) -> Play:
    """Take a kill when possible, else move toward a shot (ties broken by `rng`).

    Raises
    ------
    TypeError
        When `game` is not a :class:`Dogfight` engine.
    """
    if not isinstance(game, Dogfight):
        raise TypeError("the greedy policy plays Dogfight only")
    phase = state.phase
    if phase == DEFEND:
        return next((p for p in plays if isinstance(p, Defend)), plays[-1])
    if phase == FIRE:
        fires = [p for p in plays if isinstance(p, Fire)]
        if fires:
            return rng.choice(fires)
        return next((p for p in plays if isinstance(p, Tactics)), plays[-1])
    if phase == MOVE:
        return _greedy_move(game, state, plays, rng)
    return _greedy_vector(game, state, plays, rng)


def _greedy_move(game: Dogfight, state: Position, plays: Sequence[Play], rng: Rng) -> Play:
    """Draw with Tactics when no attack card is held; keep a shot; else move toward one."""
    side = state.to_play
    hand = state.hands[side]
    enemy = state.occupied[1 - side]
    if any(p for p in plays if isinstance(p, Tactics)) and not any(
        hand[c] for c in game.tables.attack_cards
    ):
        return next(p for p in plays if isinstance(p, Tactics))
    occupied = state.occupied[0] | state.occupied[1]
    now = sum(
        _shots(game, state.board[sq], sq, occupied, enemy, hand) for sq in state.fighters(side)
    )
    if now or not any(isinstance(p, Move | Advance) for p in plays):
        return plays[-1]  # pass: keep the shot there is (or nothing to do)
    scored: list[tuple[tuple[int, ...], Play]] = []
    for play in plays:
        if isinstance(play, Move):
            after = occupied ^ (1 << play.origin) ^ (1 << play.target)
            kind = state.board[play.origin]
            shots = _shots(game, kind, play.target, after, enemy, hand)
            scored.append(((shots, -_nearest(play.target, enemy)), play))
    return _best(scored, rng) if scored else plays[-1]


def _greedy_vector(game: Dogfight, state: Position, plays: Sequence[Play], rng: Rng) -> Play:
    """Draw more with Tactics, else throw away the cards no own fighter can use."""
    tactics = next((p for p in plays if isinstance(p, Tactics)), None)
    if tactics is not None:
        return tactics
    kinds = {state.board[sq] for sq in state.fighters(state.to_play)}
    useless = {
        name
        for c, name in enumerate(game.tables.names)
        if not any(game.tables.playable[c][kind] for kind in kinds)
    }
    scored: list[tuple[tuple[int, ...], Play]] = [
        ((sum(name in useless for name in play.cards),), play)
        for play in plays
        if isinstance(play, Discard)
    ]
    return _best(scored, rng)


def simulate_dogfight(
    game: Dogfight,
    policies: Mapping[str, Policy[Position, Play]],
    *,
    games: int,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[SimulationResult, GameLog]:
    """Simulate `games` games from the standard setup; return the result and game 1's log.

    Game ``i`` starts from ``game.standard(derive_seed(seed, i) >> 11)``: the harness's
    seed cut to 53 bits, so that a log's seed is exact in TOML and in any JSON reader.
    """
    trusted = _trusted(game)
    seeds: list[int] = []
    plays: list[Play] = []
    first: list[GameLog] = []

    def start(game_seed: int) -> Position:
        # 53 bits: a seed a log can carry exactly in TOML and in JSON read by JavaScript.
        seeds.append(game_seed >> 11)
        return trusted.standard(game_seed >> 11)

    def recording(policy: Policy[Position, Play]) -> Policy[Position, Play]:
        def chosen(
            g: Game[Position, Play], state: Position, legal: Sequence[Play], rng: Rng
        ) -> Play:
            play = policy(g, state, legal, rng)
            if not first:
                plays.append(play)
            return play

        chosen.__name__ = getattr(policy, "__name__", "policy")
        return chosen

    def done(count: int, total: int) -> None:
        if not first:
            first.append(GameLog(seeds[0], tuple(str(p) for p in plays)))
        if progress is not None:
            progress(count, total)

    result = simulate(
        trusted,
        start,
        {side: recording(policy) for side, policy in policies.items()},
        games=games,
        seed=seed,
        progress=done,
    )
    return result, first[0] if first else GameLog(0, ())


def dogfight_outcomes(
    game: Dogfight,
    policies: Mapping[str, Policy[Position, Play]],
    *,
    seed: int,
    indices: range,
) -> list[Outcome]:
    """Return the outcomes of the games numbered `indices` of :func:`simulate_dogfight`.

    Game ``i`` is the same game whichever slice plays it, so slices played apart (in
    other processes, on other machines) sum with :func:`tabletop.boards.game.summarise`
    to the result of one :func:`simulate_dogfight` of the same seed.

    Examples
    --------
    >>> from tabletop.boards import random_policy, summarise
    >>> policies = {"rebels": random_policy, "empire": random_policy}
    >>> whole, _ = simulate_dogfight(Dogfight(), policies, games=4, seed=3)
    >>> parts = [*dogfight_outcomes(Dogfight(), policies, seed=3, indices=range(0, 1)),
    ...          *dogfight_outcomes(Dogfight(), policies, seed=3, indices=range(1, 4))]
    >>> summarise(parts, policies, 3, whole.policies) == whole
    True
    """
    trusted = _trusted(game)
    return play_games(
        trusted,
        lambda game_seed: trusted.standard(game_seed >> 11),
        policies,
        seed=seed,
        indices=indices,
    )


def _trusted(game: Dogfight) -> TrustedDogfight:
    return game if isinstance(game, TrustedDogfight) else TrustedDogfight(game.rules)
