r"""The boards of the VASSAL X-Wing module's table map, and the board a save chose.

A save records the boards of each map in its BoardPicker command (VASSAL's
``BoardPicker.encode``): the map's id followed by ``BoardPicker``, then, tab-separated,
each board's name (``/rev`` appended when reversed) and its column and row. The module's
table map, ``Contested Sector``, offers the boards of :data:`TABLE_BOARDS_PX`; only its
3'x3' boards match the scene's play area, so a save on another board is refused rather
than placed wrongly.

Examples
--------
>>> board_command("Contested SectorBoardPicker\t3'x3' - TMC\t0\t0")
('Contested Sector', (("3'x3' - TMC", 0, 0),))
>>> board_command("CHAT hello") is None
True
"""

from __future__ import annotations

from tabletop.app.clients.model import ClientFileError
from tabletop.app.clients.vassal_codec import split_tokens

__all__ = ["TABLE_BOARDS_PX", "board_command", "check_board"]

_ID = "BoardPicker"
#: Board name -> (width, height) in pixels: the boards of the map ``Contested Sector``
#: in the module's ``buildFile.xml``; a board drawn from an image has that image's size
#: (every 3'x3' image of the module is 2583 x 2583 px).
TABLE_BOARDS_PX: dict[str, tuple[int, int]] = {
    **dict.fromkeys(
        (
            "3'x3' - Plain Black",
            "3'x3' - Frog Squadron",
            "3'x3' - TMC",
            "3'x3' - Jehda",
            "3'x3' - Mustafar",
            "3'x3' - Kamino",
            "3'x3' - Voros Otos Nebula",
            "3'x3' - Pittsburgh X-Wing",
            "3’x3’ Team Hooters",
            "3'x3' - Gold Squadron Podcast",
            "3'x3' - Mynock Squadron Podcast (Mustafar)",
            "3'x3' - Scum & Villainy Podcast",
            "3'x3' - Team Jawa",
            "3’x3’ - Royal Alderaan Flight Club",
            "3'x3' - Starfield - Light",
            "3'x3' - Teal Nebula",
            "3'x3' - Starfield - Deep Space",
            "3'x3' - Starfield (Classic)",
        ),
        (2583, 2583),
    ),
    "6'x3' (Epic) - Plain Black": (5166, 2583),
    "6'x3' - (Epic) Starfield": (5166, 2583),
    "3'x6' (Epic) - Plain Black": (2583, 5166),
    "3'x6' - (Epic) Starfield": (2583, 5166),
    "4'x4' - Plain Black": (3444, 3444),
    "5'x5' - Plain Black": (4305, 4305),
}
#: The standard board's side, pixels.
_STANDARD_PX = (2583, 2583)


def board_command(command: str) -> tuple[str, tuple[tuple[str, int, int], ...]] | None:
    """Return (map id, boards as (name, column, row)) of a BoardPicker command, else None.

    A reversed board keeps its ``/rev`` mark in its name, so that it is never taken for
    the board itself.
    """
    tokens = split_tokens(command, "\t")
    if not tokens[0].endswith(_ID):
        return None
    boards = []
    rest = tokens[1:]
    for start in range(0, len(rest) - 2, 3):
        name_parts = split_tokens(rest[start], "/")
        name = name_parts[0] + ("/rev" if name_parts[1:] == ["rev"] else "")
        column, row = (
            int(v) if v.lstrip("-").isdigit() else -1 for v in rest[start + 1 : start + 3]
        )
        boards.append((name, column, row))
    return tokens[0][: -len(_ID)], tuple(boards)


def check_board(map_id: str, boards: tuple[tuple[str, int, int], ...], file: str) -> str:
    """Return the name of the standard 3'x3' board a map holds, or refuse the save.

    Raises
    ------
    ClientFileError
        When the map holds no board, several boards, or one that is not a 2583 x 2583 px
        board of the module at column 0, row 0 (an epic, 4'x4' or 5'x5' board would put
        every piece at the wrong place on the scene's 3'x3' area).
    """
    listed = ", ".join(f"{name!r} at column {col}, row {row}" for name, col, row in boards)
    if len(boards) != 1:
        raise ClientFileError(
            f"the map {map_id!r} holds {len(boards)} boards ({listed or 'none'}): only one "
            "standard 3'x3' board can be imported",
            file=file,
            entry=f"{map_id}{_ID}",
        )
    name, column, row = boards[0]
    size = TABLE_BOARDS_PX.get(name)
    if size is None:
        raise ClientFileError(
            f"the map {map_id!r} uses the board {name!r}, which is none of the module's "
            "table boards: its size is not known",
            file=file,
            entry=f"{map_id}{_ID}",
        )
    if size != _STANDARD_PX or (column, row) != (0, 0):
        raise ClientFileError(
            f"the map {map_id!r} uses the board {name!r} ({size[0]} x {size[1]} px at column "
            f"{column}, row {row}): only the standard 3'x3' boards (2583 x 2583 px) are "
            "imported; epic and larger boards are not",
            file=file,
            entry=f"{map_id}{_ID}",
        )
    return name
