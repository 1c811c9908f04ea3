"""The board's page in a real browser: headless Chromium against the real server.

Every number the page shows is compared with what the command line prints for the same
scene (``tabletop check / measure / move --json``), run on the scene the server holds.
A machine without Chromium or Playwright skips this file with one line saying why.
"""

from __future__ import annotations

import json
import math
import os
import shutil
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
    drag,
    pose,
    verdict_of,
    wait_idle,
)

__all__ = ["browser", "open_board", "server"]  # fixtures, used by name

#: Where the screenshots go besides the test's temporary folder (to look at them).
SHOTS = os.environ.get("BOARD_SHOTS")


def angle_of(entry: dict[str, Any], kind: str) -> float:
    if kind == "ship":
        return float(entry.get("heading", 270.0 if entry.get("player") == 2 else 90.0))
    return float(entry.get("angle", 0.0))


def same_angle(a: float, b: float) -> bool:
    return abs((a - b + 180.0) % 360.0 - 180.0) <= 0.01


def cli_check(scene: dict[str, Any], folder: Path) -> dict[str, Any]:
    return cli("check", str(scene_file(scene, folder)))[1]


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_each_example_loads_every_object_at_its_pose(
    open_board: Opener, server: BoardServer, example: Path, tmp_path: Path
) -> None:
    scene = scene_of(example)
    page = open_board(scene)
    objects = [("obstacle", e) for e in scene.get("obstacles", [])]
    objects += [("ship", e) for e in scene.get("ships", [])]
    assert page.locator("#mat [data-kind]").count() == len(objects)
    for kind, entry in objects:
        piece = page.locator(f'#mat [data-id="{entry["id"]}"]')
        assert piece.get_attribute("data-kind") == kind
        x, y, angle = pose(page, entry["id"])
        assert abs(x - entry["at"][0]) <= 0.01
        assert abs(y - entry["at"][1]) <= 0.01
        assert same_angle(angle, angle_of(entry, kind)), (entry["id"], angle)
        label = page.locator(f'#labels [data-label-for="{entry["id"]}"]')
        assert entry["id"] in label.text_content()
    # the verdict is the command line's on the example file itself
    code, report = cli("check", str(example))
    assert_agree(verdict_of(page), cli_verdict(report))  # within the agreement (agreement.py)
    assert code == (0 if report["legal"] else 1)
    shot = tmp_path / f"{example.stem}.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(SHOTS) / shot.name)


def drag_into_range_one(page: Any) -> None:
    """Drag rock-a of the tournament table 120 mm right: into range 1 of rock-b."""
    drag(page, "rock-a", 120.0, 0.0)
    wait_idle(page)


def test_drag_into_range_one_shows_the_cli_number_and_the_nudge_fixes_it(
    open_board: Opener, server: BoardServer, tmp_path: Path
) -> None:
    page = open_board(scene_of(TOURNAMENT))
    x0, y0, a0 = pose(page, "rock-a")
    assert verdict_of(page)["legal"] is True
    drag_into_range_one(page)
    x1, y1, a1 = pose(page, "rock-a")
    # one to one with the pointer: 120 mm, to a pixel (about 1.3 mm here)
    assert abs(x1 - x0 - 120.0) < 1.5
    assert abs(y1 - y0) < 1.5
    assert a1 == a0
    held = server.scene()
    assert held["obstacles"][0]["at"] == [x1, y1]
    report = cli_check(held, tmp_path)
    shown = verdict_of(page)
    assert_agree(shown, cli_verdict(report))
    spacing = [v for v in report["violations"] if v["rule"] == "obstacle-spacing"]
    assert spacing
    assert spacing[0]["objects"] == ["rock-a", "rock-b"]
    assert spacing[0]["distance"] < 100.0
    # the mat says it in words and numbers: "83.9 mm, must be > 100.0 mm"
    label = f"{spacing[0]['distance']:.1f} mm, must be > 100.0 mm"
    assert label in page.locator("#overlay-labels").text_content()
    assert page.locator("#verdict-banner").text_content().startswith("✗ Illegal")
    fix = spacing[0]["fix"]
    moved = fix["object"]
    placeable = fix["placeable"]
    assert placeable is not None
    assert placeable["clearance"] == 1.1
    before = {o["id"]: o["at"] for o in held["obstacles"]}[moved]
    # the ghost stands where the placeable fix puts the piece
    ghost = page.locator(f'#overlay [data-ghost-for="{moved}"]')
    assert ghost.count() == 1
    gx, gy = (float(ghost.get_attribute(k) or "nan") for k in ("data-x", "data-y"))
    assert abs(gx - (before[0] + placeable["move"][0])) <= 0.01
    assert abs(gy - (before[1] + placeable["move"][1])) <= 0.01
    nudge = page.locator("#mat-nudge")
    assert nudge.is_visible()
    nudge.click()
    wait_idle(page)
    assert verdict_of(page) == {"legal": True, "violations": []}
    assert page.locator("#verdict [data-rule]").count() == 0
    # the nudge moved the piece by the placeable fix the command line printed, to 0.01 mm
    after = {o["id"]: o["at"] for o in server.scene()["obstacles"]}[moved]
    assert abs(after[0] - (before[0] + placeable["move"][0])) <= 0.01
    assert abs(after[1] - (before[1] + placeable["move"][1])) <= 0.01
    # and the table checks legal, with nothing contested about that piece
    fixed_file = str(scene_file(server.scene(), tmp_path, "fixed.json"))
    code, fixed = cli("check", fixed_file, "--margins")
    assert code == 0
    assert fixed["legal"] is True
    assert not [c for c in fixed.get("contested", []) if moved in c["objects"]]
    mine = [m for m in fixed["margins"] if moved in m["objects"]]
    assert mine
    assert not [m for m in mine if m["contested"]], mine


