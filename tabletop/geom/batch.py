"""Batch geometry: distances, bands and arcs of N pairs of poses in one call.

Each function answers what :mod:`tabletop.geom.measure` and :mod:`tabletop.geom.arcs` answer for shapely
outlines built from the same poses, without building them: the bases are rectangles
(X-Wing squares and huge bases, Armada ship bases) or disks (Armada squadrons), measured
in closed form. Two paths compute the same thing:

* ``aot`` (the default): the kernels of :mod:`tabletop.geom._kernels` compiled ahead of time
  (``make`` builds them), on one thread; a new process loads them in about a millisecond.
* ``numba``: the same kernels compiled by numba, on every core: for a batch large enough
  to repay numba's start-up, or when the compiled module is missing or out of date.
  numba is imported the first time a batch function runs there, never by ``import geom``.
* ``numpy``: the same formulas on whole arrays. Set the environment variable
  ``TABLETOP_NO_NUMBA=1`` to select it (it is also used when neither is available).

``TABLETOP_BACKEND=aot|numba|numpy`` forces a path (:func:`backend`, :mod:`tabletop.geom.compiled`).

Poses are float arrays ``(N, 3)`` of ``x, y, heading`` (mm, degrees counter-clockwise
from +x); a single row ``(3,)`` or ``(1, 3)`` is broadcast against the other side. Bases
are base names of the ruleset: one name for every row, or a sequence of N names.

.. warning::
   These functions check names and shapes but not that poses are finite: a NaN pose
   gives an unspecified answer for its row.

Examples
--------
>>> import numpy as np
>>> a = np.array([[0.0, 0.0, 90.0], [0.0, 0.0, 90.0]])
>>> b = np.array([[0.0, 140.0, 90.0], [0.0, 0.0, 45.0]])
>>> distance(a, "small", b, "small").round(9).tolist()
[100.0, 0.0]
>>> band(distance(a, "small", b, "small")).tolist()
[1, 0]
>>> in_arc(a, "small", [[0.0, 140.0, 0.0], [0.0, -140.0, 0.0]], "small", "front").tolist()
[True, False]
>>> distance(np.empty((0, 3)), "small", np.empty((0, 3)), "large").shape
(0,)
>>> distance(a, "tiny", b, "small")
Traceback (most recent call last):
...
tabletop.geom.errors.InvalidInputError: unknown base 'tiny' for xwing2; expected one of: small, medium, large, huge, huge-short
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

import numpy as np
from numpy.typing import ArrayLike, NDArray

from tabletop.geom import compiled as _aot
from tabletop.geom.arcs import XWING_ARCS, parse_xwing_arc
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.measure import line_bands
from tabletop.geom.poses import FloatArray
from tabletop.geom.rules import BandKind
from tabletop.geom.rulesets import Ruleset, get_ruleset
from tabletop.geom.tolerance import EPSILON_MM

__all__ = [
    "BACKEND_ENV",
    "NO_NUMBA_ENV",
    "BaseNames",
    "RulesetLike",
    "as_ruleset",
    "backend",
    "band",
    "base_dims",
    "distance",
    "distance_band",
    "in_arc",
    "pose_pairs",
    "pose_rows",
]

#: Set this environment variable to ``1`` to take the numpy path instead of numba.
NO_NUMBA_ENV = _aot.NO_NUMBA_ENV
#: Set this environment variable to ``aot``, ``numba`` or ``numpy`` to force that path.
BACKEND_ENV = _aot.BACKEND_ENV

#: A ruleset, or the name of one.
RulesetLike: TypeAlias = str | Ruleset
#: One base name for every row, or one per row.
BaseNames: TypeAlias = str | Sequence[str]


#: Single-thread seconds per row of each kernel (``python -m benchmarks.kernels``).
_SECONDS_PER_PAIR = 12e-9
_SECONDS_PER_ARC = 55e-9


def backend(cost_s: float = 0.0) -> _aot.Backend:
    """Return the path a batch call takes now: ``"aot"``, ``"numba"`` or ``"numpy"``.

    `cost_s` is the batch's estimated time on one thread, in seconds (0: a small batch).
    ``TABLETOP_BACKEND`` forces a path (the next available one if it cannot serve);
    ``TABLETOP_NO_NUMBA`` set to anything but ``""`` or ``"0"`` selects numpy. Otherwise
    the kernels compiled ahead of time when they are fresh, and numba's parallel kernels
    for a batch whose saving on the other cores repays numba's start-up
    (:func:`tabletop.geom.compiled.choose`). Read at every call, so a test can switch.

    Examples
    --------
    >>> backend() in ("aot", "numba", "numpy")
    True
    """
    return _aot.choose(_aot.GEOM_KERNELS, cost_s)


def as_ruleset(ruleset: RulesetLike) -> Ruleset:
    """Return `ruleset` itself, or the ruleset of that name.

    Examples
    --------
    >>> as_ruleset("armada").name
    'armada'
    """
    return ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)


def pose_rows(poses: ArrayLike, what: str = "poses") -> FloatArray:
    """Return `poses` as a C-contiguous float array ``(N, 3)`` (a single pose: ``(1, 3)``).

    Raises
    ------
    InvalidInputError
        If the array is not ``(3,)`` or ``(N, 3)``.

    Examples
    --------
    >>> pose_rows([1.0, 2.0, 3.0]).tolist()
    [[1.0, 2.0, 3.0]]
    >>> pose_rows([[1.0, 2.0]])
    Traceback (most recent call last):
    ...
    tabletop.geom.errors.InvalidInputError: poses: expected an array of shape (N, 3) of x, y, heading, got shape (1, 2)
    """
    array = np.asarray(poses, dtype=np.float64)
    if array.ndim == 1 and array.shape == (3,):
        array = array[None, :]
    if array.ndim != 2 or array.shape[1] != 3:
        raise InvalidInputError(
            f"{what}: expected an array of shape (N, 3) of x, y, heading, got shape {array.shape}"
        )
    return np.ascontiguousarray(array)


def pose_pairs(a: ArrayLike, b: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Return two pose arrays ``(N, 3)`` of one length (a single row is repeated).

    Raises
    ------
    InvalidInputError
        For shapes other than ``(N, 3)``, or two lengths that differ and are not 1.
    """
    pa, pb = pose_rows(a, "a"), pose_rows(b, "b")
    if len(pa) != len(pb):
        if len(pa) == 1:
            pa = np.ascontiguousarray(np.broadcast_to(pa, pb.shape))
        elif len(pb) == 1:
            pb = np.ascontiguousarray(np.broadcast_to(pb, pa.shape))
        else:
            raise InvalidInputError(
                f"a has {len(pa)} poses and b has {len(pb)}; give as many of each, or one"
            )
    return pa, pb


