"""What a TTS object becomes: a ship with its base, an obstacle token, or nothing.

X-Wing obstacles are known by their collider mesh only (the outline-matching table
``data/tts-xwing-outlines.json``, made by ``data/build_tts_outlines.py``): the mod's
nicknames number the obstacles otherwise than the catalog. Armada obstacles are known by
their collider URL (the mod's own lookup). Everything else
is returned with the reason it is skipped.

Examples
--------
>>> ARMADA_COLLIDERS["http://paste.ee/r/Hm8Hf"]
'station'
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon

from tabletop.app.clients.facts import fact_value
from tabletop.app.clients.model import ClientFileError, Imported
from tabletop.app.clients.tts_armada import armada_base, armada_hull, base_centre_offset
from tabletop.app.clients.tts_frames import (
    Table,
    face_down_mirror,
    linear_to_pose,
    ship_heading,
    yaw_matrix,
)
from tabletop.app.clients.tts_objects import TtsObject
from tabletop.geom.hulls import hull_base
from tabletop.geom.rulesets import get_ruleset
from tabletop.obstacles.catalog import catalog

__all__ = ["ARMADA_COLLIDERS", "MATCH_LIMIT_MM", "Piece", "identify", "outline_table"]

#: The Armada mod's collider URL of each catalog token (``asteroid.ttslua``).
ARMADA_COLLIDERS: dict[str, str] = {
    "http://paste.ee/r/Ul5Zt": "asteroid-1",
    "http://paste.ee/r/sgn4L": "asteroid-4",
    "http://paste.ee/r/t10DL": "asteroid-5",
    "http://paste.ee/r/Fk1So": "debris-2",
    "http://paste.ee/r/FJVoR": "debris-3",
    "http://paste.ee/r/Hm8Hf": "station",
}
#: Armada mod obstacles the catalog has no token for (same source), by collider URL.
ARMADA_UNMATCHED: dict[str, str] = {
    "http://paste.ee/r/CGICy": "Gas Cloud 1",
    "http://paste.ee/r/N9UN7": "Gas Cloud 2",
    "http://paste.ee/r/DpEzj": "Gravity Rift",
    "http://paste.ee/r/GJm0K": "Exogorth 1",
    "http://paste.ee/r/I3IZm": "Exogorth 2",
    "http://paste.ee/r/HRGiE": "Purrgil 1",
    "http://paste.ee/r/4QT4q": "Purrgil 2",
}
#: The largest outline residual accepted as a match, mm: the residual is the Hausdorff
#: distance between the object's collider footprint, at the scale the save gives it, and
#: the catalog outline; beyond it the obstacle is skipped, never guessed.
MATCH_LIMIT_MM = 5.0

_DATA = Path(__file__).parent / "data"
_SIZE = re.compile(r'"Size"\s*:\s*"(small|medium|large|huge)"', re.IGNORECASE)
#: The mod's base meshes and colliders: ``…/assets/models/bases/<size>/…``.
_BASE_URL = re.compile(r"/bases/(small|medium|large|huge)/", re.IGNORECASE)
#: An obstacle model mesh, named as its collider is (``Debris4-model.obj``).
_MODEL_MESH = re.compile(r"^(.*)-model\.obj$")
_BASE_TAGS = (("LGS", "large"), ("MGS", "medium"))


@functools.cache
def outline_table() -> dict[str, dict[str, Any]]:
    """Return the outline-matching table: collider file name -> token and pose offset."""
    text = (_DATA / "tts-xwing-outlines.json").read_text("utf-8")
    meshes: dict[str, dict[str, Any]] = json.loads(text)["meshes"]
    return meshes


@dataclass(frozen=True, eq=False)
class Piece:
    """A ship or an obstacle found in a save, before it is placed on the chosen table.

    Attributes
    ----------
    obj : TtsObject
    kind : {"ship", "obstacle"}
    token : str or None
        The catalog token (obstacles).
    base : str or None
        The base size (ships).
    mirrored : bool
        Whether the token is the mirror image of the mesh (outline matching).
    offset_deg : float
        The token's angle in the mesh frame.
    centroid : tuple of float
        The token's reference point in the mesh frame, mesh units.
    residual_mm : float or None
        The outline match's residual, when matched by outline.
    hull : str or None
        An Armada ship's hull, where its model names one.
    base_offset : tuple of float
        The base centre's offset from the object's position, TTS (x, z) units (an
        Armada huge ship's model stands off its base centre).
    """

    obj: TtsObject
    kind: str
    token: str | None = None
    base: str | None = None
    mirrored: bool = False
    offset_deg: float = 0.0
    centroid: tuple[float, float] = (0.0, 0.0)
    residual_mm: float | None = None
    hull: str | None = None
    base_offset: tuple[float, float] = (0.0, 0.0)

    @property
    def table_point(self) -> tuple[float, float]:
        """Return the TTS (x, z) that must lie on a table: a ship's base centre."""
        return self.obj.x + self.base_offset[0], self.obj.z + self.base_offset[1]

    def place(self, ident: str, table: Table) -> Imported:
        """Return the imported entry of this piece on `table`."""
        obj = self.obj
        x_mm, y_mm = table.to_scene(obj.x, obj.z)
        if self.kind == "ship":
            assert self.base is not None
            dx, dz = self.base_offset
            x_mm, y_mm = table.to_scene(obj.x + dx, obj.z + dz)
            player = 1 if y_mm <= table.height_mm / 2 else 2
            return Imported(
                ident,
                obj.guid,
                "ship",
                x_mm,
                y_mm,
                ship_heading(obj.rot_y),
                self.base,
                player=player,
                hull=self.hull,
            )
        tilt_yaw = yaw_matrix(obj.rot_y) @ face_down_mirror(obj.rot_x, obj.rot_z)
        scale = np.diag([obj.scale_x, obj.scale_z]) / table.units_per_mm
        dx, dy = tilt_yaw @ scale @ np.asarray(self.centroid)
        mirror = np.diag([-1.0, 1.0]) if self.mirrored else np.eye(2)
        r = math.radians(-self.offset_deg)
        unturn = np.array([[math.cos(r), -math.sin(r)], [math.sin(r), math.cos(r)]])
        angle, flipped = linear_to_pose(tilt_yaw @ mirror @ unturn)
        assert self.token is not None
        return Imported(
            ident,
            obj.guid,
            "obstacle",
            x_mm + float(dx),
            y_mm + float(dy),
            angle,
            self.token,
            flipped=flipped,
        )


def _file_name(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[-1].split("?")[0]


def _base_from_models(obj: TtsObject) -> tuple[str | None, str]:
    """Return the base size the mod's base mesh or collider names, and that URL's file."""
    for url in (obj.collider, obj.mesh, *obj.child_urls):
        found = _BASE_URL.search(url)
        if found is not None:
            return found.group(1).lower(), url.rsplit("/", 2)[-2] + "/" + _file_name(url)
    return None, ""


def _ship(obj: TtsObject, client: str) -> tuple[Piece | None, str, list[str]]:
    """Return a ship on the base its mesh, collider or ``Data.Size`` gives it.

    A size is never assumed: a ship without one is skipped with that reason; a base
    model and a ``Data.Size`` that disagree are refused, naming both.
    """
    used = [
        "tts_xwing1_ship_figurine" if client == "tts-xwing1" else "tts_xwing_ship_marker",
        "tts_xwing_ship_front",
        "tts_rotation_clockwise",
    ]
    if "Ship" in obj.tags:
        used.append("tts_xwing_ship_tag")
    modelled, model_file = _base_from_models(obj)
    found = _SIZE.search(obj.state)
    stated = found.group(1).lower() if found else None
    if modelled is not None and stated is not None and modelled != stated:
        raise ClientFileError(
            f"the ship's base model ({model_file}) is {modelled}, but its Data.Size says "
            f"{stated}: expected the two to agree",
            file=obj.file,
            entry=f"object {obj.guid!r}",
            key="LuaScriptState.Data.Size",
        )
    base = modelled or stated
    if modelled is not None:
        used.append("tts_xwing_ship_base_model")
    elif stated is not None:
        used.append("tts_xwing_ship_size")
    else:
        base = next((size for tag, size in _BASE_TAGS if tag in obj.nickname), None)
        used.append("tts_xwing_ship_name_tag")
    if base is None:
        return (
            None,
            "a ship whose size is nowhere in the save: no base mesh or collider of the mod "
            "(bases/<size>/...), no Data.Size and no LGS or MGS in its name",
            [],
        )
    ruleset = get_ruleset("xwing1" if client == "tts-xwing1" else "xwing2")
    if base not in ruleset.base_sizes:
        return None, f"a ship on a {base} base, which {ruleset.name} has not", []
    return Piece(obj, "ship", base=base), "", used


def _residual_mm(obj: TtsObject, entry: dict[str, Any], units_per_mm: float) -> float:
    """Return the Hausdorff distance between the object's footprint and its token, mm."""
    footprint = np.asarray(entry["outline"], dtype=np.float64)
    footprint = footprint * np.array([obj.scale_x, obj.scale_z]) / units_per_mm
    token = catalog(get_ruleset("xwing2"))[entry["token"]].outline
    r = math.radians(-float(entry["angle_deg"]))
    unturn = np.array([[math.cos(r), -math.sin(r)], [math.sin(r), math.cos(r)]])
    in_mesh = token @ unturn.T
    if entry["mirrored"]:
        in_mesh = in_mesh * np.array([-1.0, 1.0])
    return float(shapely.hausdorff_distance(Polygon(footprint), Polygon(in_mesh)))


def outline_key(obj: TtsObject) -> tuple[str, str] | None:
    """Return the outline-table mesh an object's collider or mesh is, and which it was.

    The collider (``Debris4-col.obj``) is looked up first, then the model mesh, named as
    its collider is (``Debris4-model.obj`` is ``Debris4-col.obj``).

    Examples
    --------
    >>> rock = TtsObject.parse({"CustomMesh": {"MeshURL": "x/Debris4-model.obj"}}, "s", 0)
    >>> outline_key(rock)
    ('Debris4-col.obj', 'mesh')
    """
    if obj.collider and _file_name(obj.collider) in outline_table():
        return _file_name(obj.collider), "collider"
    if obj.mesh:
        model = _MODEL_MESH.match(_file_name(obj.mesh))
        if model is not None and f"{model.group(1)}-col.obj" in outline_table():
            return f"{model.group(1)}-col.obj", "mesh"
    return None


def _xwing_obstacle(
    obj: TtsObject, kind: str, units_per_mm: float
) -> tuple[Piece | None, str, list[str]]:
    used = ["tts_rotation_clockwise", "tts_flip_mirrors"]
    key = outline_key(obj)
    entry = None if key is None else outline_table()[key[0]]
    if entry is not None and key is not None:
        if key[1] == "mesh":
            used.append("tts_xwing_obstacle_model_mesh")
        residual = _residual_mm(obj, entry, units_per_mm)
        if residual > MATCH_LIMIT_MM:
            reason = (
                f"an obstacle whose {key[1]} ({key[0]}) at scale "
                f"{obj.scale_x:g} is {residual:.2f} mm from {entry['token']}, its best token; "
                f"a match must be within {MATCH_LIMIT_MM:g} mm"
            )
            return None, reason, []
        piece = Piece(
            obj,
            "obstacle",
            token=entry["token"],
            mirrored=bool(entry["mirrored"]),
            offset_deg=float(entry["angle_deg"]),
            centroid=(float(entry["centroid"][0]), float(entry["centroid"][1])),
            residual_mm=round(residual, 2),
        )
        return piece, "", [*used, "tts_xwing_outline_matching"]
    collider = _file_name(obj.collider) if obj.collider else "none"
    reason = (
        f"an obstacle ({kind}) whose collider ({collider}) is not in the outline table: not "
        "identified (names are not used: the mod numbers its obstacles otherwise than the "
        "catalog)"
    )
    return None, reason, []


def is_first_edition_obstacle(obj: TtsObject) -> bool:
    """Tell whether the 1st-edition mod takes `obj` for an obstacle.

    Its movement code does so by name: 'Asteroid' or 'Debris' in it (case as written, so
    a bomb's 'Chute debris' is not one).

    Examples
    --------
    >>> from tabletop.app.clients.tts_objects import TtsObject
    >>> rock = TtsObject.parse({"Name": "Custom_Model", "Nickname": "TFA Asteroid 3"}, "s", 0)
    >>> chute = TtsObject.parse({"Name": "Custom_Model", "Nickname": "Rigged Cargo Chute debris"}, "s", 0)
    >>> is_first_edition_obstacle(rock), is_first_edition_obstacle(chute)
    (True, False)
    """
    return "Asteroid" in obj.nickname or "Debris" in obj.nickname


def _first_edition_obstacle(obj: TtsObject) -> tuple[Piece | None, str, list[str]]:
    """Match a 1st-edition obstacle by its collider, as a 2.0 mod's one would be."""
    piece, reason, used = _xwing_obstacle(obj, "1st edition", fact_value("tts_xwing1_units_per_mm"))
    if piece is not None:
        return piece, "", [*used, "tts_xwing1_obstacle_names", "tts_xwing1_obstacle_colliders"]
    if "not in the outline table" in reason:
        collider = _file_name(obj.collider) if obj.collider else "none"
        reason = (
            f"a 1st-edition obstacle whose collider ({collider}) is not in the outline table: "
            "not identified (the 1st-edition mod's obstacle meshes were not available to "
            "match; names are not used)"
        )
    return None, reason, []


_ARMADA_SHIP_FACTS = [
    "tts_armada_ship_colliders",
    "tts_armada_ship_front",
    "tts_rotation_clockwise",
    "tts_armada_mm_per_unit",
]


def _armada_ship(obj: TtsObject, base: str) -> tuple[Piece | None, str, list[str]]:
    """Return an Armada mod ship or squadron, on the base its collider gives it."""
    if not (
        math.isclose(obj.scale_x, 1.0, abs_tol=0.01)
        and math.isclose(obj.scale_z, 1.0, abs_tol=0.01)
    ):
        reason = (
            f"an Armada {base} base at scale {obj.scale_x:g} x {obj.scale_z:g}: the mod's "
            "bases are the ruleset's size at scale 1 only"
        )
        return None, reason, []
    used = list(_ARMADA_SHIP_FACTS)
    hull = None
    if base != "squadron":
        used.append("tts_armada_ship_hulls")
        hull = armada_hull(obj.mesh)
        if hull is not None and hull_base(hull) != base:
            hull = None
    if base == "huge":
        used.append("tts_armada_huge_base_centre")
    piece = Piece(
        obj, "ship", base=base, hull=hull, base_offset=base_centre_offset(base, obj.rot_y)
    )
    return piece, "", used


def _armada(obj: TtsObject) -> tuple[Piece | None, str, list[str]]:
    base = armada_base(obj.collider)
    if base is not None:
        return _armada_ship(obj, base)
    token = ARMADA_COLLIDERS.get(obj.collider)
    if token is not None:
        return (
            Piece(obj, "obstacle", token=token),
            "",
            [
                "tts_armada_obstacle_colliders",
                "tts_armada_obstacle_frame",
                "tts_rotation_clockwise",
                "tts_flip_mirrors",
                "tts_armada_mm_per_unit",
            ],
        )
    if obj.collider in ARMADA_UNMATCHED:
        return (
            None,
            f"an Armada {ARMADA_UNMATCHED[obj.collider]}: the catalog has no such token",
            [],
        )
    return (
        None,
        "not an Armada ship, squadron or obstacle: its collider is none the mod names",
        [],
    )


def identify(obj: TtsObject, client: str) -> tuple[Piece | None, str, list[str]]:
    """Return what an object on the table becomes, or why it is skipped, and the facts used.

    Examples
    --------
    >>> from tabletop.app.clients.tts_objects import TtsObject
    >>> die = TtsObject.parse({"GUID": "d1", "Name": "Die_8"}, "s.json", 0)
    >>> identify(die, "tts-xwing2")[1]
    'a die: not a ship or an obstacle'
    """
    if client == "tts-armada":
        return _armada(obj)
    if obj.is_ship or (client == "tts-xwing1" and obj.name.startswith("Figurine")):
        return _ship(obj, client)
    if client == "tts-xwing1" and (is_first_edition_obstacle(obj) or outline_key(obj) is not None):
        return _first_edition_obstacle(obj)
    kind = obj.obstacle_kind
    if kind is not None or outline_key(obj) is not None:
        # Whatever its nickname, tags or script: the collider (or mesh) says which it is.
        piece, reason, used = _xwing_obstacle(
            obj, kind or "by its collider", fact_value("tts_xwing2_units_per_mm")
        )
        if kind is None and piece is not None:
            used.append("tts_xwing_obstacle_collider")
        return piece, reason, used
    if obj.name.startswith("Die_") or obj.name == "Custom_Dice":
        return None, "a die: not a ship or an obstacle", []
    if obj.name in ("Card", "CardCustom"):
        return None, "a card: not a ship or an obstacle", []
    return None, f"a {obj.name or 'nameless object'}: not a ship or an obstacle of the mod", []
