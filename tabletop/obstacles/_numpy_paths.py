"""The numpy paths of :mod:`tabletop.obstacles.batch`: whole-array filters, exact where they doubt.

Each item is first decided in floating point on whole arrays, with a margin that covers
the rounding of every quantity the decision reads; the few items inside a margin (a
vertex within a hair of a segment's line, a spacing within a hair of the limit) are
decided again exactly, as the numba kernels decide every item: orientation signs exact
(a filter, then rationals), lengths within :data:`tabletop.geom.tolerance.EPSILON_MM` equal. So
the answers are the kernels' answers, item by item.

Examples
--------
>>> import numpy as np
>>> square = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]])
>>> p = np.array([[-5.0, 5.0], [-5.0, 20.0], [5.0, 5.0], [-5.0, 10.0]])
>>> q = np.array([[15.0, 5.0], [15.0, 20.0], [6.0, 6.0], [0.0, 10.0]])
>>> blocked(p, q, [square], np.array([[0.0, 0.0, 10.0, 10.0]])).tolist()
[True, False, True, True]
>>> orient(np.array([0.0]), np.array([0.0]), np.array([1.0]), np.array([0.0]), np.array([0.5]), np.array([1e-300])).tolist()
[1]
"""

from __future__ import annotations

import dataclasses as _dc
import itertools as _itertools
import math
from fractions import Fraction as _Fraction

import numpy as np
from numpy.typing import NDArray

from tabletop.geom.poses import FloatArray
from tabletop.geom.shapes import place_outline
from tabletop.geom.tolerance import EPSILON_MM, beyond, within

__all__ = ["blocked", "orient", "setups"]

BoolArray = NDArray[np.bool_]
#: Setups (segments of the exact fallback) handled per block, bounding the temporaries.
_BLOCK = 512
#: Segments per block of the floating-point filter of :func:`blocked`.
_SEGMENT_BLOCK = 4096
#: Shewchuk's ``ccwerrboundA``: beyond it the floating-point orientation sign is right.
_CCW_BOUND = (3.0 + 16.0 * 2.0**-53) * 2.0**-53
#: Unit roundoff of float64.
_UNIT = 2.0**-53


def orient(
    ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray, cx: FloatArray, cy: FloatArray
) -> NDArray[np.int8]:
    """Return the exact sign of the turn a → b → c, elementwise: a filter, then fractions where it fails.

    Exact while no product of coordinate differences underflows (as the kernels' orient).
    """
    ax, ay, bx, by, cx, cy = np.broadcast_arrays(ax, ay, bx, by, cx, cy)
    left = (ax - cx) * (by - cy)
    right = (ay - cy) * (bx - cx)
    det = left - right
    sign = np.sign(det).astype(np.int8)
    doubtful = np.abs(det) < _CCW_BOUND * (np.abs(left) + np.abs(right))
    doubtful &= (left > 0.0) == (right > 0.0)  # opposite signs: det's sign is exact
    doubtful &= (left != 0.0) & (right != 0.0)
    for index in zip(*np.nonzero(doubtful), strict=True):
        f = [_Fraction(float(v[index])) for v in (ax, ay, bx, by, cx, cy)]
        exact = (f[0] - f[4]) * (f[3] - f[5]) - (f[1] - f[5]) * (f[2] - f[4])
        sign[index] = (exact > 0) - (exact < 0)
    return sign


def _between(a: FloatArray, b: FloatArray, x: FloatArray) -> BoolArray:
    return np.asarray((np.minimum(a, b) <= x) & (x <= np.maximum(a, b)), dtype=np.bool_)