def test_the_shortest_fix_is_one_control_away(
    open_board: Opener, server: BoardServer, tmp_path: Path
) -> None:
    # "nudge-shortest" (Shift+N) applies check's shortest fix, just past the line: legal,
    # but a contested call, as check then says.
    page = open_board(scene_of(TOURNAMENT))
    drag_into_range_one(page)
    held = server.scene()
    report = cli_check(held, tmp_path)
    (spacing,) = [v for v in report["violations"] if v["rule"] == "obstacle-spacing"]
    fix = spacing["fix"]
    moved = fix["object"]
    before = {o["id"]: o["at"] for o in held["obstacles"]}[moved]
    ghost = page.locator(f'#overlay [data-ghost-shortest-for="{moved}"]')
    assert ghost.count() == 1
    page.locator("#verdict [data-action=nudge-shortest]").first.click()
    wait_idle(page)
    assert verdict_of(page) == {"legal": True, "violations": []}
    after = {o["id"]: o["at"] for o in server.scene()["obstacles"]}[moved]
    assert abs(after[0] - (before[0] + fix["move"][0])) <= 0.01
    assert abs(after[1] - (before[1] + fix["move"][1])) <= 0.01
    code, fixed = cli("check", str(scene_file(server.scene(), tmp_path, "shortest.json")))
    assert code == 0
    assert [c["rule"] for c in fixed["contested"] if moved in c["objects"]] == ["obstacle-spacing"]
    # undo, then the key: Shift+N does the same from the keyboard
    page.keyboard.press("Control+z")
    wait_idle(page)
    assert server.scene() == held
    page.locator("#mat").focus()
    page.keyboard.press("Shift+N")
    wait_idle(page)
    again = {o["id"]: o["at"] for o in server.scene()["obstacles"]}[moved]
    assert again == after


def test_undo_restores_the_scene_byte_for_byte(open_board: Opener, server: BoardServer) -> None:
    page = open_board(scene_of(TOURNAMENT))
    before = server.scene_text()
    original = json.loads(before)["scene"]
    drag_into_range_one(page)
    page.locator('#mat [data-id="wedge"]').click()
    page.locator("[data-action=rotate-left]").click()
    wait_idle(page)
    page.locator('#mat [data-id="debris-c"]').click()
    page.locator("[data-action=flip]").click()
    wait_idle(page)
    page.locator("[data-action=delete]").click()
    wait_idle(page)
    page.locator("[data-action=add]").click()
    wait_idle(page)
    after = server.scene_text()
    changed = json.loads(after)["scene"]
    assert changed != original
    assert len(changed["obstacles"]) == len(original["obstacles"])
    for _ in range(5):
        page.locator("[data-action=undo]").click()
        wait_idle(page)
    assert server.scene_text().split(b'"scene"')[1] == before.split(b'"scene"')[1]
    assert json.loads(server.scene_text())["scene"] == original
    for _ in range(5):
        page.keyboard.press("Control+Shift+Z")
        wait_idle(page)
    assert json.loads(server.scene_text())["scene"] == changed
    page.keyboard.press("Control+Z")
    wait_idle(page)
    page.keyboard.press("Control+Y")
    wait_idle(page)
    assert server.scene_text().split(b'"scene"')[1] == after.split(b'"scene"')[1]


