"""Compiled obstacle kernels behind :mod:`tabletop.obstacles.batch`: setup legality and obstruction.

The helpers that take arrays are inlined into the kernels (numba's ``inline="always"``):
a call of a compiled function counts a reference to each array argument in and out,
atomically, and in these loops that counting cost more than the geometry.

Imported only when the numba path is selected (``tabletop.geom.batch.backend``), inside the batch
functions. The geometry is the numpy path's, written out per item; orientation signs are
exact (:func:`tabletop.geom.numba_support.orient`) and lengths within :data:`tabletop.geom.tolerance.EPSILON_MM`
are equal, as everywhere.
"""

from __future__ import annotations

import math

import numpy as np

from tabletop.geom.numba_support import (
    LAUNCH_LOCK,
    BoolArray,
    IntArray,
    jit,
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


#: Columns of the scratch array of the setup kernels: each vertex placed (x, y), 1 / |edge|²
#: and half the length of the edge from it, and (as a float) the list of edges a near
#: pass keeps. One array, since every array a compiled function passes on has its
#: references counted (atomically) at each call: here once per pair of tokens.
_X, _Y, _INV, _HALF, _EDGE = 0, 1, 2, 3, 4
SCRATCH_COLUMNS = 5


@jit(inline=True)
def _near_pass(
    sv: FloatArray,
    a_lo: int,
    a_hi: int,
    b_lo: int,
    b_hi: int,
    ax: float,
    ay: float,
    ar: float,
    bx: float,
    by: float,
    br: float,
    reach: float,
) -> bool:
    """Return whether a vertex of A lies within `reach` of an edge of B (`sv`: the scratch).

    Only vertices of A within ``br + reach`` of B's reference point, and edges of B whose
    midpoint is within ``ar + reach + half-length`` of A's, can; the rest are skipped.
    """
    reach2 = reach * reach
    count = 0
    for e in range(b_lo, b_hi):
        f = e + 1 if e + 1 < b_hi else b_lo
        mx = 0.5 * (sv[e, _X] + sv[f, _X]) - ax
        my = 0.5 * (sv[e, _Y] + sv[f, _Y]) - ay
        limit = ar + reach + sv[e, _HALF] + 1e-9
        if mx * mx + my * my <= limit * limit:
            sv[b_lo + count, _EDGE] = e
            count += 1
    if count == 0:
        return False
    vertex_limit = br + reach + 1e-9
    vertex_limit *= vertex_limit
    for v in range(a_lo, a_hi):
        px, py = sv[v, _X], sv[v, _Y]
        if (px - bx) * (px - bx) + (py - by) * (py - by) > vertex_limit:
            continue
        for k in range(count):
            e = int(sv[b_lo + k, _EDGE])
            f = e + 1 if e + 1 < b_hi else b_lo
            ex, ey = sv[e, _X], sv[e, _Y]
            d2 = _point_segment2(px, py, ex, ey, sv[f, _X] - ex, sv[f, _Y] - ey, sv[e, _INV])
            if d2 <= reach2:
                return True
    return False


@jit(inline=True)
def obstacles_within(
    sv: FloatArray,
    a_lo: int,
    a_hi: int,
    b_lo: int,
    b_hi: int,
    ax: float,
    ay: float,
    ar: float,
    bx: float,
    by: float,
    br: float,
    reach: float,
) -> bool:
    """Return whether two placed outlines, rows ``a_lo:a_hi`` and ``b_lo:b_hi`` of `sv`, are within `reach`.

    Exact for simple polygons: within `reach` exactly when a vertex of one lies within
    `reach` of an edge of the other, or two edges cross (only edges longer than
    ``2 * reach`` can cross with every vertex farther than `reach`), or one contains
    the other. ``(ax, ay)``, `ar`: A's reference point and the radius of its vertices.
    `sv`: the scratch array (:data:`SCRATCH_COLUMNS` columns).
    """
    dx, dy = bx - ax, by - ay
    centres2 = dx * dx + dy * dy
    apart = ar + br + reach + 1e-9
    if centres2 > apart * apart:
        return False
    if _near_pass(sv, a_lo, a_hi, b_lo, b_hi, ax, ay, ar, bx, by, br, reach):
        return True
    if _near_pass(sv, b_lo, b_hi, a_lo, a_hi, bx, by, br, ax, ay, ar, reach):
        return True
    # Long edges crossing (possible only when both are longer than 2 * reach).
    for e in range(a_lo, a_hi):
        if sv[e, _HALF] <= reach:
            continue
        f = e + 1 if e + 1 < a_hi else a_lo
        for g in range(b_lo, b_hi):
            if sv[g, _HALF] <= reach:
                continue
            h = g + 1 if g + 1 < b_hi else b_lo
            if segments_meet(
                sv[e, _X],
                sv[e, _Y],
                sv[f, _X],
                sv[f, _Y],
                sv[g, _X],
                sv[g, _Y],
                sv[h, _X],
                sv[h, _Y],
            ):
                return True
    # One inside the other (far from its boundary): then the centres are within ar + br.
    if centres2 <= (ar + br) * (ar + br) + 1e-9:
        if point_in_ring(sv[a_lo, _X], sv[a_lo, _Y], sv, b_lo, b_hi) >= 0:
            return True
        if point_in_ring(sv[b_lo, _X], sv[b_lo, _Y], sv, a_lo, a_hi) >= 0:
            return True
    return False


@jit(inline=True)
def _placed_legal(
    local: FloatArray,
    mirrored: FloatArray,
    offsets: IntArray,
    inv: FloatArray,
    inv_mirrored: FloatArray,
    half: FloatArray,
    half_mirrored: FloatArray,
    placements: FloatArray,
    m: int,
    k: int,
    limits: FloatArray,
    sv: FloatArray,
) -> bool:
    """Place token `k` of setup `m` (x, y, angle, flipped) into `sv`; return whether it keeps to the edges.

    Every obstacle more than the edge limit from every edge and, for Armada, entirely
    inside the setup area (`limits` as :func:`setups` takes them).
    """
    px, py = placements[m, k, 0], placements[m, k, 1]
    theta = math.radians(placements[m, k, 2])
    c, s = math.cos(theta), math.sin(theta)
    flipped = placements[m, k, 3] != 0.0
    lo_x, lo_y, hi_x, hi_y = math.inf, math.inf, -math.inf, -math.inf
    for v in range(offsets[k], offsets[k + 1]):
        if flipped:
            mx, my = mirrored[v, 0], mirrored[v, 1]
            sv[v, _INV], sv[v, _HALF] = inv_mirrored[v], half_mirrored[v]
        else:
            mx, my = local[v, 0], local[v, 1]
            sv[v, _INV], sv[v, _HALF] = inv[v], half[v]
        x = mx * c - my * s + px
        y = mx * s + my * c + py
        sv[v, _X], sv[v, _Y] = x, y
        lo_x, hi_x = min(lo_x, x), max(hi_x, x)
        lo_y, hi_y = min(lo_y, y), max(hi_y, y)
    edge, width, height = limits[0], limits[2], limits[3]
    if not (
        _beyond(lo_y, edge)
        and _beyond(height - hi_y, edge)
        and _beyond(lo_x, edge)
        and _beyond(width - hi_x, edge)
    ):
        return False
    if limits[8] == 0.0:
        return True
    return bool(
        _within(limits[4], lo_x)
        and _within(hi_x, limits[6])
        and _within(limits[5], lo_y)
        and _within(hi_y, limits[7])
    )


@jit()
def _setups_rows(
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
    sv: FloatArray,
    lo: int,
    hi: int,
    out: BoolArray,
) -> None:
    """Fill ``out[lo:hi]`` as :func:`setups` does; `sv`: the scratch array."""
    reach = limits[1] + EPSILON_MM
    n_tokens = placements.shape[1]
    for m in range(lo, hi):
        legal = True
        for k in range(n_tokens):
            legal = _placed_legal(
                local,
                mirrored,
                offsets,
                inv,
                inv_mirrored,
                half,
                half_mirrored,
                placements,
                m,
                k,
                limits,
                sv,
            )
            if not legal:
                break
        # Obstacles more than the spacing limit from each other.
        for i in range(n_tokens if legal else 0):
            for j in range(i + 1, n_tokens):
                if legal and obstacles_within(
                    sv,
                    offsets[i],
                    offsets[i + 1],
                    offsets[j],
                    offsets[j + 1],
                    placements[m, i, 0],
                    placements[m, i, 1],
                    radii[i],
                    placements[m, j, 0],
                    placements[m, j, 1],
                    radii[j],
                    reach,
                ):
                    legal = False
        out[m] = legal


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
    n_setups = placements.shape[0]
    total = local.shape[0]
    n_chunks = (n_setups + CHUNK - 1) // CHUNK
    for chunk in prange(n_chunks):
        sv = np.empty((total, SCRATCH_COLUMNS))
        _setups_rows(
            local,
            mirrored,
            offsets,
            inv,
            inv_mirrored,
            half,
            half_mirrored,
            radii,
            placements,
            limits,
            sv,
            chunk * CHUNK,
            min((chunk + 1) * CHUNK, n_setups),
            out,
        )


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


#: Edges whose box lies farther than this from a segment's box are skipped: they can
#: neither meet it nor come within the length tolerance of it (twice the tolerance, so
#: that rounding in the boxes cannot skip an edge the tolerance reaches).
_EDGE_MARGIN = 2.0 * EPSILON_MM
#: A segment farther than this beyond the disk holding an outline is clear of it: far
#: more than the tolerance and the rounding of the placed vertices (about 1e-13 mm).
_DISK_MARGIN = 1e-3


@jit(inline=True)
def _segment_meets_ring(
    px: float,
    py: float,
    qx: float,
    qy: float,
    point: bool,
    wv: FloatArray,
    lo: int,
    hi: int,
    box_x0: float,
    box_y0: float,
    box_x1: float,
    box_y1: float,
) -> bool:
    """Return whether segment pq (`point`: p = q) meets the ring ``wv[lo:hi]``, or lies within the tolerance.

    An edge crossed or touched, else an edge within the length tolerance (the least
    distance between the segment and an edge, from the ends of either), else the segment
    wholly inside (its start inside the ring). Only edges whose box is within
    :data:`_EDGE_MARGIN` of the segment's box can meet it or come within the tolerance.
    ``box_x0, box_y0, box_x1, box_y1``: the ring's box (least and greatest x and y).
    """
    lo_x, hi_x = min(px, qx) - _EDGE_MARGIN, max(px, qx) + _EDGE_MARGIN
    lo_y, hi_y = min(py, qy) - _EDGE_MARGIN, max(py, qy) + _EDGE_MARGIN
    best = math.inf
    for v in range(lo, hi):
        w = v + 1 if v + 1 < hi else lo
        ax, ay, bx, by = wv[v, 0], wv[v, 1], wv[w, 0], wv[w, 1]
        if max(ax, bx) < lo_x or min(ax, bx) > hi_x or max(ay, by) < lo_y or min(ay, by) > hi_y:
            continue
        if not point and segments_meet(px, py, qx, qy, ax, ay, bx, by):
            return True
        best = min(best, _point_segment_distance2(px, py, ax, ay, bx, by))
        best = min(best, _point_segment_distance2(qx, qy, ax, ay, bx, by))
        best = min(best, _point_segment_distance2(ax, ay, px, py, qx, qy))
    if best <= EPSILON_MM * EPSILON_MM:
        return True
    if px < box_x0 or px > box_x1 or py < box_y0 or py > box_y1:
        return False
    # Wholly inside (on the outline is within the tolerance, found above).
    return point_in_ring(px, py, wv, lo, hi) >= 0


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

    Within the length tolerance (1e-6 mm) of an outline is touching it. `boxes` holds
    each outline's ``min x, min y, max x, max y``, then the centre ``x, y`` and radius of a
    disk holding it: a segment farther than :data:`_DISK_MARGIN` beyond that disk, or off
    the box grown by the tolerance, cannot meet the outline or come within the tolerance.
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
            reach = boxes[k, 6] + _DISK_MARGIN
            if _point_segment_distance2(boxes[k, 4], boxes[k, 5], px, py, qx, qy) > reach * reach:
                continue
            x0, y0, x1, y1 = boxes[k, 0], boxes[k, 1], boxes[k, 2], boxes[k, 3]
            lo, hi = offsets[k], offsets[k + 1]
            if _segment_meets_ring(px, py, qx, qy, point, wv, lo, hi, x0, y0, x1, y1):
                hit = True
                break
        out[i] = hit
