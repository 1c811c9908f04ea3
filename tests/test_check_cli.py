"""``tabletop check`` on the command line: exit codes, JSON fields and bad input.

A legal scene exits 0, violations exit 1 with every field, bad input exits 2 with a
message naming the file and key and no traceback; the words of a limit follow it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from check_support import (
    ARMADA_STANDARD,
    rules_of,
    run_check,
    scene,
    tournament,
)
from common import json_scene_file
from common import run as run_cli

from tabletop.app.common.datatext import toml_text

# -- tabletop check: exit codes and JSON ------------------------------------------------


def test_cli_legal_exit_0(tmp_path: Path) -> None:
    path = json_scene_file(tmp_path, tournament())
    code, out, err = run_cli("check", path, "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data == {
        "ruleset": "xwing2",
        "legal": True,
        "violations": [],
        "checked": {
            "obstacle-edge": 6,
            "obstacle-spacing": 15,
            "obstacle-composition": 6,
            "ship-deployment": 0,
            "ship-overlap": 0,
            "outside-play-area": 6,
        },
    }
    code, out, err = run_cli("check", path)
    assert (code, err) == (0, "")
    assert "legal" in out
    assert "ILLEGAL" not in out


def test_cli_toml_legal(tmp_path: Path) -> None:
    path = tmp_path / "armada.toml"
    lines = ['ruleset = "armada"', 'area = "6x3ft"']
    for o in ARMADA_STANDARD:
        lines += ["", "[[obstacles]]", f'id = "{o["id"]}"', f'token = "{o["token"]}"']
        lines.append(f"at = [{o['at'][0]}, {o['at'][1]}]")
        if "angle" in o:
            lines.append(f"angle = {o['angle']}")
        if o.get("flipped"):
            lines.append("flipped = true")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run_cli("check", str(path), "--json")
    assert code == 0
    assert json.loads(out)["checked"]["obstacle-setup-area"] == 6


def test_cli_violations_exit_1_and_json_fields(tmp_path: Path) -> None:
    # A 40 mm square 195 mm from the bottom edge (margin -5, not contested) and a second
    # one whose lower-left corner is level with the first's upper-right corner, 99.5 mm
    # to its right (margin -0.5, contested).
    square = [[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]]
    data = scene(
        "xwing2",
        "3x3ft",
        obstacles=[
            {"id": "rock-a", "outline": square, "at": [300.0, 215.0]},
            {"id": "rock-b", "outline": square, "at": [439.5, 255.0]},
        ],
    )
    path = json_scene_file(tmp_path, data)
    code, out, err = run_cli("check", path, "--json")
    assert (code, err) == (1, "")
    report = json.loads(out)
    assert report["ruleset"] == "xwing2"
    assert report["legal"] is False
    assert report["checked"]["obstacle-edge"] == 2
    assert report["checked"]["obstacle-spacing"] == 1
    edge, spacing = report["violations"]
    for v in (edge, spacing):
        assert set(v) >= {
            "rule",
            "objects",
            "distance",
            "limit",
            "margin",
            "contested",
            "points",
            "message",
        }
        assert isinstance(v["message"], str)
    assert edge["rule"] == "obstacle-edge"
    assert edge["objects"] == ["rock-a"]
    assert (edge["distance"], edge["limit"], edge["margin"]) == (195.0, 200.0, -5.0)
    assert edge["contested"] is False
    assert edge["points"] == [[280.0, 195.0], [280.0, 0.0]]
    assert edge["message"] == (
        "rock-a is 195.0 mm from the bottom edge; it must be more than 200 mm (range 2)"
    )
    # The fix makes rock-a legal under every rule: up past the 200 line (dy just over 5)
    # brings its right side level with rock-b's left side, 99.5 mm away, so it must also
    # go just over 0.5 mm left.
    assert edge["fix"]["object"] == "rock-a"
    dx, dy = edge["fix"]["move"]
    assert -0.52 <= dx < -0.5
    assert 5.0 < dy <= 5.02
    assert spacing["rule"] == "obstacle-spacing"
    assert spacing["objects"] == ["rock-a", "rock-b"]
    assert (spacing["distance"], spacing["limit"], spacing["margin"]) == (99.5, 100.0, -0.5)
    assert spacing["contested"] is True
    assert spacing["points"] == [[320.0, 235.0], [419.5, 235.0]]
    assert spacing["fix"]["object"] == "rock-a"
    code, out, _ = run_cli("check", path)
    assert code == 1
    assert "ILLEGAL: 2 violation(s)" in out
    assert "obstacle-edge" in out
    assert "margin -5.0 mm" in out


def test_cli_contested_spacing(tmp_path: Path) -> None:
    square = [[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]]
    data = scene(
        "xwing2",
        "3x3ft",
        obstacles=[
            {"id": "a", "outline": square, "at": [300.0, 400.0]},
            {"id": "b", "outline": square, "at": [439.5, 400.0]},
        ],
    )
    code, out, _ = run_cli("check", json_scene_file(tmp_path, data), "--json")
    assert code == 1
    (v,) = json.loads(out)["violations"]
    assert (v["rule"], v["distance"], v["margin"], v["contested"]) == (
        "obstacle-spacing",
        99.5,
        -0.5,
        True,
    )
    # Facing parallel edges: any level pair of points on them is a closest pair.
    (x0, y0), (x1, y1) = v["points"]
    assert (x0, x1) == (320.0, 419.5)
    assert y0 == y1
    assert 380.0 <= y0 <= 420.0


# -- bad input: exit 2, a clear message, no traceback -----------------------------------

BAD_INPUTS = [
    (
        {"obstacles": [{"id": "rock", "token": "coreasteroid99", "at": [400, 400]}]},
        ["unknown token 'coreasteroid99'", "obstacles[0] 'rock'", "key 'token'"],
    ),
    (
        {
            "obstacles": [
                {"id": "bow", "outline": [[0, 0], [40, 40], [40, 0], [0, 40]], "at": [400, 400]}
            ]
        },
        ["simple polygon", "obstacles[0] 'bow'", "key 'outline'"],
    ),
    (
        {
            "obstacles": [{"id": "twin", "token": "coreasteroid0", "at": [300, 400]}],
            "ships": [{"id": "twin", "base": "small", "at": [400, 40]}],
        },
        ["duplicate id 'twin'", "ships[0] 'twin'", "key 'id'"],
    ),
    (
        {
            "obstacles": [
                {"id": "a", "token": "coreasteroid0", "at": [300, 400]},
                {"id": "a", "token": "coreasteroid1", "at": [500, 400]},
            ]
        },
        ["duplicate id 'a'", "obstacles[1] 'a'"],
    ),
    (
        {"ruleset": "armada", "obstacles": [{"id": "r", "token": "coreasteroid0", "at": [0, 0]}]},
        ["unknown token 'coreasteroid0' for armada", "asteroid-1"],
    ),
]


@pytest.mark.parametrize(("data", "words"), BAD_INPUTS)
@pytest.mark.parametrize("suffix", [".json", ".toml"])
def test_cli_bad_input_exit_2(
    tmp_path: Path, data: dict[str, Any], words: list[str], suffix: str
) -> None:
    if suffix == ".json":
        path = json_scene_file(tmp_path, data)
    else:
        path = str(tmp_path / "scene.toml")
        Path(path).write_text(toml_text(data), encoding="utf-8")
    code, out, err = run_cli("check", path)
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    assert err.startswith("tabletop check: error: ")
    assert err.count("\n") == 1
    assert path in err
    for word in words:
        assert word in err
    code, out, err = run_cli("check", path, "--json")
    assert code == 2
    error = json.loads(out)["error"]
    assert set(error) == {"message", "where"}
    assert path in error["where"]
    assert "Traceback" not in out + err
    for word in words:
        assert word in error["where"] + ": " + error["message"]


# -- the words of a limit follow the limit ------------------------------------------------

_SQUARE = [[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]]


@pytest.mark.parametrize(
    ("ruleset", "constants", "words"),
    [
        # The defaults: the edge limit is the range 2 (distance 3) line.
        ("xwing2", {}, "more than 200 mm (range 2)"),
        ("armada", {}, "more than 185 mm (distance 3)"),
        # An overridden limit on no band line names no band.
        ("xwing2", {"xwing_obstacle_edge": 150}, "more than 150 mm"),
        # An overridden limit on another line names that line.
        ("xwing1", {"xwing_obstacle_edge": 300}, "more than 300 mm (range 3)"),
        # Band lines moved away from the limit: no band either.
        ("xwing2", {"xwing_range_bands": [90, 190, 290, 390, 490]}, "more than 200 mm"),
        # Armada's limit moves with its distance band.
        (
            "armada",
            {"armada_distance_bands": [70, 120, 180, 240, 300]},
            "more than 180 mm (distance 3)",
        ),
    ],
)
def test_the_edge_message_names_the_limit_and_only_a_true_band(
    ruleset: str, constants: dict[str, Any], words: str
) -> None:
    # The square's left side is 20 mm from the left edge: too near under every limit.
    data = scene(ruleset, "6x3ft" if ruleset == "armada" else "3x3ft", constants=constants)
    data["obstacles"] = [{"id": "sq", "outline": _SQUARE, "at": [40.0, 457.2]}]
    found = rules_of(run_check(data, fixes=False), "obstacle-edge")
    left = [v for v in found if "left edge" in v.message]
    assert len(left) == 1
    assert left[0].message == f"sq is 20.0 mm from the left edge; it must be {words}"
