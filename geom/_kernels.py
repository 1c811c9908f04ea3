"""Compiled kernels behind :mod:`geom.batch`, :mod:`obstacles.batch` and :mod:`maneuvers.batch`.

This module imports numba, so nothing imports it at start-up: the batch modules import it
inside their functions, and only when the numba path is selected (``geom.batch.backend``).
Every kernel is compiled with ``cache=True`` (the machine code is kept in ``__pycache__``)
and writes into an output array its caller allocates. The geometry is the same as the
numpy path of each batch module, written out per item:

* bases are rectangles (half-width across the ship, half-length along it) or disks;
* ship frame: +y forward, +x right; a heading of θ degrees has forward ``(cos θ, sin θ)``
  and right ``(sin θ, −cos θ)``; the base kernels take sine and cosine from
  :func:`sincos_degrees` (polynomials, within about 1e-15 of numpy's, exact at multiples
  of 90°), which lets the distance loop run on the vector units; :func:`compose_moves`
  calls the C library like numpy, so final poses equal the scalar path's bit for bit;
* orientation signs are exact (:func:`orient`): a floating-point filter, and an exact
  expansion sum where the filter cannot decide.

Threads: unless ``NUMBA_THREADING_LAYER`` is set, importing this module selects numba's
own ``workqueue`` threading layer (for the whole process, if no parallel kernel has run
yet): on the 2-core VM the benchmarks run on, waking the OpenMP layer's threads costs a
scheduler tick, 4-12 ms per call, against 0.06 ms for the workqueue. The workqueue runs
one parallel kernel at a time, so callers launch kernels under :data:`LAUNCH_LOCK`.

Examples
--------
>>> import numpy as np
>>> out = np.empty(1)
>>> rect = np.array([[20.0, 20.0, 0.0]])
>>> distances(np.array([[0.0, 0.0, 0.0]]), np.array([[0.0, 0.0, 45.0]]), rect, rect, out)
>>> out.tolist()
[0.0]
>>> orient(0.0, 0.0, 1.0, 1.0, 0.5, 0.5), orient(0.0, 0.0, 1.0, 0.0, 0.5, 1e-300)
(0, 1)
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numpy.typing import NDArray

from geom.poses import FloatArray
from geom.rulesets import EPSILON_MM

__all__ = [
    "CHUNK",
    "LAUNCH_LOCK",
    "ROWS",
    "arc_hit",
    "arcs_hit",
    "compose_moves",
    "distances",
    "obstacles_within",
    "orient",
    "point_in_ring",
    "segments_blocked",
    "segments_meet",
    "setups",
    "sincos_degrees",
]

IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

_F = TypeVar("_F", bound=Callable[..., Any])

#: Setups per parallel chunk of :func:`setups` (each chunk allocates its scratch once).
CHUNK = 256
#: Shewchuk's ``ccwerrboundA``: beyond it the floating-point orientation sign is right.
_CCW_BOUND = (3.0 + 16.0 * 2.0**-53) * 2.0**-53
_SPLITTER = 134217729.0  # 2^27 + 1, Dekker's split

_prange = cast(Callable[[int], range], numba.prange)

if "NUMBA_THREADING_LAYER" not in os.environ:
    _config: Any = numba.config
    _config.THREADING_LAYER = "workqueue"

#: Held while a parallel kernel runs: the workqueue layer cannot run two at once.
LAUNCH_LOCK = threading.Lock()


def _jit(*, parallel: bool = False, inline: bool = False) -> Callable[[_F], _F]:
    """Compile with numba: no Python objects, cached machine code, numpy's error model."""
    return cast(
        Callable[[_F], _F],
        numba.njit(
            cache=True,
            parallel=parallel,
            nogil=True,
            error_model="numpy",
            inline="always" if inline else "never",
        ),
    )


# -- exact orientation ------------------------------------------------------------------


