"""``tabletop query``: JSON lines in, one answer a line out, in order, never stopping."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from agreement import assert_agree

from tabletop.app.cli import main
from tabletop.app.query.answers import answer, serve
from tabletop.app.scene.scenefile import load_scene
from tabletop.obstacles.legality import check
from tabletop.obstacles.measuring import measure

ROOT = Path(__file__).resolve().parent.parent
DOGFIGHT = ROOT / "examples" / "xwing-dogfight.toml"
SCENE: dict[str, Any] = tomllib.loads(DOGFIGHT.read_text(encoding="utf-8"))


def ask(*requests: str) -> list[dict[str, Any]]:
    out = io.StringIO()
    serve([line + "\n" for line in requests], out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def request(**fields: Any) -> str:
    return json.dumps({"scene": SCENE, **fields})


def test_answers_equal_the_python_api_in_request_order() -> None:
    scene = load_scene(DOGFIGHT)
    answers = ask(
        request(op="measure", **{"from": "wedge", "to": "howl", "arc": "front"}),
        request(op="check"),
        request(op="measure", **{"from": "falcon", "to": "vader"}),
    )
    # The oracle measures by its own direct paths: within the agreement (tests/agreement.py).
    assert_agree(answers[0], measure(scene, "wedge", "howl", arc="front").to_json())
    assert_agree(answers[1], check(scene).to_json())
    assert_agree(answers[2], measure(scene, "falcon", "vader").to_json())
    # Worked by hand: the two small bases face each other 200 mm apart, on the range 2 line.
    assert (answers[0]["distance"], answers[0]["band"], answers[0]["contested"]) == (
        200.0,
        2,
        True,
    )


def test_the_answer_equals_the_command_line_json() -> None:
    out = io.StringIO()
    assert main(["measure", str(DOGFIGHT), "wedge", "howl", "--arc", "front", "--json"], out) == 0
    (answered,) = ask(request(op="measure", **{"from": "wedge", "to": "howl", "arc": "front"}))
    assert answered == json.loads(out.getvalue())


def test_a_move_request() -> None:
    (moved,) = ask(request(op="move", ship="wedge", maneuver="straight 5"))
    # wedge (y 330) runs 240 mm into howl (y 570): its front guides stop on howl's front
    # guides, 40 + 1.6 + 1.6 + 40 = 83.2 mm between the centres: y = 570 - 43.2 = 526.8.
    assert moved["final"]["at"] == [300.0, pytest.approx(526.8, abs=0.05)]
    assert (moved["complete"], moved["bumped"]) == (False, "howl")


@pytest.mark.parametrize(
    ("line", "message", "where"),
    [
        ("not json", "not valid JSON", "request 1"),
        ("", "an empty line", "request 1"),
        ("   ", "an empty line", "request 1"),
        ("[1, 2]", "expected a JSON object", "request 1"),
        ('{"op": "dance", "scene": {}}', "unknown op 'dance'", "request 1: key 'op'"),
        ('{"op": "check"}', "missing required key", "request 1: key 'scene'"),
        ('{"op": "check", "scene": {}, "extra": 1}', "unknown key", "request 1: key 'extra'"),
        (
            '{"op": "measure", "scene": {}, "from": "a"}',
            "missing required key",
            "request 1: key 'to'",
        ),
        (
            '{"op": "check", "scene": {"ruleset": "xwing2", "ruleset": "armada"}}',
            "duplicate key",
            "request 1",
        ),
        (
            '{"op": "check", "scene": {"ruleset": "chess"}}',
            "'xwing2'",
            "request 1 scene: key 'ruleset'",
        ),
        (
            '{"op": "move", "scene": {}, "ship": "a", "maneuver": ["bank"]}',
            "expected a string",
            "request 1: key 'maneuver'",
        ),
    ],
)
def test_a_bad_line_answers_an_error_on_its_line(line: str, message: str, where: str) -> None:
    (bad,) = ask(line)
    assert set(bad) == {"error"}
    assert message in bad["error"]["message"]
    assert bad["error"]["where"] == where


def test_the_stream_goes_on_after_bad_lines_one_answer_a_line() -> None:
    lines = [request(op="check"), "garbage", "", request(op="check"), '{"op": 1}']
    answers = ask(*lines)
    assert len(answers) == len(lines)
    assert [("error" in a) for a in answers] == [False, True, True, False, True]
    assert answers[4]["error"]["where"] == "request 5: key 'op'"


def test_an_internal_error_is_answered_and_the_stream_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import tabletop.app.query.answers as query

    def broken(*args: Any) -> dict[str, Any]:
        raise ZeroDivisionError("boom")

    monkeypatch.setitem(query.OPS, "check", (broken, ()))
    first, second = ask(request(op="check"), request(op="measure", **{"from": "a", "to": "b"}))
    assert first["error"]["message"] == "internal error: ZeroDivisionError: boom"
    assert "no object with id 'a'" in second["error"]["message"]


def test_answer_of_one_line() -> None:
    assert answer("{}", 7) == {
        "error": {
            "message": "unknown op None; expected one of: check, measure, move, measure_many",
            "where": "request 7: key 'op'",
        }
    }


def test_through_a_pipe_exit_code_zero() -> None:
    lines = request(op="check") + "\nnot json\n"
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "query"],
        input=lines,
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert answers[0]["legal"] is True
    assert "error" in answers[1]
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_readme_node_example_runs() -> None:
    # the command of the interpreter running the suite (.venv's, or make test-latest's)
    tabletop = Path(sys.executable).parent / "tabletop"
    if not tabletop.exists():
        pytest.fail(f"run `make demo` (or `make test`) first: {tabletop} is missing")
    done = subprocess.run(
        ["node", "examples/oracle.mjs"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        env={**os.environ, "TABLETOP": str(tabletop)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "measure wedge -> howl: 260 mm, range 3, obstructed true by [rock]",
        "check: legal true, 0 violation(s)",
        "measure: error: no object with id 'nobody'; the scene has: rock, wedge, howl",
    ]
