"""Armada: a hull is printed for one size of ship; a hull on another base is bad input.

The sizes are the Tabletop Simulator mod's ship classes (``geom/data/armada-hulls.json``,
``base``), checked here against the rules' own size classes for the ships a judge meets
most: the Victory is medium, the CR90, Nebulon-B and Gladiator small, the Imperial large.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from common import run, scene_file

from tabletop.app.scene.scenefile import SceneError, parse_scene
from tabletop.geom.hulls import hull_base, hull_names

SHIP_BASES = ("small", "medium", "large", "huge")


def _scene(base: str, hull: str) -> dict[str, object]:
    ship = {"id": "s", "base": base, "hull": hull, "at": [900.0, 400.0]}
    return {"ruleset": "armada", "area": "6x3ft", "phase": "play", "ships": [ship]}


@pytest.mark.parametrize(
    ("hull", "base"),
    [
        ("victory", "medium"),
        ("cr90", "small"),
        ("nebulon-b", "small"),
        ("gladiator", "small"),
        ("imperial", "large"),
        ("assault-frigate-mk2", "medium"),
        ("mc80-liberty", "large"),
        ("super-star-destroyer", "huge"),
    ],
)
def test_known_hulls_sit_on_their_size_class(hull: str, base: str) -> None:
    assert hull_base(hull) == base


@pytest.mark.parametrize("hull", hull_names())
def test_every_hull_loads_on_its_own_base_and_on_no_other(hull: str) -> None:
    own = hull_base(hull)
    assert own in SHIP_BASES
    assert parse_scene(_scene(own, hull)).ships[0].hull == hull
    for base in SHIP_BASES:
        if base == own:
            continue
        with pytest.raises(SceneError) as info:
            parse_scene(_scene(base, hull), "fleet.json")
        assert info.value.where == "fleet.json: ships[0] 's': key 'base'"
        assert info.value.message == (
            f"hull '{hull}' is on a {own} base; expected base = '{own}', got '{base}'"
        )


def test_the_issue_scene_exits_2_naming_file_entry_key_and_the_hull_base(tmp_path: Path) -> None:
    path = scene_file(
        tmp_path,
        """
        ruleset = "armada"
        area = "6x3ft"
        [[ships]]
        id = "vsd"
        base = "small"
        hull = "victory"
        at = [900, 80]
        """,
    )
    code, out, err = run("check", path)
    assert (code, out) == (2, "")
    assert err == (
        f"tabletop check: error: {path}: ships[0] 'vsd': key 'base': hull 'victory' is on a "
        "medium base; expected base = 'medium', got 'small'\n"
    )
    code, out, _ = run("check", path, "--json")
    assert code == 2
    assert json.loads(out)["error"]["where"] == f"{path}: ships[0] 'vsd': key 'base'"


def test_a_query_request_with_a_hull_on_the_wrong_base_is_answered_with_the_error() -> None:
    import io
    import sys

    from tabletop.app.cli import main

    request = {"op": "check", "scene": _scene("small", "victory")}
    saved, out, err = sys.stdin, io.StringIO(), io.StringIO()
    sys.stdin = io.StringIO(json.dumps(request) + "\n")
    try:
        main(["query"], out=out, err=err)
    finally:
        sys.stdin = saved
    answer = json.loads(out.getvalue())
    assert "hull 'victory' is on a medium base" in answer["error"]["message"]
