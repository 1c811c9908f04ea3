"""Reading a TTS save's objects: their fields checked, named by GUID and key.

A TTS save (or saved-objects file) is one JSON document whose ``ObjectStates`` list holds
the objects on the table; a bag or deck holds others in ``ContainedObjects``, a state
stack its other states in ``States``, an attached object sits in ``ChildObjects``. None
of those held objects is on the table.

Examples
--------
>>> obj = TtsObject.parse({"GUID": "a1", "Name": "Die_6", "Transform": {"posX": 1.0,
...     "posZ": 2.0, "rotY": 30.0}}, "s.json", 0)
>>> obj.guid, obj.x, obj.z, obj.rot_y
('a1', 1.0, 2.0, 30.0)
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from tabletop.app.clients.model import ClientFileError
from tabletop.geom.errors import show
from tabletop.obstacles.sceneformat import MAX_OBJECTS

__all__ = ["MAX_TTS_OBJECTS", "PLACE_KEYS", "TTS_KEYS", "TtsObject", "parse_tts_json"]

#: Top-level keys of every TTS save (``SaveState``), by which one without objects is known.
TTS_KEYS = ("SaveName", "GameMode", "VersionNumber", "EpochTime", "TabStates", "LuaScriptState")
#: Most objects a save may hold on the table (``ObjectStates``), counted before any is
#: read: a scene holds at most as many objects.
MAX_TTS_OBJECTS = MAX_OBJECTS
#: The keys of a ``Transform`` that place a piece: a piece without one is refused.
PLACE_KEYS = ("posX", "posZ", "rotY")

_SHIP = re.compile(r"__XW_Ship\s*=\s*true")
_OBSTACLE = re.compile(r"__XW_Obstacle\s*=\s*['\"]([A-Za-z_-]+)['\"]")
_BBCODE = re.compile(r"\[/?[a-zA-Z]*\]|\[[0-9A-Fa-f]{6}\]|\[-\]")


def _constant(token: str) -> float:
    # TTS may write NaN and Infinity; they are read, then refused naming the object.
    return float(token)


_DECODER = json.JSONDecoder(parse_constant=_constant)


def parse_tts_json(data: bytes, name: str) -> dict[str, Any]:
    """Parse a TTS JSON document; return its top-level object.

    Raises
    ------
    ClientFileError
        For text that is not UTF-8 JSON, or a top level that is not an object with an
        ``ObjectStates`` list.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as problem:
        raise ClientFileError(f"not UTF-8 text (byte {problem.start})", file=name) from None
    try:
        document = _DECODER.decode(text)
    except ValueError as problem:
        raise ClientFileError(f"not valid JSON: {problem}", file=name) from None
    except RecursionError:
        raise ClientFileError("not valid JSON: nested too deeply", file=name) from None
    if not isinstance(document, dict):
        raise ClientFileError(
            f"expected a JSON object at the top level, got {type(document).__name__}", file=name
        )
    states = document.get("ObjectStates")
    if states is None and any(key in document for key in TTS_KEYS):
        said = ", ".join(
            f"{key} {document[key]!r}"
            for key in ("SaveName", "GameMode")
            if isinstance(document.get(key), str) and document[key]
        )
        raise ClientFileError(
            "a Tabletop Simulator file"
            + (f" ({said})" if said else "")
            + " with no objects: it has no ObjectStates, the list of what lies on the table",
            file=name,
            key="ObjectStates",
        )
    if not isinstance(states, list):
        raise ClientFileError(
            f"expected a list of objects, got {show(states)}", file=name, key="ObjectStates"
        )
    if not states:
        raise ClientFileError(
            "the file holds no objects; expected the objects of a TTS table",
            file=name,
            key="ObjectStates",
        )
    if len(states) > MAX_TTS_OBJECTS:
        raise ClientFileError(
            f"expected at most {MAX_TTS_OBJECTS} objects, got {len(states)} (a scene holds "
            f"at most {MAX_OBJECTS}); nothing was read",
            file=name,
            key="ObjectStates",
        )
    return document


