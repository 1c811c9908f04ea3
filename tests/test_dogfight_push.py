"""`tabletop dogfight push` / `pop`: one checked play at a time, the file unchanged on a refusal.

The position is the standard setup in the rebels' move phase with hands and a deck given,
so every outcome below is worked out from the rules by hand.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tabletop.app.cli import main
from tabletop.app.common.locking import LOCK_WAIT_ENV, exclusive_lock

# Rebels hold Pursuit (move 4) and Blasters (attack 1); the deck's top is Loop.
TABLE = """game = "dogfight"
phase = "move"
seed = 3

[cards]
rebels = ["Pursuit", "Blasters"]
empire = ["Evasion"]
deck = ["Loop", "Maneuver", "Dive", "Tactics"]
"""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["dogfight", *argv], out, err)
    return code, out.getvalue(), err.getvalue()


def run_json(*argv: str) -> tuple[int, dict[str, object]]:
    code, out, err = run(*argv, "--json")
    assert code == 0, err
    return code, json.loads(out)


def game_file(tmp_path: Path, text: str = TABLE) -> Path:
    path = tmp_path / "g.toml"
    path.write_text(text, encoding="utf-8")
    return path


def plays_in(path: Path) -> list[str]:
    import tomllib

    plays = tomllib.loads(path.read_text(encoding="utf-8")).get("plays", [])
    assert isinstance(plays, list)
    return plays


def test_push_appends_a_legal_play_and_reports_the_decision_next(tmp_path: Path) -> None:
    path = game_file(tmp_path)
    _, data = run_json("push", str(path), "move   b1 b5 Pursuit")
    # b1 to b5 is 4 squares up an empty file: Pursuit's 4, within the X-Wing's Move 5.
    assert plays_in(path) == ["move b1 b5 Pursuit"]
    assert data["plays"] == 1
    assert (data["to_play"], data["phase"], data["winner"]) == ("rebels", "fire", None)
    cards = data["cards"]
    assert isinstance(cards, dict)
    assert cards["rebels"] == ["Blasters"]
    assert cards["discard"] == ["Pursuit"]
    # Blasters reaches 1 square: from b5 no enemy is that near, so only pass is left.
    assert data["legal"] == ["pass"]


def test_push_human_report_shows_board_hands_and_plays_next(tmp_path: Path) -> None:
    path = game_file(tmp_path)
    code, out, _ = run("push", str(path), "move b1 b5 Pursuit", "--show-hands")
    assert code == 0
    assert "play 1 'move b1 b5 Pursuit' pushed" in out
    assert "5  . X . . . . . ." in out  # the X-Wing now on b5
    assert "rebels hand: Blasters" in out
    assert "empire hand: Evasion" in out
    assert out.rstrip().endswith("legal plays next (1):\n  pass")


@pytest.mark.parametrize(
    ("play", "said"),
    [
        ("move b1 b6 Pursuit", "Pursuit moves up to 4 squares, this is 5 (rule: too-far)"),
        ("move b1 b5 Loop", "the rebels hold no Loop (rule: not-in-hand)"),
        ("fire b1 b2 Blasters", "(rule: wrong-phase)"),
        ("fly b1 b2", "unknown play 'fly'"),
        ("move b1 b5", "expected move FROM TO CARD"),
        ("", "empty play"),
    ],
)
def test_an_illegal_or_unreadable_push_leaves_the_file_byte_identical(
    tmp_path: Path, play: str, said: str
) -> None:
    path = game_file(tmp_path)
    before = path.read_bytes()
    code, out, err = run("push", str(path), play)
    assert code == 2
    assert out == ""
    assert "play 1" in err
    assert said in err
    assert "the file is unchanged" in err
    assert "Traceback" not in err
    assert path.read_bytes() == before


def test_a_push_after_the_end_is_refused(tmp_path: Path) -> None:
    path = game_file(tmp_path, 'game = "dogfight"\nkills = { rebels = 5, empire = 0 }\n')
    before = path.read_bytes()
    code, _, err = run("push", str(path), "pass")
    assert code == 2
    assert "the game is over (rebels)" in err
    assert path.read_bytes() == before


def test_pop_removes_the_last_play_and_nothing_more(tmp_path: Path) -> None:
    path = game_file(tmp_path)
    run("push", str(path), "move b1 b5 Pursuit")
    run("push", str(path), "pass")
    assert len(plays_in(path)) == 2
    _, data = run_json("pop", str(path))
    assert plays_in(path) == ["move b1 b5 Pursuit"]
    assert (data["plays"], data["phase"], data["legal"]) == (1, "fire", ["pass"])
    _, data = run_json("pop", str(path))
    assert plays_in(path) == []
    assert data["phase"] == "move"
    assert "move b1 b5 Pursuit" in data["legal"]  # type: ignore[operator]
    before = path.read_bytes()
    code, _, err = run("pop", str(path))
    assert code == 2
    assert "no play to pop" in err
    assert path.read_bytes() == before


def test_the_bot_answers_until_the_pushing_side_decides(tmp_path: Path) -> None:
    path = game_file(tmp_path)
    run("push", str(path), "move b1 b5 Pursuit")
    _, data = run_json("push", str(path), "pass", "--bot", "greedy")
    plays = plays_in(path)
    # The rebels' pass ends their turn; the empire draws Loop, Maneuver, Dive (4 cards
    # in hand, no discard due) and decides at least its move and its fire.
    assert plays[:2] == ["move b1 b5 Pursuit", "pass"]
    assert len(plays) >= 4
    assert data["to_play"] == "rebels" or data["winner"] is not None
    _code, replayed = run_json("replay", str(path))
    assert replayed["plays"] == len(plays) == data["plays"]
    assert (replayed["to_play"], replayed["phase"]) == (data["to_play"], data["phase"])


def test_push_waits_for_another_writer_and_gives_up_changing_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = game_file(tmp_path)
    before = path.read_bytes()
    monkeypatch.setenv(LOCK_WAIT_ENV, "0")
    with exclusive_lock(path, command="the other player's push"):
        code, _, err = run("push", str(path), "move b1 b5 Pursuit")
    assert code == 2
    assert "the other player's push" in err
    assert path.read_bytes() == before
    assert run("push", str(path), "move b1 b5 Pursuit")[0] == 0


def test_replay_upto_stops_after_play_n(tmp_path: Path) -> None:
    path = game_file(tmp_path)
    run("push", str(path), "move b1 b5 Pursuit")
    run("push", str(path), "pass")
    _, data = run_json("replay", str(path), "--upto", "1")
    assert (data["plays"], data["to_play"], data["phase"]) == (1, "rebels", "fire")
    _, data = run_json("replay", str(path), "--upto", "0")
    assert (data["plays"], data["phase"]) == (0, "move")
    code, _, err = run("replay", str(path), "--upto", "3")
    assert code == 2
    assert "--upto 3: expected 0 to 2" in err


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_push_keeps_every_key_and_value_of_the_file(tmp_path: Path, suffix: str) -> None:
    import tomllib

    source = Path(__file__).resolve().parents[1] / "examples" / "dogfight" / "midgame.toml"
    before = tomllib.loads(source.read_text(encoding="utf-8"))
    path = tmp_path / f"midgame{suffix}"
    path.write_text(
        source.read_text(encoding="utf-8") if suffix == ".toml" else json.dumps(before),
        encoding="utf-8",
    )
    assert run("push", str(path), "advance Pursuit")[0] == 0
    text = path.read_text(encoding="utf-8")
    after = tomllib.loads(text) if suffix == ".toml" else json.loads(text)
    assert after == {**before, "plays": ["advance Pursuit"]}
    if suffix == ".toml":
        assert "[fighters.rebels]" in text  # tables as sections, as written by hand


def test_players_pushing_at_once_lose_no_play(tmp_path: Path) -> None:
    import subprocess
    import sys

    # From the rebels' fire phase with empty hands, pass is legal four times running:
    # rebels fire, empire move and fire (3 cards drawn), rebels move (3 cards drawn).
    path = game_file(
        tmp_path,
        'game = "dogfight"\nphase = "fire"\n\n[cards]\n'
        'deck = ["Loop", "Maneuver", "Dive", "Tactics", "Blasters", "Evasion"]\n',
    )
    command = [sys.executable, "-m", "tabletop", "dogfight", "push", str(path), "pass"]
    players = [
        subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for _ in range(4)
    ]
    errors = [player.communicate(timeout=120)[1] for player in players]
    assert [player.returncode for player in players] == [0, 0, 0, 0], errors
    assert plays_in(path) == ["pass"] * 4
    _, data = run_json("replay", str(path))
    assert (data["to_play"], data["phase"]) == ("rebels", "fire")
