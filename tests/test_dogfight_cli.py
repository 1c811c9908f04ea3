"""`tabletop dogfight`: the commands against the engine's API, and bad input as exit 2."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from tabletop.app.cli import main
from tabletop.app.dogfight.gamefile import load_game_file
from tabletop.boards import replay
from tabletop.boards.dogfight import STANDARD, Dogfight

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "dogfight"
GAME = Dogfight()


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["dogfight", *argv], out, err)
    return code, out.getvalue(), err.getvalue()


def run_json(*argv: str) -> tuple[int, dict[str, object]]:
    code, out, _ = run(*argv, "--json")
    return code, json.loads(out)


def write(tmp_path: Path, text: str, name: str = "g.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


SMALL = """
game = "dogfight"
phase = "move"
[fighters.rebels]
d1 = "X-Wing"
[fighters.empire]
d3 = "TIE Fighter"
h8 = "TIE Fighter"
[cards]
rebels = ["Attack Run", "Loop"]
empire = ["Evasion"]
deck = ["Maneuver", "Loop", "Dive", "Blasters", "Evasion", "Pursuit"]
"""


def test_check_the_standard_setup_and_the_mid_game_position() -> None:
    code, data = run_json("check", str(EXAMPLES / "standard.toml"))
    assert code == 0
    assert data == {"legal": True, "kind": "setup", "violations": []}
    code, data = run_json("check", str(EXAMPLES / "midgame.toml"))
    assert code == 0
    assert data["kind"] == "position"


def test_check_reports_every_violation_with_exit_1(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'game = "dogfight"\n[fighters.rebels]\na3 = "X-Wing"\nb1 = "TIE Fighter"\n'
        '[fighters.empire]\na3 = "TIE Fighter"\n',
    )
    code, data = run_json("check", path)
    assert code == 1
    assert data["kind"] == "setup"
    rules = sorted(v["rule"] for v in data["violations"])  # type: ignore[attr-defined]
    # a3 off the back ranks; b1 a TIE among the rebels; two on a3; counts: X-Wing 1 of 2,
    # the other rebel types 0, TIE Fighter 1 of 6 and Interceptors 0.
    assert rules.count("setup-count") == 6
    assert rules.count("setup-rank") == 2
    assert "two-on-square" in rules
    assert "wrong-side" in rules
    code, _out, err = run("moves", path)
    assert code == 2
    assert "Traceback" not in err
    # Violations do not hide a bad card: that is still bad input.
    bad = write(tmp_path, Path(path).read_text() + '[cards]\nrebels = ["Blaster"]\n', "b.toml")
    code, _out, err = run("check", bad)
    assert code == 2
    assert "unknown card 'Blaster'" in err


def test_moves_lists_the_apis_plays_and_perft(tmp_path: Path) -> None:
    path = write(tmp_path, SMALL)
    position = load_game_file(path).final(GAME)
    code, data = run_json("moves", path)
    assert code == 0
    assert data == {
        "to_play": "rebels",
        "phase": "move",
        "plays": sorted(str(p) for p in GAME.legal_plays(position)),
    }
    for depth in (0, 1, 2, 3):
        code, data = run_json("moves", path, "--depth", str(depth))
        assert data == {"depth": depth, "nodes": GAME.perft(position, depth)}
    assert run_json("moves", path, "--depth", "0")[1]["nodes"] == 1


def test_moves_of_the_defend_phase_name_the_targets_side(tmp_path: Path) -> None:
    text = SMALL.replace('phase = "move"', 'phase = "fire"\nplays = ["fire d1 d3 Attack Run"]')
    _code, data = run_json("moves", write(tmp_path, text))
    assert data == {"to_play": "empire", "phase": "defend", "plays": ["defend Evasion", "take"]}


def test_a_finished_game_has_no_plays(tmp_path: Path) -> None:
    path = write(
        tmp_path, SMALL.replace('phase = "move"', 'phase = "move"\nkills = { empire = 5 }')
    )
    _code, data = run_json("moves", path)
    assert data == {"to_play": None, "phase": "over", "winner": "empire", "plays": []}


def test_replay_reports_the_end(tmp_path: Path) -> None:
    text = SMALL.replace(
        'phase = "move"', 'phase = "move"\nplays = ["pass", "fire d1 d3 Attack Run", "take"]'
    )
    code, data = run_json("replay", write(tmp_path, text))
    assert code == 0
    assert data == {
        "plays": 3,
        "winner": None,
        "kills": {"rebels": 1, "empire": 0},
        "to_play": "empire",
        "phase": "move",
    }
    code, out, _ = run("replay", write(tmp_path, text))
    assert "3 plays applied" in out
    assert "8  . . . . . . . f" in out


def test_replay_names_the_illegal_plays_number_and_rule(tmp_path: Path) -> None:
    text = SMALL.replace('"Attack Run", "Loop"', '"Attack Run", "Loop", "Targeters"')
    text = text.replace(
        'phase = "move"', 'phase = "move"\nplays = ["pass", "fire d1 d4 Targeters"]'
    )
    code, out, err = run("replay", write(tmp_path, text), "--json")
    assert code == 2
    error = json.loads(out)["error"]
    assert error["where"].endswith("g.toml: play 2: key 'plays'")
    assert "blocks the shot" in error["message"]
    assert "(rule: blocked)" in error["message"]
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (('"Attack Run", "Loop"', '"Attack Run", "Lop"'), "unknown card 'Lop'"),
        (('d1 = "X-Wing"', 'z9 = "X-Wing"'), "'z9' is not a square"),
        (('d1 = "X-Wing"', 'd1 = "X-Wingg"'), "unknown fighter type 'X-Wingg'"),
        (('phase = "move"', 'phase = "move"\nplays = ["move c4 c5 Loop"]'), "no fighter on c4"),
        (
            ('deck = ["Maneuver",', 'deck = ["Dive", "Dive", "Dive", "Maneuver",'),
            "4 copies of 'Dive'",
        ),
        (
            ('phase = "move"', 'phase = "move"\nplays = ["move d1 d2 Loops"]'),
            "unknown card 'Loops'",
        ),
        (('game = "dogfight"', 'game = "chess"'), 'expected "dogfight"'),
        (('game = "dogfight"', 'game = "dogfight"\nturns = 3'), "unknown key"),
        (('phase = "move"', 'phase = "move" = 3'), "not valid TOML"),
        (('phase = "move"', "seed = -1"), "expected 0 or more"),
        (("[fighters.empire]", '[fighters.empire]\nc1 = "X-Wing"'), "wrong-side"),
    ],
)
def test_bad_input_is_exit_2_with_a_clear_message(
    tmp_path: Path, change: tuple[str, str], expected: str
) -> None:
    path = write(tmp_path, SMALL.replace(*change))
    for action in ("moves", "replay"):
        code, _out, err = run(action, path)
        assert code == 2
        assert expected in err
        assert "Traceback" not in err
        assert err.startswith("tabletop dogfight: error: ")


def test_a_malformed_json_file_and_a_missing_one(tmp_path: Path) -> None:
    code, _, err = run("check", write(tmp_path, '{"game": "dogfight",', "g.json"))
    assert code == 2
    assert "not valid JSON" in err
    code, _, err = run("check", str(tmp_path / "none.toml"))
    assert code == 2
    assert "no such file" in err


def test_play_simulates_and_writes_a_replayable_log(tmp_path: Path) -> None:
    log = tmp_path / "log.json"
    code, data = run_json(
        "play", "--games", "30", "--seed", "4", "--rebels", "greedy", "-o", str(log)
    )
    assert code == 0
    assert data["games"] == 30
    assert data["policies"] == {"rebels": "greedy", "empire": "random"}
    wins = data["wins"]
    assert isinstance(wins, dict)
    assert sum(wins.values()) + data["draws"] == 30  # type: ignore[operator]
    rates = data["rates"]
    assert isinstance(rates, dict)
    for side in ("rebels", "empire"):
        # Within rounding: the shared Wilson bound for 30 of 30 is 1 less an ulp.
        assert rates[side]["low"] - 1e-12 <= rates[side]["rate"] <= rates[side]["high"] + 1e-12
    parsed = load_game_file(log)
    final = replay(GAME, parsed.start(GAME), parsed.plays).state
    assert GAME.winner(final) is not None
    code, replayed = run_json("replay", str(log))
    assert code == 0
    assert replayed["winner"] == GAME.winner(final)


def test_the_bundled_log_replays_to_its_end() -> None:
    code, data = run_json("replay", str(EXAMPLES / "game.toml"))
    assert code == 0
    assert data["winner"] in ("rebels", "empire", "draw")


def test_usage_errors() -> None:
    assert run("play", "x.toml")[0] == 2
    assert run("moves")[0] == 2
    assert run("fly")[0] == 2
    assert run("play", "--games", "0")[0] == 2
    code, _, err = run("check", str(EXAMPLES / "standard.toml"), "--depth", "2")
    assert code == 2
    assert "--depth goes with dogfight moves, not check" in err
    assert run("moves", str(EXAMPLES / "standard.toml"), "--fighter", "a1")[0] == 2
    code, out, _ = run("--help")
    assert code == 0
    assert "check FILE" in out


def random_file_data(rng: random.Random) -> dict[str, object]:
    """A game file with fighters anywhere, cards dealt at random, in any starting phase."""
    squares = ["abcdefgh"[i % 8] + str(i // 8 + 1) for i in range(64)]
    rng.shuffle(squares)
    fighters: dict[str, dict[str, str]] = {"rebels": {}, "empire": {}}
    for fighter in STANDARD.fighters:
        for _ in range(rng.randint(1, fighter.count)):
            fighters[fighter.side][squares.pop()] = fighter.name
    deck = [card.name for card in STANDARD.cards for _ in range(card.count)]
    rng.shuffle(deck)
    a, b = rng.randint(0, 7), rng.randint(0, 7)
    return {
        "game": "dogfight",
        "to_play": rng.choice(["rebels", "empire"]),
        "phase": rng.choice(["vector", "move", "fire"]),
        "seed": rng.randint(0, 99),
        "fighters": fighters,
        "cards": {
            "rebels": deck[:a],
            "empire": deck[a : a + b],
            "discard": deck[a + b : a + b + 9],
        },
    }


def test_cli_and_api_agree_on_random_positions(tmp_path: Path) -> None:
    rng = random.Random(12)
    for index in range(25):
        data = random_file_data(rng)
        path = tmp_path / f"p{index}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        position = load_game_file(path).final(GAME)
        code, listed = run_json("moves", str(path))
        assert code == 0
        assert listed["plays"] == sorted(str(p) for p in GAME.legal_plays(position))
        assert listed["to_play"] == GAME.side_to_play(position)
        code, counted = run_json("moves", str(path), "--depth", "2")
        assert counted["nodes"] == GAME.perft(position, 2)


def test_play_shows_a_progress_bar_on_request(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("play", "--games", "20", "--progress")[0] == 0
    bar = capsys.readouterr().err
    assert bar.endswith("] 20/20 games\n")
    assert "[" + "#" * 30 + "]" in bar
    assert run("play", "--games", "20")[0] == 0
    assert capsys.readouterr().err == ""  # stderr is not a terminal here


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (("render", str(EXAMPLES / "midgame.toml"), "-o"), "out.png"),
        (("play", "--games", "2", "--seed", "1", "-o"), "log.toml"),
    ],
    ids=["render", "play"],
)
def test_writing_commands_refuse_an_existing_file_unless_forced(
    tmp_path: Path, argv: tuple[str, ...], name: str
) -> None:
    target = tmp_path / name
    target.write_text("a player's file", encoding="utf-8")
    code, _out, err = run(*argv, str(target))
    assert code == 2
    assert "--force" in err
    assert target.read_text(encoding="utf-8") == "a player's file"
    code, _out, _err = run(*argv, str(target), "--force")
    assert code == 0
    assert target.read_text(encoding="utf-8", errors="replace") != "a player's file"


def test_render_never_writes_over_its_game_file(tmp_path: Path) -> None:
    source = tmp_path / "game.toml"
    source.write_bytes((EXAMPLES / "midgame.toml").read_bytes())
    # The same file under a picture's name: a hard link.
    (tmp_path / "game.png").hardlink_to(source)
    code, _out, err = run("render", str(source), "-o", str(tmp_path / "game.png"), "--force")
    assert code == 2
    assert source.read_bytes() == (EXAMPLES / "midgame.toml").read_bytes()
    assert "game file" in err or "input" in err