def _text(raw: dict[str, Any], key: str, file: str, where: str) -> str:
    value = raw.get(key, "")
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ClientFileError(f"expected text, got {show(value)}", file=file, entry=where, key=key)
    return value


def _number(transform: dict[str, Any], key: str, default: float, file: str, where: str) -> float:
    value = transform.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ClientFileError(
            f"expected a number, got {show(value)}", file=file, entry=where, key=f"Transform.{key}"
        )
    number = float(value)
    if not math.isfinite(number):
        raise ClientFileError(
            f"expected a finite number, got {number}",
            file=file,
            entry=where,
            key=f"Transform.{key}",
        )
    return number


def _tags(raw: dict[str, Any], file: str, where: str) -> tuple[str, ...]:
    value = raw.get("Tags")
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(tag, str) for tag in value):
        raise ClientFileError(
            f"expected a list of texts, got {show(value)}", file=file, entry=where, key="Tags"
        )
    return tuple(value)


def _child_urls(raw: dict[str, Any]) -> tuple[str, ...]:
    """Return the mesh and collider URLs of the objects attached to an object."""
    children = raw.get("ChildObjects")
    urls: list[str] = []
    for child in children if isinstance(children, list) else ():
        mesh = child.get("CustomMesh") if isinstance(child, dict) else None
        if isinstance(mesh, dict):
            urls += [mesh[k] for k in ("MeshURL", "ColliderURL") if isinstance(mesh.get(k), str)]
    return tuple(url for url in urls if url)


def _held(raw: dict[str, Any], key: str, file: str, where: str) -> int:
    value = raw.get(key)
    if value is None:
        return 0
    if isinstance(value, list):
        return len(value)
    if isinstance(value, dict):
        return len(value)
    raise ClientFileError(
        f"expected a list or an object, got {show(value)}", file=file, entry=where, key=key
    )


