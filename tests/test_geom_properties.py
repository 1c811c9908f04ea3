"""Properties of the distance kernel, checked with hypothesis.

Distance is symmetric and unchanged by moving the whole scene (rotation and
translation); bands never go down as the distance grows; the closest points lie on the
outlines (on the circle for a squadron) and are the distance apart. Where two
computations give the same length (either way round, the kernel and shapely, the points'
distance and the measure) they agree within ``AGREEMENT_MM`` (``tests/agreement.py``).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from agreement import AGREEMENT_MM
from hypothesis import assume, given
from hypothesis import strategies as st

from tabletop.geom.measure import closest_points, geometry_distance, line_band, line_bands, overlaps
from tabletop.geom.objects import Ship
from tabletop.geom.rulesets import Ruleset, XWingRuleset, get_ruleset

RULESETS = {name: get_ruleset(name) for name in ("xwing2", "xwing1", "armada")}

coordinates = st.floats(min_value=-400.0, max_value=400.0, allow_nan=False, allow_infinity=False)
headings = st.floats(min_value=0.0, max_value=360.0, allow_nan=False, allow_infinity=False)


@st.composite
def ship_pairs(draw: st.DrawFn) -> tuple[Ruleset, Ship, Ship]:
    """A ruleset and two ships of it anywhere near the origin, at any headings."""
    ruleset = RULESETS[draw(st.sampled_from(sorted(RULESETS)))]
    bases = sorted(ruleset.base_sizes)
    ships = [
        Ship(
            name,
            draw(st.sampled_from(bases)),
            draw(coordinates),
            draw(coordinates),
            draw(headings),
        )
        for name in ("a", "b")
    ]
    return ruleset, ships[0], ships[1]


def measured(ruleset: Ruleset, a: Ship, b: Ship) -> tuple[float, np.ndarray]:
    (ga, ra), (gb, rb) = a.measured_shape(ruleset), b.measured_shape(ruleset)
    d, points = closest_points(ga, gb, ra, rb)
    return float(d), points


def moved(ship: Ship, spin: float, shift: tuple[float, float]) -> Ship:
    """The ship after the whole scene is turned `spin` degrees about the origin and shifted."""
    t = math.radians(spin)
    x = ship.x * math.cos(t) - ship.y * math.sin(t) + shift[0]
    y = ship.x * math.sin(t) + ship.y * math.cos(t) + shift[1]
    return ship.moved(x, y, ship.heading + spin)


@given(ship_pairs())
def test_distance_is_symmetric(pair: tuple[Ruleset, Ship, Ship]) -> None:
    ruleset, a, b = pair
    forth, _ = measured(ruleset, a, b)
    back, _ = measured(ruleset, b, a)
    assert forth >= 0.0
    assert forth == pytest.approx(back, abs=AGREEMENT_MM)
    (ga, ra), (gb, rb) = a.measured_shape(ruleset), b.measured_shape(ruleset)
    assert float(geometry_distance(ga, gb, ra, rb)) == pytest.approx(forth, abs=AGREEMENT_MM)
    assert bool(overlaps(ga, gb, ra, rb)) == bool(overlaps(gb, ga, rb, ra))


@given(
    ship_pairs(),
    headings,
    st.tuples(
        st.floats(min_value=-1000.0, max_value=1000.0, allow_nan=False),
        st.floats(min_value=-1000.0, max_value=1000.0, allow_nan=False),
    ),
)
def test_distance_is_invariant_under_moving_the_whole_scene(
    pair: tuple[Ruleset, Ship, Ship], spin: float, shift: tuple[float, float]
) -> None:
    ruleset, a, b = pair
    before, _ = measured(ruleset, a, b)
    after, points = measured(ruleset, moved(a, spin, shift), moved(b, spin, shift))
    assert after == pytest.approx(before, abs=1e-6)
    assert float(np.linalg.norm(points[1] - points[0])) == pytest.approx(after, abs=1e-6)


@given(
    st.sampled_from(sorted(RULESETS)),
    st.floats(min_value=0.0, max_value=700.0, allow_nan=False),
    st.floats(min_value=0.0, max_value=700.0, allow_nan=False),
)
def test_band_is_monotone_in_distance(name: str, d1: float, d2: float) -> None:
    ruleset = RULESETS[name]
    near, far = sorted((d1, d2))
    if isinstance(ruleset, XWingRuleset):
        line_sets = [ruleset.xwing_range_bands]
    else:
        line_sets = [ruleset.armada_distance_bands, ruleset.armada_range_bands]
    for lines in line_sets:
        beyond = len(lines) + 1

        def rank(d: float, lines: tuple[float, ...] = lines, beyond: int = beyond) -> int:
            value = line_band(d, lines, zero_band=ruleset.range_zero)
            return beyond if value is None else value

        assert rank(near) <= rank(far)
        assert 0 <= rank(near) <= beyond
        # The array form agrees with the scalar one (-1 beyond the last line).
        got = line_bands([near, far], lines, zero_band=ruleset.range_zero).tolist()
        assert [beyond if g == -1 else g for g in got] == [rank(near), rank(far)]


def _on_outline(point: np.ndarray, ship: Ship, ruleset: Ruleset) -> float:
    """How far `point` is from the ship's measured outline (its circle for a squadron)."""
    geometry, radius = ship.measured_shape(ruleset)
    if radius > 0.0:
        return abs(math.dist(point, (ship.x, ship.y)) - radius)
    return float(shapely.distance(shapely.Point(point), geometry.exterior))