def base_dims(ruleset: Ruleset, bases: BaseNames, n: int) -> FloatArray:
    """Return rows ``(half-width, half-length, radius)`` of the bases: 1 row or `n` rows.

    A disk (an Armada squadron) has its radius as both halves; a rectangle has radius 0.

    Raises
    ------
    InvalidInputError
        For a base the ruleset does not have, or a sequence whose length is not `n`.

    Examples
    --------
    >>> base_dims(get_ruleset("armada"), ["small", "squadron"], 2).tolist()
    [[21.5, 35.5, 0.0], [15.5, 15.5, 15.5]]
    """
    names = [bases] if isinstance(bases, str) else list(bases)
    if not isinstance(bases, str) and len(names) != n:
        raise InvalidInputError(f"expected one base name or {n}, got {len(names)}")
    table: dict[str, tuple[float, float, float]] = {}
    for name in dict.fromkeys(names):
        spec = ruleset.base_spec(name)
        radius = spec.width / 2.0 if spec.is_disk else 0.0
        table[name] = (spec.width / 2.0, spec.length / 2.0, radius)
    return np.array([table[name] for name in names], dtype=np.float64).reshape(-1, 3)


def distance(
    a: ArrayLike,
    a_base: BaseNames,
    b: ArrayLike,
    b_base: BaseNames,
    *,
    ruleset: RulesetLike = "xwing2",
) -> FloatArray:
    """Return the least distance between the bases at poses `a` and `b`, in mm.

    The bases are measured without guides; a squadron is its disk, measured exactly.
    Equal to :func:`tabletop.geom.measure.geometry_distance` of the bases' shapely outlines (within
    floating-point rounding, about 1e-12 mm): 0 when they touch or overlap.

    Parameters
    ----------
    a, b : array_like of shape (N, 3)
        Poses ``x, y, heading`` (a single pose is repeated).
    a_base, b_base : str or sequence of str
        Base names of the ruleset: one for all, or one per pose.
    ruleset : str or Ruleset, default "xwing2"
        The edition (its base sizes).

    Returns
    -------
    ndarray of shape (N,)
        Distances, mm.

    Raises
    ------
    InvalidInputError
        For an unknown ruleset or base, or poses of the wrong shape.

    Examples
    --------
    Two equal squares on one centre, one turned 45°: no corner of either lies inside
    the other, and they overlap.

    >>> distance([0.0, 0.0, 0.0], "small", [0.0, 0.0, 45.0], "small").tolist()
    [0.0]
    >>> distance([0.0, 0.0, 0.0], "squadron", [100.0, 0.0, 0.0], "squadron", ruleset="armada")
    array([69.])
    """
    rules = as_ruleset(ruleset)
    pa, pb = pose_pairs(a, b)
    n = len(pa)
    da, db = base_dims(rules, a_base, n), base_dims(rules, b_base, n)
    path = backend(n * _SECONDS_PER_PAIR)
    if path != "numpy":
        out = np.empty(n)
        _aot.GEOM_KERNELS.call(path, "distances", pa, pb, da, db, out)
        return out
    return _distances_numpy(pa, pb, da, db)


