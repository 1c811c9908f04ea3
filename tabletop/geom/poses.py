"""Poses: ``(x, y, heading)`` rows of float arrays, and the ship frame.

A pose is the centre of a base (mm) and its heading (degrees counter-clockwise from
+x). The *ship frame* has its origin at the base centre, +y forward (along the
heading) and +x to the ship's right; outlines of bases, guides and templates are given
in it.

Examples
--------
>>> import numpy as np
>>> to_world(np.array([[0.0, 20.0]]), np.array([100.0, 50.0, 90.0])).round(9).tolist()
[[100.0, 70.0]]
>>> (to_world(np.array([[10.0, 0.0]]), np.array([0.0, 0.0, 90.0])).round(9) + 0.0).tolist()
[[10.0, 0.0]]
"""

from __future__ import annotations

import math as _math
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = [
    "MAX_COORDINATE_MM",
    "Degrees",
    "FloatArray",
    "Millimetres",
    "as_poses",
    "compose",
    "normalize_heading",
    "to_local",
    "to_world",
]

#: Largest coordinate or length accepted anywhere, mm (the table is about a metre across).
MAX_COORDINATE_MM = 1.0e6

#: A length, mm.
Millimetres: TypeAlias = float
#: An angle, degrees counter-clockwise.
Degrees: TypeAlias = float
#: A float64 numpy array (poses, outlines, points): ``numpy.typing.NDArray[np.float64]``,
#: spelled out so that no command imports numpy.typing (which formats docstrings).
FloatArray: TypeAlias = np.ndarray[tuple[Any, ...], np.dtype[np.float64]]


def as_poses(poses: ArrayLike) -> FloatArray:
    """Return `poses` as a float array of shape ``(..., 3)``.

    Raises
    ------
    ValueError
        If the last axis is not of length 3.
    """
    array = np.asarray(poses, dtype=np.float64)
    if array.shape[-1:] != (3,):
        raise ValueError(f"poses must have a last axis of length 3, got shape {array.shape}")
    return array