def test_measure_agrees_with_the_cli(
    open_board: Opener, server: BoardServer, tmp_path: Path
) -> None:
    page = open_board(scene_of(TOURNAMENT))
    page.locator("[data-input=arc]").select_option("front")
    page.locator('#mat [data-id="falcon"]').click()
    page.locator("[data-action=measure]").click()
    page.locator('#mat [data-id="decimator"]').click()
    wait_idle(page)
    path = scene_file(server.scene(), tmp_path)
    _, expected = cli("measure", str(path), "falcon", "decimator", "--arc", "front")
    measured = page.locator("#measurement")
    assert json.loads(measured.get_attribute("data-answer")) == expected
    assert abs(float(measured.get_attribute("data-distance")) - expected["distance"]) <= 0.001
    assert measured.get_attribute("data-band") == json.dumps(expected["band"])
    assert measured.get_attribute("data-in_arc") == json.dumps(expected["in_arc"])
    assert measured.get_attribute("data-from") == "falcon"
    assert f"{expected['distance']:.1f} mm" in measured.text_content()


def test_move_agrees_with_the_cli_and_applies(
    open_board: Opener, server: BoardServer, tmp_path: Path
) -> None:
    page = open_board(scene_of(TOURNAMENT))
    page.locator('#mat [data-id="wedge"]').click()
    page.locator("[data-input=maneuver]").fill("bank 2 left")
    page.locator("[data-action=move]").click()
    wait_idle(page)
    path = scene_file(server.scene(), tmp_path)
    _, expected = cli("move", str(path), "wedge", "bank 2 left")
    shown = json.loads(page.locator("#move-result").get_attribute("data-answer"))
    assert shown == expected
    assert page.locator("#tools .move-preview .final").count() == 1
    page.locator("[data-action=apply-move]").click()
    wait_idle(page)
    x, y, heading = pose(page, "wedge")
    fx, fy = expected["final"]["at"]
    assert math.hypot(x - fx, y - fy) <= 0.001
    assert same_angle(heading, expected["final"]["heading"])
    held = {s["id"]: s for s in server.scene()["ships"]}["wedge"]
    assert held["at"] == [fx, fy]
    assert held["heading"] == expected["final"]["heading"]


def test_armada_move_with_the_tool_agrees_with_the_cli(
    open_board: Opener, server: BoardServer, tmp_path: Path
) -> None:
    example = next(p for p in EXAMPLES if p.stem.startswith("armada"))
    scene = scene_of(example)
    page = open_board(scene)
    ship = scene["ships"][0]["id"]
    page.locator(f'#mat [data-id="{ship}"]').click()
    page.locator("#armada-tool [name=speed]").fill("2")
    page.locator('#armada-tool [data-joint="2"] [data-yaw="1"]').click()
    assert page.locator("[data-input=maneuver]").input_value() == "speed 2 yaw 0 1"
    page.locator("[data-action=move]").click()
    wait_idle(page)
    _, expected = cli("move", str(example), ship, "speed 2 yaw 0 1")
    assert json.loads(page.locator("#move-result").get_attribute("data-answer")) == expected


def test_downloaded_scene_checks_the_same(
    open_board: Opener, server: BoardServer, tmp_path: Path
) -> None:
    page = open_board(scene_of(TOURNAMENT))
    drag_into_range_one(page)
    expected = cli_verdict(cli_check(server.scene(), tmp_path))
    assert not expected["legal"]
    for form in ("toml", "json"):
        page.locator("[data-input=scene-format]").select_option(form)
        with page.expect_download() as download:
            page.locator("[data-action=download-scene]").click()
        path = tmp_path / f"downloaded.{form}"
        download.value.save_as(str(path))
        code, report = cli("check", str(path))
        assert code == 1
        assert cli_verdict(report) == expected
        assert_agree(verdict_of(page), expected)
    for form, magic in (("png", b"\x89PNG"), ("svg", b"<svg")):
        page.locator("[data-input=picture-format]").select_option(form)
        with page.expect_download() as download:
            page.locator("[data-action=download-picture]").click()
        path = tmp_path / f"picture.{form}"
        download.value.save_as(str(path))
        assert magic in path.read_bytes()[:400]


