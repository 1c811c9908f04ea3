"""Final poses of every maneuver family, checked against the rules.md formulas.

The expected poses are computed here from the formulas of ``rules.md`` (Final poses,
Barrel roll, Maneuver tool), independently of ``maneuvers``; the reference table in
``tests/data/maneuvers`` carries values quoted from other implementations.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from common import final_move_oracle

from tabletop.geom.errors import InvalidInputError
from tabletop.geom.rulesets import get_ruleset
from tabletop.maneuvers import final_pose, local_move, parse_maneuver

DATA = Path(__file__).parent / "data" / "maneuvers"
HALF = {"small": 20.0, "medium": 30.0, "large": 40.0, "huge": 112.5, "huge-short": 97.5}
HEADINGS = (0.0, 90.0, 210.0)
START_AT = (400.0, 350.0)


def to_world(move: tuple[float, float, float], heading: float) -> tuple[float, float, float]:
    """Apply a ship-frame move to a ship at START_AT facing `heading` (+x right, +y forward)."""
    dx, dy, turn = move
    t = math.radians(heading)
    x = START_AT[0] + dx * math.sin(t) + dy * math.cos(t)
    y = START_AT[1] - dx * math.cos(t) + dy * math.sin(t)
    return x, y, (heading + turn) % 360.0


def assert_pose(actual: Any, expected: tuple[float, float, float]) -> None:
    assert actual[0] == pytest.approx(expected[0], abs=0.01)
    assert actual[1] == pytest.approx(expected[1], abs=0.01)
    turn = (float(actual[2]) - expected[2] + 180.0) % 360.0 - 180.0
    assert abs(turn) <= 0.01


def _words() -> list[tuple[str, str]]:
    """Every maneuver word of every family, speed and direction, with the bases it applies to."""
    rows = []
    for bearing, top in (
        ("straight", 5),
        ("bank", 3),
        ("turn", 3),
        ("koiogran", 5),
        ("segnor", 3),
        ("tallon", 3),
    ):
        for speed in range(1, top + 1):
            directions = [""] if bearing in ("straight", "koiogran") else [" left", " right"]
            rows += [(f"{bearing} {speed}{d}", bearing) for d in directions]
    rows += [(f"reverse straight {s}", "reverse") for s in range(1, 6)]
    rows += [(f"reverse bank {s} {d}", "reverse") for s in range(1, 4) for d in ("left", "right")]
    return rows


XWING_WORDS = _words()


@pytest.mark.parametrize("heading", HEADINGS)
@pytest.mark.parametrize("base", ["small", "medium", "large"])
@pytest.mark.parametrize(("words", "family"), XWING_WORDS, ids=[w for w, _ in XWING_WORDS])
def test_xwing_final_pose_matches_formula(
    words: str, family: str, base: str, heading: float
) -> None:
    xw = get_ruleset("xwing2")
    expected = to_world(final_move_oracle(words, HALF[base]), heading)
    assert_pose(final_pose([*START_AT, heading], base, words, ruleset=xw), expected)


@pytest.mark.parametrize("heading", HEADINGS)
@pytest.mark.parametrize("base", ["huge", "huge-short"])
@pytest.mark.parametrize(
    "words",
    [f"straight {s}" for s in range(1, 6)]
    + [f"bank {s} {d}" for s in (1, 2, 3) for d in ("left", "right")],
)
def test_huge_final_pose_matches_formula(words: str, base: str, heading: float) -> None:
    xw = get_ruleset("xwing2")
    expected = to_world(final_move_oracle(words, HALF[base]), heading)
    assert_pose(final_pose([*START_AT, heading], base, words, ruleset=xw), expected)


@pytest.mark.parametrize(
    "words", ["turn 1 left", "koiogran 2", "reverse straight 1", "roll left", "boost straight"]
)
def test_huge_ships_reject_what_they_cannot_fly(words: str) -> None:
    with pytest.raises(InvalidInputError, match="huge ships fly straight"):
        final_pose([*START_AT, 90.0], "huge", words, ruleset=get_ruleset("xwing2"))


@pytest.mark.parametrize("heading", HEADINGS)
@pytest.mark.parametrize("base", ["small", "medium", "large"])
def test_stationary_does_not_move(base: str, heading: float) -> None:
    assert_pose(
        final_pose([*START_AT, heading], base, "stationary", ruleset=get_ruleset("xwing2")),
        (*START_AT, heading),
    )


# rules.md, Barrel roll: (sideways shift, forward offset of the forward position).
ROLLS = {
    ("xwing2", "small"): (80.0, 10.0),
    ("xwing2", "medium"): (80.0, 20.0),
    ("xwing2", "large"): (100.0, 20.0),
    ("xwing1", "small"): (80.0, 20.0),
    ("xwing1", "large"): (100.0, 40.0),
}


@pytest.mark.parametrize("heading", HEADINGS)
@pytest.mark.parametrize("position", ["forward", "centre", "back", None])
@pytest.mark.parametrize("direction", ["left", "right"])
@pytest.mark.parametrize(("ruleset", "base"), list(ROLLS))
def test_roll_final_pose(
    ruleset: str, base: str, direction: str, position: str | None, heading: float
) -> None:
    lateral, reach = ROLLS[ruleset, base]
    offset = {"forward": reach, "centre": 0.0, "back": -reach, None: 0.0}[position]
    dx = -lateral if direction == "left" else lateral
    words = f"roll {direction}" + (f" {position}" if position else "")
    expected = to_world((dx, offset, 0.0), heading)
    assert_pose(
        final_pose([*START_AT, heading], base, words, ruleset=get_ruleset(ruleset)), expected
    )


@pytest.mark.parametrize("heading", HEADINGS)
@pytest.mark.parametrize("base", ["small", "medium", "large"])
@pytest.mark.parametrize(
    ("words", "same_as"),
    [
        ("boost straight", "straight 1"),
        ("boost bank left", "bank 1 left"),
        ("boost bank right", "bank 1 right"),
    ],
)
def test_boost_is_the_one_template(words: str, same_as: str, base: str, heading: float) -> None:
    expected = to_world(final_move_oracle(same_as, HALF[base]), heading)
    assert_pose(
        final_pose([*START_AT, heading], base, words, ruleset=get_ruleset("xwing2")), expected
    )


@pytest.mark.parametrize("heading", HEADINGS)
@pytest.mark.parametrize("speed", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("base", ["small", "medium", "large", "huge"])
def test_armada_straight_advances_68_4_per_speed(base: str, speed: int, heading: float) -> None:
    words = f"speed {speed}" + (" yaw" + " 0" * speed if speed else "")
    expected = to_world((0.0, 68.4 * speed, 0.0), heading)
    assert_pose(
        final_pose([*START_AT, heading], base, words, ruleset=get_ruleset("armada")), expected
    )


@pytest.mark.parametrize("heading", HEADINGS)
@pytest.mark.parametrize(
    "yaws", [(1,), (-2,), (0, 1), (2, -1), (-1, -1, -1), (2, 2, 2, 2), (0, 0, 0, -2)]
)
def test_armada_heading_changes_22_5_per_click(yaws: tuple[int, ...], heading: float) -> None:
    words = f"speed {len(yaws)} yaw " + " ".join(map(str, yaws))
    pose = final_pose([*START_AT, heading], "medium", words, ruleset=get_ruleset("armada"))
    turn = (float(pose[2]) - heading - 22.5 * sum(yaws) + 180.0) % 360.0 - 180.0
    assert abs(turn) <= 0.01


def walk_tool(
    yaws: tuple[int, ...], width: float, length: float, side: str
) -> tuple[float, float, float]:
    """rules.md Maneuver tool, walked by hand: the ship keeps its pose relative to the guides."""
    gx = (width / 2 + 7.625) * (1 if side == "right" else -1)
    gy = length / 2
    x, y, a = gx, gy, 0.0  # a: counter-clockwise turn of the tool, degrees
    for clicks in yaws:
        x, y = x - 46.13 * math.sin(math.radians(a)), y + 46.13 * math.cos(math.radians(a))
        a += 22.5 * clicks
        x, y = x - 22.27 * math.sin(math.radians(a)), y + 22.27 * math.cos(math.radians(a))
    c, s = math.cos(math.radians(a)), math.sin(math.radians(a))
    return x + c * -gx - s * -gy, y + s * -gx + c * -gy, a


@pytest.mark.parametrize("heading", HEADINGS)
@pytest.mark.parametrize(
    ("yaws", "side"),
    [((-1,), "right"), ((1,), "left"), ((0, -1, -1), "right"), ((2, 1), "left"), ((0, 1), "right")],
)
@pytest.mark.parametrize("base", ["small", "medium", "large"])
def test_armada_yawed_final_pose(
    base: str, yaws: tuple[int, ...], side: str, heading: float
) -> None:
    width, length = get_ruleset("armada").base_size(base)
    expected = to_world(walk_tool(yaws, width, length, side), heading)
    words = f"speed {len(yaws)} yaw {' '.join(map(str, yaws))} side {side}"
    assert_pose(
        final_pose([*START_AT, heading], base, words, ruleset=get_ruleset("armada")), expected
    )


def test_final_pose_is_array_first() -> None:
    xw = get_ruleset("xwing2")
    starts = np.array([[*START_AT, h] for h in HEADINGS])
    poses = final_pose(starts, "large", "bank 2 right", ruleset=xw)
    assert poses.shape == (3, 3)
    for row, heading in zip(poses, HEADINGS, strict=True):
        assert_pose(row, to_world(final_move_oracle("bank 2 right", 40.0), heading))
    assert final_pose(np.empty((0, 3)), "small", "turn 1 left", ruleset=xw).shape == (0, 3)


def test_final_pose_rejects_an_unknown_base() -> None:
    with pytest.raises(InvalidInputError, match="expected one of: small, medium"):
        final_pose([0.0, 0.0, 90.0], "tiny", "straight 1", ruleset=get_ruleset("xwing2"))


def test_reference_table() -> None:
    table = json.loads((DATA / "xwing-final-poses.json").read_text())
    failures = []
    for row in table["rows"]:
        ruleset = get_ruleset(row["ruleset"])
        move = local_move(parse_maneuver(row["maneuver"], ruleset), row["base"], ruleset)
        pose = final_pose([0.0, 0.0, 90.0], row["base"], row["maneuver"], ruleset=ruleset)
        got = [float(pose[0]), float(pose[1]), (float(pose[2]) - 90.0 + 180.0) % 360.0 - 180.0]
        if not np.allclose(got, row["expect"], atol=1e-3) or not np.allclose(
            move[:2], got[:2], atol=1e-9
        ):
            failures.append(
                f"{row['ruleset']} {row['base']} {row['maneuver']}: expected {row['expect']} ({row['source']}), got {got}"
            )
    assert not failures, "\n".join(failures)
