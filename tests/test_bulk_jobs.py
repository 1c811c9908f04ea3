"""Bulk jobs on local processes: ``--jobs N`` gives the answer one process gives.

Every game, battle or table draws from its own stream seeded from (seed, its number), so
the result is the same for any number of processes and any slicing. The aggregates the
sequential harness printed before the bulk paths existed are pinned here, and every
shared-out run must print them byte for byte.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from common import ROOT, run

from tabletop.app.common.jobs import in_order, open_runner, slices
from tabletop.app.dogfight import command as cmd_dogfight
from tabletop.app.pocket import command as cmd_pocket
from tabletop.app.pocket.battlefile import load_battle, replay_battle
from tabletop.app.scene.setup import table_names, table_seed
from tabletop.boards import summarise

BATTLE = str(ROOT / "examples" / "pocket" / "battle-60.toml")
DOGFIGHT_400 = ["dogfight", "play", "--games", "400", "--seed", "3", "--json"]
POCKET_60 = ["pocket", "play", BATTLE, "--games", "60", "--seed", "2", "--json"]

#: ``dogfight play --games 400 --seed 3 --json`` as the sequential harness printed it.
DOGFIGHT_400_TEXT = (
    '{"games": 400, "seed": 3, "policies": {"rebels": "random", "empire": "random"}, '
    '"wins": {"rebels": 242, "empire": 158}, "draws": 0, "rates": {"rebels": {"rate": 0.605, '
    '"low": 0.5563126557323714, "high": 0.6516897624574263}, "empire": {"rate": 0.395, '
    '"low": 0.3483102375425738, "high": 0.4436873442676285}}, "lengths": {"unit": "turns", '
    '"mean": 30.55, "median": 30.0, "shortest": 11, "longest": 69}, "log": null}\n'
)
#: ``pocket play battle-60.toml --games 60 --seed 2 --json`` as the sequential harness printed it.
POCKET_60_TEXT = (
    '{"games": 60, "seed": 2, "policies": {"1": "random", "2": "random"}, "players": '
    '{"1": {"wins": 30, "rate": 0.5, "low": 0.3773502424155577, "high": 0.6226497575844423}, '
    '"2": {"wins": 30, "rate": 0.5, "low": 0.3773502424155577, "high": 0.6226497575844423}}, '
    '"rounds": {"mean": 3.933333333333333, "median": 4.0, "shortest": 1, "longest": 8}}\n'
)


def printed(*argv: str) -> str:
    code, out, err = run(*argv)
    assert (code, err) == (0, ""), err
    return out


def test_dogfight_play_is_the_same_on_one_and_two_processes() -> None:
    assert printed(*DOGFIGHT_400) == DOGFIGHT_400_TEXT
    assert printed(*DOGFIGHT_400, "--jobs", "1") == DOGFIGHT_400_TEXT
    assert printed(*DOGFIGHT_400, "--jobs", "2") == DOGFIGHT_400_TEXT


def test_pocket_play_is_the_same_on_one_and_two_processes() -> None:
    assert printed(*POCKET_60) == POCKET_60_TEXT
    assert printed(*POCKET_60, "--jobs", "2") == POCKET_60_TEXT


@pytest.mark.parametrize("size", [1, 7, 400])
def test_any_slicing_of_the_games_sums_to_the_same_result(size: int) -> None:
    names = {"rebels": "random", "empire": "random"}
    with open_runner(None, None) as runner:
        calls = [(names, 3, part) for part in slices(400, 2, size)]
        outcomes = [o for part in in_order(runner, cmd_dogfight.play_outcomes, calls) for o in part]
    result = summarise(outcomes, names, 3, names)
    assert (dict(result.wins), result.draws) == ({"rebels": 242, "empire": 158}, 0)
    assert (result.lengths.mean, result.lengths.shortest, result.lengths.longest) == (30.55, 11, 69)


def test_pocket_battles_sliced_at_random_points_sum_alike() -> None:
    game, start = replay_battle(load_battle(BATTLE))
    names = {"1": "random", "2": "random"}
    parts = [range(0, 13), range(13, 14), range(14, 60)]
    outcomes = [o for p in parts for o in cmd_pocket.play_outcomes(game, start, names, 2, p)]
    result = summarise(outcomes, names, 2, names)
    assert (dict(result.wins), result.lengths.mean) == ({"1": 30, "2": 30}, 236 / 60)


def test_the_log_of_game_1_is_the_same_from_processes(tmp_path: Path) -> None:
    alone, shared = tmp_path / "alone.toml", tmp_path / "shared.toml"
    printed("dogfight", "play", "--games", "6", "--seed", "5", "-o", str(alone))
    printed("dogfight", "play", "--games", "6", "--seed", "5", "-o", str(shared), "--jobs", "2")
    assert alone.read_bytes() == shared.read_bytes()


def test_setup_count_writes_the_same_tables_on_processes(tmp_path: Path) -> None:
    here = json.loads(
        printed("setup", "--ruleset", "xwing2", "--seed", "3", "--count", "12",
                "-o", str(tmp_path / "a.toml"), "--json")
    )  # fmt: skip
    there = json.loads(
        printed("setup", "--ruleset", "xwing2", "--seed", "3", "--count", "12",
                "-o", str(tmp_path / "b.toml"), "--json", "--jobs", "2")
    )  # fmt: skip
    assert [t["written"] for t in here["tables"]] == table_names(str(tmp_path / "a.toml"), 12)
    assert [t["seed"] for t in here["tables"]] == [table_seed(3, k) for k in range(1, 13)]
    for mine, theirs in zip(here["tables"], there["tables"], strict=True):
        assert (mine["seed"], mine["obstacles"]) == (theirs["seed"], theirs["obstacles"])
        assert Path(mine["written"]).read_bytes() == Path(theirs["written"]).read_bytes()
    # Table k is the table a lone setup writes with its seed.
    alone = tmp_path / "alone.toml"
    printed(
        "setup", "--ruleset", "xwing2", "--seed", str(here["tables"][6]["seed"]), "-o", str(alone)
    )
    assert alone.read_bytes() == Path(here["tables"][6]["written"]).read_bytes()


def test_table_seeds_are_the_documented_derivation() -> None:
    # derive_seed(3, 0) by hand: SplitMix64's mix of 3 * 0x9E3779B97F4A7C15 + 1, cut to 53 bits.
    mask = (1 << 64) - 1
    z = (3 * 0x9E3779B97F4A7C15 + 1) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    assert table_seed(3, 1) == (z ^ (z >> 31)) >> 11
    assert table_names("t.toml", 100)[0] == "t-001.toml"
    assert table_names("./out/t.json", 9)[-1] == "./out/t-9.json"


def test_query_jobs_answers_as_the_single_process_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    requests = query_requests()
    monkeypatch.setattr(sys, "stdin", _text_stdin(requests))
    alone = printed("query")
    for jobs in ("1", "2"):
        monkeypatch.setattr(sys, "stdin", _text_stdin(requests))
        assert printed("query", "--jobs", jobs) == alone
    answers = [json.loads(line) for line in alone.splitlines()]
    assert len(answers) == len(requests.splitlines())
    assert "error" in answers[-2]  # the line that is not JSON, answered in its place
    assert answers[0]["id"] == 0


def query_requests() -> str:
    """Requests on a bundled table: measures with an arc, checks, a bad line, a move."""
    import tomllib

    scene = tomllib.loads((ROOT / "examples" / "xwing-dogfight.toml").read_text("utf-8"))
    ids = [s["id"] for s in scene["ships"]]
    lines = []
    for n in range(300):  # more than one slice of 256
        a, b = ids[n % len(ids)], ids[(n + 1) % len(ids)]
        lines.append(
            json.dumps(
                {"op": "measure", "scene": scene, "from": a, "to": b, "arc": "front", "id": n}
            )
        )
        if n % 50 == 0:
            lines.append(json.dumps({"op": "check", "scene": scene}))
    lines.append("not json")
    lines.append(
        json.dumps({"op": "move", "scene": scene, "ship": ids[0], "maneuver": "bank 2 left"})
    )
    return "\n".join(lines) + "\n"


def _text_stdin(text: str) -> object:
    import io

    return io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--jobs", "0"], "argument --jobs: expected 1 or more processes, got 0"),
        (["--jobs", "-2"], "argument --jobs: expected 1 or more processes, got -2"),
        (["--jobs", "x"], "argument --jobs: expected a whole number of processes, got 'x'"),
        (["--jobs", "2", "--scheduler", "tcp://127.0.0.1:1"], "--jobs and --scheduler: give one"),
    ],
)
def test_bad_jobs_options_exit_2_with_the_reason(argv: list[str], message: str) -> None:
    for command in (DOGFIGHT_400, POCKET_60):
        code, out, err = run(*command, *argv)
        assert code == 2
        assert message in err
        assert message in json.loads(out)["error"]["message"]


def test_setup_jobs_need_count_and_a_bad_count_is_refused(tmp_path: Path) -> None:
    out = str(tmp_path / "t.toml")
    code, _, err = run("setup", "--ruleset", "armada", "-o", out, "--jobs", "2")
    assert (code, err.strip()) == (
        2,
        "tabletop setup: error: --jobs and --scheduler share out the tables of --count N",
    )
    code, _, err = run("setup", "--from", "list.json", "-o", out, "--count", "3")
    assert (code, err.strip()) == (
        2,
        "tabletop setup: error: --count draws random tables; --from LIST places one list's table",
    )
    for count in ("0", "10001"):
        code, _, err = run("setup", "--ruleset", "armada", "-o", out, "--count", count)
        assert (code, err.strip()) == (
            2,
            f"tabletop setup: error: --count {count}: expected 1 to 10000",
        )
    assert list(tmp_path.iterdir()) == []


def test_setup_count_refuses_an_existing_table_before_writing_any(tmp_path: Path) -> None:
    (tmp_path / "t-3.toml").write_text("kept", encoding="utf-8")
    code, _, err = run(
        "setup", "--ruleset", "armada", "--count", "4", "-o", str(tmp_path / "t.toml")
    )
    assert code == 2
    assert "t-3.toml" in err
    assert "--force" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t-3.toml"]
    assert (tmp_path / "t-3.toml").read_text(encoding="utf-8") == "kept"


def test_a_missing_cluster_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    code, _, err = run(*DOGFIGHT_400, "--scheduler", "tcp://127.0.0.1:8786")
    assert code == 2
    assert "pip install 'tabletop-judge[cluster]'" in err
    assert "--scheduler needs dask.distributed, which is not installed" in err