@_jit()
def _two_product(a: float, b: float) -> tuple[float, float]:
    x = a * b
    c = _SPLITTER * a
    a_hi = c - (c - a)
    a_lo = a - a_hi
    c = _SPLITTER * b
    b_hi = c - (c - b)
    b_lo = b - b_hi
    err = x - a_hi * b_hi
    err = err - a_lo * b_hi
    err = err - a_hi * b_lo
    return x, a_lo * b_lo - err


@_jit()
def _two_diff(a: float, b: float) -> tuple[float, float]:
    x = a - b
    b_virtual = a - x
    a_virtual = x + b_virtual
    return x, (a - a_virtual) + (b_virtual - b)


@_jit()
def _exact_sign(terms: FloatArray) -> int:
    """Return the sign of the exact sum of `terms` (Shewchuk's partials, as ``math.fsum``)."""
    partials = np.empty(terms.shape[0] + 1)
    count = 0
    for k in range(terms.shape[0]):
        x = terms[k]
        kept = 0
        for j in range(count):
            y = partials[j]
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo != 0.0:
                partials[kept] = lo
                kept += 1
            x = hi
        partials[kept] = x
        count = kept + 1
    for j in range(count - 1, -1, -1):
        if partials[j] > 0.0:
            return 1
        if partials[j] < 0.0:
            return -1
    return 0


@_jit()
def _orient_exact(ax: float, ay: float, bx: float, by: float, cx: float, cy: float) -> int:
    # (ax - cx)(by - cy) - (ay - cy)(bx - cx), each difference an exact two-term sum.
    p, p_lo = _two_diff(ax, cx)
    q, q_lo = _two_diff(by, cy)
    r, r_lo = _two_diff(ay, cy)
    s, s_lo = _two_diff(bx, cx)
    terms = np.empty(16)
    k = 0
    for u, v, sign in (
        (p, q, 1.0),
        (p, q_lo, 1.0),
        (p_lo, q, 1.0),
        (p_lo, q_lo, 1.0),
        (r, s, -1.0),
        (r, s_lo, -1.0),
        (r_lo, s, -1.0),
        (r_lo, s_lo, -1.0),
    ):
        hi, lo = _two_product(u, v)
        terms[k] = sign * hi
        terms[k + 1] = sign * lo
        k += 2
    return _exact_sign(terms)


@_jit()
def orient(ax: float, ay: float, bx: float, by: float, cx: float, cy: float) -> int:
    """Return the exact sign of the turn a → b → c: 1 left (counter-clockwise), −1 right, 0 on.

    Exact while no product of coordinate differences underflows: for coordinates that are
    0 or larger than about 1e-150 in magnitude (every millimetre-scale input).
    """
    left = (ax - cx) * (by - cy)
    right = (ay - cy) * (bx - cx)
    det = left - right
    if left > 0.0:
        if right <= 0.0:
            return 1 if det > 0.0 else (-1 if det < 0.0 else 0)
        total = left + right
    elif left < 0.0:
        if right >= 0.0:
            return 1 if det > 0.0 else (-1 if det < 0.0 else 0)
        total = -left - right
    else:
        return 1 if det > 0.0 else (-1 if det < 0.0 else 0)
    bound = _CCW_BOUND * total
    if det >= bound and det != 0.0:
        return 1
    if -det >= bound and det != 0.0:
        return -1
    return _orient_exact(ax, ay, bx, by, cx, cy)


@_jit()
def _between(a: float, b: float, x: float) -> bool:
    return min(a, b) <= x <= max(a, b)


