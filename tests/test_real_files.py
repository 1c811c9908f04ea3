"""Every real client file of the corpus, read as the client does or refused for its reason.

The files and their origins: tests/data/real/ORIGINS.md. Each expectation below was
worked out from the file itself (its faction, version, pilots and obstacles, and the
xwing-data / xwing-data2 entries of its ships), not from the program's output.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from common import ROOT, run, run_json

REAL = ROOT / "tests/data/real"
XWS = REAL / "xws"

#: file -> (ruleset, [(pilot id, ship, base)], the list's own obstacles or None)
LISTS: dict[str, tuple[str, list[tuple[str, str, str]], list[str] | None]] = {
    # XWS 2.0.0 sample: the Hyena is a small ship, the Vulture a small ship
    # (xwing-data2 data/pilots/separatist-alliance/*.json "size": "Small").
    "xws-spec-sample-2.0.0.json": (
        "xwing2",
        [
            ("bombardmentdrone", "hyenaclassdroidbomber", "small"),
            ("dfs311-vultureclassdroidfighter", "vultureclassdroidfighter", "small"),
        ],
        None,
    ),
    # 1st edition: the A-wing and the X-wing are small (xwing-data data/ships.js).
    **{
        f"xws-spec-sample-{version}.json": (
            "xwing1",
            [
                ("tychocelchu", "awing", "small"),
                ("rookiepilot", "xwing", "small"),
                ("rookiepilot", "xwing", "small"),
                ("greensquadronpilot", "awing", "small"),
            ],
            obstacles,
        )
        for version, obstacles in (
            ("0.3.0", ["coreasteroid5", "vt49decimatordebris2", "yt2400debris0"]),
            ("0.2.0", ["coreasteroid5", "vt49decimatordebris2", "yt2400debris0"]),
            ("0.1.0", None),
        )
    },
    "r2d7-lbn-2.0.0-scumandvillainy.json": (
        "xwing2",
        [("sunnybounder", "m3ainterceptor", "small")],
        None,
    ),
    "r2d7-yasb-2.5.0-scumandvillainy.json": (
        "xwing2",
        [("sunnybounder", "m3ainterceptor", "small")],
        None,
    ),
    "r2d7-yasb-0.3.0-scum.json": ("xwing1", [("sunnybounder", "m3ainterceptor", "small")], None),
    "r2d7-0.3.0-scumandvillainy-variable.json": (
        "xwing2",
        [
            ("captainjostero", "kihraxzfighter", "small"),
            ("serissu", "m3ainterceptor", "small"),
        ],
        None,
    ),
    # The Customized YT-1300 is large (xwing-data2: "size": "Large").
    "r2d7-0.3.0-scumandvillainy-lando.json": (
        "xwing2",
        [("landocalrissian", "customizedyt1300lightfreighter", "large")],
        None,
    ),
    # Ships named "ywing" and "xwing" in a 2.0 list: the pilots say which 2.0 ships.
    "r2d7-yasb-0.3.0-rebelalliance.json": (
        "xwing2",
        [
            ("norrawexley-btla4ywing", "btla4ywing", "small"),
            ("lukeskywalker", "t65xwing", "small"),
        ],
        None,
    ),
}


def test_the_corpus_is_what_origins_lists() -> None:
    origins = (REAL / "ORIGINS.md").read_text("utf-8")
    files = sorted(p.name for p in XWS.glob("*.json"))
    assert files == sorted(LISTS)
    for name in [*files, "trc4-rebuilt.vsav"]:
        assert f"`{name}`" in origins, name


@pytest.mark.parametrize("name", sorted(LISTS))
def test_check_names_each_pilots_ship_and_base(name: str) -> None:
    ruleset, pilots, obstacles = LISTS[name]
    code, out, err = run("check", XWS / name, "--json")
    assert err == ""
    answer = json.loads(out)
    assert answer["ruleset"] == ruleset
    assert [(p["id"], p["ship"], p["base"]) for p in answer["pilots"]] == pilots
    assert answer["obstacles"] == (obstacles or [])
    # Three obstacles of the tournament families: legal; none (as builders export): not.
    assert (code, answer["legal"]) == ((0, True) if obstacles else (1, False))


@pytest.mark.parametrize("name", sorted(LISTS))
def test_import_points_to_check_and_setup(name: str) -> None:
    code, out, err = run("import", XWS / name)
    assert (code, out) == (2, "")
    assert "no positions" in err
    assert "setup --from" in err


@pytest.mark.parametrize("name", sorted(LISTS))
def test_every_builder_export_is_laid_out(name: str, tmp_path: Path) -> None:
    ruleset, pilots, obstacles = LISTS[name]
    out = tmp_path / "table.toml"
    answer = run_json("setup", "--from", XWS / name, "-o", out, "--seed", "3", "--json")
    assert answer["ruleset"] == ruleset
    choice = answer["obstacle_choice"]
    if obstacles:
        assert choice["player1"] == {"tokens": obstacles, "source": f"from {XWS / name}"}
    else:
        assert choice["player1"]["source"] == "drawn with seed 3"
    assert choice["player2"]["source"] == "drawn with seed 3"
    scene: dict[str, Any] = tomllib.loads(out.read_text("utf-8"))
    assert [s["base"] for s in scene["ships"]] == [base for _, _, base in pilots]
    assert {s["player"] for s in scene["ships"]} == {1}
    code, _, err = run("check", out)
    assert (code, err) == (0, "")


def test_the_two_x_wing_samples_play_each_other_only_within_an_edition(tmp_path: Path) -> None:
    code, out, err = run(
        "setup",
        "--from",
        XWS / "xws-spec-sample-2.0.0.json",
        "--vs",
        XWS / "xws-spec-sample-0.3.0.json",
        "-o",
        tmp_path / "t.toml",
    )
    assert (code, out) == (2, "")
    assert "both lists must be of one edition" in err
    assert not (tmp_path / "t.toml").exists()


def test_a_save_of_another_module_is_refused_naming_it(tmp_path: Path) -> None:
    save = REAL / "vassal/trc4-rebuilt.vsav"
    for argv in (("import", save), ("import", save, "-o", tmp_path / "s.toml"), ("check", save)):
        code, out, err = run(*argv)
        assert (code, out) == (2, ""), argv
        assert "a save of 'TRC4' 1.3b06, not the X-Wing module" in err
    assert not (tmp_path / "s.toml").exists()


def test_the_real_tts_extract_imports_its_two_gas_clouds() -> None:
    # The v1.11.15 backup's two gas clouds: one on the table, one held in its state stack.
    report = run_json(
        "import", ROOT / "tests/data/tts/xwing2-backup-1.11.15-gasclouds.json", "--json"
    )
    assert report["source"]["client"] == "tts-xwing2"
    assert [(i["id"], i["became"]) for i in report["imported"]] == [("Gas Cloud 5", "gascloud6")]
    reasons = [s["reason"] for s in report["skipped"]]
    assert any("state stack" in r for r in reasons)
