"""Compiled kernels behind :mod:`tabletop.geom.batch` and :mod:`tabletop.maneuvers.batch` (bases and poses).

This module imports numba, so nothing imports it at start-up: the batch modules import it
inside their functions, and only when the numba path is selected (``tabletop.geom.batch.backend``).
Every kernel is compiled with ``cache=True`` (the machine code is kept in ``__pycache__``)
and writes into an output array its caller allocates. The geometry is the same as the
numpy path of each batch module, written out per item:

* bases are rectangles (half-width across the ship, half-length along it) or disks;
* ship frame: +y forward, +x right; a heading of θ degrees has forward ``(cos θ, sin θ)``
  and right ``(sin θ, −cos θ)``; the base kernels take sine and cosine from
  :func:`sincos_degrees` (polynomials, within about 1e-15 of numpy's, exact at multiples
  of 90°), which lets the distance loop run on the vector units; :func:`compose_moves`
  calls the C library's sine and cosine, so its final poses agree with the scalar path
  (:func:`tabletop.geom.poses.compose`, a table of whole degrees and short series) within 1e-12 mm
  and exactly at multiples of 90°;
* orientation signs are exact (:func:`tabletop.geom.numba_support.orient`).

The obstacle kernels are :mod:`tabletop.obstacles._kernels`; the compile helper, the launch lock
and the exact predicates are :mod:`tabletop.geom.numba_support`.

Examples
--------
>>> import numpy as np
>>> out = np.empty(1)
>>> rect = np.array([[20.0, 20.0, 0.0]])
>>> distances(np.array([[0.0, 0.0, 0.0]]), np.array([[0.0, 0.0, 45.0]]), rect, rect, out)
>>> out.tolist()
[0.0]
"""

from __future__ import annotations

import math

import numpy as np

from tabletop.geom._arc_kernel import arc_hit
from tabletop.geom.numba_support import LAUNCH_LOCK, BoolArray, IntArray, jit, orient, prange
from tabletop.geom.poses import FloatArray
from tabletop.geom.tolerance import EPSILON_MM

__all__ = [
    "INLINE_EDGES",
    "LAUNCH_LOCK",
    "ROWS",
    "arc_hit",
    "arcs_hit",
    "compose_moves",
    "distances",
    "distances_bands",
    "orient",
    "sincos_degrees",
]


# -- bases: distance and arcs -----------------------------------------------------------


#: Taylor coefficients of sin and cos: on ±π/4 the first omitted terms are below 1e-16.
_SIN = (
    -1.0 / 6.0,
    1.0 / 120.0,
    -1.0 / 5040.0,
    1.0 / 362880.0,
    -1.0 / 39916800.0,
    1.0 / 6227020800.0,
    -1.0 / 1307674368000.0,
)
_COS = (
    -1.0 / 2.0,
    1.0 / 24.0,
    -1.0 / 720.0,
    1.0 / 40320.0,
    -1.0 / 3628800.0,
    1.0 / 479001600.0,
    -1.0 / 87178291200.0,
    1.0 / 20922789888000.0,
)
_RADIANS = math.pi / 180.0


@jit(inline=True)
def sincos_degrees(h: float) -> tuple[float, float]:
    """Return ``(sin, cos)`` of `h` degrees, within about 1e-15 of ``numpy``'s.

    The heading is reduced to ±45° about a multiple of 90° (so 90°, 180°, ... are exact),
    then two polynomials: no library call, so the loops calling it can be vectorised.
    """
    q = np.rint(h / 90.0)
    r = (h - 90.0 * q) * _RADIANS
    r2 = r * r
    s = r * (
        1.0
        + r2
        * (
            _SIN[0]
            + r2
            * (
                _SIN[1]
                + r2 * (_SIN[2] + r2 * (_SIN[3] + r2 * (_SIN[4] + r2 * (_SIN[5] + r2 * _SIN[6]))))
            )
        )
    )
    c = 1.0 + r2 * (
        _COS[0]
        + r2
        * (
            _COS[1]
            + r2
            * (
                _COS[2]
                + r2 * (_COS[3] + r2 * (_COS[4] + r2 * (_COS[5] + r2 * (_COS[6] + r2 * _COS[7]))))
            )
        )
    )
    # q modulo 4 as -2 to 2 (-1 is the quadrant 3, -2 and 2 the quadrant 2), exact in
    # floating point: no conversion to an integer, which the vector units lack.
    m = q - 4.0 * np.rint(q * 0.25)
    odd = m == 1.0 or m == -1.0
    half_turn = m == 2.0 or m == -2.0
    sine = c if odd else s
    cosine = s if odd else c
    sine = -sine if half_turn or m == -1.0 else sine
    cosine = -cosine if half_turn or m == 1.0 else cosine
    return sine, cosine


