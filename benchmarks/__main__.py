"""Run the batch benchmarks and print one table (``python -m benchmarks [--quick]``).

Every batch call is timed best of three after one warm-up call (which compiles, or loads
from the cache, the numba kernels); every plain loop best of two on a smaller N. Each
plain loop is checked to give the batch answers on the items it ran.
"""

from __future__ import annotations

import argparse
import bisect
import functools
import itertools
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np
import shapely
from numpy.typing import NDArray

from geom import batch
from geom.arcs import arc_region_outline
from geom.areas import play_area
from geom.rulesets import get_ruleset
from geom.tolerance import EPSILON_MM
from maneuvers.batch import final_poses
from maneuvers.moves import local_move
from maneuvers.notation import parse_maneuver
from obstacles import batch as obstacle_batch
from obstacles.catalog import get_token
from obstacles.placement import placement_limits

ROOT = Path(__file__).resolve().parents[1]
QUERY_SCENE = "examples/xwing-dogfight.toml"
EXAMPLE = "examples/xwing-tournament.toml"
XW = get_ruleset("xwing2")
AREA = play_area(XW.default_area)
#: The six tokens of the tournament example, at its placements.
TOKENS = [
    "coreasteroid0",
    "core2asteroid5",
    "yt2400debris1",
    "coreasteroid3",
    "vt49decimatordebris0",
    "gascloud2",
]
PLACEMENT = np.array(
    [
        [250.0, 300.0, 15.0, 0.0],
        [457.2, 290.0, 120.0, 0.0],
        [655.0, 310.0, 200.0, 1.0],
        [260.0, 610.0, 300.0, 0.0],
        [457.2, 500.0, 45.0, 0.0],
        [650.0, 620.0, 90.0, 0.0],
    ]
)
MANEUVER = "bank 2 left"
ARC = "front"

FloatArray = NDArray[np.float64]


# -- workloads --------------------------------------------------------------------------


def random_poses(rng: np.random.Generator, n: int) -> FloatArray:
    """Poses uniform on the 3' x 3' area, headings uniform."""
    return np.column_stack(
        [
            rng.uniform(0.0, AREA.width, n),
            rng.uniform(0.0, AREA.height, n),
            rng.uniform(0.0, 360.0, n),
        ]
    )


def random_segments(rng: np.random.Generator, n: int) -> tuple[FloatArray, FloatArray]:
    """Attack-like segments: a start anywhere, 0-300 mm long in any direction."""
    p = rng.uniform(0.0, AREA.width, (n, 2))
    turn = rng.uniform(0.0, 2.0 * math.pi, n)
    length = rng.uniform(0.0, 300.0, n)
    return p, p + np.column_stack([length * np.cos(turn), length * np.sin(turn)])


def random_setups(rng: np.random.Generator, m: int) -> FloatArray:
    """Return setups of the six tokens on a 3 x 2 grid: about half are legal.

    The grid's pitch is near the spacing limit (-40 to +10 mm of slack), jittered 5 mm,
    at random angles and sides.
    """
    reach = max(float(np.max(np.hypot(*get_token(XW, t).outline.T))) for t in TOKENS)
    col = np.arange(6) % 3 - 1.0
    row = np.arange(6) // 3 - 0.5
    pitch = 2.0 * reach + XW.xwing_obstacle_spacing + rng.uniform(-40.0, 10.0, (m, 1))
    setups = np.zeros((m, 6, 4))
    setups[:, :, 0] = AREA.width / 2.0 + col * pitch + rng.uniform(-5.0, 5.0, (m, 6))
    setups[:, :, 1] = AREA.height / 2.0 + row * pitch + rng.uniform(-5.0, 5.0, (m, 6))
    setups[:, :, 2] = rng.uniform(0.0, 360.0, (m, 6))
    setups[:, :, 3] = rng.integers(0, 2, (m, 6))
    return setups


# -- plain loops over shapely objects ---------------------------------------------------
#
# Each plain loop is two passes over the items: ``shapes_*`` builds the shapely objects
# from the inputs, ``calls_*`` makes the shapely calls. The plain loop times both (the
# batch functions start from the same inputs); the "prebuilt" figure times the calls only.


def corners(
    x: float, y: float, heading: float, width: float, length: float
) -> list[tuple[float, float]]:
    """Return a base's corners in the world (ship frame: +y forward, +x right)."""
    t = math.radians(heading)
    c, s = math.cos(t), math.sin(t)
    w, h = width / 2.0, length / 2.0
    return [
        (x + px * s + py * c, y - px * c + py * s)
        for px, py in ((-w, -h), (w, -h), (w, h), (-w, h))
    ]


