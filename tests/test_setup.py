"""Random legal obstacle setups: ``random_setup`` and ``tabletop setup``.

``cli.md``: a setup is a legal scene for its ruleset; the same seed gives a byte-identical
file; X-Wing setups use six different asteroid, debris or gas tokens (never devices),
three per player, from the ruleset's tournament families; Armada setups are the standard
set, three asteroid fields, two debris fields and one station, all different tokens.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from common import run as run_cli

from tabletop.app.scene.scenefile import load_scene, parse_scene
from tabletop.geom.areas import play_area
from tabletop.geom.rulesets import get_ruleset
from tabletop.obstacles.legality import check
from tabletop.obstacles.scene import Scene
from tabletop.obstacles.setup import random_setup

DATA = Path(__file__).resolve().parent.parent / "tabletop" / "obstacles" / "data"
SEEDS = range(1000)
#: The token families each X-Wing ruleset's tournament play allows (rules.md).
FAMILIES = {
    "xwing1": {"core", "core2", "yt2400", "vt49"},
    "xwing2": {"core", "core2", "yt2400", "vt49", "gascloud", "pom"},
}


def _catalog(filename: str) -> dict[str, dict[str, Any]]:
    raw = json.loads((DATA / filename).read_text("utf-8"))
    return {t["name"]: t for t in raw["tokens"]}


XWING_TOKENS = _catalog("xwing-obstacles.json")
ARMADA_TOKENS = _catalog("armada-obstacles.json")


def assert_xwing_tokens(scene: Scene, ruleset: str) -> None:
    assert len(scene.obstacles) == 6
    tokens = [o.token for o in scene.obstacles]
    assert None not in tokens
    assert len(set(tokens)) == 6
    for o in scene.obstacles:
        assert o.token is not None
        entry = XWING_TOKENS[o.token]
        assert entry["family"] != "device"
        assert entry["family"] in FAMILIES[ruleset]
        assert entry["kind"] in ("asteroid", "debris", "gas")
        assert (o.family, o.kind) == (entry["family"], entry["kind"])
    players = Counter(o.player for o in scene.obstacles)
    assert players == {1: 3, 2: 3}


def assert_armada_tokens(scene: Scene) -> None:
    tokens = [o.token for o in scene.obstacles]
    assert None not in tokens
    assert len(set(tokens)) == 6
    kinds = Counter(ARMADA_TOKENS[str(t)]["kind"] for t in tokens)
    assert kinds == {"asteroid": 3, "debris": 2, "station": 1}


@pytest.mark.parametrize(("ruleset", "area"), [("xwing2", "3x3ft"), ("xwing1", "3x3ft")])
def test_xwing_thousand_seeds_legal(ruleset: str, area: str) -> None:
    rules, table = get_ruleset(ruleset), play_area(area)
    for seed in SEEDS:
        scene = random_setup(rules, table, seed=seed)
        report = check(scene, fixes=False)
        assert report.legal, (seed, [v.message for v in report.violations])
        assert_xwing_tokens(scene, ruleset)


def test_armada_thousand_seeds_legal() -> None:
    rules, table = get_ruleset("armada"), play_area("6x3ft")
    for seed in SEEDS:
        scene = random_setup(rules, table, seed=seed)
        report = check(scene, fixes=False)
        assert report.legal, (seed, [v.message for v in report.violations])
        assert report.checked["obstacle-setup-area"] == 6
        assert_armada_tokens(scene)


@pytest.mark.parametrize(
    ("ruleset", "area"),
    [("xwing2", "3x3ft"), ("xwing1", "3x3ft"), ("armada", "6x3ft"), ("armada", "3x3ft")],
)
def test_tournament_format_satisfies_composition(ruleset: str, area: str) -> None:
    rules, table = get_ruleset(ruleset), play_area(area)
    for seed in range(40):
        scene = random_setup(rules, table, seed=seed, format="tournament")
        assert scene.format == "tournament"
        report = check(scene, fixes=False)
        assert report.legal, (seed, [v.message for v in report.violations])
        assert report.checked["obstacle-composition"] == 6


def test_same_seed_same_scene_other_seed_other_scene() -> None:
    rules, table = get_ruleset("xwing2"), play_area("3x3ft")
    first = random_setup(rules, table, seed=42).to_dict()
    assert random_setup(rules, table, seed=42).to_dict() == first
    assert random_setup(rules, table, seed=43).to_dict() != first


@pytest.mark.parametrize("ruleset", ["xwing2", "xwing1", "armada"])
@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_cli_same_seed_byte_identical(tmp_path: Path, ruleset: str, suffix: str) -> None:
    first, second, other = (tmp_path / f"{n}{suffix}" for n in ("first", "second", "other"))
    assert run_cli("setup", "--ruleset", ruleset, "--seed", "7", "-o", str(first))[0] == 0
    assert run_cli("setup", "--ruleset", ruleset, "--seed", "7", "-o", str(second))[0] == 0
    assert run_cli("setup", "--ruleset", ruleset, "--seed", "8", "-o", str(other))[0] == 0
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes() != other.read_bytes()
    # What was written reads back as a legal scene of that ruleset, through `check`.
    code, out, err = run_cli("check", str(first), "--json")
    assert (code, err) == (0, ""), out
    report = json.loads(out)
    assert (report["ruleset"], report["legal"]) == (ruleset, True)
    assert report["checked"]["obstacle-edge"] == 6


def test_byte_identical_across_processes(tmp_path: Path) -> None:
    # Nothing may depend on the process (string hashing, set order): two interpreters
    # with different hash seeds write the same bytes.
    root = Path(__file__).resolve().parent.parent
    outputs = []
    for hash_seed in ("1", "2"):
        path = tmp_path / f"setup-{hash_seed}.toml"
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        command = [sys.executable, "-m", "tabletop", "setup", "--ruleset", "xwing2"]
        command += ["--seed", "11", "--format", "tournament", "-o", str(path)]
        done = subprocess.run(command, cwd=root, env=env, capture_output=True, check=False)
        assert done.returncode == 0, done.stderr
        outputs.append(path.read_bytes())
    assert outputs[0] == outputs[1]


def test_cli_toml_and_json_describe_the_same_setup(tmp_path: Path) -> None:
    toml, js = tmp_path / "s.toml", tmp_path / "s.json"
    for path in (toml, js):
        code, out, _ = run_cli(
            "setup", "--ruleset", "armada", "--seed", "3", "-o", str(path), "--json"
        )
        assert code == 0
        summary = json.loads(out)
        assert (summary["written"], summary["ruleset"], summary["seed"]) == (
            str(path),
            "armada",
            3,
        )
        assert len(summary["obstacles"]) == 6
    assert load_scene(toml).to_dict() == load_scene(js).to_dict()
    expected = random_setup(get_ruleset("armada"), play_area("6x3ft"), seed=3).to_dict()
    del expected["ships"]
    loaded = json.loads(js.read_text("utf-8"))
    assert loaded == expected


@pytest.mark.parametrize("ruleset", ["xwing2", "xwing1", "armada"])
def test_cli_written_setups_are_legal_and_well_formed(tmp_path: Path, ruleset: str) -> None:
    # Coordinates are written rounded; the file itself, read back, must still be legal.
    for seed in range(25):
        path = tmp_path / f"{ruleset}-{seed}.json"
        code, _, err = run_cli(
            "setup",
            "--ruleset",
            ruleset,
            "--seed",
            str(seed),
            "--format",
            "tournament",
            "-o",
            str(path),
        )
        assert (code, err) == (0, "")
        data = json.loads(path.read_text("utf-8"))
        scene = parse_scene(data, str(path))
        report = check(scene, fixes=False)
        assert report.legal, (seed, [v.message for v in report.violations])
        if ruleset == "armada":
            assert_armada_tokens(scene)
        else:
            assert_xwing_tokens(scene, ruleset)


def test_cli_setup_bad_input(tmp_path: Path) -> None:
    code, out, err = run_cli("setup", "--ruleset", "chess", "-o", str(tmp_path / "x.toml"))
    assert (code, out) == (2, "")
    assert "chess" in err
    assert "Traceback" not in err
    code, out, err = run_cli(
        "setup", "--ruleset", "armada", "--seed", "-1", "-o", str(tmp_path / "x.toml")
    )
    assert code == 2
    assert "--seed" in err
    code, out, err = run_cli("setup", "--ruleset", "armada", "-o", str(tmp_path / "x.txt"))
    assert code == 2
    assert "expected .toml or .json" in err
    assert not (tmp_path / "x.txt").exists()
