"""The numba foundation of the compiled kernels: the compile helper, the launch lock and exact predicates.

Imported only by the kernel modules (:mod:`tabletop.geom._kernels`, :mod:`tabletop.obstacles._kernels`),
which are imported only when the numba path is selected. Orientation signs are exact
(:func:`orient`): a floating-point filter, and an exact expansion sum where the filter
cannot decide.

Threads: unless ``NUMBA_THREADING_LAYER`` is set, importing this module selects numba's
own ``workqueue`` threading layer (for the whole process, if no parallel kernel has run
yet): on the 2-core VM the benchmarks run on, waking the OpenMP layer's threads costs a
scheduler tick, 4-12 ms per call, against 0.06 ms for the workqueue. The workqueue runs
one parallel kernel at a time, so callers launch kernels under :data:`LAUNCH_LOCK`.

Examples
--------
>>> orient(0.0, 0.0, 1.0, 1.0, 0.5, 0.5), orient(0.0, 0.0, 1.0, 0.0, 0.5, 1e-300)
(0, 1)
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numpy.typing import NDArray

from tabletop.geom.poses import FloatArray

__all__ = [
    "LAUNCH_LOCK",
    "BoolArray",
    "IntArray",
    "jit",
    "orient",
    "point_in_ring",
    "prange",
    "segments_meet",
]

#: Index arrays of the kernels.
IntArray = NDArray[np.int64]
#: Boolean output arrays of the kernels.
BoolArray = NDArray[np.bool_]

_F = TypeVar("_F", bound=Callable[..., Any])

#: Shewchuk's ``ccwerrboundA``: beyond it the floating-point orientation sign is right.
_CCW_BOUND = (3.0 + 16.0 * 2.0**-53) * 2.0**-53
_SPLITTER = 134217729.0  # 2^27 + 1, Dekker's split

#: numba's parallel range, typed as ``range``.
prange = cast(Callable[[int], range], numba.prange)

if "NUMBA_THREADING_LAYER" not in os.environ:
    _config: Any = numba.config
    _config.THREADING_LAYER = "workqueue"

#: Held while a parallel kernel runs: the workqueue layer cannot run two at once.
LAUNCH_LOCK = threading.Lock()


def jit(*, parallel: bool = False, inline: bool = False) -> Callable[[_F], _F]:
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


@jit()
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


@jit()
def _two_diff(a: float, b: float) -> tuple[float, float]:
    x = a - b
    b_virtual = a - x
    a_virtual = x + b_virtual
    return x, (a - a_virtual) + (b_virtual - b)


@jit()
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


@jit()
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


@jit()
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


@jit()
def _between(a: float, b: float, x: float) -> bool:
    return min(a, b) <= x <= max(a, b)


@jit()
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


@jit(inline=True)
def point_in_ring(x: float, y: float, ring: FloatArray, lo: int, hi: int) -> int:
    """Return 1 inside, 0 on the boundary, −1 outside of the ring ``ring[lo:hi]`` (exact)."""
    inside = False
    for v in range(lo, hi):
        w = v + 1 if v + 1 < hi else lo
        ax, ay, bx, by = ring[v, 0], ring[v, 1], ring[w, 0], ring[w, 1]
        if (y < ay and y < by) or (y > ay and y > by):
            continue  # the edge neither crosses the point's row nor passes through the point
        o = orient(ax, ay, bx, by, x, y)
        if o == 0 and _between(ax, bx, x) and _between(ay, by, y):
            return 0
        if ay <= y < by and o > 0:
            inside = not inside
        elif by <= y < ay and o < 0:
            inside = not inside
    return 1 if inside else -1
