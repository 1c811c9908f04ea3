"""The batch figures: each batch function beside the strongest baseline a user would write.

The baselines start from geometry built beforehand (shapely 2 array functions on arrays
of prebuilt polygons, an ``STRtree`` of the obstacles, eight lines of numpy for poses);
building that geometry is not timed. Each is the fastest form measured by
:mod:`benchmarks.kernels` that gives the same answers (arcs: ``shapely.dwithin`` of the
region by the tolerance; setups: ``shapely.dwithin`` on the setups still legal). Both
sides run on one thread.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray

from benchmarks.paired import (
    Figure,
    forced_path,
    numba_threads,
    paired,
    table,
    threaded,
    unequal,
)
from tabletop.geom import batch
from tabletop.geom.arcs import arc_region_outline
from tabletop.geom.areas import play_area
from tabletop.geom.compiled import choose
from tabletop.geom.rulesets import get_ruleset
from tabletop.geom.tolerance import EPSILON_MM
from tabletop.maneuvers.batch import final_poses
from tabletop.maneuvers.moves import local_move
from tabletop.maneuvers.notation import parse_maneuver
from tabletop.obstacles import batch as obstacle_batch
from tabletop.obstacles._compiled import OBSTACLE_KERNELS
from tabletop.obstacles.catalog import get_token
from tabletop.obstacles.placement import placement_limits

FloatArray = NDArray[np.float64]

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


# -- inputs -----------------------------------------------------------------------------


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
    """Attack-like segments: a start anywhere, 1-300 mm long in any direction."""
    p = rng.uniform(0.0, AREA.width, (n, 2))
    turn = rng.uniform(0.0, 2.0 * math.pi, n)
    length = rng.uniform(1.0, 300.0, n)
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


# -- prebuilt shapely geometry (not timed) ----------------------------------------------


def placed(outline: FloatArray, poses: FloatArray) -> Any:
    """Polygons of a ship-frame outline at each pose (+y forward, +x right)."""
    t = np.radians(poses[:, 2])
    c, s = np.cos(t)[:, None], np.sin(t)[:, None]
    px, py = outline[:, 0][None, :], outline[:, 1][None, :]
    x = poses[:, 0, None] + px * s + py * c
    y = poses[:, 1, None] - px * c + py * s
    return shapely.polygons(np.stack([x, y], axis=-1))


def base_outline(base: str) -> FloatArray:
    w, length = XW.base_size(base)
    return np.array(
        [[-w / 2, -length / 2], [w / 2, -length / 2], [w / 2, length / 2], [-w / 2, length / 2]]
    )


def token_polygons(setups: FloatArray) -> Any:
    """Return an (M, 6) array of the tokens placed at each setup (mirrored when flipped)."""
    out = np.empty(setups.shape[:2], dtype=object)
    for k, name in enumerate(TOKENS):
        outline = get_token(XW, name).outline
        mirrored = outline[::-1] * np.array([-1.0, 1.0])
        for flip, shape in ((0.0, outline), (1.0, mirrored)):
            rows = setups[:, k, 3] == flip
            place = setups[rows, k]
            t = np.radians(place[:, 2])
            c, s = np.cos(t)[:, None], np.sin(t)[:, None]
            x = place[:, 0, None] + shape[None, :, 0] * c - shape[None, :, 1] * s
            y = place[:, 1, None] + shape[None, :, 0] * s + shape[None, :, 1] * c
            out[rows, k] = shapely.polygons(np.stack([x, y], axis=-1))
    return out


# -- the baselines ----------------------------------------------------------------------


def baseline_distance_band(pa: Any, pb: Any) -> tuple[FloatArray, NDArray[np.int64]]:
    """shapely.distance on prebuilt polygons, then the bands with np.searchsorted."""
    d = shapely.distance(pa, pb)
    edges = np.asarray(XW.xwing_range_bands) + EPSILON_MM
    k = np.searchsorted(edges, d) + 1
    k[k > len(edges)] = -1
    k[d <= EPSILON_MM] = 0
    return d, k


def baseline_setups(polygons: Any) -> NDArray[np.bool_]:
    """shapely.bounds against the edge limit, shapely.distance on each of the 15 pairs."""
    limits = placement_limits(XW, AREA)
    b = shapely.bounds(polygons)  # (M, 6, 4)
    legal = np.all(
        (b[..., 0] - limits.edge > EPSILON_MM)
        & (b[..., 1] - limits.edge > EPSILON_MM)
        & ((limits.width - b[..., 2]) - limits.edge > EPSILON_MM)
        & ((limits.height - b[..., 3]) - limits.edge > EPSILON_MM),
        axis=1,
    )
    for i, j in itertools.combinations(range(polygons.shape[1]), 2):
        legal &= shapely.distance(polygons[:, i], polygons[:, j]) - limits.spacing > EPSILON_MM
    return np.asarray(legal, dtype=np.bool_)


def baseline_setups_dwithin(polygons: Any) -> NDArray[np.bool_]:
    """shapely.bounds against the edge limit, then shapely.dwithin on the rows still legal.

    The strongest shapely form: a pair is tested only on the setups no earlier test ruled
    out, and ``dwithin`` stops at the spacing instead of measuring the whole distance.
    """
    limits = placement_limits(XW, AREA)
    b = shapely.bounds(polygons)
    nearest = np.minimum.reduce(
        [b[..., 0], b[..., 1], limits.width - b[..., 2], limits.height - b[..., 3]]
    )
    legal = np.all(nearest - limits.edge > EPSILON_MM, axis=1)
    for i, j in itertools.combinations(range(polygons.shape[1]), 2):
        rows = np.flatnonzero(legal)
        near = shapely.dwithin(polygons[rows, i], polygons[rows, j], limits.spacing + EPSILON_MM)
        legal[rows[near]] = False
    return np.asarray(legal, dtype=np.bool_)


def baseline_obstructed(tree: Any, segments: Any) -> NDArray[np.bool_]:
    """STRtree.query with the intersects predicate on prebuilt line strings."""
    hit = np.zeros(len(segments), dtype=np.bool_)
    hit[tree.query(segments, predicate="intersects")[0]] = True
    return hit


def baseline_final_poses(poses: FloatArray, move: FloatArray) -> FloatArray:
    """Eight lines of numpy: the ship-frame move rotated into the world."""
    dx, dy, dh = move
    t = np.radians(poses[:, 2])
    c, s = np.cos(t), np.sin(t)
    out = np.empty_like(poses)
    out[:, 0] = poses[:, 0] + dx * s + dy * c
    out[:, 1] = poses[:, 1] - dx * c + dy * s
    out[:, 2] = np.mod(poses[:, 2] + dh, 360.0)
    return out


def two_calls(a: FloatArray, b: FloatArray) -> tuple[FloatArray, NDArray[np.int64]]:
    """Return the unfused form: the distances, then their bands in a second pass."""
    d = batch.distance(a, "small", b, "large")
    return d, batch.band(d)


def pose_mismatches(got: FloatArray, expected: FloatArray) -> int:
    """Count rows that differ by more than 1e-9 (headings compared around the circle)."""
    turn = np.abs((got[:, 2] - expected[:, 2] + 180.0) % 360.0 - 180.0)
    far = np.abs(got[:, :2] - expected[:, :2]).max(axis=1) > 1e-9
    return int(np.count_nonzero(far | (turn > 1e-9)))


def pair_mismatches(
    got: tuple[FloatArray, NDArray[np.int64]], expected: tuple[FloatArray, NDArray[np.int64]]
) -> int:
    far = np.abs(got[0] - expected[0]) > 1e-9
    return int(np.count_nonzero(far | (got[1] != expected[1])))


# -- the report -------------------------------------------------------------------------


def served_path(name: str) -> str:
    """Return the path the batch function of figure `name` takes now (its package's rule)."""
    if name in ("setups_legal", "obstructed"):
        return choose(OBSTACLE_KERNELS)
    return batch.backend()


class _Rows:
    """The table's rows, each workload timed on every path against its baseline."""

    def __init__(self, rounds: int) -> None:
        self.rounds = rounds
        self.figures: list[Figure] = []

    def both(
        self,
        name: str,
        baseline: str,
        n: int,
        ours: Callable[[], Any],
        theirs: Callable[[], Any],
        mismatches: Callable[[Any, Any], int],
    ) -> None:
        # Each path forced in turn; the row names the path that served (a missing or
        # stale compiled module gives way to numba, and the row says so).
        for path in ("aot", "numba", "numpy"):
            with forced_path(path):
                served = served_path(name)
                figure = paired(name, served, baseline, n, ours, theirs, mismatches, self.rounds)
                if path == "numba":
                    figure = threaded(figure, ours, self.rounds)
                self.figures.append(figure)


def _distance_band(rows: _Rows, a: Any, b: Any, n: int) -> str:
    """Time distance+band, fused and as two calls; return the note on the C floor."""
    pa, pb = placed(base_outline("small"), a), placed(base_outline("large"), b)
    rows.both(
        "distance+band",
        "shapely.distance + searchsorted",
        n,
        lambda: batch.distance_band(a, "small", b, "large"),
        lambda: baseline_distance_band(pa, pb),
        pair_mismatches,
    )
    fused = rows.figures[-3]
    with forced_path("aot"):
        unfused = paired(
            "distance, band",
            served_path("distance+band"),
            "distance_band (fused)",
            n,
            lambda: two_calls(a, b),
            lambda: batch.distance_band(a, "small", b, "large"),
            pair_mismatches,
            rows.rounds,
        )
    rows.figures.append(unfused)
    per_pair = fused.ours.cpu / n * 1e9
    return (
        f"distance+band, {fused.path}, one thread: {per_pair:.1f} ns CPU per pair; two calls, "
        f"band(distance()): {unfused.ours.cpu / n * 1e9:.1f} ns (each kernel against a C loop "
        "of it, measured here: python -m benchmarks.kernels)"
    )


def _in_arc(rows: _Rows, a: Any, b: Any, n: int) -> None:
    region = arc_region_outline(XW, "small", ARC)
    ra, tb = placed(region, a), placed(base_outline("small"), b)
    rows.both(
        "in_arc",
        "shapely.dwithin (region, base, 1e-6)",
        n,
        lambda: batch.in_arc(a, "small", b, "small", ARC),
        lambda: shapely.dwithin(ra, tb, EPSILON_MM),
        unequal,
    )


def _obstacles(rows: _Rows, rng: np.random.Generator, m: int, n: int) -> None:
    """Time setups_legal on `m` setups, then obstructed on `n` segments (rng in that order)."""
    setups = random_setups(rng, m)
    polygons = token_polygons(setups)
    rows.both(
        "setups_legal",
        "bounds + dwithin on legal rows",
        m,
        lambda: obstacle_batch.setups_legal(TOKENS, setups),
        lambda: baseline_setups_dwithin(polygons),
        unequal,
    )
    p, q = random_segments(rng, n)
    tree = shapely.STRtree(token_polygons(PLACEMENT[None])[0])
    lines = shapely.linestrings(np.stack([p, q], axis=1))
    rows.both(
        "obstructed",
        "STRtree.query(intersects)",
        n,
        lambda: obstacle_batch.obstructed(p, q, TOKENS, PLACEMENT),
        lambda: baseline_obstructed(tree, lines),
        unequal,
    )


def _final_poses(rows: _Rows, rng: np.random.Generator, k: int) -> None:
    poses = random_poses(rng, k)
    move = np.asarray(local_move(parse_maneuver(MANEUVER, XW), "small", XW), dtype=np.float64)
    rows.both(
        "final_poses",
        "8 lines of numpy",
        k,
        lambda: final_poses(poses, "small", MANEUVER),
        lambda: baseline_final_poses(poses, move),
        pose_mismatches,
    )


def report(*, quick: bool) -> str:
    scale = 10 if quick else 1
    rows = _Rows(rounds=3 if quick else 7)
    rng = np.random.default_rng(20240601)
    threads = numba_threads(None)
    numba_threads(1)
    n = 100_000 // scale
    a, b = random_poses(rng, n), random_poses(rng, n)
    notes = [_distance_band(rows, a, b, n)]
    _in_arc(rows, a, b, n)
    _obstacles(rows, rng, 10_000 // scale, n)
    _final_poses(rows, rng, 500_000 // scale)
    numba_threads(None)
    legend = (
        f"Paired, {rows.rounds} alternating rounds; medians; both sides on one thread "
        f"(numba.set_num_threads(1); the aot kernels are single-threaded); 'path' is the path "
        "that served the row (aot: compiled ahead of time; numba: its JIT); 'threaded' is "
        f"the numba path on {threads} threads "
        "against the baseline's one-thread median; 'mismatch' counts items of the last "
        "round whose answers differ (floats by more than 1e-9 mm). Baselines start from "
        "prebuilt shapely geometry (not timed)."
    )
    slowest = [f for f in rows.figures if f.path == "numpy" and f.ratio < 1.0]
    notes.append(
        "numpy path slower than its baseline: "
        + (", ".join(f"{f.name} ({f.ratio:.2f}x)" for f in slowest) or "none")
    )
    return "\n".join([legend, "", table(rows.figures, threads), "", *notes])
