"""``tabletop query``: the measure_many request, and the scene cache."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from agreement import assert_agree
from test_query import DOGFIGHT, SCENE, ask, request

from tabletop.app.query import answers as cmd_query
from tabletop.app.scene.scenefile import load_scene, parse_scene
from tabletop.obstacles.measuring import measure

ROOT = Path(__file__).resolve().parent.parent
PAIRS: list[dict[str, Any]] = [
    {"from": "wedge", "to": "howl", "arc": "front"},
    {"from": "falcon", "to": "vader"},
    {"from": "howl", "to": "wedge"},
    {"from": "vader", "to": "falcon", "arc": "bullseye"},
    {"from": "rock", "to": "wedge"},
]


def test_each_answer_is_the_single_measure_answer_and_the_python_api() -> None:
    singles = ask(*(request(op="measure", **pair) for pair in PAIRS))
    (many,) = ask(request(op="measure_many", id="m", pairs=PAIRS))
    # Measured together, one at a time and by the API: three code paths, within the
    # agreement (tests/agreement.py).
    assert_agree(many, {"id": "m", "measurements": singles})
    scene = load_scene(DOGFIGHT)
    assert_agree(
        many["measurements"],
        [measure(scene, p["from"], p["to"], arc=p.get("arc")).to_json() for p in PAIRS],
    )
    # Worked by hand: the two small bases face each other 200 mm apart (range 2 line).
    assert (many["measurements"][0]["distance"], many["measurements"][0]["band"]) == (200.0, 2)


def test_the_command_answers_as_the_api() -> None:
    lines = request(op="measure_many", pairs=PAIRS) + "\n"
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "query"],
        input=lines,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert json.loads(done.stdout) == cmd_query.answer(lines)
    assert len(json.loads(done.stdout)["measurements"]) == len(PAIRS)


def test_no_pairs_answers_an_empty_list() -> None:
    assert ask(request(op="measure_many", pairs=[])) == [{"measurements": []}]


@pytest.mark.parametrize(
    ("pairs", "message", "where"),
    [
        (None, "missing required key", "request 1: key 'pairs'"),
        ("wedge", "expected a list of pairs", "request 1: key 'pairs'"),
        ([["wedge", "howl"]], "expected an object", "request 1: pairs[0]"),
        (
            [{"from": "wedge", "to": "howl", "note": 1}],
            "unknown key; a pair takes",
            "request 1: pairs[0]: key 'note'",
        ),
        (
            [{"from": "wedge", "to": "howl"}, {"from": "wedge"}],
            "missing required key",
            "request 1: pairs[1]: key 'to'",
        ),
        ([{"from": "wedge", "to": "nobody"}], "no object with id 'nobody'", "request 1: pairs[0]"),
        ([{"from": "wedge", "to": 7}], "expected a string", "request 1: pairs[0]: key 'to'"),
    ],
)
def test_a_bad_pair_is_an_error_naming_it(pairs: Any, message: str, where: str) -> None:
    fields: dict[str, Any] = {"op": "measure_many"}
    if pairs is not None:
        fields["pairs"] = pairs
    (answer,) = ask(request(**fields))
    assert message in answer["error"]["message"]
    assert answer["error"]["where"].startswith(where)


def test_a_scene_is_parsed_once_per_text(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []

    def counting(data: Any, where: str) -> Any:
        calls.append(data)
        return parse_scene(data, where)

    monkeypatch.setattr(cmd_query, "parse_scene", counting)
    monkeypatch.setattr(cmd_query, "plain_scene", lambda data: None)  # every scene counted
    monkeypatch.setattr(cmd_query, "_SCENES", type(cmd_query._SCENES)())
    other = {**SCENE, "ships": SCENE["ships"][:2]}
    lines = [
        request(op="measure", **PAIRS[0]),
        json.dumps({"op": "measure", "scene": other, "from": "wedge", "to": "howl"}),
        request(op="measure_many", pairs=PAIRS),
        request(op="check"),
    ]
    answers = ask(*lines)
    assert len(calls) == 2  # two distinct scene texts
    assert "error" not in answers[1]
    assert_agree(answers[2]["measurements"][0], answers[0])


def test_the_cache_keeps_the_most_recently_used_scenes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cmd_query, "_SCENE_CACHE_SIZE", 2)
    monkeypatch.setattr(cmd_query, "_SCENES", type(cmd_query._SCENES)())
    scenes = [{"ships": [{"id": f"s{k}", "base": "small", "at": [100, 100]}]} for k in range(3)]
    cmd_query._scene(scenes[0], "r")
    cmd_query._scene(scenes[1], "r")
    first = cmd_query._scene(scenes[0], "r")  # used again: now the most recent
    cmd_query._scene(scenes[2], "r")  # evicts scenes[1], the least recently used
    assert cmd_query._scene(scenes[0], "r") is first
    assert list(cmd_query._SCENES) == [cmd_query._scene_key(s) for s in (scenes[2], scenes[0])]
