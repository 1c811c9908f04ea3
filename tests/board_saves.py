"""Client saves for the board's tests, written by the test writers from the format facts.

A Tabletop Simulator save of the X-Wing 2.0 mod with pieces on both mats of its standard
layout (so it needs ``--table``), a VASSAL save in each encoding, and a VASSAL log of
three positions. Each comes with the poses it was written from (the scene frame: mm and
degrees), which a test compares with what the board shows, within the source's
resolution. Imported by ``tests/test_board_server*.py`` and ``tests/test_board_browser*.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from clients_vassal_writer import (
    OFFSETS,
    VObstacle,
    VShip,
    move_command,
    obstacle_command,
    saved_game,
    ship_command,
    vsav,
)
from tts_saves import (
    PURPLE_ORANGE_X,
    RED_BLUE_X,
    bag,
    die,
    mat,
    outlined_obstacle,
    save,
    ship,
    write,
)

__all__ = [
    "ENCODINGS",
    "LOG_STEPS",
    "TTS_PURPLE_ORANGE",
    "TTS_RED_BLUE",
    "TTS_RESOLUTION_MM",
    "VASSAL_OBSTACLES",
    "VASSAL_RESOLUTION_MM",
    "VASSAL_SHIPS",
    "Placed",
    "angle_gap",
    "tts_one_mat",
    "tts_two_mats",
    "vassal_log",
    "vassal_log_placed",
    "vassal_placed",
    "vassal_save",
]

#: The VASSAL savedGame encodings (VASSAL >= 3.8 XZ, the older hex XOR, plain text).
ENCODINGS = ("xz", "obfuscated", "plain")
#: Half a VASSAL pixel (2.825 px per mm), plus the 0.0001 mm the reader writes to.
VASSAL_RESOLUTION_MM = 0.5 / 2.825 + 1e-4
#: A TTS save's 32-bit floats, turned into mm (0.03637 units per mm): well under 0.001 mm.
TTS_RESOLUTION_MM = 0.001


@dataclass(frozen=True)
class Placed:
    """A piece as a save was written: its scene id, kind, pose and what it becomes."""

    id: str
    kind: str  # "ship" | "obstacle"
    x_mm: float
    y_mm: float
    angle_deg: float  # an obstacle's angle, a ship's heading
    became: str  # the catalog token or the base
    flipped: bool = False


def angle_gap(a: float, b: float) -> float:
    """The smaller turn between two angles, degrees."""
    return abs((a - b + 180.0) % 360.0 - 180.0)


#: The Red-Blue mat (GUID m1) of the two-mat TTS save: two ships, two obstacles.
TTS_RED_BLUE = (
    Placed("Wedge Antilles", "ship", 200.0, 100.0, 90.0, "small"),
    Placed("Darth Vader", "ship", 600.0, 820.0, 270.0, "small"),
    Placed("Gas Cloud 6", "obstacle", 457.2, 457.2, 30.0, "gascloud4"),
    Placed("Asteroid 1", "obstacle", 300.0, 600.0, 75.0, "coreasteroid2", flipped=True),
)
#: The Purple-Orange mat (GUID m2): one ship and one obstacle.
TTS_PURPLE_ORANGE = (
    Placed("Boba Fett", "ship", 457.2, 150.0, 45.0, "medium"),
    Placed("Asteroid 3", "obstacle", 500.0, 500.0, 120.0, "coreasteroid1"),
)
#: The mesh each obstacle of the TTS save is written with (the mod's collider file).
_TTS_MESHES = {"Gas Cloud 6": "GasCloud6-col.obj", "Asteroid 1": "Core5-col.obj",
               "Asteroid 3": "Core3-col.obj"}  # fmt: skip


def _tts_objects(pieces: tuple[Placed, ...], prefix: str, mat_x: float) -> list[dict[str, object]]:
    objects: list[dict[str, object]] = []
    for number, piece in enumerate(pieces, 1):
        guid = f"{prefix}{number}"
        if piece.kind == "ship":
            objects.append(ship(guid, piece.id, piece.became, piece.x_mm, piece.y_mm,
                                piece.angle_deg, mat_x))  # fmt: skip
        else:
            mesh = _TTS_MESHES[piece.id]
            objects.append(outlined_obstacle(guid, piece.id, mesh, piece.x_mm, piece.y_mm,
                                             piece.angle_deg, piece.flipped, mat_x))  # fmt: skip
    return objects


def tts_one_mat(path: Path) -> Path:
    """Write an X-Wing 2.0 save with the Red-Blue pieces only, a die and a bag; return `path`."""
    objects = [
        mat("m1", "Red-Blue", RED_BLUE_X),
        mat("m2", "Purple-Orange", PURPLE_ORANGE_X),
        *_tts_objects(TTS_RED_BLUE, "a", RED_BLUE_X),
        die("d1"),
        bag("g1", "Dice", [die("d2")]),
    ]
    return write(path, save(objects))


def tts_two_mats(path: Path) -> Path:
    """Write an X-Wing 2.0 save with pieces on both mats, a die and a bag; return `path`.

    The Red-Blue mat is GUID ``m1``, the Purple-Orange mat GUID ``m2``: without
    ``--table`` the save is refused, naming both.
    """
    objects = [
        mat("m1", "Red-Blue", RED_BLUE_X),
        mat("m2", "Purple-Orange", PURPLE_ORANGE_X),
        *_tts_objects(TTS_RED_BLUE, "a", RED_BLUE_X),
        *_tts_objects(TTS_PURPLE_ORANGE, "b", PURPLE_ORANGE_X),
        die("d1"),
        bag("g1", "Dice", [die("d2")]),
    ]
    return write(path, save(objects))


#: The VASSAL save's pieces: whole pixels, ships at whole degrees.
VASSAL_SHIPS = (
    VShip("1001", "Wedge Antilles", "Small", 200.0, 100.0, 90),
    VShip("1002", "Soontir Fel", "Small", 650.0, 800.0, 250),
    VShip("1003", "Han Solo", "Large", 300.0, 160.0, 75),
)
VASSAL_OBSTACLES = (
    VObstacle("2001", "Asteroid 5", 450.0, 450.0, 30.0),
    VObstacle("2002", "Debris 4", 250.0, 600.0, 200.0, flipped=True),
    VObstacle("2003", "Gas Cloud 2", 650.0, 400.0, 315.5),
)


def vassal_placed(
    ships: tuple[VShip, ...] = VASSAL_SHIPS, obstacles: tuple[VObstacle, ...] = VASSAL_OBSTACLES
) -> tuple[Placed, ...]:
    """The pieces of a VASSAL save as written (ids: the pilot or piece names)."""
    return (
        *(Placed(o.name, "obstacle", o.x_mm, o.y_mm, o.angle, OFFSETS[o.name]["token"],
                 o.flipped) for o in obstacles),
        *(Placed(s.pilot, "ship", s.x_mm, s.y_mm, float(s.heading), s.base.lower())
          for s in ships),
    )  # fmt: skip


def vassal_save(path: Path, encoding: str) -> Path:
    """Write a ``.vsav`` of three ships and three obstacles in `encoding`; return `path`."""
    restore = [ship_command(s) for s in VASSAL_SHIPS]
    restore += [obstacle_command(o) for o in VASSAL_OBSTACLES]
    path.write_bytes(vsav(saved_game(restore), encoding))
    return path


#: The log's moves: step 1 moves Soontir Fel, step 2 moves Wedge onto Han Solo's base.
LOG_STEPS = (("1002", 650.0, 700.0), ("1001", 300.0, 130.0))


def vassal_log_placed(step: int) -> tuple[Placed, ...]:
    """The pieces of :func:`vassal_log` after its `step`-th entry (0: the start)."""
    moved = {piece_id: (x, y) for piece_id, x, y in LOG_STEPS[:step]}
    ships = tuple(
        VShip(s.piece_id, s.pilot, s.base, *moved.get(s.piece_id, (s.x_mm, s.y_mm)), s.heading)
        for s in VASSAL_SHIPS
    )
    return vassal_placed(ships)


def vassal_log(path: Path) -> Path:
    """Write a ``.vlog`` (XZ) of :data:`LOG_STEPS` from the save's position; return `path`."""
    restore = [ship_command(s) for s in VASSAL_SHIPS]
    restore += [obstacle_command(o) for o in VASSAL_OBSTACLES]
    steps = [[move_command(piece_id, x, y)] for piece_id, x, y in LOG_STEPS]
    path.write_bytes(vsav(saved_game(restore, steps), "xz"))
    return path
