"""XWS lists: parsing, `check LIST`, `setup --from LIST`, and `import LIST` refused."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from common import run, run_json

from tabletop.app.clients.xws import parse_list, pilot_ships, recognises, ship_bases

LEGAL = ["core2asteroid5", "yt2400debris1", "gascloud3"]


def _list(tmp_path: Path, **changes: Any) -> str:
    data: dict[str, Any] = {
        "name": "Aces",
        "faction": "rebelalliance",
        "version": "2.0.0",
        "pilots": [
            {"id": "lukeskywalker", "ship": "t65xwing"},
            {"id": "hansolo", "ship": "modifiedyt1300lightfreighter"},
            {"id": "lukeskywalker", "ship": "t65xwing"},
        ],
        "obstacles": LEGAL,
    }
    data.update(changes)
    data = {k: v for k, v in data.items() if v is not None}
    path = tmp_path / "list.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_ship_bases_from_xwing_data2() -> None:
    # data/pilots/rebel-alliance/t-65-x-wing.json: "size": "Small"; the YT-1300 Large;
    # the TIE/ln Small; the ARC-170 Medium.
    bases = ship_bases()
    assert bases["t65xwing"] == "small"
    assert bases["modifiedyt1300lightfreighter"] == "large"
    assert bases["tielnfighter"] == "small"
    assert bases["arc170starfighter"] == "medium"


def test_parse_and_recognise(tmp_path: Path) -> None:
    path = _list(tmp_path)
    data = Path(path).read_bytes()
    assert recognises(data)
    squad = parse_list(data, path)
    assert [p.base for p in squad.pilots] == ["small", "large", "small"]
    assert squad.obstacles == tuple(LEGAL)
    assert squad.faction == "rebelalliance"


def test_check_legal_list(tmp_path: Path) -> None:
    answer = run_json("check", _list(tmp_path), "--json")
    assert answer["legal"] is True
    assert answer["obstacles"] == LEGAL
    assert answer["violations"] == []


@pytest.mark.parametrize(
    ("obstacles", "phrase"),
    [
        (LEGAL[:2], "player 1 brought 2 obstacles; each player brings exactly 3"),
        ([*LEGAL, "coreasteroid0"], "player 1 brought 4 obstacles"),
        ([LEGAL[0], LEGAL[0], LEGAL[1]], "brought core2asteroid5 2 times"),
        (["loosecargo", *LEGAL[:2]], "not a token allowed in xwing2 tournament play"),
        (None, "player 1 brought 0 obstacles"),
    ],
)
def test_check_illegal_list_exits_1(
    tmp_path: Path, obstacles: list[str] | None, phrase: str
) -> None:
    code, out, err = run("check", _list(tmp_path, obstacles=obstacles), "--json")
    assert (code, err) == (1, "")
    answer = json.loads(out)
    assert answer["legal"] is False
    assert any(phrase in v["message"] for v in answer["violations"]), answer
    assert all(v["rule"] == "obstacle-composition" for v in answer["violations"])
    code, text, err = run("check", _list(tmp_path, obstacles=obstacles))
    assert code == 1
    assert phrase in text


def _bad(tmp_path: Path, argv: list[str], *expected: str) -> None:
    code, out, err = run(*argv)
    assert code == 2, (out, err)
    assert out == ""
    for text in expected:
        assert text in err, err


def test_unknown_obstacle_exit_2(tmp_path: Path) -> None:
    path = _list(tmp_path, obstacles=[LEGAL[0], LEGAL[1], "core9asteroid7"])
    _bad(tmp_path, ["check", path], path, "obstacles[2]", "key 'obstacles'", "'core9asteroid7'")


def test_unknown_ship_and_bad_pilot_exit_2(tmp_path: Path) -> None:
    path = _list(
        tmp_path,
        pilots=[{"id": "lukeskywalker", "ship": "t65xwing"}, {"id": "x", "ship": "deathstar"}],
    )
    _bad(tmp_path, ["check", path], path, "pilots[1]", "key 'ship'", "'deathstar'")
    path = _list(tmp_path, pilots=[{"id": "Luke Skywalker", "ship": "t65xwing"}])
    _bad(tmp_path, ["check", path], path, "pilots[0]", "key 'id'", "XWS pilot id")
    # A pilot without 'ship' is looked up in the pilot table; one it lacks is refused.
    path = _list(tmp_path, pilots=[{"id": "lukeskywalker"}, {"id": "nosuchpilot"}])
    _bad(tmp_path, ["check", path], path, "pilots[1]", "key 'id'", "unknown pilot 'nosuchpilot'")
    path = _list(tmp_path, pilots=[])
    _bad(tmp_path, ["check", path], path, "key 'pilots'")


def test_import_list_is_refused_pointing_to_check_and_setup(tmp_path: Path) -> None:
    path = _list(tmp_path)
    out = tmp_path / "scene.toml"
    _bad(
        tmp_path,
        ["import", path, "-o", str(out)],
        "no positions",
        f"tabletop check {path}",
        "setup --from",
    )
    assert not out.exists()


def test_setup_from_list_is_a_legal_table(tmp_path: Path) -> None:
    path = _list(tmp_path)
    scene = tmp_path / "table.toml"
    answer = run_json("setup", "--from", path, "--seed", "4", "-o", scene, "--json")
    assert answer["ships"] == ["lukeskywalker", "hansolo", "lukeskywalker-2"]
    data = tomllib.loads(scene.read_text(encoding="utf-8"))
    mine = [o["token"] for o in data["obstacles"] if o["player"] == 1]
    theirs = [o["token"] for o in data["obstacles"] if o["player"] == 2]
    assert sorted(mine) == sorted(LEGAL)
    assert len(theirs) == 3
    assert not set(theirs) & set(LEGAL)
    # Three ships spaced 914.4 / 4 = 228.6 mm apart along player 1's edge, 50 mm in.
    assert [s["at"] for s in data["ships"]] == [[228.6, 50.0], [457.2, 50.0], [685.8, 50.0]]
    assert [s["base"] for s in data["ships"]] == ["small", "large", "small"]
    assert {s["heading"] for s in data["ships"]} == {90.0}
    code, out, err = run("check", scene, "--json")
    assert (code, err) == (0, ""), out
    # The same seed gives the same table.
    again = tmp_path / "again.toml"
    run_json("setup", "--from", path, "--seed", "4", "-o", again, "--json")
    assert again.read_text() == scene.read_text()


def test_setup_from_illegal_list_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "table.toml"
    path = _list(tmp_path, obstacles=LEGAL[:2])
    _bad(
        tmp_path,
        ["setup", "--from", path, "-o", str(out)],
        "not a legal tournament choice",
        f"tabletop check {path}",
    )
    assert not out.exists()
    huge = _list(tmp_path, pilots=[{"id": "rebelcorvette", "ship": "cr90corelliancorvette"}])
    _bad(tmp_path, ["setup", "--from", huge, "-o", str(out)], "huge ships")
    assert not out.exists()


def test_setup_still_needs_a_ruleset_without_a_list(tmp_path: Path) -> None:
    _bad(tmp_path, ["setup", "-o", str(tmp_path / "x.toml")], "--ruleset is required")


def test_pilot_ships_from_xwing_data2() -> None:
    # data/pilots/rebel-alliance/t-65-x-wing.json lists lukeskywalker; the rebel YT-1300
    # file hansolo-modifiedyt1300lightfreighter, the scum one hansolo;
    # galactic-empire/tie-ln-fighter.json maulermithel.
    ships = pilot_ships()
    assert ships["lukeskywalker"] == "t65xwing"
    assert ships["hansolo-modifiedyt1300lightfreighter"] == "modifiedyt1300lightfreighter"
    assert ships["hansolo"] == "customizedyt1300lightfreighter"
    assert ships["maulermithel"] == "tielnfighter"
    assert set(ships.values()) <= set(ship_bases())


def test_pilots_given_by_id_alone(tmp_path: Path) -> None:
    path = _list(
        tmp_path,
        pilots=[
            {"id": "lukeskywalker"},
            {"id": "hansolo-modifiedyt1300lightfreighter"},
            {"id": "wedgeantilles", "ship": "t65xwing"},
        ],
    )
    squad = parse_list(Path(path).read_bytes(), path)
    assert [(p.ship, p.base) for p in squad.pilots] == [
        ("t65xwing", "small"),
        ("modifiedyt1300lightfreighter", "large"),
        ("t65xwing", "small"),
    ]
    answer = run_json("check", path, "--json")
    assert answer["legal"] is True
    scene = tmp_path / "scene.toml"
    code, _, err = run("setup", "--from", path, "--seed", "3", "-o", str(scene))
    assert code == 0, err
    ships = tomllib.loads(scene.read_text("utf-8"))["ships"]
    assert sorted(s["base"] for s in ships) == ["large", "small", "small"]
