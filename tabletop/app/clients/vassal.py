"""VASSAL X-Wing saves and logs (``.vsav``, ``.vlog``) in: ships and obstacles on the map.

A save is a zip holding a ``savedGame`` entry, read within the bounds of
:mod:`tabletop.app.clients.archive`; the entry is XZ, obfuscated (``!VCSK``) or plain
text (:mod:`tabletop.app.clients.vassal_codec`), a sequence of ESC-joined commands:
``begin_save``, the commands that add every piece, ``end_save``, and, in a log, one
``LOG`` entry per step (:mod:`tabletop.app.clients.vassal_pieces`). Step 0 is the
position the log starts from; step N the position after its N-th entry, what VASSAL's
step-forward button plays.

Conversions (each a fact of :mod:`tabletop.app.clients.facts`):

- pixels to mm: divide by 2.825; a 3'x3' board is 2583 px (914.34 mm). VASSAL's y grows
  downward and player 1's edge is taken to be the bottom of the map, so the scene's
  ``x = x_px / 2.825`` and ``y = (2583 - y_px) / 2.825``;
- a FreeRotator angle turns a piece counter-clockwise on screen, which is
  counter-clockwise in the scene; a ship at angle 0 faces up the screen, so its heading
  is ``90 + angle``; an obstacle's angle is the angle;
- a ship is a piece named ``ship -- Stem2e Small|Medium|Large … Ship``; its id is its
  ``Pilot Name`` property (else its piece name), its source id the piece id;
- an obstacle is a piece whose name ``mic/Obstacles.java`` (or a catalog label) names;
  its reference point is the piece's position plus the mask centroid of
  ``data/vassal-obstacles.json``, turned with the piece;
- resolution: whole pixels (1/2.825 = 0.354 mm), and for ships whole degrees.

Examples
--------
>>> round(to_scene_mm(0, 0)[1], 2), round(to_scene_mm(2583, 2583)[0], 2)
(914.34, 914.34)
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletop.app.clients.archive import is_zip, read_zip_entry
from tabletop.app.clients.facts import fact_value, unconfirmed_texts
from tabletop.app.clients.model import (
    ClientFileError,
    ClientImport,
    Imported,
    Resolution,
    Skipped,
    SourceInfo,
    Step,
    unique_ids,
)
from tabletop.app.clients.vassal_codec import (
    COMMAND_SEPARATOR,
    flatten_commands,
    split_tokens,
    unwrap,
)
from tabletop.app.clients.vassal_pieces import Game, Piece

__all__ = ["read", "read_steps", "recognises", "to_scene_mm"]

_ENTRY = "savedGame"
_SHIP_NAME = re.compile(r"^ship -- .*?\b(Small|Medium|Large)\b")
#: Facts every VASSAL import relies on (their unconfirmed texts go in the report).
_FACTS_USED = (
    "vassal_px_per_mm",
    "vassal_board_px",
    "vassal_single_board",
    "vassal_y_down",
    "vassal_player1_edge",
    "vassal_rotation_ccw",
    "vassal_ship_front",
    "vassal_ship_facings",
    "vassal_ship_base",
    "vassal_rotation_centre",
    "vassal_obstacle_offset",
)
#: Decimals kept of a converted coordinate (mm) and angle (degrees): far below a pixel.
_DECIMALS = 4


def recognises(data: bytes) -> bool:
    r"""Tell whether `data` is a VASSAL save or log (or a bare savedGame text).

    Examples
    --------
    >>> recognises(b"!VCSK00"), recognises(b"begin_save\x1bend_save"), recognises(b"{}")
    (True, True, False)
    """
    if is_zip(data):
        return _ENTRY.encode() in data
    return data.startswith((b"!VCSK", b"begin_save" + COMMAND_SEPARATOR.encode()))


def to_scene_mm(x_px: float, y_px: float) -> tuple[float, float]:
    """Convert a VASSAL map position (pixels, y down) to the scene frame (mm, y up)."""
    per_mm = fact_value("vassal_px_per_mm")
    return x_px / per_mm, (fact_value("vassal_board_px") - y_px) / per_mm


@functools.cache
def _obstacle_table() -> dict[str, Any]:
    path = Path(__file__).parent / "data" / "vassal-obstacles.json"
    table: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))["pieces"]
    return table


@dataclass(frozen=True)
class _Log:
    """A savedGame split into the commands of the position and of each logged step."""

    encoding: str
    restore: list[str]
    steps: list[list[str]]


def _savedgame_text(data: bytes, name: str) -> tuple[str, str]:
    raw = read_zip_entry(data, name, _ENTRY) if is_zip(data) else data
    return unwrap(raw, name, f"entry {_ENTRY!r}")


def _split_log(data: bytes, name: str) -> _Log:
    encoding, text = _savedgame_text(data, name)
    top = split_tokens(text, COMMAND_SEPARATOR)
    if not top or top[0] != "begin_save":
        raise ClientFileError(
            f"the saved game begins {top[0][:30]!r}: expected begin_save", file=name, entry=_ENTRY
        )
    end = next((i for i, token in enumerate(top) if token == "end_save"), None)
    if end is None:
        raise ClientFileError(
            "the saved game has no end_save: a truncated save", file=name, entry=_ENTRY
        )
    restore = [c for token in top[1:end] for c in flatten_commands(token)]
    steps = []
    for token in top[end + 1 :]:
        commands = []
        for leaf in flatten_commands(token):
            if leaf.startswith("LOG\t"):
                commands.extend(flatten_commands(leaf[4:]))
            elif not leaf.startswith("UNDO\t"):
                commands.append(leaf)
        steps.append(commands)
    return _Log(encoding, restore, steps)


def _classify(piece: Piece) -> tuple[str, str] | str:
    """Return ``(kind, became)`` for a ship or an obstacle, else the reason it is skipped."""
    if not piece.is_basic:
        kind = piece.core_type.split(";", 1)[0]
        return f"a {kind}: its pieces are read one by one" if kind == "stack" else f"a {kind}"
    name = piece.name
    ship = _SHIP_NAME.match(name)
    if ship is not None:
        return "ship", ship.group(1).lower()
    if name in _obstacle_table():
        return "obstacle", str(_obstacle_table()[name]["token"])
    if piece.has_marker("this_is_a_ship"):
        return "a ship whose piece does not name its base size"
    return "not a ship or an obstacle of the catalog"


def _pose(piece: Piece, kind: str, x_px: int, y_px: int) -> tuple[float, float, float, bool]:
    rotation = piece.rotation_deg()
    angle = rotation[0] if rotation is not None else 0.0
    x_mm, y_mm = to_scene_mm(x_px, y_px)
    if kind == "ship":
        return x_mm, y_mm, (90.0 + angle) % 360.0, False
    flipped = piece.property("whichShape") == "2"
    cx, cy = _obstacle_table()[piece.name]["centroid_mm"]
    if flipped:
        cx = -cx
    turn = math.radians(angle)
    x_mm += cx * math.cos(turn) - cy * math.sin(turn)
    y_mm += cx * math.sin(turn) + cy * math.cos(turn)
    return x_mm, y_mm, angle % 360.0, flipped


def _map_choice(
    game: Game, kinds: dict[str, tuple[str, str] | str], table: str | None
) -> str | None:
    stacks = game.stacks()
    counts: dict[str, int] = {}
    for piece in game.pieces.values():
        if isinstance(kinds[piece.id], tuple):
            map_id = Game.position(piece, stacks)[0]
            if map_id != "null":
                counts[map_id] = counts.get(map_id, 0) + 1
    if table is not None:
        if table not in counts and table not in {p.map_id for p in game.pieces.values()}:
            raise ClientFileError(
                f"--table {table!r} is no map of this save; its maps with ships or obstacles: "
                + (", ".join(f"{m} ({n} pieces)" for m, n in counts.items()) or "none"),
                file=game.file,
            )
        return table
    if len(counts) > 1:
        raise ClientFileError(
            "ships or obstacles stand on more than one map; choose one with --table: "
            + ", ".join(f"{m} ({n} pieces)" for m, n in counts.items()),
            file=game.file,
        )
    return next(iter(counts), None)


def _position(game: Game, ids: dict[str, str], table: str | None, fmt: str) -> ClientImport:
    kinds = {piece.id: _classify(piece) for piece in game.pieces.values()}
    chosen = _map_choice(game, kinds, table)
    stacks = game.stacks()
    imported: list[Imported] = []
    skipped: list[Skipped] = []
    half = fact_value("vassal_board_px") / fact_value("vassal_px_per_mm") / 2.0
    flipped_any = False
    for piece_id in game.order:
        piece = game.pieces.get(piece_id)
        if piece is None:
            continue
        kind = kinds[piece_id]
        map_id, x_px, y_px = Game.position(piece, stacks)
        if isinstance(kind, str):
            if piece.core_type != "stack":
                skipped.append(Skipped(piece_id, piece.name, kind))
            continue
        if map_id != chosen:
            where = "on no map" if map_id == "null" else f"on map {map_id!r}, not the table"
            skipped.append(Skipped(piece_id, piece.name, where))
            continue
        x_mm, y_mm, angle, flipped = _pose(piece, kind[0], x_px, y_px)
        flipped_any = flipped_any or flipped
        player = (1 if y_mm < half else 2) if kind[0] == "ship" else None
        imported.append(
            Imported(
                ids[piece_id],
                piece_id,
                "ship" if kind[0] == "ship" else "obstacle",
                round(x_mm, _DECIMALS),
                round(y_mm, _DECIMALS),
                round(angle, _DECIMALS) % 360.0,
                kind[1],
                flipped,
                player,
            )
        )
    facts = (*_FACTS_USED, "vassal_obstacle_flipped") if flipped_any else _FACTS_USED
    return ClientImport(
        source=SourceInfo("vassal-xwing", fmt, None),
        ruleset="xwing2",
        imported=tuple(imported),
        skipped=tuple(skipped),
        table=None if chosen is None else {"source_id": chosen, "name": f"VASSAL map {chosen}"},
        resolution=Resolution(
            round(1.0 / fact_value("vassal_px_per_mm"), 6),
            round(360.0 / fact_value("vassal_ship_facings"), 6),
        ),
        matches=(),
        unconfirmed=unconfirmed_texts(list(facts)),
    )


def _ids(game: Game) -> dict[str, str]:
    """Scene ids of every piece the file ever adds, in its order (stable at every step)."""
    names = []
    for piece_id in game.order:
        piece = game.pieces.get(piece_id)
        name = "" if piece is None else (piece.property("Pilot Name") or piece.name)
        names.append((name, piece_id))
    return dict(zip(game.order, unique_ids(names), strict=True))


def _replay(data: bytes, name: str) -> tuple[_Log, list[Game]]:
    """Return the log and the game after each step (index 0: the starting position)."""
    log = _split_log(data, name)
    game = Game(name)
    for command in log.restore:
        game.apply(command)
    games = [_copy(game)]
    for commands in log.steps:
        for command in commands:
            game.apply(command)
        games.append(_copy(game))
    return log, games


def _copy(game: Game) -> Game:
    pieces = {
        k: Piece(p.id, list(p.chain), p.map_id, p.x_px, p.y_px, p.file)
        for k, p in game.pieces.items()
    }
    return Game(game.file, pieces, list(game.order), list(game.chat))


def _all_ids(games: list[Game]) -> dict[str, str]:
    last = games[-1]
    merged = Game(last.file, dict(last.pieces), list(last.order))
    for game in games:
        for piece_id, piece in game.pieces.items():
            merged.pieces.setdefault(piece_id, piece)
    return _ids(merged)


def read(data: bytes, name: str, *, table: str | None, step: int | None) -> ClientImport:
    """Read one position of a VASSAL save or log (a log's `step`, by default its last).

    Raises
    ------
    ClientFileError
        For a damaged or oversized archive, a bad encoding, a malformed command, a step
        the log does not have, or ships on two maps without `table`.
    """
    log, games = _replay(data, name)
    fmt = "vlog" if log.steps else "vsav"
    if step is not None and not 0 <= step < len(games):
        raise ClientFileError(f"--step {step}: the file has steps 0 to {len(games) - 1}", file=name)
    index = len(games) - 1 if step is None else step
    return _position(games[index], _all_ids(games), table, fmt)


def _description(game_before: Game, game_after: Game, commands: list[str]) -> str:
    said = game_after.chat[len(game_before.chat) :]
    if said:
        return said[0]
    kinds = [c[:2] for c in commands]
    parts = [
        f"{kinds.count(code)} {word}"
        for code, word in (("M/", "moved"), ("D/", "changed"), ("+/", "added"), ("-/", "removed"))
        if kinds.count(code)
    ]
    return ", ".join(parts) if parts else f"{len(commands)} other commands"


def read_steps(data: bytes, name: str, *, table: str | None) -> tuple[Step, ...]:
    """Read every step of a VASSAL log: step 0 is the position it starts from.

    Each step names the imported objects whose pose it changed (``moved``) and says what
    happened: the first chat line it logged, else a count of its commands.
    """
    log, games = _replay(data, name)
    fmt = "vlog" if log.steps else "vsav"
    ids = _all_ids(games)
    positions = [_position(game, ids, table, fmt) for game in games]
    steps = [Step(0, "the position the log starts from", (), positions[0])]
    for number in range(1, len(games)):
        before = {i.id: i for i in positions[number - 1].imported}
        moved = tuple(
            i.id
            for i in positions[number].imported
            if before.get(i.id) is None
            or (before[i.id].x_mm, before[i.id].y_mm, before[i.id].angle_deg, before[i.id].flipped)
            != (i.x_mm, i.y_mm, i.angle_deg, i.flipped)
        )
        description = _description(games[number - 1], games[number], log.steps[number - 1])
        steps.append(Step(number, description, moved, positions[number]))
    return tuple(steps)
