"""What every board game offers the shared machinery: plays, replay and simulation.

A game is a rules object (its rules record is data, each ruling a named option) that
implements :class:`Game`. Positions are mutable for speed, with an explicit ``copy()``;
plays are small immutable values with a canonical text. On top of that protocol this
module replays logs (stopping at the first bad play, by number) and simulates many games
with seeded policies.

Examples
--------
A toy game of Nim shows the protocol: take 1 or 2 stones, who takes the last wins.

>>> nim = _Nim()
>>> final = replay(nim, _NimState(5), ["2", "2", "1"])
>>> final.state.stones, final.plays, nim.outcome(final.state)
(0, 3, Outcome(winner='first', length=3))
>>> replay(nim, _NimState(5), ["2", "3"])
Traceback (most recent call last):
...
tabletop.boards.errors.ReplayError: play 2 '3': take 1 or 2 (rule: take-one-or-two)
>>> result = simulate(nim, lambda seed: _NimState(7), {"first": random_policy,
...                   "second": random_policy}, games=200, seed=1)
>>> result.games, sum(result.wins.values()) + result.draws
(200, 200)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol, Self, TypeVar

from tabletop.boards.errors import IllegalPlayError, InvalidPlayError, ReplayError
from tabletop.boards.rng import Rng, derive_seed
from tabletop.boards.stats import Z_95, LengthSummary, wilson_interval

__all__ = [
    "Game",
    "GameState",
    "Outcome",
    "Policy",
    "ReplayResult",
    "SimulationResult",
    "answer",
    "play_games",
    "random_policy",
    "replay",
    "simulate",
    "summarise",
]


class GameState(Protocol):
    """A mutable position with an explicit copy."""

    def copy(self) -> Self:
        """Return an independent copy."""
        ...


S = TypeVar("S", bound=GameState)
P = TypeVar("P", bound=Hashable)
# The protocol only takes positions, never returns them: a game for a wider position type
# serves a narrower one.
S_contra = TypeVar("S_contra", bound=GameState, contravariant=True)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winning side (None for a draw) and its length."""

    winner: str | None
    length: int


class Game(Protocol[S_contra, P]):
    """The rules of one board game, as the shared machinery sees them."""

    #: The unit :meth:`outcome` lengths count in ("turns", "rounds"), for reports.
    length_unit: str

    def parse_play(self, text: str) -> P:
        """Read a play's text; raise :class:`InvalidPlayError` when it cannot be read."""
        ...

    def play_text(self, play: P) -> str:
        """Return the play's canonical text."""
        ...

    def side_to_play(self, state: S_contra) -> str | None:
        """Return the side deciding now (None when the game is over)."""
        ...

    def legal_plays(self, state: S_contra) -> Sequence[P]:
        """Return every legal play of the current decision (empty when over)."""
        ...

    def push(self, state: S_contra, play: P) -> None:
        """Apply a legal play to `state` in place; raise :class:`IllegalPlayError` if not."""
        ...

    def outcome(self, state: S_contra) -> Outcome | None:
        """Return how the game ended, or None while it goes on."""
        ...


#: Chooses one of the legal plays of a position; the stream is the simulation's.
Policy = Callable[[Game[S, P], S, Sequence[P], Rng], P]


def random_policy(game: Game[S, P], state: S, plays: Sequence[P], rng: Rng) -> P:
    """Choose uniformly among the legal plays."""
    return rng.choice(plays)


@dataclass(frozen=True, slots=True)
class ReplayResult(Generic[S]):
    """The position after a replayed log, and how many plays were applied."""

    state: S
    plays: int


def replay(game: Game[S, P], start: S, texts: Sequence[str]) -> ReplayResult[S]:
    """Apply `texts` in order to a copy of `start`, validating each play.

    Raises
    ------
    ReplayError
        For the first play that cannot be read or is illegal, with its number from 1.
    """
    state = start.copy()
    for number, text in enumerate(texts, start=1):
        try:
            game.push(state, game.parse_play(text))
        except (InvalidPlayError, IllegalPlayError) as error:
            raise ReplayError(number, error) from None
    return ReplayResult(state, len(texts))


