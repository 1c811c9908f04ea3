"""tabletop.geom.batch against the scalar API: distances, bands and arcs, on every path.

Every batch answer is compared with what :mod:`tabletop.geom.measure` and :mod:`tabletop.geom.arcs` answer
for shapely outlines built from the same poses. All three paths run: the kernels compiled
ahead of time, the same kernels compiled by numba, and the
numpy formulas (``TABLETOP_NO_NUMBA=1``). Poses are random, on band lines (gaps of
exactly a band line, and a hair either side of it, at headings where the trigonometry is
exact) and touching.

Lengths agree within ``AGREEMENT_MM`` (``tests/agreement.py``: the kernels and GEOS do
their own arithmetic). Ties: an arc answer may differ from shapely's only where the
target lies within that agreement of where the arc is decided (it meets the region grown
by the length tolerance and the agreement, and not the region shrunk by the agreement);
a band only where the distance is within the agreement of a line +- 1e-6 mm. Each such
case is reported by the assertion helper.
"""

from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Iterator
from unittest import mock

import numpy as np
import pytest
import shapely
from agreement import AGREEMENT_MM, agree, arrays_agree, off_the_lines
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.geom import batch
from tabletop.geom.arcs import XWING_ARCS, arc_region_outline
from tabletop.geom.arcs import targets_in_arc as scalar_in_arc
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.measure import geometry_distance as scalar_distance
from tabletop.geom.measure import line_bands
from tabletop.geom.rulesets import Ruleset, XWingRuleset, get_ruleset
from tabletop.geom.shapes import base_footprint, world_polygon, world_polygons
from tabletop.geom.tolerance import EPSILON_MM

PATHS = ("aot", "numba", "numpy")
RULESETS = {name: get_ruleset(name) for name in ("xwing2", "xwing1", "armada")}


@contextlib.contextmanager
def path(name: str) -> Iterator[None]:
    """Select the compiled-ahead, the numba or the numpy path for the duration of the block.

    The numba path needs numba (the `fast` extra): without it the test skips.
    """
    if name == "numba":
        pytest.importorskip("numba")
    with mock.patch.dict(os.environ, {batch.BACKEND_ENV: name}):
        assert batch.backend() == name
        yield


def shapes(ruleset: Ruleset, base: str, poses: np.ndarray) -> tuple[np.ndarray, float]:
    """The scalar API's geometry of bases at poses: polygons, or disk centres and radius."""
    footprint = base_footprint(ruleset, base)
    if footprint.is_disk:
        return np.asarray(shapely.points(poses[:, :2])), footprint.radius
    return world_polygons(footprint.outline, poses), 0.0


def reference_distance(
    ruleset: Ruleset, a: np.ndarray, a_base: str, b: np.ndarray, b_base: str
) -> np.ndarray:
    ga, ra = shapes(ruleset, a_base, a)
    gb, rb = shapes(ruleset, b_base, b)
    return np.asarray(scalar_distance(ga, gb, ra, rb), dtype=np.float64)


def xwing_lines(ruleset: Ruleset) -> tuple[tuple[float, ...], bool]:
    return ruleset.xwing_range_bands, ruleset.range_zero


coordinates = st.floats(min_value=-400.0, max_value=400.0, allow_nan=False)
headings = st.floats(min_value=0.0, max_value=360.0, allow_nan=False)
pose_rows = st.lists(st.tuples(coordinates, coordinates, headings), min_size=1, max_size=12)


