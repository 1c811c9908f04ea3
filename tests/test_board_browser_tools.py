"""The board's tools in a real browser: files in and out, the palette, the rotate handle,
the near-limit margins on hover, contested marks, the table's menus.

Headless Chromium against the real server; a machine without Chromium or Playwright
skips this file with one line saying why.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from benchmarks.board_browser import missing

REASON = missing()
if REASON is not None:
    pytest.skip(REASON, allow_module_level=True)

from agreement import assert_agree  # noqa: E402
from board_support import (  # noqa: E402
    EXAMPLES,
    TOURNAMENT,
    Opener,
    browser,
    cli,
    open_board,
    scene_file,
    scene_of,
    server,
)

from benchmarks.board_browser import (  # noqa: E402
    BoardServer,
    cli_verdict,
    client_point,
    pose,
    verdict_of,
    wait_idle,
)

__all__ = ["browser", "open_board", "server"]  # fixtures, used by name


def test_load_a_scene_file_makes_it_the_board_and_undo_takes_it_back(
    open_board: Opener, server: BoardServer
) -> None:
    page = open_board(scene_of(TOURNAMENT))
    before = server.scene_text()
    contested = next(p for p in EXAMPLES if p.stem == "xwing-contested")
    page.locator("#file-input").set_input_files(str(contested))
    wait_idle(page)
    assert server.scene() == scene_of(contested)
    ids = {e["id"] for e in [*scene_of(contested)["obstacles"], *scene_of(contested)["ships"]]}
    shown = set(page.locator("#mat [data-kind]").evaluate_all("ps => ps.map(p => p.dataset.id)"))
    assert shown == ids
    assert_agree(verdict_of(page), cli_verdict(cli("check", str(contested))[1]))
    page.locator("[data-action=undo]").click()
    wait_idle(page)
    assert server.scene_text().split(b'"scene"')[1] == before.split(b'"scene"')[1]


def test_a_bad_file_is_refused_with_the_server_message(
    open_board: Opener, server: BoardServer, tmp_path: Path
) -> None:
    page = open_board(scene_of(TOURNAMENT))
    before = server.scene_text()
    bad = tmp_path / "bad.toml"
    bad.write_text('ruleset = "xwing2"\n[[obstacles]]\nid = "a"\nat = [1, 2]\n', "utf-8")
    open_board.allow("status of 400")  # the server refuses the file: that is the test
    page.locator("#file-input").set_input_files(str(bad))
    page.wait_for_selector("#status.error")
    assert "bad.toml" in page.locator("#status").text_content()
    assert server.scene_text() == before


def test_save_writes_the_board_to_its_file(
    open_board: Opener, server: BoardServer, tmp_path: Path
) -> None:
    page = open_board(scene_of(TOURNAMENT))
    page.locator('#mat [data-id="gas-f"]').click()
    page.locator("[data-action=rotate-right]").click()
    wait_idle(page)
    page.locator("[data-action=save]").click()
    page.wait_for_selector("#status:has-text('Saved to')")
    assert server.start_file is not None
    with server.start_file.open("rb") as file:
        saved = tomllib.load(file)
    assert {o["id"]: o for o in saved["obstacles"]}["gas-f"]["angle"] == 75.0
    assert_agree(verdict_of(page), cli_verdict(cli("check", str(server.start_file))[1]))


def test_the_palette_adds_every_base_and_a_token_of_every_kind(
    open_board: Opener, server: BoardServer, tmp_path: Path
) -> None:
    page = open_board({"ruleset": "xwing2"})
    options = page.locator("[data-input=piece] option").evaluate_all(
        "os => os.map(o => [o.value, o.parentElement.label])"
    )
    bases = [value for value, _ in options if value.startswith("base:")]
    assert [b.removeprefix("base:") for b in bases] == [
        "small",
        "medium",
        "large",
        "huge",
        "huge-short",
    ]
    kinds: dict[str, str] = {}
    for value, group in options:
        kinds.setdefault(group, value)
    chosen = bases + [v for g, v in kinds.items() if g != "ship bases"]
    for number, value in enumerate(chosen):
        page.locator("[data-input=piece]").select_option(value)
        page.locator("[data-input=player]").select_option(str(1 + number % 2))
        page.locator("[data-action=add]").click()
        wait_idle(page)
    held = server.scene()
    assert [s["base"] for s in held["ships"]] == [b.removeprefix("base:") for b in bases]
    tokens = [v.removeprefix("token:") for v in chosen if v.startswith("token:")]
    assert [o["token"] for o in held["obstacles"]] == tokens
    assert page.locator("#mat [data-kind=ship]").count() == len(bases)
    assert page.locator("#mat [data-kind=obstacle]").count() == len(tokens)
    assert_agree(verdict_of(page), cli_verdict(cli("check", str(scene_file(held, tmp_path)))[1]))


def test_the_handle_turns_the_piece_to_the_pointer(open_board: Opener, server: BoardServer) -> None:
    page = open_board(scene_of(TOURNAMENT))
    x, y, _ = pose(page, "debris-e")
    page.locator('#mat [data-id="debris-e"]').click()
    knob = page.locator("#handle [data-handle=rotate]")
    box = knob.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    # straight up on the table from the piece's centre: 90°
    page.mouse.move(*client_point(page, x, y + 80.0), steps=6)
    page.mouse.up()
    wait_idle(page)
    assert pose(page, "debris-e") == (x, y, 90.0)
    assert {o["id"]: o for o in server.scene()["obstacles"]}["debris-e"]["angle"] == 90.0


def test_hover_shows_the_margins_near_the_limit(open_board: Opener, server: BoardServer) -> None:
    scene = scene_of(TOURNAMENT)
    page = open_board(scene)
    _, report = cli("check", str(TOURNAMENT), "--margins")
    near = [
        m
        for m in report["margins"]
        if 0 <= m["margin"] <= 25.4 and "falcon" in m["objects"] and m["points"]
    ]
    assert near
    page.locator('#mat [data-id="falcon"]').hover()
    lines = page.locator("#margins .verdict-line.near")
    assert lines.count() == len(near)
    words = page.locator("#overlay-labels").text_content()
    for margin in near:
        assert f"margin +{margin['margin']:.1f} mm" in words
    assert page.locator("#near-limits li").count() == sum(
        1 for m in report["margins"] if 0 <= m["margin"] <= 25.4
    )


def test_a_contested_violation_is_marked_in_words_and_on_the_mat(
    open_board: Opener, server: BoardServer, tmp_path: Path
) -> None:
    # an asteroid 199.5 mm from the bottom edge: 0.5 mm inside the 200 mm line, contested
    scene: dict[str, Any] = {
        "ruleset": "xwing2",
        "obstacles": [{"id": "rock", "token": "coreasteroid0", "at": [450.0, 300.0]}],
    }
    _, report = cli("check", str(scene_file(scene, tmp_path)), "--margins")
    (edge,) = [m for m in report["margins"] if m["rule"] == "obstacle-edge"]
    assert edge["points"][1][1] == 0.0  # measured to the bottom edge
    scene["obstacles"][0]["at"][1] = 300.0 + 199.5 - edge["distance"]
    _, report = cli("check", str(scene_file(scene, tmp_path)))
    (violation,) = report["violations"]
    assert violation["contested"] is True
    assert abs(violation["margin"] + 0.5) < 1e-6
    page = open_board(scene)
    item = page.locator("#verdict [data-rule=obstacle-edge]")
    assert item.get_attribute("data-contested") == "true"
    assert "CONTESTED" in item.text_content()
    assert page.locator("#overlay .verdict-line.contested").count() == 1
    assert (
        "199.5 mm, must be > 200.0 mm · contested" in page.locator("#overlay-labels").text_content()
    )


def test_the_menus_change_the_ruleset_and_format_undoably(
    open_board: Opener, server: BoardServer, tmp_path: Path
) -> None:
    page = open_board(scene_of(TOURNAMENT))
    page.locator("[data-input=ruleset]").select_option("xwing1")
    wait_idle(page)
    page.locator("[data-input=format]").select_option("standard")
    wait_idle(page)
    held = server.scene()
    assert (held["ruleset"], held["format"]) == ("xwing1", "standard")
    assert_agree(verdict_of(page), cli_verdict(cli("check", str(scene_file(held, tmp_path)))[1]))
    assert page.locator("#frame .ruler").get_attribute("data-ruler") == "range"
    page.keyboard.press("Control+z")
    wait_idle(page)
    page.keyboard.press("Control+z")
    wait_idle(page)
    assert json.dumps(server.scene()) == json.dumps(scene_of(TOURNAMENT))


def test_a_second_tab_shows_the_change_made_in_the_first(
    open_board: Opener, server: BoardServer
) -> None:
    first = open_board(scene_of(TOURNAMENT))
    second = open_board.open_more()
    x, y, angle = pose(second, "rock-d")
    tab_focus_and_press(first, "rock-d", ["ArrowRight"] * 4)
    wait_idle(first)
    # the other tab looks for changes every 3 s
    second.wait_for_selector(f'#mat [data-id="rock-d"][data-x="{x + 4.0:g}"]', timeout=8000)
    assert pose(second, "rock-d") == (x + 4.0, y, angle)
    assert verdict_of(second) == verdict_of(first)


def tab_focus_and_press(page: Any, object_id: str, keys: list[str]) -> None:
    """Select a piece with the keyboard (Tab until it has the focus, Enter), then press keys."""
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.dataset.id") == object_id:
            break
    page.keyboard.press("Enter")
    for key in keys:
        page.keyboard.press(key)


def test_armada_measure_from_hull_zone_to_hull_zone_agrees_with_the_cli(
    open_board: Opener, server: BoardServer
) -> None:
    example = next(p for p in EXAMPLES if p.stem.startswith("armada"))
    page = open_board(scene_of(example))
    assert page.locator("#defending-box").is_visible()
    page.locator("[data-input=arc]").select_option("front")
    page.locator("[data-input=defending-zone]").select_option("rear")
    page.locator('#mat [data-id="victory"]').click()
    page.locator("[data-action=measure]").click()
    page.locator('#mat [data-id="cr90"]').click()
    wait_idle(page)
    _, expected = cli(
        "measure", str(example), "victory", "cr90", "--arc", "front", "--defending-zone", "rear"
    )
    measured = page.locator("#measurement")
    assert json.loads(measured.get_attribute("data-answer")) == expected
    assert measured.get_attribute("data-defending_zone") == "rear"
    assert abs(float(measured.get_attribute("data-distance")) - expected["distance"]) <= 0.001


def test_a_refused_ruleset_leaves_the_board_and_the_menu_as_they_were(
    open_board: Opener, server: BoardServer
) -> None:
    page = open_board(scene_of(TOURNAMENT))
    before = server.scene_text()
    open_board.allow("status of 400")  # X-Wing tokens are not Armada's: the server says so
    page.locator("[data-input=ruleset]").select_option("armada")
    page.wait_for_selector("#status.error:has-text('Not changed')")
    wait_idle(page)
    assert server.scene_text() == before
    assert page.locator("[data-input=ruleset]").input_value() == "xwing2"
    assert verdict_of(page)["legal"] is True
    assert page.locator("[data-action=undo]").is_disabled()


def test_measure_to_an_edge_agrees_with_the_cli(
    open_board: Opener, server: BoardServer, tmp_path: Path
) -> None:
    page = open_board(scene_of(TOURNAMENT))
    page.locator('#mat [data-id="rock-b"]').click()
    page.locator("[data-input=measure-to]").select_option("edge:bottom")
    page.keyboard.press("m")
    wait_idle(page)
    _, expected = cli("measure", str(TOURNAMENT), "rock-b", "edge:bottom")
    measured = page.locator("#measurement")
    assert json.loads(measured.get_attribute("data-answer")) == expected
    assert measured.get_attribute("data-to") == "edge:bottom"