def answer(
    game: Game[S, P],
    state: S,
    policy: Policy[S, P],
    rng: Rng,
    side: str,
    *,
    stop: Callable[[S], bool] | None = None,
    max_plays: int = 10_000,
) -> list[P]:
    """Play `policy` in place on `state` for every side but `side`, until `side` decides.

    The engine's answer to a player at the table: it plays while the game goes on and
    another side decides, and stops when `side` decides again, the game is over, or
    ``stop(state)`` says a decision is not the engine's to make (a real card drawn).

    Returns
    -------
    list
        The plays made, in order.

    Raises
    ------
    RuntimeError
        When the answer passes `max_plays` plays (a guard: every game ends).

    Examples
    --------
    >>> nim, state = _Nim(), _NimState(4, first_to_play=False)
    >>> answer(nim, state, random_policy, Rng(1), "first"), state.stones
    ([2], 2)
    """
    made: list[P] = []
    for _ in range(max_plays):
        deciding = game.side_to_play(state)
        if deciding is None or deciding == side or (stop is not None and stop(state)):
            return made
        play = policy(game, state, game.legal_plays(state), rng)
        game.push(state, play)
        made.append(play)
    raise RuntimeError(f"an answer went past {max_plays} plays")


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """Win counts and rates, with 95 % Wilson intervals, and game lengths."""

    games: int
    wins: Mapping[str, int]
    draws: int
    lengths: LengthSummary
    seed: int
    policies: Mapping[str, str] = field(default_factory=dict)

    def rate(self, side: str) -> float:
        """Return the share of games `side` won (0 with no games)."""
        return self.wins.get(side, 0) / self.games if self.games else 0.0

    def interval(self, side: str, z: float = Z_95) -> tuple[float, float]:
        """Return the Wilson interval of `side`'s win rate."""
        return wilson_interval(self.wins.get(side, 0), self.games, z)


def simulate(
    game: Game[S, P],
    start: Callable[[int], S],
    policies: Mapping[str, Policy[S, P]],
    *,
    games: int,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    max_plays: int = 1_000_000,
) -> SimulationResult:
    """Play `games` games, each from ``start(game_seed)``, every side by its policy.

    Game ``i`` uses the seed ``derive_seed(seed, i)`` for its position and for its
    policies' stream, so any one game can be reproduced alone, and the games can be
    shared out in slices (:func:`play_games`) and summed (:func:`summarise`) to the
    same result.

    Parameters
    ----------
    start : callable
        Makes the starting position from a game's seed.
    policies : mapping
        Side name to the policy that plays it.
    progress : callable, optional
        Called as ``progress(done, games)`` after each game.
    max_plays : int
        A bound on one game's plays, as a guard: a game that passes it is an error in
        the game's rules (every game of this project ends).

    Raises
    ------
    RuntimeError
        When a game exceeds `max_plays`, or a side has no policy.
    """

    def done(count: int) -> None:
        if progress is not None:
            progress(count, games)

    outcomes = play_games(
        game, start, policies, seed=seed, indices=range(games), progress=done, max_plays=max_plays
    )
    names = {side: getattr(policy, "__name__", repr(policy)) for side, policy in policies.items()}
    return summarise(outcomes, policies, seed, names)


