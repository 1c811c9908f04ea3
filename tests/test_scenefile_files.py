"""The scene loader, file by file: missing, unreadable and oversized files, TOML and JSON
loading to the same scene, and scenes that break game rules still loading.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from common import write_scene
from scenefile_support import EXAMPLES, ROCK, SHIP_A, check_where, load_toml

from tabletop.app.scene.scenefile import (
    MAX_FILE_BYTES,
    SceneError,
    load_scene,
    parse_scene,
    read_scene_data,
)
from tabletop.geom.objects import Ship

# -- files -------------------------------------------------------------------------------


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    with pytest.raises(SceneError) as info:
        load_scene(path)
    check_where(info.value, str(path), None, None, "no such file")


@pytest.mark.parametrize("name", ["scene.yaml", "scene", "scene.toml.bak"])
def test_unknown_suffix(tmp_path: Path, name: str) -> None:
    path = write_scene(tmp_path, SHIP_A, name)
    with pytest.raises(SceneError) as info:
        load_scene(path)
    check_where(info.value, str(path), None, None, "unknown scene file type", ".toml or .json")


def test_suffix_is_case_insensitive(tmp_path: Path) -> None:
    assert load_scene(write_scene(tmp_path, SHIP_A, "SCENE.TOML")).ships[0].id == "a"


def test_a_directory(tmp_path: Path) -> None:
    path = tmp_path / "dir.toml"
    path.mkdir()
    with pytest.raises(SceneError) as info:
        load_scene(path)
    check_where(info.value, str(path), None, None, "directory")


@pytest.mark.parametrize("name", ["scene.toml", "scene.json"])
def test_not_utf8(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    body = b'ruleset = "xwing2"\n# caf\xe9\n' if name.endswith("toml") else b'{"id": "caf\xe9"}'
    path.write_bytes(body)
    with pytest.raises(SceneError) as info:
        load_scene(path)
    byte = body.index(b"\xe9")
    check_where(info.value, str(path), None, None, f"not UTF-8 text (byte {byte})")


def test_utf8_ids_load(tmp_path: Path) -> None:
    scene = load_toml(tmp_path, SHIP_A.replace('"a"', '"Poë Dameron"'))
    assert scene.ships[0].id == "Poë Dameron"


def test_file_over_ten_megabytes(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_bytes(b"#" * MAX_FILE_BYTES + b"\n")  # one byte over the limit
    with pytest.raises(SceneError) as info:
        load_scene(path)
    check_where(
        info.value, str(path), None, None, f"{MAX_FILE_BYTES + 1} bytes", f"{MAX_FILE_BYTES}"
    )


def test_file_of_exactly_ten_megabytes_loads(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_bytes(b"#" * (MAX_FILE_BYTES - 1) + b"\n")
    assert MAX_FILE_BYTES == 10 * 1024 * 1024
    assert load_scene(path).ships == ()


def test_loading_never_writes_the_file(tmp_path: Path) -> None:
    path = write_scene(tmp_path, ROCK + SHIP_A)
    before, mtime = path.read_bytes(), path.stat().st_mtime_ns
    load_scene(path)
    assert (path.read_bytes(), path.stat().st_mtime_ns) == (before, mtime)


# -- TOML and JSON: the same scene -------------------------------------------------------

FULL_TOML = """
ruleset = "xwing2"
area = { width = 914.4, height = 914.4 }
phase = "play"
format = "tournament"

[constants]
xwing_obstacle_edge = 190
xwing_arc_half_angles = { small = 40.0, medium = 41.0, large = 42.0, huge = 41.5 }

[[obstacles]]
id = "rock"
token = "core2asteroid5"
at = [310.0, 455.5]
angle = 30
flipped = true
player = 1

[[obstacles]]
id = "home"
outline = [[-20, -10], [20, -10], [0, 25]]
kind = "asteroid"
at = [600, 450]

[[ships]]
id = "wedge"
base = "small"
at = [120, 60]

