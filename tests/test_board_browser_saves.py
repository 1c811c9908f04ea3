"""Client saves on the board's page, in headless Chromium against the real server.

A Tabletop Simulator save and VASSAL saves and a log (written by the test writers from the
format facts) loaded through the page's load control: every object ``tabletop import``
imports is on the mat at its pose to 0.01 mm, and the verdict is ``tabletop check``'s on
the save itself. A board served ``--read-only`` on a save refuses a drag with the
server's message, puts the piece back and saves nothing.
A machine without Chromium or Playwright skips this file with one line saying why.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from benchmarks.board_browser import missing

REASON = missing()
if REASON is not None:
    pytest.skip(REASON, allow_module_level=True)

from agreement import assert_agree  # noqa: E402
from board_saves import (  # noqa: E402
    TTS_RED_BLUE,
    angle_gap,
    tts_one_mat,
    tts_two_mats,
    vassal_log,
    vassal_save,
)
from board_support import (  # noqa: E402
    TOURNAMENT,
    Opener,
    browser,
    cli,
    open_board,
    scene_of,
    server,
)

from benchmarks.board_browser import (  # noqa: E402
    BoardServer,
    cli_verdict,
    drag,
    open_page,
    pose,
    verdict_of,
    wait_idle,
)

__all__ = ["browser", "open_board", "server"]  # fixtures, used by name

#: What the server answers a change or a save of a read-only board.
READ_ONLY = (
    "the board is read-only (started with --read-only): it takes no changes and saves nothing"
)
#: Each save the page loads, written into a folder: (file name, writer).
SAVES: dict[str, tuple[str, Callable[[Path], Path]]] = {
    "tts": ("game.json", tts_one_mat),
    "vsav-xz": ("game.vsav", lambda p: vassal_save(p, "xz")),
    "vsav-obfuscated": ("game.vsav", lambda p: vassal_save(p, "obfuscated")),
    "vsav-plain": ("game.vsav", lambda p: vassal_save(p, "plain")),
    "vlog": ("game.vlog", vassal_log),
}


def assert_shows_every_imported_object(page: Any, report: dict[str, Any]) -> None:
    """Every object of an import report is on the mat, at its pose to 0.01 mm, and no other."""
    imported = report["imported"]
    assert imported, "the save imports nothing"
    assert page.locator("#mat [data-kind]").count() == len(imported)
    for entry in imported:
        piece = page.locator(f'#mat [data-id="{entry["id"]}"]')
        assert piece.get_attribute("data-kind") == entry["kind"]
        x, y, angle = pose(page, entry["id"])
        assert abs(x - entry["at"][0]) <= 0.01, entry["id"]
        assert abs(y - entry["at"][1]) <= 0.01, entry["id"]
        wanted = entry["heading"] if entry["kind"] == "ship" else entry["angle"]
        assert angle_gap(angle, wanted) <= 0.01, entry["id"]


@pytest.mark.parametrize("kind", list(SAVES))
def test_the_load_control_opens_a_client_save_with_every_object_at_its_pose(
    open_board: Opener, server: BoardServer, tmp_path: Path, kind: str
) -> None:
    name, write = SAVES[kind]
    path = write(tmp_path / name)
    original = path.read_bytes()
    page = open_board(scene_of(TOURNAMENT))
    page.locator("#file-input").set_input_files(str(path))
    wait_idle(page)
    assert page.locator("#status").text_content() == f"Loaded {name}."
    _, report = cli("import", str(path))
    assert_shows_every_imported_object(page, report)
    assert server.scene() == report["scene"]
    code, checked = cli("check", str(path))
    assert_agree(verdict_of(page), cli_verdict(checked))
    assert code == (0 if checked["legal"] else 1)
    assert path.read_bytes() == original
    # one undo step: the board before the load comes back
    page.locator("[data-action=undo]").click()
    wait_idle(page)
    assert server.scene() == scene_of(TOURNAMENT)


def test_a_save_the_reader_refuses_leaves_the_board_and_says_why(
    open_board: Opener, server: BoardServer, tmp_path: Path
) -> None:
    path = tts_two_mats(tmp_path / "two.json")  # two mats with pieces: needs --table
    page = open_board(scene_of(TOURNAMENT))
    before = server.scene_text()
    open_board.allow("400")
    page.locator("#file-input").set_input_files(str(path))
    wait_idle(page)
    status = page.locator("#status").text_content()
    assert status.startswith("Load two.json: ")
    assert "m1 'Red-Blue': 4 pieces" in status
    assert "--table" in status
    assert server.scene_text() == before


def test_read_only_on_a_save_refuses_a_drag_with_the_servers_message(
    browser: Any, tmp_path: Path
) -> None:
    folder = tmp_path / "game"
    folder.mkdir()
    path = tts_two_mats(folder / "game.json")
    original = path.read_bytes()
    errors: list[str] = []
    with BoardServer(path, ["--read-only", "--table", "m1"]) as read_only:
        page = open_page(browser, read_only.url, errors)
        before = read_only.scene_text()
        _, report = cli("import", str(path), "--table", "m1")
        assert_shows_every_imported_object(page, report)
        rock = next(p.id for p in TTS_RED_BLUE if p.kind == "obstacle")
        start = pose(page, rock)
        drag(page, rock, 120.0, 40.0)
        wait_idle(page)
        # the server's refusal, where and why, as it answered it
        assert page.locator("#status").text_content() == f"Not changed: PUT /api/scene: {READ_ONLY}"
        assert pose(page, rock) == start  # put back where the server has it
        assert read_only.scene_text() == before
        assert page.locator("[data-action=undo]").is_disabled()
        page.locator("[data-action=save]").click()
        page.locator("#status", has_text="Save:").wait_for()
        assert page.locator("#status").text_content() == f"Save: POST /api/save: {READ_ONLY}"
        page.close()
    assert path.read_bytes() == original
    assert [p.name for p in folder.iterdir()] == ["game.json"]  # nothing saved beside it
    # the browser logs each refused request (403); nothing else went wrong
    assert errors, "the refusals were not logged"
    assert all("403" in e for e in errors), errors