@st.composite
def pose_pairs(draw: st.DrawFn) -> tuple[Ruleset, str, str, np.ndarray, np.ndarray]:
    """A ruleset, two bases and N pose pairs: random, or a gap of a band line ± a hair."""
    ruleset = RULESETS[draw(st.sampled_from(sorted(RULESETS)))]
    bases = sorted(ruleset.base_sizes)
    a_base, b_base = draw(st.sampled_from(bases)), draw(st.sampled_from(bases))
    if draw(st.booleans()):
        # Random pairs: B anywhere, or within 150 mm of A (touching and overlapping).
        rows = draw(pose_rows)
        a = np.array(rows, dtype=np.float64)
        spread = draw(st.sampled_from([150.0, 800.0]))
        near = st.floats(min_value=-spread, max_value=spread, allow_nan=False)
        moves = draw(
            st.lists(st.tuples(near, near, headings), min_size=len(rows), max_size=len(rows))
        )
        b = np.array(moves, dtype=np.float64)
        b[:, :2] += a[:, :2]
        return ruleset, a_base, b_base, a, b
    # On a band line: B straight ahead of A (headings 0/90/180/270, exact trigonometry).
    lines = [0.0, *ruleset.band_lines]
    line = draw(st.sampled_from(lines))
    hair = draw(st.sampled_from([0.0, 5e-7, -5e-7, 2e-6, -2e-6, 1e-3, -1e-3]))
    gap = max(line + hair, 0.0)
    heading = draw(st.sampled_from([0.0, 90.0, 180.0, 270.0]))
    x, y = draw(st.integers(-300, 300)), draw(st.integers(-300, 300))
    along = ruleset.base_size(a_base)[1] / 2.0 + ruleset.base_size(b_base)[1] / 2.0 + gap
    step = {0.0: (1, 0), 90.0: (0, 1), 180.0: (-1, 0), 270.0: (0, -1)}[heading]
    a = np.array([[x, y, heading]], dtype=np.float64)
    b = np.array([[x + step[0] * along, y + step[1] * along, heading]], dtype=np.float64)
    return ruleset, a_base, b_base, a, b


def assert_bands_agree(ruleset: Ruleset, got: np.ndarray, reference: np.ndarray) -> None:
    """Bands of the batch distance equal the scalar API's, except within the agreement of a line's edge."""
    kinds = ("range",) if isinstance(ruleset, XWingRuleset) else ("distance", "range")
    for kind in kinds:
        mine = batch.band(got, ruleset=ruleset, kind=kind)  # type: ignore[arg-type]
        if isinstance(ruleset, XWingRuleset):
            lines, zero = ruleset.xwing_range_bands, ruleset.range_zero
        else:
            lines = (
                ruleset.armada_distance_bands if kind == "distance" else ruleset.armada_range_bands
            )
            zero = False
        theirs = line_bands(reference, lines, zero_band=zero)
        off = off_the_lines(reference, [0.0, *lines])
        assert np.array_equal(mine[off], theirs[off]), (kind, got, reference)


@pytest.mark.parametrize("name", PATHS)
@given(pose_pairs())
def test_distance_and_band_equal_the_scalar_api(
    name: str, case: tuple[Ruleset, str, str, np.ndarray, np.ndarray]
) -> None:
    ruleset, a_base, b_base, a, b = case
    reference = reference_distance(ruleset, a, a_base, b, b_base)
    with path(name):
        got = batch.distance(a, a_base, b, b_base, ruleset=ruleset)
        assert got.shape == (len(a),)
        assert got.dtype == np.float64
        assert arrays_agree(got, reference), (got, reference)
        assert_bands_agree(ruleset, got, reference)
        # Distance is symmetric.
        assert arrays_agree(batch.distance(b, b_base, a, a_base, ruleset=ruleset), got)


@pytest.mark.parametrize("name", PATHS)
@pytest.mark.parametrize(("line", "expected"), [(100.0, 1), (200.0, 2), (300.0, 3), (500.0, 5)])
@pytest.mark.parametrize("heading", [0.0, 90.0, 180.0, 270.0])
def test_a_gap_of_exactly_a_band_line_is_the_shorter_band(
    name: str, line: float, expected: int, heading: float
) -> None:
    """Small and large bases nose to tail, exactly on the line, and 1e-5 mm beyond it."""
    t = math.radians(heading)
    step = np.array([round(math.cos(t)), round(math.sin(t))], dtype=np.float64)
    a = np.array([[100.0, 100.0, heading], [100.0, 100.0, heading]])
    along = np.array([20.0 + 40.0 + line, 20.0 + 40.0 + line + 1e-5])
    b = np.column_stack([100.0 + step[0] * along, 100.0 + step[1] * along, [heading, heading]])
    with path(name):
        got = batch.distance(a, "small", b, "large")
        np.testing.assert_allclose(got, [line, line + 1e-5], atol=1e-9)
        assert batch.band(got).tolist() == [expected, -1 if expected == 5 else expected + 1]


