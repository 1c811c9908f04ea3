"""What the TTS Armada mod's objects are: its ship and squadron bases and its hulls.

The mod knows a ship by its collider, one per base size (``Global.ttslua``: ``isShip``,
``getSize``, ``isSquad``), and spawns each hull with the model of its folder
(``defs/<faction>/ships.ttslua``: ``ships/<faction>/<hull>/mesh.obj``). The numbers are
the facts of :mod:`tabletop.app.clients.facts`.

Examples
--------
>>> armada_base("http://paste.ee/r/6LYTT")
'medium'
>>> armada_hull("https://raw.githubusercontent.com/x/TTS_armada/assets/ships/rebel/nebulon/mesh.obj")
'nebulon-b'
>>> armada_hull("") is None
True
"""

from __future__ import annotations

import math

__all__ = [
    "ARMADA_BASE_COLLIDERS",
    "ARMADA_HULL_FOLDERS",
    "armada_base",
    "armada_hull",
    "base_centre_offset",
]

#: The Armada mod's base collider of each base size, by file name (the mod's own assets,
#: ``misc/bases/<size>.obj``) or by its older paste.ee URL (``Global.ttslua``: SHIPS,
#: SQUAD_COLLIDERS).
ARMADA_BASE_COLLIDERS: dict[str, str] = {
    "small.obj": "small",
    "medium.obj": "medium",
    "large.obj": "large",
    "huge.obj": "huge",
    "squad.obj": "squadron",
    "eDbf1": "small",
    "6LYTT": "medium",
    "a7mfW": "large",
    "ClCL3": "huge",
    "nAMCQ": "squadron",
    "ZKM7E": "squadron",
}
#: The mod's model folder (``ships/<faction>/<folder>/mesh.obj``) -> the hull of
#: ``armada-hulls.json``. The Separatist Gozanti has a folder of its own and no hull entry.
ARMADA_HULL_FOLDERS: dict[str, str] = {
    "empire/arquitens": "arquitens",
    "empire/gladiator": "gladiator",
    "empire/gozanti": "gozanti",
    "empire/imperial": "imperial",
    "empire/interdictor": "interdictor",
    "empire/onager": "onager",
    "empire/quasar": "quasar",
    "empire/raider": "raider",
    "empire/ssd": "super-star-destroyer",
    "empire/victory": "victory",
    "rebel/afm2": "assault-frigate-mk2",
    "rebel/cr90": "cr90",
    "rebel/gr75": "gr75",
    "rebel/hammerhead": "hammerhead",
    "rebel/mc30": "mc30",
    "rebel/mc75": "mc75",
    "rebel/mc80": "mc80",
    "rebel/mc80l": "mc80-liberty",
    "rebel/nebulon": "nebulon-b",
    "rebel/pelta": "pelta",
    "rebel/starhawk": "starhawk",
    "republic/acclamator": "acclamator",
    "republic/consular": "consular",
    "republic/pelta": "pelta",
    "republic/venator": "venator",
    "separatist/hardcell": "hardcell",
    "separatist/munificent": "munificent",
    "separatist/providence": "providence",
    "separatist/recusant": "recusant",
}
#: The huge base's rear and front edges along the model's z, inches (``Global.ttslua``:
#: ship_size[4] = {1.496, 0, 2.539, 2.539*3+3.68}: rear at -2.539, front at +11.297).
_HUGE_REAR_IN = -2.539
_HUGE_FRONT_IN = 2.539 * 3 + 3.68


def _last_part(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[-1].split("?")[0]


def armada_base(collider: str) -> str | None:
    """Return the base size the mod gives an object with this collider URL, if a ship's.

    Examples
    --------
    >>> armada_base("https://raw.githubusercontent.com/v/I/master/TTS_armada/assets/misc/bases/small.obj")
    'small'
    >>> armada_base("http://paste.ee/r/Hm8Hf") is None
    True
    """
    if not collider:
        return None
    last = _last_part(collider)
    if last.endswith(".obj") and "/misc/bases/" not in collider:
        return None
    return ARMADA_BASE_COLLIDERS.get(last)


def armada_hull(mesh: str) -> str | None:
    """Return the hull of ``armada-hulls.json`` whose model this mesh URL is, if known."""
    parts = mesh.rstrip("/").split("/")
    if len(parts) < 4 or parts[-1] != "mesh.obj" or parts[-4] != "ships":
        return None
    return ARMADA_HULL_FOLDERS.get(f"{parts[-3]}/{parts[-2]}")


def base_centre_offset(base: str, rot_y: float) -> tuple[float, float]:
    """Return the base centre's offset from the object's position, TTS (x, z) units.

    Only the huge base's model stands off its base centre: the base reaches 2.539 in
    behind the origin and 11.297 in ahead of it, so its centre is 4.379 in ahead (local
    +z, the ship's front), turned clockwise by rotY as TTS turns everything.

    Examples
    --------
    >>> base_centre_offset("small", 30.0)
    (0.0, 0.0)
    >>> [round(v, 3) for v in base_centre_offset("huge", 90.0)]
    [4.379, 0.0]
    """
    if base != "huge":
        return 0.0, 0.0
    ahead = (_HUGE_REAR_IN + _HUGE_FRONT_IN) / 2
    r = math.radians(rot_y)
    return ahead * math.sin(r), ahead * math.cos(r)
