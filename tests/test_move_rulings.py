"""What a move's report says a judge must rule: the skipped action, guide-only overlaps and
the order obstacle effects resolve in.

Worked out by hand (rules.md, X-Wing): a small base is a 40 mm square; its guides stick
out 1.6 mm from the front and rear edges, 3.6 mm wide, inner edges at x = +-10 (ship
frame). Straight s moves the ship (0, 40 + 40 s). ``a`` starts at (300, 100) facing +y:
its base spans x 280..320, y 80..120; after straight 1 it would end at (300, 180), base
y 160..200, front guides x 286.4..290 and 310..313.6, y 200..201.6.

* A bump skips the Perform Action step (2.0 Rules Reference, "Bump": "it skips its
  Perform Action step"; 1e rules likewise).
* ``b`` at (330, 221): its base spans x 310..350, y 201..241, its rear guides x
  316.4..320 and 340..343.6, y 199.4..201. At a's full straight 1 the bases are 1 mm
  apart (200 to 201) but a's right front guide overlaps b's base and b's left rear guide
  overlaps a's: only guides overlap, which still bumps (guides count). a backs up until
  it touches b's rear guide: its front edge at 199.4, so it ends at (300, 179.4).
* A 20 mm rock at (315, 211) spans x 305..325, y 201..221: a's final base (without
  guides, top at 200) is 1 mm short of it, but the right front guide (up to 201.6) is on
  it: ``ends-on``, only a guide.
* rules.md (Moving through and ending on obstacles): "When several obstacles are hit,
  their effects resolve nearest first, by distance from the ship's starting base to the
  obstacle (ties by id)".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from common import json_scene_file, run

SQUARE20 = [[-10.0, -10.0], [10.0, -10.0], [10.0, 10.0], [-10.0, 10.0]]


def scene(
    ships: list[tuple[str, float, float]],
    obstacles: list[tuple[str, float, float]],
    ruleset: str = "xwing2",
) -> dict[str, Any]:
    return {
        "ruleset": ruleset,
        "phase": "play",
        "ships": [{"id": i, "base": "small", "at": [x, y], "heading": 90.0} for i, x, y in ships],
        "obstacles": [{"id": i, "outline": SQUARE20, "at": [x, y]} for i, x, y in obstacles],
    }


def move(tmp_path: Path, data: dict[str, Any], maneuver: str) -> tuple[dict[str, Any], str]:
    path = json_scene_file(tmp_path, data)
    code, out, _ = run("move", path, "a", maneuver, "--json")
    assert code == 0
    answer: dict[str, Any] = json.loads(out)
    code, text, _ = run("move", path, "a", maneuver)
    assert code == 0
    return answer, text


@pytest.mark.parametrize("ruleset", ["xwing2", "xwing1"])
def test_a_bump_skips_the_perform_action_step(tmp_path: Path, ruleset: str) -> None:
    # b at (300, 270): base y 250..290, rear guides down to 248.4. a's straight 3 would
    # end at (300, 260), overlapping; it bumps.
    data = scene([("a", 300.0, 100.0), ("b", 300.0, 270.0)], [], ruleset)
    answer, text = move(tmp_path, data, "straight 3")
    assert answer["bumped"] == "b"
    assert answer["skip_action"] is True
    assert answer["bump_guides_only"] == []  # the bases themselves overlap
    assert "  action:     skip the Perform Action step (the ship bumped)\n" in text


def test_a_move_that_does_not_bump_keeps_its_action(tmp_path: Path) -> None:
    answer, text = move(tmp_path, scene([("a", 300.0, 100.0)], []), "straight 3")
    assert answer["bumped"] is None
    assert answer["skip_action"] is False
    assert "Perform Action" not in text


def test_an_armada_course_has_no_action_step_to_skip(tmp_path: Path) -> None:
    data = {
        "ruleset": "armada",
        "phase": "play",
        "area": "6x3ft",
        "ships": [{"id": "a", "base": "small", "at": [900.0, 300.0], "heading": 90.0}],
    }
    answer, text = move(tmp_path, data, "speed 1")
    assert "skip_action" not in answer
    assert "Perform Action" not in text


def test_a_bump_made_by_the_guides_alone_says_so(tmp_path: Path) -> None:
    answer, text = move(
        tmp_path, scene([("a", 300.0, 100.0), ("b", 330.0, 221.0)], []), "straight 1"
    )
    assert answer["bumped"] == "b"
    assert answer["final"]["at"] == pytest.approx([300.0, 179.4], abs=1e-6)
    assert answer["bump_guides_only"] == ["b"]
    assert answer["skip_action"] is True
    assert (
        "  guides:     only a guide overlapped b at the full maneuver (guides count: it is a bump)\n"
    ) in text


def test_ending_on_an_obstacle_by_a_guide_alone_says_so(tmp_path: Path) -> None:
    answer, text = move(
        tmp_path, scene([("a", 300.0, 100.0)], [("rock", 315.0, 211.0)]), "straight 1"
    )
    assert answer["final"]["at"] == pytest.approx([300.0, 180.0], abs=1e-6)
    (entry,) = answer["obstacles"]
    assert (entry["id"], entry["how"], entry["guides_only"]) == ("rock", "ends-on", True)
    # From the start base's top edge (y 120) to the rock's bottom edge (y 201).
    assert entry["from_start"] == pytest.approx(81.0, abs=1e-6)
    assert "  obstacles:  rock (ends on, only a guide overlaps it)\n" in text
    # One millimetre lower, the base itself is on it: not a guide alone.
    answer, _ = move(tmp_path, scene([("a", 300.0, 100.0)], [("rock", 315.0, 209.0)]), "straight 1")
    assert answer["obstacles"][0]["guides_only"] is False


def test_obstacle_effects_resolve_nearest_the_starting_base_first(tmp_path: Path) -> None:
    # straight 3: the template runs x 290..310, y 120..240; the final base y 240..280.
    # zeta and aa (bottom edges at y 140: 20 mm from the start base's top at 120) tie and
    # go by id; beta (bottom 190) is 70 mm away; alpha (bottom 260, ended on) 140 mm.
    data = scene(
        [("a", 300.0, 100.0)],
        [
            ("zeta", 300.0, 150.0),
            ("alpha", 300.0, 270.0),
            ("beta", 300.0, 200.0),
            ("aa", 295.0, 150.0),
        ],
    )
    answer, text = move(tmp_path, data, "straight 3")
    got = [(o["id"], o["how"], o["resolves"], o["from_start"]) for o in answer["obstacles"]]
    assert got == [
        ("aa", "moves-through", 1, 20.0),
        ("zeta", "moves-through", 2, 20.0),
        ("beta", "moves-through", 3, 70.0),
        ("alpha", "ends-on", 4, 140.0),
    ]
    assert (
        "  resolve:    1. aa (20.0 mm from the start), 2. zeta (20.0 mm from the start), "
        "3. beta (70.0 mm from the start), 4. alpha (140.0 mm from the start); "
        "nearest the starting base first\n"
    ) in text
