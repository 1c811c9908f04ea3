"""tabletop.maneuvers.batch.final_poses against tabletop.maneuvers.final_pose and the closed forms of rules.md.

The numpy path is ``tabletop.geom.poses.compose`` itself, over all rows at once; the
compiled kernels do the same arithmetic with the C library's sine and cosine. Each is
compared with the scalar path within ``AGREEMENT_MM`` (``tests/agreement.py``: numpy's
sines over an array may round otherwise than over one row), headings within as many
degrees, modulo 360. The closed forms below are
worked out here from rules.md, not taken from the maneuvers package.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from unittest import mock

import numpy as np
import pytest
from agreement import arrays_agree
from common import final_move_oracle
from hypothesis import given
from hypothesis import strategies as st

from tabletop.geom.batch import BACKEND_ENV, backend
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.rulesets import ArmadaRuleset, get_ruleset
from tabletop.maneuvers import final_pose
from tabletop.maneuvers.batch import final_poses

PATHS = ("aot", "numba", "numpy")
RULESETS = {name: get_ruleset(name) for name in ("xwing2", "xwing1", "armada")}

XWING_WORDS = [
    *(f"straight {s}" for s in range(1, 6)),
    *(f"koiogran {s}" for s in range(1, 6)),
    *(f"reverse straight {s}" for s in range(1, 6)),
    *(
        f"{b} {s} {d}"
        for b in ("bank", "turn", "segnor", "tallon")
        for s in (1, 2, 3)
        for d in ("left", "right")
    ),
    *(f"reverse bank {s} {d}" for s in (1, 2, 3) for d in ("left", "right")),
    "stationary",
    *(f"roll {d}{p}" for d in ("left", "right") for p in ("", " forward", " centre", " back")),
    "boost straight",
    "boost bank left",
    "boost bank right",
]
ARMADA_WORDS = [
    "speed 0",
    "speed 1",
    "speed 2 yaw 0 -1",
    "speed 3 yaw 1 0 -2",
    "speed 4 yaw 2 2 -1 0 side right",
    "speed 2 yaw -2 1 side left",
]


@contextlib.contextmanager
def path(name: str) -> Iterator[None]:
    """Select the compiled-ahead, the numba or the numpy path for the duration of the block.

    The numba path needs numba (the `fast` extra): without it the test skips.
    """
    if name == "numba":
        pytest.importorskip("numba")
    with mock.patch.dict(os.environ, {BACKEND_ENV: name}):
        assert backend() == name
        yield


def assert_same_poses(got: np.ndarray, expected: np.ndarray) -> None:
    assert arrays_agree(got[:, :2], expected[:, :2]), (got, expected)
    turn = (got[:, 2] - expected[:, 2] + 180.0) % 360.0 - 180.0
    assert arrays_agree(turn, np.zeros_like(turn)), (got, expected)
    assert np.all((got[:, 2] >= 0.0) & (got[:, 2] <= 360.0))


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, str, str, np.ndarray]:
    name = draw(st.sampled_from(sorted(RULESETS)))
    ruleset = RULESETS[name]
    base = draw(st.sampled_from(sorted(ruleset.base_sizes)))
    words = draw(
        st.sampled_from(ARMADA_WORDS if isinstance(ruleset, ArmadaRuleset) else XWING_WORDS)
    )
    coordinate = st.floats(min_value=-1000.0, max_value=1000.0, allow_nan=False)
    heading = st.one_of(
        st.floats(min_value=-720.0, max_value=720.0, allow_nan=False),
        st.sampled_from([0.0, 90.0, 180.0, 270.0, 360.0, -90.0]),
    )
    rows = draw(st.lists(st.tuples(coordinate, coordinate, heading), min_size=0, max_size=16))
    return name, base, words, np.array(rows, dtype=np.float64).reshape(-1, 3)


@pytest.mark.parametrize("name", PATHS)
@given(cases())
def test_final_poses_equal_final_pose(name: str, case: tuple[str, str, str, np.ndarray]) -> None:
    """Every maneuver word, every base: the same poses, or the same error."""
    ruleset_name, base, words, poses = case
    ruleset = RULESETS[ruleset_name]
    try:
        with path("numpy"):  # the reference: numpy's compose, as a one-row call takes
            expected = final_pose(poses, base, words, ruleset=ruleset)
    except InvalidInputError as error:
        message: str | None = str(error)
    else:
        message = None
    if message is not None:
        with path(name), pytest.raises(InvalidInputError, match=re.escape(message)):
            final_poses(poses, base, words, ruleset=ruleset_name)
        return
    with path(name):
        got = final_poses(poses, base, words, ruleset=ruleset)
    assert got.shape == poses.shape
    assert_same_poses(got, expected)
    # One pose at a time gives the same rows.
    for row, pose in zip(got, poses, strict=True):
        assert_same_poses(row[None], final_pose(pose, base, words, ruleset=ruleset)[None])


CLOSED_FORM_WORDS = [
    "straight 1",
    "straight 5",
    "bank 1 right",
    "bank 3 left",
    "turn 2 right",
    "turn 1 left",
    "koiogran 4",
    "segnor 2 left",
    "tallon 3 right",
    "reverse straight 2",
    "reverse bank 1 left",
    "reverse bank 3 right",
]


@pytest.mark.parametrize("name", PATHS)
@pytest.mark.parametrize("words", CLOSED_FORM_WORDS)
@pytest.mark.parametrize("base", ["small", "medium", "large"])
def test_closed_forms_of_rules_md(name: str, words: str, base: str) -> None:
    """Heading 90 (forward is +y, right is +x): the ship-frame move is the world move."""
    h = RULESETS["xwing2"].base_size(base)[1] / 2.0
    dx, dy, turn = final_move_oracle(words, h)
    with path(name):
        got = final_poses([[100.0, 200.0, 90.0]], base, words)[0]
    np.testing.assert_allclose(got[:2], [100.0 + dx, 200.0 + dy], atol=1e-9)
    assert abs((got[2] - (90.0 + turn) + 180.0) % 360.0 - 180.0) < 1e-9


@pytest.mark.parametrize("name", PATHS)
def test_actions_and_armada_courses_worked_out_by_hand(name: str) -> None:
    """rules.md: a small roll slides 80 sideways (offset ±10), boosts are 1-templates, and an
    Armada straight course moves 68.4 mm per speed."""
    start = [[100.0, 200.0, 90.0]]
    with path(name):
        roll = final_poses(start, "small", "roll left")[0]
        forward = final_poses(start, "small", "roll right forward")[0]
        boost = final_poses(start, "small", "boost straight")[0]
        bank = final_poses(start, "small", "boost bank left")[0]
        course = final_poses(start, "small", "speed 2", ruleset="armada")[0]
    np.testing.assert_allclose(roll, [20.0, 200.0, 90.0], atol=1e-9)
    np.testing.assert_allclose(forward, [180.0, 210.0, 90.0], atol=1e-9)
    np.testing.assert_allclose(boost, [100.0, 280.0, 90.0], atol=1e-9)
    dx, dy, _ = final_move_oracle("bank 1 left", 20.0)
    np.testing.assert_allclose(bank, [100.0 + dx, 200.0 + dy, 135.0], atol=1e-9)
    np.testing.assert_allclose(course, [100.0, 200.0 + 2 * 68.4, 90.0], atol=1e-9)


def test_bad_input() -> None:
    with pytest.raises(InvalidInputError, match="unknown word 'loop'"):
        final_poses([0.0, 0.0, 0.0], "small", "loop 2")
    with pytest.raises(InvalidInputError, match="unknown base 'tiny'"):
        final_poses([0.0, 0.0, 0.0], "tiny", "straight 1")
    with pytest.raises(InvalidInputError, match=r"shape \(N, 3\)"):
        final_poses([[0.0, 0.0]], "small", "straight 1")
    assert final_poses(np.empty((0, 3)), "small", "stationary").shape == (0, 3)