@pytest.mark.parametrize("name", PATHS)
@pytest.mark.parametrize("spin", [45.0, 30.0, 60.0, 15.0])
def test_equal_squares_turned_on_one_centre_overlap_with_no_corner_inside(
    name: str, spin: float
) -> None:
    """The case a corner-in-polygon test misses: the distance is 0 (range 0)."""
    xw = RULESETS["xwing2"]
    a, b = np.array([[300.0, 300.0, 90.0]]), np.array([[300.0, 300.0, 90.0 + spin]])
    pa = world_polygon(base_footprint(xw, "small").outline, a[0])
    pb = world_polygon(base_footprint(xw, "small").outline, b[0])
    if spin == 45.0:
        # No corner of either square lies in the other, yet they share area.
        assert not any(pb.covers(shapely.Point(c)) for c in pa.exterior.coords[:-1])
        assert not any(pa.covers(shapely.Point(c)) for c in pb.exterior.coords[:-1])
    assert pa.intersection(pb).area > 1000.0
    with path(name):
        got = batch.distance(a, "small", b, "small")
        assert got.tolist() == [0.0]
        assert batch.band(got).tolist() == [0]
        assert batch.band(got, ruleset="xwing1").tolist() == [1]


@pytest.mark.parametrize("name", PATHS)
def test_touching_bases_and_disks(name: str) -> None:
    """Edge to edge is 0; a squadron is its disk, measured exactly (not the polygon)."""
    with path(name):
        touching = batch.distance([[0.0, 0.0, 0.0]], "small", [[40.0, 0.0, 0.0]], "small")
        assert touching.tolist() == [0.0]
        disks = batch.distance(
            [[0.0, 0.0, 0.0], [0.0, 0.0, 90.0]],
            ["squadron", "small"],
            [[100.0, 0.0, 33.0], [0.0, 135.5, 0.0]],
            "squadron",
            ruleset="armada",
        )
        # 100 - 15.5 - 15.5, and 135.5 - 35.5 (half the small base's length) - 15.5.
        np.testing.assert_allclose(disks, [69.0, 84.5], atol=1e-12)


@pytest.mark.parametrize("name", PATHS)
def test_a_single_pose_is_broadcast_and_empty_input_is_empty(name: str) -> None:
    with path(name):
        many = np.array([[0.0, 100.0, 0.0], [0.0, 200.0, 0.0], [0.0, -300.0, 0.0]])
        got = batch.distance([0.0, 0.0, 90.0], "small", many, "small")
        np.testing.assert_allclose(got, [60.0, 160.0, 260.0], atol=1e-9)
        assert batch.distance(np.empty((0, 3)), "small", np.empty((0, 3)), "small").shape == (0,)
        assert batch.in_arc(
            np.empty((0, 3)), "small", np.empty((0, 3)), "small", "front"
        ).shape == (0,)


def test_bad_input_raises_with_the_accepted_values() -> None:
    with pytest.raises(InvalidInputError, match="expected one of: small, medium"):
        batch.distance([0.0, 0.0, 0.0], "tiny", [0.0, 0.0, 0.0], "small")
    with pytest.raises(InvalidInputError, match=r"shape \(N, 3\)"):
        batch.distance([[0.0, 0.0]], "small", [[0.0, 0.0, 0.0]], "small")
    with pytest.raises(InvalidInputError, match="give as many of each, or one"):
        batch.distance(np.zeros((2, 3)), "small", np.zeros((3, 3)), "small")
    with pytest.raises(InvalidInputError, match="expected one base name or 2"):
        batch.distance(np.zeros((2, 3)), ["small"] * 3, np.zeros((2, 3)), "small")
    with pytest.raises(InvalidInputError, match="unknown arc 'side'"):
        batch.in_arc([0.0, 0.0, 0.0], "small", [0.0, 0.0, 0.0], "small", "side")
    with pytest.raises(InvalidInputError, match="hull zones"):
        batch.in_arc([0.0, 0.0, 0.0], "small", [0.0, 0.0, 0.0], "small", "front", ruleset="armada")
    with pytest.raises(InvalidInputError, match="unknown band kind 'close'"):
        batch.band([1.0], ruleset="armada", kind="close")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="unknown ruleset 'chess'"):
        batch.band([1.0], ruleset="chess")


