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
  ``data/vassal-obstacles.json``, turned with the piece; when its rock layer shows the
  back image it is flipped, and the table's back-face point is used;
- the table is the map named ``Contested Sector`` when it holds ships or obstacles (the
  players' own maps hold ships not yet deployed), else the one map that does; the board
  the save chose for it (its BoardPicker command, :mod:`tabletop.app.clients.vassal_boards`)
  must be one of the module's 3'x3' boards, else the save is refused;
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
from typing import Any, cast

from tabletop.app.clients.archive import is_zip, read_optional_zip_entry, read_zip_entry
from tabletop.app.clients.facts import FACTS, fact_value, unconfirmed_texts
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
from tabletop.app.clients.recognise import VASSAL_ENTRY
from tabletop.app.clients.recognise import vassal_save as recognises
from tabletop.app.clients.vassal_boards import check_board
from tabletop.app.clients.vassal_codec import (
    COMMAND_SEPARATOR,
    flatten_commands,
    split_tokens,
    unwrap,
)
from tabletop.app.clients.vassal_pieces import Game, Piece

__all__ = ["read", "read_steps", "recognises", "to_scene_mm"]

_ENTRY = VASSAL_ENTRY
_SHIP_NAME = re.compile(r"^ship -- .*?\b(Small|Medium|Large)\b")
#: Facts every VASSAL import relies on (their unconfirmed texts go in the report).
_FACTS_USED = (
    "vassal_px_per_mm",
    "vassal_board_px",
    "vassal_table_map",
    "vassal_y_down",
    "vassal_player1_edge",
    "vassal_rotation_ccw",
    "vassal_ship_front",
    "vassal_ship_facings",
    "vassal_ship_base",
    "vassal_rotation_centre",
    "vassal_obstacle_offset",
)
#: The step `read` takes by default: the log's last.
_LAST = -1
#: Decimals kept of a converted coordinate (mm) and angle (degrees): far below a pixel.
_DECIMALS = 4


def to_scene_mm(x_px: float, y_px: float) -> tuple[float, float]:
    """Convert a VASSAL map position (pixels, y down) to the scene frame (mm, y up)."""
    per_mm = fact_value("vassal_px_per_mm")
    return x_px / per_mm, (fact_value("vassal_board_px") - y_px) / per_mm


@functools.cache
def _obstacle_table() -> dict[str, Any]:
    path = Path(__file__).parent / "data" / "vassal-obstacles.json"
    table: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))["pieces"]
    return table


_XML_TEXT = {
    key: re.compile(rf"<{key}>([^<]{{1,200}})</{key}>")
    for key in ("name", "version", "VassalVersion")
}


@dataclass(frozen=True)
class Module:
    """The module a save names in its ``moduledata`` entry (and VASSAL's version)."""

    name: str | None
    version: str | None
    vassal: str | None

    @property
    def stated(self) -> str | None:
        """Return the report's ``version``: ``module 9.4.3, VASSAL 3.7.14``, or None."""
        words = [
            f"{label} {value}"
            for label, value in (("module", self.version), ("VASSAL", self.vassal))
            if value is not None
        ]
        return ", ".join(words) or None


def _metadata(data: bytes, name: str) -> Module:
    """Return the module and VASSAL versions the save's ``moduledata`` entry states.

    VASSAL copies the module's metadata into every save (``build/module/metadata/
    SaveMetaData.java`` copies ``moduledata``; ``ModuleMetaData``: ``<name>`` and
    ``<version>`` the module's, ``<VassalVersion>``). An old save without it names
    nothing (VASSAL reads it as well); ``savedata`` then gives the versions it holds.
    """
    raw = read_optional_zip_entry(data, name, "moduledata")
    if raw is None:
        raw = read_optional_zip_entry(data, name, "savedata")
        if raw is None:
            return Module(None, None, None)
        text = raw.decode("utf-8", "replace")
        vassal = _XML_TEXT["VassalVersion"].search(text)
        return Module(None, None, vassal.group(1).strip() if vassal else None)
    text = raw.decode("utf-8", "replace")
    found = {key: pattern.search(text) for key, pattern in _XML_TEXT.items()}
    values = {key: (m.group(1).strip() or None) if m else None for key, m in found.items()}
    return Module(values["name"], values["version"], values["VassalVersion"])


