"""Final headings are folded into [0, 360) on every path, also a hair below 0° or 360°.

``-1e-14 % 360`` is 360.0 in floating point (the exact 360 − 1e-14 rounds up), so a
heading that lands just below 0° or 360° must fold to 0.0, as ``tabletop.geom.poses.compose``
does. Checked for the compiled numba kernel and the numpy path, for rows
(:func:`tabletop.maneuvers.batch.final_poses`) and for a single pose, against the exact heading
worked out in rationals.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from fractions import Fraction
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.geom.batch import BACKEND_ENV, backend
from tabletop.maneuvers import final_pose
from tabletop.maneuvers.batch import final_poses

#: Maneuvers and the turn they make, degrees.
TURNS = {"straight 1": 0, "bank 1 left": 45, "bank 1 right": -45, "koiogran 1": 180}


@contextlib.contextmanager
def _path(name: str) -> Iterator[None]:
    if name == "numba":  # the numba path needs the `fast` extra: without it the test skips
        pytest.importorskip("numba")
    with mock.patch.dict(os.environ, {BACKEND_ENV: name}):
        assert backend() == name
        yield


def _exact(start: float, turn: int) -> Fraction:
    return (Fraction(start) + turn) % 360


def _assert_folded(got: float, start: float, turn: int) -> None:
    assert 0.0 <= got < 360.0
    exact = _exact(start, turn)
    # The float nearest the exact heading, with 360 itself read as 0.
    gap = abs(Fraction(got) - exact)
    assert min(gap, 360 - gap) <= Fraction(1, 10**12)


@pytest.mark.parametrize("name", ["aot", "numba", "numpy"])
def test_the_issue_row_is_0_on_every_path(name: str) -> None:
    with _path(name):
        rows = final_poses([[0.0, 0.0, -1e-14]], "small", "straight 1")
        assert rows[0, 2] == 0.0
        assert final_pose([0.0, 0.0, -1e-14], "small", "straight 1")[2] == 0.0


# Each path a parameter (not drawn), so that without numba the other two are still checked.
@pytest.mark.parametrize("name", ["aot", "numba", "numpy"])
@settings(max_examples=40, deadline=None)
@given(
    ulps=st.integers(min_value=1, max_value=8),
    line=st.sampled_from([0.0, 360.0]),
    words=st.sampled_from(sorted(TURNS)),
)
def test_headings_just_below_0_and_360_fold_into_range(
    ulps: int, line: float, words: str, name: str
) -> None:
    turn = TURNS[words]
    # A start heading a few units in the last place below one the maneuver carries to
    # the line exactly: it lands a hair below 0° or 360°.
    start = line - turn
    for _ in range(ulps):
        start = float(np.nextafter(start, -np.inf))
    with _path(name):
        rows = final_poses(np.array([[10.0, 20.0, start], [0.0, 0.0, start]]), "small", words)
        single = final_pose([10.0, 20.0, start], "small", words)
    for got in (*rows[:, 2].tolist(), float(single[2])):
        _assert_folded(got, start, turn)


@pytest.mark.parametrize("name", ["aot", "numba", "numpy"])
def test_the_largest_heading_below_360_stays_below_360(name: str) -> None:
    start = float(np.nextafter(360.0, 0.0))
    with _path(name):
        got = final_poses([[0.0, 0.0, start]], "small", "straight 1")[0, 2]
    assert got == start
