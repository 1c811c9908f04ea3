"""Validate before writing: nothing a command writes is refused by the tool that wrote it.

Each value a command would write meets the loader's checks first; a refused command
exits 2 with the file's bytes unchanged (checked by hash).
"""

from __future__ import annotations

import hashlib
import io
import json
import string
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from tabletop.app.cli import main
from tabletop.app.dogfight.gamefile import load_game_file
from tabletop.app.event.eventfile import EventFileError, load_event, parse_event
from tabletop.app.pocket.battlefile import (
    MAX_BATTLE_SIZE,
    BattleFileError,
    load_battle,
    parse_battle,
)

ROOT = Path(__file__).resolve().parents[1]
BATTLE = ROOT / "examples" / "pocket" / "battle-60.toml"
PLAYERS = [f"p{k}" for k in range(1, 9)]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _paired(folder: Path, game: str = "armada") -> Path:
    roster = folder / "players.csv"
    roster.write_text("id,name\n" + "".join(f"{p},Player {p}\n" for p in PLAYERS))
    path = folder / "event.toml"
    extra = ["--tier", "informal", "--swiss-rounds", "3"] if game == "armada" else []
    code, _, err = run(
        "event", "new", "--game", game, "--players", str(roster), "-o", str(path), *extra
    )
    assert code == 0, err
    code, _, err = run("event", "pair", str(path))
    assert code == 0, err
    return path


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--tp", "-1", "10"], "TP are from 0 to 10 under armada-2015, got [-1, 10]"),
        (["--tp", "11", "0"], "TP are from 0 to 10 under armada-2015, got [11, 0]"),
        (["--by-time"], "armada-2015 scores a game ended on time as any other; 'by_time'"),
    ],
)
def test_armada_results_the_loader_would_refuse_are_refused(
    tmp_path: Path, extra: list[str], message: str
) -> None:
    path = _paired(tmp_path)
    before = _digest(path)
    code, out, err = run("event", "result", str(path), "1", "1", "--scores", "150", "100", *extra)
    assert (code, out) == (2, "")
    assert f"{path}: round 1 table 1: {message}" in err
    assert _digest(path) == before


@pytest.mark.parametrize("score", [str(2**63), str(2**64 + 5)])
def test_a_score_past_64_bits_is_refused_and_one_just_inside_is_kept(
    tmp_path: Path, score: str
) -> None:
    path = _paired(tmp_path)
    before = _digest(path)
    code, _, err = run("event", "result", str(path), "1", "1", "--scores", score, "0")
    assert code == 2
    # The one file writer refuses it, naming the entry and the key, before the file changes.
    assert f"key 'scores[0]': {score} does not fit in 64 bits" in err
    assert _digest(path) == before
    code, _, err = run("event", "result", str(path), "1", "1", "--scores", str(2**63 - 1), "0")
    assert code == 0, err
    assert load_event(path).rounds[0].matches[0].scores == (2**63 - 1, 0)


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--seed", "-1"], "key 'seed': expected an integer of at least 0, got -1"),
        (["--seed", str(2**63)], f"key 'seed': {2**63} does not fit in 64 bits"),
        (["--swiss-rounds", "-3"], "key 'swiss_rounds': expected an integer of at least 0"),
        (["--cut", "-4"], "key 'cut': expected an integer of at least 0, got -4"),
        (["--structure", "weird"], "key 'structure': expected one of basic, advanced, custom"),
    ],
)
def test_new_refuses_what_its_loader_would_and_writes_nothing(
    tmp_path: Path, option: list[str], message: str
) -> None:
    path = tmp_path / "event.toml"
    code, _, err = run("event", "new", "--game", "destiny", "-o", str(path), *option)
    assert code == 2
    assert f"{path}: {message}" in err
    assert not path.exists()


def test_a_seed_just_inside_64_bits_is_written_and_read() -> None:
    data = {"game": "destiny", "seed": 2**63 - 1, "players": []}
    assert parse_event(data).seed == 2**63 - 1
    with pytest.raises(EventFileError, match="below 2\\^63"):
        parse_event({**data, "seed": 2**63})


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        (
            "games",
            ["a"],
            "armada-2015 enters final scores; 'games' (each game's winner) belongs to a best-of-three game",
        ),
        (
            "by_time",
            True,
            "armada-2015 scores a game ended on time as any other; 'by_time' belongs to a best-of-three game",
        ),
        ("tp", [6, 11], "TP are from 0 to 10 under armada-2015, got [6, 11]"),
    ],
)
def test_the_loader_refuses_keys_an_armada_match_does_not_have(
    key: str, value: object, message: str
) -> None:
    match = {"table": 1, "players": ["a", "b"], "scores": [150, 100], key: value}
    data = {
        "game": "armada",
        "seed": 1,
        "tier": "informal",
        "swiss_rounds": 3,
        "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
        "rounds": [{"kind": "swiss", "matches": [match]}],
    }
    with pytest.raises(EventFileError) as caught:
        parse_event(data, "e.json")
    assert str(caught.value) == f"e.json: round 1 table 1: {message}"


# -- fuzz: whatever the commands write, the loader reads ----------------------------------

_NUMBER = st.one_of(st.integers(-3, 12), st.sampled_from([2**63 - 1, 2**63, -(2**63), 10**30])).map(
    str
)
_SOMETIMES = st.integers(0, 4).map(lambda n: n == 0)
_TABLE = st.sampled_from(["1", "2", "3", "4"])
_PLACE = st.one_of(st.sampled_from(["1", "2", "3", "4"]), _NUMBER)
_SCORE = st.one_of(st.integers(0, 400).map(str), st.integers(0, 400).map(str), _NUMBER)
_WORD = st.text(string.ascii_letters + string.digits + "-_ \x1b\n\u2028", min_size=1, max_size=6)


