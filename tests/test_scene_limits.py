"""The limits of ``scene-format.md``, each at its bound and just beyond it.

File size (10 MB), coordinates (a million millimetres), outline vertices (10,000) and
objects (10,000): a file at a bound is read, one past it is refused with a message naming
the file and the entry, by the loader and by ``tabletop check`` alike.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from scene_contract import assert_rejected, run

from tabletop.app import cli
from tabletop.app.scene.scenefile import (
    MAX_COORDINATE_MM,
    MAX_FILE_BYTES,
    MAX_OBJECTS,
    MAX_OUTLINE_VERTICES,
    SceneError,
    load_scene,
)


def ship(ident: str, x: float = 100.0, y: float = 40.0) -> dict[str, Any]:
    return {"id": ident, "base": "small", "at": [x, y]}


def rejected(path: Path) -> SceneError:
    """Load a file that must fail; check the command line says the same; return the error."""
    with pytest.raises(SceneError) as caught:
        load_scene(path)
    assert_rejected(run("check", str(path)), "check", caught.value, json_out=False)
    return caught.value


def test_a_file_over_ten_megabytes_is_rejected_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    text = json.dumps({"ships": [ship("a")]})
    path.write_text(text + " " * (MAX_FILE_BYTES + 1 - len(text)), encoding="utf-8")
    assert path.stat().st_size == MAX_FILE_BYTES + 1
    error = rejected(path)
    assert error.file == str(path)
    assert f"the file is {MAX_FILE_BYTES + 1} bytes" in error.message
    assert f"at most {MAX_FILE_BYTES} bytes" in error.message


def test_a_file_of_exactly_ten_megabytes_is_read(tmp_path: Path) -> None:
    path = tmp_path / "full.toml"
    text = 'ruleset = "xwing2"\n'
    path.write_text(text + "#" * (MAX_FILE_BYTES - len(text) - 1) + "\n", encoding="utf-8")
    assert path.stat().st_size == MAX_FILE_BYTES
    assert load_scene(path).ruleset.name == "xwing2"


@pytest.mark.parametrize("where", ["x", "y"])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_a_coordinate_beyond_a_million_millimetres_is_rejected(
    tmp_path: Path, where: str, sign: float
) -> None:
    point = [100.0, 40.0]
    point[where == "y"] = sign * math.nextafter(MAX_COORDINATE_MM, math.inf)
    path = tmp_path / "far.json"
    path.write_text(json.dumps({"ships": [{**ship("wedge"), "at": point}]}), encoding="utf-8")
    error = rejected(path)
    assert (error.entry, error.key) == ("ships[0] 'wedge'", "at")
    assert "within ±10^6 mm" in error.message


def test_a_coordinate_of_exactly_a_million_millimetres_is_read(tmp_path: Path) -> None:
    path = tmp_path / "edge.json"
    edge = {"ships": [{**ship("wedge"), "at": [MAX_COORDINATE_MM, -MAX_COORDINATE_MM]}]}
    path.write_text(json.dumps(edge), encoding="utf-8")
    assert load_scene(path).ships[0].x == MAX_COORDINATE_MM
    assert run("check", str(path)).code == cli.EXIT_VIOLATIONS  # it has fled the table


def polygon(count: int, radius: float = 400.0) -> list[list[float]]:
    return [
        [radius * math.cos(2 * math.pi * i / count), radius * math.sin(2 * math.pi * i / count)]
        for i in range(count)
    ]


def test_an_outline_over_ten_thousand_vertices_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "round.json"
    rock = {"id": "round", "outline": polygon(MAX_OUTLINE_VERTICES + 1), "at": [457.2, 457.2]}
    path.write_text(json.dumps({"obstacles": [rock]}), encoding="utf-8")
    error = rejected(path)
    assert (error.entry, error.key) == ("obstacles[0] 'round'", "outline")
    expected = f"expected at most {MAX_OUTLINE_VERTICES} vertices, got {MAX_OUTLINE_VERTICES + 1}"
    assert error.message == expected


def test_an_outline_of_exactly_ten_thousand_vertices_is_read(tmp_path: Path) -> None:
    path = tmp_path / "round.json"
    rock = {"id": "round", "outline": polygon(MAX_OUTLINE_VERTICES), "at": [457.2, 457.2]}
    path.write_text(json.dumps({"obstacles": [rock]}), encoding="utf-8")
    assert len(load_scene(path).obstacles[0].outline) == MAX_OUTLINE_VERTICES


def test_more_than_ten_thousand_objects_are_rejected(tmp_path: Path) -> None:
    path = tmp_path / "crowd.json"
    rocks = [{"id": f"r{i}", "token": "coreasteroid0", "at": [457.2, 457.2]} for i in range(5000)]
    ships = [ship(f"s{i}") for i in range(MAX_OBJECTS - 5000 + 1)]
    path.write_text(json.dumps({"obstacles": rocks, "ships": ships}), encoding="utf-8")
    error = rejected(path)
    assert error.file == str(path)
    assert error.message == f"expected at most {MAX_OBJECTS} objects, got {MAX_OBJECTS + 1}"


def test_exactly_ten_thousand_objects_are_read(tmp_path: Path) -> None:
    path = tmp_path / "crowd.json"
    ships = [ship(f"s{i}", x=float(i % 900), y=float(i // 900)) for i in range(MAX_OBJECTS)]
    path.write_text(json.dumps({"ships": ships}), encoding="utf-8")
    assert len(load_scene(path).ships) == MAX_OBJECTS