def _segments_meet(p: FloatArray, q: FloatArray, a: FloatArray, b: FloatArray) -> BoolArray:
    """Whether closed segments pq and ab share a point, elementwise over ``(..., 2)`` ends."""
    px, py, qx, qy = p[..., 0], p[..., 1], q[..., 0], q[..., 1]
    ax, ay, bx, by = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    o1 = orient(px, py, qx, qy, ax, ay).astype(np.int64)
    o2 = orient(px, py, qx, qy, bx, by).astype(np.int64)
    o3 = orient(ax, ay, bx, by, px, py).astype(np.int64)
    o4 = orient(ax, ay, bx, by, qx, qy).astype(np.int64)
    proper = (o1 * o2 < 0) & (o3 * o4 < 0)
    touch = (o1 == 0) & _between(px, qx, ax) & _between(py, qy, ay)
    touch |= (o2 == 0) & _between(px, qx, bx) & _between(py, qy, by)
    touch |= (o3 == 0) & _between(ax, bx, px) & _between(ay, by, py)
    touch |= (o4 == 0) & _between(ax, bx, qx) & _between(ay, by, qy)
    collinear = (o1 == 0) & (o2 == 0) & (o3 == 0) & (o4 == 0)
    overlap = (
        np.maximum(np.minimum(px, qx), np.minimum(ax, bx))
        <= np.minimum(np.maximum(px, qx), np.maximum(ax, bx))
    ) & (
        np.maximum(np.minimum(py, qy), np.minimum(ay, by))
        <= np.minimum(np.maximum(py, qy), np.maximum(ay, by))
    )
    return np.asarray(proper | touch | (collinear & overlap), dtype=np.bool_)


def _point_in_ring(x: FloatArray, y: FloatArray, ring: FloatArray) -> NDArray[np.int8]:
    """1 inside, 0 on the boundary, −1 outside: points ``(...)`` in rings ``(..., V, 2)``."""
    a, b = ring, np.roll(ring, -1, axis=-2)
    ax, ay, bx, by = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    xx, yy = x[..., None], y[..., None]
    o = orient(ax, ay, bx, by, xx, yy)
    on = ((o == 0) & _between(ax, bx, xx) & _between(ay, by, yy)).any(axis=-1)
    up = (ay <= yy) & (yy < by) & (o > 0)
    down = (by <= yy) & (yy < ay) & (o < 0)
    inside = ((up | down).sum(axis=-1) % 2) == 1
    return np.where(on, 0, np.where(inside, 1, -1)).astype(np.int8)


def _within(a: FloatArray, b: FloatArray, reach: float) -> BoolArray:
    """Whether outlines ``a (m, Va, 2)`` and ``b (m, Vb, 2)`` are within `reach`, per row."""
    found = np.zeros(len(a), dtype=np.bool_)
    reach2 = reach * reach
    for points, ring in ((a, b), (b, a)):
        start = ring
        edge = np.roll(ring, -1, axis=-2) - ring
        inv = 1.0 / np.einsum("...i,...i->...", edge, edge)
        w = points[:, :, None, :] - start[:, None, :, :]
        t = np.clip(np.einsum("...i,...i->...", w, edge[:, None, :, :]) * inv[:, None, :], 0.0, 1.0)
        r = w - t[..., None] * edge[:, None, :, :]
        found |= (np.einsum("...i,...i->...", r, r) <= reach2).any(axis=(1, 2))
    # Long edges crossing (possible only when both are longer than 2 * reach).
    a_next, b_next = np.roll(a, -1, axis=1), np.roll(b, -1, axis=1)
    a_long = np.linalg.norm(a_next - a, axis=-1) / 2.0 > reach
    b_long = np.linalg.norm(b_next - b, axis=-1) / 2.0 > reach
    for i, j in zip(
        *np.nonzero(a_long.any(axis=0)[:, None] & b_long.any(axis=0)[None, :]), strict=True
    ):
        rows = a_long[:, i] & b_long[:, j]
        found[rows] |= _segments_meet(a[rows, i], a_next[rows, i], b[rows, j], b_next[rows, j])
    # One inside the other.
    found |= _point_in_ring(a[:, 0, 0], a[:, 0, 1], b) >= 0
    found |= _point_in_ring(b[:, 0, 0], b[:, 0, 1], a) >= 0
    return found


