"""Write the bundled client-save examples from the format facts (not client-written files).

``python examples/saves/make_saves.py`` writes, next to this file, one X-Wing 2.0 table
(the six obstacles and five ships of ``examples/xwing-tournament.toml``) as:

- ``xwing2-tournament.json``: a Tabletop Simulator save of the X-Wing 2.0 mod
  (JohnnyCheese/TTS_X-Wing2.0): the standard layout's two mats, the table on the
  Red-Blue one, with a die on the table and a dice bag that ``tabletop import`` skips;
- ``xwing2-tournament.vsav``: a VASSAL save of the X-Wing module (Mu0n/XWVassal), its
  ``savedGame`` XZ-compressed as VASSAL 3.8 on writes it;
- ``xwing2-first-moves.vlog``: a VASSAL log starting from that table, then three moves:
  Wedge flies straight 3, Vader straight 2, and Biggs is put down on Wedge's base (the
  step ``tabletop check --all-steps`` names as the first illegal one).

Every number comes from the conversion facts of ``docs/import.md`` (the table in
``tabletop/app/clients/facts.py``) and from the data tables the importer uses
(``tabletop/app/clients/data/``): 0.03637 TTS units per mm, the Red-Blue mat's centre at
x = -20.5142, player 1 at -z, rotY clockwise from above, a ship facing +z at rotY 0, an
obstacle laid face down with rotZ 180; 2.825 VASSAL pixels per mm on a 2583-px board
with y down, a ship at angle 0 facing up, an obstacle's token at the piece's position
plus its mask centroid. Floats are kept as TTS keeps them (32 bits).
"""

from __future__ import annotations

import io
import json
import lzma
import math
import struct
import zipfile
from pathlib import Path
from typing import Any

from tabletop.app.clients.vassal_codec import COMMAND_SEPARATOR, join_tokens

HERE = Path(__file__).resolve().parent
DATA = HERE.parent.parent / "tabletop" / "app" / "clients" / "data"

# -- the table, in the scene frame (mm, degrees counter-clockwise from +x) -----------------

#: (TTS nickname, TTS collider mesh, VASSAL piece name, x, y, angle, flipped): the catalog
#: token each becomes is the same in both clients (coreasteroid0, core2asteroid5, ...).
OBSTACLES = (
    ("Asteroid 6", "Core6-col.obj", "Asteroid 5", 250.0, 300.0, 15.0, False),
    ("TFA Asteroid 2", "TFA2-col.obj", "Asteroid 9", 457.2, 290.0, 120.0, False),
    ("Debris 5", "Debris5-col.obj", "Debris 4", 655.0, 310.0, 200.0, True),
    ("Asteroid 4", "Core4-col.obj", "Asteroid 2", 260.0, 610.0, 300.0, False),
    ("Debris 4", "Debris4-col.obj", "Debris 1", 457.2, 500.0, 45.0, False),
    ("Gas Cloud 2", "GasCloud2-col.obj", "Gas Cloud 2", 650.0, 620.0, 90.0, False),
)
#: (pilot, base, x, y, heading): player 1 along y = 0, player 2 along y = 914.4.
SHIPS = (
    ("Wedge Antilles", "Small", 300.0, 40.0, 90),
    ("Biggs Darklighter", "Small", 380.0, 45.0, 90),
    ("Han Solo", "Large", 560.0, 50.0, 75),
    ("Darth Vader", "Small", 420.0, 872.0, 270),
    ("Captain Oicunn", "Large", 610.0, 864.0, 260),
)
#: The log's moves: (pilot, new x, new y) mm; headings unchanged.
LOG_MOVES = (
    ("Wedge Antilles", 300.0, 200.0),  # straight 3: 40 mm base + 3 x 40 mm template
    ("Darth Vader", 420.0, 752.0),  # straight 2: 40 + 2 x 40 mm
    ("Biggs Darklighter", 330.0, 190.0),  # put down on Wedge's base: 30 mm apart
)

# -- Tabletop Simulator ---------------------------------------------------------------------

TTS_UNITS_PER_MM = 0.03637  # Dim.mm_igu_ratio (TTS_xwing/src/Dim.lua)
RED_BLUE_X = -20.5142  # Layouts/Standard: the Red-Blue mat's centre (z = 0)
PURPLE_ORANGE_X = 20.5142
HALF_MAT_MM = 457.2
COLLIDERS = (
    "https://raw.githubusercontent.com/JohnnyCheese/TTS_X-Wing2.0/master/assets/models/obstacles/"
)


def f32(value: float) -> float:
    """Return `value` as TTS holds it: a 32-bit float."""
    return float(struct.unpack("f", struct.pack("f", value))[0])


