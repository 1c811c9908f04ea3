"""tabletop import, and every scene command reading a TTS save directly."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from common import ROOT, run, run_json, scene_file
from tts_saves import RED_BLUE_X, bag, die, mat, outlined_obstacle, save, ship, write

from tabletop.app.clients.facts import FACTS

FIXTURE = ROOT / "tests/data/tts/xwing2-backup-1.11.15-gasclouds.json"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A save: two ships named alike 100.5 mm apart, a gas cloud, a die and a bag."""
    return write(tmp_path / "game.json", save([
        mat("m1", "Red-Blue", RED_BLUE_X),
        ship("s1", "Wedge", "small", 300.0, 100.0, 90.0),
        ship("s2", "Wedge", "small", 300.0, 240.5, 270.0),
        outlined_obstacle("o1", "Gas Cloud 6", "GasCloud6-col.obj", 600.0, 600.0, 10.0, False),
        die("d1"),
        bag("b1", "Dice", [die("d2")]),
    ]))  # fmt: skip


def test_import_writes_toml_and_json_that_load(game: Path, tmp_path: Path) -> None:
    for name in ("out.toml", "out.json"):
        report = run_json("import", game, "-o", tmp_path / name, "--json")
        assert [i["id"] for i in report["imported"]] == ["Wedge", "Wedge-2", "Gas Cloud 6"]
        assert [s["id"] for s in report["skipped"]] == ["d1", "b1"]
        assert report["table"] == {"source_id": "m1", "name": "Red-Blue"}
        assert report["resolution"] == {"position_mm": 0.001, "heading_deg": 0.001}
        assert report["matches"][0]["token"] == "gascloud4"
        assert report["scene"]["source"]["client"] == "tts-xwing2"
        code, _out, err = run("check", tmp_path / name, "--json")
        assert code == 0, err
    text = (tmp_path / "out.toml").read_text()
    assert 'source = { client = "tts-xwing2"' in text
    assert 'phase = "play"' in text


def test_import_never_writes_over_a_file_without_force(game: Path, tmp_path: Path) -> None:
    target = tmp_path / "out.toml"
    target.write_text("kept")
    code, _, err = run("import", game, "-o", target)
    assert code == 2
    assert "exists" in err
    assert target.read_text() == "kept"
    code, _, err = run("import", game, "-o", target, "--force")
    assert code == 0
    assert target.read_text().startswith('ruleset = "xwing2"')
    code, _, err = run("import", game, "-o", tmp_path / "out.txt")
    assert code == 2
    assert ".toml or .json" in err
    assert not (tmp_path / "out.txt").exists()


def test_import_prints_the_scene_and_phase(game: Path) -> None:
    code, out, _ = run("import", game, "--phase", "setup")
    assert code == 0
    assert 'phase = "setup"' in out
    assert "# " in out
    assert "unconfirmed:" in out


def test_scene_commands_take_the_save_and_its_ids(game: Path) -> None:
    measured = run_json("measure", game, "Wedge", "Wedge-2", "--json")
    assert measured["distance"] == pytest.approx(100.5, abs=0.002)
    assert abs(measured["margin"]) == pytest.approx(0.5, abs=0.002)
    assert "within_resolution" not in measured
    report = run_json("report", game, "--json")
    assert [(p["from"], p["to"]) for p in report["pairs"]] == [("Wedge", "Wedge-2")]
    moved = run_json("move", game, "Wedge", "straight", "1", "--json")
    # straight 1: the base moves its own length (40) and the template's (40).
    assert moved["final"]["at"] == pytest.approx([300.0, 180.0], abs=0.002)
    assert run("check", game, "--json")[0] == 0
    code, out, _ = run("check", game, "--json", "--phase", "setup")
    assert code == 1
    assert "ship-deployment" in out