def setups(
    outlines: tuple[FloatArray, ...], radii: FloatArray, place: FloatArray, limits: FloatArray
) -> BoolArray:
    """Return the legality of each setup ``place (M, K, 4)`` of the token `outlines`.

    `radii`: each outline's farthest vertex from its reference point; `limits` as
    :func:`tabletop.obstacles._kernels.setups` takes them. Pairs of tokens whose bounding
    circles are within reach are sorted out by :func:`_spacing_filtered` when there are
    enough of them to pay for its tables; what it cannot settle, by :func:`_within`.
    """
    edge, spacing, width, height, x0, y0, x1, y1, boxed = (float(v) for v in limits)
    reach = spacing + EPSILON_MM
    out = np.ones(len(place), dtype=np.bool_)
    fields = [_field(o, reach) for o in outlines] if len(place) >= _FIELDS_FROM else None
    for lo in range(0, len(place), _SETUP_BLOCK):
        block = place[lo : lo + _SETUP_BLOCK]
        legal = np.ones(len(block), dtype=np.bool_)
        world = [place_outline(o, block[:, k]) for k, o in enumerate(outlines)]
        for w in world:
            low, high = w.min(axis=1), w.max(axis=1)
            # Every obstacle more than the edge limit from every edge.
            legal &= beyond(low[:, 1], edge)
            legal &= beyond(height - high[:, 1], edge)
            legal &= beyond(low[:, 0], edge)
            legal &= beyond(width - high[:, 0], edge)
            # Armada: entirely inside the setup area.
            if boxed:
                legal &= within(x0, low[:, 0]) & within(high[:, 0], x1)
                legal &= within(y0, low[:, 1]) & within(high[:, 1], y1)
        # Obstacles more than the spacing limit from each other (pairs whose bounding
        # circles are farther apart than that are).
        for i, j in _itertools.combinations(range(len(world)), 2):
            gap = np.hypot(block[:, i, 0] - block[:, j, 0], block[:, i, 1] - block[:, j, 1])
            reachable = gap <= radii[i] + radii[j] + reach + 1e-9
            rows = np.flatnonzero(legal & reachable)
            if len(rows) and fields is not None:
                near, far = _spacing_filtered(
                    block[rows], world[i][rows], world[j][rows], i, j, fields[i], fields[j]
                )
                legal[rows[near]] = False
                rows = rows[~(near | far)]
            if len(rows):
                for part in range(0, len(rows), _BLOCK):
                    some = rows[part : part + _BLOCK]
                    legal[some] &= ~_within(world[i][some], world[j][some], reach)
        out[lo : lo + _SETUP_BLOCK] = legal
    return out


#: Setups from which the distance tables of :func:`_field` pay for themselves.
_FIELDS_FROM = 1024
#: Setups handled per block by :func:`setups`.
_SETUP_BLOCK = 2048
#: Spacing of the distance tables' grids, mm.
_CELL = 1.0
_SQRT2 = math.sqrt(2.0)
#: Beyond the grid's error, what rounding cannot reach, mm (it is about 1e-12 here).
_MARGIN = 1e-6


@_dc.dataclass(frozen=True, eq=False)
class _Field:
    """Signed distance to one token outline (negative inside) on a grid in its frame.

    Grid point ``(ix, iy)`` is at ``(x0 + ix * cell, y0 + iy * cell)``; the grid covers
    the outline's box grown by more than `reach`, so a point beyond it is farther
    than `reach`. `crossable`: an edge longer than ``2 * reach``, which another
    outline can cross with every vertex of both farther than `reach`.
    """

    x0: float
    y0: float
    nx: int
    ny: int
    values: FloatArray
    reach: float
    crossable: bool


_FIELDS: dict[tuple[bytes, float], _Field] = {}


def _field(outline: FloatArray, reach: float) -> _Field:
    """Return the distance table of an outline in its own frame (cached)."""
    key = (np.ascontiguousarray(outline).tobytes(), reach)
    if key not in _FIELDS:
        if len(_FIELDS) >= 64:
            _FIELDS.clear()
        pad = reach + 4.0 * _CELL
        low, high = outline.min(axis=0) - pad, outline.max(axis=0) + pad
        nx, ny = (int(v) + 1 for v in np.ceil((high - low) / _CELL))
        xs, ys = low[0] + _CELL * np.arange(nx), low[1] + _CELL * np.arange(ny)
        values = np.full((ny, nx), np.inf)
        odd = np.zeros((ny, nx), dtype=np.bool_)
        x, y = xs[None, :], ys[:, None]
        for (ax, ay), (bx, by) in zip(outline, np.roll(outline, -1, axis=0), strict=True):
            ex, ey = bx - ax, by - ay
            if ex == 0.0 and ey == 0.0:
                continue  # a repeated vertex: its neighbours' edges measure it
            wx, wy = x - ax, y - ay
            t = np.clip((wx * ex + wy * ey) / (ex * ex + ey * ey), 0.0, 1.0)
            np.minimum(values, np.hypot(wx - t * ex, wy - t * ey), out=values)
            # A floating-point crossing number: it errs only a hair from an edge, where
            # the distance is about 0 either way.
            left = ex * wy - ey * wx > 0.0
            if ay != by:
                span = ((ay <= y) & (y < by)) if ay < by else ((by <= y) & (y < ay))
                odd ^= span & (left == (ay < by))
        values[odd] *= -1.0
        half = np.hypot(*(np.roll(outline, -1, axis=0) - outline).T) / 2.0
        values.setflags(write=False)
        _FIELDS[key] = _Field(
            float(low[0]), float(low[1]), nx, ny, values.ravel(), reach, bool(np.any(half > reach))
        )
    return _FIELDS[key]


