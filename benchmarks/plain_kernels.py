"""Plain numba loops of the five kernels: what a user would write with numba in a few lines.

Each is a straightforward single-threaded ``numba.njit`` loop with the project's length
tolerance (1e-6 mm, :data:`tabletop.geom.tolerance.EPSILON_MM`) and floating-point
orientation signs (no exact fallback): :mod:`benchmarks.kernels` times them beside the
project's kernels and counts the answers that differ. Imported only by that benchmark.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

from tabletop.geom.poses import FloatArray
from tabletop.geom.tolerance import EPSILON_MM

_F = TypeVar("_F", bound=Callable[..., Any])
EPS = EPSILON_MM


def njit(function: _F) -> _F:
    """Compile with numba's defaults (one thread, no fast-math), machine code cached."""
    return cast(_F, numba.njit(cache=True)(function))


@njit
def distance_band(
    a: FloatArray,
    b: FloatArray,
    dims: FloatArray,
    edges: FloatArray,
    zero_band: bool,
    out: FloatArray,
    bands: Any,
) -> None:
    """Rectangle distance (separating axes, then the nearest corner) and band of each pair."""
    ahw, ahl, bhw, bhl = dims[0], dims[1], dims[2], dims[3]
    for i in range(a.shape[0]):
        ta, tb = math.radians(a[i, 2]), math.radians(b[i, 2])
        as_, ac, bs, bc = math.sin(ta), math.cos(ta), math.sin(tb), math.cos(tb)
        dx, dy = b[i, 0] - a[i, 0], b[i, 1] - a[i, 1]
        cc, sn = ac * bc + as_ * bs, as_ * bc - ac * bs
        u, v, ub, vb = dx * as_ - dy * ac, dx * ac + dy * as_, dx * bs - dy * bc, dx * bc + dy * bs
        acc, asn = abs(cc), abs(sn)
        gap = max(
            abs(u) - (ahw + bhw * acc + bhl * asn),
            abs(v) - (ahl + bhw * asn + bhl * acc),
            abs(ub) - (bhw + ahw * acc + ahl * asn),
            abs(vb) - (bhl + ahw * asn + ahl * acc),
        )
        best = math.inf
        for sx in (-1.0, 1.0):
            for sy in (-1.0, 1.0):
                x, y = u + sx * bhw * cc + sy * bhl * sn, v - sx * bhw * sn + sy * bhl * cc
                best = min(best, max(abs(x) - ahw, 0.0) ** 2 + max(abs(y) - ahl, 0.0) ** 2)
                x, y = -ub + sx * ahw * cc - sy * ahl * sn, -vb + sx * ahw * sn + sy * ahl * cc
                best = min(best, max(abs(x) - bhw, 0.0) ** 2 + max(abs(y) - bhl, 0.0) ** 2)
        d = math.sqrt(best) if gap > 0.0 else 0.0
        k = 1
        for e in edges:
            k += 1 if d > e else 0
        out[i] = d
        bands[i] = 0 if zero_band and d <= EPS else (-1 if k > edges.shape[0] else k)


