"""``tabletop.geom.batch.distance_band``: the fused call answers what ``band(distance(...))`` answers.

The bands are worked out by hand at each line, 5e-7 mm inside (within the tolerance:
on the line) and 2e-6 mm outside; the property test compares the fused call with the
two calls on random and on-the-line pairs of every ruleset and kind, on every path: the
distances within ``AGREEMENT_MM`` (``tests/agreement.py``: the fused kernel is not the
distance kernel), the bands exactly, but for distances within that agreement of a line's
decision points.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from agreement import arrays_agree, off_the_lines
from hypothesis import given
from test_batch_geom import PATHS, path, pose_pairs

from tabletop.geom import batch
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.rulesets import Ruleset, XWingRuleset


def nose_to_tail(gaps: list[float], heading: float) -> tuple[np.ndarray, np.ndarray]:
    """A small base and a large base one behind the other, `gaps` mm apart (exact trigonometry)."""
    t = math.radians(heading)
    step = np.array([round(math.cos(t)), round(math.sin(t))], dtype=np.float64)
    along = 20.0 + 40.0 + np.asarray(gaps)
    a = np.tile([100.0, 100.0, heading], (len(gaps), 1))
    b = np.column_stack(
        [100.0 + step[0] * along, 100.0 + step[1] * along, np.full(len(gaps), heading)]
    )
    return a, b


@pytest.mark.parametrize("name", PATHS)
@pytest.mark.parametrize("heading", [0.0, 90.0, 180.0, 270.0])
def test_bands_at_each_line_inside_and_outside(name: str, heading: float) -> None:
    # xwing2: 0 touching; range k up to k x 100 mm; a distance on a line (within 1e-6 mm)
    # is the shorter band; beyond 500 mm is -1.
    gaps = [0.0, 5e-7, 2e-6, 100.0, 100.0 + 5e-7, 100.0 + 2e-6, 300.0, 500.0, 500.0 + 2e-6]
    expected = [0, 0, 1, 1, 1, 2, 3, 5, -1]
    a, b = nose_to_tail(gaps, heading)
    with path(name):
        d, k = batch.distance_band(a, "small", b, "large")
    np.testing.assert_allclose(d, gaps, rtol=0.0, atol=1e-9)
    assert k.tolist() == expected
    assert k.dtype == np.int64


@pytest.mark.parametrize("name", PATHS)
def test_first_edition_has_no_range_zero_and_armada_kinds(name: str) -> None:
    a, b = nose_to_tail([0.0, 100.0, 100.0 + 2e-6], 90.0)
    with path(name):
        assert batch.distance_band(a, "small", b, "large", ruleset="xwing1")[1].tolist() == [
            1,
            1,
            2,
        ]
        # Armada squadrons, centres 31 + gap apart: distance 1 ends at 76.5 mm, close range
        # (range 1) at 123.5 mm.
        gaps = np.array([76.5, 76.5 + 2e-6, 123.5 + 2e-6])
        sq = np.zeros((3, 3))
        other = np.column_stack([31.0 + gaps, np.zeros(3), np.zeros(3)])
        d, k = batch.distance_band(
            sq, "squadron", other, "squadron", ruleset="armada", kind="distance"
        )
        np.testing.assert_allclose(d, gaps, atol=1e-9)
        assert k.tolist() == [1, 2, 2]
        assert batch.distance_band(sq, "squadron", other, "squadron", ruleset="armada")[
            1
        ].tolist() == [1, 1, 2]


@pytest.mark.parametrize("name", PATHS)
@given(pose_pairs())
def test_the_fused_call_equals_the_two_calls(
    name: str, case: tuple[Ruleset, str, str, np.ndarray, np.ndarray]
) -> None:
    ruleset, a_base, b_base, a, b = case
    kinds = ("range",) if isinstance(ruleset, XWingRuleset) else ("distance", "range")
    with path(name):
        for kind in kinds:
            d, k = batch.distance_band(a, a_base, b, b_base, ruleset=ruleset, kind=kind)  # type: ignore[arg-type]
            alone = batch.distance(a, a_base, b, b_base, ruleset=ruleset)
            assert arrays_agree(d, alone)
            lines = (0.0, *ruleset.band_lines_of(kind))  # type: ignore[arg-type]
            off = off_the_lines(alone, lines)
            banded = batch.band(alone, ruleset=ruleset, kind=kind)  # type: ignore[arg-type]
            assert np.array_equal(k[off], banded[off])


def test_empty_input_and_bad_kind() -> None:
    d, k = batch.distance_band(np.empty((0, 3)), "small", np.empty((0, 3)), "large")
    assert d.shape == k.shape == (0,)
    with pytest.raises(InvalidInputError, match="unknown band kind 'distance'"):
        batch.distance_band([0.0, 0.0, 0.0], "small", [0.0, 0.0, 0.0], "small", kind="distance")
