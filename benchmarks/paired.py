"""Paired timing of a batch call against its strongest baseline (``python -m benchmarks.paired``).

Each figure runs the batch call and the baseline in alternating rounds (ours first in
even rounds, the baseline first in odd ones), on the same inputs, single-threaded on both
sides (numba's thread count set to 1; the kernels compiled ahead of time run on one
thread); the ratio is the median of the per-round ratios,
with the lowest and highest beside it. Wall time and CPU time (``time.process_time``)
are reported per item. The answers of the last round are compared item by item, and the
mismatches counted. The threaded figure (numba on every core) is timed separately and
compared with the baseline's single-threaded median.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from tabletop.geom.batch import BACKEND_ENV, NO_NUMBA_ENV


@dataclass(frozen=True)
class Timing:
    """Median wall and CPU seconds of one side over the rounds."""

    wall: float
    cpu: float


@dataclass(frozen=True)
class Figure:
    name: str
    path: str
    baseline: str
    n: int
    ours: Timing
    theirs: Timing
    ratios: tuple[float, ...]
    mismatches: int
    threaded: Timing | None = None

    @property
    def ratio(self) -> float:
        return statistics.median(self.ratios)


def timed(call: Callable[[], Any]) -> tuple[float, float, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = call()
    return time.perf_counter() - wall, time.process_time() - cpu, result


@contextmanager
def forced_path(name: str | None) -> Iterator[None]:
    """Force a path of the batch functions: ``aot``, ``numba``, ``numpy`` (None: the rule).

    They read ``TABLETOP_BACKEND`` per call; ``TABLETOP_NO_NUMBA`` is cleared meanwhile.
    """
    before = {key: os.environ.get(key) for key in (BACKEND_ENV, NO_NUMBA_ENV)}
    os.environ.pop(NO_NUMBA_ENV, None)
    os.environ[BACKEND_ENV] = name or ""
    try:
        yield
    finally:
        for key, value in before.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@contextmanager
def numpy_path(on: bool) -> Iterator[None]:
    """Select the numpy path of the batch functions (off: the default rule)."""
    with forced_path("numpy" if on else None):
        yield


def numba_threads(count: int | None) -> int:
    """Set numba's thread count (None: every core numba may use); return it."""
    import numba

    # The project's threading layer (workqueue) must be chosen before numba starts its
    # threads; the default path no longer imports the numba kernels that choose it.
    from tabletop.geom import numba_support  # noqa: F401

    target = numba.config.NUMBA_NUM_THREADS if count is None else count
    numba.set_num_threads(target)
    return int(target)


def paired(
    name: str,
    path: str,
    baseline: str,
    n: int,
    ours: Callable[[], Any],
    theirs: Callable[[], Any],
    mismatches: Callable[[Any, Any], int],
    rounds: int,
) -> Figure:
    """Time `ours` against `theirs` in alternating rounds (one warm-up call each first)."""
    ours()
    theirs()
    mine: list[tuple[float, float]] = []
    base: list[tuple[float, float]] = []
    ratios = []
    got = expected = None
    for r in range(rounds):
        if r % 2 == 0:
            w1, c1, got = timed(ours)
            w2, c2, expected = timed(theirs)
        else:
            w2, c2, expected = timed(theirs)
            w1, c1, got = timed(ours)
        mine.append((w1, c1))
        base.append((w2, c2))
        ratios.append(w2 / w1)
    return Figure(
        name,
        path,
        baseline,
        n,
        Timing(statistics.median(w for w, _ in mine), statistics.median(c for _, c in mine)),
        Timing(statistics.median(w for w, _ in base), statistics.median(c for _, c in base)),
        tuple(ratios),
        mismatches(got, expected),
    )


def threaded(figure: Figure, ours: Callable[[], Any], rounds: int) -> Figure:
    """Return `figure` with the median of `ours` on every numba thread beside it."""
    numba_threads(None)
    try:
        ours()
        runs = [timed(ours)[:2] for _ in range(rounds)]
    finally:
        numba_threads(1)
    timing = Timing(statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs))
    return Figure(**{**figure.__dict__, "threaded": timing})


def per_item(seconds: float, n: int) -> str:
    ns = seconds / n * 1e9
    if ns >= 10_000:
        return f"{ns / 1000:.0f} us"
    if ns >= 1000:
        return f"{ns / 1000:.2f} us"
    return f"{ns:.1f} ns"


def table(figures: Sequence[Figure], threads: int) -> str:
    head = (
        f"{'function':<16} {'path':<6} {'N':>9}  {'wall/item':>10} {'cpu/item':>10}  "
        f"{'baseline':<34} {'wall/item':>10} {'cpu/item':>10}  {'ratio (min-max)':>19}  "
        f"{'mismatch':>8}  threaded x{threads}"
    )
    lines = [head, "-" * len(head)]
    for f in figures:
        spread = f"{f.ratio:.1f}x ({min(f.ratios):.1f}-{max(f.ratios):.1f})"
        extra = "-"
        if f.threaded is not None:
            extra = (
                f"{per_item(f.threaded.wall, f.n)} wall, {per_item(f.threaded.cpu, f.n)} cpu; "
                f"{f.theirs.wall / f.threaded.wall:.1f}x"
            )
        lines.append(
            f"{f.name:<16} {f.path:<6} {f.n:>9,}  {per_item(f.ours.wall, f.n):>10} "
            f"{per_item(f.ours.cpu, f.n):>10}  {f.baseline:<34} {per_item(f.theirs.wall, f.n):>10} "
            f"{per_item(f.theirs.cpu, f.n):>10}  {spread:>19}  {f.mismatches:>8}  {extra}"
        )
    return "\n".join(lines)


def unequal(got: Any, expected: Any) -> int:
    """Count the items that differ (floats: by more than 1e-9 mm)."""
    a, b = np.asarray(got), np.asarray(expected)
    if a.dtype.kind == "f" or b.dtype.kind == "f":
        bad = ~np.isclose(a.astype(np.float64), b.astype(np.float64), rtol=0.0, atol=1e-9)
        return int(np.count_nonzero(bad.reshape(len(a), -1).any(axis=1)))
    return int(np.count_nonzero((a != b).reshape(len(a), -1).any(axis=1)))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.paired", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="10x smaller sizes (a smoke run)")
    args = parser.parse_args(argv)
    from benchmarks import workloads

    print(workloads.report(quick=args.quick))
    return 0


if __name__ == "__main__":
    sys.exit(main())