@njit
def in_arc(
    a: FloatArray, b: FloatArray, dims: FloatArray, half_deg: float, arc: int, out: Any
) -> None:
    """Fill `out`: a target rectangle meets the wedge (front 0, rear 1, left 2, right 3) outside the base."""
    hw, hl, thw, thl = dims[0], dims[1], dims[2], dims[3]
    s1 = 1.0 if arc in (0, 2) else -1.0
    s2 = 1.0 if arc in (0, 3) else -1.0
    h = math.radians(half_deg)
    n1x, n1y, n2x, n2y = -s1 * math.cos(h), s1 * math.sin(h), s2 * math.cos(h), s2 * math.sin(h)
    xs, ys, g1, g2 = np.empty(4), np.empty(4), np.empty(4), np.empty(4)
    for i in range(a.shape[0]):
        ta, tb = math.radians(a[i, 2]), math.radians(b[i, 2])
        as_, ac, bs, bc = math.sin(ta), math.cos(ta), math.sin(tb), math.cos(tb)
        dx, dy = b[i, 0] - a[i, 0], b[i, 1] - a[i, 1]
        u, v = dx * as_ - dy * ac, dx * ac + dy * as_
        cc, sn = ac * bc + as_ * bs, as_ * bc - ac * bs
        hit = False
        for k, (sx, sy) in enumerate(((-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0))):
            xs[k] = u + sx * thw * cc + sy * thl * sn
            ys[k] = v - sx * thw * sn + sy * thl * cc
            g1[k] = n1x * xs[k] + n1y * ys[k] + EPS
            g2[k] = n2x * xs[k] + n2y * ys[k] + EPS
            outside = abs(xs[k]) >= hw or abs(ys[k]) >= hl
            hit = hit or (g1[k] >= 0.0 and g2[k] >= 0.0 and outside)
        for k in range(4):
            j = (k + 1) % 4
            for gk, gj, nx, ny in ((g1[k], g1[j], n2x, n2y), (g2[k], g2[j], n1x, n1y)):
                if not hit and (gk < 0.0 < gj or gj < 0.0 < gk):
                    t = gk / (gk - gj)
                    x, y = xs[k] + t * (xs[j] - xs[k]), ys[k] + t * (ys[j] - ys[k])
                    hit = nx * x + ny * y >= -EPS and (abs(x) >= hw or abs(y) >= hl)
        out[i] = hit


@njit
def _orient(ax: float, ay: float, bx: float, by: float, cx: float, cy: float) -> float:
    return (ax - cx) * (by - cy) - (ay - cy) * (bx - cx)


@njit
def _cross(
    px: float, py: float, qx: float, qy: float, ax: float, ay: float, bx: float, by: float
) -> bool:
    """Return whether closed segments pq and ab meet (floating-point signs; collinear overlap by boxes)."""
    o1, o2 = _orient(px, py, qx, qy, ax, ay), _orient(px, py, qx, qy, bx, by)
    o3, o4 = _orient(ax, ay, bx, by, px, py), _orient(ax, ay, bx, by, qx, qy)
    if o1 * o2 > 0.0 or o3 * o4 > 0.0:
        return False
    return max(min(px, qx), min(ax, bx)) <= min(max(px, qx), max(ax, bx)) and max(
        min(py, qy), min(ay, by)
    ) <= min(max(py, qy), max(ay, by))


@njit
def _point_segment2(x: float, y: float, ax: float, ay: float, bx: float, by: float) -> float:
    ex, ey = bx - ax, by - ay
    length2 = ex * ex + ey * ey
    t = 0.0 if length2 <= 0.0 else min(1.0, max(0.0, ((x - ax) * ex + (y - ay) * ey) / length2))
    return (x - ax - t * ex) ** 2 + (y - ay - t * ey) ** 2


@njit
def _inside(x: float, y: float, w: FloatArray, lo: int, hi: int) -> bool:
    """Even-odd rule: the point is inside the ring ``w[lo:hi]``."""
    inside = False
    for v in range(lo, hi):
        u = v + 1 if v + 1 < hi else lo
        ax, ay, bx, by = w[v, 0], w[v, 1], w[u, 0], w[u, 1]
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


@njit
def _rings_within(w: FloatArray, alo: int, ahi: int, blo: int, bhi: int, reach: float) -> bool:
    """Two rings within `reach`: edges crossing, a vertex near an edge, or nested."""
    for e in range(alo, ahi):
        f = e + 1 if e + 1 < ahi else alo
        for g in range(blo, bhi):
            h = g + 1 if g + 1 < bhi else blo
            if _cross(w[e, 0], w[e, 1], w[f, 0], w[f, 1], w[g, 0], w[g, 1], w[h, 0], w[h, 1]):
                return True
            near_a = _point_segment2(w[e, 0], w[e, 1], w[g, 0], w[g, 1], w[h, 0], w[h, 1])
            near_b = _point_segment2(w[g, 0], w[g, 1], w[e, 0], w[e, 1], w[f, 0], w[f, 1])
            if min(near_a, near_b) <= reach * reach:
                return True
    return _inside(w[alo, 0], w[alo, 1], w, blo, bhi) or _inside(w[blo, 0], w[blo, 1], w, alo, ahi)