def shapes_distance(a: FloatArray, b: FloatArray) -> list[tuple[Any, Any]]:
    """Per pair: the two bases (small, large) as polygons."""
    (wa, la), (wb, lb) = XW.base_size("small"), XW.base_size("large")
    return [
        (shapely.Polygon(corners(ax, ay, ah, wa, la)), shapely.Polygon(corners(bx, by, bh, wb, lb)))
        for (ax, ay, ah), (bx, by, bh) in zip(a.tolist(), b.tolist(), strict=True)
    ]


def calls_distance(shapes: list[tuple[Any, Any]]) -> list[int]:
    """Per pair: the distance, and the band by bisection."""
    edges = [line + EPSILON_MM for line in XW.xwing_range_bands]
    out = []
    for pa, pb in shapes:
        d = pa.distance(pb)
        k = bisect.bisect_left(edges, d) + 1
        out.append(0 if d <= EPSILON_MM else (k if k <= len(edges) else -1))
    return out


def shapes_in_arc(a: FloatArray, b: FloatArray) -> list[tuple[Any, Any]]:
    """Per pair: the arc region (outside the attacker's base) and the target as polygons."""
    region = [(float(x), float(y)) for x, y in arc_region_outline(XW, "small", ARC)]
    width, length = XW.base_size("small")
    out = []
    for (ax, ay, ah), (bx, by, bh) in zip(a.tolist(), b.tolist(), strict=True):
        t = math.radians(ah)
        c, s = math.cos(t), math.sin(t)
        world = [(ax + px * s + py * c, ay - px * c + py * s) for px, py in region]
        out.append((shapely.Polygon(world), shapely.Polygon(corners(bx, by, bh, width, length))))
    return out


def calls_in_arc(shapes: list[tuple[Any, Any]]) -> list[bool]:
    return [bool(region.intersects(target)) for region, target in shapes]


def shapes_setups(setups: FloatArray) -> list[list[Any]]:
    """Per setup: the six tokens as polygons."""
    outlines = [get_token(XW, t).outline for t in TOKENS]
    mirrored = [o[::-1] * np.array([-1.0, 1.0]) for o in outlines]
    out = []
    for setup in setups:
        polygons = []
        for (x, y, angle, flipped), outline, flip in zip(setup, outlines, mirrored, strict=True):
            t = math.radians(angle)
            c, s = math.cos(t), math.sin(t)
            points = (flip if flipped else outline) @ np.array([[c, s], [-s, c]]) + (x, y)
            polygons.append(shapely.Polygon(points))
        out.append(polygons)
    return out


def calls_setups(shapes: list[list[Any]]) -> list[bool]:
    """Per setup: bounds against the edge limit, then pairwise distances (first failure ends)."""
    limits = placement_limits(XW, AREA)
    out = []
    for polygons in shapes:
        legal = True
        for polygon in polygons:
            x0, y0, x1, y1 = polygon.bounds
            if not (
                y0 - limits.edge > EPSILON_MM
                and (limits.height - y1) - limits.edge > EPSILON_MM
                and x0 - limits.edge > EPSILON_MM
                and (limits.width - x1) - limits.edge > EPSILON_MM
            ):
                legal = False
                break
        if legal:
            legal = all(
                a.distance(b) - limits.spacing > EPSILON_MM
                for a, b in itertools.combinations(polygons, 2)
            )
        out.append(legal)
    return out


def obstacle_polygons() -> list[Any]:
    """Return the six obstacles of the example, placed (built once: the placement is fixed)."""
    from obstacles.scene import Obstacle

    return [
        Obstacle.from_token(XW, f"o{k}", name, x, y, angle, bool(flipped)).polygon()
        for k, (name, (x, y, angle, flipped)) in enumerate(zip(TOKENS, PLACEMENT, strict=True))
    ]


def shapes_obstructed(p: FloatArray, q: FloatArray) -> list[Any]:
    """Per segment: a line string (a point when its ends are allclose)."""
    out = []
    for start, end in zip(p.tolist(), q.tolist(), strict=True):
        close = all(abs(u - v) <= 1e-8 + 1e-5 * abs(v) for u, v in zip(start, end, strict=True))
        out.append(shapely.Point(start) if close else shapely.LineString([start, end]))
    return out


def calls_obstructed(shapes: list[Any]) -> list[bool]:
    polygons = obstacle_polygons()
    return [any(polygon.intersects(segment) for polygon in polygons) for segment in shapes]


def shapes_final_poses(poses: FloatArray) -> list[list[float]]:
    """No shapes for a pose: the rows as Python lists."""
    rows: list[list[float]] = poses.tolist()
    return rows


