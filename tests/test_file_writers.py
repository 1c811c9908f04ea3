"""Every structured file the commands write goes through one writer and reads back equal.

Scenes, event files, Pocket Battles battle files (and logs) and Dogfight game logs are
written by :func:`tabletop.app.common.datatext.file_text` (TOML through ``tomli-w``, or JSON) and
read back with the loaders the commands use. Names hold any Unicode text: quotes,
backslashes, newlines, U+0000 and U+007F included. A lone surrogate cannot be written in
either format and is refused, naming the file and the key, with nothing written.
"""

from __future__ import annotations

import io
import itertools
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.app.cli import main
from tabletop.app.common.datafile import FileError
from tabletop.app.common.datatext import INT64_MAX, file_text, toml_text
from tabletop.app.dogfight.gamefile import game_log_text, load_game_file
from tabletop.app.event.eventfile import event_text, load_event, parse_event
from tabletop.app.pocket.battlefile import battle_data, load_battle
from tabletop.app.scene.scenefile import load_scene, parse_scene
from tabletop.boards.pocket import example_battle

SUFFIXES = (".toml", ".json")
#: The characters a hand-written TOML writer gets wrong, drawn often.
TRICKY = st.sampled_from(["\x00", "\x7f", "\n", "\r", "\t", '"', "\\", "'", "\x1b", "\u2028"])
CHARACTER = st.one_of(TRICKY, st.characters(codec="utf-8"))
#: Any text with something visible in it (names must not be blank).
NAMES = st.text(CHARACTER, min_size=1, max_size=12).filter(lambda s: bool(s.strip()))
#: One word (ids: no white space), any other character allowed.
WORDS = st.text(CHARACTER, min_size=1, max_size=12).filter(lambda s: s.split() == [s])

_counter = itertools.count()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # One folder for the module: hypothesis runs many examples per test invocation.
    return tmp_path_factory.mktemp("writers")


def written(folder: Path, name: str, text: str) -> Path:
    path = folder / f"{next(_counter)}-{name}"
    path.write_bytes(text.encode("utf-8"))
    return path


# -- the round trips ---------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(ids=st.lists(WORDS, min_size=1, max_size=4, unique=True), suffix=st.sampled_from(SUFFIXES))
def test_random_scenes_read_back_equal(folder: Path, ids: list[str], suffix: str) -> None:
    ships = [
        {"id": ship_id, "base": "small", "at": [100.0 + 50 * n, 40.5]}
        for n, ship_id in enumerate(ids)
    ]
    data = parse_scene({"ships": ships}).to_dict()
    path = written(folder, f"scene{suffix}", file_text(data, f"scene{suffix}"))
    assert load_scene(path).to_dict() == data


def event_structure(names: list[str], club: str, event_name: str) -> dict[str, Any]:
    players = [{"id": f"{name}#{n}", "name": name, "club": club} for n, name in enumerate(names)]
    return {
        "game": "armada",
        "name": event_name,
        "seed": 3,
        "players": players,
        "rounds": [
            {
                "kind": "swiss",
                "matches": [{"table": 1, "players": [players[0]["id"], players[1]["id"]]}],
            }
        ],
    }


@settings(max_examples=60, deadline=None)
@given(
    names=st.lists(NAMES, min_size=2, max_size=5),
    club=NAMES,
    event_name=NAMES,
    suffix=st.sampled_from(SUFFIXES),
)
def test_random_events_read_back_equal(
    folder: Path, names: list[str], club: str, event_name: str, suffix: str
) -> None:
    event = parse_event(event_structure(names, club, event_name))
    path = written(folder, f"event{suffix}", event_text(event, f"event{suffix}"))
    assert load_event(path) == event


@settings(max_examples=60, deadline=None)
@given(
    army_names=st.tuples(NAMES, NAMES),
    unit_ids=st.lists(WORDS, min_size=8, max_size=8, unique=True),
    plays=st.lists(NAMES, max_size=4),
    suffix=st.sampled_from(SUFFIXES),
)
def test_random_battles_and_logs_read_back_equal(
    folder: Path,
    army_names: tuple[str, str],
    unit_ids: list[str],
    plays: list[str],
    suffix: str,
) -> None:
    data = battle_data(example_battle(), plays)
    fresh = iter(unit_ids)
    for army, name in zip(data["armies"], army_names, strict=True):
        army["name"] = name
        for unit in army["units"]:
            unit["id"] = next(fresh)
    path = written(folder, f"battle{suffix}", file_text(data, f"battle{suffix}", kind="battle"))
    read = load_battle(path)
    assert battle_data(read.battle, read.plays) == data
    assert [a.name for a in read.battle.armies] == list(army_names)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, INT64_MAX),
    plays=st.lists(st.text(CHARACTER, max_size=20), max_size=6),
    suffix=st.sampled_from(SUFFIXES),
)
def test_random_game_logs_read_back_equal(
    folder: Path, seed: int, plays: list[str], suffix: str
) -> None:
    path = written(folder, f"game{suffix}", game_log_text(seed, plays, f"game{suffix}"))
    parsed = load_game_file(path)
    assert parsed.plays == tuple(plays)
    assert parsed.settings["seed"] == seed