@_jit()
def segments_meet(
    px: float, py: float, qx: float, qy: float, ax: float, ay: float, bx: float, by: float
) -> bool:
    """Return whether closed segments pq and ab share a point (exact signs)."""
    o1 = orient(px, py, qx, qy, ax, ay)
    o2 = orient(px, py, qx, qy, bx, by)
    if o1 * o2 > 0:
        return False
    o3 = orient(ax, ay, bx, by, px, py)
    o4 = orient(ax, ay, bx, by, qx, qy)
    if o3 * o4 > 0:
        return False
    if o1 != 0 or o2 != 0 or o3 != 0 or o4 != 0:
        if o1 * o2 < 0 and o3 * o4 < 0:
            return True
        if o1 == 0 and _between(px, qx, ax) and _between(py, qy, ay):
            return True
        if o2 == 0 and _between(px, qx, bx) and _between(py, qy, by):
            return True
        if o3 == 0 and _between(ax, bx, px) and _between(ay, by, py):
            return True
        return o4 == 0 and _between(ax, bx, qx) and _between(ay, by, qy)
    # All four on one line: the projections overlap.
    return max(min(px, qx), min(ax, bx)) <= min(max(px, qx), max(ax, bx)) and max(
        min(py, qy), min(ay, by)
    ) <= min(max(py, qy), max(ay, by))


@_jit()
def point_in_ring(x: float, y: float, ring: FloatArray, lo: int, hi: int) -> int:
    """Return 1 inside, 0 on the boundary, −1 outside of the ring ``ring[lo:hi]`` (exact)."""
    inside = False
    for v in range(lo, hi):
        w = v + 1 if v + 1 < hi else lo
        ax, ay, bx, by = ring[v, 0], ring[v, 1], ring[w, 0], ring[w, 1]
        o = orient(ax, ay, bx, by, x, y)
        if o == 0 and _between(ax, bx, x) and _between(ay, by, y):
            return 0
        if ay <= y < by and o > 0:
            inside = not inside
        elif by <= y < ay and o < 0:
            inside = not inside
    return 1 if inside else -1


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


@_jit(inline=True)
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
    quadrant = int(q - 4.0 * math.floor(q / 4.0))  # q modulo 4, exactly
    odd = (quadrant & 1) == 1
    sine = c if odd else s
    cosine = s if odd else c
    sine = -sine if quadrant >= 2 else sine
    cosine = -cosine if quadrant == 1 or quadrant == 2 else cosine
    return sine, cosine


@_jit()
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
    out: FloatArray,
) -> None:
    """Return base distances of columns (a structure of arrays, so that the loop vectorises).

    Every case is computed for every row and the answer selected at the end: two
    rectangles (separating axes, then the nearest corner), a disk and a rectangle, or
    two disks (``r > 0``).
    """
    for i in range(out.shape[0]):
        as_, ac = sincos_degrees(ah[i])
        bs, bc = sincos_degrees(bh[i])
        ahw, ahl, ar = a_hw[i], a_hl[i], a_r[i]
        bhw, bhl, br = b_hw[i], b_hl[i], b_r[i]
        dx, dy = bx[i] - ax[i], by[i] - ay[i]
        cc = ac * bc + as_ * bs  # cos(θa − θb)
        sn = as_ * bc - ac * bs  # sin(θa − θb)
        acc, asn = abs(cc), abs(sn)
        u, v = dx * as_ - dy * ac, dx * ac + dy * as_  # B's centre in A's frame
        ub, vb = dx * bs - dy * bc, dx * bc + dy * bs  # ... and in B's own axes
        # Rectangles: no separating axis with a positive gap means they meet; apart, the
        # closest points include a corner of one of them.
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
        rect = math.sqrt(best) if gap > 0.0 else 0.0
        # A disk: its centre to the other rectangle, less its radius.
        a_disk, b_disk = ar > 0.0, br > 0.0
        px, py = (ub, vb) if a_disk else (u, v)
        ex = max(abs(px) - (bhw if a_disk else ahw), 0.0)
        ey = max(abs(py) - (bhl if a_disk else ahl), 0.0)
        disk_rect = max(math.sqrt(ex * ex + ey * ey) - (ar if a_disk else br), 0.0)
        disks = max(math.sqrt(dx * dx + dy * dy) - ar - br, 0.0)
        out[i] = disks if a_disk and b_disk else (disk_rect if a_disk or b_disk else rect)


