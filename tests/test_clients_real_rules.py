"""What real files need of the TTS and VASSAL readers (import.md, "Real files").

TTS: a ship is what the X-Wing 2.0 mod takes for one (its ``Ship`` tag, with or without
a script); its base is the one its base mesh or collider names
(``…/assets/models/bases/<size>/…``), checked against ``Data.Size``; no size is assumed;
an obstacle is known by its collider or mesh whatever its name. VASSAL: a save names its
module in ``moduledata``, and a save of another module is refused naming it.

Expected poses come from the save writer of ``tts_saves.py`` (built from the format
facts, not from the reader); expected sizes from the URLs and states written here.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from clients_vassal_writer import VShip, saved_game, ship_command
from common import run, run_json
from tts_saves import (
    COLLIDER_URL,
    RED_BLUE_X,
    mat,
    outlined_obstacle,
    save,
    ship,
    transform,
    world,
    write,
)

BASES = "https://raw.githubusercontent.com/JohnnyCheese/TTS_X-Wing2.0/master/assets/models/bases"


def _bare_ship(guid: str, name: str, x_mm: float, y_mm: float, **fields: Any) -> dict[str, Any]:
    """A ship object without script or state: only what `fields` give it."""
    wx, wz = world(x_mm, y_mm)
    return {
        "GUID": guid,
        "Name": "Custom_Model",
        "Nickname": name,
        "Transform": transform(wx, wz, 0.0),
        **fields,
    }


def _base_mesh(size: str) -> dict[str, str]:
    return {"MeshURL": f"{BASES}/{size}/base.obj", "ColliderURL": f"{BASES}/{size}/collider.obj"}


def _import(tmp_path: Path, objects: list[dict[str, Any]]) -> dict[str, Any]:
    path = write(tmp_path / "game.json", save([mat("m1", "Red-Blue", RED_BLUE_X), *objects]))
    return run_json("import", path, "--json")


def _refused(tmp_path: Path, objects: list[dict[str, Any]], *expected: str) -> None:
    path = write(tmp_path / "game.json", save([mat("m1", "Red-Blue", RED_BLUE_X), *objects]))
    code, out, err = run("import", path, "-o", tmp_path / "out.toml")
    assert (code, out) == (2, ""), err
    for text in expected:
        assert text in err, err
    assert not (tmp_path / "out.toml").exists()


# --- ships ---------------------------------------------------------------------------


def test_a_ship_tag_makes_a_ship_without_a_script(tmp_path: Path) -> None:
    tagged = _bare_ship("t1", "Tagged", 200.0, 100.0, Tags=["Ship"], CustomMesh=_base_mesh("small"))
    report = _import(tmp_path, [tagged])
    [entry] = report["imported"]
    assert (entry["id"], entry["kind"], entry["became"]) == ("Tagged", "ship", "small")
    assert entry["at"] == pytest.approx([200.0, 100.0], abs=1e-3)
    # rotY 0 faces +z: heading 90, facing player 2.
    assert entry["heading"] == pytest.approx(90.0, abs=1e-3)


def test_an_untagged_scriptless_model_is_not_a_ship(tmp_path: Path) -> None:
    plain = _bare_ship("u1", "Model", 200.0, 100.0, Tags=["Token"], CustomMesh=_base_mesh("small"))
    report = _import(tmp_path, [plain])
    assert report["imported"] == []
    assert report["skipped"][0]["id"] == "u1"


@pytest.mark.parametrize("size", ["small", "medium", "large"])
def test_the_base_comes_from_the_base_mesh_or_collider(tmp_path: Path, size: str) -> None:
    by_collider = _bare_ship(
        "c1", "ByCollider", 200.0, 150.0, Tags=["Ship"],
        CustomMesh={"ColliderURL": f"{BASES}/{size}/collider.obj"},
    )  # fmt: skip
    by_mesh = _bare_ship(
        "c2", "ByMesh", 500.0, 150.0, Tags=["Ship"],
        CustomMesh={"MeshURL": f"{BASES}/{size.upper()}/base.obj"},
    )  # fmt: skip
    by_child = _bare_ship(
        "c3", "ByChild", 700.0, 150.0, Tags=["Ship"],
        ChildObjects=[{"GUID": "b3", "Name": "Custom_Model", "CustomMesh": _base_mesh(size)}],
    )  # fmt: skip
    report = _import(tmp_path, [by_collider, by_mesh, by_child])
    ships = [i for i in report["imported"] if i["kind"] == "ship"]
    assert [(i["id"], i["became"]) for i in ships] == [
        ("ByCollider", size),
        ("ByMesh", size),
        ("ByChild", size),
    ]
    assert any("base mesh or collider" in text for text in report["unconfirmed"])


def test_a_medium_base_without_data_is_not_small(tmp_path: Path) -> None:
    # The bug: Data.Size or 'small' made every such ship small.
    figurine = ship("s1", "Arc", "small", 300.0, 100.0, 90.0)
    del figurine["LuaScriptState"]
    figurine["CustomMesh"] = _base_mesh("medium")
    report = _import(tmp_path, [figurine])
    assert report["imported"][0]["became"] == "medium"


def test_data_size_agreeing_with_the_base_is_taken(tmp_path: Path) -> None:
    figurine = ship("s1", "Falcon", "Large", 300.0, 100.0, 90.0)  # the case differs
    figurine["CustomMesh"] = _base_mesh("large")
    report = _import(tmp_path, [figurine])
    assert report["imported"][0]["became"] == "large"


def test_a_size_conflict_is_refused_naming_both(tmp_path: Path) -> None:
    figurine = ship("s1", "Falcon", "small", 300.0, 100.0, 90.0)
    figurine["CustomMesh"] = _base_mesh("large")
    _refused(
        tmp_path,
        [figurine],
        "object 's1'",
        "Data.Size",
        "large/collider.obj) is large",
        "Data.Size says small",
    )


def test_data_size_alone_gives_the_base(tmp_path: Path) -> None:
    report = _import(tmp_path, [ship("s1", "Vader", "medium", 300.0, 100.0, 90.0)])
    assert report["imported"][0]["became"] == "medium"


def test_a_ship_with_no_size_anywhere_is_skipped(tmp_path: Path) -> None:
    nothing = _bare_ship("n1", "Mystery", 300.0, 100.0, Tags=["Ship"])
    named = _bare_ship("n2", "Decimator LGS", 500.0, 100.0, Tags=["Ship"])
    report = _import(tmp_path, [nothing, named])
    assert [(i["id"], i["became"]) for i in report["imported"]] == [("Decimator LGS", "large")]
    [skipped] = [s for s in report["skipped"] if s["id"] == "n1"]
    assert "size is nowhere in the save" in skipped["reason"]


# --- obstacles -----------------------------------------------------------------------


def _stripped(obj: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """The obstacle without nickname and script, with `fields` instead."""
    out = {k: v for k, v in obj.items() if k not in ("Nickname", "LuaScript")}
    out.update(fields)
    return out


def test_an_obstacle_is_known_by_its_collider_whatever_its_name(tmp_path: Path) -> None:
    marked = outlined_obstacle("o1", "Debris 4", "Debris4-col.obj", 300.0, 400.0, 25.0, False)
    bare = _stripped(marked, GUID="o2")
    misnamed = _stripped(marked, GUID="o3", Nickname="Asteroid 1", Tags=["Obstacle"])
    report = _import(tmp_path, [bare, misnamed])
    obstacles = [i for i in report["imported"] if i["kind"] == "obstacle"]
    assert [i["source_id"] for i in obstacles] == ["o2", "o3"]
    # The save was written for a token at (300, 400), angle 25: both come back there.
    for entry in obstacles:
        assert entry["at"] == pytest.approx([300.0, 400.0], abs=1e-3)
        assert entry["angle"] == pytest.approx(25.0, abs=1e-3)
    assert obstacles[0]["id"] == "o2"  # no nickname: the GUID is its id
    assert [m["token"] for m in report["matches"]] == [obstacles[0]["became"]] * 2


def test_an_obstacle_is_known_by_its_model_mesh(tmp_path: Path) -> None:
    marked = outlined_obstacle("o1", "Gas", "GasCloud6-col.obj", 300.0, 400.0, 10.0, True)
    mesh_only = _stripped(
        marked, CustomMesh={"MeshURL": COLLIDER_URL.format("GasCloud6-model.obj")}
    )
    report = _import(tmp_path, [mesh_only])
    [entry] = report["imported"]
    assert entry["kind"] == "obstacle"
    assert entry["at"] == pytest.approx([300.0, 400.0], abs=1e-3)
    assert entry["flipped"] is True
    assert any("model mesh" in text for text in report["unconfirmed"])


def test_a_collider_of_no_obstacle_is_not_an_obstacle(tmp_path: Path) -> None:
    other = _stripped(
        outlined_obstacle("o1", "x", "Debris4-col.obj", 300.0, 400.0, 0.0, False),
        CustomMesh={"ColliderURL": COLLIDER_URL.format("Debris4-other.obj")},
    )
    report = _import(tmp_path, [other])
    assert report["imported"] == []


# --- a TTS document without objects --------------------------------------------------


def test_a_tts_file_without_object_states_is_named_as_such(tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_text(json.dumps({"SaveName": "Table", "GameMode": "X-Wing 2.0", "Date": ""}))
    for command in ("import", "check"):
        code, out, err = run(command, path)
        assert (code, out) == (2, "")
        assert "a Tabletop Simulator file (SaveName 'Table', GameMode 'X-Wing 2.0')" in err
        assert "no ObjectStates" in err
        assert "unknown key" not in err


def test_a_scene_file_is_still_a_scene_file(tmp_path: Path) -> None:
    path = tmp_path / "scene.json"
    path.write_text(json.dumps({"ruleset": "xwing2", "SaveName": "x"}))
    code, _, err = run("check", path)
    assert code == 2
    assert "unknown key" in err


# --- VASSAL: the module a save names -------------------------------------------------


def _vsav(moduledata: bytes | None) -> bytes:
    buffer = io.BytesIO()
    ships = [VShip("s1", "Wedge", "Small", 100.0, 100.0, 90)]
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("savedGame", saved_game([ship_command(s) for s in ships]))
        if moduledata is not None:
            archive.writestr("moduledata", moduledata)
    return buffer.getvalue()


def _meta(name: str, version: str = "1.3b06", vassal: str = "3.2.17") -> bytes:
    return (
        f'<?xml version="1.0"?><data version="1"><version>{version}</version>'
        f"<VassalVersion>{vassal}</VassalVersion><name>{name}</name></data>"
    ).encode()


def test_a_save_of_another_module_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.vsav"
    path.write_bytes(_vsav(_meta("TRC4")))
    for argv in (("import", path), ("check", path), ("render", path, "-o", tmp_path / "x.svg")):
        code, out, err = run(*argv)
        assert (code, out) == (2, ""), argv
        assert "a save of 'TRC4' 1.3b06, not the X-Wing module" in err
        assert "moduledata" in err


@pytest.mark.parametrize(
    "name", ["Star Wars X-Wing Miniatures Game", "Star Wars: X-Wing Miniatures Game"]
)
def test_the_x_wing_module_is_read_and_named(tmp_path: Path, name: str) -> None:
    path = tmp_path / "xwing.vsav"
    path.write_bytes(_vsav(_meta(name, "9.2.3", "3.5.8")))
    report = run_json("import", path, "--json")
    assert report["source"]["module"] == name
    assert report["source"]["version"] == "module 9.2.3, VASSAL 3.5.8"
    assert [i["id"] for i in report["imported"]] == ["Wedge"]
    code, out, _ = run("import", path)
    assert code == 0
    assert f"vassal-xwing vsav of {name!r} module 9.2.3" in out


def test_a_save_naming_no_module_is_read_as_the_x_wing_one(tmp_path: Path) -> None:
    for meta in (None, b"<data/>"):
        path = tmp_path / "old.vsav"
        path.write_bytes(_vsav(meta))
        report = run_json("import", path, "--json")
        assert "module" not in report["source"]
        assert any("names no module" in text for text in report["unconfirmed"])


def test_a_file_of_tag_only_ships_is_the_2_0_mods_by_its_models(tmp_path: Path) -> None:
    # No GameMode, no script: the 2.0 mod's base models name the mod.
    tagged = _bare_ship("t1", "Tagged", 200.0, 100.0, Tags=["Ship"], CustomMesh=_base_mesh("large"))
    path = write(tmp_path / "objects.json", {"ObjectStates": [tagged]})
    report = run_json("import", path, "--json")
    assert report["source"]["client"] == "tts-xwing2"
    assert [(i["id"], i["became"]) for i in report["imported"]] == [("Tagged", "large")]