def band(
    distance: ArrayLike,
    *,
    ruleset: RulesetLike = "xwing2",
    kind: BandKind = "range",
) -> NDArray[np.int64]:
    """Return the band of each distance: -1 beyond the last line.

    X-Wing: range 0-5 (``kind="range"``; 0 only in ``xwing2``, for touching or
    overlapping). Armada: ``kind="distance"`` 1-5, or ``kind="range"`` 1-3 (close,
    medium, long). A distance on a line (within 1e-6 mm) is the shorter band. This is
    :func:`tabletop.geom.measure.bands` with the ruleset's lines.

    Raises
    ------
    InvalidInputError
        For a kind the game does not have.

    Examples
    --------
    >>> band([0.0, 100.0, 100.000001, 100.00001, 500.0, 500.1]).tolist()
    [0, 1, 1, 2, 5, -1]
    >>> band([0.0, 100.0], ruleset="xwing1").tolist()
    [1, 1]
    >>> band([76.5, 123.5, 124.5, 305.0], ruleset="armada", kind="distance").tolist()
    [1, 2, 2, -1]
    >>> band([76.5, 123.5, 124.5, 305.0], ruleset="armada").tolist()
    [1, 1, 2, -1]
    >>> band([1.0], kind="distance")
    Traceback (most recent call last):
    ...
    tabletop.geom.errors.InvalidInputError: unknown band kind 'distance' for xwing2; expected: range
    """
    rules = as_ruleset(ruleset)
    return line_bands(distance, rules.band_lines_of(kind), zero_band=rules.zero_band(kind))


