"""The arc test of one target base, a compiled kernel behind :func:`tabletop.geom._kernels.arcs_hit`.

Separate from the distance kernels of :mod:`tabletop.geom._kernels` only for length: this module
imports numba too, and only the kernel modules import it. The geometry is that of the
numpy path of :func:`tabletop.geom.batch.in_arc`, written out per pair: the target rectangle's
corners in the attacker's frame against the arc's wedge (or half-plane, or bullseye
strip), less the attacker's base, lines grown by the length tolerance.

Examples
--------
>>> arc_hit(0.0, 100.0, 1.0, 0.0, 20.0, 20.0, 20.0, 20.0, 0.7071067811865476,
...         0.7071067811865476, 0, 0.0, 0.0)
True
"""

from __future__ import annotations

import math

from tabletop.geom.numba_support import jit
from tabletop.geom.tolerance import EPSILON_MM

__all__ = ["arc_hit"]


@jit(inline=True)
def _outside_base(x: float, y: float, hw: float, hl: float) -> bool:
    return abs(x) >= hw or abs(y) >= hl


# Long on purpose (test_code_size.py): a compiled kernel, one pair's whole test, no calls.
@jit(inline=True)
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
    `arc` is the arc's index in ``tabletop.geom.arcs.XWING_ARCS``: 0 front, 1 rear, 2 left, 3 right,
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