# -- bands ------------------------------------------------------------------------------


def special_distances() -> st.SearchStrategy[float]:
    """Distances at, a hair inside and a hair beyond every band line of every ruleset."""
    lines = sorted({0.0, *(line for r in RULESETS.values() for line in r.band_lines)})
    around = [
        v
        for line in lines
        for v in (
            line,
            line + EPSILON_MM,
            math.nextafter(line + EPSILON_MM, math.inf),
            math.nextafter(line, -math.inf),
            line + 2e-6,
            line - 2e-6,
        )
        if v >= 0.0
    ]
    return st.one_of(st.sampled_from(around), st.floats(min_value=0.0, max_value=700.0))


@given(st.lists(special_distances(), min_size=1, max_size=20), st.sampled_from(sorted(RULESETS)))
def test_band_equals_the_scalar_bands(values: list[float], name: str) -> None:
    ruleset = RULESETS[name]
    d = np.array(values)
    if isinstance(ruleset, XWingRuleset):
        expected = line_bands(d, ruleset.xwing_range_bands, zero_band=ruleset.range_zero)
        assert np.array_equal(batch.band(d, ruleset=ruleset), expected)
        return
    assert np.array_equal(
        batch.band(d, ruleset=ruleset, kind="distance"),
        line_bands(d, ruleset.armada_distance_bands),
    )
    assert np.array_equal(
        batch.band(d, ruleset=ruleset, kind="range"), line_bands(d, ruleset.armada_range_bands)
    )


def test_band_lines_worked_out_by_hand() -> None:
    """rules.md: band k holds d <= D_k (+1e-6); range 0 only in xwing2."""
    d = [0.0, 1e-6, 2e-6, 100.0, 100.000001, 100.000002, 500.0, 500.000002]
    assert batch.band(d).tolist() == [0, 0, 1, 1, 1, 2, 5, -1]
    assert batch.band(d, ruleset="xwing1").tolist() == [1, 1, 1, 1, 1, 2, 5, -1]
    armada = [76.5, 76.500002, 123.5, 124.5, 185.0, 187.0, 245.0, 304.8, 304.800002]
    assert batch.band(armada, ruleset="armada", kind="distance").tolist() == [
        1,
        2,
        2,
        2,
        3,
        4,
        4,
        5,
        -1,
    ]
    assert batch.band(armada, ruleset="armada", kind="range").tolist() == [
        1,
        1,
        1,
        2,
        2,
        2,
        3,
        3,
        -1,
    ]


# -- arcs -------------------------------------------------------------------------------

XW = RULESETS["xwing2"]
XW_BASES = sorted(XW.base_sizes)


@st.composite
def arc_cases(draw: st.DrawFn) -> tuple[str, str, str, np.ndarray, np.ndarray]:
    """An arc, two bases, attackers anywhere and targets within 400 mm (or overlapping)."""
    arc = draw(st.sampled_from(XWING_ARCS))
    a_base, b_base = draw(st.sampled_from(XW_BASES)), draw(st.sampled_from(XW_BASES))
    rows = draw(pose_rows)
    a = np.array(rows, dtype=np.float64)
    near = st.floats(min_value=-400.0, max_value=400.0, allow_nan=False)
    offsets = draw(
        st.lists(st.tuples(near, near, headings), min_size=len(rows), max_size=len(rows))
    )
    b = a + np.array(offsets) * np.array([1.0, 1.0, 0.0])
    b[:, 2] = np.array(offsets)[:, 2]
    return arc, a_base, b_base, a, b