def distance_band(
    a: ArrayLike,
    a_base: BaseNames,
    b: ArrayLike,
    b_base: BaseNames,
    *,
    ruleset: RulesetLike = "xwing2",
    kind: BandKind = "range",
) -> tuple[FloatArray, NDArray[np.int64]]:
    """Return :func:`distance` and its :func:`band` together, in one pass over the pairs.

    The same answers as ``band(distance(...))``; the compiled paths take each band while
    its distance is still in cache, where two calls would read the distances back.

    Raises
    ------
    InvalidInputError
        As :func:`distance` and :func:`band` do.

    Examples
    --------
    >>> d, k = distance_band([[0.0, 0.0, 90.0]] * 2, "small", [[0.0, 140.0, 90.0], [0.0, 640.0, 90.0]], "small")
    >>> d.round(9).tolist(), k.tolist()
    ([100.0, 600.0], [1, -1])
    >>> distance_band([0.0, 0.0, 0.0], "squadron", [60.0, 0.0, 0.0], "squadron", ruleset="armada", kind="distance")[1].tolist()
    [1]
    """
    rules = as_ruleset(ruleset)
    lines = rules.band_lines_of(kind)
    zero_band = rules.zero_band(kind)
    pa, pb = pose_pairs(a, b)
    n = len(pa)
    da, db = base_dims(rules, a_base, n), base_dims(rules, b_base, n)
    path = backend(n * _SECONDS_PER_PAIR)
    if path != "numpy":
        out = np.empty(n)
        bands = np.empty(n, dtype=np.int64)
        edges = np.asarray(lines, dtype=np.float64) + EPSILON_MM
        _aot.GEOM_KERNELS.call(
            path, "distances_bands", pa, pb, da, db, edges, zero_band, out, bands
        )
        return out, bands
    out = _distances_numpy(pa, pb, da, db)
    return out, line_bands(out, lines, zero_band=zero_band)


#: Arc codes of the kernels, in :data:`tabletop.geom.arcs.XWING_ARCS` order.
_ARC_CODES = {name: code for code, name in enumerate(XWING_ARCS)}


def in_arc(
    a: ArrayLike,
    a_base: BaseNames,
    b: ArrayLike,
    b_base: BaseNames,
    arc: str,
    *,
    ruleset: RulesetLike = "xwing2",
) -> NDArray[np.bool_]:
    """Return whether each base at `b` lies partly in the X-Wing arc of the base at `a`.

    The rule of :func:`tabletop.geom.arcs.targets_in_arc`: any part of the target's base (without guides)
    in the arc region outside the attacker's base, boundaries included. Arcs are
    wedges of rays from the base centre at ± the ruleset's half-angle (``front``,
    ``rear``, ``left``, ``right``), half-planes (``full-front``, ``full-rear``) or the
    ``bullseye`` strip from the front edge to the range-3 line.

    Parameters
    ----------
    a, b : array_like of shape (N, 3)
        Attacker and target poses (a single pose is repeated).
    a_base, b_base : str or sequence of str
        Base names.
    arc : str
        One of :data:`tabletop.geom.arcs.XWING_ARCS`.
    ruleset : str or Ruleset, default "xwing2"
        An X-Wing edition.

    Raises
    ------
    InvalidInputError
        For an unknown arc, base or ruleset, or an Armada ruleset (its arcs belong to
        hull zones: :func:`tabletop.geom.hulls.firing_arc`).

    Examples
    --------
    A small base touching the attacker's right edge is in its right arc only.

    >>> [in_arc([0.0, 0.0, 90.0], "small", [40.0, 0.0, 90.0], "small", arc).item()
    ...  for arc in ("front", "right", "full-front", "full-rear", "bullseye")]
    [False, True, True, True, False]
    """
    rules = as_ruleset(ruleset)
    if rules.hull_zones:
        raise InvalidInputError(
            f"in_arc measures X-Wing arcs; {rules.name} arcs belong to hull zones "
            "(tabletop.geom.hulls.firing_arc)"
        )
    code = _ARC_CODES[parse_xwing_arc(arc)]
    pa, pb = pose_pairs(a, b)
    n = len(pa)
    da, db = base_dims(rules, a_base, n), base_dims(rules, b_base, n)
    names = [a_base] if isinstance(a_base, str) else list(a_base)
    halves = np.array([rules.arc_half_angle(name) for name in names], dtype=np.float64)
    bull_half = rules.xwing_bullseye_width / 2.0
    bull_length = rules.xwing_range_bands[2]
    path = backend(n * _SECONDS_PER_ARC)
    if path != "numpy":
        out = np.empty(n, dtype=np.bool_)
        _aot.GEOM_KERNELS.call(
            path, "arcs_hit", pa, pb, da, db, halves, code, bull_half, bull_length, out
        )
        return out
    return _arcs_numpy(pa, pb, da, db, halves, code, bull_half, bull_length)


