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
from typing import TypeAlias

import numpy as np
from numpy.typing import ArrayLike, NDArray

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
#: A float64 numpy array (poses, outlines, points).
FloatArray: TypeAlias = NDArray[np.float64]


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

    The start heading is reduced to ±45° about a multiple of 90° (exactly), so headings
    at multiples of 90° turn moves exactly; one sine of the reduced angle and its
    cosine ``sqrt(1 - sin²)`` (at least 0.7 there, so within an ulp) serve all four
    quadrants. Rows go through in cache-sized blocks, every shape by the same
    arithmetic, so a single pose and a row of many agree bit for bit.

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
#: Headings up to this many degrees reduce exactly (90k stays an exact integer).
_REDUCIBLE = 1.0e15
#: Taylor coefficients of sine after x: on ±π/4 the first omitted term is below 1e-16.
_SINE_TERMS = tuple((-1.0) ** k / _math.factorial(2 * k + 1) for k in range(7, 0, -1))
#: The sine and cosine of 90k + r degrees, by k: signs of the reduced sine and cosine.
_SIN_SIGN = np.array([1.0, 1.0, -1.0, -1.0])
_COS_SIGN = np.array([1.0, -1.0, -1.0, 1.0])


def _sine(r: FloatArray) -> FloatArray:
    """Sine of radians on ±π/4 (within an ulp or two of ``np.sin``), by Horner in place."""
    r2 = r * r
    value = np.full_like(r, _SINE_TERMS[0])
    for term in _SINE_TERMS[1:]:
        value *= r2
        value += term
    value *= r2
    value *= r
    value += r
    return value


def _compose_block(start: FloatArray, move: FloatArray, out: FloatArray) -> None:
    heading = start[:, 2]
    dx, dy, dh = move[..., 0], move[..., 1], move[..., 2]
    quarter = np.rint(heading / 90.0)
    s = _sine((heading - 90.0 * quarter) * _RADIANS)
    c = np.sqrt(1.0 - s * s)
    turns = quarter - 4.0 * np.floor(quarter / 4.0)
    # Beyond 1e15 degrees the reduction is no longer exact (and NaN has no quadrant):
    # those rows take numpy's sine and cosine of the heading as it stands.
    wild = ~(np.abs(heading) <= _REDUCIBLE)
    if wild.any():
        turns[wild] = 0.0
    quadrant = turns.astype(np.intp)
    odd = (quadrant & 1).astype(np.bool_)
    sine = np.where(odd, c, s) * _SIN_SIGN[quadrant]
    cosine = np.where(odd, s, c) * _COS_SIGN[quadrant]
    if wild.any():
        sine[wild] = np.sin(np.radians(heading[wild]))
        cosine[wild] = np.cos(np.radians(heading[wild]))
    out[:, 0] = start[:, 0] + dx * sine + dy * cosine
    out[:, 1] = start[:, 1] - dx * cosine + dy * sine
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
