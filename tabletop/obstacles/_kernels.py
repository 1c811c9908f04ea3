"""Compiled obstacle kernels behind :mod:`tabletop.obstacles.batch`: setup legality and obstruction.

Imported only when the numba path is selected (``tabletop.geom.batch.backend``), inside the batch
functions. The geometry is the numpy path's, written out per item; orientation signs are
exact (:func:`tabletop.geom._numba.orient`) and lengths within :data:`tabletop.geom.tolerance.EPSILON_MM`
are equal, as everywhere.
"""

from __future__ import annotations

import math

import numpy as np

from tabletop.geom._numba import (
    LAUNCH_LOCK,
    BoolArray,
    IntArray,
    jit,
    orient,
    point_in_ring,
    prange,
    segments_meet,
)
from tabletop.geom.poses import FloatArray
from tabletop.geom.tolerance import EPSILON_MM, beyond, within

__all__ = ["CHUNK", "LAUNCH_LOCK", "obstacles_within", "segments_blocked", "setups"]

#: Setups per parallel chunk of :func:`setups` (each chunk allocates its scratch once).
CHUNK = 256

# The tolerance predicates themselves, compiled: the kernels decide lines as numpy does.
_beyond = jit(inline=True)(beyond)
_within = jit(inline=True)(within)


@jit()
def _point_segment2(
    px: float, py: float, ax: float, ay: float, ex: float, ey: float, inv: float
) -> float:
    """Squared distance from p to the segment from a along e (``inv`` = 1 / |e|²)."""
    wx, wy = px - ax, py - ay
    t = (wx * ex + wy * ey) * inv
    t = min(max(t, 0.0), 1.0)
    rx, ry = wx - t * ex, wy - t * ey
    return rx * rx + ry * ry


@jit()
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


@jit()
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


# Long on purpose (test_code_size.py): a compiled kernel whose chunk loop holds its scratch arrays.
@jit(parallel=True)
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
    for chunk in prange(n_chunks):
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
                    _beyond(lo_y, edge)
                    and _beyond(height - hi_y, edge)
                    and _beyond(lo_x, edge)
                    and _beyond(width - hi_x, edge)
                ):
                    legal = False
                    break
                # Armada: entirely inside the setup area.
                if boxed != 0.0 and not (
                    _within(bx0, lo_x)
                    and _within(hi_x, bx1)
                    and _within(by0, lo_y)
                    and _within(hi_y, by1)
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


@jit()
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


@jit()
def _point_segment_distance2(
    x: float, y: float, ax: float, ay: float, bx: float, by: float
) -> float:
    ex, ey = bx - ax, by - ay
    length2 = ex * ex + ey * ey
    t = 0.0 if length2 <= 0.0 else ((x - ax) * ex + (y - ay) * ey) / length2
    t = min(1.0, max(0.0, t))
    dx, dy = x - (ax + t * ex), y - (ay + t * ey)
    return dx * dx + dy * dy


@jit()
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


@jit(parallel=True)
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
    for i in prange(p.shape[0]):
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
