"""The board's "Nudge all" in a real browser: every fix made, as ``tabletop fix`` makes them.

The scene is the contested example (rock-a too near the bottom edge and rock-b) with a
third asteroid 190 mm up from the bottom edge. ``tabletop fix`` moves rock-a (settling
both of its violations) and then rock-c; the button must leave the obstacles exactly where
the command line's file puts them, legal, and one undo must take it all back.
A machine without Chromium or Playwright skips this file with one line saying why.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchmarks.board_browser import missing

REASON = missing()
if REASON is not None:
    pytest.skip(REASON, allow_module_level=True)

from board_support import ROOT, Opener, browser, cli, open_board, scene_file, scene_of, server  # noqa: E402

from benchmarks.board_browser import BoardServer, verdict_of, wait_idle  # noqa: E402

__all__ = ["browser", "open_board", "server"]  # fixtures, used by name


def crowded() -> dict[str, Any]:
    scene = scene_of(ROOT / "examples" / "xwing-contested.toml")
    scene["obstacles"].append({"id": "rock-c", "token": "coreasteroid2", "at": [500.0, 190.0]})
    return scene


def test_nudge_all_makes_every_fix_the_command_line_makes(
    open_board: Opener, server: BoardServer, tmp_path: Path
) -> None:
    scene = crowded()
    page = open_board(scene)
    before = server.scene()
    assert verdict_of(page)["legal"] is False
    code, fixed = cli("fix", str(scene_file(scene, tmp_path)), "-o", str(tmp_path / "out.json"))
    assert code == 0
    assert [m["object"] for m in fixed["moves"]] == ["rock-a", "rock-c"]
    button = page.locator("#verdict-banner [data-action=nudge-all]")
    assert button.is_visible()
    button.click()
    wait_idle(page)
    assert verdict_of(page) == {"legal": True, "violations": []}
    assert page.locator("#verdict-banner [data-action=nudge-all]").is_hidden()
    held = {o["id"]: o["at"] for o in server.scene()["obstacles"]}
    for move in fixed["moves"]:
        assert held[move["object"]] == move["to"]
    assert held["rock-b"] == [380.0, 300.0]
    assert "Nudged rock-a, rock-c (2 moves): legal." in page.locator("#status").text_content()
    # one change: one undo takes every move back
    page.keyboard.press("Control+z")
    wait_idle(page)
    assert server.scene() == before