def _lookup(field: _Field, x: FloatArray, y: FloatArray) -> FloatArray:
    """Return the table's value at the grid point nearest each point (+inf off the grid)."""
    ix = np.rint((x - field.x0) * (1.0 / _CELL))
    iy = np.rint((y - field.y0) * (1.0 / _CELL))
    on = (ix >= 0.0) & (ix < field.nx) & (iy >= 0.0) & (iy < field.ny)
    index = np.where(on, iy * field.nx + ix, 0.0).astype(np.intp)
    return np.where(on, field.values[index], np.inf)


def _in_frame(points: FloatArray, placement: FloatArray) -> tuple[FloatArray, FloatArray]:
    """World points ``(m, V, 2)`` in the frames of tokens placed by rows ``(m, 4)``.

    The frame of the unflipped outline: a flipped token's is mirrored (x -> -x).
    """
    theta = np.radians(placement[:, 2])
    c, s = np.cos(theta)[:, None], np.sin(theta)[:, None]
    dx = points[..., 0] - placement[:, 0, None]
    dy = points[..., 1] - placement[:, 1, None]
    x = c * dx + s * dy
    y = c * dy - s * dx
    x = np.where(placement[:, 3, None] != 0.0, -x, x)
    return x, y


def _spacing_filtered(
    block: FloatArray,
    world_i: FloatArray,
    world_j: FloatArray,
    i: int,
    j: int,
    fi: _Field,
    fj: _Field,
) -> tuple[BoolArray, BoolArray]:
    """Return which setups have tokens i and j surely within reach, and which surely not.

    Two outlines are within reach exactly when a vertex of one is (or lies inside the
    other), unless both have edges long enough to cross between far vertices. The
    table is read at the grid point nearest each vertex, off by at most half a cell's
    diagonal, so a vertex is surely within reach below the table's reach by more than
    that and a margin for rounding, and surely beyond it above.
    """
    reach = fi.reach
    slack = _CELL * 0.5 * _SQRT2 + _MARGIN
    x, y = _in_frame(world_j, block[:, i])
    to_i = _lookup(fi, x, y).min(axis=1)
    x, y = _in_frame(world_i, block[:, j])
    to_j = _lookup(fj, x, y).min(axis=1)
    closest = np.minimum(to_i, to_j)
    near = closest < reach - slack
    far = closest > reach + slack
    if fi.crossable and fj.crossable:
        far[:] = False
    return near, far


def blocked(p: FloatArray, q: FloatArray, world: list[FloatArray], boxes: FloatArray) -> BoolArray:
    """Return whether each segment ``p q (N, 2)`` meets a placed outline (touching counts).

    `world`: the outlines ``(V, 2)`` as placed, counter-clockwise; `boxes` their
    ``min x, min y, max x, max y``. Within the length tolerance of an outline is
    touching it. Segments are sorted out by the boxes grown by the tolerance, then per
    outline by :func:`_crossings_filtered`; what it cannot settle, by
    :func:`_blocked_exact`.
    """
    hit = np.zeros(len(p), dtype=np.bool_)
    if not len(p) or not world:
        return hit
    px, py, qx, qy = (np.ascontiguousarray(c) for c in (p[:, 0], p[:, 1], q[:, 0], q[:, 1]))
    low_x, high_x = np.minimum(px, qx) - EPSILON_MM, np.maximum(px, qx) + EPSILON_MM
    low_y, high_y = np.minimum(py, qy) - EPSILON_MM, np.maximum(py, qy) + EPSILON_MM
    size = max(float(np.max(np.abs(p))), float(np.max(np.abs(q))))
    size = max(size, *(float(np.max(np.abs(w))) for w in world))
    for ring, box in zip(world, boxes, strict=True):
        # The box on x over every segment, on y over the few left (the kernels' test).
        rows = np.flatnonzero((high_x >= box[0]) & (low_x <= box[2]))
        rows = rows[(high_y[rows] >= box[1]) & (low_y[rows] <= box[3]) & ~hit[rows]]
        if len(rows) > _DISKS_FROM:
            rows = _sorted_by_disks(p, q, rows, ring, size, hit)
        for lo in range(0, len(rows), _SEGMENT_BLOCK):
            block = rows[lo : lo + _SEGMENT_BLOCK]
            decided, meets = _crossings_filtered(p[block], q[block], ring, size)
            hit[block[meets]] = True
            doubtful = block[~decided]
            if len(doubtful):
                hit[doubtful] |= _blocked_exact(p[doubtful], q[doubtful], ring)
    return hit


