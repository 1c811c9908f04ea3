"""Discrete board games: the shared machinery and the game engines.

The shared parts are a seeded random stream stable across Python versions
(:mod:`tabletop.boards.rng`), the error taxonomy (:mod:`tabletop.boards.errors`), the game protocol with
replay and simulation (:mod:`tabletop.boards.game`) and the statistics of simulated games
(:mod:`tabletop.boards.stats`). Each game lives in its own subpackage and implements
:class:`~tabletop.boards.game.Game`. The package imports nothing else of the project's.
"""

from __future__ import annotations

from tabletop.boards.errors import (
    BoardGameError,
    IllegalPlayError,
    InvalidPlayError,
    InvalidPositionError,
    ReplayError,
)
from tabletop.boards.game import (
    Game,
    GameState,
    Outcome,
    Policy,
    ReplayResult,
    SimulationResult,
    answer,
    play_games,
    random_policy,
    replay,
    simulate,
    summarise,
)
from tabletop.boards.rng import Rng, derive_seed
from tabletop.boards.stats import Z_95, LengthSummary, wilson_interval

__all__ = [
    "Z_95",
    "BoardGameError",
    "Game",
    "GameState",
    "IllegalPlayError",
    "InvalidPlayError",
    "InvalidPositionError",
    "LengthSummary",
    "Outcome",
    "Policy",
    "ReplayError",
    "ReplayResult",
    "Rng",
    "SimulationResult",
    "answer",
    "derive_seed",
    "play_games",
    "random_policy",
    "replay",
    "simulate",
    "summarise",
    "wilson_interval",
]