def tab_to(page: Any, object_id: str) -> None:
    """Press Tab until the piece `object_id` has the focus."""
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.dataset.id") == object_id:
            return
    raise AssertionError(f"Tab never reached {object_id}")


def test_keyboard_alone_moves_rotates_and_measures(
    open_board: Opener, server: BoardServer, tmp_path: Path
) -> None:
    page = open_board(scene_of(TOURNAMENT))
    x0, y0, a0 = pose(page, "rock-d")
    tab_to(page, "rock-d")
    page.keyboard.press("Enter")
    for key in ["ArrowRight"] * 3 + ["ArrowDown"] + ["Shift+ArrowUp"] * 5 + ["q", "Shift+E"]:
        page.keyboard.press(key)
    wait_idle(page)
    x, y, angle = pose(page, "rock-d")
    assert abs(x - (x0 + 3.0)) < 1e-9
    assert abs(y - (y0 - 1.0 + 0.5)) < 1e-9
    assert same_angle(angle, a0 + 1.0 - 15.0)
    held = {o["id"]: o for o in server.scene()["obstacles"]}["rock-d"]
    assert held["at"] == [x, y]
    assert same_angle(held["angle"], angle)
    assert_agree(verdict_of(page), cli_verdict(cli_check(server.scene(), tmp_path)))
    page.keyboard.press("m")
    tab_to(page, "gas-f")
    page.keyboard.press("Enter")
    wait_idle(page)
    path = scene_file(server.scene(), tmp_path)
    _, expected = cli("measure", str(path), "rock-d", "gas-f")
    measured = page.locator("#measurement")
    assert abs(float(measured.get_attribute("data-distance")) - expected["distance"]) <= 0.001
    page.keyboard.press("Control+z")
    wait_idle(page)
    assert pose(page, "rock-d") == (x0, y0, a0)


def test_a_drag_follows_the_pointer_and_changes_the_board_on_drop(
    open_board: Opener, server: BoardServer
) -> None:
    page = open_board(scene_of(TOURNAMENT))
    before = server.scene_text()
    x, y, angle = pose(page, "gas-f")
    page.mouse.move(*client_point(page, x, y))
    page.mouse.down()
    page.mouse.move(*client_point(page, x - 50.0, y - 30.0), steps=5)
    # under the pointer, one to one, while the board has not changed
    shown = page.locator('#mat [data-id="gas-f"]').get_attribute("transform")
    dx, dy = (float(v) for v in shown.split("translate(")[1].split(")")[0].split())
    assert abs(dx - (x - 50.0)) < 1.5
    assert abs(dy - (y - 30.0)) < 1.5
    page.wait_for_timeout(200)
    assert server.scene_text() == before
    page.mouse.up()
    wait_idle(page)
    held = {o["id"]: o for o in server.scene()["obstacles"]}["gas-f"]
    assert held["at"] == [pose(page, "gas-f")[0], pose(page, "gas-f")[1]]
    assert abs(held["at"][0] - (x - 50.0)) < 1.5
    assert held["angle"] == angle


def test_a_contested_violation_shows_checks_ruling(
    open_board: Opener, server: BoardServer, tmp_path: Path
) -> None:
    # Two 40 mm squares centred 139.6 mm apart are 99.6 mm apart: 0.4 mm inside the
    # "more than 100" spacing line, a contested violation, ruled as check rules it.
    square = [[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]]
    scene = {
        "ruleset": "xwing2",
        "obstacles": [
            {"id": "a", "outline": square, "at": [300.0, 457.2]},
            {"id": "b", "outline": square, "at": [439.6, 457.2]},
        ],
    }
    page = open_board(scene)
    report = cli_check(server.scene(), tmp_path)
    (violation,) = report["violations"]
    assert violation["ruling"] == (
        "within 1.0 mm of the 100.0 mm spacing line (0.4 mm inside it): "
        "legal only beyond it (exactly 100.0 mm is too close)"
    )
    shown = page.locator('#verdict [data-rule="obstacle-spacing"] .ruling').text_content()
    assert shown == f"Ruling: {violation['ruling']}"