# -- the numpy path ---------------------------------------------------------------------

_SIGNS = ((-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0))


def _frames(
    pa: FloatArray, pb: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]:
    """B's centre in A's frame ``(u, v)`` and in its own axes ``(ub, vb)``; cos, sin of θa − θb."""
    ta, tb = np.radians(pa[:, 2]), np.radians(pb[:, 2])
    ac, as_ = np.cos(ta), np.sin(ta)
    bc, bs = np.cos(tb), np.sin(tb)
    dx, dy = pb[:, 0] - pa[:, 0], pb[:, 1] - pa[:, 1]
    return (
        dx * as_ - dy * ac,
        dx * ac + dy * as_,
        dx * bs - dy * bc,
        dx * bc + dy * bs,
        ac * bc + as_ * bs,
        as_ * bc - ac * bs,
    )


def _corner_gap2(
    u: FloatArray,
    v: FloatArray,
    cc: FloatArray,
    sn: FloatArray,
    hw: FloatArray,
    hl: FloatArray,
    ohw: FloatArray,
    ohl: FloatArray,
) -> FloatArray:
    best = np.full(u.shape, np.inf)
    for sx, sy in _SIGNS:
        x = u + sx * ohw * cc + sy * ohl * sn
        y = v - sx * ohw * sn + sy * ohl * cc
        ex = np.maximum(np.abs(x) - hw, 0.0)
        ey = np.maximum(np.abs(y) - hl, 0.0)
        best = np.minimum(best, ex * ex + ey * ey)
    return best


def _distances_numpy(pa: FloatArray, pb: FloatArray, da: FloatArray, db: FloatArray) -> FloatArray:
    a_hw, a_hl, a_r = da[:, 0], da[:, 1], da[:, 2]
    b_hw, b_hl, b_r = db[:, 0], db[:, 1], db[:, 2]
    u, v, ub, vb, cc, sn = _frames(pa, pb)
    acc, asn = np.abs(cc), np.abs(sn)
    # Rectangles: no separating axis with a positive gap means they meet.
    gap = np.maximum.reduce(
        [
            np.abs(u) - (a_hw + b_hw * acc + b_hl * asn),
            np.abs(v) - (a_hl + b_hw * asn + b_hl * acc),
            np.abs(ub) - (b_hw + a_hw * acc + a_hl * asn),
            np.abs(vb) - (b_hl + a_hw * asn + a_hl * acc),
        ]
    )
    corners = np.minimum(
        _corner_gap2(u, v, cc, sn, a_hw, a_hl, b_hw, b_hl),
        _corner_gap2(-ub, -vb, cc, -sn, b_hw, b_hl, a_hw, a_hl),
    )
    rect = np.where(gap <= 0.0, 0.0, np.sqrt(corners))
    # A disk: its centre to the other rectangle, less its radius.
    a_disk, b_disk = a_r > 0.0, b_r > 0.0
    x = np.where(a_disk, ub, u)
    y = np.where(a_disk, vb, v)
    ex = np.maximum(np.abs(x) - np.where(a_disk, b_hw, a_hw), 0.0)
    ey = np.maximum(np.abs(y) - np.where(a_disk, b_hl, a_hl), 0.0)
    disk_rect = np.maximum(np.sqrt(ex * ex + ey * ey) - np.where(a_disk, a_r, b_r), 0.0)
    disks = np.maximum(np.hypot(u, v) - a_r - b_r, 0.0)
    out = np.where(a_disk & b_disk, disks, np.where(a_disk | b_disk, disk_rect, rect))
    return np.asarray(out, dtype=np.float64)


