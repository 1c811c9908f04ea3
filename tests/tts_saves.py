"""Test helper: write Tabletop Simulator saves for scenes, from the format facts alone.

Each function turns a scene pose (mm, degrees, the scene frame) into the TTS object the
X-Wing 2.0 mod would save: 0.03637 units per mm, the Red-Blue mat centred at x = -20.5142,
player 1 at -z, rotY clockwise from above, a ship facing +z at rotY = 0, a face-down
obstacle with rotZ = 180, and an outline-matched obstacle posed by the outline table's
angle and centroid. Numbers are rounded to 32-bit floats, as TTS holds them.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

UNITS_PER_MM = 0.03637
RED_BLUE_X = -20.5142
PURPLE_ORANGE_X = 20.5142
HALF_MM = 457.2
OUTLINES = json.loads(
    (
        Path(__file__).resolve().parent.parent / "tabletop/app/clients/data/tts-xwing-outlines.json"
    ).read_text("utf-8")
)["meshes"]
COLLIDER_URL = (
    "https://raw.githubusercontent.com/JohnnyCheese/TTS_X-Wing2.0/master/assets/models/obstacles/{}"
)


def f32(value: float) -> float:
    """Return `value` as TTS keeps it (a 32-bit float)."""
    return float(np.float32(value))


def tts_rotate(x: float, z: float, rot_y: float) -> tuple[float, float]:
    """Turn a TTS vector by rotY as the mods' vector library does (Vect.RotateRad)."""
    r = math.radians(rot_y)
    return math.cos(r) * x + math.sin(r) * z, -math.sin(r) * x + math.cos(r) * z


def transform(
    x_units: float, z_units: float, rot_y: float, rot_z: float = 0.0, scale: float = 1.0
) -> dict[str, float]:
    """Return a TTS ``Transform``."""
    return {
        "posX": f32(x_units), "posY": 1.0, "posZ": f32(z_units),
        "rotX": 0.0, "rotY": f32(rot_y % 360.0), "rotZ": rot_z,
        "scaleX": scale, "scaleY": scale, "scaleZ": scale,
    }  # fmt: skip


def world(
    x_mm: float, y_mm: float, mat_x: float = RED_BLUE_X, units_per_mm: float = UNITS_PER_MM
) -> tuple[float, float]:
    """Return the TTS point of a scene point on the mat centred at (mat_x, 0)."""
    return mat_x + (x_mm - HALF_MM) * units_per_mm, (y_mm - HALF_MM) * units_per_mm


def ship(
    guid: str, name: str, base: str, x_mm: float, y_mm: float, heading: float,
    mat_x: float = RED_BLUE_X,
) -> dict[str, Any]:  # fmt: skip
    """Return a ship figurine (its script marks it; its state holds its size)."""
    wx, wz = world(x_mm, y_mm, mat_x)
    return {
        "GUID": guid,
        "Name": "Figurine_Custom",
        "Nickname": name,
        "Transform": transform(wx, wz, 90.0 - heading),
        "LuaScript": "-- ship\n__XW_Ship = true\n",
        "LuaScriptState": json.dumps({"Data": {"Size": base}}),
    }


def outlined_obstacle(
    guid: str, name: str, mesh: str, x_mm: float, y_mm: float, angle: float, flipped: bool,
    mat_x: float = RED_BLUE_X, units_per_mm: float = UNITS_PER_MM,
) -> dict[str, Any]:  # fmt: skip
    """Return an obstacle whose collider is `mesh`, placed so its token has this pose.

    At another mod's `units_per_mm` the mesh is scaled to keep the catalog's size; the
    2.0 mod's ``__XW_Obstacle`` script is written only at the 2.0 mod's ratio.
    """
    entry = OUTLINES[mesh]
    alpha, scale = entry["angle_deg"], entry["scale"] * units_per_mm / UNITS_PER_MM
    # The token is the mesh mirrored (``mirrored``) and turned by alpha: laid face down
    # (rotZ 180, x -> -x) when that makes the wanted side show.
    face_down = flipped != entry["mirrored"]
    rot_y = alpha - angle if flipped else -angle - alpha
    cx, cz = entry["centroid"]
    cx = -cx if face_down else cx
    dx, dz = tts_rotate(cx * scale, cz * scale, rot_y)
    wx, wz = world(x_mm, y_mm, mat_x, units_per_mm)
    return {
        "GUID": guid,
        "Name": "Custom_Model",
        "Nickname": name,
        "Transform": transform(wx - dx, wz - dz, rot_y, 180.0 if face_down else 0.0, scale),
        "CustomMesh": {"MeshURL": "", "ColliderURL": COLLIDER_URL.format(mesh)},
        "LuaScript": "__XW_Obstacle = 'gascloud'\n" if units_per_mm == UNITS_PER_MM else "",
    }


