"""The frames of the Tabletop Simulator mods: which mat, and TTS poses to scene poses.

TTS is Unity's frame seen from above: x to the right, z away from the Red seat, rotY
turning clockwise (fact ``tts_rotation_clockwise``). The scene frame has its origin at
player 1's left corner, x along player 1's edge, angles counter-clockwise. Every constant
comes from :mod:`tabletop.app.clients.facts`.

Examples
--------
>>> table = Table("m1", "Red-Blue", -20.5142, 0.0, 914.4, 914.4, 0.03637)
>>> x, y = table.to_scene(-20.5142, 0.0)
>>> round(x, 6), round(y, 6)
(457.2, 457.2)
>>> ship_heading(0.0), ship_heading(90.0)
(90.0, 0.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tabletop.app.clients.facts import fact_value

__all__ = [
    "ON_TABLE_MARGIN_MM",
    "Table",
    "face_down_mirror",
    "linear_to_pose",
    "ship_heading",
    "yaw_matrix",
]

#: How far beyond a mat's edge a piece still counts as on it (a ship that fled), mm.
ON_TABLE_MARGIN_MM = 100.0


@dataclass(frozen=True)
class Table:
    """A play area in the TTS world: its mat, centre, size and the mod's unit.

    Attributes
    ----------
    source_id, name : str
        The mat object's GUID and nickname (a layout's default mat has no GUID: ``""``).
    centre_x, centre_z : float
        The centre in TTS units.
    width_mm, height_mm : float
        The play area (along x, along z).
    units_per_mm : float
        TTS units per mm in this mod.
    mat_id : str
        The mod's own name of the mat (``__XW_MatID``: Red-Blue, Purple-Orange), if known.
    """

    source_id: str
    name: str
    centre_x: float
    centre_z: float
    width_mm: float
    height_mm: float
    units_per_mm: float
    mat_id: str = ""

    def to_scene(self, x: float, z: float) -> tuple[float, float]:
        """Return the scene point (mm) of a TTS point (player 1's edge is the -z edge)."""
        return (
            (x - self.centre_x) / self.units_per_mm + self.width_mm / 2,
            (z - self.centre_z) / self.units_per_mm + self.height_mm / 2,
        )

    def holds(self, x: float, z: float) -> bool:
        """Tell whether a TTS point lies on this mat (or within the fled-ship margin)."""
        sx, sy = self.to_scene(x, z)
        margin = ON_TABLE_MARGIN_MM
        return -margin <= sx <= self.width_mm + margin and -margin <= sy <= self.height_mm + margin

    def to_json(self) -> dict[str, str]:
        """Return the report's ``table`` object."""
        return {"source_id": self.source_id, "name": self.name}


def _wrap(angle: float) -> float:
    wrapped = angle % 360.0
    return 0.0 if wrapped >= 360.0 or abs(wrapped) < 1e-12 else wrapped


def ship_heading(rot_y: float) -> float:
    """Return a ship's scene heading from its TTS rotY (it faces +z at rotY = 0).

    Examples
    --------
    >>> ship_heading(180.0), ship_heading(270.0), ship_heading(-45.0)
    (270.0, 180.0, 135.0)
    """
    assert fact_value("tts_xwing_ship_front") == 0.0
    return _wrap(90.0 - rot_y)


def yaw_matrix(rot_y: float) -> np.ndarray:
    """Return the 2x2 map of a TTS yaw on scene (x, z) vectors: clockwise by rotY."""
    r = math.radians(-rot_y)
    c, s = math.cos(r), math.sin(r)
    return np.array([[c, -s], [s, c]])


def _near_180(angle: float) -> bool:
    folded = (angle + 180.0) % 360.0 - 180.0  # (-180, 180]
    return abs(folded) > 90.0


def face_down_mirror(rot_x: float, rot_z: float) -> np.ndarray:
    """Return the 2x2 map of a TTS tilt on the footprint: a mirror when face down.

    Unity applies z, then x, then y: rotZ 180 maps (x, z) to (-x, z); rotX 180 maps it to
    (x, -z); both together turn the footprint half way round.

    Examples
    --------
    >>> face_down_mirror(0.0, 180.0).tolist()
    [[-1.0, 0.0], [0.0, 1.0]]
    >>> face_down_mirror(180.0, 180.0).tolist()
    [[-1.0, 0.0], [0.0, -1.0]]
    """
    sx = -1.0 if _near_180(rot_z) else 1.0
    sz = -1.0 if _near_180(rot_x) else 1.0
    return np.array([[sx, 0.0], [0.0, sz]])


def linear_to_pose(linear: np.ndarray) -> tuple[float, bool]:
    """Split a token-to-scene 2x2 map (a rotation, maybe mirrored) into (angle, flipped).

    A flipped token is mirrored in its own x before it turns (``scene-format.md``).

    Examples
    --------
    >>> linear_to_pose(np.array([[0.0, -1.0], [1.0, 0.0]]))
    (90.0, False)
    >>> linear_to_pose(np.array([[-1.0, 0.0], [0.0, 1.0]]))
    (0.0, True)
    """
    flipped = bool(np.linalg.det(linear) < 0)
    turned = linear @ np.diag([-1.0, 1.0]) if flipped else linear
    angle = math.degrees(math.atan2(turned[1, 0], turned[0, 0]))
    return round(_wrap(angle), 9) % 360.0, flipped
