"""``tabletop event``: the commands against the API, bad input (exit 2, nothing written)."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.app.cli import main
from tabletop.app.event.eventfile import event_text, load_event, parse_event
from tabletop.tournament import pair_next, simulate_event, standings


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def event_file(tmp_path: Path) -> Path:
    roster = tmp_path / "players.csv"
    roster.write_text(
        "id,name,faction\n" + "".join(f"p{k},Player {k},rebel\n" for k in range(1, 6))
    )
    path = tmp_path / "event.toml"
    code, _, err = run(
        "event", "new", "--game", "armada", "--players", str(roster), "--seed", "3", "-o", str(path)
    )
    assert code == 0, err
    return path


def test_a_whole_armada_event_from_the_command_line(event_file: Path) -> None:
    for number in (1, 2, 3):
        before = load_event(event_file)
        expected = pair_next(before).to_json()
        code, out, err = run("event", "pair", str(event_file), "--json")
        assert code == 0, err
        assert json.loads(out) == expected  # the command agrees with the API
        for pair in expected["pairs"]:
            code, _, err = run(
                "event",
                "result",
                str(event_file),
                str(number),
                str(pair["table"]),
                "--scores",
                "180",
                "60",
            )
            assert code == 0, err
    code, out, _ = run("event", "standings", str(event_file), "--json")
    rows = json.loads(out)["players"]
    api = standings(load_event(event_file))
    assert [(r["id"], r["tp"], r["mov"], r["sos"]) for r in rows] == [
        (s.player.id, s.tp, s.mov, int(s.sos)) for s in api
    ]
    code, out, _ = run("event", "check", str(event_file))
    assert code == 0
    assert "legal" in out
    code, _, err = run("event", "pair", str(event_file))
    assert code == 2
    assert "the event is complete" in err


def test_a_second_result_needs_replace(event_file: Path) -> None:
    run("event", "pair", str(event_file))
    assert run("event", "result", str(event_file), "1", "1", "--scores", "100", "90")[0] == 0
    before = event_file.read_bytes()
    code, _, err = run("event", "result", str(event_file), "1", "1", "--scores", "90", "100")
    assert (code, event_file.read_bytes()) == (2, before)
    assert "--replace" in err
    assert (
        run("event", "result", str(event_file), "1", "1", "--scores", "90", "100", "--replace")[0]
        == 0
    )


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda t: re.sub(r'players = \["[^"]+"', 'players = ["nobody"', t, count=1),
            "unknown player 'nobody'",
        ),
        (lambda t: t.replace('id = "p2"', 'id = "p1"'), "duplicate player id 'p1'"),
        (
            lambda t: t.replace("scores = [180, 60]", "scores = [-5, 60]"),
            "expected an integer of at least 0",
        ),
        (
            lambda t: t.replace("scores = [180, 60]", 'scores = [180, 60]\nwinner = "p9"'),
            "unknown player 'p9'",
        ),
        (
            lambda t: t.replace("scores = [180, 60]", "scores = [180, 60]\nconcession = PLAYER"),
            "conceded with the higher score",
        ),
        (lambda t: t + "[[[", "not valid TOML"),
        (lambda t: t.replace("seed = 3", 'seed = "3"'), "key 'seed': expected an integer"),
    ],
)
def test_bad_input_exits_2_and_writes_nothing(event_file: Path, edit: object, message: str) -> None:
    run("event", "pair", str(event_file))
    run("event", "result", str(event_file), "1", "1", "--scores", "180", "60")
    text = event_file.read_text()
    first = load_event(event_file).rounds[0].matches[0].players[0]
    bad = edit(text).replace("PLAYER", json.dumps(first))  # type: ignore[operator]
    event_file.write_text(bad)
    for argv in (
        ("pair", str(event_file)),
        ("standings", str(event_file)),
        ("check", str(event_file)),
    ):
        code, out, err = run("event", *argv, "--json")
        assert code == 2
        assert "Traceback" not in err
        error = json.loads(out)["error"]
        assert message in f"{error['where']}: {error['message']}"
        assert error["where"].startswith(str(event_file))
    assert event_file.read_text() == bad


def test_an_unknown_table_and_a_stranger_are_named(event_file: Path) -> None:
    run("event", "pair", str(event_file))
    code, _, err = run("event", "result", str(event_file), "1", "9", "--scores", "1", "0")
    assert code == 2
    assert "round 1 table 9: no such table" in err
    code, _, err = run(
        "event", "result", str(event_file), "1", "1", "--scores", "1", "0", "--second", "zed"
    )
    assert code == 2
    assert "--second: no player has the id or name 'zed'" in err


def test_drop_and_return(event_file: Path) -> None:
    run("event", "pair", str(event_file))
    for table in (1, 2):
        run("event", "result", str(event_file), "1", str(table), "--scores", "100", "0")
    assert run("event", "drop", str(event_file), "p1")[0] == 0
    assert load_event(event_file).player("p1").dropped_after == 1
    code, out, _ = run("event", "pair", str(event_file), "--json")
    assert code == 0
    assert "p1" not in json.dumps(json.loads(out)["pairs"]) + json.dumps(json.loads(out)["byes"])
    code, out, _ = run("event", "return", str(event_file), "p1", "--json")
    assert json.loads(out) == {"player": "p1", "returned_for": 3, "rounds_missed": 1}


def test_toml_and_json_round_trip(tmp_path: Path) -> None:
    event = simulate_event("destiny", 12, 5, structure="advanced", drop_rate=0.1)
    for suffix in (".toml", ".json"):
        path = tmp_path / f"e{suffix}"
        path.write_text(event_text(event, path))
        assert load_event(path) == event
    data = json.loads((tmp_path / "e.json").read_text())
    assert parse_event(data) == event


def test_render_writes_a_picture(tmp_path: Path) -> None:
    event = simulate_event("destiny", 12, 5, structure="advanced")
    path = tmp_path / "e.json"
    path.write_text(event_text(event, path))
    code, _, err = run("event", "render", str(path), "-o", str(tmp_path / "e.svg"))
    assert code == 0, err
    assert (tmp_path / "e.svg").read_bytes().startswith(b"<?xml")
    assert run("event", "render", str(path), "-o", str(tmp_path / "e.gif"))[0] == 2


def test_help_works() -> None:
    code, out, _ = run("event", "--help")
    assert code == 0
    assert "standings" in out


def test_a_drop_during_a_playoff_round_lets_the_opponent_through(tmp_path: Path) -> None:
    event = simulate_event("destiny", 8, 2, structure="custom", swiss_rounds=1, cut=4, rounds=1)
    path = tmp_path / "e.toml"
    path.write_text(event_text(event, path))
    code, out, _ = run("event", "pair", str(path), "--json")
    assert code == 0
    first, second = json.loads(out)["pairs"]
    quitter, opponent = first["players"]
    assert run("event", "drop", str(path), quitter)[0] == 0
    assert load_event(path).player(quitter).dropped_after == 1  # gone before this round
    run("event", "result", str(path), "2", "2", "--winner", second["players"][0])
    code, out, err = run("event", "pair", str(path), "--json")
    assert code == 0, err
    (final,) = json.loads(out)["pairs"]
    assert final["players"] == [opponent, second["players"][0]]


def test_the_same_file_pairs_the_same_byte_for_byte(tmp_path: Path) -> None:
    event = simulate_event("destiny", 15, 8, structure="custom", swiss_rounds=4, rounds=2)
    outputs = []
    for hash_seed in ("1", "2"):
        path = tmp_path / f"e{hash_seed}.toml"
        path.write_text(event_text(event, path))
        environment = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-m", "tabletop", "event", "pair", str(path)],
            env=environment,
            capture_output=True,
            check=True,
        )
        outputs.append((done.stdout, path.read_bytes()))
    assert outputs[0] == outputs[1]


def test_an_unknown_faction_is_named(tmp_path: Path) -> None:
    roster = tmp_path / "players.csv"
    roster.write_text("id,name,faction\na,A,rebel\nb,B,empire\n")
    code, _, err = run(
        "event", "new", "--game", "armada", "--players", str(roster), "-o", str(tmp_path / "e.toml")
    )
    assert code == 2
    assert "line 3: key 'faction': expected one of rebel, imperial, got 'empire'" in err
    assert not (tmp_path / "e.toml").exists()
    data = {"game": "armada", "seed": 1, "players": [{"id": "a", "name": "A", "faction": "sith"}]}
    with pytest.raises(
        ValueError, match=r"players\[0\] 'a': key 'faction': expected one of rebel, imperial"
    ):
        parse_event(data, "e.json")


def test_an_event_updates_in_place_but_never_replaces_another_file(event_file: Path) -> None:
    # In place (no -o) is the event's own file: kept up to date.
    assert run("event", "pair", str(event_file))[0] == 0
    other = event_file.with_name("copy.toml")
    other.write_text("a judge's notes", encoding="utf-8")
    code, _, err = run("event", "standings", str(event_file))
    assert code == 0, err
    code, _, err = run("event", "drop", str(event_file), "p1", "-o", str(other))
    assert code == 2
    assert "--force" in err
    assert other.read_text(encoding="utf-8") == "a judge's notes"
    assert run("event", "drop", str(event_file), "p1", "-o", str(other), "--force")[0] == 0
    assert "p1" in other.read_text(encoding="utf-8")


def test_new_and_render_refuse_an_existing_file_unless_forced(
    event_file: Path, tmp_path: Path
) -> None:
    code, _, err = run("event", "new", "--game", "armada", "-o", str(event_file))
    assert code == 2
    assert "--force" in err
    picture = tmp_path / "standings.svg"
    picture.write_text("kept", encoding="utf-8")
    assert run("event", "render", str(event_file), "-o", str(picture))[0] == 2
    assert picture.read_text(encoding="utf-8") == "kept"
    assert run("event", "render", str(event_file), "-o", str(picture), "--force")[0] == 0
    assert picture.read_bytes().startswith(b"<?xml")
