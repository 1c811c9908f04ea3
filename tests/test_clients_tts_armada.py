"""Armada mod ships: saves written from the mod's facts read back to the same ships.

Facts used (tabletop/app/clients/facts.py): 1 TTS unit = 25.4 mm, the 6'x3' table centred
at the origin with player 1 at -z, a ship known by its base collider (misc/bases/<size>.obj
or the old paste.ee files), facing +z at rotY = 0 (rotY clockwise), its hull the folder of
its model, and a huge ship's base centre 4.379 in ahead of its model's origin.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from common import run
from hypothesis import given, settings
from hypothesis import strategies as st
from tts_saves import armada_ship

from tabletop.app.clients import ClientImport, read_client
from tabletop.obstacles.sceneformat import scene_from_dict


def _read(objects: list[dict[str, Any]], mode: str = "") -> ClientImport:
    document = {"SaveName": "", "GameMode": mode, "ObjectStates": objects}
    return read_client(json.dumps(document).encode(), name="a.json")


def test_ships_by_base_collider_with_their_hulls() -> None:
    position = _read(
        [
            armada_ship("v1", "Victory II-class Star Destroyer", "medium.obj", "empire/victory",
                        (500.0, 200.0), 90.0),
            armada_ship("m1", "MC80 Battle Cruiser", "large.obj", "rebel/mc80l",
                        (1300.0, 700.0), 270.0),
            armada_ship("q1", "(3/3) [3] X-wing Squadron", "squad.obj", "", (914.4, 457.2), 0.0),
            armada_ship("g1", "Gozanti-class Cruisers", "http://paste.ee/r/eDbf1",
                        "separatist/gozanti", (100.0, 100.0), 45.0),
        ]
    )  # fmt: skip
    assert (position.source.client, position.ruleset) == ("tts-armada", "armada")
    got = [(i.id, i.became, i.hull, i.player) for i in position.imported]
    assert got == [
        ("Victory II-class Star Destroyer", "medium", "victory", 1),
        ("MC80 Battle Cruiser", "large", "mc80-liberty", 2),
        ("(3/3) [3] X-wing Squadron", "squadron", None, 1),
        # The Separatist Gozanti's folder has no hull of armada-hulls.json: no hull.
        ("Gozanti-class Cruisers", "small", None, 1),
    ]
    for ship, (x, y, heading) in zip(
        position.imported,
        [(500.0, 200.0, 90.0), (1300.0, 700.0, 270.0), (914.4, 457.2, 0.0), (100.0, 100.0, 45.0)],
        strict=True,
    ):
        assert (ship.x_mm, ship.y_mm) == pytest.approx((x, y), abs=1e-3)
        assert ship.angle_deg == pytest.approx(heading, abs=1e-3)
    assert position.skipped == ()
    assert not any("Armada mod: a ship" in text for text in position.unconfirmed)


def test_a_ship_at_rot_y_zero_faces_plus_z_and_turns_clockwise() -> None:
    # rotY = 0: bow at +z, scene heading 90 (toward player 2); rotY = 90 (clockwise from
    # above): bow at +x, heading 0. Written by hand, not through the helper's heading.
    raw = armada_ship("s1", "CR90", "small.obj", "rebel/cr90", (914.4, 457.2), 90.0)
    raw["Transform"] |= {"posX": 2.0, "posZ": -1.0, "rotY": 0.0}
    turned = {**raw, "GUID": "s2", "Nickname": "CR90 b"}
    turned["Transform"] = raw["Transform"] | {"posX": -2.0, "rotY": 90.0}
    first, second = _read([raw, turned]).imported
    assert (first.x_mm, first.y_mm, first.angle_deg) == pytest.approx(
        (914.4 + 50.8, 457.2 - 25.4, 90.0)
    )
    assert (second.x_mm, second.y_mm, second.angle_deg) == pytest.approx(
        (914.4 - 50.8, 457.2 - 25.4, 0.0)
    )


def test_a_huge_ship_stands_at_its_base_centre() -> None:
    # The model's origin at (0, 0) turned rotY = 90: the base centre is 4.379 in ahead,
    # along +x: 4.379 * 25.4 = 111.2266 mm right of the table's centre.
    raw = armada_ship("h1", "Super Star Destroyer", "huge.obj", "empire/ssd", (0.0, 0.0), 0.0)
    raw["Transform"] |= {"posX": 0.0, "posZ": 0.0, "rotY": 90.0}
    (ship,) = _read([raw]).imported
    assert (ship.became, ship.hull) == ("huge", "super-star-destroyer")
    assert (ship.x_mm, ship.y_mm) == pytest.approx((914.4 + 111.2266, 457.2), abs=1e-3)
    assert ship.angle_deg == pytest.approx(0.0)
    placed = armada_ship("h2", "SSD", "huge.obj", "empire/ssd", (600.0, 300.0), 150.0)
    (again,) = _read([placed]).imported
    assert (again.x_mm, again.y_mm, again.angle_deg) == pytest.approx(
        (600.0, 300.0, 150.0), abs=1e-3
    )


def test_a_huge_ship_is_on_the_table_by_its_base_centre() -> None:
    # Facing +x at the left edge: the base centre at x = 5 mm is on the table; the model's
    # origin, 111.2266 mm behind it at x = -106.2 mm, is past the 100 mm fled-ship margin.
    raw = armada_ship("h1", "SSD", "huge.obj", "empire/ssd", (5.0, 457.2), 0.0)
    assert (raw["Transform"]["posX"] + 36.0) * 25.4 == pytest.approx(-106.2266, abs=1e-3)
    position = _read([raw])
    assert [(i.id, round(i.x_mm, 3)) for i in position.imported] == [("SSD", 5.0)]
    assert position.skipped == ()


def test_a_model_of_another_base_gives_no_hull_and_a_scaled_base_is_skipped() -> None:
    wrong = armada_ship("w1", "Odd", "small.obj", "empire/victory", (300.0, 300.0), 90.0)
    scaled = armada_ship("z1", "Big", "medium.obj", "empire/victory", (400.0, 300.0), 90.0, 1.5)
    position = _read([wrong, scaled])
    ((ident, base, hull),) = [(i.id, i.became, i.hull) for i in position.imported]
    assert (ident, base, hull) == ("Odd", "small", None)
    (skipped,) = position.skipped
    assert skipped.id == "z1"
    assert "at scale 1.5 x 1.5" in skipped.reason


def test_scale_just_inside_the_tolerance_is_a_ship() -> None:
    inside = armada_ship("i1", "In", "small.obj", "", (300.0, 300.0), 90.0, 1.0099)
    outside = armada_ship("o1", "Out", "small.obj", "", (500.0, 300.0), 90.0, 1.0101)
    position = _read([inside, outside])
    assert [i.id for i in position.imported] == ["In"]
    assert [s.id for s in position.skipped] == ["o1"]


def test_the_scene_keeps_the_hull_and_loads() -> None:
    position = _read(
        [
            armada_ship("v1", "Victory", "medium.obj", "empire/victory", (500.0, 200.0), 90.0),
            armada_ship("q1", "Squadron", "squad.obj", "", (700.0, 200.0), 90.0),
        ]
    )
    data = position.scene_data()
    assert data["ships"][0]["hull"] == "victory"
    assert "hull" not in data["ships"][1]
    report = position.report()
    assert report["imported"][0]["hull"] == "victory"
    scene = scene_from_dict(data)
    assert [(s.id, s.base, s.hull) for s in scene.ships] == [
        ("Victory", "medium", "victory"),
        ("Squadron", "squadron", None),
    ]


def test_other_custom_models_are_still_skipped() -> None:
    ship = armada_ship("v1", "Victory", "medium.obj", "empire/victory", (500.0, 200.0), 90.0)
    token = {"GUID": "t1", "Name": "Custom_Model", "Nickname": "Command Base",
             "CustomMesh": {"ColliderURL": "https://x/TTS_armada/assets/misc/command_base_collider.obj"}}  # fmt: skip
    position = _read([ship, token])
    assert [i.id for i in position.imported] == ["Victory"]
    assert "its collider is none the mod names" in position.skipped[0].reason


def test_the_command_prints_and_writes_the_hull(tmp_path: Path) -> None:
    document = {
        "SaveName": "",
        "ObjectStates": [
            armada_ship("v1", "Victory", "medium.obj", "empire/victory", (500.0, 200.0), 90.0)
        ],
    }
    source = tmp_path / "armada.json"
    source.write_text(json.dumps(document), encoding="utf-8")
    scene = tmp_path / "scene.toml"
    code, out, err = run("import", str(source), "-o", str(scene))
    assert code == 0, err
    assert (
        "+ Victory (v1): ship medium at (500.0, 200.0), heading 90.0, player 1, hull victory" in out
    )
    (ship,) = tomllib.loads(scene.read_text("utf-8"))["ships"]
    assert (ship["base"], ship["hull"]) == ("medium", "victory")
    code, out, err = run("check", str(scene))
    assert code == 0, out + err


@settings(max_examples=60, deadline=None)
@given(
    x=st.floats(0.0, 1828.8),
    y=st.floats(0.0, 914.4),
    heading=st.floats(0.0, 359.99),
    collider=st.sampled_from(["small.obj", "medium.obj", "large.obj", "huge.obj", "squad.obj"]),
)
def test_any_ship_reads_back_to_its_pose(x: float, y: float, heading: float, collider: str) -> None:
    # Written from the facts (32-bit floats, as TTS holds them: under 0.001 mm here).
    (ship,) = _read([armada_ship("p1", "P", collider, "", (x, y), heading)]).imported
    assert ship.became == collider.removesuffix(".obj").replace("squad", "squadron")
    assert (ship.x_mm, ship.y_mm) == pytest.approx((x, y), abs=1e-3)
    assert abs((ship.angle_deg - heading + 180.0) % 360.0 - 180.0) < 1e-3