#: Rows per chunk of the vectorised kernel: its 12 columns (48 kB) stay in cache.
ROWS = 512


@_jit(parallel=True)
def distances(
    a: FloatArray, b: FloatArray, dims_a: FloatArray, dims_b: FloatArray, out: FloatArray
) -> None:
    """Fill `out` with base distances; dims rows ``(half-width, half-length, radius)``.

    A dims array of one row applies to every pose. Each chunk of rows is copied into
    columns and measured by a loop the compiler vectorises.
    """
    n = out.shape[0]
    per_a, per_b = dims_a.shape[0] > 1, dims_b.shape[0] > 1
    for chunk in _prange((n + ROWS - 1) // ROWS):
        lo = chunk * ROWS
        m = min(n, lo + ROWS) - lo
        cols = np.empty((12, m))
        for j in range(m):
            cols[0, j] = a[lo + j, 0]
            cols[1, j] = a[lo + j, 1]
            cols[2, j] = a[lo + j, 2]
            cols[3, j] = b[lo + j, 0]
            cols[4, j] = b[lo + j, 1]
            cols[5, j] = b[lo + j, 2]
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
            out[lo : lo + m],
        )


@_jit()
def _outside_base(x: float, y: float, hw: float, hl: float) -> bool:
    return abs(x) >= hw or abs(y) >= hl


@_jit()
def arc_hit(
    u: float,
    v: float,
    cc: float,
    sn: float,
    t_hw: float,
    t_hl: float,
    hw: float,
    hl: float,
    sin_half: float,
    cos_half: float,
    arc: int,
    bull_half_width: float,
    bull_length: float,
) -> bool:
    """Return whether a rectangle meets an arc region outside the attacker's base.

    The target's centre is ``(u, v)`` in the attacker's frame, its right axis ``(cc, −sn)``
    and forward axis ``(sn, cc)``. The arc is a wedge of rays from the base centre (or a
    half-plane, or the bullseye strip); the region is the wedge less the base's interior.
    `arc` is the arc's index in ``geom.arcs.XWING_ARCS``: 0 front, 1 rear, 2 left, 3 right,
    4 full-front, 5 full-rear, 6 bullseye.
    """
    x0 = u - t_hw * cc - t_hl * sn
    y0 = v + t_hw * sn - t_hl * cc
    x1 = u + t_hw * cc - t_hl * sn
    y1 = v - t_hw * sn - t_hl * cc
    x2 = u + t_hw * cc + t_hl * sn
    y2 = v - t_hw * sn + t_hl * cc
    x3 = u - t_hw * cc + t_hl * sn
    y3 = v + t_hw * sn + t_hl * cc
    xs = (x0, x1, x2, x3)
    ys = (y0, y1, y2, y3)
    if arc == 6:
        # Bullseye: the closed strip [-w/2, w/2] x [hl, hl + length] meets the target;
        # within the length tolerance of the strip is on it.
        bull_half_width = bull_half_width + EPSILON_MM
        top = hl + bull_length + EPSILON_MM
        hl_strip = hl - EPSILON_MM
        if min(min(x0, x1), min(x2, x3)) > bull_half_width:
            return False
        if max(max(x0, x1), max(x2, x3)) < -bull_half_width:
            return False
        if min(min(y0, y1), min(y2, y3)) > top or max(max(y0, y1), max(y2, y3)) < hl_strip:
            return False
        for ex, ey, half in ((cc, -sn, t_hw), (sn, cc, t_hl)):
            centre = u * ex + v * ey
            lo, hi = math.inf, -math.inf
            for px in (-bull_half_width, bull_half_width):
                for py in (hl_strip, top):
                    proj = px * ex + py * ey
                    lo, hi = min(lo, proj), max(hi, proj)
            if lo > centre + half or hi < centre - half:
                return False
        return True
    # The wedge: g1 >= 0 and g2 >= 0, each a line through the base centre.
    if arc >= 4:
        s1 = 1.0 if arc == 4 else -1.0
        n1x, n1y, n2x, n2y = 0.0, s1, 0.0, 0.0  # one line: the second test always holds
    else:
        s1 = 1.0 if arc in (0, 2) else -1.0
        s2 = 1.0 if arc in (0, 3) else -1.0
        n1x, n1y = -s1 * cos_half, s1 * sin_half
        n2x, n2y = s2 * cos_half, s2 * sin_half
    # Signed distances from the arc lines, grown by the length tolerance: on a line is in.
    e = EPSILON_MM
    g1 = (
        n1x * x0 + n1y * y0 + e,
        n1x * x1 + n1y * y1 + e,
        n1x * x2 + n1y * y2 + e,
        n1x * x3 + n1y * y3 + e,
    )
    g2 = (
        n2x * x0 + n2y * y0 + e,
        n2x * x1 + n2y * y1 + e,
        n2x * x2 + n2y * y2 + e,
        n2x * x3 + n2y * y3 + e,
    )
    # Wholly beyond either arc line: the target misses the wedge.
    if max(max(g1[0], g1[1]), max(g1[2], g1[3])) < 0.0:
        return False
    if max(max(g2[0], g2[1]), max(g2[2], g2[3])) < 0.0:
        return False
    for k in range(4):
        # A target corner in the wedge and outside the base.
        if g1[k] >= 0.0 and g2[k] >= 0.0 and _outside_base(xs[k], ys[k], hw, hl):
            return True
    # Where a target edge crosses an arc line, on the wedge's side of the other line.
    for k in range(4):
        j = (k + 1) % 4
        for line in range(2):
            gk = g1[k] if line == 0 else g2[k]
            gj = g1[j] if line == 0 else g2[j]
            if (gk < 0.0 < gj) or (gj < 0.0 < gk):
                t = gk / (gk - gj)
                x = xs[k] + t * (xs[j] - xs[k])
                y = ys[k] + t * (ys[j] - ys[k])
                other = (n2x * x + n2y * y) if line == 0 else (n1x * x + n1y * y)
                if other >= -EPSILON_MM and _outside_base(x, y, hw, hl):
                    return True
    return False


