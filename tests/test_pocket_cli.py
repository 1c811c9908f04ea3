"""``tabletop pocket``: the battle files, the sub-commands, and their agreement with the API."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from tabletop.app.cli import main
from tabletop.app.common.datatext import file_text
from tabletop.app.pocket.battlefile import (
    BattleFile,
    battle_data,
    load_battle,
    parse_battle,
    replay_battle,
)
from tabletop.boards import replay
from tabletop.boards.pocket import PocketBattles, PocketRules, check_battle, example_battle

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "pocket"
READY = str(EXAMPLES / "battle-60.toml")
ILLEGAL = str(EXAMPLES / "illegal-army.toml")
FULL = str(EXAMPLES / "full-battle.toml")


def load_battle_data(data: dict[str, Any]) -> BattleFile:
    battle, plays = parse_battle(data, "<test>")
    return BattleFile("<test>", battle, tuple(plays))


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["pocket", *argv], out, err)
    assert "Traceback" not in err.getvalue() + out.getvalue()
    return code, out.getvalue(), err.getvalue()


def write(folder: Path, data: dict[str, Any], name: str = "b.toml") -> str:
    path = folder / name
    path.write_text(file_text(data, path), encoding="utf-8")
    return str(path)


def test_the_ready_example_is_the_example_battle_and_legal() -> None:
    assert load_battle(READY).battle == example_battle()
    code, out, _ = run("check", READY)
    assert code == 0
    assert "legal" in out


def test_the_illegal_example_breaks_formation_and_size() -> None:
    code, out, _ = run("check", ILLEGAL, "--json")
    assert code == 1
    answer = json.loads(out)
    assert answer["legal"] is False
    assert [(v["rule"], v.get("unit"), v.get("player")) for v in answer["violations"]] == [
        ("army-points", None, 1),
        ("formation", "spears", None),
    ]


def test_the_full_battle_log_replays_to_its_winner() -> None:
    code, out, _ = run("replay", FULL, "--json")
    assert code == 0
    answer = json.loads(out)
    _game, state = replay_battle(load_battle(FULL))
    assert answer == {
        "winner": state.winner,
        "round": state.round,
        "destroyed": {"1": state.destroyed[1], "2": state.destroyed[2]},
    }
    assert answer["winner"] in (1, 2)


def test_actions_json_equals_the_api() -> None:
    code, out, _ = run("actions", READY, "--json")
    game = PocketBattles(example_battle())
    assert code == 0
    assert json.loads(out) == game.decision(game.start()).to_json()
    first = json.loads(out)["plays"][0]
    assert set(first) == {"play", "cost"}


def test_actions_at_a_roll_gives_the_dice_and_no_play(tmp_path: Path) -> None:
    data = battle_data(example_battle(), ["order riders charge", "react wait", "target scouts"])
    _code, out, _ = run("actions", write(tmp_path, data), "--json")
    assert json.loads(out) == {"player": 1, "decision": "roll", "dice": 3, "plays": []}


def test_check_json_equals_the_api() -> None:
    _code, out, _ = run("check", ILLEGAL, "--json")
    assert json.loads(out) == check_battle(load_battle(ILLEGAL).battle).to_json()


def test_replay_of_an_illegal_play_names_its_number_and_rule(tmp_path: Path) -> None:
    data = battle_data(example_battle(), ["order riders charge", "react wait", "target spears"])
    code, out, _err = run("replay", write(tmp_path, data), "--json")
    assert code == 2
    error = json.loads(out)["error"]
    assert error["where"].endswith("b.toml: play 3")
    assert "rule: charge-target" in error["message"]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda d: d.update(plays=["order nobody charge"]),
            "play 1: 'order nobody charge': unknown unit 'nobody'",
        ),
        (
            lambda d: d.update(plays=["wound nobody"]),
            "play 1: 'wound nobody': unknown troop 'nobody'",
        ),
        (lambda d: d["armies"][0]["units"][0].update(zone="D7"), "key 'zone': 'D7' is not a zone"),
        (
            lambda d: d["armies"][1]["units"][0]["troops"].append(
                dict(d["armies"][0]["units"][0]["troops"][0])
            ),
            "troop 'spear-1' is already in unit 'spears'",
        ),
        (lambda d: d["armies"][0]["units"][0].pop("zone"), "some units have a zone and some not"),
        (
            lambda d: d["armies"][0]["units"][0]["troops"][0].update(melee=7),
            "key 'melee': expected a whole number from 1 to 6, got 7",
        ),
        (
            lambda d: d["armies"][0]["units"][0]["troops"][0].update(traits=["brave"]),
            "unknown trait 'brave'",
        ),
        (lambda d: d.update(colour="red"), "key 'colour': unknown key"),
        (lambda d: d.update(attacker=3), "key 'attacker'"),
        (
            lambda d: d.update(plays=["order spears fly"]),
            "play 1: 'order spears fly': expected 'order UNIT move ZONE",
        ),
    ],
)
@pytest.mark.parametrize("command", ["check", "replay"])
def test_bad_input_is_exit_2_with_a_clear_message(
    tmp_path: Path, change: Any, expected: str, command: str
) -> None:
    data = battle_data(example_battle())
    change(data)
    path = write(tmp_path, data, "b.json")
    code, _out, err = run(command, path)
    assert code == 2
    assert expected in err


def test_a_malformed_file_is_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("size = [", encoding="utf-8")
    code, out, err = run("check", str(path), "--json")
    assert code == 2
    assert "not valid TOML" in json.loads(out)["error"]["message"]
    path = tmp_path / "broken.json"
    path.write_text('{"size": 60, "size": 70}', encoding="utf-8")
    code, _, err = run("replay", str(path))
    assert code == 2
    assert "duplicate key" in err


def test_commands_other_than_check_refuse_an_illegal_battle() -> None:
    for command in ("actions", "replay", "play"):
        code, _, err = run(command, ILLEGAL)
        assert code == 2
        assert "the battle is illegal" in err


def test_play_json_and_its_log_replays(tmp_path: Path) -> None:
    log = tmp_path / "log.json"
    code, out, _ = run(
        "play",
        READY,
        "--games",
        "20",
        "--seed",
        "3",
        "--policy",
        "greedy",
        "--policy2",
        "random",
        "-o",
        str(log),
        "--json",
    )
    assert code == 0
    answer = json.loads(out)
    assert answer["games"] == 20
    assert answer["policies"] == {"1": "greedy", "2": "random"}
    players = answer["players"]
    assert players["1"]["wins"] + players["2"]["wins"] == 20
    assert players["1"]["low"] <= players["1"]["rate"] <= players["1"]["high"]
    _game, state = replay_battle(load_battle(str(log)))
    assert state.winner in (1, 2)


def test_play_simulates_from_the_files_position(tmp_path: Path) -> None:
    data = battle_data(example_battle(), ["order riders charge", "react wait", "target scouts"])
    code, out, _ = run("play", write(tmp_path, data), "--games", "5", "--json")
    assert code == 0
    assert json.loads(out)["games"] == 5


def test_render_writes_a_png_and_an_svg(tmp_path: Path) -> None:
    for suffix in ("png", "svg"):
        target = tmp_path / f"battle.{suffix}"
        code, _out, _ = run("render", FULL, "-o", str(target))
        assert code == 0
        assert target.stat().st_size > 1000
    assert (tmp_path / "battle.png").read_bytes()[:4] == b"\x89PNG"
    assert "<svg" in (tmp_path / "battle.svg").read_text(encoding="utf-8")


def test_render_needs_an_output_and_never_writes_over_the_input(tmp_path: Path) -> None:
    assert run("render", READY)[0] == 2
    data = battle_data(example_battle())
    path = write(tmp_path, data)
    assert run("render", path, "-o", str(tmp_path / "x.jpg"))[0] == 2


def test_help_and_options_anywhere() -> None:
    code, out, _ = run("--help")
    assert code == 0
    assert "check" in out
    assert "render" in out
    code, out, _ = run("--json", "check", READY)
    assert code == 0
    assert json.loads(out)["legal"] is True


def test_a_battle_file_round_trips_through_toml_and_json(tmp_path: Path) -> None:
    full = load_battle(FULL)
    for name in ("a.toml", "a.json"):
        path = write(tmp_path, battle_data(full.battle, full.plays), name)
        again = load_battle(path)
        assert again.battle == full.battle
        assert again.plays == full.plays
    game = PocketBattles(full.battle)
    assert replay(game, game.start(), full.plays).state.winner is not None
    ruled = example_battle(rules=PocketRules(tie_break="troops", leave_return="all-strikers"))
    for name in ("r.toml", "r.json"):
        assert load_battle(write(tmp_path, battle_data(ruled), name)).battle == ruled


def test_an_unknown_ruling_value_is_exit_2(tmp_path: Path) -> None:
    data = battle_data(example_battle())
    data["rules"] = {"tie_break": "coin"}
    code, _, err = run("check", write(tmp_path, data, "b.json"))
    assert code == 2
    assert "key 'tie_break': expected one of: points, troops" in err


def test_play_shows_a_progress_bar_on_stderr_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, _ = run("play", READY, "--games", "3", "--progress")
    assert code == 0
    assert "3/3 battles" in capsys.readouterr().err


def test_the_picture_puts_each_players_engaged_units_on_its_own_line() -> None:
    from tabletop.plots.pocket import unit_positions

    plays = ["order riders charge", "react wait", "target scouts", "roll 1 1 1", "roll 6"]
    data = battle_data(example_battle(), plays)
    _game, state = replay_battle(load_battle_data(data))
    where = unit_positions(state)
    assert state.units["riders"].zone == state.units["scouts"].zone == "A3"
    assert where["riders"][1] < where["scouts"][1]


def test_a_finished_battle_lists_no_plays() -> None:
    code, out, _ = run("actions", FULL, "--json")
    assert code == 0
    assert json.loads(out) == {"player": None, "decision": "over", "plays": []}


def test_replaying_a_log_twice_gives_the_same_position() -> None:
    file = load_battle(FULL)
    assert replay_battle(file)[1].signature() == replay_battle(file)[1].signature()


def test_the_contracts_example_plays_replay_on_the_example_armies(tmp_path: Path) -> None:
    # The contract's file shows riders in A1 and these plays; our example armies with
    # the riders there play them out as worked by hand: the spears (4, 4, 3) roll 4 and
    # 6, two hits; blue loses legionary-2 and legionary-3 (14 points); the legion's
    # survivor counterattacks with one die.
    data = battle_data(example_battle())
    data["armies"][0]["units"][1]["zone"] = "A1"
    data["plays"] = [
        "reposition riders A2",
        "order spears charge",
        "react wait",
        "target legion",
        "roll 4 6",
        "wound legionary-2",
        "kill legionary-3",
    ]
    path = write(tmp_path, data)
    _code, out, _ = run("actions", path, "--json")
    assert json.loads(out) == {"player": 2, "decision": "roll", "dice": 1, "plays": []}
    _game, state = replay_battle(load_battle(path))
    assert [t.id for t in state.units["legion"].troops] == ["legionary-1"]
    assert state.destroyed[1] == 14
    assert state.units["spears"].zone == state.units["legion"].zone == "B3"


@pytest.mark.parametrize(
    "argv",
    [("render", FULL, "-o"), ("play", READY, "--games", "2", "--seed", "1", "-o")],
    ids=["render", "play"],
)
def test_writing_commands_refuse_an_existing_file_unless_forced(
    tmp_path: Path, argv: tuple[str, ...]
) -> None:
    target = tmp_path / ("out.png" if argv[0] == "render" else "log.toml")
    target.write_text("a judge's file", encoding="utf-8")
    code, _out, err = run(*argv, str(target))
    assert code == 2
    assert "--force" in err
    assert target.read_text(encoding="utf-8") == "a judge's file"
    code, _out, _err = run(*argv, str(target), "--force")
    assert code == 0
    assert target.read_text(encoding="utf-8", errors="replace") != "a judge's file"
