"""Batch obstacle checks: the legality of many setups, the obstruction of many segments.

:func:`setups_legal` answers, for each of M placements of the same K catalog tokens,
what :func:`tabletop.obstacles.legality.check` answers for a scene holding only those obstacles
on the ruleset's default play area in the setup phase: every obstacle more than the edge
limit from every edge, more than the spacing limit from every other obstacle and, for
Armada, entirely inside the setup area. :func:`obstructed` answers, for each of N
segments, what :func:`tabletop.obstacles.obstruction.obstructed_segment` answers against one
placement of the tokens: whether the segment meets an outline, touching included.

The outlines are the catalog's own, placed as :func:`tabletop.geom.shapes.place_outline` places
them, and compared exactly: a vertex within the limit of an edge, two edges crossing, or
one outline inside the other. Orientation signs are exact. Like :mod:`tabletop.geom.batch`, the
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
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from tabletop.geom.areas import play_area
from tabletop.geom.batch import RulesetLike, as_ruleset
from tabletop.geom.compiled import choose
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.poses import FloatArray
from tabletop.geom.rulesets import Ruleset
from tabletop.geom.shapes import place_outline
from tabletop.obstacles import _numpy_paths
from tabletop.obstacles._compiled import OBSTACLE_KERNELS
from tabletop.obstacles.catalog import get_token
from tabletop.obstacles.placement import placement_limits

__all__ = ["obstructed", "setups_legal"]

BoolArray = NDArray[np.bool_]
#: Single-thread seconds per setup and token pair, and per segment and token, of the
#: kernels (``python -m benchmarks.kernels``): what :func:`tabletop.geom.compiled.choose` weighs.
_SECONDS_PER_TOKEN_PAIR = 55e-9
_SECONDS_PER_SEGMENT_TOKEN = 8e-9


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
    return placement_limits(ruleset, play_area(ruleset.default_area)).numbers()


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
        K catalog token names (``tabletop.obstacles.catalog``); a name may repeat.
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
    tabletop.geom.errors.InvalidInputError: placements: expected shape (M, 2, 4) for 2 tokens, got (1, 1, 4)
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
    touches it, as :func:`tabletop.obstacles.obstruction.obstructed_segment` has it.

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
    # Each outline's box, then the disk about its reference point that holds it (turning
    # and flipping keep each vertex's distance from that point).
    boxes = np.array(
        [
            [*w.min(axis=0), *w.max(axis=0), row[0], row[1], radius]
            for w, row, radius in zip(world, place, packed.radii, strict=True)
        ],
        dtype=np.float64,
    ).reshape(-1, 7)
    path = choose(OBSTACLE_KERNELS, len(starts) * len(names) * _SECONDS_PER_SEGMENT_TOKEN)
    if path != "numpy":
        out = np.empty(len(starts), dtype=np.bool_)
        OBSTACLE_KERNELS.call(
            path, "segments_blocked", starts, ends, wv, packed.offsets, boxes, out
        )
        return out
    return _blocked_numpy(starts, ends, world, boxes)


# -- the numpy path (tabletop.obstacles._numpy_paths) ---------------------------------------------


def _setups_numpy(packed: _Packed, place: FloatArray, limits: FloatArray) -> BoolArray:
    return _numpy_paths.setups(packed.outlines, packed.radii, place, limits)


def _blocked_numpy(
    p: FloatArray, q: FloatArray, world: list[FloatArray], boxes: FloatArray
) -> BoolArray:
    return _numpy_paths.blocked(p, q, world, boxes)