#: Band edges the distance loops compare against inline; more are banded per chunk after.
INLINE_EDGES = 6


@jit(inline=True)
def _frame(
    ax: float, ay: float, ah: float, bx: float, by: float, bh: float
) -> tuple[float, float, float, float, float, float, float, float]:
    """Return ``dx, dy``, cos and sin of θa − θb, B's centre in A's frame and in B's axes."""
    as_, ac = sincos_degrees(ah)
    bs, bc = sincos_degrees(bh)
    dx, dy = bx - ax, by - ay
    cc = ac * bc + as_ * bs  # cos(θa − θb)
    sn = as_ * bc - ac * bs  # sin(θa − θb)
    u, v = dx * as_ - dy * ac, dx * ac + dy * as_  # B's centre in A's frame
    ub, vb = dx * bs - dy * bc, dx * bc + dy * bs  # ... and in B's own axes
    return dx, dy, cc, sn, u, v, ub, vb


@jit(inline=True)
def _rectangles(
    u: float,
    v: float,
    ub: float,
    vb: float,
    cc: float,
    sn: float,
    ahw: float,
    ahl: float,
    bhw: float,
    bhl: float,
) -> float:
    """Return the distance of two rectangles (separating axes, then the nearest corner)."""
    acc, asn = abs(cc), abs(sn)
    # No separating axis with a positive gap means they meet; apart, the closest points
    # include a corner of one of them.
    gap = max(
        max(abs(u) - (ahw + bhw * acc + bhl * asn), abs(v) - (ahl + bhw * asn + bhl * acc)),
        max(abs(ub) - (bhw + ahw * acc + ahl * asn), abs(vb) - (bhl + ahw * asn + ahl * acc)),
    )
    best = math.inf
    for sx in (-1.0, 1.0):
        for sy in (-1.0, 1.0):
            x = u + sx * bhw * cc + sy * bhl * sn  # B's corners in A's frame
            y = v - sx * bhw * sn + sy * bhl * cc
            ex, ey = max(abs(x) - ahw, 0.0), max(abs(y) - ahl, 0.0)
            best = min(best, ex * ex + ey * ey)
            x = -ub + sx * ahw * cc - sy * ahl * sn  # A's corners in B's frame
            y = -vb + sx * ahw * sn + sy * ahl * cc
            ex, ey = max(abs(x) - bhw, 0.0), max(abs(y) - bhl, 0.0)
            best = min(best, ex * ex + ey * ey)
    return math.sqrt(best) if gap > 0.0 else 0.0


@jit(inline=True)
def _band(d: float, edges: FloatArray, last: int, zero_band: bool) -> int:
    """Return the band of `d` against the first :data:`INLINE_EDGES` of padded `edges`.

    ``edges`` holds :data:`INLINE_EDGES` values, the unused ones infinite; `last` is the
    number of real edges. Unrolled compares, so the loop calling it stays on the vector units.
    """
    k = 1
    for e in range(INLINE_EDGES):
        k += 1 if d > edges[e] else 0
    return 0 if zero_band and d <= EPSILON_MM else (-1 if k > last else k)


