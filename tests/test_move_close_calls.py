"""A move's close calls (``move --close-calls``): clearance or depth, and ``contested``.

Worked out by hand: ``a`` (small, at (300, 100), facing +y) flies straight 2: the template
spans x 290-310, y 120-200, and the final base (centre (300, 220)) x 280-320, y 200-240
(guides to 198.4 and 241.6, within x 300 +- 13.6). A 20 mm rock centred at
(320 + g, 160) has its left side at x = 310 + g, beside the template and 28 mm or more
from every base: the template clears it by g (g > 0), touches it (g = 0) or overlaps it
by -g (the shortest move parting them is sideways). A small ship centred at
(340 + g, 220) is g beside the final base. Contested within 1.0 mm (rules.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from common import json_scene_file, run


def scene(rock_gap: float | None = None, ship_gap: float | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "ruleset": "xwing2",
        "phase": "play",
        "ships": [{"id": "a", "base": "small", "at": [300.0, 100.0], "heading": 90.0}],
        "obstacles": [],
    }
    if rock_gap is not None:
        square = [[-10.0, -10.0], [10.0, -10.0], [10.0, 10.0], [-10.0, 10.0]]
        data["obstacles"].append({"id": "rock", "outline": square, "at": [320.0 + rock_gap, 160.0]})
    if ship_gap is not None:
        data["ships"].append(
            {"id": "b", "base": "small", "at": [340.0 + ship_gap, 220.0], "heading": 90.0}
        )
    return data


def move(tmp_path: Path, data: dict[str, Any], *options: str) -> tuple[int, str]:
    path = json_scene_file(tmp_path, data)
    code, out, _ = run("move", path, "a", "straight 2", *options)
    return code, out


@pytest.mark.parametrize(
    ("gap", "listed", "words"),
    [
        (0.3, True, "rock: the template clears it by 0.3 mm, contested"),
        (0.0, True, "rock: the template touches it (touching is not overlapping), contested"),
        (-0.3, True, "rock: the template overlaps it by 0.3 mm, contested"),
        (1.0, True, "rock: the template clears it by 1.0 mm, contested"),
        (-1.0, True, "rock: the template overlaps it by 1.0 mm, contested"),
        (1.01, False, ""),
        (-1.01, False, ""),
    ],
)
def test_the_template_s_margin_to_an_obstacle(
    tmp_path: Path, gap: float, listed: bool, words: str
) -> None:
    code, out = move(tmp_path, scene(rock_gap=gap), "--close-calls", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["final"]["at"] == [300.0, 220.0]
    through = [{"id": "rock", "how": "moves-through"}] if gap < 0 else []
    assert [{"id": o["id"], "how": o["how"]} for o in data["obstacles"]] == through
    if not listed:
        assert data["close_calls"] == []
        return
    (call,) = data["close_calls"]
    assert call["id"] == "rock"
    assert call["part"] == "template"
    assert call["margin"] == pytest.approx(gap, abs=1e-6)
    assert call["contested"] is True
    code, out = move(tmp_path, scene(rock_gap=gap), "--close-calls")
    assert f"  close call: {words}\n" in out


@pytest.mark.parametrize(("gap", "listed"), [(0.5, True), (1.0, True), (1.01, False)])
def test_the_final_base_s_clearance_from_a_ship(tmp_path: Path, gap: float, listed: bool) -> None:
    code, out = move(tmp_path, scene(ship_gap=gap), "--close-calls", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["complete"] is True
    calls = [(c["id"], c["part"], c["margin"]) for c in data["close_calls"]]
    assert calls == ([("b", "base", pytest.approx(gap, abs=1e-6))] if listed else [])


def test_without_the_option_the_answer_is_as_before(tmp_path: Path) -> None:
    code, out = move(tmp_path, scene(rock_gap=0.3), "--json")
    assert code == 0
    assert "close_calls" not in json.loads(out)
    code, out = move(tmp_path, scene(rock_gap=0.3))
    assert "close call" not in out