@_jit(parallel=True)
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
    for i in _prange(n):
        ja, jb = i * sa, i * sb
        as_, ac = sincos_degrees(a[i, 2])
        bs, bc = sincos_degrees(b[i, 2])
        sin_half, cos_half = sincos_degrees(halves[ja])
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


@_jit(parallel=True)
def compose_moves(poses: FloatArray, move: FloatArray, out: FloatArray) -> None:
    """Fill `out` with `poses` moved by one ship-frame move ``(dx, dy, dheading)``.

    The arithmetic is ``geom.poses.compose``'s, term by term.
    """
    dx, dy, dh = move[0], move[1], move[2]
    for i in _prange(poses.shape[0]):
        theta = math.radians(poses[i, 2])
        c, s = math.cos(theta), math.sin(theta)
        out[i, 0] = poses[i, 0] + dx * s + dy * c
        out[i, 1] = poses[i, 1] + dx * -c + dy * s
        out[i, 2] = (poses[i, 2] + dh) % 360.0  # Python's float modulo: numpy's np.mod


# -- obstacles --------------------------------------------------------------------------


@_jit()
def _point_segment2(
    px: float, py: float, ax: float, ay: float, ex: float, ey: float, inv: float
) -> float:
    """Squared distance from p to the segment from a along e (``inv`` = 1 / |e|²)."""
    wx, wy = px - ax, py - ay
    t = (wx * ex + wy * ey) * inv
    t = min(max(t, 0.0), 1.0)
    rx, ry = wx - t * ex, wy - t * ey
    return rx * rx + ry * ry


