"""The five kernels against their floors (``python -m benchmarks.kernels [--quick]``).

For each batch kernel (distance and band, in_arc, setups_legal, obstructed, final_poses)
on the workloads of :mod:`benchmarks.workloads`, timed in the same paired rounds:

* **ours**: the public batch function on the kernels compiled ahead of time (the default
  path; ``TABLETOP_BACKEND=aot``), one thread;
* **C floor**: the same computation as a plain C loop (``benchmarks/floors/*.c``, the
  same formulas and the same 1e-6 mm tolerance), built with the system ``cc`` at ``-O3
  -march=native -ffp-contract=off`` (no fused multiply-adds: numba does not fuse either)
  and called through ctypes; skipped, with one line, where there is no ``cc``;
* **plain numba**: a short straightforward ``numba.njit`` loop
  (:mod:`benchmarks.plain_kernels`), one thread, the same tolerance;
* **vectorised**: shapely 2's array functions (and, for final poses, where shapely has
  none, eight lines of numpy), each on geometry built beforehand (not timed).

Every round runs every side once, in an order rotated each round; each side's figure is
its median CPU time (``time.process_time``) per item, and each ratio the median of the
per-round ratios of CPU times, with the lowest and highest. All sides run on one thread
(numba's thread count set to 1). The answers of every side are compared with ours item by
item (floats within 1e-9 mm, bands, booleans and poses exactly up to that); the run fails
(exit 1) on any mismatch. Garbage collection is off inside the timings (as in
``timeit``) and runs between rounds. Every side allocates its output arrays on each call, as the
batch functions do; the benchmark runs with glibc's allocator keeping freed memory
(:data:`ALLOCATOR`), so that page faults on fresh output arrays, whose number depends
on the order of the sides rather than on their work, do not enter the figures.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray

from benchmarks import plain_kernels as plain
from benchmarks.paired import forced_path, numba_threads, unequal
from benchmarks.workloads import (
    ARC,
    MANEUVER,
    PLACEMENT,
    TOKENS,
    XW,
    base_outline,
    baseline_distance_band,
    baseline_final_poses,
    baseline_obstructed,
    baseline_setups,
    baseline_setups_dwithin,
    pair_mismatches,
    placed,
    pose_mismatches,
    random_poses,
    random_segments,
    random_setups,
    token_polygons,
)
from tabletop.geom import batch
from tabletop.geom.arcs import XWING_ARCS, arc_region_outline
from tabletop.geom.shapes import place_outline
from tabletop.geom.tolerance import EPSILON_MM
from tabletop.maneuvers.batch import final_poses
from tabletop.maneuvers.moves import local_move
from tabletop.maneuvers.notation import parse_maneuver
from tabletop.obstacles import batch as obstacle_batch

FLOORS = Path(__file__).resolve().parent / "floors"
SOURCES = ("distance_band.c", "in_arc.c", "setups_legal.c", "obstructed.c", "final_poses.c")
CFLAGS = ("-O3", "-march=native", "-ffp-contract=off", "-fno-math-errno", "-fPIC", "-shared")
#: Targets: ours within this factor of the C floor; obstructed no slower than plain numba.
FLOOR_TARGET = 1.5
NUMBA_TARGET = {"obstructed": 1.0}

_I64, _F64, _PTR, _BOOL = ctypes.c_int64, ctypes.c_double, ctypes.c_void_p, ctypes.c_bool
#: Each C floor's argument types (pointers are numpy arrays' data).
_ARGTYPES: dict[str, list[Any]] = {
    "distance_band": [_I64, _PTR, _PTR, _F64, _F64, _F64, _F64, _PTR, _I64, _BOOL, _PTR, _PTR],
    "in_arc": [_I64, _PTR, _PTR, _F64, _F64, _F64, _F64, _F64, _I64, _PTR],
    "setups_legal": [_I64, _I64, *[_PTR] * 15],
    "obstructed": [_I64, _PTR, _PTR, _PTR, _PTR, _I64, _PTR, _PTR],
    "final_poses": [_I64, _PTR, _PTR, _PTR],
}


def build_floors(directory: Path) -> ctypes.CDLL | None:
    """Compile the C floors into `directory`; None (with one line printed) without ``cc``."""
    cc = shutil.which("cc")
    if cc is None:
        print("no cc on this machine: the C floors are skipped")
        return None
    library = directory / "floors.so"
    sources = [str(FLOORS / name) for name in SOURCES]
    subprocess.run([cc, *CFLAGS, "-o", str(library), *sources, "-lm"], check=True)
    floors = ctypes.CDLL(str(library))
    for name, argtypes in _ARGTYPES.items():
        function = getattr(floors, name)
        function.argtypes, function.restype = argtypes, None
    return floors


def compiler() -> str:
    cc = shutil.which("cc")
    if cc is None:
        return "no cc"
    version = subprocess.run([cc, "--version"], capture_output=True, text=True, check=False)
    return f"{version.stdout.splitlines()[0] if version.stdout else cc} {' '.join(CFLAGS[:4])}"


def ptr(array: NDArray[Any]) -> int:
    """Return the address of a C-contiguous array's data."""
    assert array.flags.c_contiguous
    return int(array.ctypes.data)