@njit
def setups_legal(
    local: FloatArray,
    mirrored: FloatArray,
    offsets: Any,
    radii: FloatArray,
    placements: FloatArray,
    limits: FloatArray,
    out: Any,
) -> None:
    """Edge limit per token, then each pair not within the spacing (bounding circles first).

    X-Wing setups: no setup box (Armada's) is checked.
    """
    edge, reach, width, height = limits[0], limits[1] + EPS, limits[2], limits[3]
    w = np.empty_like(local)
    for m in range(placements.shape[0]):
        legal = True
        for k in range(placements.shape[1]):
            x0, y0, turn, flip = placements[m, k]
            c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
            outline = mirrored if flip != 0.0 else local
            for v in range(offsets[k], offsets[k + 1]):
                w[v, 0] = outline[v, 0] * c - outline[v, 1] * s + x0
                w[v, 1] = outline[v, 0] * s + outline[v, 1] * c + y0
            xs, ys = w[offsets[k] : offsets[k + 1], 0], w[offsets[k] : offsets[k + 1], 1]
            nearest = min(xs.min(), ys.min(), width - xs.max(), height - ys.max())
            legal = legal and nearest - edge > EPS
        for i in range(placements.shape[1]):
            for j in range(i + 1, placements.shape[1]):
                dx = placements[m, i, 0] - placements[m, j, 0]
                apart = math.hypot(dx, placements[m, i, 1] - placements[m, j, 1])
                if legal and apart <= radii[i] + radii[j] + reach:
                    legal = not _rings_within(
                        w, offsets[i], offsets[i + 1], offsets[j], offsets[j + 1], reach
                    )
        out[m] = legal


@njit
def obstructed(
    p: FloatArray, q: FloatArray, w: FloatArray, offsets: Any, boxes: FloatArray, out: Any
) -> None:
    """Fill `out`: a segment meets an outline: an edge crossed or within the tolerance, or inside it."""
    for i in range(p.shape[0]):
        px, py, qx, qy = p[i, 0], p[i, 1], q[i, 0], q[i, 1]
        lx, hx = min(px, qx) - EPS, max(px, qx) + EPS
        ly, hy = min(py, qy) - EPS, max(py, qy) + EPS
        hit = False
        for k in range(boxes.shape[0]):
            if hit or hx < boxes[k, 0] or lx > boxes[k, 2] or hy < boxes[k, 1] or ly > boxes[k, 3]:
                continue
            lo, hi = offsets[k], offsets[k + 1]
            for v in range(lo, hi):
                u = v + 1 if v + 1 < hi else lo
                ax, ay, bx, by = w[v, 0], w[v, 1], w[u, 0], w[u, 1]
                if max(ax, bx) < lx or min(ax, bx) > hx or max(ay, by) < ly or min(ay, by) > hy:
                    continue
                near = min(
                    _point_segment2(px, py, ax, ay, bx, by),
                    _point_segment2(qx, qy, ax, ay, bx, by),
                    _point_segment2(ax, ay, px, py, qx, qy),
                    _point_segment2(bx, by, px, py, qx, qy),
                )
                hit = hit or near <= EPS * EPS or _cross(px, py, qx, qy, ax, ay, bx, by)
            hit = hit or _inside(px, py, w, lo, hi)
        out[i] = hit


@njit
def final_poses(poses: FloatArray, move: FloatArray, out: FloatArray) -> None:
    """Fill `out`: the ship-frame move turned by each start heading; headings modulo 360."""
    for i in range(poses.shape[0]):
        c, s = math.cos(math.radians(poses[i, 2])), math.sin(math.radians(poses[i, 2]))
        out[i, 0] = poses[i, 0] + move[0] * s + move[1] * c
        out[i, 1] = poses[i, 1] - move[0] * c + move[1] * s
        out[i, 2] = (poses[i, 2] + move[2]) % 360.0
