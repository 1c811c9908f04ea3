"""Batch final poses: one maneuver from N start poses, without a scene.

:func:`final_poses` answers what :func:`tabletop.maneuvers.moves.final_pose` answers: the pose a
complete maneuver ends at (nothing to bump, no obstacles, a roll at its centre position,
an Armada course on the side :func:`tabletop.maneuvers.armada.choose_side` picks). The maneuver's
ship-frame move is worked out once (:func:`tabletop.maneuvers.moves.local_move`); only applying it
to every start pose is batched. Like :mod:`tabletop.geom.batch`, that runs in a compiled
kernel unless ``TABLETOP_NO_NUMBA=1`` selects numpy (:func:`tabletop.geom.poses.compose`).

Examples
--------
>>> import numpy as np
>>> starts = np.array([[300.0, 40.0, 90.0], [0.0, 0.0, 0.0]])
>>> final_poses(starts, "small", "straight 3").round(6).tolist()
[[300.0, 200.0, 90.0], [160.0, 0.0, 0.0]]
>>> final_poses(starts, "small", "koiogran 1").round(6).tolist()
[[300.0, 120.0, 270.0], [80.0, 0.0, 180.0]]
>>> final_poses(np.empty((0, 3)), "small", "stationary").shape
(0, 3)
"""

from __future__ import annotations

from numpy.typing import ArrayLike

from tabletop.geom.batch import RulesetLike, pose_rows
from tabletop.geom.poses import FloatArray
from tabletop.maneuvers.moves import final_pose

__all__ = ["final_poses"]


def final_poses(
    poses: ArrayLike, base: str, maneuver: str, *, ruleset: RulesetLike = "xwing2"
) -> FloatArray:
    """Return where one complete maneuver takes each start pose, always as rows ``(N, 3)``.

    :func:`tabletop.maneuvers.moves.final_pose` with the poses as rows: the same contract, the
    same backends, a single pose answered as one row.

    Parameters
    ----------
    poses : array_like of shape (N, 3)
        Start poses ``x, y, heading`` (mm, degrees counter-clockwise from +x).
    base : str
        The ships' base name.
    maneuver : str
        Maneuver words of ``cli.md``: X-Wing ``straight 2``, ``bank 1 left``,
        ``turn 3 right``, ``koiogran 4``, ``segnor 2 left``, ``tallon 1 right``,
        ``reverse straight 1``, ``reverse bank 1 left``, ``stationary``,
        ``roll left [forward|centre|back]`` (default: centre), ``boost straight``,
        ``boost bank left``; Armada ``speed 3 yaw 0 -1 1 [side left|right]``.
    ruleset : str or Ruleset, default "xwing2"
        The edition.

    Returns
    -------
    ndarray of shape (N, 3)
        Final poses, headings in ``[0, 360)``.

    Raises
    ------
    InvalidInputError
        For unreadable words, a maneuver the base cannot do, an unknown base or
        ruleset, or poses of the wrong shape.

    Examples
    --------
    >>> final_poses([0.0, 0.0, 90.0], "small", "bank 1 right").round(3).tolist()
    [[37.574, 90.711, 45.0]]
    >>> final_poses([0.0, 0.0, 90.0], "small", "bank 4 right")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tabletop.geom.errors.InvalidManeuverError: maneuver 'bank 4 right': cannot read maneuver 'bank 4 right': the speed of bank 4 is out of range (1 to 3); ...
    """
    return final_pose(pose_rows(poses), base, maneuver, ruleset=ruleset)