def tts_transform(
    x: float, z: float, rot_y: float, rot_z: float = 0.0, scale: float = 1.0
) -> dict[str, float]:
    """Return a TTS ``Transform`` (position in units, rotations in degrees)."""
    return {
        "posX": f32(x), "posY": 1.0, "posZ": f32(z),
        "rotX": 0.0, "rotY": f32(rot_y % 360.0), "rotZ": rot_z,
        "scaleX": scale, "scaleY": scale, "scaleZ": scale,
    }  # fmt: skip


def tts_point(x_mm: float, y_mm: float) -> tuple[float, float]:
    """Return the TTS (x, z) of a scene point on the Red-Blue mat."""
    return (
        RED_BLUE_X + (x_mm - HALF_MAT_MM) * TTS_UNITS_PER_MM,
        (y_mm - HALF_MAT_MM) * TTS_UNITS_PER_MM,
    )


def tts_obstacle(number: int, entry: tuple[Any, ...], outlines: dict[str, Any]) -> dict[str, Any]:
    """Return an obstacle whose collider is the mod's mesh, posed so its token has the pose."""
    nickname, mesh, _, x_mm, y_mm, angle, flipped = entry
    outline = outlines[mesh]
    alpha, scale = outline["angle_deg"], outline["scale"]
    # The token is the mesh (mirrored when the table says so) turned by alpha; laid face
    # down (rotZ 180 mirrors x) when that shows the side wanted.
    face_down = flipped != outline["mirrored"]
    rot_y = alpha - angle if flipped else -angle - alpha
    cx, cz = outline["centroid"]
    cx = -cx if face_down else cx
    turn = math.radians(rot_y)  # rotY turns a vector clockwise seen from above
    dx = (math.cos(turn) * cx + math.sin(turn) * cz) * scale
    dz = (-math.sin(turn) * cx + math.cos(turn) * cz) * scale
    x, z = tts_point(x_mm, y_mm)
    return {
        "GUID": f"0b{number:04x}",
        "Name": "Custom_Model",
        "Nickname": nickname,
        "Transform": tts_transform(x - dx, z - dz, rot_y, 180.0 if face_down else 0.0, scale),
        "CustomMesh": {"MeshURL": "", "ColliderURL": COLLIDERS + mesh},
        "LuaScript": "__XW_Obstacle = 'asteroid'\n",
    }


def tts_ship(
    number: int, pilot: str, base: str, x_mm: float, y_mm: float, heading: float
) -> dict[str, Any]:
    """Return a ship figurine: the mod's script marks it, its state holds its base size."""
    x, z = tts_point(x_mm, y_mm)
    return {
        "GUID": f"5a{number:04x}",
        "Name": "Figurine_Custom",
        "Nickname": pilot,
        "Transform": tts_transform(x, z, 90.0 - heading),
        "LuaScript": "__XW_Ship = true\n",
        "LuaScriptState": json.dumps({"Data": {"Size": base.lower()}}),
    }


def tts_mat(guid: str, mat_id: str, x: float) -> dict[str, Any]:
    """Return a mat of the standard layout, marked by its script."""
    script = f"__XW_Mat = true\n__XW_MatLayout = 'Standard'\n__XW_MatID = '{mat_id}'\n"
    return {"GUID": guid, "Name": "Custom_Model", "Nickname": "",
            "Transform": tts_transform(x, 0.0, 180.0), "LuaScript": script}  # fmt: skip


def tts_save() -> dict[str, Any]:
    """Return the TTS save: two mats, the table on Red-Blue, a die, a dice bag."""
    outlines = json.loads((DATA / "tts-xwing-outlines.json").read_text("utf-8"))["meshes"]
    die = {"Name": "Die_6", "Nickname": "", "Transform": tts_transform(-45.0, 5.0, 0.0)}
    objects = [
        tts_mat("c0a001", "Red-Blue", RED_BLUE_X),
        tts_mat("c0a002", "Purple-Orange", PURPLE_ORANGE_X),
        *(tts_obstacle(n, entry, outlines) for n, entry in enumerate(OBSTACLES, 1)),
        *(tts_ship(n, *entry) for n, entry in enumerate(SHIPS, 1)),
        {**die, "GUID": "d1e001"},
        {"GUID": "ba9001", "Name": "Bag", "Nickname": "Dice",
         "Transform": tts_transform(-50.0, 8.0, 0.0),
         "ContainedObjects": [{**die, "GUID": "d1e002"}, {**die, "GUID": "d1e003"}]},
    ]  # fmt: skip
    return {"SaveName": "", "GameMode": "X-Wing 2.0",
            "Table": "Table_Custom", "ObjectStates": objects}  # fmt: skip


# -- VASSAL ---------------------------------------------------------------------------------

PX_PER_MM = 2.825  # the module's board: 2583 px for 3 ft
BOARD_PX = 2583
MAP = "Map0"


def pixels(x_mm: float, y_mm: float) -> tuple[int, int]:
    """Return whole pixels, y down from the top edge (player 2's)."""
    return round(x_mm * PX_PER_MM), round(BOARD_PX - y_mm * PX_PER_MM)