def assert_arcs_agree(
    arc: str, a_base: str, b_base: str, a: np.ndarray, b: np.ndarray, got: np.ndarray
) -> None:
    targets = world_polygons(base_footprint(XW, b_base).outline, b)
    expected = scalar_in_arc(XW, a, a_base, targets, arc)
    for i in np.flatnonzero(got != expected):
        region = world_polygon(arc_region_outline(XW, a_base, arc), a[i])
        inner = shapely.buffer(region, -AGREEMENT_MM, join_style="mitre")
        gap = shapely.distance(region, targets[i])
        assert not shapely.intersects(inner, targets[i]), (arc, a_base, b_base, a[i], b[i])
        assert gap <= EPSILON_MM + AGREEMENT_MM, (arc, a_base, b_base, a[i], b[i], got[i])


@pytest.mark.parametrize("name", PATHS)
@given(arc_cases())
def test_in_arc_equals_the_scalar_api(
    name: str, case: tuple[str, str, str, np.ndarray, np.ndarray]
) -> None:
    arc, a_base, b_base, a, b = case
    with path(name):
        got = batch.in_arc(a, a_base, b, b_base, arc)
    assert got.shape == (len(a),)
    assert got.dtype == np.bool_
    assert_arcs_agree(arc, a_base, b_base, a, b, got)


def ship_frame(x: float, y: float, pose: tuple[float, float, float]) -> tuple[float, float]:
    """A ship-frame point (x right, y forward) in the world, by plain trigonometry."""
    h = math.radians(pose[2])
    return (
        pose[0] + x * math.sin(h) + y * math.cos(h),
        pose[1] - x * math.cos(h) + y * math.sin(h),
    )


@pytest.mark.parametrize("name", PATHS)
@pytest.mark.parametrize("base", XW_BASES)
@pytest.mark.parametrize("pose", [(0.0, 0.0, 90.0), (457.2, 300.0, 30.0), (250.0, 600.0, 205.0)])
def test_targets_a_millimetre_either_side_of_an_arc_line(
    name: str, base: str, pose: tuple[float, float, float]
) -> None:
    """A small target whose nearest corner sits 1 mm inside or outside the right front arc line."""
    half = math.radians(XW.arc_half_angle(base))
    ray = (math.sin(half), math.cos(half))  # the right arc line, ship frame
    normal = (math.cos(half), -math.sin(half))  # pointing out of the front arc
    rows_a, rows_b, expected = [], [], []
    for side, inside in ((-1.0, True), (1.0, False)):
        # The target's nearest corner 250 mm along the line, 1 mm to one side; the
        # target square points straight away from the line.
        corner = (250.0 * ray[0] + side * normal[0], 250.0 * ray[1] + side * normal[1])
        centre = (
            corner[0] + side * 20.0 * math.sqrt(2.0) * normal[0],
            corner[1] + side * 20.0 * math.sqrt(2.0) * normal[1],
        )
        # A square's corners point 45° off its heading (and every 90° on): one toward the
        # line. A ship-frame direction (x, y) points atan2(-x, y) off the heading.
        turn = math.degrees(math.atan2(-normal[0], normal[1])) + 45.0
        world = ship_frame(centre[0], centre[1], pose)
        rows_a.append(pose)
        rows_b.append((world[0], world[1], pose[2] + turn))
        expected.append(inside)
    with path(name):
        got = batch.in_arc(np.array(rows_a), base, np.array(rows_b), "small", "front")
        right = batch.in_arc(np.array(rows_a), base, np.array(rows_b), "small", "right")
    assert got.tolist() == expected
    assert right.tolist() == [not e for e in expected]
    assert_arcs_agree("front", base, "small", np.array(rows_a), np.array(rows_b), got)


