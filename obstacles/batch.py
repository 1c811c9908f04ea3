"""Batch obstacle checks: the legality of many setups, the obstruction of many segments.

:func:`setups_legal` answers, for each of M placements of the same K catalog tokens,
what :func:`obstacles.legality.check` answers for a scene holding only those obstacles
on the ruleset's default play area in the setup phase: every obstacle more than the edge
limit from every edge, more than the spacing limit from every other obstacle and, for
Armada, entirely inside the setup area. :func:`obstructed` answers, for each of N
segments, what :func:`obstacles.obstruction.obstructed_segment` answers against one
placement of the tokens: whether the segment meets an outline, touching included.

The outlines are the catalog's own, placed as :func:`geom.shapes.place_outline` places
them, and compared exactly: a vertex within the limit of an edge, two edges crossing, or
one outline inside the other. Orientation signs are exact. Like :mod:`geom.batch`, the
work runs in compiled kernels unless ``TABLETOP_NO_NUMBA=1`` selects numpy.

Examples
--------
>>> import numpy as np
>>> tokens = ["coreasteroid0", "coreasteroid1"]
>>> apart = [[300.0, 457.2, 0.0, 0.0], [600.0, 457.2, 0.0, 0.0]]
>>> close = [[300.0, 457.2, 0.0, 0.0], [400.0, 457.2, 0.0, 0.0]]
>>> setups_legal(tokens, [apart, close]).tolist()
[True, False]
>>> p = np.array([[300.0, 300.0], [450.0, 300.0]])
>>> q = np.array([[300.0, 600.0], [450.0, 600.0]])
>>> obstructed(p, q, tokens, apart).tolist()
[True, False]
>>> setups_legal(tokens, np.empty((0, 2, 4))).shape
(0,)
"""

from __future__ import annotations

import dataclasses as _dc
import itertools as _itertools
from collections.abc import Sequence
from fractions import Fraction as _Fraction

import numpy as np
from numpy.typing import ArrayLike, NDArray

from geom._aot import choose
from geom.areas import play_area
from geom.batch import RulesetLike, as_ruleset
from geom.errors import InvalidInputError
from geom.poses import FloatArray
from geom.rulesets import Ruleset
from geom.shapes import place_outline
from geom.tolerance import EPSILON_MM, beyond, within
from obstacles._compiled import OBSTACLE_KERNELS
from obstacles.catalog import get_token
from obstacles.placement import placement_limits

__all__ = ["obstructed", "setups_legal"]

BoolArray = NDArray[np.bool_]
#: Setups (numpy path: segments) handled per block, bounding the temporary arrays.
_BLOCK = 512
#: Single-thread seconds per setup and token pair, and per segment and token, of the
#: kernels (``python -m benchmarks.paired``): what :func:`geom._aot.choose` weighs.
_SECONDS_PER_TOKEN_PAIR = 100e-9
_SECONDS_PER_SEGMENT_TOKEN = 25e-9
#: Shewchuk's ``ccwerrboundA``: beyond it the floating-point orientation sign is right.
_CCW_BOUND = (3.0 + 16.0 * 2.0**-53) * 2.0**-53


@_dc.dataclass(frozen=True, eq=False)
class _Packed:
    """K token outlines in flat arrays, with per-edge data, as the kernels take them."""

    local: FloatArray
    mirrored: FloatArray
    offsets: NDArray[np.int64]
    inv: FloatArray
    inv_mirrored: FloatArray
    half: FloatArray
    half_mirrored: FloatArray
    radii: FloatArray
    outlines: tuple[FloatArray, ...]


def _edge_data(ring: FloatArray) -> tuple[FloatArray, FloatArray]:
    edge = np.roll(ring, -1, axis=0) - ring
    length2 = np.einsum("ij,ij->i", edge, edge)
    return 1.0 / length2, np.sqrt(length2) / 2.0


_PACKED: dict[tuple[str, tuple[str, ...]], _Packed] = {}


def _flat(parts: Sequence[FloatArray], shape: tuple[int, ...]) -> FloatArray:
    array = np.ascontiguousarray(np.concatenate(parts) if parts else np.zeros(shape))
    array.setflags(write=False)
    return array


def _packed(ruleset: Ruleset, names: tuple[str, ...]) -> _Packed:
    """Return the tokens' outlines packed for the kernels (cached per game and names)."""
    outlines = tuple(get_token(ruleset, name).outline for name in names)
    key = (ruleset.obstacle_set.catalog, names)
    if key not in _PACKED:
        if len(_PACKED) >= 256:
            _PACKED.clear()
        local = tuple(np.asarray(o, dtype=np.float64) for o in outlines)
        # A flipped token: mirrored (x -> -x), vertex order restored (place_outline).
        mirrored = tuple(o[::-1] * np.array([-1.0, 1.0]) for o in local)
        edges = [_edge_data(o) for o in local]
        edges_m = [_edge_data(o) for o in mirrored]
        offsets = np.cumsum([0, *(len(o) for o in local)]).astype(np.int64)
        radii = np.array([float(np.max(np.hypot(o[:, 0], o[:, 1]))) for o in local])
        _PACKED[key] = _Packed(
            _flat(local, (0, 2)),
            _flat(mirrored, (0, 2)),
            offsets,
            _flat([e[0] for e in edges], (0,)),
            _flat([e[0] for e in edges_m], (0,)),
            _flat([e[1] for e in edges], (0,)),
            _flat([e[1] for e in edges_m], (0,)),
            radii,
            local,
        )
    return _PACKED[key]