def _sorted_by_disks(
    p: FloatArray,
    q: FloatArray,
    rows: NDArray[np.intp],
    ring: FloatArray,
    size: float,
    hit: BoolArray,
) -> NDArray[np.intp]:
    """Settle the segments `rows` near `ring` that the two circles of :func:`_disks` can.

    A segment through the inner disk meets the ring; one farther than the tolerance
    from the outer circle misses it. The margins cover the rounding of the distances
    (coordinates up to `size`). Return the rows left.
    """
    (cx, cy), inner, outer = _disks(ring)
    margin = 1e-9 * (size + 1.0)
    ax, ay = p[rows, 0], p[rows, 1]
    ex, ey = q[rows, 0] - ax, q[rows, 1] - ay
    wx, wy = cx - ax, cy - ay
    length2 = ex * ex + ey * ey
    t = (wx * ex + wy * ey) / np.where(length2 > 0.0, length2, 1.0)
    np.clip(t, 0.0, 1.0, out=t)
    wx -= t * ex
    wy -= t * ey
    gap = np.sqrt(wx * wx + wy * wy)
    through = gap < inner - margin
    hit[rows[through]] = True
    left: NDArray[np.intp] = rows[~through & (gap <= outer + EPSILON_MM + margin)]
    return left


#: Segments near one outline from which :func:`_sorted_by_disks` pays for itself.
_DISKS_FROM = 64
#: Grid points per side searched for the centre of the inner disk.
_GRID = 12


def _disks(ring: FloatArray) -> tuple[tuple[float, float], float, float]:
    """Return a centre, the radius of a disk about it inside `ring`, and of one around it.

    The centre is the point of a coarse grid over the ring's box farthest inside it
    (checked inside exactly); the inner radius is 0 when no grid point is inside.
    """
    low, high = ring.min(axis=0), ring.max(axis=0)
    steps = (np.arange(_GRID) + 0.5) / _GRID
    gx, gy = np.meshgrid(low[0] + steps * (high[0] - low[0]), low[1] + steps * (high[1] - low[1]))
    points = np.column_stack([gx.ravel(), gy.ravel()])
    a, b = ring[None, :, :], np.roll(ring, -1, axis=0)[None, :, :]
    clearance = _point_segment_distance(points[:, None, :], a, b).min(axis=1)
    # A floating-point crossing number picks the candidates; the one kept is checked.
    ax, ay, bx, by = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    x, y = points[:, 0, None], points[:, 1, None]
    left = (bx - ax) * (y - ay) - (by - ay) * (x - ax) > 0.0
    crossing = ((ay <= y) & (y < by) & left) | ((by <= y) & (y < ay) & ~left)
    clearance[crossing.sum(axis=1) % 2 == 0] = 0.0
    best = int(np.argmax(clearance))
    centre = points[best]
    outer = float(np.max(np.hypot(ring[:, 0] - centre[0], ring[:, 1] - centre[1])))
    here = _point_in_ring(centre[:1], centre[1:], ring[None])[0]
    inner = float(clearance[best]) if here > 0 else 0.0
    return (float(centre[0]), float(centre[1])), inner, outer