def test_two_mats_need_table_on_every_command(tmp_path: Path) -> None:
    path = write(tmp_path / "two.json", save([
        mat("m1", "Red-Blue", RED_BLUE_X),
        mat("m2", "Purple-Orange", -RED_BLUE_X),
        ship("s1", "A", "small", 100.0, 100.0, 90.0),
        ship("s2", "B", "small", 100.0, 100.0, 90.0, mat_x=-RED_BLUE_X),
    ]))  # fmt: skip
    for argv in (("import", path), ("check", path), ("report", path)):
        code, _out, err = run(*argv)
        assert code == 2
        assert "m1 'Red-Blue': 1 pieces" in err
        assert "m2" in err
    assert run_json("report", path, "--table", "m2", "--json")["pairs"] == []
    code, _, err = run("check", path, "--table", "nowhere")
    assert code == 2
    assert "'nowhere'" in err
    assert "--table" in err


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ('{"GameMode": "X-Wing 2.0", "ObjectStates": []}', "holds no objects"),
        (
            '{"GameMode": "X-Wing 2.0", "ObjectStates": [{"GUID": "a1b2c3", "Transform": '
            '{"posX": NaN}}]}',
            "object 'a1b2c3': key 'Transform.posX': expected a finite",
        ),
        (
            '{"GameMode": "X-Wing 2.0", "ObjectStates": [{"GUID": "a1b2c3", "Transform": '
            '{"rotY": true}}]}',
            "object 'a1b2c3': key 'Transform.rotY': expected a number",
        ),
        (
            '{"GameMode": "X-Wing 2.0", "ObjectStates": [{"GUID": "a1", "Nickname": 5}]}',
            "object 'a1': key 'Nickname'",
        ),
    ],
)
def test_bad_saves_exit_2_and_write_nothing(tmp_path: Path, body: str, needle: str) -> None:
    source = tmp_path / "bad.json"
    source.write_text(body)
    target = tmp_path / "out.toml"
    for argv in (
        ("import", source, "-o", target),
        ("check", source),
        ("measure", source, "a", "b"),
    ):
        code, out, err = run(*argv)
        assert code == 2
        assert err.startswith(f"tabletop {argv[0]}: error: {source}")
        assert needle in err
    assert not target.exists()
    code, out, _ = run("import", source, "--json")
    error = json.loads(out)["error"]
    assert code == 2
    assert needle in f"{error['where']}: {error['message']}"