@given(st.dictionaries(WORDS, st.one_of(NAMES, st.integers(-(2**63), INT64_MAX)), max_size=5))
def test_any_keys_and_values_read_back_equal(table: dict[str, Any]) -> None:
    data = {"top": table, "rows": [table, table], "nested": [{"inner": [table]}]}
    assert tomllib.loads(toml_text(data)) == data


def test_the_layout_keeps_short_lists_on_a_line_and_long_ones_an_item_a_line() -> None:
    data = {"short": [1, 2], "long": ["x" * 40] * 3, "rows": [{"a": 1}, {"a": 2}]}
    item = f'  "{"x" * 40}",\n'
    assert toml_text(data) == (
        "short = [1, 2]\nlong = [\n" + item * 3 + "]\n\n[[rows]]\na = 1\n\n[[rows]]\na = 2\n"
    )


# -- what no file can hold ---------------------------------------------------------------


@pytest.mark.parametrize("suffix", SUFFIXES)
@pytest.mark.parametrize(
    ("data", "entry", "key", "said"),
    [
        ({"name": "a\ud800b"}, None, "name", "a lone surrogate '\\ud800' at character 2"),
        ({"players": [{"id": "\udcff"}]}, "players[0]", "id", "a lone surrogate '\\udcff'"),
        ({"at": [1.0, float("nan")]}, None, "at[1]", "nan is not a finite number"),
        ({"seed": {1, 2}}, None, "seed", "cannot write a set in a file"),
    ],
)
def test_what_no_file_can_hold_is_refused_by_name(
    suffix: str, data: dict[str, Any], entry: str | None, key: str, said: str
) -> None:
    with pytest.raises(FileError) as caught:
        file_text(data, f"out{suffix}")
    assert caught.value.file == f"out{suffix}"
    assert (caught.value.entry, caught.value.key) == (entry, key)
    assert said in caught.value.message


def test_an_integer_past_64_bits_is_refused_in_toml_only() -> None:
    with pytest.raises(FileError, match=r"out.toml: key 'seed': 9223372036854775808 does not fit"):
        file_text({"seed": 2**63}, "out.toml")
    assert json.loads(file_text({"seed": 2**63}, "out.json")) == {"seed": 2**63}


@pytest.mark.parametrize("suffix", [".yaml", ""])
def test_an_unknown_suffix_names_the_kind(suffix: str) -> None:
    with pytest.raises(FileError) as caught:
        file_text({}, f"out{suffix}", kind="battle")
    shown = repr(suffix or "(none)")
    assert (
        str(caught.value)
        == f"out{suffix}: unknown battle file type {shown}; expected .toml or .json"
    )


# -- through the commands ----------------------------------------------------------------


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    assert "Traceback" not in err.getvalue() + out.getvalue()
    return code, out.getvalue(), err.getvalue()


def test_a_pocket_log_with_a_delete_in_an_army_name_is_replayed(tmp_path: Path) -> None:
    # The reported bug: the log was written (exit 0) and `pocket replay` refused it.
    data = battle_data(example_battle())
    data["armies"][0]["name"] = "Red\x7f army"
    battle = tmp_path / "battle.json"
    battle.write_text(json.dumps(data), encoding="utf-8")
    log = tmp_path / "log.toml"
    code, _, err = run("pocket", "play", str(battle), "--games", "1", "-o", str(log))
    assert code == 0, err
    assert '"Red\\u007f army"' in log.read_text(encoding="utf-8")
    code, out, err = run("pocket", "replay", str(log), "--json")
    assert code == 0, err
    assert json.loads(out)["winner"] in (1, 2)
    assert load_battle(log).battle.armies[0].name == "Red\x7f army"


def test_a_pocket_log_with_a_lone_surrogate_is_refused_and_not_written(tmp_path: Path) -> None:
    battle = tmp_path / "battle.json"
    text = json.dumps(battle_data(example_battle())).replace('"Example red"', '"Red \\udc80"')
    battle.write_text(text, encoding="utf-8")
    for name in ("log.toml", "log.json"):
        log = tmp_path / name
        code, _, err = run("pocket", "play", str(battle), "--games", "1", "-o", str(log))
        assert code == 2
        # The battle file is refused where it is read, before anything is played or written.
        assert (
            f"{battle}: armies[0]: key 'name': expected Unicode text, got a lone surrogate" in err
        )
        assert not log.exists()


def test_an_event_with_a_lone_surrogate_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    event = tmp_path / "event.json"
    data = event_structure(["Ann", "Bob"], "club", "Cup")
    del data["rounds"]
    text = json.dumps(data).replace('"Bob"', '"Bob \\ud800"')
    event.write_text(text, encoding="utf-8")
    code, out, err = run("event", "pair", str(event), "--json")
    assert code == 2
    assert "players[1]: key 'name': expected Unicode text, got a lone surrogate" in err
    assert json.loads(out)["error"]["where"] == f"{event}: players[1]: key 'name'"
    assert event.read_text(encoding="utf-8") == text


def test_setup_writes_through_the_one_writer(tmp_path: Path) -> None:
    path = tmp_path / "setup.toml"
    code, _, err = run("setup", "--ruleset", "xwing2", "--seed", "4", "-o", str(path))
    assert code == 0, err
    data = load_scene(path).to_dict()
    del data["ships"]
    assert file_text(data, path) == path.read_text(encoding="utf-8")