@_jit()
def _near_pass(
    wv: FloatArray,
    a_lo: int,
    a_hi: int,
    b_lo: int,
    b_hi: int,
    b_inv: FloatArray,
    b_half: FloatArray,
    ax: float,
    ay: float,
    ar: float,
    bx: float,
    by: float,
    br: float,
    reach: float,
    edges: IntArray,
) -> bool:
    """Return whether a vertex of A lies within `reach` of an edge of B.

    Only vertices of A within ``br + reach`` of B's reference point, and edges of B whose
    midpoint is within ``ar + reach + half-length`` of A's, can; the rest are skipped.
    """
    reach2 = reach * reach
    count = 0
    for e in range(b_lo, b_hi):
        f = e + 1 if e + 1 < b_hi else b_lo
        mx = 0.5 * (wv[e, 0] + wv[f, 0]) - ax
        my = 0.5 * (wv[e, 1] + wv[f, 1]) - ay
        limit = ar + reach + b_half[e] + 1e-9
        if mx * mx + my * my <= limit * limit:
            edges[count] = e
            count += 1
    if count == 0:
        return False
    vertex_limit = br + reach + 1e-9
    vertex_limit *= vertex_limit
    for v in range(a_lo, a_hi):
        px, py = wv[v, 0], wv[v, 1]
        if (px - bx) * (px - bx) + (py - by) * (py - by) > vertex_limit:
            continue
        for k in range(count):
            e = edges[k]
            f = e + 1 if e + 1 < b_hi else b_lo
            d2 = _point_segment2(
                px, py, wv[e, 0], wv[e, 1], wv[f, 0] - wv[e, 0], wv[f, 1] - wv[e, 1], b_inv[e]
            )
            if d2 <= reach2:
                return True
    return False


@_jit()
def obstacles_within(
    wv: FloatArray,
    a_lo: int,
    a_hi: int,
    b_lo: int,
    b_hi: int,
    a_inv: FloatArray,
    b_inv: FloatArray,
    a_half: FloatArray,
    b_half: FloatArray,
    ax: float,
    ay: float,
    ar: float,
    bx: float,
    by: float,
    br: float,
    reach: float,
    edges: IntArray,
) -> bool:
    """Return whether two placed outlines ``wv[a_lo:a_hi]`` and ``wv[b_lo:b_hi]`` are within `reach`.

    Exact for simple polygons: within `reach` exactly when a vertex of one lies within
    `reach` of an edge of the other, or two edges cross (only edges longer than
    ``2 * reach`` can cross with every vertex farther than `reach`), or one contains
    the other. ``(ax, ay)``, `ar`: A's reference point and the radius of its vertices.
    """
    dx, dy = bx - ax, by - ay
    centres2 = dx * dx + dy * dy
    apart = ar + br + reach + 1e-9
    if centres2 > apart * apart:
        return False
    if _near_pass(wv, a_lo, a_hi, b_lo, b_hi, b_inv, b_half, ax, ay, ar, bx, by, br, reach, edges):
        return True
    if _near_pass(wv, b_lo, b_hi, a_lo, a_hi, a_inv, a_half, bx, by, br, ax, ay, ar, reach, edges):
        return True
    # Long edges crossing (possible only when both are longer than 2 * reach).
    for e in range(a_lo, a_hi):
        if a_half[e] <= reach:
            continue
        f = e + 1 if e + 1 < a_hi else a_lo
        for g in range(b_lo, b_hi):
            if b_half[g] <= reach:
                continue
            h = g + 1 if g + 1 < b_hi else b_lo
            if segments_meet(
                wv[e, 0], wv[e, 1], wv[f, 0], wv[f, 1], wv[g, 0], wv[g, 1], wv[h, 0], wv[h, 1]
            ):
                return True
    # One inside the other (far from its boundary): then the centres are within ar + br.
    if centres2 <= (ar + br) * (ar + br) + 1e-9:
        if point_in_ring(wv[a_lo, 0], wv[a_lo, 1], wv, b_lo, b_hi) >= 0:
            return True
        if point_in_ring(wv[b_lo, 0], wv[b_lo, 1], wv, a_lo, a_hi) >= 0:
            return True
    return False


