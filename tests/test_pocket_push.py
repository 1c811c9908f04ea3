"""`tabletop pocket push` / `pop`: one checked play at a time, the file unchanged on a refusal."""

from __future__ import annotations

import io
import json
import shutil
import tomllib
from pathlib import Path

import pytest

from tabletop.app.cli import main
from tabletop.app.pocket.battlefile import load_battle, replay_battle

BATTLE = Path(__file__).resolve().parents[1] / "examples" / "pocket" / "battle-60.toml"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["pocket", *argv], out, err)
    return code, out.getvalue(), err.getvalue()


def battle_file(tmp_path: Path) -> Path:
    path = tmp_path / "battle.toml"
    shutil.copyfile(BATTLE, path)
    return path


def plays_in(path: Path) -> list[str]:
    plays = tomllib.loads(path.read_text(encoding="utf-8")).get("plays", [])
    assert isinstance(plays, list)
    return plays


def test_push_pass_spends_one_token_and_hands_the_turn_over(tmp_path: Path) -> None:
    path = battle_file(tmp_path)
    _, before = replay_battle(load_battle(path))
    assert before.pool[1] > 0
    assert not plays_in(path)
    code, out, err = run("push", str(path), "pass", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert plays_in(path) == ["pass"]
    _, after = replay_battle(load_battle(path))
    # pass costs 1 order token; the other player then takes a turn.
    assert after.pool[1] == before.pool[1] - 1
    assert after.pool[2] == before.pool[2]
    assert data["plays"] == 1
    assert data["winner"] is None
    assert data["decision"]["player"] == 2
    assert data["decision"]["decision"] == "turn"
    assert {"play": "pass", "cost": 1} in data["decision"]["plays"]


def test_push_human_report_shows_the_state_and_the_plays_next(tmp_path: Path) -> None:
    path = battle_file(tmp_path)
    code, out, _ = run("push", str(path), "pass")
    assert code == 0
    assert "play 1 'pass' pushed" in out
    assert "tokens unspent" in out
    assert "to decide: player 2, turn" in out
    assert "legal plays next (" in out
    assert "pass                               cost 1" in out


@pytest.mark.parametrize(
    ("play", "said"),
    [
        ("end", "(rule: wrong-decision)"),
        ("order nobody charge", "nobody"),
        ("dance", "dance"),
    ],
)
def test_an_illegal_or_unreadable_push_leaves_the_file_byte_identical(
    tmp_path: Path, play: str, said: str
) -> None:
    path = battle_file(tmp_path)
    before = path.read_bytes()
    code, out, err = run("push", str(path), play)
    assert code == 2
    assert out == ""
    assert "play 1" in err
    assert said in err
    assert "the file is unchanged" in err
    assert "Traceback" not in err
    assert path.read_bytes() == before


def test_pop_removes_the_last_play(tmp_path: Path) -> None:
    path = battle_file(tmp_path)
    run("push", str(path), "pass")
    run("push", str(path), "pass")
    assert plays_in(path) == ["pass", "pass"]
    code, out, _ = run("pop", str(path))
    assert code == 0
    assert "play 2 'pass' popped" in out
    assert plays_in(path) == ["pass"]
    run("pop", str(path))
    before = path.read_bytes()
    code, _, err = run("pop", str(path))
    assert code == 2
    assert "no play to pop" in err
    assert path.read_bytes() == before


def test_the_bot_answers_for_the_other_player(tmp_path: Path) -> None:
    path = battle_file(tmp_path)
    code, out, err = run("push", str(path), "pass", "--bot", "greedy", "--json")
    assert code == 0, err
    data = json.loads(out)
    plays = plays_in(path)
    assert plays[0] == "pass"
    assert len(plays) >= 2
    assert data["plays"] == len(plays)
    assert data["winner"] is not None or data["decision"]["player"] == 1
    game, state = replay_battle(load_battle(path))
    assert game.side_to_play(state) in ("1", None)