@dataclass(frozen=True)
class TtsObject:
    """One object lying on the TTS table (not one held by another).

    Attributes
    ----------
    guid, name, nickname : str
        The object's GUID, its TTS type (``Figurine_Custom``, ``Custom_Model``, ``Bag``,
        ``Die_6`` ...) and its nickname (BBCode colour tags removed).
    x, y, z : float
        Position, TTS units (y is height).
    rot_x, rot_y, rot_z : float
        Rotation, degrees.
    scale_x, scale_z : float
        Scale along x and z.
    script : str
        Its Lua script, where the mods mark ships, obstacles and mats.
    state : str
        Its saved script state (``LuaScriptState``).
    gm_notes : str
        Its GM notes (the X-Wing 2.0 mod tags its playmat image tiles there).
    collider : str
        Its custom collider's URL, if any.
    mesh : str
        Its custom mesh's URL, if any.
    tags : tuple of str
        Its TTS tags (``Tags``; the X-Wing 2.0 mod tags its ships ``Ship``).
    child_urls : tuple of str
        The mesh and collider URLs of the objects attached to it (``ChildObjects``).
    file : str
        The file it was read from (for messages).
    contained, states, children : int
        How many objects it holds in ``ContainedObjects``, ``States``, ``ChildObjects``.
    unplaced : str or None
        The placing key it lacks (``Transform``, ``Transform.posX`` ...), if any: such an
        object is refused if it is a piece, not placed at the table's origin.
    """

    guid: str
    name: str
    nickname: str
    x: float
    y: float
    z: float
    rot_x: float
    rot_y: float
    rot_z: float
    scale_x: float
    scale_z: float
    script: str
    state: str
    gm_notes: str
    collider: str
    mesh: str
    contained: int
    states: int
    children: int
    tags: tuple[str, ...] = ()
    child_urls: tuple[str, ...] = ()
    file: str = ""
    #: The first key of :data:`PLACE_KEYS` (or ``Transform`` itself) the object lacks.
    unplaced: str | None = None

    @classmethod
    def parse(cls, raw: Any, file: str, index: int) -> TtsObject:
        """Check and read one entry of ``ObjectStates``.

        Raises
        ------
        ClientFileError
            Naming the object (its GUID, or ``ObjectStates[i]``) and the key.
        """
        if not isinstance(raw, dict):
            raise ClientFileError(
                f"expected an object, got {show(raw)}", file=file, entry=f"ObjectStates[{index}]"
            )
        guid_value = raw.get("GUID", "")
        guid = guid_value if isinstance(guid_value, str) and guid_value else ""
        where = f"object {guid!r}" if guid else f"ObjectStates[{index}]"
        if "GUID" in raw and not isinstance(guid_value, str):
            raise ClientFileError(
                f"expected text, got {show(guid_value)}", file=file, entry=where, key="GUID"
            )
        transform = raw.get("Transform", {})
        unplaced = (
            "Transform"
            if "Transform" not in raw
            else next((f"Transform.{k}" for k in PLACE_KEYS if k not in transform), None)
            if isinstance(transform, dict)
            else None
        )
        if not isinstance(transform, dict):
            raise ClientFileError(
                f"expected an object of numbers, got {show(transform)}",
                file=file,
                entry=where,
                key="Transform",
            )
        numbers = {
            key: _number(transform, key, default, file, where)
            for key, default in (
                ("posX", 0.0),
                ("posY", 0.0),
                ("posZ", 0.0),
                ("rotX", 0.0),
                ("rotY", 0.0),
                ("rotZ", 0.0),
                ("scaleX", 1.0),
                ("scaleZ", 1.0),
            )
        }
        mesh = raw.get("CustomMesh") or {}
        if not isinstance(mesh, dict):
            raise ClientFileError(
                f"expected an object, got {show(mesh)}", file=file, entry=where, key="CustomMesh"
            )
        return cls(
            guid=guid or f"ObjectStates[{index}]",
            name=_text(raw, "Name", file, where),
            nickname=_BBCODE.sub("", _text(raw, "Nickname", file, where)).strip(),
            x=numbers["posX"],
            y=numbers["posY"],
            z=numbers["posZ"],
            rot_x=numbers["rotX"],
            rot_y=numbers["rotY"],
            rot_z=numbers["rotZ"],
            scale_x=numbers["scaleX"],
            scale_z=numbers["scaleZ"],
            script=_text(raw, "LuaScript", file, where),
            state=_text(raw, "LuaScriptState", file, where),
            gm_notes=_text(raw, "GMNotes", file, where),
            collider=_text(mesh, "ColliderURL", file, where),
            mesh=_text(mesh, "MeshURL", file, where),
            contained=_held(raw, "ContainedObjects", file, where),
            states=_held(raw, "States", file, where),
            children=_held(raw, "ChildObjects", file, where),
            tags=_tags(raw, file, where),
            child_urls=_child_urls(raw),
            file=file,
            unplaced=unplaced,
        )

    @property
    def label(self) -> str:
        """Return how reports name the object: its nickname, else its TTS type."""
        return self.nickname or self.name

    @property
    def is_ship(self) -> bool:
        """Tell whether an X-Wing mod takes it for a ship.

        The 2.0 mod's object-type test: ``(obj.tag == 'Figurine' and
        obj.getVar('__XW_Ship') == true) or obj.hasTag('Ship')``: a script that sets
        ``__XW_Ship = true``, or the ``Ship`` tag, with or without a script.
        """
        return "Ship" in self.tags or (
            "__XW_Ship" in self.script and _SHIP.search(self.script) is not None
        )

    @property
    def obstacle_kind(self) -> str | None:
        """Return the ``__XW_Obstacle`` kind its script declares, if any."""
        if "__XW_Obstacle" not in self.script:
            return None
        found = _OBSTACLE.search(self.script)
        return None if found is None else found.group(1)

    @property
    def is_container(self) -> bool:
        """Tell whether it is a bag or a deck (what it holds is not on the table)."""
        return self.contained > 0 or self.name in ("Bag", "Infinite_Bag", "Deck", "DeckCustom")