def test_a_file_over_64_mib_is_refused_with_its_size(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as stream:
        stream.write(b'{"ObjectStates": [')
        stream.truncate(64 * 1024 * 1024 + 1)
    code, _, err = run("import", big)
    assert code == 2
    assert "67108865 bytes" in err
    assert "64 MiB" in err


def test_client_options_on_a_scene_file_and_logs_options_on_a_save(
    game: Path, tmp_path: Path
) -> None:
    scene = scene_file(tmp_path, 'ruleset = "xwing2"\n')
    code, _, err = run("check", scene, "--table", "m1")
    assert code == 2
    assert "--table apply to a client file" in err
    # Step 0 is an option given too (a log's first position), not an option left out.
    code, _, err = run("check", scene, "--step", "0")
    assert code == 2
    assert "--step apply to a client file" in err
    for argv in (("import", game, "--step", "1"), ("import", game, "--steps"),
                 ("check", game, "--all-steps")):  # fmt: skip
        code, _, err = run(*argv)
        assert code == 2, err
        assert "VASSAL log" in err or "not a log" in err, err


def test_within_resolution_only_on_imported_scenes(tmp_path: Path) -> None:
    text = """\
        ruleset = "xwing2"
        phase = "play"
        source = { client = "tts-xwing2", format = "tts-save", position_mm = 1.0 }
        [[ships]]
        id = "a"
        base = "small"
        at = [100, 100]
        [[ships]]
        id = "b"
        base = "small"
        at = [139.6, 100]
        [[ships]]
        id = "c"
        base = "small"
        at = [400, 400]
    """
    imported = scene_file(tmp_path, text)
    code, out, _ = run("check", imported, "--json", "--margins")
    assert code == 1
    answer = json.loads(out)
    (overlap,) = answer["violations"]
    assert overlap["margin"] == pytest.approx(-0.4)
    assert overlap["within_resolution"] is True
    assert next(m.get("within_resolution", False) for m in answer["margins"]) is True
    assert not any(m.get("within_resolution") for m in answer["margins"] if abs(m["margin"]) >= 1)
    near = run_json("measure", imported, "a", "c", "--json")
    assert "within_resolution" not in near
    plain = scene_file(tmp_path, text.replace(
        '        source = { client = "tts-xwing2", format = "tts-save", position_mm = 1.0 }\n', ""
    ), "plain.toml")  # fmt: skip
    _code, out, _ = run("check", plain, "--json", "--margins")
    assert "within_resolution" not in out
    _code, out, _ = run("check", imported)
    assert "within resolution (1 mm" in out
    assert "a b" in out


def test_the_real_extract_imports(tmp_path: Path) -> None:
    report = run_json("import", FIXTURE, "--json")
    assert [(i["id"], i["became"]) for i in report["imported"]] == [("Gas Cloud 5", "gascloud6")]
    assert report["source"] == {"client": "tts-xwing2", "format": "tts-save", "version": "1.11.15"}


def test_docs_list_every_fact() -> None:
    page = (ROOT / "docs/import.md").read_text("utf-8")
    for fact in FACTS.values():
        row = re.search(rf"^\| `{fact.name}` \|.*$", page, re.MULTILINE)
        assert row is not None, fact.name
        assert ("| yes |" if fact.confirmed else "| **no** |") in row.group(0), fact.name


def _overlap_log(tmp_path: Path) -> Path:
    """A VASSAL log: two ships apart, then one moved apart again, then onto the other."""
    from clients_vassal_writer import VShip, move_command, saved_game, ship_command, vsav

    ships = [
        VShip("s1", "Wedge", "Small", 100.0, 100.0, 90),
        VShip("s2", "Biggs", "Small", 300.0, 100.0, 90),
    ]
    steps = [[move_command("s2", 400.0, 100.0)], [move_command("s2", 130.0, 100.0)]]
    path = tmp_path / "game.vlog"
    path.write_bytes(vsav(saved_game([ship_command(s) for s in ships], steps), "xz"))
    return path


def test_check_all_steps_names_the_first_illegal_step(tmp_path: Path) -> None:
    path = _overlap_log(tmp_path)
    code, out, err = run("check", path, "--all-steps", "--json")
    assert code == 1, err
    answer = json.loads(out)
    assert answer["steps_checked"] == 3
    assert answer["first_illegal_step"] == 2
    assert [v["rule"] for v in answer["violations"]] == ["ship-overlap"]
    assert answer["violations"][0]["objects"] == ["Wedge", "Biggs"]
    code, out, _ = run("check", path, "--all-steps")
    assert code == 1
    assert "first illegal at step 2" in out
    assert run("check", path, "--step", "1")[0] == 0
    assert run("check", path, "--step", "2")[0] == 1
    code, _, err = run("check", path, "--all-steps", "--step", "1")
    assert code == 2
    assert "without --step" in err


SAVES = ROOT / "examples/saves"


def test_the_bundled_saves_are_the_tournament_example_and_made_by_their_script(
    tmp_path: Path,
) -> None:
    import importlib.util
    import tomllib

    spec = importlib.util.spec_from_file_location("make_saves", SAVES / "make_saves.py")
    assert spec is not None
    assert spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    for path in script.write_all(tmp_path):
        assert path.read_bytes() == (SAVES / path.name).read_bytes(), path.name
    # the table of examples/xwing-tournament.toml, written by hand, in file order
    table = tomllib.loads((ROOT / "examples/xwing-tournament.toml").read_text("utf-8"))
    wanted = [("obstacle", o["token"], o["at"], o["angle"], o.get("flipped", False))
              for o in table["obstacles"]]  # fmt: skip
    wanted += [("ship", s["base"], s["at"], s["heading"], False) for s in table["ships"]]
    for name, resolution in (("xwing2-tournament.json", 0.001),
                             ("xwing2-tournament.vsav", 0.5 / 2.825 + 1e-4)):  # fmt: skip
        report = run_json("import", SAVES / name, "--json")
        assert report["skipped"] == [] or name.endswith(".json")
        got = [(i["kind"], i["became"], i["at"], i.get("angle", i.get("heading")),
                i.get("flipped", False)) for i in report["imported"]]  # fmt: skip
        assert len(got) == len(wanted)
        for (kind, became, at, angle, flipped), entry in zip(got, wanted, strict=True):
            assert (kind, became, flipped) == (entry[0], entry[1], entry[4])
            assert at == pytest.approx(entry[2], abs=resolution)
            assert abs((angle - entry[3] + 180.0) % 360.0 - 180.0) < 1e-3
        assert run("check", SAVES / name, "--phase", "setup")[0] == 0
    tts = run_json("import", SAVES / "xwing2-tournament.json", "--json")
    assert {s["name"] for s in tts["skipped"]} == {"Die_6", "Dice", "Custom_Model"}
    code, out, _ = run("check", SAVES / "xwing2-first-moves.vlog", "--all-steps", "--json")
    assert code == 1
    answer = json.loads(out)
    assert (answer["steps_checked"], answer["first_illegal_step"]) == (4, 3)
    assert [v["objects"] for v in answer["violations"]] == [["Wedge Antilles", "Biggs Darklighter"]]
