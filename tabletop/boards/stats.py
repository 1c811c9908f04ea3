"""Summaries of simulated games: win rates with Wilson intervals, and game lengths.

Examples
--------
>>> low, high = wilson_interval(50, 100)
>>> round(low, 4), round(high, 4)
(0.4038, 0.5962)
>>> wilson_interval(0, 0)
(0.0, 1.0)
>>> LengthSummary.of([3, 1, 2, 10])
LengthSummary(games=4, mean=4.0, median=2.5, shortest=1, longest=10)
"""

from __future__ import annotations

import math as _math
import statistics as _statistics
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Z_95", "LengthSummary", "wilson_interval"]

#: The two-sided 95 % normal quantile.
Z_95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """Return the Wilson score interval of a proportion, ``(low, high)`` in [0, 1].

    Parameters
    ----------
    successes : int
        Games won (0 to `trials`).
    trials : int
        Games played; with none, nothing is known and the interval is ``(0, 1)``.
    z : float
        The normal quantile (:data:`Z_95` for 95 %).

    Raises
    ------
    ValueError
        For counts outside ``0 <= successes <= trials``.
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * _math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    # At 0 or all successes the exact bound is 0 or 1; the formula lands a rounding off it.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


@dataclass(frozen=True, slots=True)
class LengthSummary:
    """How long games lasted, in the game's own unit (plies, turns or rounds)."""

    games: int
    mean: float
    median: float
    shortest: int
    longest: int

    @classmethod
    def of(cls, lengths: Sequence[int]) -> LengthSummary:
        """Summarise `lengths` (all zeros for no games)."""
        if not lengths:
            return cls(0, 0.0, 0.0, 0, 0)
        return cls(
            len(lengths),
            _statistics.fmean(lengths),
            float(_statistics.median(lengths)),
            min(lengths),
            max(lengths),
        )
