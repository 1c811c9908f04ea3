"""Printed names beside the ids in ``check`` and ``measure`` (``--printed-names``, or a
scene's ``printed_names = true``), as ``render --printed-names`` writes them.

The names are the catalog's (docs/scenes.md): X-Wing ``coreasteroid0`` is printed
"Asteroid 5", ``coreasteroid1`` "Asteroid 1". ``rock-a`` sits 15 mm from the bottom
edge, well inside the 200 mm no-obstacle band, whatever the token's outline (every X-Wing
asteroid is under 100 mm across), so ``check`` finds an obstacle-edge violation of it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from common import run, write_scene

SCENE = """
ruleset = "xwing2"
{flag}
[[obstacles]]
id = "rock-a"
token = "coreasteroid0"
at = [457.2, 65.0]
[[obstacles]]
id = "rock-ab"
token = "Asteroid 1"
at = [457.2, 560.0]
[[ships]]
id = "a"
base = "small"
at = [300.0, 50.0]
"""


def scene_path(tmp_path: Path, *, in_scene: bool) -> Path:
    flag = "printed_names = true" if in_scene else ""
    return write_scene(tmp_path, SCENE.format(flag=flag))


@pytest.mark.parametrize("in_scene", [True, False])
def test_check_names_the_tokens_beside_their_ids(tmp_path: Path, in_scene: bool) -> None:
    path = scene_path(tmp_path, in_scene=in_scene)
    options = [] if in_scene else ["--printed-names"]
    code, out, _ = run("check", path, *options)
    assert code == 1
    assert "1. obstacle-edge: rock-a (Asteroid 5) is " in out
    assert "     fix: move rock-a (Asteroid 5) by (" in out
    # The file name in the head line is not an id.
    assert out.startswith(f"{path}: xwing2, ILLEGAL")
    code, out, _ = run("check", path, "--json", *options)
    answer = json.loads(out)
    (violation,) = [v for v in answer["violations"] if v["rule"] == "obstacle-edge"]
    assert violation["objects"] == ["rock-a"]  # ids stay ids
    assert violation["fix"]["object"] == "rock-a"
    assert violation["message"].startswith("rock-a (Asteroid 5) is ")
    assert answer["printed_names"] == {"rock-a": "Asteroid 5", "rock-ab": "Asteroid 1"}


def test_without_asking_check_prints_the_ids_alone(tmp_path: Path) -> None:
    path = scene_path(tmp_path, in_scene=False)
    code, out, _ = run("check", path)
    assert code == 1
    assert "Asteroid" not in out
    code, out, _ = run("check", path, "--json")
    assert "printed_names" not in json.loads(out)


def test_measure_names_the_tokens_and_no_longer_id_containing_one(tmp_path: Path) -> None:
    path = scene_path(tmp_path, in_scene=False)
    code, out, _ = run("measure", path, "rock-a", "rock-ab", "--printed-names")
    assert code == 0
    # rock-a inside rock-ab is not named: each id is named where it stands whole.
    assert out.startswith("rock-a (Asteroid 5) to rock-ab (Asteroid 1)\n")
    code, out, _ = run("measure", path, "rock-a", "rock-ab", "--printed-names", "--json")
    answer = json.loads(out)
    assert (answer["from"], answer["to"]) == ("rock-a", "rock-ab")
    assert answer["printed_names"] == {"rock-a": "Asteroid 5", "rock-ab": "Asteroid 1"}


def test_a_scene_s_printed_names_must_be_true_or_false(tmp_path: Path) -> None:
    path = write_scene(tmp_path, SCENE.format(flag='printed_names = "yes"'))
    code, out, err = run("check", path)
    assert (code, out) == (2, "")
    assert "printed_names" in err
    assert "expected true or false" in err


def test_a_scene_s_printed_names_reach_the_picture(tmp_path: Path) -> None:
    path = scene_path(tmp_path, in_scene=True)
    out_file = tmp_path / "table.svg"
    code, _, err = run("render", path, "-o", out_file)
    assert code == 0, err
    picture = out_file.read_text(encoding="utf-8")
    assert "rock-a (Asteroid 5)" in picture
    assert "rock-ab (Asteroid 1)" in picture