def _crossings_filtered(
    p: FloatArray, q: FloatArray, ring: FloatArray, size: float
) -> tuple[BoolArray, BoolArray]:
    """Return, per segment, whether floating point settles it against `ring`, and how.

    Three orientations per segment and vertex: of p and of q against each edge's line
    and of each vertex against the segment's line. Where each is farther from zero than
    its rounding error (Shewchuk's bound, for coordinates up to `size`) plus the length
    tolerance (and a margin for the kernels' rounded distances) times the length of
    the line, every sign is exact and every end lies more than the tolerance from
    every edge's line, every vertex from the segment's line: then the segment meets
    the ring exactly when it crosses an edge or p lies inside, and otherwise stays
    farther than the tolerance from it. The rest are left undecided.
    """
    closed = np.concatenate([ring, ring[:1]])
    vx, vy = closed[:, 0], closed[:, 1]
    edge = closed[1:] - closed[:-1]
    edge_length = np.hypot(edge[:, 0], edge[:, 1])
    dxp = vx - p[:, 0, None]
    dyp = vy - p[:, 1, None]
    dxq = vx - q[:, 0, None]
    dyq = vy - q[:, 1, None]
    # orient(a, b, p) for each edge a -> b, as Shewchuk writes it (differences to p).
    at_p = dxp[:, :-1] * dyp[:, 1:] - dyp[:, :-1] * dxp[:, 1:]
    at_q = dxq[:, :-1] * dyq[:, 1:] - dyq[:, :-1] * dxq[:, 1:]
    # orient(p, q, v) for each vertex v.
    sides = dxp * dyq - dyp * dxq
    # |l| + |r| <= 2 (2 size)^2 for every orientation here.
    error = _CCW_BOUND * 8.0 * size * size + 1e-300
    reach = EPSILON_MM + 1e-12 * (size + 1.0)
    length = np.hypot(q[:, 0] - p[:, 0], q[:, 1] - p[:, 1])
    edge_bound = edge_length * reach + error
    decided = (np.abs(at_p) > edge_bound).all(axis=1)
    decided &= (np.abs(at_q) > edge_bound).all(axis=1)
    decided &= (np.abs(sides) > (length * reach + error)[:, None]).all(axis=1)
    left_p, left_q, left_v = at_p > 0.0, at_q > 0.0, sides > 0.0
    crossed = ((left_p != left_q) & (left_v[:, :-1] != left_v[:, 1:])).any(axis=1)
    below = vy <= p[:, 1, None]
    upward = below[:, :-1]
    straddles = upward != below[:, 1:]
    # Crossing number: an upward edge with p on its left, a downward one with p right.
    inside = ((straddles & (upward == left_p)).sum(axis=1) % 2) == 1
    return decided, decided & (crossed | inside)


def _blocked_exact(p: FloatArray, q: FloatArray, ring: FloatArray) -> BoolArray:
    """Whether each segment ``p q (m, 2)`` meets `ring`, decided exactly as the kernels do."""
    hit = np.zeros(len(p), dtype=np.bool_)
    point = np.all(p == q, axis=1)
    for lo in range(0, len(p), _BLOCK):
        rp, rq = p[lo : lo + _BLOCK], q[lo : lo + _BLOCK]
        inside = _point_in_ring(rp[:, 0], rp[:, 1], np.broadcast_to(ring, (len(rp), *ring.shape)))
        a, b = ring[None, :, :], np.roll(ring, -1, axis=0)[None, :, :]
        crossed = _segments_meet(rp[:, None, :], rq[:, None, :], a, b).any(axis=1)
        found = np.where(point[lo : lo + _BLOCK], inside >= 0, crossed | (inside > 0))
        # Within the length tolerance of an outline is touching it.
        found |= _segment_ring_distance(rp, rq, ring) <= EPSILON_MM
        hit[lo : lo + _BLOCK] = found
    return hit


def _point_segment_distance(x: FloatArray, a: FloatArray, b: FloatArray) -> FloatArray:
    """Distance from points ``x (..., 2)`` to segments ``a b (..., 2)``, elementwise."""
    edge = b - a
    length2 = np.einsum("...i,...i->...", edge, edge)
    t = np.einsum("...i,...i->...", x - a, edge) / np.where(length2 > 0.0, length2, 1.0)
    nearest = a + np.clip(t, 0.0, 1.0)[..., None] * edge
    return np.asarray(np.hypot(*np.moveaxis(x - nearest, -1, 0)), dtype=np.float64)


def _segment_ring_distance(p: FloatArray, q: FloatArray, ring: FloatArray) -> FloatArray:
    """Least distance from each segment ``p q (m, 2)`` to the edges of one ring ``(V, 2)``.

    For segments that do not cross an edge it is the least of the end-to-edge distances;
    crossings are found exactly by the caller.
    """
    a, b = ring[None, :, :], np.roll(ring, -1, axis=0)[None, :, :]
    pp, qq = p[:, None, :], q[:, None, :]
    d = np.minimum(_point_segment_distance(pp, a, b), _point_segment_distance(qq, a, b))
    d = np.minimum(d, _point_segment_distance(a, pp, qq))
    return np.asarray(d.min(axis=1), dtype=np.float64)
