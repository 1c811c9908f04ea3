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

    Examples
    --------
    >>> compose([0.0, 0.0, 90.0], [0.0, 100.0, -45.0]).round(9).tolist()
    [0.0, 100.0, 45.0]
    """
    start = as_poses(poses)
    move = as_poses(local_moves)
    origin, forward, right = _frame(start)
    at = origin + move[..., 0, None] * right + move[..., 1, None] * forward
    heading = np.mod(start[..., 2] + move[..., 2], 360.0)
    heading = np.where(heading >= 360.0, 0.0, heading)
    return np.concatenate([at, heading[..., None]], axis=-1)


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