def _token_names(tokens: Sequence[str]) -> tuple[str, ...]:
    if isinstance(tokens, str):
        raise InvalidInputError(f"tokens: expected a sequence of catalog names, got {tokens!r}")
    return tuple(tokens)


def _limits(ruleset: Ruleset) -> FloatArray:
    """Edge and spacing limits, play width and height, setup box, and whether it applies."""
    area = play_area(ruleset.default_area)
    limits = placement_limits(ruleset, area)
    x0, y0, x1, y1 = limits.area.bounds
    boxed = 1.0 if ruleset.setup_area_boxed else 0.0
    return np.array(
        [limits.edge, limits.spacing, limits.width, limits.height, x0, y0, x1, y1, boxed],
        dtype=np.float64,
    )


def setups_legal(
    tokens: Sequence[str], placements: ArrayLike, *, ruleset: RulesetLike = "xwing2"
) -> BoolArray:
    """Return whether each placement of the tokens is a legal obstacle setup.

    The setup rules of ``rules.md`` on the ruleset's default play area: every obstacle
    more than the edge limit from every edge (X-Wing range 2, Armada distance 3), more
    than the spacing limit from every other (X-Wing range 1, Armada distance 1) and,
    for Armada, entirely inside the setup area; lengths within 1e-6 mm of a limit are on
    it (illegal). Composition (tournament format) is not checked.

    Parameters
    ----------
    tokens : sequence of str
        K catalog token names (``obstacles.catalog``); a name may repeat.
    placements : array_like of shape (M, K, 4)
        For each setup and token: ``x, y, angle, flipped`` (reference point in mm, angle
        in degrees counter-clockwise, flipped 0 or 1).
    ruleset : str or Ruleset, default "xwing2"
        The edition (catalog, limits and default area).

    Returns
    -------
    ndarray of bool, shape (M,)

    Raises
    ------
    InvalidInputError
        For an unknown token or ruleset, or placements of the wrong shape.

    Examples
    --------
    Exactly on the spacing line is illegal; a micrometre beyond it is legal.

    >>> rocks = ["hugeship-short", "hugeship-short"]
    >>> on_line = [[300.0, 457.2, 0.0, 0.0], [480.0, 457.2, 0.0, 0.0]]
    >>> beyond = [[300.0, 457.2, 0.0, 0.0], [480.001, 457.2, 0.0, 0.0]]
    >>> setups_legal(rocks, [on_line, beyond]).tolist()
    [False, True]
    >>> setups_legal(rocks, [[[300.0, 457.2, 0.0, 0.0]]])
    Traceback (most recent call last):
    ...
    geom.errors.InvalidInputError: placements: expected shape (M, 2, 4) for 2 tokens, got (1, 1, 4)
    """
    rules = as_ruleset(ruleset)
    names = _token_names(tokens)
    packed = _packed(rules, names)
    place = np.ascontiguousarray(np.asarray(placements, dtype=np.float64))
    if place.ndim != 3 or place.shape[1:] != (len(names), 4):
        raise InvalidInputError(
            f"placements: expected shape (M, {len(names)}, 4) for {len(names)} tokens, "
            f"got {place.shape}"
        )
    limits = _limits(rules)
    pairs = len(names) * (len(names) + 1) // 2
    path = choose(OBSTACLE_KERNELS, len(place) * pairs * _SECONDS_PER_TOKEN_PAIR)
    if path != "numpy":
        out = np.empty(len(place), dtype=np.bool_)
        OBSTACLE_KERNELS.call(
            path,
            "setups",
            packed.local,
            packed.mirrored,
            packed.offsets,
            packed.inv,
            packed.inv_mirrored,
            packed.half,
            packed.half_mirrored,
            packed.radii,
            place,
            limits,
            out,
        )
        return out
    return _setups_numpy(packed, place, limits)


