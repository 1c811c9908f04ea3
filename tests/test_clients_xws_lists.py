"""XWS lists as builders export them: no obstacles, both pilot-id forms, 1st-edition lists.

``setup --from LIST`` lays a list out whatever obstacles it names: ``--obstacles``, else
the list's, else three drawn with ``--seed``; ``--vs LIST2`` puts a second list on
player 2's edge. Expected places are worked by hand: on the 914.4 mm table, n ships in a
row stand 914.4 / (n + 1) apart, their centres 50 mm from their own edge (player 2's at
914.4 - 50 = 864.4 mm, heading 270).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from common import run, run_json

LEGAL = ["core2asteroid5", "yt2400debris1", "gascloud3"]
OTHERS = ["coreasteroid0", "vt49decimatordebris0", "pomasteroid1"]


def _list(tmp_path: Path, name: str = "list.json", **fields: Any) -> Path:
    data: dict[str, Any] = {
        "faction": "rebelalliance",
        "version": "2.0.0",
        "pilots": [{"id": "lukeskywalker", "ship": "t65xwing"}],
    }
    data.update(fields)
    path = tmp_path / name
    path.write_text(json.dumps({k: v for k, v in data.items() if v is not None}), "utf-8")
    return path


def _scene(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text("utf-8"))


# --- pilot ids, both forms ------------------------------------------------------------


@pytest.mark.parametrize(
    ("pilot", "ship", "base"),
    [
        ("dfs311", "vultureclassdroidfighter", "small"),
        ("dfs311-vultureclassdroidfighter", "vultureclassdroidfighter", "small"),
        ("norrawexley-btla4ywing", "btla4ywing", "small"),  # xwing-data2's own id
        ("landocalrissian-modifiedyt1300lightfreighter", "modifiedyt1300lightfreighter", "large"),
        ("hansolo-customizedyt1300lightfreighter", "customizedyt1300lightfreighter", "large"),
    ],
)
def test_both_pilot_id_forms_resolve(tmp_path: Path, pilot: str, ship: str, base: str) -> None:
    answer = json.loads(run("check", _list(tmp_path, pilots=[{"id": pilot}]), "--json")[1])
    assert answer["pilots"] == [{"id": pilot, "ship": ship, "base": base}]


def test_an_id_with_an_unknown_ship_appended_is_refused(tmp_path: Path) -> None:
    code, out, err = run("check", _list(tmp_path, pilots=[{"id": "dfs311-notaship"}]))
    assert (code, out) == (2, "")
    assert "unknown pilot 'dfs311-notaship'" in err


def test_a_first_edition_ship_id_in_a_2_0_list_takes_the_pilots_ship(tmp_path: Path) -> None:
    path = _list(tmp_path, pilots=[{"id": "lukeskywalker", "ship": "xwing"}])
    answer = json.loads(run("check", path, "--json")[1])
    assert answer["pilots"] == [{"id": "lukeskywalker", "ship": "t65xwing", "base": "small"}]


# --- editions ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faction", "version", "ruleset"),
    [
        ("scum", "0.3.0", "xwing1"),
        ("imperial", "2.0.0", "xwing1"),  # the faction decides
        ("rebels", None, "xwing1"),
        (None, "0.3.0", "xwing1"),
        (None, "1.0.0", "xwing1"),
        (None, "2.0.0", "xwing2"),
        (None, None, "xwing2"),
        ("scumandvillainy", "0.3.0", "xwing2"),  # what 2.0 builders export
    ],
)
def test_the_edition(
    tmp_path: Path, faction: str | None, version: str | None, ruleset: str
) -> None:
    ship = "m3ainterceptor"  # an id of both editions
    path = _list(
        tmp_path, faction=faction, version=version, pilots=[{"id": "serissu", "ship": ship}]
    )
    answer = json.loads(run("check", path, "--json")[1])
    assert answer["ruleset"] == ruleset
    assert answer["pilots"][0]["base"] == "small"


def test_a_first_edition_list_with_a_2_0_ship_is_refused_naming_it(tmp_path: Path) -> None:
    path = _list(
        tmp_path, faction="scum", version="0.3.0", pilots=[{"name": "x", "ship": "fangfighter"}]
    )
    for argv in (("check", path), ("setup", "--from", path, "-o", tmp_path / "t.toml")):
        code, out, err = run(*argv)
        assert (code, out) == (2, "")
        assert "unknown 1st-edition ship 'fangfighter'" in err
        assert "pilots[0]" in err
    assert not (tmp_path / "t.toml").exists()


def test_first_edition_sizes_and_obstacle_ids(tmp_path: Path) -> None:
    # xwing-data: the YT-1300 is large; 0.3.0 obstacle ids are hyphenated.
    path = _list(
        tmp_path,
        faction="rebel",
        version="0.3.0",
        pilots=[{"name": "hansolo", "ship": "yt1300"}],
        obstacles=["core-asteroid-5", "vt49decimator-debris-2", "yt2400-debris-0"],
    )
    answer = run_json("check", path, "--json")
    assert answer["pilots"] == [{"id": "hansolo", "ship": "yt1300", "base": "large"}]
    assert answer["obstacles"] == ["coreasteroid5", "vt49decimatordebris2", "yt2400debris0"]
    assert answer["legal"] is True


# --- check LIST: its human output ------------------------------------------------------


def test_check_prints_real_lines(tmp_path: Path) -> None:
    code, out, err = run("check", _list(tmp_path))
    assert (code, err) == (1, "")
    assert "\\n" not in out
    lines = out.splitlines()
    assert lines[0].endswith("tournament obstacle composition 1 violation(s)")
    assert lines[1] == (
        "  obstacle-composition: player 1 brought 0 obstacles; each player brings exactly 3"
    )
    assert lines[2] == "  pilot lukeskywalker: t65xwing, small base"


# --- setup --from: a list without obstacles -----------------------------------------


def test_a_list_without_obstacles_is_laid_out_with_drawn_ones(tmp_path: Path) -> None:
    path = _list(tmp_path, obstacles=[])
    out = tmp_path / "t.toml"
    code, text, err = run("setup", "--from", path, "-o", out, "--seed", "7")
    assert (code, err) == (0, "")
    assert "player 1's obstacles" in text
    assert text.count("drawn with seed 7") == 2
    scene = _scene(out)
    assert len(scene["obstacles"]) == 6
    [wedge] = scene["ships"]
    assert (wedge["at"], wedge["heading"], wedge["player"]) == ([457.2, 50.0], 90.0, 1)
    again = tmp_path / "again.toml"
    run("setup", "--from", path, "-o", again, "--seed", "7")
    assert again.read_bytes() == out.read_bytes()
    assert run("check", out)[0] == 0


def test_obstacles_given_on_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "t.toml"
    answer = run_json(
        "setup", "--from", _list(tmp_path), "--obstacles", ",".join(LEGAL), "-o", out, "--json"
    )
    assert answer["obstacle_choice"]["player1"] == {"tokens": LEGAL, "source": "from --obstacles"}
    mine = [o["token"] for o in _scene(out)["obstacles"] if o["player"] == 1]
    assert sorted(mine) == sorted(LEGAL)


@pytest.mark.parametrize(
    ("given", "phrase"),
    [
        (LEGAL[:2], "player 1 brought 2 obstacles"),
        ([*LEGAL[:2], "nosuchrock"], "unknown obstacle 'nosuchrock'"),
        ([LEGAL[0], LEGAL[0], LEGAL[1]], "2 times"),
    ],
)
def test_bad_obstacles_write_nothing(tmp_path: Path, given: list[str], phrase: str) -> None:
    out = tmp_path / "t.toml"
    code, text, err = run(
        "setup", "--from", _list(tmp_path), "--obstacles", ",".join(given), "-o", out
    )
    assert (code, text) == (2, "")
    assert phrase in err
    assert not out.exists()


def test_a_second_list_on_player_2s_edge(tmp_path: Path) -> None:
    mine = _list(tmp_path, obstacles=LEGAL)
    theirs = _list(
        tmp_path,
        "theirs.json",
        faction="galacticempire",
        pilots=[{"id": "darthvader", "ship": "tieadvancedx1"}, {"id": "maarekstele"}],
        obstacles=OTHERS,
    )
    out = tmp_path / "t.toml"
    answer = run_json("setup", "--from", mine, "--vs", theirs, "-o", out, "--json")
    assert answer["obstacle_choice"]["player2"] == {"tokens": OTHERS, "source": f"from {theirs}"}
    scene = _scene(out)
    places = [(s["id"], s["at"], s["heading"], s["player"]) for s in scene["ships"]]
    # One ship: 914.4 / 2 = 457.2; two ships: 914.4 / 3 = 304.8 apart.
    assert places == [
        ("lukeskywalker", [457.2, 50.0], 90.0, 1),
        ("darthvader", [304.8, 864.4], 270.0, 2),
        ("maarekstele", [609.6, 864.4], 270.0, 2),
    ]
    by_player = {
        p: sorted(o["token"] for o in scene["obstacles"] if o["player"] == p) for p in (1, 2)
    }
    assert by_player == {1: sorted(LEGAL), 2: sorted(OTHERS)}
    assert run("check", out)[0] == 0


def test_two_lists_bringing_one_obstacle_are_refused(tmp_path: Path) -> None:
    mine = _list(tmp_path, obstacles=LEGAL)
    theirs = _list(tmp_path, "theirs.json", obstacles=[LEGAL[0], *OTHERS[:2]])
    code, out, err = run("setup", "--from", mine, "--vs", theirs, "-o", tmp_path / "t.toml")
    assert (code, out) == (2, "")
    assert "both players bring core2asteroid5" in err


def test_vs_and_obstacles_need_from(tmp_path: Path) -> None:
    for option in (("--vs", str(_list(tmp_path))), ("--obstacles", ",".join(LEGAL))):
        code, _, err = run("setup", "--ruleset", "xwing2", *option, "-o", tmp_path / "t.toml")
        assert code == 2
        assert "give them with --from LIST" in err