def named_obstacle(
    guid: str, name: str, x_mm: float, y_mm: float, angle: float, flipped: bool,
    kind: str = "asteroid",
) -> dict[str, Any]:  # fmt: skip
    """Return an obstacle known only by its nickname (no collider in the outline table)."""
    wx, wz = world(x_mm, y_mm)
    return {
        "GUID": guid,
        "Name": "Custom_Model",
        "Nickname": name,
        "Transform": transform(wx, wz, -angle, 180.0 if flipped else 0.0),
        "LuaScript": f"__XW_Obstacle = '{kind}'\n",
    }


def mat(
    guid: str, mat_id: str, mat_x: float, *, nickname: str = "", layout: str = "Standard",
    marked: bool = True, y: float = 1.0,
) -> dict[str, Any]:  # fmt: skip
    """Return a mat: the layout's script marks it (``__XW_Mat``), or only its nickname does."""
    script = f"__XW_Mat = true\n__XW_MatLayout = '{layout}'\n__XW_MatID = '{mat_id}'\n"
    placed = transform(mat_x, 0.0, 180.0)
    placed["posY"] = y
    return {"GUID": guid, "Name": "Custom_Model", "Nickname": nickname if marked else mat_id,
            "Transform": placed, "LuaScript": script if marked else ""}  # fmt: skip


def playmat_tile(guid: str) -> dict[str, Any]:
    """Return the mod's playmat image tile (changes a mat's picture; not a mat)."""
    return {"GUID": guid, "Name": "Custom_Tile", "Nickname": "Playmat [Standard 3x3]",
            "GMNotes": "playmattile", "Transform": transform(-20.0, 3.0, 180.0)}  # fmt: skip


def die(guid: str) -> dict[str, Any]:
    """Return a die lying on the table."""
    return {"GUID": guid, "Name": "Die_8", "Nickname": "", "Transform": transform(0.0, 0.0, 0.0)}


def bag(guid: str, name: str, held: list[dict[str, Any]]) -> dict[str, Any]:
    """Return a bag holding `held` (none of it on the table)."""
    return {"GUID": guid, "Name": "Bag", "Nickname": name,
            "Transform": transform(-50.0, 0.0, 0.0), "ContainedObjects": held}  # fmt: skip


def with_states(obj: dict[str, Any], others: list[dict[str, Any]]) -> dict[str, Any]:
    """Return `obj` as the shown state of a state stack holding `others`."""
    return {**obj, "States": {str(i + 2): other for i, other in enumerate(others)}}


def save(objects: list[dict[str, Any]], mode: str = "X-Wing 2.0") -> dict[str, Any]:
    """Return a TTS save holding `objects`."""
    return {"SaveName": "test", "GameMode": mode, "Table": "Table_Custom",
            "ObjectStates": objects}  # fmt: skip


def write(path: Path, document: dict[str, Any]) -> Path:
    """Write a save as TTS does (indented JSON)."""
    path.write_text(json.dumps(document, indent=2), "utf-8")
    return path


# --- The Armada mod: 1 unit = 1 inch, the 6'x3' table centred at the origin -------------
ARMADA_MM_PER_UNIT = 25.4
ARMADA_ASSETS = (
    "https://raw.githubusercontent.com/valadian/TabletopSimulatorIncludeDir/master/TTS_armada/"
    "assets/"
)
#: The huge base's centre lies this far ahead of the model's origin, inches.
ARMADA_HUGE_AHEAD_IN = (2.539 * 3 + 3.68 - 2.539) / 2


def armada_ship(
    guid: str,
    name: str,
    collider: str,
    model: str,
    at_mm: tuple[float, float],
    heading: float,
    scale: float = 1.0,
) -> dict[str, Any]:
    """An Armada mod ship or squadron whose base centre stands at `at_mm`, facing `heading`.

    `collider` is a base collider's file (``small.obj``) or a full URL; `model` the
    ``<faction>/<hull>`` folder of its mesh, or "" for none. The ship faces +z at rotY = 0.
    """
    rot_y = 90.0 - heading
    x, z = (at_mm[0] - 914.4) / ARMADA_MM_PER_UNIT, (at_mm[1] - 457.2) / ARMADA_MM_PER_UNIT
    if collider == "huge.obj":
        dx, dz = tts_rotate(0.0, ARMADA_HUGE_AHEAD_IN, rot_y)
        x, z = x - dx, z - dz
    url = collider if "/" in collider else f"{ARMADA_ASSETS}misc/bases/{collider}"
    mesh = f"{ARMADA_ASSETS}ships/{model}/mesh.obj" if model else ""
    return {
        "GUID": guid,
        "Name": "Custom_Model",
        "Nickname": name,
        "Transform": transform(x, z, rot_y, scale=scale),
        "CustomMesh": {"MeshURL": mesh, "ColliderURL": url},
    }