@dataclass(frozen=True)
class Side:
    """One way of computing a kernel's answers: a label, its kind, and the call."""

    label: str
    kind: str  # "ours", "floor", "numba" or "vectorised"
    call: Callable[[], Any]


@dataclass
class Result:
    """A kernel's sides after the rounds: CPU seconds per round, per-round ratios, answers."""

    name: str
    n: int
    sides: list[Side]
    cpu: dict[str, list[float]] = field(default_factory=dict)
    answers: dict[str, Any] = field(default_factory=dict)
    mismatches: dict[str, int] = field(default_factory=dict)

    def per_item_ns(self, label: str) -> float:
        return statistics.median(self.cpu[label]) / self.n * 1e9

    def ratios(self, label: str) -> list[float]:
        """Ours over `label`, CPU time, round by round."""
        ours = self.sides[0].label
        return [a / b for a, b in zip(self.cpu[ours], self.cpu[label], strict=True)]

    def ratio(self, label: str) -> float:
        return statistics.median(self.ratios(label))

    def strongest(self, kind: str) -> Side | None:
        """Return the fastest side of `kind` (median CPU time) among those that agree with ours."""
        agree = [s for s in self.sides if s.kind == kind and self.mismatches[s.label] == 0]
        return min(agree, key=lambda s: self.per_item_ns(s.label), default=None)


def run_rounds(
    name: str, n: int, sides: list[Side], count: Callable[[Any, Any], int], rounds: int
) -> Result:
    """Run every side once per round, the order rotated each round; compare with ours."""
    result = Result(name, n, sides, {s.label: [] for s in sides})
    for side in sides:  # warm-up (first calls load and fill caches)
        side.call()
    # As timeit does: no garbage collection inside a timing (the shapely sides keep
    # hundreds of thousands of geometries alive, and a full collection would land on
    # whichever side happened to allocate the last Python object).
    gc.collect()
    gc.disable()
    try:
        for r in range(rounds):
            k = r % len(sides)
            order = sides[k:] + sides[:k]
            for side in order if r % 2 == 0 else order[::-1]:
                start = time.process_time()
                answer = side.call()
                result.cpu[side.label].append(time.process_time() - start)
                result.answers[side.label] = answer
            gc.collect()
    finally:
        gc.enable()
    ours = result.answers[sides[0].label]
    for side in sides:
        result.mismatches[side.label] = count(result.answers[side.label], ours)
    return result


def fmt_ns(ns: float) -> str:
    if ns >= 10_000:
        return f"{ns / 1000:.0f} us"
    if ns >= 1000:
        return f"{ns / 1000:.2f} us"
    return f"{ns:.1f} ns"


def side_lines(result: Result) -> list[str]:
    """One line per side: CPU per item, ours over it (median, min-max), mismatches."""
    lines = []
    for side in result.sides:
        ratios = result.ratios(side.label)
        spread = f"{result.ratio(side.label):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"
        lines.append(
            f"  {side.kind:<10} {side.label:<44} {fmt_ns(result.per_item_ns(side.label)):>9}"
            f"  ours/it {spread:>19}  mismatches {result.mismatches[side.label]}"
        )
    return lines