@_jit(parallel=True)
def setups(
    local: FloatArray,
    mirrored: FloatArray,
    offsets: IntArray,
    inv: FloatArray,
    inv_mirrored: FloatArray,
    half: FloatArray,
    half_mirrored: FloatArray,
    radii: FloatArray,
    placements: FloatArray,
    limits: FloatArray,
    out: BoolArray,
) -> None:
    """Fill `out` with the legality of each setup ``placements[m]`` ``(K, 4)``.

    Token k's outline is ``local[offsets[k]:offsets[k + 1]]`` (``mirrored``: the flipped
    outline, vertex order restored); ``inv`` and ``half`` hold 1 / |edge|² and half the
    edge length of the edge from each vertex. `limits`: edge limit, spacing limit, play
    width, height, then the setup box ``x0, y0, x1, y1`` and 1.0 where it applies.
    """
    edge, spacing, width, height = limits[0], limits[1], limits[2], limits[3]
    bx0, by0, bx1, by1, boxed = limits[4], limits[5], limits[6], limits[7], limits[8]
    reach = spacing + EPSILON_MM
    n_setups, n_tokens = placements.shape[0], placements.shape[1]
    total = local.shape[0]
    n_chunks = (n_setups + CHUNK - 1) // CHUNK
    for chunk in _prange(n_chunks):
        wv = np.empty((total, 2))
        inv_used = np.empty(total)
        half_used = np.empty(total)
        edges = np.empty(total, dtype=np.int64)
        for m in range(chunk * CHUNK, min((chunk + 1) * CHUNK, n_setups)):
            legal = True
            for k in range(n_tokens):
                px, py = placements[m, k, 0], placements[m, k, 1]
                theta = math.radians(placements[m, k, 2])
                c, s = math.cos(theta), math.sin(theta)
                flipped = placements[m, k, 3] != 0.0
                lo_x, lo_y, hi_x, hi_y = math.inf, math.inf, -math.inf, -math.inf
                for v in range(offsets[k], offsets[k + 1]):
                    if flipped:
                        mx, my = mirrored[v, 0], mirrored[v, 1]
                        inv_used[v], half_used[v] = inv_mirrored[v], half_mirrored[v]
                    else:
                        mx, my = local[v, 0], local[v, 1]
                        inv_used[v], half_used[v] = inv[v], half[v]
                    x = mx * c - my * s + px
                    y = mx * s + my * c + py
                    wv[v, 0], wv[v, 1] = x, y
                    lo_x, hi_x = min(lo_x, x), max(hi_x, x)
                    lo_y, hi_y = min(lo_y, y), max(hi_y, y)
                # Every obstacle more than the edge limit from every edge.
                if not (
                    lo_y - edge > EPSILON_MM
                    and (height - hi_y) - edge > EPSILON_MM
                    and lo_x - edge > EPSILON_MM
                    and (width - hi_x) - edge > EPSILON_MM
                ):
                    legal = False
                    break
                # Armada: entirely inside the setup area.
                if boxed != 0.0 and not (
                    lo_x >= bx0 - EPSILON_MM
                    and hi_x <= bx1 + EPSILON_MM
                    and lo_y >= by0 - EPSILON_MM
                    and hi_y <= by1 + EPSILON_MM
                ):
                    legal = False
                    break
            # Obstacles more than the spacing limit from each other.
            if legal:
                for i in range(n_tokens):
                    for j in range(i + 1, n_tokens):
                        if obstacles_within(
                            wv,
                            offsets[i],
                            offsets[i + 1],
                            offsets[j],
                            offsets[j + 1],
                            inv_used,
                            inv_used,
                            half_used,
                            half_used,
                            placements[m, i, 0],
                            placements[m, i, 1],
                            radii[i],
                            placements[m, j, 0],
                            placements[m, j, 1],
                            radii[j],
                            reach,
                            edges,
                        ):
                            legal = False
                            break
                    if not legal:
                        break
            out[m] = legal