def play_games(
    game: Game[S, P],
    start: Callable[[int], S],
    policies: Mapping[str, Policy[S, P]],
    *,
    seed: int,
    indices: range,
    progress: Callable[[int], None] | None = None,
    max_plays: int = 1_000_000,
) -> list[Outcome]:
    """Play the games numbered `indices` of a simulation seeded `seed`; their outcomes.

    Game ``i`` starts from ``start(derive_seed(seed, i))`` and its policies draw from
    ``Rng(derive_seed(seed, i) ^ 0x5DEECE66D)``: its own stream, whichever slice it is
    played in. `progress` is called with the count done after each game.

    Examples
    --------
    >>> nim, policies = _Nim(), {"first": random_policy, "second": random_policy}
    >>> whole = play_games(nim, lambda s: _NimState(7), policies, seed=1, indices=range(6))
    >>> halves = [
    ...     *play_games(nim, lambda s: _NimState(7), policies, seed=1, indices=range(0, 3)),
    ...     *play_games(nim, lambda s: _NimState(7), policies, seed=1, indices=range(3, 6)),
    ... ]
    >>> whole == halves
    True
    """
    outcomes: list[Outcome] = []
    for done, index in enumerate(indices, 1):
        game_seed = derive_seed(seed, index)
        state = start(game_seed)
        rng = Rng(game_seed ^ 0x5DEECE66D)
        outcomes.append(_play_out(game, state, policies, rng, max_plays))
        if progress is not None:
            progress(done)
    return outcomes


def summarise(
    outcomes: Sequence[Outcome],
    sides: Iterable[str],
    seed: int,
    policies: Mapping[str, str],
) -> SimulationResult:
    """Return the result of a simulation from its games' outcomes, in game order.

    `sides` orders the win counts (every side listed, with 0 wins if none); a winner
    not among them follows in the order it first won.

    Examples
    --------
    >>> result = summarise([Outcome("b", 4), Outcome(None, 9), Outcome("b", 2)], ["a", "b"], 5, {})
    >>> dict(result.wins), result.draws, result.lengths.mean
    ({'a': 0, 'b': 2}, 1, 5.0)
    """
    wins = dict.fromkeys(sides, 0)
    draws = 0
    for outcome in outcomes:
        if outcome.winner is None:
            draws += 1
        else:
            wins[outcome.winner] = wins.get(outcome.winner, 0) + 1
    lengths = LengthSummary.of([outcome.length for outcome in outcomes])
    return SimulationResult(len(outcomes), wins, draws, lengths, seed, dict(policies))


def _play_out(
    game: Game[S, P], state: S, policies: Mapping[str, Policy[S, P]], rng: Rng, max_plays: int
) -> Outcome:
    for _ in range(max_plays):
        outcome = game.outcome(state)
        if outcome is not None:
            return outcome
        side = game.side_to_play(state)
        if side is None or side not in policies:
            raise RuntimeError(f"no policy for side {side!r}")
        plays = game.legal_plays(state)
        game.push(state, policies[side](game, state, plays, rng))
    raise RuntimeError(f"a game went past {max_plays} plays")


# A toy game for the doctests above: Nim with 1 or 2 stones a take.
@dataclass(slots=True)
class _NimState:
    stones: int
    first_to_play: bool = True
    taken: int = 0

    def copy(self) -> _NimState:
        return _NimState(self.stones, self.first_to_play, self.taken)


class _Nim:
    length_unit = "takes"

    def parse_play(self, text: str) -> int:
        if not text.isdigit():
            raise InvalidPlayError(text, "expected a number of stones")
        return int(text)

    def play_text(self, play: int) -> str:
        return str(play)

    def side_to_play(self, state: _NimState) -> str | None:
        if state.stones == 0:
            return None
        return "first" if state.first_to_play else "second"

    def legal_plays(self, state: _NimState) -> list[int]:
        return [n for n in (1, 2) if n <= state.stones]

    def push(self, state: _NimState, play: int) -> None:
        if play not in (1, 2):
            raise IllegalPlayError(str(play), "take-one-or-two", "take 1 or 2")
        if play > state.stones:
            raise IllegalPlayError(str(play), "too-many", f"only {state.stones} left")
        state.stones -= play
        state.taken += 1
        state.first_to_play = not state.first_to_play

    def outcome(self, state: _NimState) -> Outcome | None:
        if state.stones:
            return None
        # The side that just played took the last stone.
        return Outcome("second" if state.first_to_play else "first", state.taken)