def _frame(poses: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    theta = np.radians(poses[..., 2])
    forward = np.stack([np.cos(theta), np.sin(theta)], axis=-1)
    right = np.stack([np.sin(theta), -np.cos(theta)], axis=-1)
    return poses[..., :2], forward, right


def to_world(points: ArrayLike, poses: ArrayLike) -> FloatArray:
    """Map ship-frame points ``(k, 2)`` through poses ``(..., 3)`` to world ``(..., k, 2)``."""
    local = np.asarray(points, dtype=np.float64)
    pose = as_poses(poses)
    if pose.ndim == 1:
        # One pose: a 2 x 2 rotation, the common case of the object API, kept cheap.
        theta = _math.radians(pose[2])
        c, s = _math.cos(theta), _math.sin(theta)
        rotation = np.array([[s, -c], [c, s]])
        return np.asarray(local @ rotation + pose[:2], dtype=np.float64)
    origin, forward, right = _frame(pose)
    return (
        origin[..., None, :]
        + local[..., 0, None] * right[..., None, :]
        + local[..., 1, None] * forward[..., None, :]
    )


def to_local(points: ArrayLike, poses: ArrayLike) -> FloatArray:
    """Map world points ``(k, 2)`` into the ship frame of each pose: ``(..., k, 2)``."""
    world = np.asarray(points, dtype=np.float64)
    origin, forward, right = _frame(as_poses(poses))
    offset = world - origin[..., None, :]
    return np.stack(
        [
            np.sum(offset * right[..., None, :], axis=-1),
            np.sum(offset * forward[..., None, :], axis=-1),
        ],
        axis=-1,
    )


def compose(poses: ArrayLike, local_moves: ArrayLike) -> FloatArray:
    """Apply ship-frame moves ``(dx, dy, dheading)`` to poses; both broadcast.

    The start heading splits exactly into whole degrees, whose sine and cosine come
    from a table (exact at multiples of 90°, so those turn moves exactly), and a rest
    of at most half a degree, turned by short series. Rows go through in cache-sized
    blocks, every shape by the same arithmetic, so a single pose and a row of many
    agree bit for bit.

    Examples
    --------
    >>> compose([0.0, 0.0, 90.0], [0.0, 100.0, -45.0]).tolist()
    [0.0, 100.0, 45.0]
    >>> compose([[10.0, 10.0, 0.0]], [5.0, 0.0, 90.0]).tolist()
    [[10.0, 5.0, 90.0]]
    """
    start = as_poses(poses)
    move = as_poses(local_moves)
    shape = np.broadcast_shapes(start.shape, move.shape)
    rows = np.ascontiguousarray(np.broadcast_to(start, shape).reshape(-1, 3))
    if move.ndim == 1:
        steps: FloatArray = move
    else:
        steps = np.ascontiguousarray(np.broadcast_to(move, shape).reshape(-1, 3))
    out = np.empty_like(rows)
    for lo in range(0, len(rows), _BLOCK):
        hi = lo + _BLOCK
        _compose_block(rows[lo:hi], steps if steps.ndim == 1 else steps[lo:hi], out[lo:hi])
    return out.reshape(shape)


#: Rows per block of :func:`compose`: the temporaries stay in the second-level cache.
_BLOCK = 8192
_RADIANS = _math.pi / 180.0
#: Headings up to this many degrees split exactly into whole degrees and a rest.
_REDUCIBLE = 1.0e15


def _degree_tables() -> tuple[FloatArray, FloatArray]:
    """Sine and cosine of each whole degree 0-359, exact at multiples of 90°."""
    sine = np.array([_math.sin(_math.radians(k)) for k in range(360)])
    cosine = np.array([_math.cos(_math.radians(k)) for k in range(360)])
    sine[[0, 90, 180, 270]] = [0.0, 1.0, 0.0, -1.0]
    cosine[[0, 90, 180, 270]] = [1.0, 0.0, -1.0, 0.0]
    return sine, cosine


_SIN_DEGREE, _COS_DEGREE = _degree_tables()


def _compose_block(start: FloatArray, move: FloatArray, out: FloatArray) -> None:
    """Move rows ``start (n, 3)`` by ``move`` (``(3,)`` or ``(n, 3)``) into ``out``.

    A heading of k whole degrees plus r: the move turned by k degrees is read from a
    table (for one move, made once per block), then turned by r with short series of
    sine and cosine (|r| <= 0.5°: the first omitted terms are below 1e-18).
    """
    heading = start[:, 2]
    dx, dy, dh = move[..., 0], move[..., 1], move[..., 2]
    whole = np.rint(heading)
    wild = ~(np.abs(heading) <= _REDUCIBLE)
    if wild.any():  # NaN, infinities and headings too large to split: numpy's own
        whole[wild] = 0.0
    r = (heading - whole) * _RADIANS
    r2 = r * r
    sr = r2 * (1.0 / 120.0) - 1.0 / 6.0
    sr *= r2
    sr *= r
    sr += r
    cr = r2 * (-1.0 / 720.0) + 1.0 / 24.0
    cr *= r2
    cr -= 0.5
    cr *= r2
    cr += 1.0
    degree = whole.astype(np.intp)
    s = np.take(_SIN_DEGREE, degree, mode="wrap")
    c = np.take(_COS_DEGREE, degree, mode="wrap")
    if move.ndim == 1:
        # The move turned by every whole degree: x along (sin, cos), y along (-cos, sin).
        along = np.take(dx * _SIN_DEGREE + dy * _COS_DEGREE, degree, mode="wrap")
        across = np.take(dx * _COS_DEGREE - dy * _SIN_DEGREE, degree, mode="wrap")
    else:
        along = dx * s + dy * c
        across = dx * c - dy * s
    if wild.any():
        t = np.radians(heading[wild])
        sw, cw = np.sin(t), np.cos(t)
        dxw = dx if move.ndim == 1 else dx[wild]
        dyw = dy if move.ndim == 1 else dy[wild]
        along[wild] = dxw * sw + dyw * cw
        across[wild] = dxw * cw - dyw * sw
        sr[wild], cr[wild] = 0.0, 1.0
    out[:, 0] = start[:, 0] + (cr * along + sr * across)
    out[:, 1] = start[:, 1] + (sr * along - cr * across)
    out[:, 2] = _fold_heading(heading + dh)


def _fold_heading(total: FloatArray) -> FloatArray:
    """``np.mod(total, 360)`` with a result of 360.0 read as 0.0, bit for bit.

    Within (−360, 720) the remainder is one exact subtraction or one rounded addition,
    as ``np.mod`` computes it (``-0.0`` becomes ``0.0`` as there); other values and NaN
    take ``np.mod`` itself.
    """
    folded = total - (total >= 360.0) * 360.0
    folded += (total < 0.0) * 360.0
    usual = (total > -360.0) & (total < 720.0)
    if not usual.all():
        folded = np.where(usual, folded, np.mod(total, 360.0))
    folded[folded >= 360.0] = 0.0
    return folded


def normalize_heading(heading: float) -> float:
    """Return a heading in degrees in ``[0, 360)``.

    ``-1e-300 % 360`` is 360.0 in floating point; that case is 0.

    Examples
    --------
    >>> normalize_heading(-90.0), normalize_heading(720.0), normalize_heading(-1e-300)
    (270.0, 0.0, 0.0)
    """
    value = float(heading) % 360.0
    return 0.0 if value >= 360.0 else value