@given(ship_pairs())
def test_closest_points_lie_on_the_outlines_and_are_the_distance_apart(
    pair: tuple[Ruleset, Ship, Ship],
) -> None:
    ruleset, a, b = pair
    d, points = measured(ruleset, a, b)
    assume(d > 1e-3)  # apart: for overlapping outlines the points are one shared point
    assert points.shape == (2, 2)
    assert _on_outline(points[0], a, ruleset) == pytest.approx(0.0, abs=1e-6)
    assert _on_outline(points[1], b, ruleset) == pytest.approx(0.0, abs=1e-6)
    assert math.dist(points[0], points[1]) == pytest.approx(d, abs=AGREEMENT_MM)
    # Nothing of either outline is nearer than the distance.
    (ga, ra), (gb, rb) = a.measured_shape(ruleset), b.measured_shape(ruleset)
    assert float(shapely.distance(ga, gb)) - ra - rb == pytest.approx(d, abs=AGREEMENT_MM)
    assert not bool(overlaps(ga, gb, ra, rb))


@given(ship_pairs())
def test_overlapping_bases_have_distance_zero(pair: tuple[Ruleset, Ship, Ship]) -> None:
    ruleset, a, b = pair
    (ga, ra), (gb, rb) = a.measured_shape(ruleset), b.measured_shape(ruleset)
    d, points = measured(ruleset, a, b)
    if bool(overlaps(ga, gb, ra, rb)):
        assert d == 0.0
        assert math.dist(points[0], points[1]) == 0.0


@pytest.mark.parametrize(
    ("ruleset_name", "base"),
    [("xwing2", "small"), ("xwing2", "medium"), ("xwing2", "large"), ("armada", "squadron")],
)
@pytest.mark.parametrize("heading", [0.0, 17.0, 90.0])
def test_equal_squares_turned_45_degrees_on_one_centre_overlap(
    ruleset_name: str, base: str, heading: float
) -> None:
    # Each square's corners lie outside the other (a corner is half a diagonal from the
    # centre, the other's sides half a side): an overlap test that looks for a corner
    # inside the other outline would miss this one.
    ruleset = get_ruleset(ruleset_name)
    first = Ship("a", base, 300.0, 300.0, heading)
    second = Ship("b", base, 300.0, 300.0, heading + 45.0)
    pa, pb = first.polygon(ruleset), second.polygon(ruleset)
    if base != "squadron":
        corners_a = shapely.points(np.asarray(pa.exterior.coords)[:-1])
        corners_b = shapely.points(np.asarray(pb.exterior.coords)[:-1])
        assert not shapely.contains(pb, corners_a).any()
        assert not shapely.contains(pa, corners_b).any()
    (ga, ra), (gb, rb) = first.measured_shape(ruleset), second.measured_shape(ruleset)
    assert bool(overlaps(ga, gb, ra, rb))
    assert bool(overlaps(pa, pb))
    assert measured(ruleset, first, second)[0] == 0.0


def test_touching_is_not_overlapping() -> None:
    xw = get_ruleset("xwing2")
    a = Ship("a", "small", 100.0, 100.0, 90.0).polygon(xw)
    b = Ship("b", "small", 140.0, 100.0, 90.0).polygon(xw)  # sides x = 120 and x = 120
    corner = Ship("c", "small", 140.0, 140.0, 90.0).polygon(xw)  # corner to corner
    assert not bool(overlaps(a, b))
    assert not bool(overlaps(a, corner))
    assert float(geometry_distance(a, b)) == 0.0
    assert float(geometry_distance(a, corner)) == 0.0
    ar = get_ruleset("armada")
    s1, s2 = Ship("s1", "squadron", 0.0, 0.0), Ship("s2", "squadron", 31.0, 0.0)
    (g1, r1), (g2, r2) = s1.measured_shape(ar), s2.measured_shape(ar)
    assert not bool(overlaps(g1, g2, r1, r2))
    assert bool(overlaps(g1, g2, r1, r2 + 0.01))