@jit()
def _rectangle_rows(
    flat_a: FloatArray,
    flat_b: FloatArray,
    ahw: float,
    ahl: float,
    bhw: float,
    bhl: float,
    edges: FloatArray,
    last: int,
    zero_band: bool,
    out: FloatArray,
    bands: IntArray,
) -> None:
    """Fill `out` and `bands` for rows of poses whose bases are one rectangle each side.

    The common case (X-Wing, Armada ships): no disk case to compute, dims as scalars. The
    poses are read in place from flat views of the rows (``x, y, heading`` three values
    apart, from 0): a stride the compiler knows and an index it knows is not negative, so
    the loop vectorises without copying the poses into columns.
    """
    for i in range(out.shape[0]):
        r = 3 * i
        _, _, cc, sn, u, v, ub, vb = _frame(
            flat_a[r], flat_a[r + 1], flat_a[r + 2], flat_b[r], flat_b[r + 1], flat_b[r + 2]
        )
        d = _rectangles(u, v, ub, vb, cc, sn, ahw, ahl, bhw, bhl)
        out[i] = d
        bands[i] = _band(d, edges, last, zero_band)


@jit()
def _distance_rows(
    ax: FloatArray,
    ay: FloatArray,
    ah: FloatArray,
    bx: FloatArray,
    by: FloatArray,
    bh: FloatArray,
    a_hw: FloatArray,
    a_hl: FloatArray,
    a_r: FloatArray,
    b_hw: FloatArray,
    b_hl: FloatArray,
    b_r: FloatArray,
    edges: FloatArray,
    last: int,
    zero_band: bool,
    out: FloatArray,
    bands: IntArray,
) -> None:
    """Fill `out` and `bands` from columns (a structure of arrays, so that the loop vectorises).

    Every case is computed for every row and the answer selected at the end: two
    rectangles, a disk and a rectangle, or two disks (``r > 0``).
    """
    for i in range(out.shape[0]):
        dx, dy, cc, sn, u, v, ub, vb = _frame(ax[i], ay[i], ah[i], bx[i], by[i], bh[i])
        ahw, ahl, ar = a_hw[i], a_hl[i], a_r[i]
        bhw, bhl, br = b_hw[i], b_hl[i], b_r[i]
        rect = _rectangles(u, v, ub, vb, cc, sn, ahw, ahl, bhw, bhl)
        # A disk: its centre to the other rectangle, less its radius.
        a_disk, b_disk = ar > 0.0, br > 0.0
        px, py = (ub, vb) if a_disk else (u, v)
        ex = max(abs(px) - (bhw if a_disk else ahw), 0.0)
        ey = max(abs(py) - (bhl if a_disk else ahl), 0.0)
        disk_rect = max(math.sqrt(ex * ex + ey * ey) - (ar if a_disk else br), 0.0)
        disks = max(math.sqrt(dx * dx + dy * dy) - ar - br, 0.0)
        d = disks if a_disk and b_disk else (disk_rect if a_disk or b_disk else rect)
        out[i] = d
        bands[i] = _band(d, edges, last, zero_band)


#: Rows per chunk of the vectorised kernel: its 12 columns (48 kB) stay in cache.
ROWS = 512


@jit(inline=True)
def _fill_columns(
    a: FloatArray,
    b: FloatArray,
    dims_a: FloatArray,
    dims_b: FloatArray,
    lo: int,
    m: int,
    cols: FloatArray,
) -> None:
    """Copy rows ``lo:lo + m`` of poses and dims into the 12 columns of `cols`."""
    # The rows read through flat views, three values apart from 0: a stride the compiler
    # knows (a 2-D array's row stride is known only at run time) and an index it knows
    # is not negative (no wraparound), so the copy vectorises.
    flat_a = a.reshape(-1)[3 * lo : 3 * (lo + m)]
    flat_b = b.reshape(-1)[3 * lo : 3 * (lo + m)]
    for j in range(m):
        r = 3 * j
        cols[0, j] = flat_a[r]
        cols[1, j] = flat_a[r + 1]
        cols[2, j] = flat_a[r + 2]
        cols[3, j] = flat_b[r]
        cols[4, j] = flat_b[r + 1]
        cols[5, j] = flat_b[r + 2]
    per_a, per_b = dims_a.shape[0] > 1, dims_b.shape[0] > 1
    for k in range(3):
        if per_a:
            for j in range(m):
                cols[6 + k, j] = dims_a[lo + j, k]
        else:
            cols[6 + k, :] = dims_a[0, k]
        if per_b:
            for j in range(m):
                cols[9 + k, j] = dims_b[lo + j, k]
        else:
            cols[9 + k, :] = dims_b[0, k]