def calls_final_poses(shapes: list[list[float]]) -> list[tuple[float, float, float]]:
    """Per pose: the maneuver's ship-frame move applied with math (no shapely here)."""
    dx, dy, dh = (float(v) for v in local_move(parse_maneuver(MANEUVER, XW), "small", XW))
    out = []
    for x, y, h in shapes:
        t = math.radians(h)
        c, s = math.cos(t), math.sin(t)
        out.append((x + dx * s + dy * c, y - dx * c + dy * s, (h + dh) % 360.0))
    return out


# -- timing -----------------------------------------------------------------------------


def best_of(call: Callable[[], object], runs: int) -> float:
    best = math.inf
    for _ in range(runs):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


@dataclass
class Row:
    name: str
    n: int
    seconds: float
    loop_per_item: float
    unit: str
    target_rate: float
    target_ratio: float | None
    note: str = ""

    @property
    def rate(self) -> float:
        return self.n / self.seconds

    @property
    def ratio(self) -> float:
        return self.loop_per_item * self.rate

    def met(self) -> bool:
        ok = self.rate >= self.target_rate
        if self.target_ratio is not None:
            ok = ok and self.ratio >= self.target_ratio
        return ok


def human(rate: float) -> str:
    if rate >= 1e6:
        return f"{rate / 1e6:.2f} M"
    return f"{rate / 1e3:.1f} k"


