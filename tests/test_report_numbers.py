"""Human reports never print a contested number as its line, nor a move as zero (issue 14.9).

Worked by hand: a face-to-face pair of small ships 100 mm + e apart (bases 40 mm, centres
140 mm + e apart) is e beyond the range-1 line; the report must show e, whatever its size
down to the one tolerance (1e-6 mm), and the distance must not read as ``100.0``.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from common import run, scene_file
from hypothesis import given
from hypothesis import strategies as st

from tabletop.geom.mmtext import MOST_DECIMALS, mm_pair_text, mm_text


def _pair(tmp_path: Path, gap: float) -> str:
    return scene_file(
        tmp_path,
        f"""
        ruleset = "xwing2"
        area = "3x3ft"
        [[ships]]
        id = "a"
        base = "small"
        at = [100.0, 100.0]
        heading = 90.0
        [[ships]]
        id = "b"
        base = "small"
        at = [100.0, {140.0 + gap!r}]
        heading = 270.0
        """,
    )


@pytest.mark.parametrize(
    ("gap", "distance", "margin", "side"),
    [
        (100.00004, "100.00004", "0.00004", "beyond"),  # just outside range 1
        (99.99996, "99.99996", "0.00004", "inside"),  # just inside
        (100.0, "100.0", "0.0", "inside"),  # on the line: range 1
        (100.04, "100.04", "0.04", "beyond"),
        (99.96, "99.96", "0.04", "inside"),
        (123.46, "123.5", "23.5", "beyond"),  # far from a line: the usual 0.1 mm
    ],
)
def test_measure_prints_enough_decimals(
    tmp_path: Path, gap: float, distance: str, margin: str, side: str
) -> None:
    code, out, err = run("measure", _pair(tmp_path, gap), "a", "b")
    assert (code, err) == (0, "")
    assert f"  distance:   {distance} mm\n" in out
    assert f"  margin:     {margin} mm {side} the 100.0 mm line\n" in out


def test_report_prints_enough_decimals(tmp_path: Path) -> None:
    code, out, _ = run("report", _pair(tmp_path, 100.00004))
    assert code == 0
    row = out.splitlines()[-1].split()
    assert row[:3] == ["a", "b", "100.00004"]
    assert row[-3:] == ["100.0", "-0.00004", "YES"]
    assert "-0.0 " not in out


@pytest.mark.parametrize(
    ("value", "line", "text"),
    [
        (100.0000011, 100.0, "100.000001"),  # just past the tolerance: shown
        (100.000001, 100.0, "100.0"),  # at the tolerance: on the line
        (100.0000009, 100.0, "100.0"),  # within it: on the line
        (0.0000011, None, "0.000001"),
        (0.0000009, None, "0.0"),
        (-0.0000009, None, "0.0"),
    ],
)
def test_mm_text_at_the_tolerance_and_either_side(
    value: float, line: float | None, text: str
) -> None:
    assert mm_text(value, line=line) == text


def test_a_fix_of_a_thousandth_never_reads_as_zero() -> None:
    assert mm_pair_text(0.0, -0.0014) == "(+0.00, -0.001)"
    assert mm_pair_text(0.0000012, 0.0) == "(+0.000001, +0.00)"
    assert "-0.0" not in mm_text(-0.0, signed=True)


@given(
    st.floats(min_value=-2000.0, max_value=2000.0, allow_nan=False),
    st.sampled_from([0.0, 100.0, 200.0, 300.0, 76.5, 304.8]),
)
def test_mm_text_keeps_a_number_off_its_line_and_on_its_side(value: float, line: float) -> None:
    shown = float(mm_text(value, line=line))
    if abs(value - line) > 1e-6:
        assert shown != line
        assert math.copysign(1.0, shown - line) == math.copysign(1.0, value - line)
    if abs(value) > 1e-6:
        assert shown != 0.0
    assert abs(shown - value) <= 0.05 + 1e-12
    decimals = mm_text(value, line=line).partition(".")[2]
    assert 1 <= len(decimals) <= MOST_DECIMALS
