"""Bumps: the ship stops at the last free position, however short the free gap before it.

The mover (small base, 40 × 40 with guides sticking out 1.6 mm at x = ±10 to ±13.6 in
front and behind) does a straight 4 from (400, 100) heading 90°: its centre runs
y = 100 + t over progress t from 0 to 200, ending at y = 300. Two ships face +x, so the
edges they turn to the mover are plain sides: ``b`` at (400, y_b) over the end, ``c`` at
(425, y_c) beside the path. Backing off from y = 300, the mover overlaps ``b`` while its
front guides (y + 21.6) are above b's lower side (y_b − 20), is free down to where its
rear guides (y − 21.6) reach c's upper side (y_c + 20), then overlaps ``c`` until its
front guides clear c's lower side. So the last free position is y = y_b − 41.6 when
y_b − y_c > 83.2 (a free gap of y_b − y_c − 83.2 mm), touching ``b``; with no gap it is
y = y_c − 41.6, touching ``c``. With y_b − 41.6 = 260.15 the gap (260.05, 260.15) for
0.1 mm lies between the points 260.0 and 260.25 of a 0.25 mm scan from the end.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.geom.areas import play_area
from tabletop.geom.objects import Ship
from tabletop.geom.rulesets import get_ruleset
from tabletop.maneuvers import execute
from tabletop.obstacles.scene import Scene

XWING = get_ruleset("xwing2")
Y_B = 260.15 + 41.6


def _move(gap: float) -> tuple[float, str | None]:
    y_c = Y_B - 83.2 - gap
    ships = (
        Ship("a", "small", 400.0, 100.0, 90.0),
        Ship("b", "small", 400.0, Y_B, 0.0),
        Ship("c", "small", 425.0, y_c, 0.0),
    )
    scene = Scene(XWING, play_area("3x3ft"), phase="play", obstacles=(), ships=ships)
    result = execute(scene, "a", "straight 4")
    assert result.final[0] == pytest.approx(400.0, abs=1e-9)
    assert result.final[2] == pytest.approx(90.0, abs=1e-9)
    assert result.complete is (result.bumped is None)
    return float(result.final[1]), result.bumped


def test_a_free_gap_of_a_tenth_of_a_millimetre_is_found() -> None:
    y, bumped = _move(0.1)
    assert bumped == "b"
    assert y == pytest.approx(260.15, abs=1e-6)


@pytest.mark.parametrize("gap", [1e-3, 0.01, 0.3, 5.0])
def test_short_and_long_gaps_are_found(gap: float) -> None:
    y, bumped = _move(gap)
    assert bumped == "b"
    assert y == pytest.approx(260.15, abs=1e-6)


def test_with_no_gap_the_ship_touches_both_and_stops_there() -> None:
    # At the line: rear guides on c's side and front guides on b's at the same time.
    y, bumped = _move(0.0)
    assert y == pytest.approx(260.15, abs=1e-6)
    assert bumped in ("b", "c")


def test_with_the_two_overlaps_meeting_the_ship_backs_off_past_c() -> None:
    # Just outside: the overlaps of b and c meet (by 0.1 mm), so the ship backs off
    # until its front guides clear c's lower side: y = y_c - 20 - 21.6.
    y, bumped = _move(-0.1)
    assert bumped == "c"
    assert y == pytest.approx((Y_B - 83.2 + 0.1) - 41.6, abs=1e-6)


@settings(max_examples=25, deadline=None)
@given(st.floats(min_value=1e-5, max_value=3.0))
def test_any_free_gap_is_found(gap: float) -> None:
    y, bumped = _move(gap)
    assert bumped == "b"
    assert y == pytest.approx(260.15, abs=1e-6)


@pytest.mark.parametrize("sliver", [1e-4, 0.003])
def test_a_base_sliding_along_a_sliver_of_overlap_backs_off_in_good_time(sliver: float) -> None:
    # The mover (body x 380 to 420) ends a straight 2 at y = 220 beside d, whose side
    # lies `sliver` mm inside x = 420 over y 220 to 260; it overlaps d until its front
    # edge comes down to d's rear edge at y = 220, i.e. its centre to y = 200. The
    # careful steps are as short as the sliver is thin, so the search scans on instead.
    ships = (
        Ship("a", "small", 400.0, 100.0, 90.0),
        Ship("d", "small", 440.0 - sliver, 240.0, 90.0),
    )
    scene = Scene(XWING, play_area("3x3ft"), phase="play", obstacles=(), ships=ships)
    result = execute(scene, "a", "straight 2")
    assert result.bumped == "d"
    assert result.final.tolist() == pytest.approx([400.0, 200.0, 90.0], abs=1e-6)
