"""Input that cannot be trusted: a strict players CSV, escaped names, refused huge values.

Each refusal is exit 2 naming the file, the entry (a CSV line, ``players[2]``) and the
key; nothing is written; no traceback.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tabletop.app.cli import main
from tabletop.app.common.csvfile import MAX_FIELD_CHARS

ROOT = Path(__file__).resolve().parents[1]
BATTLE = ROOT / "examples" / "pocket" / "battle-60.toml"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def _new(folder: Path, csv_text: str, game: str = "destiny") -> tuple[int, str, Path]:
    roster = folder / "players.csv"
    roster.write_text(csv_text, encoding="utf-8")
    path = folder / "event.toml"
    code, _, err = run("event", "new", "--game", game, "--players", str(roster), "-o", str(path))
    return code, err, path


@pytest.mark.parametrize(
    ("csv_text", "message"),
    [
        # The quote opened on line 3 closes on line 4: two players would become one name.
        ('id,name\na,Anna\nb,"Bruno\nc,Carla"\n', "line 3: a quoted field runs on past the end"),
        ('id,name\na,Anna\nb,"Bruno\nc,Carla\n', "line 3: not valid CSV: a quoted field is never"),
        ("id,name\na,Anna,extra\n", "line 2: expected 2 columns, got 3"),
        ("id,name\na\n", "line 2: expected 2 columns, got 1"),
        ("id,name\na," + "x" * (MAX_FIELD_CHARS + 1) + "\n", "line 2: field 2 is 201 characters"),
        (
            "id,name\na," + "x" * 200_000 + "\n",
            "line 2: not valid CSV: a field over 200 characters",
        ),
        ("id,name\na,Anna\nb,\udcff\n", "line 3: not UTF-8 text (byte 17)"),
    ],
)
def test_a_players_csv_is_read_strictly_naming_the_line(
    tmp_path: Path, csv_text: str, message: str
) -> None:
    raw = csv_text.encode("utf-8", "surrogateescape")  # \udcff: the byte 0xff
    roster = tmp_path / "players.csv"
    roster.write_bytes(raw)
    path = tmp_path / "event.toml"
    code, out, err = run(
        "event", "new", "--game", "destiny", "--players", str(roster), "-o", str(path)
    )
    assert (code, out) == (2, "")
    assert f"{roster}: {message}" in err
    assert "Traceback" not in err
    assert not path.exists()


def test_a_field_of_exactly_the_limit_and_a_quoted_comma_are_read(tmp_path: Path) -> None:
    name = "x" * MAX_FIELD_CHARS
    code, err, path = _new(tmp_path, f'id,name\na,{name}\nb,"Bruno, the second"\n')
    assert code == 0, err
    code, out, _ = run("event", "standings", str(path), "--json")
    assert {p["name"] for p in json.loads(out)["players"]} == {name, "Bruno, the second"}


HOSTILE = "Eve\x1b[2J\x1b[31m\nrank 1  Mallory\u202e"


def _hostile_event(folder: Path) -> Path:
    data = {
        "game": "destiny",
        "seed": 1,
        "name": "Cup\x1b]0;owned\x07",
        "players": [
            {"id": "a", "name": HOSTILE},
            {"id": "b\x1b[1m", "name": "Bob"},
            {"id": "c", "name": "Carla"},
            {"id": "d", "name": "Dan"},
        ],
    }
    path = folder / "event.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _assert_clean(text: str) -> None:
    assert "\x1b" not in text
    assert "\u202e" not in text
    assert "\x07" not in text


def test_names_with_escapes_and_newlines_are_escaped_in_the_pairing_table(tmp_path: Path) -> None:
    path = _hostile_event(tmp_path)
    code, out, err = run("event", "pair", str(path))
    assert code == 0, err
    _assert_clean(out)
    assert "Eve\\x1b[2J\\x1b[31m\\nrank 1  Mallory\\u202e" in out
    assert "Cup\\x1b]0;owned\\x07" in out.splitlines()[0]
    # Title, heading, two tables: the newline in the name made no extra line.
    assert len(out.splitlines()) == 1 + 1 + 2
    code, out, _ = run("event", "pair", str(path), "--json")
    assert code == 2  # results missing: nothing to do with the names


def test_names_with_escapes_are_escaped_in_standings_check_and_messages(tmp_path: Path) -> None:
    path = _hostile_event(tmp_path)
    assert run("event", "pair", str(path))[0] == 0
    code, out, err = run("event", "standings", str(path))
    assert code == 0, err
    _assert_clean(out)
    assert "Eve\\x1b[2J\\x1b[31m\\nrank 1  Mallory\\u202e" in out
    assert len(out.splitlines()) == 1 + 1 + 4  # title, heading, four players
    code, out, _ = run("event", "standings", str(path), "--json")
    assert HOSTILE in [p["name"] for p in json.loads(out)["players"]]  # JSON keeps it exact
    code, out, err = run("event", "drop", str(path), "b\x1b[1m")
    assert code == 0, err
    assert out == "Bob (b\\x1b[1m) dropped after round 1\n"
    code, out, _ = run("event", "check", str(path))
    _assert_clean(out)


def test_a_lone_surrogate_in_an_event_is_refused_naming_entry_and_key(tmp_path: Path) -> None:
    path = tmp_path / "event.json"
    path.write_text(
        '{"game": "destiny", "seed": 1, "players": [{"id": "a", "name": "A"},'
        ' {"id": "b", "name": "B\\ud800"}]}'
    )
    before = path.read_bytes()
    for action in ("standings", "pair"):
        code, out, err = run("event", action, str(path))
        assert (code, out) == (2, "")
        assert f"{path}: players[1]: key 'name': expected Unicode text, got a lone surrogate" in err
    assert path.read_bytes() == before


def test_a_lone_surrogate_in_a_battle_or_game_file_is_refused(tmp_path: Path) -> None:
    battle = tmp_path / "battle.json"
    log = tmp_path / "log.json"
    assert (
        run("pocket", "play", str(BATTLE), "--seed", "1", "--games", "1", "-o", str(battle))[0] == 0
    )
    data = json.loads(battle.read_text())
    data["armies"][1]["name"] = "Blue\ud800"
    battle.write_text(json.dumps(data))
    code, _, err = run("pocket", "replay", str(battle))
    assert code == 2
    assert f"{battle}: armies[1]: key 'name': expected Unicode text, got a lone surrogate" in err
    assert run("dogfight", "play", "--seed", "1", "--games", "1", "-o", str(log))[0] == 0
    data = json.loads(log.read_text())
    data["plays"][2] = "move\udc80"
    log.write_text(json.dumps(data))
    code, _, err = run("dogfight", "replay", str(log))
    assert code == 2
    assert f"{log}: plays[2]: key 'plays': expected Unicode text, got a lone surrogate" in err


@pytest.mark.parametrize(
    ("text", "shown"),
    [("9" * 5000, "'99999999999999999999… (5000 characters)'"), ("²", "'²'"), ("0", "'0'")],
)
def test_a_table_number_of_5000_digits_is_a_usage_error(
    tmp_path: Path, text: str, shown: str
) -> None:
    code, err, path = _new(tmp_path, "id,name\na,A\nb,B\nc,C\nd,D\n")
    assert code == 0, err
    assert run("event", "pair", str(path))[0] == 0
    before = path.read_bytes()
    code, _, err = run("event", "result", str(path), "1", text, "--winner", "a")
    assert code == 2
    assert f"TABLE is a number from 1 to 999999999999999999, got {shown}" in err
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("trait", "message"),
    [
        ("+" + "9" * 5000, "trait +N shoot: N is from 1 to 99, got a 5000-digit number"),
        ("+100", "trait +N shoot: N is from 1 to 99, got 100"),
        ("+0", "trait +N shoot: N is from 1 to 99, got 0"),
    ],
)
def test_a_huge_pocket_trait_is_refused_naming_the_troop_and_key(
    tmp_path: Path, trait: str, message: str
) -> None:
    text = BATTLE.read_text().replace('traits = ["long range"]', f'traits = ["{trait} shoot"]', 1)
    battle = tmp_path / "battle.toml"
    battle.write_text(text)
    code, _, err = run("pocket", "check", str(battle))
    assert code == 2
    assert f"{battle}: " in err
    assert f"key 'traits': {message}" in err
    assert "archer-1" in err


def test_a_trait_of_99_is_read(tmp_path: Path) -> None:
    text = BATTLE.read_text().replace('traits = ["long range"]', 'traits = ["+99 shoot"]', 1)
    battle = tmp_path / "battle.toml"
    battle.write_text(text)
    code, _, err = run("pocket", "check", str(battle))
    assert code in (0, 1), err


def test_a_battle_size_of_10_to_the_30_is_refused_at_once(tmp_path: Path) -> None:
    text = BATTLE.read_text()
    battle = tmp_path / "battle.toml"
    battle.write_text("size = 1000000000000000000000000000000\n" + _without_size(text))
    code, _, err = run("pocket", "replay", str(battle))
    assert code == 2
    assert f"{battle}: key 'size': expected a whole number from 0 to 10000, got a huge one" in err


def _without_size(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith("size ="))