@pytest.mark.parametrize("name", PATHS)
def test_touching_targets_worked_out_by_hand(name: str) -> None:
    """Heading 0 (exact trigonometry): targets touching the attacker's edges, in rules.md terms.

    At heading 0 the ship's forward is +x and its right −y. The small arc lines leave the
    base through the front and rear edges, 40·tan(40.62°)/2 ≈ 17.1 mm off the centre line,
    so the side arcs hold the front and rear corners' surroundings. A target touching the
    right edge is in the right arc and in both full arcs (its edge runs along the whole
    side). A target of the same width touching the front edge spans its corners, so it is
    in the front, left, right, full-front and bullseye arcs; touching the rear edge, in the
    rear, left, right and full-rear arcs.
    """
    attacker = [0.0, 0.0, 0.0]
    targets = {"right": [0.0, -40.0, 0.0], "front": [40.0, 0.0, 0.0], "rear": [-40.0, 0.0, 0.0]}
    expected = {
        "right": {"right", "full-front", "full-rear"},
        "front": {"front", "left", "right", "full-front", "bullseye"},
        "rear": {"rear", "left", "right", "full-rear"},
    }
    with path(name):
        for where, target in targets.items():
            hits = {
                arc
                for arc in XWING_ARCS
                if batch.in_arc(attacker, "small", target, "small", arc)[0]
            }
            assert hits == expected[where], where
            for arc in XWING_ARCS:
                got = batch.in_arc(attacker, "small", target, "small", arc)
                assert_arcs_agree(
                    arc, "small", "small", np.array([attacker]), np.array([target]), got
                )


@pytest.mark.parametrize("name", PATHS)
def test_bullseye_ends_at_the_range_three_line(name: str) -> None:
    """The strip runs 300 mm from the front edge: a target 300 mm ahead touches it, 300.001 does not."""
    with path(name):
        a = np.array([[0.0, 0.0, 0.0]] * 2)
        b = np.array([[20.0 + 300.0 + 20.0, 0.0, 0.0], [20.0 + 300.001 + 20.0, 0.0, 0.0]])
        assert batch.in_arc(a, "small", b, "small", "bullseye").tolist() == [True, False]
        assert batch.in_arc(a, "small", b, "small", "front").tolist() == [True, True]


@settings(max_examples=20)
@given(st.sampled_from(XWING_ARCS))
def test_per_row_base_names_equal_one_call_per_base(arc: str) -> None:
    rng = np.random.default_rng(7)
    a = np.column_stack([rng.uniform(0, 300, 40), rng.uniform(0, 300, 40), rng.uniform(0, 360, 40)])
    b = np.column_stack([rng.uniform(0, 300, 40), rng.uniform(0, 300, 40), rng.uniform(0, 360, 40)])
    names = [XW_BASES[i % len(XW_BASES)] for i in range(40)]
    mixed = batch.in_arc(a, names, b, "small", arc)
    dist = batch.distance(a, names, b, list(reversed(names)))
    for base in XW_BASES:
        rows = [i for i, n in enumerate(names) if n == base]
        assert np.array_equal(mixed[rows], batch.in_arc(a[rows], base, b[rows], "small", arc))
        others = [list(reversed(names))[i] for i in rows]
        for i, other in zip(rows, others, strict=True):
            assert agree(dist[i], batch.distance(a[i], base, b[i], other)[0])


@given(st.floats(min_value=-1e5, max_value=1e5, allow_nan=False))
def test_sincos_degrees_is_numpys_within_rounding(heading: float) -> None:
    """The kernels' polynomial sine and cosine of degrees, against numpy's."""
    pytest.importorskip("numba")  # the kernels' module: the `fast` extra
    from tabletop.geom._kernels import sincos_degrees

    sine, cosine = sincos_degrees(heading)
    scale = max(1.0, abs(heading) / 360.0)  # numpy's own error grows with the argument
    assert abs(sine - math.sin(math.radians(heading))) <= 2e-15 * scale
    assert abs(cosine - math.cos(math.radians(heading))) <= 2e-15 * scale
    assert sine * sine + cosine * cosine == pytest.approx(1.0, abs=4e-16)


@pytest.mark.parametrize("quarter", range(-8, 9))
def test_sincos_degrees_is_exact_at_right_angles(quarter: int) -> None:
    pytest.importorskip("numba")  # the kernels' module: the `fast` extra
    from tabletop.geom._kernels import sincos_degrees

    expected = [(0.0, 1.0), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0)][quarter % 4]
    assert sincos_degrees(90.0 * quarter) == expected