@jit(inline=True)
def _distance_chunk(
    a: FloatArray,
    b: FloatArray,
    dims_a: FloatArray,
    dims_b: FloatArray,
    rectangles: bool,
    edges: FloatArray,
    last: int,
    zero_band: bool,
    lo: int,
    m: int,
    out: FloatArray,
    bands: IntArray,
) -> None:
    """Fill `out` and `bands` for rows ``lo .. lo + m``.

    One rectangle each side (`rectangles`): the loop that has no disk case, on the poses
    in place. Otherwise the rows are copied into columns first (a structure of arrays,
    the dims per row among them), so that the loop vectorises.
    """
    if rectangles:
        ahw, ahl = dims_a[0, 0], dims_a[0, 1]
        bhw, bhl = dims_b[0, 0], dims_b[0, 1]
        flat_a = a.reshape(-1)[3 * lo : 3 * (lo + m)]
        flat_b = b.reshape(-1)[3 * lo : 3 * (lo + m)]
        _rectangle_rows(flat_a, flat_b, ahw, ahl, bhw, bhl, edges, last, zero_band, out, bands)
        return
    cols = np.empty((12, m))
    _fill_columns(a, b, dims_a, dims_b, lo, m, cols)
    _distance_rows(
        cols[0],
        cols[1],
        cols[2],
        cols[3],
        cols[4],
        cols[5],
        cols[6],
        cols[7],
        cols[8],
        cols[9],
        cols[10],
        cols[11],
        edges,
        last,
        zero_band,
        out,
        bands,
    )


@jit(inline=True)
def _one_rectangle_each(dims_a: FloatArray, dims_b: FloatArray) -> bool:
    """Return whether both dims arrays are one row of a rectangle (radius 0)."""
    one_each = dims_a.shape[0] == 1 and dims_b.shape[0] == 1
    return bool(one_each and dims_a[0, 2] <= 0.0 and dims_b[0, 2] <= 0.0)


@jit(inline=True)
def _padded_edges(edges: FloatArray) -> FloatArray:
    """Return the first :data:`INLINE_EDGES` of `edges`, infinite beyond the last."""
    padded = np.full(INLINE_EDGES, math.inf)
    for e in range(min(edges.shape[0], INLINE_EDGES)):
        padded[e] = edges[e]
    return padded