def obstructed(
    p: ArrayLike,
    q: ArrayLike,
    tokens: Sequence[str],
    placements: ArrayLike,
    *,
    ruleset: RulesetLike = "xwing2",
) -> BoolArray:
    """Return whether each segment from `p` to `q` meets one of the placed tokens.

    Touching counts, and a segment within the length tolerance (1e-6 mm) of an outline
    touches it, as :func:`obstacles.obstruction.obstructed_segment` has it.

    Parameters
    ----------
    p, q : array_like of shape (N, 2)
        Segment ends, mm.
    tokens : sequence of str
        K catalog token names.
    placements : array_like of shape (K, 4)
        One placement of the tokens: ``x, y, angle, flipped`` each.
    ruleset : str or Ruleset, default "xwing2"
        The edition (its catalog).

    Returns
    -------
    ndarray of bool, shape (N,)

    Raises
    ------
    InvalidInputError
        For an unknown token or ruleset, or arrays of the wrong shape.

    Examples
    --------
    A segment ending exactly on a corner of a huge-ship token touches it.

    >>> obstructed([[0.0, 0.0]], [[460.0, 360.0]], ["hugeship-long"], [[500.0, 472.5, 0.0, 0.0]]).tolist()
    [True]
    >>> obstructed([[0.0, 0.0]], [[459.9, 360.0]], ["hugeship-long"], [[500.0, 472.5, 0.0, 0.0]]).tolist()
    [False]
    """
    rules = as_ruleset(ruleset)
    names = _token_names(tokens)
    packed = _packed(rules, names)
    place = np.asarray(placements, dtype=np.float64)
    if place.shape != (len(names), 4):
        raise InvalidInputError(
            f"placements: expected shape ({len(names)}, 4) for {len(names)} tokens, got {place.shape}"
        )
    starts = np.ascontiguousarray(np.asarray(p, dtype=np.float64))
    ends = np.ascontiguousarray(np.asarray(q, dtype=np.float64))
    if starts.ndim != 2 or starts.shape[1:] != (2,) or starts.shape != ends.shape:
        raise InvalidInputError(
            f"p and q: expected two arrays of shape (N, 2), got {starts.shape} and {ends.shape}"
        )
    world = [place_outline(o, row) for o, row in zip(packed.outlines, place, strict=True)]
    wv = np.ascontiguousarray(np.concatenate(world) if world else np.zeros((0, 2)))
    boxes = np.array([[*w.min(axis=0), *w.max(axis=0)] for w in world], dtype=np.float64).reshape(
        -1, 4
    )
    path = choose(OBSTACLE_KERNELS, len(starts) * len(names) * _SECONDS_PER_SEGMENT_TOKEN)
    if path != "numpy":
        out = np.empty(len(starts), dtype=np.bool_)
        OBSTACLE_KERNELS.call(
            path, "segments_blocked", starts, ends, wv, packed.offsets, boxes, out
        )
        return out
    return _blocked_numpy(starts, ends, world, boxes)


# -- the numpy path ---------------------------------------------------------------------


def _orient(
    ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray, cx: FloatArray, cy: FloatArray
) -> NDArray[np.int8]:
    """Exact sign of the turn a → b → c, elementwise: a filter, then fractions where it fails.

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
    o1 = _orient(px, py, qx, qy, ax, ay).astype(np.int64)
    o2 = _orient(px, py, qx, qy, bx, by).astype(np.int64)
    o3 = _orient(ax, ay, bx, by, px, py).astype(np.int64)
    o4 = _orient(ax, ay, bx, by, qx, qy).astype(np.int64)
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
    o = _orient(ax, ay, bx, by, xx, yy)
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


def _setups_numpy(packed: _Packed, place: FloatArray, limits: FloatArray) -> BoolArray:
    edge, spacing, width, height, x0, y0, x1, y1, boxed = (float(v) for v in limits)
    reach = spacing + EPSILON_MM
    out = np.ones(len(place), dtype=np.bool_)
    for lo in range(0, len(place), _BLOCK):
        block = place[lo : lo + _BLOCK]
        legal = np.ones(len(block), dtype=np.bool_)
        world = [place_outline(o, block[:, k]) for k, o in enumerate(packed.outlines)]
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
            reachable = gap <= packed.radii[i] + packed.radii[j] + reach + 1e-9
            rows = np.flatnonzero(legal & reachable)
            if len(rows):
                legal[rows] &= ~_within(world[i][rows], world[j][rows], reach)
        out[lo : lo + _BLOCK] = legal
    return out


def _blocked_numpy(
    p: FloatArray, q: FloatArray, world: list[FloatArray], boxes: FloatArray
) -> BoolArray:
    point = np.all(p == q, axis=1)
    low, high = np.minimum(p, q) - EPSILON_MM, np.maximum(p, q) + EPSILON_MM
    hit = np.zeros(len(p), dtype=np.bool_)
    for ring, box in zip(world, boxes, strict=True):
        near = ~hit & (high[:, 0] >= box[0]) & (low[:, 0] <= box[2])
        near &= (high[:, 1] >= box[1]) & (low[:, 1] <= box[3])
        for rows in np.array_split(np.flatnonzero(near), max(1, int(near.sum()) // _BLOCK)):
            if not len(rows):
                continue
            rp, rq = p[rows], q[rows]
            inside = _point_in_ring(
                rp[:, 0], rp[:, 1], np.broadcast_to(ring, (len(rows), *ring.shape))
            )
            a, b = ring[None, :, :], np.roll(ring, -1, axis=0)[None, :, :]
            crossed = _segments_meet(rp[:, None, :], rq[:, None, :], a, b).any(axis=1)
            hit[rows] = np.where(point[rows], inside >= 0, crossed | (inside > 0))
            # Within the length tolerance of an outline is touching it.
            hit[rows] |= _segment_ring_distance(rp, rq, ring) <= EPSILON_MM
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