def verdict(result: Result) -> str:
    """Return the summary row: ours, the floor, the strongest numba and vectorised, the targets."""
    ours = result.per_item_ns(result.sides[0].label)
    cells = [f"{result.name:<14} {result.n:>8,} {fmt_ns(ours):>9}"]
    notes = []
    for kind in ("floor", "numba", "vectorised"):
        best = result.strongest(kind)
        if best is None:
            cells.append(f"{'-':>9} {'-':>6}")
            continue
        ratio = result.ratio(best.label)
        cells.append(f"{fmt_ns(result.per_item_ns(best.label)):>9} {ratio:>5.2f}x")
        if kind == "floor":
            notes.append(f"floor <= {FLOOR_TARGET}x: {'yes' if ratio <= FLOOR_TARGET else 'NO'}")
        if kind == "numba" and result.name in NUMBA_TARGET:
            met = ratio <= NUMBA_TARGET[result.name]
            notes.append(f"<= plain numba: {'yes' if met else 'NO'}")
        if kind == "vectorised":
            notes.append(f"{best.label} {1.0 / ratio:.1f}x slower than ours")
    return "  ".join(cells) + "  " + "; ".join(notes)


# -- the kernels' sides -------------------------------------------------------------------


def distance_sides(rng: np.random.Generator, n: int, floors: ctypes.CDLL | None) -> list[Side]:
    a, b = random_poses(rng, n), random_poses(rng, n)
    pa, pb = placed(base_outline("small"), a), placed(base_outline("large"), b)
    (sw, sl), (lw, ll) = XW.base_size("small"), XW.base_size("large")
    dims = np.array([sw / 2, sl / 2, lw / 2, ll / 2])
    lines = np.asarray(XW.band_lines_of("range"), dtype=np.float64)
    edges = lines + EPSILON_MM
    zero = XW.zero_band("range")
    padded = np.full(6, np.inf)
    padded[: len(edges)] = edges

    def ours() -> Any:
        with forced_path("aot"):
            return batch.distance_band(a, "small", b, "large")

    def floor() -> Any:
        assert floors is not None
        out, bands = np.empty(n), np.empty(n, dtype=np.int64)
        floors.distance_band(
            n, ptr(a), ptr(b), *dims, ptr(padded), len(edges), zero, ptr(out), ptr(bands)
        )
        return out, bands

    def numba_loop() -> Any:
        out, bands = np.empty(n), np.empty(n, dtype=np.int64)
        plain.distance_band(a, b, dims, edges, zero, out, bands)
        return out, bands

    return [
        Side("distance_band (aot)", "ours", ours),
        *([Side("C loop", "floor", floor)] if floors is not None else []),
        Side("plain numba loop", "numba", numba_loop),
        Side(
            "shapely.distance + searchsorted", "vectorised", lambda: baseline_distance_band(pa, pb)
        ),
    ]


def arc_sides(rng: np.random.Generator, n: int, floors: ctypes.CDLL | None) -> list[Side]:
    a, b = random_poses(rng, n), random_poses(rng, n)
    region = placed(arc_region_outline(XW, "small", ARC), a)
    target = placed(base_outline("small"), b)
    width, length = XW.base_size("small")
    dims = np.array([width / 2, length / 2, width / 2, length / 2])
    half, code = XW.arc_half_angle("small"), XWING_ARCS.index(ARC)

    def ours() -> Any:
        with forced_path("aot"):
            return batch.in_arc(a, "small", b, "small", ARC)

    def floor() -> Any:
        assert floors is not None
        out = np.empty(n, dtype=np.bool_)
        floors.in_arc(n, ptr(a), ptr(b), *dims, half, code, ptr(out))
        return out

    def numba_loop() -> Any:
        out = np.empty(n, dtype=np.bool_)
        plain.in_arc(a, b, dims, half, code, out)
        return out

    return [
        Side("in_arc (aot)", "ours", ours),
        *([Side("C loop", "floor", floor)] if floors is not None else []),
        Side("plain numba loop", "numba", numba_loop),
        Side(
            "shapely.intersects (region, base)",
            "vectorised",
            lambda: shapely.intersects(region, target),
        ),
        Side(
            "shapely.dwithin (region, base, 1e-6)",
            "vectorised",
            lambda: shapely.dwithin(region, target, EPSILON_MM),
        ),
    ]


