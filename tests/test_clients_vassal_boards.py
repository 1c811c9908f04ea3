"""VASSAL saves: the board a save chose for its table map is read, and only 3'x3' is taken.

Facts (tabletop/app/clients/facts.py): a save names a map's boards in the command
``<map id>BoardPicker`` followed by each board's name, column and row, tab-separated
(VASSAL's BoardPicker.encode); the X-Wing module's 3'x3' boards are 2583 x 2583 px, its
6'x3' epic boards 5166 x 2583, 3'x6' 2583 x 5166, 4'x4' 3444 and 5'x5' 4305 px square.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from clients_vassal_writer import VShip, board_command, saved_game, ship_command, vsav
from common import run

from tabletop.app.clients import ClientFileError, read_client
from tabletop.app.clients.vassal_boards import TABLE_BOARDS_PX
from tabletop.app.clients.vassal_boards import board_command as parse_board

WEDGE = VShip("s1", "Wedge", "Small", 100.0, 100.0, 90)
SINGLE_BOARD_TEXT = "names no board for its table map"
EPIC = "6'x3' (Epic) - Plain Black"
FOUR = "4'x4' - Plain Black"


def _save(tmp_path: Path, boards: list[str]) -> Path:
    path = tmp_path / "game.vsav"
    path.write_bytes(vsav(saved_game([*boards, ship_command(WEDGE)]), "xz"))
    return path


def test_the_command_is_read_as_vassal_writes_it() -> None:
    text = board_command([("3'x3' - TMC", 0, 0), ("3\u2019x3\u2019 Team Hooters", 1, 0)])
    assert text == "Map0BoardPicker\t3'x3' - TMC\t0\t0\t3\u2019x3\u2019 Team Hooters\t1\t0"
    assert parse_board(text) == (
        "Map0",
        (("3'x3' - TMC", 0, 0), ("3\u2019x3\u2019 Team Hooters", 1, 0)),
    )
    assert parse_board("Map0BoardPicker\t4'x4' - Plain Black/rev\t0\t0") == (
        "Map0",
        (("4'x4' - Plain Black/rev", 0, 0),),
    )


def test_the_module_offers_18_standard_boards_and_6_others() -> None:
    sizes = list(TABLE_BOARDS_PX.values())
    assert sizes.count((2583, 2583)) == 18
    assert sorted(s for s in sizes if s != (2583, 2583)) == [
        (2583, 5166), (2583, 5166), (3444, 3444), (4305, 4305), (5166, 2583), (5166, 2583),
    ]  # fmt: skip


@pytest.mark.parametrize("board", ["3'x3' - TMC", "3\u2019x3\u2019 - Royal Alderaan Flight Club"])
def test_a_standard_board_is_read_and_the_position_unchanged(tmp_path: Path, board: str) -> None:
    plain = read_client(_save(tmp_path, []))
    chosen = read_client(_save(tmp_path, [board_command([(board, 0, 0)])]))
    assert [(i.x_mm, i.y_mm, i.angle_deg) for i in chosen.imported] == [
        (i.x_mm, i.y_mm, i.angle_deg) for i in plain.imported
    ]
    assert chosen.table is not None
    assert f"board {board!r}" in chosen.table["name"]
    assert not any(SINGLE_BOARD_TEXT in text for text in chosen.unconfirmed)
    assert any(SINGLE_BOARD_TEXT in text for text in plain.unconfirmed)


@pytest.mark.parametrize(
    ("boards", "said"),
    [
        ([(EPIC, 0, 0)], f"{EPIC!r} (5166 x 2583 px"),
        ([("3'x6' - (Epic) Starfield", 0, 0)], "(2583 x 5166 px"),
        ([(FOUR, 0, 0)], f"{FOUR!r} (3444 x 3444 px"),
        ([("3'x3' - TMC", 1, 0)], "(2583 x 2583 px at column 1, row 0)"),
        ([("3'x3' - TMC", 0, 0), ("3'x3' - Jehda", 1, 0)], "holds 2 boards"),
        ([("Homemade 3x3", 0, 0)], "'Homemade 3x3', which is none of the module's table boards"),
    ],
)
def test_other_boards_are_refused(
    tmp_path: Path, boards: list[tuple[str, int, int]], said: str
) -> None:
    path = _save(tmp_path, [board_command(boards)])
    with pytest.raises(ClientFileError, match="BoardPicker") as caught:
        read_client(path)
    assert said in str(caught.value)
    out = tmp_path / "scene.toml"
    code, _, err = run("import", str(path), "-o", str(out))
    assert code == 2
    assert str(path) in err
    assert said in err
    assert "Traceback" not in err
    assert not out.exists()


def test_a_board_of_another_map_is_not_the_table_s(tmp_path: Path) -> None:
    other = board_command([("Player 1", 0, 0)], map_id="Player 1")
    position = read_client(_save(tmp_path, [other]))
    assert [i.id for i in position.imported] == ["Wedge"]
    assert any(SINGLE_BOARD_TEXT in text for text in position.unconfirmed)