def _normalised(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.lower())


def _check_module(module: Module, name: str) -> None:
    """Refuse a save of another module than the X-Wing module (by the name it states)."""
    if module.name is None:
        return
    wanted = str(FACTS["vassal_module_name"].value)
    if _normalised(module.name) != _normalised(wanted):
        version = f" {module.version}" if module.version else ""
        raise ClientFileError(
            f"a save of {module.name!r}{version}, not the X-Wing module: its moduledata "
            f"names that module; expected {wanted!r} (Mu0n/XWVassal)",
            file=name,
            entry="entry 'moduledata'",
            key="name",
        )


@dataclass(frozen=True)
class _Log:
    """A savedGame split into the commands of the position and of each logged step."""

    encoding: str
    restore: list[str]
    steps: list[list[str]]
    module: Module = Module(None, None, None)


def _savedgame_text(data: bytes, name: str) -> tuple[str, str]:
    raw = read_zip_entry(data, name, _ENTRY) if is_zip(data) else data
    return unwrap(raw, name, f"entry {_ENTRY!r}")


def _split_log(data: bytes, name: str) -> _Log:
    module = _metadata(data, name) if is_zip(data) else Module(None, None, None)
    _check_module(module, name)
    encoding, text = _savedgame_text(data, name)
    top = split_tokens(text, COMMAND_SEPARATOR)
    if not top or top[0] != "begin_save":
        raise ClientFileError(
            f"the saved game begins {top[0][:30]!r}: expected begin_save",
            file=name,
            entry=f"entry {_ENTRY!r}",
        )
    end = next((i for i, token in enumerate(top) if token == "end_save"), None)
    if end is None:
        raise ClientFileError(
            "the saved game has no end_save: a truncated save", file=name, entry=f"entry {_ENTRY!r}"
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
    return _Log(encoding, restore, steps, module)


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


def _shows_back(piece: Piece, entry: dict[str, Any]) -> bool:
    """Tell whether an obstacle piece shows its back: its rock layer is at its 2nd image.

    The layer is the Embellishment whose type lists the piece's two face images; its
    state is the image shown (``counters/Embellishment.java``: negative when the layer is
    off). Without such a layer the piece has one face.
    """
    if "flip" not in entry:
        return False
    images = ",".join(entry["flip"]["images"])
    for type_, state in piece.chain:
        if type_.startswith("emb2;") and f";{images};" in type_:
            level = split_tokens(state, ";")[0]
            return level.lstrip("-") == "2"
    return False


def _facing(piece: Piece, kind: str) -> tuple[float, bool, float, float]:
    """Return the angle or heading, flipped, and the token offset (mm) of a piece."""
    rotation = piece.rotation_deg()
    angle = rotation[0] if rotation is not None else 0.0
    if kind == "ship":
        return (90.0 + angle) % 360.0, False, 0.0, 0.0
    entry = _obstacle_table()[piece.name]
    flipped = _shows_back(piece, entry)
    cx, cy = entry["flipped_centroid_mm"] if flipped else entry["centroid_mm"]
    turn = math.radians(angle)
    dx = cx * math.cos(turn) - cy * math.sin(turn)
    dy = cx * math.sin(turn) + cy * math.cos(turn)
    return angle % 360.0, flipped, dx, dy


def _derived(piece: Piece) -> tuple[tuple[str, str] | str, tuple[float, bool, float, float]]:
    """Classification and facing of a piece, kept until its state changes."""
    cached = piece.cache.get("derived")
    if cached is None:
        kind = _classify(piece)
        facing = _facing(piece, kind[0]) if isinstance(kind, tuple) else (0.0, False, 0.0, 0.0)
        cached = piece.cache["derived"] = (kind, facing)
    return cast(tuple[tuple[str, str] | str, tuple[float, bool, float, float]], cached)


def _map_choice(game: Game, stacks: dict[str, Piece], table: str | None) -> str | None:
    counts: dict[str, int] = {}
    for piece in game.pieces.values():
        if isinstance(_derived(piece)[0], tuple):
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
    table_map = str(FACTS["vassal_table_map"].value)
    if table_map in counts:
        return table_map
    if len(counts) > 1:
        raise ClientFileError(
            "ships or obstacles stand on more than one map; choose one with --table: "
            + ", ".join(f"{m} ({n} pieces)" for m, n in counts.items()),
            file=game.file,
        )
    return next(iter(counts), None)


@dataclass(frozen=True)
class _Snapshot:
    """One position before the scene ids are known: objects by piece id."""

    chosen: str | None
    #: The chosen map's board as the save names it (a standard 3'x3' one), or None when
    #: the save names none.
    board: str | None
    #: (piece id, kind, became, x mm, y mm, angle, flipped)
    objects: tuple[tuple[str, str, str, float, float, float, bool], ...]
    skipped: tuple[Skipped, ...]


def _snapshot(game: Game, table: str | None) -> _Snapshot:
    stacks = game.stacks()
    chosen = _map_choice(game, stacks, table)
    board = None
    if chosen is not None and chosen in game.boards:
        board = check_board(chosen, game.boards[chosen], game.file)
    objects = []
    skipped: list[Skipped] = []
    for piece_id in game.order:
        piece = game.pieces.get(piece_id)
        if piece is None:
            continue
        kind, (angle, flipped, dx, dy) = _derived(piece)
        map_id, x_px, y_px = Game.position(piece, stacks)
        if isinstance(kind, str):
            if piece.core_type != "stack":
                skipped.append(Skipped(piece_id, piece.name, kind))
            continue
        if map_id != chosen:
            where = "on no map" if map_id == "null" else f"on map {map_id!r}, not the table"
            skipped.append(Skipped(piece_id, piece.name, where))
            continue
        x_mm, y_mm = to_scene_mm(x_px, y_px)
        objects.append((piece_id, kind[0], kind[1], x_mm + dx, y_mm + dy, angle, flipped))
    return _Snapshot(chosen, board, tuple(objects), tuple(skipped))


def _table_name(map_name: str) -> str:
    """Name the table and say how its board compares with the scene's area.

    Examples
    --------
    >>> _table_name("Contested Sector")
    "Contested Sector: a 2583 px board, 914.34 mm, 0.06 mm short of the scene's 914.4 mm (below the 0.354 mm resolution)"
    """
    board_mm = fact_value("vassal_board_px") / fact_value("vassal_px_per_mm")
    short = 914.4 - board_mm
    return (
        f"{map_name}: a {fact_value('vassal_board_px'):.0f} px board, {board_mm:.2f} mm, "
        f"{short:.2f} mm short of the scene's 914.4 mm (below the "
        f"{1.0 / fact_value('vassal_px_per_mm'):.3f} mm resolution)"
    )


def _finish(snapshot: _Snapshot, ids: dict[str, str], replay: _Replay) -> ClientImport:
    half = fact_value("vassal_board_px") / fact_value("vassal_px_per_mm") / 2.0
    imported = [
        Imported(
            ids[piece_id],
            piece_id,
            "ship" if kind == "ship" else "obstacle",
            round(x_mm, _DECIMALS),
            round(y_mm, _DECIMALS),
            round(angle, _DECIMALS) % 360.0,
            became,
            flipped,
            (1 if y_mm < half else 2) if kind == "ship" else None,
        )
        for piece_id, kind, became, x_mm, y_mm, angle, flipped in snapshot.objects
    ]
    flipped_any = any(entry[6] for entry in snapshot.objects)
    facts = [*_FACTS_USED, "vassal_obstacle_flipped"] if flipped_any else list(_FACTS_USED)
    facts.append("vassal_single_board" if snapshot.board is None else "vassal_board_choice")
    facts.append("vassal_module_name" if replay.module.name else "vassal_unnamed_module")
    chosen = snapshot.chosen
    table_name = None if chosen is None else _table_name(chosen)
    if table_name is not None and snapshot.board is not None:
        table_name += f"; board {snapshot.board!r}"
    return ClientImport(
        source=SourceInfo(
            "vassal-xwing",
            replay.format,
            replay.module.stated,
            module=replay.module.name,
        ),
        ruleset="xwing2",
        imported=tuple(imported),
        skipped=snapshot.skipped,
        table=None
        if chosen is None or table_name is None
        else {"source_id": chosen, "name": table_name},
        resolution=Resolution(
            round(1.0 / fact_value("vassal_px_per_mm"), 6),
            round(360.0 / fact_value("vassal_ship_facings"), 6),
        ),
        matches=(),
        unconfirmed=unconfirmed_texts(list(facts)),
    )


def _ids(game: Game) -> dict[str, str]:
    """Scene ids of every piece the file ever adds, in its order (stable at every step)."""
    names = [(game.names.get(piece_id, ""), piece_id) for piece_id in game.order]
    return dict(zip(game.order, unique_ids(names), strict=True))


def _description(said: list[str], commands: list[str]) -> str:
    if said:
        return said[0]
    kinds = [c[:2] for c in commands]
    parts = [
        f"{kinds.count(code)} {word}"
        for code, word in (("M/", "moved"), ("D/", "changed"), ("+/", "added"), ("-/", "removed"))
        if kinds.count(code)
    ]
    return ", ".join(parts) if parts else f"{len(commands)} other commands"


@dataclass(frozen=True)
class _Replay:
    format: str
    module: Module
    ids: dict[str, str]
    snapshots: dict[int, _Snapshot]
    descriptions: list[str]


def _replay(data: bytes, name: str, table: str | None, wanted: int | None) -> _Replay:
    """Play the file through, keeping the position of step `wanted`.

    `wanted` is a step number, None for every step, or :data:`_LAST` for the last. A step the log does not have is refused before any position is taken.
    """
    log = _split_log(data, name)
    last = len(log.steps)
    if wanted == _LAST:
        wanted = last
    if wanted is not None and not 0 <= wanted <= last:
        raise ClientFileError(f"--step {wanted}: the file has steps 0 to {last}", file=name)
    game = Game(name)
    for command in log.restore:
        game.apply(command)
    snapshots: dict[int, _Snapshot] = {}
    descriptions: list[str] = ["the position the log starts from"]
    if wanted in (None, 0):
        snapshots[0] = _snapshot(game, table)
    for number, commands in enumerate(log.steps, start=1):
        said = len(game.chat)
        for command in commands:
            game.apply(command)
        descriptions.append(_description(game.chat[said:], commands))
        if wanted is None or wanted == number:
            snapshots[number] = _snapshot(game, table)
    fmt = "vlog" if log.steps else "vsav"
    return _Replay(fmt, log.module, _ids(game), snapshots, descriptions)


def read(data: bytes, name: str, *, table: str | None, step: int | None) -> ClientImport:
    """Read one position of a VASSAL save or log (a log's `step`, by default its last).

    Raises
    ------
    ClientFileError
        For a damaged or oversized archive, a bad encoding, a malformed command, a step
        the log does not have, or ships on two maps without `table`.
    """
    replay = _replay(data, name, table, _LAST if step is None else step)
    return _finish(replay.snapshots[max(replay.snapshots)], replay.ids, replay)


def read_steps(data: bytes, name: str, *, table: str | None) -> tuple[Step, ...]:
    """Read every step of a VASSAL log: step 0 is the position it starts from.

    Each step names the imported objects whose pose it changed (``moved``) and says what
    happened: the first chat line it logged, else a count of its commands.
    """
    replay = _replay(data, name, table, None)
    positions = [_finish(replay.snapshots[n], replay.ids, replay) for n in sorted(replay.snapshots)]
    steps = []
    for number, position in enumerate(positions):
        before = {} if number == 0 else {i.id: i for i in positions[number - 1].imported}
        moved = tuple(
            i.id
            for i in position.imported
            if number > 0
            and (
                i.id not in before
                or (
                    before[i.id].x_mm,
                    before[i.id].y_mm,
                    before[i.id].angle_deg,
                    before[i.id].flipped,
                )
                != (i.x_mm, i.y_mm, i.angle_deg, i.flipped)
            )
        )
        steps.append(Step(number, replay.descriptions[number], moved, position))
    return tuple(steps)