def table(rows: Sequence[Row]) -> str:
    head = (
        f"{'function':<22} {'N':>9} {'time':>9} {'throughput':>17} {'target':>10} "
        f"{'plain loop':>12} {'ratio':>8} {'target':>7}  met  note"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        ratio_target = "-" if r.target_ratio is None else f">={r.target_ratio:g}x"
        lines.append(
            f"{r.name:<22} {r.n:>9,} {r.seconds * 1e3:>7.1f}ms {human(r.rate) + r.unit + '/s':>17} "
            f"{'>=' + human(r.target_rate):>10} {r.loop_per_item * 1e6:>9.2f} us {r.ratio:>7.1f}x "
            f"{ratio_target:>7}  {'yes' if r.met() else 'NO ':<4} {r.note}"
        )
    return "\n".join(lines)


def wall_times(command: Sequence[str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, cwd=ROOT, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return times


def machine() -> str:
    model = "unknown"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    import numba

    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    return (
        f"machine: {cores} cores (nproc), {model}; load average {load}\n"
        f"python {platform.python_version()}, numpy {np.__version__}, shapely {shapely.__version__}, "
        f"numba {numba.__version__} ({numba.get_num_threads()} threads, "
        f"{cast(Any, numba).threading_layer()} layer), path {batch.backend()}"
    )


def query_throughput(n: int) -> str:
    """Time `n` measure requests (with an arc) through the query oracle, in one process."""
    import io
    import json
    import tomllib

    from tabletop.cmd_query import serve

    scene = tomllib.loads((ROOT / QUERY_SCENE).read_text(encoding="utf-8"))
    pairs = [("wedge", "howl"), ("falcon", "vader"), ("howl", "wedge"), ("vader", "falcon")]
    lines = [
        json.dumps({"op": "measure", "scene": scene, "from": a, "to": b, "arc": "front"}) + "\n"
        for a, b in (pairs[i % len(pairs)] for i in range(n))
    ]
    serve(lines[:8], io.StringIO())  # warm: the first scene parse and imports
    start = time.perf_counter()
    serve(lines, io.StringIO())
    rate = n / (time.perf_counter() - start)
    return (
        f"tabletop query: {rate:,.0f} measure requests/s with --arc on {QUERY_SCENE} "
        f"(6 objects; target >= 2,000/s: {'yes' if rate >= 2000 else 'NO'})"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="10x smaller sizes (a smoke run)")
    args = parser.parse_args(argv)
    scale = 10 if args.quick else 1
    started = time.perf_counter()
    rng = np.random.default_rng(20240601)
    start = time.perf_counter()
    tiny = random_poses(rng, 4)
    batch.band(batch.distance(tiny, "small", tiny, "large"))
    batch.in_arc(tiny, "small", tiny, "small", ARC)
    obstacle_batch.setups_legal(TOKENS, random_setups(rng, 4))
    obstacle_batch.obstructed(tiny[:, :2], tiny[:, :2] + 1.0, TOKENS, PLACEMENT)
    final_poses(tiny, "small", MANEUVER)
    first = time.perf_counter() - start
    # After the first calls: asking numba about threads starts its thread pool.
    print(machine())
    print(f"first calls (numba import and kernel load or compile): {first:.2f} s")

    rows: list[Row] = []

    def measure(
        name: str,
        sizes: Sequence[int],
        make: Callable[[int], tuple[Any, ...]],
        run: Callable[..., Any],
        shapes: Callable[..., Any],
        calls: Callable[[Any], Sequence[Any]],
        loop_n: int,
        unit: str,
        target_rate: float,
        target_ratio: float | None,
        note: Callable[[Any], str] = lambda _: "",
        prebuilt: bool = True,
    ) -> None:
        inputs = make(loop_n)
        loop_seconds = best_of(lambda: calls(shapes(*inputs)), 2)
        built = shapes(*inputs)
        calls_seconds = best_of(lambda: calls(built), 2)
        got, expected = calls(built), run(*inputs)
        agree = np.allclose(
            np.asarray(got, dtype=np.float64), np.asarray(expected, dtype=np.float64)
        )
        assert agree, f"{name}: the plain loop and the batch call disagree"
        for n in sizes:
            data = make(n // scale)
            result = run(*data)
            seconds = best_of(functools.partial(run, *data), 3)
            extra = note(result)
            if prebuilt:
                ratio = calls_seconds / loop_n * (n // scale) / seconds
                extra += f"; vs prebuilt shapes {ratio:.0f}x"
            rows.append(
                Row(
                    name,
                    n // scale,
                    seconds,
                    loop_seconds / loop_n,
                    unit,
                    target_rate,
                    target_ratio,
                    extra,
                )
            )

    def pairs(n: int) -> tuple[FloatArray, FloatArray]:
        return random_poses(rng, n), random_poses(rng, n)

    measure(
        "distance + band",
        (10**5, 10**6),
        pairs,
        lambda a, b: batch.band(batch.distance(a, "small", b, "large")),
        shapes_distance,
        calls_distance,
        20_000,
        " pairs",
        5e6,
        30.0,
        lambda r: f"small vs large; {np.mean(r >= 0):.0%} within range 5",
    )
    measure(
        "in_arc",
        (10**5, 10**6),
        pairs,
        lambda a, b: batch.in_arc(a, "small", b, "small", ARC),
        shapes_in_arc,
        calls_in_arc,
        20_000,
        " pairs",
        3e6,
        None,
        lambda r: f"front arc; {np.mean(r):.0%} in arc",
    )
    measure(
        "setups_legal (6 tok.)",
        (10**4, 10**5),
        lambda m: (random_setups(rng, m),),
        lambda s: obstacle_batch.setups_legal(TOKENS, s),
        shapes_setups,
        calls_setups,
        2_000,
        " setups",
        5e4,
        10.0,
        lambda r: f"{np.mean(r):.0%} legal",
    )
    measure(
        "obstructed (6 tok.)",
        (10**5, 10**6),
        lambda n: random_segments(rng, n),
        lambda p, q: obstacle_batch.obstructed(p, q, TOKENS, PLACEMENT),
        shapes_obstructed,
        calls_obstructed,
        20_000,
        " segs",
        1e6,
        None,
        lambda r: f"{np.mean(r):.0%} obstructed",
    )
    measure(
        "final_poses",
        (10**5, 10**6),
        lambda n: (random_poses(rng, n),),
        lambda poses: final_poses(poses, "small", MANEUVER),
        shapes_final_poses,
        calls_final_poses,
        100_000,
        " poses",
        1e7,
        None,
        lambda _: f"{MANEUVER}; loop: math, no shapely",
        prebuilt=False,
    )
    print()
    print(table(rows))

    runs = 3 if args.quick else 7
    bin_dir = Path(sys.executable).parent
    script = bin_dir / "tabletop"
    check = [str(script)] if script.exists() else [sys.executable, "-m", "tabletop"]
    check = [*check, "check", EXAMPLE]
    bare = [sys.executable, "-c", "import numpy, shapely"]
    check_times, bare_times = [], []
    for _ in range(runs):
        check_times += wall_times(check, 1)
        bare_times += wall_times(bare, 1)
    check_median, bare_median = statistics.median(check_times), statistics.median(bare_times)
    ratio = check_median / bare_median
    print()
    print(
        f"tabletop check {EXAMPLE}: median {check_median * 1e3:.0f} ms of {runs} runs; "
        f"python -c 'import numpy, shapely': median {bare_median * 1e3:.0f} ms; "
        f"ratio {ratio:.2f}x (target <= 1.5x: {'yes' if ratio <= 1.5 else 'NO'})"
    )
    print(query_throughput(400 if args.quick else 4000))
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"load average at the end: {load}; whole benchmark {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
