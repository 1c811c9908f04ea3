"""Discoverability: --version, help COMMAND, "did you mean" for a mistyped command, and
``tabletop list`` agreeing with the catalogs it reads."""

from __future__ import annotations

import io
import json
import re
import tomllib
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

import tabletop.app.cli as cli
from tabletop.app.cli import main
from tabletop.geom.areas import AREA_PRESETS
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.hulls import hull_names, speed_chart
from tabletop.geom.rulesets import RULESET_NAMES, get_ruleset
from tabletop.maneuvers import parse_maneuver
from tabletop.obstacles.catalog import catalog

ROOT = Path(__file__).resolve().parents[1]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def listed(*argv: str) -> dict[str, Any]:
    code, stdout, stderr = run("list", *argv, "--json")
    assert code == 0, stderr
    answer: dict[str, Any] = json.loads(stdout)
    return answer


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version(flag: str) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert run(flag) == (0, f"tabletop {project['version']}\n", "")
    assert version("tabletop-judge") == project["version"]


def test_help_command_is_the_command_help() -> None:
    for name in cli.COMMANDS:
        code, stdout, _ = run("help", name)
        assert code == 0
        assert stdout == run(name, "--help")[1]
        assert stdout.startswith(f"usage: tabletop {name}")


def test_help_alone_and_the_overview_name_every_command() -> None:
    code, stdout, _ = run("help")
    assert code == 0
    assert stdout == cli.__doc__
    assert run("help", "help") == (0, cli.__doc__, "")
    assert run("--help") == (0, cli.__doc__, "")
    for name in cli.COMMANDS:
        assert re.search(rf"^  {name} ", stdout, re.MULTILINE), name
    assert "--version" in stdout


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("chek", "check"), ("mesure", "measure"), ("rendr", "render"), ("lst", "list")],
)
def test_did_you_mean(typed: str, meant: str) -> None:
    code, stdout, stderr = run(typed, "x")
    assert code == 2
    assert stdout == ""
    assert f"unknown command {typed!r}; did you mean {meant!r}?" in stderr
    code, _, stderr = run("help", typed)
    assert code == 2
    assert f"did you mean {meant!r}?" in stderr


def test_nothing_close_lists_the_commands() -> None:
    code, _, stderr = run("xyzzy")
    assert code == 2
    assert "did you mean" not in stderr
    assert "expected one of: measure, report, check" in stderr


def test_a_mistyped_command_with_json_answers_json() -> None:
    code, stdout, _ = run("chek", "scene.toml", "--json")
    assert code == 2
    assert "did you mean 'check'?" in json.loads(stdout)["error"]["message"]


# --- list -------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESET_NAMES)
def test_list_tokens_is_the_catalog(ruleset: str) -> None:
    answer = listed("tokens", "--ruleset", ruleset)
    assert answer["list"] == "tokens"
    assert answer["ruleset"] == ruleset
    tokens = catalog(get_ruleset(ruleset))
    assert [t["name"] for t in answer["items"]] == list(tokens)
    for item in answer["items"]:
        token = tokens[item["name"]]
        assert (item["kind"], item["family"], item["label"]) == (
            token.kind,
            token.family,
            token.label,
        )


def test_list_defaults_to_xwing2() -> None:
    assert listed("tokens")["ruleset"] == "xwing2"
    assert listed("hulls")["ruleset"] == "armada"


@pytest.mark.parametrize("ruleset", RULESET_NAMES)
def test_list_bases_are_the_rulesets(ruleset: str) -> None:
    items = listed("bases", "--ruleset", ruleset)["items"]
    sizes = get_ruleset(ruleset).base_sizes
    assert {i["name"]: (i["width"], i["length"]) for i in items} == dict(sizes)
    if ruleset == "xwing2":  # rules.md: small 40, medium 60, large 80 mm squares
        assert [(i["width"], i["length"]) for i in items[:3]] == [(40, 40), (60, 60), (80, 80)]


def test_list_hulls_with_their_speed_charts() -> None:
    items = listed("hulls")["items"]
    assert [i["name"] for i in items] == list(hull_names())
    victory = next(i for i in items if i["name"] == "victory")
    assert victory["speed_chart"] == [[1], [0, 1]]
    for item in items:
        chart = speed_chart(item["name"])
        assert item["speed_chart"] == (None if chart is None else [list(r) for r in chart])


def test_list_hulls_of_xwing_is_an_error() -> None:
    code, _, stderr = run("list", "hulls", "--ruleset", "xwing2")
    assert code == 2
    assert "hulls are Armada's" in stderr


@pytest.mark.parametrize("ruleset", ["xwing2", "xwing1"])
def test_list_maneuvers_parse_at_both_ends_of_each_range(ruleset: str) -> None:
    rules = get_ruleset(ruleset)
    entries = [i["name"] for i in listed("maneuvers", "--ruleset", ruleset)["items"]]
    assert len(entries) == 12
    for entry in entries:
        words = entry.replace("[forward|centre|back]", "").replace("left|right", "left").split()
        for index, word in enumerate(words):
            if re.fullmatch(r"\d-\d", word):
                low, high = word.split("-")
                for speed in (low, high):
                    parse_maneuver(" ".join([*words[:index], speed, *words[index + 1 :]]), rules)
                beyond = " ".join([*words[:index], str(int(high) + 1), *words[index + 1 :]])
                with pytest.raises(InvalidInputError):  # one past the top of the range
                    parse_maneuver(beyond, rules)
                break
        else:
            parse_maneuver(" ".join(words), rules)


def test_list_maneuvers_of_armada() -> None:
    (item,) = listed("maneuvers", "--ruleset", "armada")["items"]
    assert item["name"] == "speed 0-4 [yaw C1 ... Cn] [side left|right] [navigate]"


def test_list_areas_mark_the_default() -> None:
    items = listed("areas", "--ruleset", "armada")["items"]
    assert {i["name"]: (i["width"], i["height"]) for i in items} == dict(AREA_PRESETS)
    assert [i["name"] for i in items if i["default"]] == ["6x3ft"]


def test_list_human_output() -> None:
    code, stdout, _ = run("list", "areas")
    assert code == 0
    assert stdout.splitlines() == [
        "areas of xwing2:",
        "  3x3ft      914.4 x 914.4 mm  (default)",
        "  6x3ft      1828.8 x 914.4 mm",
        "  180x90cm   1800 x 900 mm",
    ]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("list", "token"), "unknown list 'token'; did you mean 'tokens'?"),
        (("list", "tokens", "--ruleset", "chess"), "unknown ruleset 'chess'"),
        (("list",), "the following arguments are required: WHAT"),
    ],
)
def test_list_bad_input(argv: tuple[str, ...], message: str) -> None:
    code, _, stderr = run(*argv)
    assert code == 2
    assert message in stderr