def setup_sides(rng: np.random.Generator, m: int, floors: ctypes.CDLL | None) -> list[Side]:
    setups = random_setups(rng, m)
    polygons = token_polygons(setups)
    packed = obstacle_batch._packed(XW, tuple(TOKENS))
    limits = obstacle_batch._limits(XW)
    total, k = len(packed.local), len(TOKENS)

    def ours() -> Any:
        with forced_path("aot"):
            return obstacle_batch.setups_legal(TOKENS, setups)

    def floor() -> Any:
        assert floors is not None
        out = np.empty(m, dtype=np.bool_)
        w, inv, half = np.empty((total, 2)), np.empty(total), np.empty(total)
        edges = np.empty(total, dtype=np.int64)
        arrays = (packed.local, packed.mirrored, packed.offsets, packed.inv, packed.inv_mirrored)
        arrays += (packed.half, packed.half_mirrored, packed.radii, setups, limits, w, inv, half)
        floors.setups_legal(m, k, *(ptr(x) for x in arrays), ptr(edges), ptr(out))
        return out

    def numba_loop() -> Any:
        out = np.empty(m, dtype=np.bool_)
        plain.setups_legal(
            packed.local, packed.mirrored, packed.offsets, packed.radii, setups, limits, out
        )
        return out

    return [
        Side("setups_legal (aot)", "ours", ours),
        *([Side("C loop", "floor", floor)] if floors is not None else []),
        Side("plain numba loop", "numba", numba_loop),
        Side(
            "shapely.bounds + 15 shapely.distance", "vectorised", lambda: baseline_setups(polygons)
        ),
        Side(
            "shapely.bounds + dwithin, legal rows",
            "vectorised",
            lambda: baseline_setups_dwithin(polygons),
        ),
    ]


def obstructed_sides(rng: np.random.Generator, n: int, floors: ctypes.CDLL | None) -> list[Side]:
    p, q = random_segments(rng, n)
    packed = obstacle_batch._packed(XW, tuple(TOKENS))
    world = [place_outline(o, row) for o, row in zip(packed.outlines, PLACEMENT, strict=True)]
    wv = np.ascontiguousarray(np.concatenate(world))
    boxes = np.array(
        [
            [*w.min(axis=0), *w.max(axis=0), *row[:2], radius]
            for w, row, radius in zip(world, PLACEMENT, packed.radii, strict=True)
        ]
    )
    tree = shapely.STRtree(token_polygons(PLACEMENT[None])[0])
    lines = shapely.linestrings(np.stack([p, q], axis=1))

    def ours() -> Any:
        with forced_path("aot"):
            return obstacle_batch.obstructed(p, q, TOKENS, PLACEMENT)

    def floor() -> Any:
        assert floors is not None
        out = np.empty(n, dtype=np.bool_)
        floors.obstructed(
            n, ptr(p), ptr(q), ptr(wv), ptr(packed.offsets), len(world), ptr(boxes), ptr(out)
        )
        return out

    def numba_loop() -> Any:
        out = np.empty(n, dtype=np.bool_)
        plain.obstructed(p, q, wv, packed.offsets, boxes, out)
        return out

    def tree_dwithin() -> Any:
        hit = np.zeros(n, dtype=np.bool_)
        hit[tree.query(lines, predicate="dwithin", distance=EPSILON_MM)[0]] = True
        return hit

    return [
        Side("obstructed (aot)", "ours", ours),
        *([Side("C loop", "floor", floor)] if floors is not None else []),
        Side("plain numba loop", "numba", numba_loop),
        Side("STRtree.query(intersects)", "vectorised", lambda: baseline_obstructed(tree, lines)),
        Side("STRtree.query(dwithin 1e-6)", "vectorised", tree_dwithin),
    ]