def _arcs_numpy(
    pa: FloatArray,
    pb: FloatArray,
    da: FloatArray,
    db: FloatArray,
    halves: FloatArray,
    arc: int,
    bull_half: float,
    bull_length: float,
) -> NDArray[np.bool_]:
    u, v, _, _, cc, sn = _frames(pa, pb)
    t_hw, t_hl = db[:, 0, None], db[:, 1, None]
    hw, hl = da[:, 0, None], da[:, 1, None]
    sx = np.array([s[0] for s in _SIGNS])
    sy = np.array([s[1] for s in _SIGNS])
    u, v, cc, sn = u[:, None], v[:, None], cc[:, None], sn[:, None]
    xs = u + sx * t_hw * cc + sy * t_hl * sn
    ys = v - sx * t_hw * sn + sy * t_hl * cc
    if arc == _ARC_CODES["bullseye"]:
        # The closed strip [-w/2, w/2] x [hl, hl + length] meets the target (separating axes).
        # Within the length tolerance of the strip is on it, and on it is in the arc.
        bull_half = bull_half + EPSILON_MM
        start = hl[:, 0] - EPSILON_MM
        top = hl[:, 0] + bull_length + EPSILON_MM
        apart = (xs.min(axis=1) > bull_half) | (xs.max(axis=1) < -bull_half)
        apart |= (ys.min(axis=1) > top) | (ys.max(axis=1) < start)
        strip_x = np.array([-bull_half, bull_half, bull_half, -bull_half])
        strip_y = np.stack([start, start, top, top], axis=-1)
        for ex, ey, half in ((cc, -sn, t_hw), (sn, cc, t_hl)):
            centre = (u * ex + v * ey)[:, 0]
            proj = strip_x * ex + strip_y * ey
            apart |= (proj.min(axis=1) > centre + half[:, 0]) | (
                proj.max(axis=1) < centre - half[:, 0]
            )
        return np.asarray(~apart, dtype=np.bool_)
    half_angle = np.radians(halves)[:, None]
    sin_half, cos_half = np.sin(half_angle), np.cos(half_angle)
    if arc >= _ARC_CODES["full-front"]:
        s1 = 1.0 if arc == _ARC_CODES["full-front"] else -1.0
        n1 = (0.0 * cos_half, s1 + 0.0 * sin_half)
        n2 = (0.0 * cos_half, 0.0 * sin_half)  # one line: the second test always holds
    else:
        s1 = 1.0 if arc in (_ARC_CODES["front"], _ARC_CODES["left"]) else -1.0
        s2 = 1.0 if arc in (_ARC_CODES["front"], _ARC_CODES["right"]) else -1.0
        n1 = (-s1 * cos_half, s1 * sin_half)
        n2 = (s2 * cos_half, s2 * sin_half)

    def outside(x: FloatArray, y: FloatArray) -> NDArray[np.bool_]:
        return np.asarray((np.abs(x) >= hw) | (np.abs(y) >= hl), dtype=np.bool_)

    # Signed distances from the arc lines, grown by the length tolerance: on a line is in.
    g1 = n1[0] * xs + n1[1] * ys + EPSILON_MM
    g2 = n2[0] * xs + n2[1] * ys + EPSILON_MM
    # A target corner in the wedge and outside the base.
    hit = ((g1 >= 0.0) & (g2 >= 0.0) & outside(xs, ys)).any(axis=1)
    # Where a target edge crosses an arc line, on the wedge's side of the other line.
    xn, yn = np.roll(xs, -1, axis=1), np.roll(ys, -1, axis=1)
    for g, other in ((g1, n2), (g2, n1)):
        gn = np.roll(g, -1, axis=1)
        crosses = ((g < 0.0) & (gn > 0.0)) | ((gn < 0.0) & (g > 0.0))
        t = g / np.where(crosses, g - gn, 1.0)
        x = xs + t * (xn - xs)
        y = ys + t * (yn - ys)
        on_side = other[0] * x + other[1] * y >= -EPSILON_MM
        hit |= (crosses & on_side & outside(x, y)).any(axis=1)
    return np.asarray(hit, dtype=np.bool_)