@jit(parallel=True)
def distances(
    a: FloatArray, b: FloatArray, dims_a: FloatArray, dims_b: FloatArray, out: FloatArray
) -> None:
    """Fill `out` with base distances; dims rows ``(half-width, half-length, radius)``.

    A dims array of one row applies to every pose. Each chunk of rows is measured by a
    loop the compiler vectorises (its bands, against no edges, are discarded).
    """
    n = out.shape[0]
    rectangles = _one_rectangle_each(dims_a, dims_b)
    edges = _padded_edges(np.empty(0))
    for chunk in prange((n + ROWS - 1) // ROWS):
        lo = chunk * ROWS
        m = min(n, lo + ROWS) - lo
        bands = np.empty(m, dtype=np.int64)
        _distance_chunk(
            a, b, dims_a, dims_b, rectangles, edges, 0, False, lo, m, out[lo : lo + m], bands
        )


@jit(parallel=True)
def distances_bands(
    a: FloatArray,
    b: FloatArray,
    dims_a: FloatArray,
    dims_b: FloatArray,
    edges: FloatArray,
    zero_band: bool,
    out: FloatArray,
    bands: IntArray,
) -> None:
    """Fill `out` with base distances and `bands` with their bands, in one pass.

    `edges` are the band lines grown by the length tolerance (as
    :func:`tabletop.geom.measure.line_bands` searches them): band k + 1 when beyond k edges, −1
    beyond the last; with `zero_band`, 0 for a distance within the tolerance of 0. Up to
    :data:`INLINE_EDGES` edges are compared in the distance loop itself; more (no ruleset
    has them) in a second pass over each chunk, while its distances are still in cache.
    """
    n = out.shape[0]
    last = edges.shape[0]
    rectangles = _one_rectangle_each(dims_a, dims_b)
    inline = _padded_edges(edges)
    for chunk in prange((n + ROWS - 1) // ROWS):
        lo = chunk * ROWS
        m = min(n, lo + ROWS) - lo
        d = out[lo : lo + m]
        k = bands[lo : lo + m]
        _distance_chunk(a, b, dims_a, dims_b, rectangles, inline, last, zero_band, lo, m, d, k)
        for j in range(m if last > INLINE_EDGES else 0):
            k[j] = 1 + int(np.sum(d[j] > edges))
            k[j] = 0 if zero_band and d[j] <= EPSILON_MM else (-1 if k[j] > last else k[j])


@jit(parallel=True)
def arcs_hit(
    a: FloatArray,
    b: FloatArray,
    dims_a: FloatArray,
    dims_b: FloatArray,
    halves: FloatArray,
    arc: int,
    bull_half_width: float,
    bull_length: float,
    out: BoolArray,
) -> None:
    """Fill `out` with :func:`arc_hit` of each attacker pose `a` and target pose `b`.

    `halves` holds the arc half-angle (degrees) per row of `dims_a`.
    """
    n = out.shape[0]
    sa = 1 if dims_a.shape[0] > 1 else 0
    sb = 1 if dims_b.shape[0] > 1 else 0
    # One attacker base: its half-angle's sine and cosine once, not per pair.
    sin_one, cos_one = sincos_degrees(halves[0])
    for i in prange(n):
        ja, jb = i * sa, i * sb
        as_, ac = sincos_degrees(a[i, 2])
        bs, bc = sincos_degrees(b[i, 2])
        sin_half, cos_half = sincos_degrees(halves[ja]) if sa else (sin_one, cos_one)
        dx, dy = b[i, 0] - a[i, 0], b[i, 1] - a[i, 1]
        out[i] = arc_hit(
            dx * as_ - dy * ac,
            dx * ac + dy * as_,
            ac * bc + as_ * bs,
            as_ * bc - ac * bs,
            dims_b[jb, 0],
            dims_b[jb, 1],
            dims_a[ja, 0],
            dims_a[ja, 1],
            sin_half,
            cos_half,
            arc,
            bull_half_width,
            bull_length,
        )


# -- poses ------------------------------------------------------------------------------


@jit(parallel=True)
def compose_moves(poses: FloatArray, move: FloatArray, out: FloatArray) -> None:
    """Fill `out` with `poses` moved by one ship-frame move ``(dx, dy, dheading)``.

    The arithmetic is ``tabletop.geom.poses.compose``'s, term by term.
    """
    dx, dy, dh = move[0], move[1], move[2]
    for i in prange(poses.shape[0]):
        theta = math.radians(poses[i, 2])
        c, s = math.cos(theta), math.sin(theta)
        out[i, 0] = poses[i, 0] + dx * s + dy * c
        out[i, 1] = poses[i, 1] + dx * -c + dy * s
        heading = (poses[i, 2] + dh) % 360.0  # Python's float modulo: numpy's np.mod
        # A heading a hair below 0 folds to 360.0 in floating point: that is 0.
        out[i, 2] = 0.0 if heading >= 360.0 else heading