@_jit()
def _segment_meets_ring(
    px: float,
    py: float,
    qx: float,
    qy: float,
    point: bool,
    wv: FloatArray,
    lo: int,
    hi: int,
) -> bool:
    if point:
        if point_in_ring(px, py, wv, lo, hi) >= 0:
            return True
        return _ring_distance2(px, py, qx, qy, wv, lo, hi) <= EPSILON_MM * EPSILON_MM
    # An edge touched or crossed, else the segment lies wholly inside or wholly outside.
    prev = orient(px, py, qx, qy, wv[hi - 1, 0], wv[hi - 1, 1])
    for v in range(lo, hi):
        u = hi - 1 if v == lo else v - 1
        now = orient(px, py, qx, qy, wv[v, 0], wv[v, 1])
        if prev * now <= 0 and segments_meet(
            px, py, qx, qy, wv[u, 0], wv[u, 1], wv[v, 0], wv[v, 1]
        ):
            return True
        prev = now
    if point_in_ring(px, py, wv, lo, hi) > 0:
        return True
    # Within the length tolerance of the outline is touching it.
    return _ring_distance2(px, py, qx, qy, wv, lo, hi) <= EPSILON_MM * EPSILON_MM


@_jit()
def _point_segment_distance2(
    x: float, y: float, ax: float, ay: float, bx: float, by: float
) -> float:
    ex, ey = bx - ax, by - ay
    length2 = ex * ex + ey * ey
    t = 0.0 if length2 <= 0.0 else ((x - ax) * ex + (y - ay) * ey) / length2
    t = min(1.0, max(0.0, t))
    dx, dy = x - (ax + t * ex), y - (ay + t * ey)
    return dx * dx + dy * dy


@_jit()
def _ring_distance2(
    px: float, py: float, qx: float, qy: float, wv: FloatArray, lo: int, hi: int
) -> float:
    """Least squared distance from segment pq to the edges of a ring (no crossing)."""
    best = math.inf
    for v in range(lo, hi):
        w = v + 1 if v + 1 < hi else lo
        ax, ay, bx, by = wv[v, 0], wv[v, 1], wv[w, 0], wv[w, 1]
        best = min(best, _point_segment_distance2(px, py, ax, ay, bx, by))
        best = min(best, _point_segment_distance2(qx, qy, ax, ay, bx, by))
        best = min(best, _point_segment_distance2(ax, ay, px, py, qx, qy))
    return best


@_jit(parallel=True)
def segments_blocked(
    p: FloatArray,
    q: FloatArray,
    wv: FloatArray,
    offsets: IntArray,
    boxes: FloatArray,
    out: BoolArray,
) -> None:
    """Fill `out` with whether each segment p→q meets any placed outline (touching counts).

    Within the length tolerance (1e-6 mm) of an outline is touching it.
    `boxes` holds each outline's ``min x, min y, max x, max y``.
    """
    n_tokens = offsets.shape[0] - 1
    for i in _prange(p.shape[0]):
        px, py, qx, qy = p[i, 0], p[i, 1], q[i, 0], q[i, 1]
        point = px == qx and py == qy
        lo_x, hi_x = min(px, qx) - EPSILON_MM, max(px, qx) + EPSILON_MM
        lo_y, hi_y = min(py, qy) - EPSILON_MM, max(py, qy) + EPSILON_MM
        hit = False
        for k in range(n_tokens):
            if hi_x < boxes[k, 0] or lo_x > boxes[k, 2] or hi_y < boxes[k, 1] or lo_y > boxes[k, 3]:
                continue
            if _segment_meets_ring(px, py, qx, qy, point, wv, offsets[k], offsets[k + 1]):
                hit = True
                break
        out[i] = hit
