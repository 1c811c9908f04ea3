"""The TTS readers: saves written from the format facts read back to the same scene."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tts_saves import (
    OUTLINES,
    PURPLE_ORANGE_X,
    RED_BLUE_X,
    bag,
    die,
    mat,
    named_obstacle,
    outlined_obstacle,
    playmat_tile,
    save,
    ship,
    tts_rotate,
    with_states,
)

from tabletop.app.clients import ClientFileError, ClientImport, read_client, sniff
from tabletop.app.clients.model import unique_ids

FIXTURE = Path(__file__).parent / "data/tts/xwing2-backup-1.11.15-gasclouds.json"
RESOLUTION_MM = 0.001


def _read(document: dict[str, Any], table: str | None = None) -> ClientImport:
    return read_client(json.dumps(document).encode(), name="t.json", table=table)


def _angle_gap(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


def test_the_real_extract_gas_cloud_by_hand() -> None:
    # The record 55377c of the mod's own save: pose worked out here from the format
    # facts with the mod's own rotation formula (Vect.RotateRad).
    position = read_client(FIXTURE)
    assert position.source.client == "tts-xwing2"
    assert position.source.version == "1.11.15"
    (cloud,) = position.imported
    entry = OUTLINES["GasCloud5-col.obj"]
    assert (cloud.id, cloud.source_id, cloud.became) == ("Gas Cloud 5", "55377c", "gascloud6")
    px, pz, rot_y, scale = -16.8762665, -7.556241, 164.980133, 0.975
    cx, cz = entry["centroid"]
    dx, dz = tts_rotate(-cx * scale, cz * scale, rot_y)  # face down: x mirrored first
    assert cloud.x_mm == pytest.approx((px + dx - RED_BLUE_X) / 0.03637 + 457.2, abs=1e-6)
    assert cloud.y_mm == pytest.approx((pz + dz) / 0.03637 + 457.2, abs=1e-6)
    # The token's +x axis: into the mesh frame (turned back by the fitted angle), mirrored
    # (face down), turned by rotY; a flipped token's +x points at angle + 180.
    a = math.radians(entry["angle_deg"])
    tx, tz = tts_rotate(-math.cos(a), -math.sin(a), rot_y)
    assert cloud.flipped is True
    assert _angle_gap(cloud.angle_deg, math.degrees(math.atan2(tz, tx)) + 180.0) < 1e-9
    assert cloud.angle_deg == pytest.approx(49.679867, abs=1e-6)
    (stack,) = position.skipped
    assert stack.id == "55377c"
    assert "1 state" in stack.reason
    (match,) = position.matches
    assert match.token == "gascloud6"
    assert 3.5 < match.residual_mm < 4.5
    assert any("outline table" in text for text in position.unconfirmed)


def test_ships_obstacles_mats_dice_bags_and_state_stacks() -> None:
    cloud = outlined_obstacle("o1", "Gas Cloud 6", "GasCloud6-col.obj", 300.0, 450.0, 30.0, False)
    document = save([
        mat("m1", "Red-Blue", RED_BLUE_X),
        ship("s1", "Wedge", "small", 100.0, 50.0, 90.0),
        ship("s2", "Wedge", "large", 700.0, 860.0, 270.0),
        with_states(cloud, [named_obstacle("o9", "Asteroid 2", 0.0, 0.0, 0.0, False)]),
        outlined_obstacle("o2", "Asteroid 1", "Core5-col.obj", 600.0, 400.0, 75.0, True),
        named_obstacle("o3", "Asteroid 3", 500.0, 300.0, 0.0, False),
        die("d1"),
        bag("b1", "Dice bag", [die("d2"), die("d3")]),
    ])  # fmt: skip
    position = _read(document)
    assert position.table == {"source_id": "m1", "name": "Red-Blue"}
    by_id = {i.id: i for i in position.imported}
    assert list(by_id) == ["Wedge", "Wedge-2", "Gas Cloud 6", "Asteroid 1"]
    wedge, other = by_id["Wedge"], by_id["Wedge-2"]
    assert (wedge.x_mm, wedge.y_mm) == pytest.approx((100.0, 50.0), abs=RESOLUTION_MM)
    assert (wedge.angle_deg, wedge.player, wedge.became) == (90.0, 1, "small")
    assert (other.player, other.became) == (2, "large")
    assert _angle_gap(other.angle_deg, 270.0) < 1e-3
    gas = by_id["Gas Cloud 6"]
    assert gas.became == "gascloud4"
    assert not gas.flipped
    assert (gas.x_mm, gas.y_mm) == pytest.approx((300.0, 450.0), abs=RESOLUTION_MM)
    assert _angle_gap(gas.angle_deg, 30.0) < 1e-3
    # The mod's Core5 mesh is the catalog's coreasteroid2 ("Asteroid 3") mirrored.
    rock = by_id["Asteroid 1"]
    assert (rock.became, rock.flipped) == ("coreasteroid2", True)
    assert (rock.x_mm, rock.y_mm) == pytest.approx((600.0, 400.0), abs=RESOLUTION_MM)
    assert _angle_gap(rock.angle_deg, 75.0) < 1e-3
    skipped = {(s.id, s.reason.split(":")[0]) for s in position.skipped}
    assert skipped == {
        ("o1", "a state stack"),
        ("o3", "an obstacle (asteroid) whose collider (none) is not in the outline table"),
        ("d1", "a die"),
        ("b1", "a bag holding 2 objects"),
    }


def test_two_mats_with_pieces_need_table() -> None:
    document = save([
        mat("m1", "Red-Blue", RED_BLUE_X),
        mat("m2", "Purple-Orange", PURPLE_ORANGE_X),
        ship("s1", "A", "small", 100.0, 100.0, 90.0),
        ship("s2", "B", "small", 100.0, 100.0, 90.0, mat_x=PURPLE_ORANGE_X),
        ship("s3", "C", "small", 200.0, 100.0, 90.0, mat_x=PURPLE_ORANGE_X),
    ])  # fmt: skip
    with pytest.raises(ClientFileError) as error:
        _read(document)
    text = str(error.value)
    assert "m1 'Red-Blue': 1 pieces" in text
    assert "m2 'Purple-Orange': 2 pieces" in text
    chosen = _read(document, table="m2")
    assert [i.id for i in chosen.imported] == ["B", "C"]
    assert {s.id for s in chosen.skipped} == {"s1", "m1"}
    assert _read(document, table="m1").table == {"source_id": "m1", "name": "Red-Blue"}
    with pytest.raises(ClientFileError, match="no mat has the GUID or nickname 'zz'"):
        _read(document, table="zz")


def test_hidden_mats_tiles_unmarked_mats_and_other_layouts() -> None:
    pieces = [ship("s1", "A", "small", 100.0, 100.0, 90.0)]
    hidden = mat("h1", "Epic", 0.0, layout="Epic", y=-5.0)
    position = _read(save([mat("m1", "Red-Blue", RED_BLUE_X), hidden, playmat_tile("t1"), *pieces]))
    assert position.table == {"source_id": "m1", "name": "Red-Blue"}
    reasons = {s.id: s.reason for s in position.skipped}
    assert reasons == {
        "h1": "a mat of the Epic layout, hidden under the table",
        "t1": "a playmat image tile: not a mat",
    }
    assert not any("without the __XW_Mat marker" in t for t in position.unconfirmed)
    unmarked = _read(save([mat("m1", "Red-Blue", RED_BLUE_X, marked=False), *pieces]))
    assert unmarked.table == {"source_id": "m1", "name": "Red-Blue"}
    assert any("without the __XW_Mat marker" in t for t in unmarked.unconfirmed)
    epic = mat("e1", "Epic", 0.0, nickname="Epic mat", layout="Epic")
    with pytest.raises(ClientFileError, match="e1 'Epic mat' \\(Epic\\)"):
        _read(save([epic, *pieces]))


def test_without_mats_the_layout_mat_that_holds_pieces() -> None:
    position = _read(save([ship("s1", "A", "medium", 457.2, 20.0, 0.0, mat_x=PURPLE_ORANGE_X)]))
    assert position.table is not None
    assert position.table["name"].startswith("Purple-Orange")
    assert position.imported[0].became == "medium"
    assert position.imported[0].x_mm == pytest.approx(457.2, abs=RESOLUTION_MM)


def test_obstacles_by_name_or_far_from_their_token_are_not_guessed() -> None:
    named = named_obstacle("g1", "Gas Cloud 5", 400.0, 400.0, 0.0, False, "gascloud")
    swollen = outlined_obstacle("g2", "Gas Cloud 6", "GasCloud6-col.obj", 400.0, 600.0, 0.0, False)
    swollen["Transform"]["scaleX"] = swollen["Transform"]["scaleZ"] = 1.2
    position = _read(save([named, swollen]))
    assert position.imported == ()
    first, second = position.skipped
    assert "names are not used" in first.reason
    assert "GasCloud6-col.obj) at scale 1.2 is" in second.reason
    assert "a match must be within 5 mm" in second.reason


def test_first_edition_and_armada_are_recognised() -> None:
    first = save([ship("s1", "Luke", "small", 100.0, 100.0, 90.0)], mode="")
    first["ObjectStates"][0]["LuaScript"] += "mm_igu_ratio = 0.036125\n"
    first["ObjectStates"].append(mat("gr", "Green-Red Playmat", RED_BLUE_X, marked=False))
    plain = ship("s2", "Biggs LGS", "small", 300.0, 100.0, 90.0)
    plain["LuaScript"], plain["LuaScriptState"] = "", ""
    first["ObjectStates"].append(plain)
    position = _read(first)
    assert (position.source.client, position.ruleset) == ("tts-xwing1", "xwing1")
    assert position.table is not None
    assert position.table == {"source_id": "gr", "name": "Green-Red Playmat"}
    # Every Figurine is a ship in the 1st-edition mod; 'LGS' in its name: a large base.
    assert [(i.id, i.became) for i in position.imported] == [
        ("Luke", "small"),
        ("Biggs LGS", "large"),
    ]
    # 1st edition: 0.036125 units per mm.
    x = (RED_BLUE_X + (100.0 - 457.2) * 0.03637 - RED_BLUE_X) / 0.036125 + 457.2
    assert position.imported[0].x_mm == pytest.approx(x, abs=1e-3)
    station = {
        "GUID": "st1", "Name": "Custom_Model", "Nickname": "Station",
        "Transform": {"posX": 10.0, "posZ": -5.0, "rotY": 90.0},
        "CustomMesh": {"ColliderURL": "http://paste.ee/r/Hm8Hf"},
    }  # fmt: skip
    gas = {**station, "GUID": "gc1", "Nickname": "Gas Cloud 1",
           "CustomMesh": {"ColliderURL": "http://paste.ee/r/CGICy"}}  # fmt: skip
    armada = _read({"SaveName": "", "ObjectStates": [station, gas]})
    assert (armada.source.client, armada.ruleset) == ("tts-armada", "armada")
    (placed,) = armada.imported
    # 1 unit = 25.4 mm from the table's centre (914.4, 457.2); rotY 90 clockwise.
    assert (placed.x_mm, placed.y_mm) == pytest.approx((914.4 + 254.0, 457.2 - 127.0))
    assert (placed.became, placed.angle_deg) == ("station", 270.0)
    assert "no such token" in armada.skipped[0].reason
    assert any("6'x3'" in text for text in armada.unconfirmed)


@pytest.mark.parametrize(
    ("text", "where", "key"),
    [
        ('{"ObjectStates": []}', "t.json", "ObjectStates"),
        ('{"ObjectStates": {"a": 1}}', "t.json", "ObjectStates"),
        (
            '{"ObjectStates": [{"GUID": "abc", "Transform": {"posX": NaN}}]}',
            "'abc'",
            "Transform.posX",
        ),
        ('{"ObjectStates": [{"GUID": "abc", "Transform": {"posZ": Infinity}}]}', "'abc'", "posZ"),
        (
            '{"ObjectStates": [{"GUID": "abc", "Transform": {"rotY": "x"}}]}',
            "'abc'",
            "Transform.rotY",
        ),
        ('{"ObjectStates": [{"GUID": "abc", "Transform": [1]}]}', "'abc'", "Transform"),
        ('{"ObjectStates": [5]}', "ObjectStates[0]", ""),
        ('{"ObjectStates": [{"GUID": 7}]}', "ObjectStates[0]", "GUID"),
    ],
)
def test_bad_input_names_file_object_and_key(text: str, where: str, key: str) -> None:
    data = text.replace("{", '{"GameMode": "X-Wing 2.0", ', 1).encode()
    with pytest.raises(ClientFileError) as error:
        read_client(data, name="t.json")
    message = str(error.value)
    assert message.startswith("t.json")
    assert where in message
    assert key in message


def test_sniffing_is_by_content() -> None:
    assert sniff(b'{"ObjectStates": [], "GameMode": ""}', "x.txt") == "tts"
    assert sniff(b'{"ruleset": "xwing2"}', "save.json") is None


@given(st.lists(st.text(alphabet="ab-2", max_size=3), max_size=8))
def test_unique_ids_are_unique_and_keep_unique_names(names: list[str]) -> None:
    ids = unique_ids((n, f"g{i}") for i, n in enumerate(names))
    assert len(set(ids)) == len(ids)
    for name, ident in zip(names, ids, strict=True):
        if names.count(name) == 1 and name.strip() and name not in ids[: ids.index(ident)]:
            assert ident.startswith(name.strip() or ident)


_POSE = st.tuples(st.floats(20.0, 894.0), st.floats(20.0, 894.0), st.floats(0.0, 359.999))


@settings(max_examples=40, deadline=None)
@given(
    ships=st.lists(st.tuples(_POSE, st.sampled_from(["small", "medium", "large"])), max_size=4),
    clouds=st.lists(st.tuples(_POSE, st.booleans(), st.sampled_from(sorted(OUTLINES))), max_size=3),
    extras=st.integers(0, 3),
)
def test_random_scenes_read_back_within_the_resolution(
    ships: list[tuple[tuple[float, float, float], str]],
    clouds: list[tuple[tuple[float, float, float], bool, str]],
    extras: int,
) -> None:
    objects = [mat("mat", "Red-Blue", RED_BLUE_X)]
    objects += [
        ship(f"s{i}", f"ship {i}", base, x, y, h) for i, ((x, y, h), base) in enumerate(ships)
    ]
    objects += [
        outlined_obstacle(f"o{i}", f"cloud {i}", mesh, x, y, a, flip)
        for i, ((x, y, a), flip, mesh) in enumerate(clouds)
    ]
    objects += [die(f"d{i}") for i in range(extras)] + [bag("bag", "Bag", [die("x")])]
    position = _read(save(objects))
    got = {i.source_id: i for i in position.imported}
    assert len(got) == len(ships) + len(clouds)
    for i, ((x, y, h), base) in enumerate(ships):
        item = got[f"s{i}"]
        assert (item.x_mm, item.y_mm) == pytest.approx((x, y), abs=RESOLUTION_MM)
        assert _angle_gap(item.angle_deg, h) < 1e-3
        assert item.became == base
        assert item.player == (1 if y <= 457.2 else 2)
    for i, ((x, y, a), flip, mesh) in enumerate(clouds):
        item = got[f"o{i}"]
        assert (item.x_mm, item.y_mm) == pytest.approx((x, y), abs=RESOLUTION_MM)
        assert _angle_gap(item.angle_deg, a) < 1e-3
        assert (item.flipped, item.became) == (flip, OUTLINES[mesh]["token"])
    assert len(position.skipped) == extras + 1


def test_outline_builder_recovers_a_known_pose(tmp_path: Path) -> None:
    # A mesh made from a catalog token, mirrored, turned by 40 degrees, at 1/k the size
    # and moved: the builder must find that token, the mirror, the angle and the scale.
    import importlib.util

    import numpy as np
    from shapely.geometry import Polygon

    from tabletop.geom.rulesets import get_ruleset
    from tabletop.obstacles.catalog import catalog

    spec = importlib.util.spec_from_file_location(
        "build_tts_outlines",
        Path(__file__).parent.parent / "tabletop/app/clients/data/build_tts_outlines.py",
    )
    assert spec is not None
    assert spec.loader is not None
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    token = catalog(get_ruleset("xwing2"))["coreasteroid1"].outline
    k = 0.92 / 0.03637  # mm per mesh unit at object scale 0.92
    a = math.radians(-40.0)
    unturn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    mesh = (token @ unturn.T) * np.array([-1.0, 1.0]) / k + np.array([0.3, -0.2])
    # One triangle per object (a fan from the centroid), as convex colliders are.
    centre = mesh.mean(axis=0)
    triangles = [(centre, mesh[i], mesh[(i + 1) % len(mesh)]) for i in range(len(mesh))]
    union = Polygon(mesh)
    assert abs(sum(Polygon(t).area for t in triangles) - union.area) < 1e-9  # star-shaped
    lines = []
    for number, triangle in enumerate(triangles):
        lines.append(f"o t{number}")
        lines += [f"v {x} 0.0 {z}" for x, z in triangle]
    path = tmp_path / "Test-col.obj"
    path.write_text("\n".join(lines) + "\n")
    footprint = builder.footprint(path)
    residual, mirrored, angle, scale = builder.fit(footprint, token)
    assert residual < 0.05
    assert mirrored is True
    assert _angle_gap(angle, 40.0) < 0.05
    assert scale * 0.03637 == pytest.approx(0.92, rel=1e-3)
