"""Test helper: write VASSAL X-Wing saves and logs for scenes, from the format's facts.

Independent of the reader's conversion code: the pixel and angle arithmetic is written
out here from the facts (2.825 px per mm, a 2583-px board with y down, rotation counter-
clockwise on screen, a ship at angle 0 facing up, an obstacle's reference point at the
piece's position plus its mask centroid), and only the SequenceEncoder join of
``vassal_codec`` is shared (its own tests check it against hand-written strings).
"""

from __future__ import annotations

import io
import json
import lzma
import math
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tabletop.app.clients.vassal_codec import join_tokens, obfuscate

ESC = "\x1b"
PX_PER_MM = 2.825
BOARD_PX = 2583
MAP_ID = "Map0"
OFFSETS = json.loads(
    (
        Path(__file__).resolve().parent.parent / "tabletop/app/clients/data/vassal-obstacles.json"
    ).read_text()
)["pieces"]


@dataclass(frozen=True)
class VShip:
    piece_id: str
    pilot: str
    base: str  # Small | Medium | Large
    x_mm: float
    y_mm: float
    heading: int


@dataclass(frozen=True)
class VObstacle:
    piece_id: str
    name: str  # the VASSAL piece name, e.g. "Asteroid 5"
    x_mm: float  # the catalog token's reference point
    y_mm: float
    angle: float
    flipped: bool = False


def chain(traits: list[tuple[str, str]]) -> tuple[str, str]:
    """Join (type, state) traits, outermost first, as Decorator.getType/getState do."""
    type_, state = traits[-1]
    for outer_type, outer_state in reversed(traits[:-1]):
        type_ = join_tokens([outer_type, type_], "\t")
        state = join_tokens([outer_state, state], "\t")
    return type_, state


def pixels(x_mm: float, y_mm: float) -> tuple[int, int]:
    return round(x_mm * PX_PER_MM), round(BOARD_PX - y_mm * PX_PER_MM)


def ship_command(ship: VShip, *, map_id: str = MAP_ID) -> str:
    x, y = pixels(ship.x_mm, ship.y_mm)
    index = (90 - ship.heading) % 360  # angle = -index; heading = 90 + angle
    type_, state = chain(
        [
            ("label;;;10;;;t;0;c;0;b;c;$pieceName$;Dialog;0;0;$this_is_a_ship$;this_is_a_ship", ""),
            (
                "PROP;Pilot Name;false,0,100,false;Set Pilot Name:78\\,65:R\\,Pilot Name?",
                ship.pilot,
            ),
            ("rotate;360;;;;;;;", str(index)),
            ("emb2;Activate;2;;Ghost;2;;;2;;;;1;false;0;0;a.png,b.png;,;true;Base Ship", "1"),
            (f"piece;;;;ship -- Stem2e {ship.base} Ship", f"{map_id};{x};{y};12873;0"),
        ]
    )
    return "+/" + join_tokens([ship.piece_id, type_, state], "/")


def obstacle_piece_px(obstacle: VObstacle) -> tuple[int, int]:
    entry = OFFSETS[obstacle.name]
    # The back face's reference point, measured from the module's two face images.
    cx, cy = entry["flipped_centroid_mm"] if obstacle.flipped else entry["centroid_mm"]
    turn = math.radians(obstacle.angle)
    px_mm = obstacle.x_mm - (cx * math.cos(turn) - cy * math.sin(turn))
    py_mm = obstacle.y_mm - (cx * math.sin(turn) + cy * math.cos(turn))
    return pixels(px_mm, py_mm)


def obstacle_command(obstacle: VObstacle) -> str:
    """An obstacle piece as the module defines it: its rock layer (an Embellishment of the
    front and back images, state 1 or 2), its free rotation and its name."""
    x, y = obstacle_piece_px(obstacle)
    faces = ",".join(OFFSETS[obstacle.name].get("flip", {}).get("images", ["rock.png"]))
    rock = (
        f"emb2;Activate;2;;Cycle Shape;2;;;2;;;;1;false;0;0;{faces};,;true;The Rock Itself;;;"
        "false;;1;1;true;65,130;83,130;;;1.0"
    )
    type_, state = chain(
        [
            ("PROP;Autorange Commands;false,0,100,false;Autorange:83\\,195:P\\,;", ""),
            ("PROP;whichShape;true,1,2,true;Cycle Shape:83\\,130:I\\,1;", "1"),
            (rock, "2" if obstacle.flipped else "1"),
            (
                "rotate;1;82,130;Rotate;82,520;Randomly Rotate;Rotate;;;;;true",
                repr(float(obstacle.angle)),
            ),
            ("nonRect;m,-19,-44,l,-19,-43,c", ""),
            (f"piece;;;;{obstacle.name}", f"{MAP_ID};{x};{y};12856;0"),
        ]
    )
    return "+/" + join_tokens([obstacle.piece_id, type_, state], "/")


def other_command(piece_id: str, name: str) -> str:
    type_, state = chain([("mark;Layers", ""), (f"piece;;;;{name}", f"{MAP_ID};100;100;5;0")])
    return "+/" + join_tokens([piece_id, type_, state], "/")


def move_command(piece_id: str, x_mm: float, y_mm: float) -> str:
    x, y = pixels(x_mm, y_mm)
    return "M/" + join_tokens(
        [piece_id, MAP_ID, str(x), str(y), "null", MAP_ID, "0", "0", "null", "player"], "/"
    )


def saved_game(restore: list[str], log_steps: Sequence[list[str]] = ()) -> str:
    """The savedGame text: begin_save, the pieces (one nested compound), end_save, and
    one LOG entry per step (a step of several commands nests them as VASSAL does)."""
    pieces = join_tokens(["", *restore], ESC)
    top = ["begin_save", pieces, "end_save"]
    for commands in log_steps:
        logged = ["LOG\t" + c for c in commands]
        top.append(logged[0] if len(logged) == 1 else join_tokens(logged, ESC))
    return join_tokens(top, ESC)


def encode(text: str, encoding: str) -> bytes:
    if encoding == "xz":
        return lzma.compress(text.encode("utf-8"), format=lzma.FORMAT_XZ)
    if encoding == "obfuscated":
        return obfuscate(text, 0x5A)
    return text.encode("utf-8")


def vsav(text: str, encoding: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("savedGame", encode(text, encoding))
        archive.writestr("moduledata", b"<data/>")
    return buffer.getvalue()


def board_command(boards: list[tuple[str, int, int]], *, map_id: str = MAP_ID) -> str:
    """The BoardPicker command of a map: its id and ``BoardPicker``, then each board's
    name, column and row, tab-separated (VASSAL's BoardPicker.encode)."""
    fields = [f"{map_id}BoardPicker"]
    for name, column, row in boards:
        fields += [name, str(column), str(row)]
    return join_tokens(fields, "\t")