@st.composite
def _result_argv(draw: st.DrawFn, path: Path) -> list[str]:
    round_ = draw(st.one_of(st.just("1"), st.just("1"), _NUMBER))
    argv = ["event", "result", str(path), round_, draw(st.one_of(_TABLE, _TABLE, _NUMBER))]
    kind = draw(st.sampled_from(["scores", "winner", "games"]))
    if kind == "scores":
        argv += ["--scores", draw(_SCORE), draw(_SCORE)]
    elif kind == "winner":
        argv += ["--winner", draw(st.sampled_from(PLAYERS))]
    else:
        argv += ["--games", *draw(st.lists(st.sampled_from(PLAYERS), min_size=1, max_size=3))]
    for flag in ("--second", "--concession"):
        if draw(_SOMETIMES):
            argv += [flag, draw(st.sampled_from(PLAYERS))]
    if draw(_SOMETIMES):
        argv += ["--tp", draw(_NUMBER), draw(_NUMBER)]
    argv += [f for f in ("--by-time", "--replace") if draw(_SOMETIMES)]
    return argv


@st.composite
def _command(draw: st.DrawFn, path: Path) -> list[str]:
    action = draw(st.sampled_from(["result", "result", "result", "drop", "return", "pair"]))
    if action == "result":
        return draw(_result_argv(path))
    if action == "pair":
        return ["event", "pair", str(path)]
    argv = ["event", action, str(path), draw(st.sampled_from([*PLAYERS, "nobody"]))]
    if action == "drop" and draw(st.booleans()):
        argv += ["--after", draw(_PLACE)]
    return argv


@settings(max_examples=25)
@given(st.sampled_from(["armada", "destiny"]), st.data())
def test_every_event_a_command_writes_is_read_back_and_a_refusal_changes_nothing(
    tmp_path_factory: pytest.TempPathFactory, game: str, data: st.DataObject
) -> None:
    path = _paired(tmp_path_factory.mktemp("event"), game)
    written = 0
    for _ in range(8):
        argv = data.draw(_command(path))
        before = _digest(path)
        code, _, err = run(*argv)
        written += code == 0
        assert code in (0, 2), err
        assert "Traceback" not in err
        if code == 2:
            assert _digest(path) == before, argv
        load_event(path)  # what is on disk is always what the tool reads
    event(f"commands that wrote: {written}")


@settings(max_examples=20)
@given(
    st.sampled_from(["destiny", "armada"]),
    st.one_of(st.integers(-5, 5), st.sampled_from([2**63 - 1, 2**63])),
    st.one_of(st.none(), st.integers(-5, 40)),
    st.one_of(st.none(), st.integers(-5, 8)),
    st.one_of(st.none(), st.sampled_from(["basic", "advanced", "custom", "weird"])),
    st.lists(_WORD, max_size=4),
    st.sampled_from([".toml", ".json"]),
)
def test_every_new_event_is_read_back_or_nothing_is_written(
    tmp_path_factory: pytest.TempPathFactory,
    game: str,
    seed: int,
    swiss_rounds: int | None,
    cut: int | None,
    structure: str | None,
    names: list[str],
    suffix: str,
) -> None:
    folder = tmp_path_factory.mktemp("new")
    roster = folder / "players.csv"
    roster.write_text("id,name\n" + "".join(f"p{k},{json.dumps(n)}\n" for k, n in enumerate(names)))
    path = folder / f"event{suffix}"
    argv = ["event", "new", "--game", game, "--players", str(roster), "-o", str(path)]
    argv += ["--seed", str(seed)]
    for option, value in (("--swiss-rounds", swiss_rounds), ("--cut", cut)):
        if value is not None:
            argv += [option, str(value)]
    if structure is not None:
        argv += ["--structure", structure]
    code, _, err = run(*argv)
    assert code in (0, 2), err
    if code == 0:
        load_event(path)
    else:
        assert not path.exists()


@settings(max_examples=6)
@given(
    st.one_of(st.integers(-3, 3), st.sampled_from([2**63 - 1, 2**63])),
    st.sampled_from([".toml", ".json"]),
)
def test_every_game_and_battle_log_a_command_writes_is_read_back(
    tmp_path_factory: pytest.TempPathFactory, seed: int, suffix: str
) -> None:
    folder = tmp_path_factory.mktemp("logs")
    game_log, battle_log = folder / f"game{suffix}", folder / f"battle{suffix}"
    code, _, err = run("dogfight", "play", "--seed", str(seed), "--games", "1", "-o", str(game_log))
    assert code == 0, err
    load_game_file(game_log)
    code, _, err = run("dogfight", "replay", str(game_log))
    assert code == 0, err
    code, _, err = run(
        "pocket", "play", str(BATTLE), "--seed", str(seed), "--games", "1", "-o", str(battle_log)
    )
    assert code == 0, err
    load_battle(battle_log)
    code, _, err = run("pocket", "replay", str(battle_log))
    assert code == 0, err


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("size", 10**30, "expected a whole number from 0 to 10000, got a huge one"),
        ("size", MAX_BATTLE_SIZE + 1, "expected a whole number from 0 to 10000, got 10001"),
        ("seed", 2**63, "expected a whole number from 0 to 9223372036854775807, got a huge one"),
    ],
)
def test_a_battle_with_a_huge_number_is_refused_naming_the_key(
    key: str, value: int, message: str
) -> None:
    data = {"size": 60, "armies": []} | {key: value}
    with pytest.raises(BattleFileError) as caught:
        parse_battle(data, "b.json")
    assert str(caught.value) == f"b.json: key {key!r}: {message}"
