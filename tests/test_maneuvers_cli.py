"""Maneuver words and ``tabletop move``: parsing, exit codes, and the JSON of cli.md."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from common import run
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.app.scene.scenefile import load_scene
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.rulesets import get_ruleset
from tabletop.maneuvers import (
    ArmadaCourse,
    BarrelRoll,
    Boost,
    XWingManeuver,
    execute,
    maneuver_name,
    parse_maneuver,
)

ROOT = Path(__file__).resolve().parent.parent
XWING_EXAMPLE = ROOT / "examples" / "xwing-tournament.toml"
ARMADA_EXAMPLE = ROOT / "examples" / "armada-standard.toml"
XW = get_ruleset("xwing2")


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ("straight 3", XWingManeuver("straight", 3)),
        ("bank 2 left", XWingManeuver("bank", 2, "left")),
        ("turn 1 right", XWingManeuver("turn", 1, "right")),
        ("koiogran 4", XWingManeuver("koiogran", 4)),
        ("segnor 2 left", XWingManeuver("segnor", 2, "left")),
        ("tallon 1 right", XWingManeuver("tallon", 1, "right")),
        ("reverse straight 1", XWingManeuver("straight", 1, None, True)),
        ("reverse bank 1 left", XWingManeuver("bank", 1, "left", True)),
        ("stationary", XWingManeuver("stationary", 0)),
        ("roll left", BarrelRoll("left")),
        ("roll right forward", BarrelRoll("right", "forward")),
        ("roll left center", BarrelRoll("left", "centre")),
        ("roll left back", BarrelRoll("left", "back")),
        ("boost bank left", Boost("bank", "left")),
        ("boost straight", Boost("straight")),
        ("  BANK   2  Left ", XWingManeuver("bank", 2, "left")),
    ],
)
def test_xwing_words(words: str, expected: object) -> None:
    assert parse_maneuver(words, XW) == expected


@pytest.mark.parametrize(
    ("words", "match"),
    [
        ("", "missing a maneuver"),
        ("bnak 2 left", r"unknown word 'bnak' \(did you mean 'bank'\?\)"),
        ("straight 6", r"the speed of straight 6 is out of range \(1 to 5\)"),
        ("bank 4 left", r"out of range \(1 to 3\)"),
        ("bank 2", "missing the direction of bank"),
        ("turn 1 up", "expected left or right for turn"),
        ("straight 2 left", "unexpected words at the end: 'left'"),
        ("reverse turn 1 left", "only straight and bank can be reversed"),
        ("roll left sideways", "expected forward, centre or back"),
        ("boost turn left", "expected straight or bank after boost"),
        ("straight two", "expected the speed of straight as a whole number"),
        ("speed 2", "unknown word 'speed'"),
    ],
)
def test_bad_xwing_words_list_what_is_accepted(words: str, match: str) -> None:
    with pytest.raises(InvalidInputError, match=match) as error:
        parse_maneuver(words, XW)
    assert "accepted for xwing2: straight 1-5, bank 1-3 left|right" in str(error.value)


MANEUVERS = st.one_of(
    st.builds(XWingManeuver, st.just("straight"), st.integers(1, 5), st.none(), st.booleans()),
    st.builds(
        XWingManeuver,
        st.just("bank"),
        st.integers(1, 3),
        st.sampled_from(["left", "right"]),
        st.booleans(),
    ),
    st.builds(
        XWingManeuver,
        st.sampled_from(["turn", "segnor", "tallon"]),
        st.integers(1, 3),
        st.sampled_from(["left", "right"]),
    ),
    st.builds(XWingManeuver, st.just("koiogran"), st.integers(1, 5)),
    st.builds(
        BarrelRoll,
        st.sampled_from(["left", "right"]),
        st.sampled_from([None, "forward", "centre", "back"]),
    ),
    st.builds(Boost, st.just("straight")),
    st.builds(Boost, st.just("bank"), st.sampled_from(["left", "right"])),
)


@settings(max_examples=80, deadline=None)
@given(MANEUVERS)
def test_name_and_parse_round_trip(maneuver: Any) -> None:
    assert parse_maneuver(maneuver_name(maneuver), XW) == maneuver


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 4).flatmap(
        lambda n: st.builds(
            ArmadaCourse,
            st.just(n),
            st.tuples(*[st.integers(-2, 2)] * n),
            st.sampled_from([None, "left", "right"]),
        )
    )
)
def test_armada_name_and_parse_round_trip(course: ArmadaCourse) -> None:
    assert parse_maneuver(maneuver_name(course), get_ruleset("armada")) == course


def test_move_json_matches_the_api_and_cli_md() -> None:
    code, out, err = run("move", XWING_EXAMPLE, "wedge", "bank", "2", "left", "--json")
    assert code == 0
    assert err == ""
    data = json.loads(out)
    assert data == execute(load_scene(XWING_EXAMPLE), "wedge", "bank 2 left").to_json()
    for field in ("ship", "maneuver", "start", "final", "complete", "bumped", "fled", "obstacles"):
        assert field in data
    assert data["ship"] == "wedge"
    assert data["maneuver"] == "bank 2 left"
    assert data["start"] == {"at": [300.0, 40.0], "heading": 90.0}
    # bank 2 left, small: (−52.218, 126.066) in the ship frame, heading +45°.
    assert data["final"]["at"] == pytest.approx([300.0 - 52.218, 40.0 + 126.066], abs=1e-3)
    assert data["final"]["heading"] == 135.0
    assert data["complete"] is True
    assert data["bumped"] is None
    assert data["fled"] is False


def test_one_argument_or_the_remaining_words() -> None:
    words = run("move", XWING_EXAMPLE, "wedge", "turn", "1", "right", "--json")
    single = run("move", XWING_EXAMPLE, "wedge", "turn 1 right", "--json")
    options_first = run("move", "--json", XWING_EXAMPLE, "wedge", "turn 1 right")
    assert words == single == options_first
    assert words[0] == 0


def test_negative_yaw_words_are_not_options() -> None:
    code, out, _ = run("move", ARMADA_EXAMPLE, "victory", "speed", "2", "yaw", "0", "-1", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["maneuver"] == "speed 2 yaw 0 -1"
    assert data["final"]["heading"] == pytest.approx(67.5)
    assert data["speed"] == 2
    assert data["side"] == "right"


def test_roll_json_has_legal_reason_and_positions() -> None:
    code, out, _ = run("move", XWING_EXAMPLE, "wedge", "roll", "left", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["legal"] is True
    assert data["reason"] is None
    assert [p["position"] for p in data["positions"]] == ["forward", "centre", "back"]


def test_human_report() -> None:
    code, out, _ = run("move", XWING_EXAMPLE, "wedge", "bank 2 left")
    assert code == 0
    assert out.splitlines()[0] == "wedge: bank 2 left"
    assert "  final:      (247.8, 166.1) heading 135.0°" in out
    assert "  obstacles:  none" in out


@pytest.mark.parametrize("json_flag", [False, True])
def test_bad_maneuver_words_exit_2_listing_what_is_accepted(json_flag: bool) -> None:
    flags = ["--json"] if json_flag else []
    code, out, err = run("move", XWING_EXAMPLE, "wedge", "bnak", "2", "left", *flags)
    assert code == 2
    assert "cannot read maneuver 'bnak 2 left'" in err
    assert "accepted for xwing2: straight 1-5, bank 1-3 left|right, turn 1-3 left|right" in err
    assert "roll left|right [forward|centre|back]" in err
    if json_flag:
        assert json.loads(out)["error"]["message"].startswith("cannot read maneuver 'bnak 2 left'")
    else:
        assert out == ""


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("nobody", "straight 1"), "no object with id 'nobody'"),
        (("rock-a", "straight 1"), "'rock-a' is an obstacle, not a ship"),
        (("wedge", "speed 2"), "accepted for xwing2"),
        (("wedge",), "the following arguments are required: maneuver"),
    ],
)
def test_other_bad_input_exits_2(argv: tuple[str, ...], message: str) -> None:
    code, out, err = run("move", XWING_EXAMPLE, *argv)
    assert code == 2
    assert out == ""
    assert message in err


def test_armada_words_on_an_armada_scene_exit_2_when_bad() -> None:
    code, _, err = run("move", ARMADA_EXAMPLE, "victory", "straight", "2")
    assert code == 2
    assert "accepted for armada: speed 0-4" in err


DOGFIGHT = ROOT / "examples" / "xwing-dogfight.toml"


def _query_where(scene: Path, ship: str, maneuver: str) -> object:
    import tomllib

    from tabletop.app.query.answers import answer

    data = tomllib.loads(scene.read_text(encoding="utf-8"))
    request = {"op": "move", "scene": data, "ship": ship, "maneuver": maneuver}
    reply = answer(json.dumps(request), 3)
    error = reply["error"]
    assert isinstance(error, dict)
    return error["where"]


@pytest.mark.parametrize(
    ("scene", "ship", "maneuver", "where", "error_type"),
    [
        # An obstacle given as the moving ship: the ship argument is at fault, not the words.
        (DOGFIGHT, "rock", "straight 5", "ship 'rock'", "UnknownObjectError"),
        (DOGFIGHT, "nobody", "straight 5", "ship 'nobody'", "UnknownObjectError"),
        (DOGFIGHT, "wedge", "bank 4 left", "maneuver 'bank 4 left'", "InvalidManeuverError"),
        (DOGFIGHT, "wedge", "speed 2", "maneuver 'speed 2'", "InvalidManeuverError"),
        (ARMADA_EXAMPLE, "tie-wing", "speed 1", "maneuver 'speed 1'", "IllegalManeuverError"),
    ],
)
def test_the_argument_at_fault_is_named_the_same_by_move_and_query(
    scene: Path, ship: str, maneuver: str, where: str, error_type: str
) -> None:
    code, out, err = run("move", str(scene), ship, *maneuver.split(), "--json")
    assert code == 2
    assert json.loads(out)["error"]["where"] == where
    assert err.startswith(f"tabletop move: error: {where}: ")
    assert _query_where(scene, ship, maneuver) == where
    with pytest.raises(InvalidInputError) as caught:
        execute(load_scene(scene), ship, maneuver)
    assert type(caught.value).__name__ == error_type
    assert caught.value.where == where
