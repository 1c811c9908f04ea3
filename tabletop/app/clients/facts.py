"""Every conversion fact the client readers rely on, in one table, with its source.

A fact is confirmed when it was read in the client's own code or seen in a real file of
the client; otherwise it is unconfirmed, and every import that relies on it lists its
text in the report's ``unconfirmed`` (``docs/import.md`` lists the same table, checked by
a test).

Examples
--------
>>> FACTS["tts_xwing2_units_per_mm"].value
0.03637
>>> FACTS["tts_xwing2_units_per_mm"].confirmed
True
"""

from __future__ import annotations

from collections.abc import Mapping

from tabletop.app.clients.fact import Fact
from tabletop.app.clients.facts_vassal import REAL_FILE_FACTS, VASSAL_XWS_FACTS

__all__ = ["FACTS", "Fact", "fact_value", "unconfirmed_texts"]


_X2 = "JohnnyCheese/TTS_X-Wing2.0"
_X1 = "tjakubo/TTS_xwing"
_AR = "Valadian/TabletopSimulatorIncludeDir"
_EXTRACT = f"{_X2}: older_versions/backup.1.11.15.json (a real save of the mod, v1.11.15)"

_TABLE: tuple[Fact, ...] = (
    Fact(
        "tts_xwing2_units_per_mm",
        0.03637,
        "TTS units per mm",
        "X-Wing 2.0 mod: 1 mm = 0.03637 TTS units (Dim.mm_igu_ratio)",
        f"{_X2}: TTS_xwing/src/Dim.lua; the same value in every object script of {_EXTRACT}",
        True,
    ),
    Fact(
        "tts_xwing1_units_per_mm",
        0.036125,
        "TTS units per mm",
        "1st-edition mod: 1 mm = 0.036125 TTS units (mm_igu_ratio)",
        f"{_X1}: Global.-1.lua (mm_igu_ratio = 0.036125)",
        True,
    ),
    Fact(
        "tts_armada_mm_per_unit",
        25.4,
        "mm per TTS unit",
        "Armada mod: 1 TTS unit = 1 inch = 25.4 mm",
        f"{_AR}: TTS_armada/src/asteroid.ttslua (its range ruler measured 11.99 units for "
        "the 12-inch ruler)",
        True,
    ),
    Fact(
        "tts_rotation_clockwise",
        "clockwise",
        "-",
        "TTS rotY turns an object clockwise seen from above (+z toward +x)",
        f"the mods' vector library (Vect.RotateRad: x' = cos r x + sin r z, z' = -sin r x + "
        f"cos r z), in the global script of {_EXTRACT}",
        True,
    ),
    Fact(
        "tts_xwing_ship_front",
        0.0,
        "degrees of rotY",
        "X-Wing mods: a ship at rotY = 0 faces +z (its front edge is local +z)",
        f"{_X2}: TTS_xwing/src/Game/Mechanic/ArcCheck.lua (front segment and bullseye at "
        "local +z, left arc at local -x)",
        True,
    ),
    Fact(
        "tts_xwing_player1_edge",
        "-z",
        "-",
        "X-Wing mods: player 1 is the seat at the mat's -z edge (Red on the Red-Blue mat); "
        "naming that seat player 1 is this importer's convention",
        f"{_X2}: TTS_xwing/src/Layouts/Standard.lua (hands: Red at z = -40, Blue at z = +40)",
        True,
    ),
    Fact(
        "tts_xwing_mat_red_blue_x",
        -20.5142,
        "TTS units",
        "X-Wing 2.0 standard layout: the Red-Blue mat's centre is at x = -20.5142, z = 0",
        f"{_X2}: TTS_xwing/src/Layouts/Standard.lua (mats; board edges at x = -37.33 and "
        "-3.71, z = +-16.81)",
        True,
    ),
    Fact(
        "tts_xwing_mat_purple_orange_x",
        20.5142,
        "TTS units",
        "X-Wing 2.0 standard layout: the Purple-Orange mat's centre is at x = +20.5142, z = 0",
        f"{_X2}: TTS_xwing/src/Layouts/Standard.lua (mats)",
        True,
    ),
    Fact(
        "tts_xwing_mat_side_mm",
        914.4,
        "mm",
        "X-Wing mods: a mat is a 3'x3' (914.4 mm) square centred on its position, "
        "its sides along x and z",
        f"{_X2}: TTS_xwing/src/Layouts/Standard.lua (xz_scale from 3*12*25.4 mm)",
        True,
    ),
    Fact(
        "tts_xwing_mat_marker",
        "__XW_Mat",
        "-",
        "X-Wing 2.0 mod: a mat is an object whose script sets __XW_Mat = true, with its "
        "layout in __XW_MatLayout and its name (Red-Blue, Purple-Orange) in __XW_MatID",
        f"{_X2}: TTS_xwing/src/Layouts/LayoutController.lua (Layout.GetMats)",
        True,
    ),
    Fact(
        "tts_xwing_hidden_mat",
        "y < 0",
        "TTS units",
        "X-Wing 2.0 mod: a mat of a layout not in use is moved under the table (y = -5) and "
        "shrunk: it is not a table",
        f"{_X2}: TTS_xwing/src/Layouts/LayoutController.lua (Layout.Hide)",
        True,
    ),
    Fact(
        "tts_xwing_playmat_tile",
        "playmattile",
        "-",
        "X-Wing 2.0 mod: an object whose GM notes say 'playmattile' (named 'Playmat "
        "[Standard 3x3]') is an image tile dropped on a mat to change its picture, not a mat",
        f"{_X2}: TTS_xwing/src/Game/Component/Playmat/PlaymatTile.lua",
        True,
    ),
    Fact(
        "tts_xwing_mat_names",
        "Red-Blue|Purple-Orange",
        "-",
        "X-Wing 2.0 mod: an object without the __XW_Mat marker named Red-Blue or "
        "Purple-Orange (with or without ' Playmat') is taken for that mat of the Standard "
        "layout",
        f"{_X2}: TTS_xwing/src/Layouts/Standard.lua names the mats; no real save was seen "
        "with mats so named and unmarked",
        False,
    ),
    Fact(
        "tts_xwing1_mat_names",
        "Green-Red Playmat|Teal-Blue Playmat",
        "-",
        "1st-edition mod: its mats are the objects named 'Green-Red Playmat' and "
        "'Teal-Blue Playmat'",
        f"{_X1}: the mats' own scripts ('Green-Red Playmat.4a632c.lua', 'Teal-Blue "
        "Playmat.e589a0.lua') and the TFA Set Asteroids script, which finds its mat by "
        "getName() == 'Green-Red Playmat'",
        True,
    ),
    Fact(
        "tts_xwing_ship_marker",
        "__XW_Ship",
        "-",
        "X-Wing mods: a ship is a Figurine whose script sets __XW_Ship = true",
        f"the obstacle scripts of {_EXTRACT} (obj.type == 'Figurine' and "
        "obj.getVar('__XW_Ship') == true)",
        True,
    ),
    Fact(
        "tts_xwing_obstacle_marker",
        "__XW_Obstacle",
        "-",
        "X-Wing mods: an obstacle's script sets __XW_Obstacle to its kind",
        f"{_X2}: TTS_xwing/src/Obstacle/Asteroid.lua; seen in {_EXTRACT} "
        "(__XW_Obstacle = 'gascloud')",
        True,
    ),
    Fact(
        "tts_xwing_outline_matching",
        "tts-xwing-outlines.json",
        "-",
        "X-Wing 2.0 mod: an obstacle whose collider mesh is in the outline table is that "
        "table's token, posed by the fitted angle and mirror, with its residual at the "
        "object's own scale reported; each mesh has the catalog's size at a scale of its own "
        "(0.878 to 3.409; the POM meshes are drawn smaller), the real save holds its gas "
        "clouds at 0.975, and the catalog's size is used",
        f"{_X2}: assets/models/obstacles/Core1..6, TFA1..6, Debris1..6, GasCloud1..6, "
        "PomRock1..3, PomDebris1..3-col.obj "
        f"and the scale 0.975 seen in {_EXTRACT}, matched by "
        "tabletop/app/clients/data/build_tts_outlines.py",
        False,
    ),
    Fact(
        "tts_xwing_ship_tag",
        "Ship",
        "-",
        "X-Wing 2.0 mod: an object whose Tags hold 'Ship' is a ship, with or without a script",
        f"{_X2}: the global script's object-type registry (ObjType.AddType('ship'): "
        "(obj.tag == 'Figurine' and obj.getVar('__XW_Ship') == true) or obj.hasTag('Ship'))",
        True,
    ),
    Fact(
        "tts_xwing_ship_base_model",
        "bases/<size>/",
        "-",
        "X-Wing mods: a ship's base size is the one its base mesh or collider names "
        "(…/assets/models/bases/<small|medium|large|huge>/…), on the ship or an object "
        "attached to it; a Data.Size that disagrees is refused",
        "contract: shared/spec/import.md ('Real files'); the mod's spawning code was not "
        "read, and no real save with a ship was seen",
        False,
    ),
    Fact(
        "tts_xwing_ship_size",
        "Data.Size",
        "-",
        "X-Wing mods: a ship without a base model of the mod has the size of its script "
        "state's Data.Size",
        f"{_X2}: ArcCheck.lua (ship.getTable('Data').Size); how Data.Size is saved in "
        "LuaScriptState was not seen in a real file",
        False,
    ),
    Fact(
        "tts_xwing_ship_name_tag",
        "LGS|MGS",
        "-",
        "X-Wing mods: a ship with neither a base model nor a Data.Size is large with 'LGS' "
        "in its name, medium with 'MGS'; with neither it is skipped (no size is assumed)",
        f"the Movement notebook of {_EXTRACT} ('add LGS anywhere in its name')",
        True,
    ),
    Fact(
        "tts_xwing_obstacle_collider",
        "<Name>-col.obj",
        "-",
        "X-Wing 2.0 mod: an object whose collider is one of the mod's obstacle colliders is "
        "that obstacle, whatever its nickname, tags or script",
        f"{_X2}: assets/models/obstacles/<Name>-col.obj (the colliders of the outline table)",
        True,
    ),
    Fact(
        "tts_xwing_obstacle_model_mesh",
        "<Name>-model.obj",
        "-",
        "X-Wing 2.0 mod: an obstacle known only by its model mesh (<Name>-model.obj) is "
        "matched as its collider <Name>-col.obj is, the two sharing one frame",
        f"{_EXTRACT}: each gas cloud pairs <Name>-model.obj with <Name>-col.obj on one object "
        "(the naming confirmed); the model meshes were not compared with the colliders",
        False,
    ),
    Fact(
        "tts_flip_mirrors",
        "rotX or rotZ near 180",
        "-",
        "TTS: an obstacle with rotX or rotZ near 180 lies face down: its outline is the "
        "mirror image (flipped = true)",
        f"{_AR}: TTS_armada/src/asteroid.ttslua (is_face_down, z rotation 180); "
        f"obstacles in {_EXTRACT} lie with rotZ = 180",
        True,
    ),
    Fact(
        "tts_position_resolution_mm",
        0.001,
        "mm",
        "TTS saves carry positions as 32-bit floats printed to about 7 significant digits: "
        "under 0.001 mm on an X-Wing mat",
        f"{_EXTRACT} (posX -16.8762665: 9 digits, 0.0000001 units)",
        True,
    ),
    Fact(
        "tts_heading_resolution_deg",
        0.001,
        "degrees",
        "TTS saves carry rotations as 32-bit floats with at least 3 decimals of a degree",
        f"{_EXTRACT} (rotY 164.980133, 180.012344: 6 decimals)",
        True,
    ),
    Fact(
        "tts_xwing1_layout",
        "Green-Red, Teal-Blue at x = -+20.5142",
        "TTS units",
        "1st-edition mod: its standard layout's mats, Green-Red and Teal-Blue, lie at "
        "x = -20.5142 and +20.5142 as the 2.0 mod's do; the Red seat is at z = -40",
        f"{_X1}: src/Layouts/Standard.ttslua (mats, hands)",
        True,
    ),
    Fact(
        "tts_xwing1_obstacle_names",
        "Asteroid|Debris",
        "-",
        "1st-edition mod: an obstacle is an object whose name holds 'Asteroid' or 'Debris'",
        f"{_X1}: Global.-1.ttslua (MoveModule.SelectObstacles: getName():find('Asteroid') "
        "or find('Debris'))",
        True,
    ),
    Fact(
        "tts_xwing1_obstacle_colliders",
        "tts-xwing-outlines.json",
        "-",
        "1st-edition mod: an obstacle whose collider file is one of the outline table's "
        "meshes (the 2.0 mod's Core, TFA and Debris sets, named as the 1st-edition mod's "
        "bags are) is that table's token; which collider files the 1st-edition mod's saves "
        "name was not seen",
        f"{_X1}: its repository holds no obstacle mesh or collider URL (the obstacles come "
        "from the bags 'Core Set Asteroids', 'TFA Set Asteroids' and 'Debris Fields', "
        "src/Layouts/Standard.ttslua)",
        False,
    ),
    Fact(
        "tts_xwing1_ship_figurine",
        "Figurine",
        "-",
        "1st-edition mod: every Figurine object is a ship",
        f"{_X1}: src/Ship.ttslua (Ship.fitting: objRef.tag == 'Figurine')",
        True,
    ),
    Fact(
        "tts_xwing_edition_default",
        "xwing2",
        "-",
        "A TTS X-Wing save that states neither its mod's unit ratio nor its game mode is "
        "read as the 2.0 mod's",
        "no client file says which mod wrote such a save",
        False,
    ),
    Fact(
        "tts_armada_table",
        "6x3ft at the origin",
        "-",
        "Armada mod: the play area is 6'x3' centred at x = 0, z = 0, long sides along x, "
        "player 1 at the -z edge",
        f"{_AR}: TTS_armada/src/MapManager.ttslua puts the 'Custom Table Mat' and the "
        "setup guides at x = 0, z = 0 (spawnBlankCanvas, spawnGuides); the mat's size, its "
        "orientation and which edge is player 1's were not read",
        False,
    ),
    Fact(
        "tts_armada_obstacle_colliders",
        "paste.ee collider URL",
        "-",
        "Armada mod: an obstacle is known by its collider URL (Asteroid 1 Ul5Zt, Asteroid 4 "
        "sgn4L, Asteroid 5 t10DL, Debris 2 Fk1So, Debris 3 FJVoR, Station Hm8Hf)",
        f"{_AR}: TTS_armada/src/asteroid.ttslua (Obstacle:new, lookup by collider)",
        True,
    ),
    Fact(
        "tts_armada_obstacle_frame",
        "mesh x, mesh z",
        "-",
        "Armada mod: a catalog outline is the collider mesh's (x, z) about its centroid, so "
        "the token angle is -rotY and its reference point the object's position",
        "tabletop/obstacles/data/armada-obstacles.json (source: the mod's collider meshes); "
        "the mesh origin lying at the outline's centroid is not established",
        False,
    ),
    Fact(
        "tts_armada_ship_colliders",
        "misc/bases/<size>.obj",
        "-",
        "Armada mod: a ship or squadron is an object whose collider is one of the mod's base "
        "colliders, misc/bases/small, medium, large, huge or squad.obj (formerly the "
        "paste.ee files eDbf1, 6LYTT, a7mfW, ClCL3 and nAMCQ or ZKM7E); the collider names "
        "the base size, each the ruleset's base (the colliders' bottom plates measure "
        "40.9 x 71.0, 60.9 x 102.0 and 75.9 x 129.0 mm at scale 1)",
        f"{_AR}: TTS_armada/src/Global.ttslua (SHIPS, SQUAD_COLLIDERS, isShip, getSize, "
        "isSquad, ship_size), TTS_armada/src/Armada_Spawner.ttslua (SmallShip ... Squadron "
        "colliders) and the meshes TTS_armada/assets/misc/bases/*.obj",
        True,
    ),
    Fact(
        "tts_armada_ship_front",
        0.0,
        "degrees of rotY",
        "Armada mod: a ship at rotY = 0 faces +z (its bow is local +z)",
        f"{_AR}: the hull models TTS_armada/assets/ships/empire/victory and imperial/mesh.obj "
        "(the wedge narrows to 0.19 in wide at +z, 1.6 in at -z) and Global.ttslua "
        "(moveRuler notches the maneuver tool at local +z, the front of the base)",
        True,
    ),
    Fact(
        "tts_armada_ship_hulls",
        "ships/<faction>/<hull>/mesh.obj",
        "-",
        "Armada mod: a ship's hull is the folder of its model (ships/<faction>/<hull>/mesh.obj; "
        "rebel/nebulon is nebulon-b, rebel/afm2 assault-frigate-mk2, rebel/mc80l "
        "mc80-liberty, empire/ssd super-star-destroyer); a model of no known hull, or of a "
        "hull printed for another base, gives a ship without hull",
        f"{_AR}: TTS_armada/src/defs/<faction>/ships.ttslua (mesh and base of each ship card)",
        True,
    ),
    Fact(
        "tts_armada_huge_base_centre",
        4.379,
        "inches",
        "Armada mod: a huge ship's base reaches 2.539 in behind its object's position and "
        "11.297 in ahead, so the base centre is 4.379 in ahead of the position",
        f"{_AR}: TTS_armada/src/Global.ttslua (ship_size[4] = {{1.496, 0, 2.539, "
        "2.539*3+3.68}}) and TTS_armada/assets/misc/bases/huge.obj (z from -2.49 to 11.26)",
        True,
    ),
)

#: Fact name -> fact.
FACTS: Mapping[str, Fact] = {
    fact.name: fact for fact in (*_TABLE, *VASSAL_XWS_FACTS, *REAL_FILE_FACTS)
}


def fact_value(name: str) -> float:
    """Return a numeric fact's value.

    Examples
    --------
    >>> fact_value("tts_armada_mm_per_unit")
    25.4
    """
    value = FACTS[name].value
    assert isinstance(value, float)
    return value


def unconfirmed_texts(names: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Return the texts of the unconfirmed facts among `names`, in order, once each.

    Examples
    --------
    >>> unconfirmed_texts(["tts_xwing2_units_per_mm"])
    ()
    >>> len(unconfirmed_texts(["tts_armada_table", "tts_armada_table"]))
    1
    """
    seen: list[str] = []
    for name in names:
        fact = FACTS[name]
        if not fact.confirmed and fact.text not in seen:
            seen.append(fact.text)
    return tuple(seen)