def piece(piece_id: str, traits: list[tuple[str, str]]) -> str:
    """Return an add-piece command: the trait chain (outermost first) joined as VASSAL does."""
    type_, state = traits[-1]
    for outer_type, outer_state in reversed(traits[:-1]):
        type_ = join_tokens([outer_type, type_], "\t")
        state = join_tokens([outer_state, state], "\t")
    return "+/" + join_tokens([piece_id, type_, state], "/")


def vassal_ship(
    piece_id: str, pilot: str, base: str, x_mm: float, y_mm: float, heading: int
) -> str:
    """Return the add-piece command of a ship: its pilot, facing and base."""
    x, y = pixels(x_mm, y_mm)
    facing = (90 - heading) % 360  # FreeRotator index: angle = -index, heading = 90 + angle
    return piece(piece_id, [
        ("PROP;Pilot Name;false,0,100,false;Set Pilot Name:78\\,65:R\\,Pilot Name?", pilot),
        ("rotate;360;;;;;;;", str(facing)),
        (f"piece;;;;ship -- Stem2e {base} Ship", f"{MAP};{x};{y};0;0"),
    ])  # fmt: skip


def vassal_obstacle(piece_id: str, entry: tuple[Any, ...], offsets: dict[str, Any]) -> str:
    """Return the add-piece command of an obstacle: its face, rotation and name."""
    _, _, name, x_mm, y_mm, angle, flipped = entry
    known = offsets[name]
    cx, cy = known["flipped_centroid_mm"] if flipped else known["centroid_mm"]
    turn = math.radians(angle)
    x, y = pixels(
        x_mm - (cx * math.cos(turn) - cy * math.sin(turn)),
        y_mm - (cx * math.sin(turn) + cy * math.cos(turn)),
    )
    faces = ",".join(known.get("flip", {}).get("images", ["rock.png"]))
    rock = f"emb2;Activate;2;;Cycle Shape;2;;;2;;;;1;false;0;0;{faces};,;true;The Rock Itself"
    return piece(piece_id, [
        (rock, "2" if flipped else "1"),
        ("rotate;1;82,130;Rotate;82,520;Randomly Rotate;Rotate;;;;;true", repr(float(angle))),
        (f"piece;;;;{name}", f"{MAP};{x};{y};0;0"),
    ])  # fmt: skip


def ship_ids() -> dict[str, str]:
    """Return each ship's VASSAL piece id, by pilot."""
    return {pilot: f"16{n:011d}" for n, (pilot, *_) in enumerate(SHIPS, 1)}


def saved_game(logged: list[str]) -> str:
    """Return the savedGame text: the table restored, then one LOG entry per command."""
    offsets = json.loads((DATA / "vassal-obstacles.json").read_text("utf-8"))["pieces"]
    ids = ship_ids()
    pieces = [vassal_obstacle(f"17{n:011d}", e, offsets) for n, e in enumerate(OBSTACLES, 1)]
    pieces += [vassal_ship(ids[entry[0]], *entry) for entry in SHIPS]
    restore = join_tokens(["", *pieces], COMMAND_SEPARATOR)
    entries = ["LOG\t" + command for command in logged]
    return join_tokens(["begin_save", restore, "end_save", *entries], COMMAND_SEPARATOR)


def move(piece_id: str, x_mm: float, y_mm: float) -> str:
    """Return a move command: the piece put down at (x, y) mm on the same map."""
    x, y = pixels(x_mm, y_mm)
    fields = [piece_id, MAP, str(x), str(y), "null", MAP, "0", "0", "null", "player"]
    return "M/" + join_tokens(fields, "/")


def vassal_file(text: str) -> bytes:
    """Return a .vsav / .vlog: a zip whose savedGame entry is XZ-compressed."""
    buffer = io.BytesIO()
    entries = (
        ("savedGame", lzma.compress(text.encode("utf-8"), format=lzma.FORMAT_XZ)),
        ("moduledata", b"<data><name>Star Wars X-Wing Miniatures Game</name></data>"),
    )
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in entries:
            # a fixed date: the file comes out the same every time it is made
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return buffer.getvalue()


#: The files written, in the order :func:`main` writes them.
NAMES = ("xwing2-tournament.json", "xwing2-tournament.vsav", "xwing2-first-moves.vlog")


def write_all(folder: Path) -> list[Path]:
    """Write the three examples into `folder`; return their paths."""
    (folder / NAMES[0]).write_text(json.dumps(tts_save(), indent=2) + "\n", "utf-8")
    (folder / NAMES[1]).write_bytes(vassal_file(saved_game([])))
    ids = ship_ids()
    moves = [move(ids[pilot], x, y) for pilot, x, y in LOG_MOVES]
    (folder / NAMES[2]).write_bytes(vassal_file(saved_game(moves)))
    return [folder / name for name in NAMES]


def main() -> None:
    """Write the three examples next to this file."""
    for path in write_all(HERE):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