[[ships]]
id = "vader"
base = "huge-short"
at = [400, 800]
player = 2
heading = 265.5
"""

FULL_JSON: dict[str, Any] = {
    "ruleset": "xwing2",
    "area": {"width": 914.4, "height": 914.4},
    "phase": "play",
    "format": "tournament",
    "constants": {
        "xwing_obstacle_edge": 190,
        "xwing_arc_half_angles": {"small": 40.0, "medium": 41.0, "large": 42.0, "huge": 41.5},
    },
    "obstacles": [
        {
            "id": "rock",
            "token": "core2asteroid5",
            "at": [310.0, 455.5],
            "angle": 30,
            "flipped": True,
            "player": 1,
        },
        {
            "id": "home",
            "outline": [[-20, -10], [20, -10], [0, 25]],
            "kind": "asteroid",
            "at": [600, 450],
        },
    ],
    "ships": [
        {"id": "wedge", "base": "small", "at": [120, 60]},
        {"id": "vader", "base": "huge-short", "at": [400, 800], "player": 2, "heading": 265.5},
    ],
}


def test_toml_and_json_load_to_the_same_scene(tmp_path: Path) -> None:
    from_toml = load_scene(write_scene(tmp_path, FULL_TOML))
    from_json = load_scene(write_scene(tmp_path, json.dumps(FULL_JSON), "scene.json"))
    assert read_scene_data(tmp_path / "scene.toml") == FULL_JSON
    assert from_toml.to_dict() == from_json.to_dict()
    assert from_toml.ruleset == from_json.ruleset
    assert from_toml.ruleset.xwing_obstacle_edge == 190.0
    assert from_toml.ruleset.xwing_arc_half_angles["large"] == 42.0
    assert from_toml.area == from_json.area
    for a, b in zip(from_toml.obstacles, from_json.obstacles, strict=True):
        assert a.outline.tolist() == b.outline.tolist()
        assert a.polygon().equals(b.polygon())
    assert from_toml.ships == from_json.ships
    assert from_toml.ships == (
        Ship("wedge", "small", 120.0, 60.0, 90.0, 1, None),
        Ship("vader", "huge-short", 400.0, 800.0, 265.5, 2, None),
    )


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_examples_load_the_same_from_json(tmp_path: Path, example: Path) -> None:
    from_toml = load_scene(example)
    path = write_scene(tmp_path, json.dumps(read_scene_data(example)), "example.json")
    from_json = load_scene(path)
    assert from_toml.to_dict() == from_json.to_dict()
    assert from_toml.ships == from_json.ships
    assert len(from_toml.ships) >= 2


def test_a_scene_written_back_loads_to_the_same_scene(tmp_path: Path) -> None:
    scene = load_scene(write_scene(tmp_path, FULL_TOML))
    again = load_scene(write_scene(tmp_path, json.dumps(scene.to_dict()), "again.json"))
    assert again.to_dict() == scene.to_dict()


# -- game rules are not input errors -----------------------------------------------------


def test_scenes_that_break_game_rules_still_load(tmp_path: Path) -> None:
    text = """
    [[obstacles]]
    id = "edge-rock"
    token = "coreasteroid0"
    at = [30, 30]

    [[obstacles]]
    id = "twin-rock"
    token = "coreasteroid3"
    at = [40, 40]

    [[ships]]
    id = "a"
    base = "small"
    at = [450, 450]

    [[ships]]
    id = "b"
    base = "large"
    at = [460, 455]

    [[ships]]
    id = "fled"
    base = "small"
    at = [-500, 2000]
    """
    scene = load_toml(tmp_path, text)
    assert scene.ids == ("edge-rock", "twin-rock", "a", "b", "fled")
    ruleset = scene.ruleset
    a, b, fled = scene.ships
    assert a.polygon(ruleset).intersection(b.polygon(ruleset)).area > 0  # overlapping ships
    assert not fled.polygon(ruleset).intersects(scene.area.polygon())  # wholly off the table


def test_parse_scene_labels_inline_scenes() -> None:
    with pytest.raises(SceneError) as info:
        parse_scene({"ships": [{"id": "a", "base": "small"}]})
    check_where(info.value, "<scene>", "ships[0] 'a'", "at", "missing required key")