def pose_sides(rng: np.random.Generator, n: int, floors: ctypes.CDLL | None) -> list[Side]:
    poses = random_poses(rng, n)
    move = np.asarray(local_move(parse_maneuver(MANEUVER, XW), "small", XW), dtype=np.float64)

    def ours() -> Any:
        with forced_path("aot"):
            return final_poses(poses, "small", MANEUVER)

    def floor() -> Any:
        assert floors is not None
        out = np.empty_like(poses)
        floors.final_poses(n, ptr(poses), ptr(move), ptr(out))
        return out

    def numba_loop() -> Any:
        out = np.empty_like(poses)
        plain.final_poses(poses, move, out)
        return out

    return [
        Side("final_poses (aot)", "ours", ours),
        *([Side("C loop", "floor", floor)] if floors is not None else []),
        Side("plain numba loop", "numba", numba_loop),
        Side(
            "numpy, 8 lines (no shapely form)",
            "vectorised",
            lambda: baseline_final_poses(poses, move),
        ),
    ]


KERNELS: tuple[tuple[str, int, Callable[..., list[Side]], Callable[[Any, Any], int]], ...] = (
    ("distance+band", 100_000, distance_sides, pair_mismatches),
    ("in_arc", 100_000, arc_sides, unequal),
    ("setups_legal", 10_000, setup_sides, unequal),
    ("obstructed", 100_000, obstructed_sides, unequal),
    ("final_poses", 500_000, pose_sides, pose_mismatches),
)


def report(*, quick: bool, rounds: int | None = None, only: Sequence[str] = ()) -> tuple[str, int]:
    """Return the printed report and the number of mismatching answers in all."""
    scale = 10 if quick else 1
    rounds = rounds or (3 if quick else 11)
    numba_threads(1)
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    lines = [
        f"Kernels against their floors: {rounds} paired rounds (order rotated), CPU time per item, "
        "medians; one thread on every side (ours: the aot kernels; numba.set_num_threads(1)); "
        f"'ours/it': ours over that side, per round, median (min-max). C: {compiler()}. "
        f"Load average at the start: {load} ({len(os.sched_getaffinity(0))} cores). Every side "
        "allocates its output arrays per call; the allocator keeps freed memory "
        "(MALLOC_MMAP_THRESHOLD_, MALLOC_TRIM_THRESHOLD_), so no side pays page faults per call.",
    ]
    results = []
    with tempfile.TemporaryDirectory() as directory:
        floors = build_floors(Path(directory))
        for name, n, make, count in KERNELS:
            if only and name not in only:
                continue
            rng = np.random.default_rng(20240601)
            sides = make(rng, n // scale, floors)
            result = run_rounds(name, n // scale, sides, count, rounds)
            results.append(result)
            lines += [f"{name}, N = {n // scale:,}", *side_lines(result)]
    head = (
        f"{'kernel':<14} {'N':>8} {'ours':>9}  {'C floor':>9} {'ours/':>6}  "
        f"{'numba':>9} {'ours/':>6}  {'vectorised':>9} {'ours/':>6}  targets"
    )
    lines += ["", head, "-" * len(head), *(verdict(r) for r in results)]
    bad = sum(sum(r.mismatches.values()) for r in results)
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    lines.append(f"mismatching answers in all: {bad}; load average at the end: {load}")
    return "\n".join(lines), bad


#: glibc's allocator keeps freed memory (no mmap of a fresh block, no trim of the heap),
#: so that no side pays the page faults of its output arrays anew on every call: how
#: often it would depends on the order of the sides, not on their work.
ALLOCATOR = {"MALLOC_MMAP_THRESHOLD_": str(2**30), "MALLOC_TRIM_THRESHOLD_": str(2**32)}


def main(argv: Sequence[str] | None = None) -> int:
    if any(os.environ.get(key) != value for key, value in ALLOCATOR.items()):
        # The allocator reads these once, at start-up: run again with them set.
        arguments = list(sys.argv[1:] if argv is None else argv)
        command = [sys.executable, "-m", "benchmarks.kernels", *arguments]
        return subprocess.run(command, env={**os.environ, **ALLOCATOR}, check=False).returncode
    parser = argparse.ArgumentParser(prog="python -m benchmarks.kernels", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="10x smaller sizes, 3 rounds")
    parser.add_argument("--rounds", type=int, default=None, help="paired rounds (default 11)")
    parser.add_argument(
        "--only", nargs="+", default=(), metavar="KERNEL", help="these kernels alone"
    )
    args = parser.parse_args(argv)
    text, bad = report(quick=args.quick, rounds=args.rounds, only=args.only)
    print(text)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
