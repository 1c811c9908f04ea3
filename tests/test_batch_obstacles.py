"""tabletop.obstacles.batch against the scalar API: setup legality and obstruction, on both paths.

:func:`tabletop.obstacles.batch.setups_legal` must answer what :func:`tabletop.obstacles.legality.check`
answers (its ``legal``) for a scene holding the same obstacles on the ruleset's default
area; :func:`tabletop.obstacles.batch.obstructed` what
:func:`tabletop.obstacles.obstruction.obstructed_segment` answers. Random setups cluster the
tokens so that about half break the spacing rule; the worked cases sit exactly on the
edge and spacing lines and a hair either side, where the 1e-6 mm tolerance decides.
"""

from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Iterator, Sequence
from fractions import Fraction
from unittest import mock

import numpy as np
import pytest
import shapely
from hypothesis import given
from hypothesis import strategies as st

from tabletop.geom.areas import play_area
from tabletop.geom.batch import BACKEND_ENV, backend
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.rulesets import Ruleset, get_ruleset
from tabletop.obstacles import _numpy_paths, batch
from tabletop.obstacles.catalog import catalog
from tabletop.obstacles.legality import check
from tabletop.obstacles.obstruction import obstructed_segment
from tabletop.obstacles.scene import Obstacle, Scene

PATHS = ("aot", "numba", "numpy")
RULESETS = {name: get_ruleset(name) for name in ("xwing2", "xwing1", "armada")}


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


def obstacles_of(
    ruleset: Ruleset, tokens: Sequence[str], placement: np.ndarray
) -> tuple[Obstacle, ...]:
    return tuple(
        Obstacle.from_token(ruleset, f"o{k}", name, x, y, angle, bool(flipped))
        for k, (name, (x, y, angle, flipped)) in enumerate(zip(tokens, placement, strict=True))
    )


def scalar_legal(ruleset: Ruleset, tokens: Sequence[str], placements: np.ndarray) -> list[bool]:
    """``check(scene).legal`` of each setup: the scalar API."""
    area = play_area(ruleset.default_area)
    return [
        check(Scene(ruleset, area, obstacles=obstacles_of(ruleset, tokens, p)), fixes=False).legal
        for p in placements
    ]


def radius(ruleset: Ruleset, token: str) -> float:
    """How far the token's outline reaches from its reference point, mm."""
    outline = catalog(ruleset)[token].outline
    return float(np.max(np.hypot(outline[:, 0], outline[:, 1])))


@st.composite
def setups(draw: st.DrawFn) -> tuple[Ruleset, list[str], np.ndarray]:
    """K tokens and M setups of them on a grid whose pitch is near the spacing limit.

    The pitch is twice the largest token radius plus the spacing limit plus a slack of
    -40 to +10 mm, each token jittered by up to 5 mm: neighbouring outlines' real gaps
    fall near the limit on either side (their reaches toward each other are random), and
    about half the setups are legal.
    """
    ruleset = RULESETS[draw(st.sampled_from(sorted(RULESETS)))]
    names = sorted(catalog(ruleset))
    k = draw(st.integers(1, 6))
    tokens = draw(st.lists(st.sampled_from(names), min_size=k, max_size=k))
    reach = max(radius(ruleset, t) for t in tokens)
    area = play_area(ruleset.default_area)
    m = draw(st.integers(1, 4))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    cols = math.ceil(math.sqrt(k))
    rows = math.ceil(k / cols)
    col, row = np.arange(k) % cols - (cols - 1) / 2.0, np.arange(k) // cols - (rows - 1) / 2.0
    pitch = 2.0 * reach + ruleset.obstacle_spacing_limit + rng.uniform(-40.0, 10.0, (m, 1))
    placements = np.zeros((m, k, 4))
    placements[:, :, 0] = area.width / 2.0 + col * pitch + rng.uniform(-5.0, 5.0, (m, k))
    placements[:, :, 1] = area.height / 2.0 + row * pitch + rng.uniform(-5.0, 5.0, (m, k))
    placements[:, :, 2] = rng.uniform(0.0, 360.0, (m, k))
    placements[:, :, 3] = rng.integers(0, 2, (m, k))
    return ruleset, tokens, placements


@pytest.mark.parametrize("name", PATHS)
@given(setups())
def test_setups_legal_equals_check(name: str, case: tuple[Ruleset, list[str], np.ndarray]) -> None:
    ruleset, tokens, placements = case
    with path(name):
        got = batch.setups_legal(tokens, placements, ruleset=ruleset)
    assert got.shape == (len(placements),)
    assert got.dtype == np.bool_
    assert got.tolist() == scalar_legal(ruleset, tokens, placements)


SHORT = ["hugeship-short", "hugeship-short"]  # 80 x 195 rectangles: exact extents at angle 0


@pytest.mark.parametrize("name", PATHS)
@pytest.mark.parametrize("ruleset_name", ["xwing2", "xwing1"])
def test_spacing_exactly_on_the_line_is_illegal(name: str, ruleset_name: str) -> None:
    """Two 80-wide tokens side by side: gaps of 100, 100 + 5e-7 (on the line), 100 + 2e-6."""
    ruleset = RULESETS[ruleset_name]
    gaps = [100.0, 100.0 + 5e-7, 100.0 + 2e-6, 99.0, 101.0]
    placements = np.array([[[300.0, 457.2, 0.0, 0.0], [380.0 + g, 457.2, 0.0, 0.0]] for g in gaps])
    with path(name):
        got = batch.setups_legal(SHORT, placements, ruleset=ruleset)
    assert got.tolist() == [False, False, True, False, True]
    assert got.tolist() == scalar_legal(ruleset, SHORT, placements)


@pytest.mark.parametrize("name", PATHS)
@pytest.mark.parametrize("angle", [0.0, 90.0, 180.0])
def test_edge_distance_exactly_on_the_line_is_illegal(name: str, angle: float) -> None:
    """The lowest point of a token 200 mm (range 2) from the bottom edge, then a hair either side."""
    ruleset = RULESETS["xwing2"]
    half = 97.5 if angle != 90.0 else 40.0  # how far the token reaches below its centre
    offsets = [0.0, 5e-7, -5e-7, 2e-6, 1.0]
    placements = np.array([[[457.2, 200.0 + half + o, angle, 0.0]] for o in offsets])
    with path(name):
        got = batch.setups_legal(["hugeship-short"], placements, ruleset=ruleset)
    assert got.tolist() == [False, False, False, True, True]
    assert got.tolist() == scalar_legal(ruleset, ["hugeship-short"], placements)


@pytest.mark.parametrize("name", PATHS)
def test_armada_setup_area_boundary_is_inside(name: str) -> None:
    """An obstacle touching the setup-area line (x = 304.8) is inside it; 1 mm past, outside."""
    ruleset = RULESETS["armada"]
    outline = catalog(ruleset)["station"].outline
    reach_left = -float(outline[:, 0].min())
    xs = [304.8 + reach_left, 304.8 + reach_left - 1.0, 304.8 + reach_left + 1.0]
    placements = np.array([[[x, 457.2, 0.0, 0.0]] for x in xs])
    with path(name):
        got = batch.setups_legal(["station"], placements, ruleset=ruleset)
    assert got.tolist() == [True, False, True]
    assert got.tolist() == scalar_legal(ruleset, ["station"], placements)


NARROW = get_ruleset("xwing2", {"xwing_obstacle_spacing": 10})


def assert_far_from_boundaries(a: shapely.Polygon, b: shapely.Polygon, limit: float) -> None:
    """Every vertex of each outline is farther than `limit` from the other's boundary."""
    for one, other in ((a, b), (b, a)):
        for corner in one.exterior.coords[:-1]:
            assert other.exterior.distance(shapely.Point(corner)) > limit


@pytest.mark.parametrize("name", PATHS)
def test_long_edges_crossing_with_every_vertex_far_is_caught(name: str) -> None:
    """With a 10 mm spacing, two huge-ship tokens crossed like an X overlap, though no vertex
    of either comes within 10 mm of the other's outline: only the edge-crossing test sees it."""
    tokens = ["hugeship-long", "hugeship-long"]
    crossed = np.array([[457.2, 457.2, 0.0, 0.0], [457.2, 457.2, 90.0, 0.0]])
    apart = np.array([[300.0, 457.2, 0.0, 0.0], [600.0, 457.2, 0.0, 0.0]])
    polygons = [o.polygon() for o in obstacles_of(NARROW, tokens, crossed)]
    assert_far_from_boundaries(polygons[0], polygons[1], 10.0)
    assert polygons[0].intersects(polygons[1])
    with path(name):
        got = batch.setups_legal(tokens, np.stack([crossed, apart]), ruleset=NARROW)
    assert got.tolist() == [False, True]
    assert got.tolist() == scalar_legal(NARROW, tokens, np.stack([crossed, apart]))


@pytest.mark.parametrize("name", PATHS)
def test_one_token_inside_another_is_caught(name: str) -> None:
    """An asteroid in the middle of a huge-ship token, farther than 10 mm from its outline."""
    tokens = ["hugeship-long", "coreasteroid0"]
    inside = np.array([[457.2, 457.2, 0.0, 0.0], [457.2, 457.2, 30.0, 1.0]])
    polygons = [o.polygon() for o in obstacles_of(NARROW, tokens, inside)]
    assert_far_from_boundaries(polygons[0], polygons[1], 10.0)
    assert polygons[0].contains(polygons[1])
    with path(name):
        got = batch.setups_legal(tokens, inside[None], ruleset=NARROW)
        swapped = batch.setups_legal(tokens[::-1], inside[None, ::-1], ruleset=NARROW)
    assert got.tolist() == [False]
    assert swapped.tolist() == [False]
    assert scalar_legal(NARROW, tokens, inside[None]) == [False]


def test_setups_bad_input() -> None:
    with pytest.raises(InvalidInputError, match="unknown token 'rock'"):
        batch.setups_legal(["rock"], np.zeros((1, 1, 4)))
    with pytest.raises(InvalidInputError, match=r"expected shape \(M, 2, 4\)"):
        batch.setups_legal(SHORT, np.zeros((3, 2, 3)))
    with pytest.raises(InvalidInputError, match="a sequence of catalog names"):
        batch.setups_legal("hugeship-short", np.zeros((1, 1, 4)))
    assert batch.setups_legal([], np.zeros((4, 0, 4))).tolist() == [True] * 4


# -- obstruction ------------------------------------------------------------------------


@st.composite
def segment_cases(draw: st.DrawFn) -> tuple[Ruleset, list[str], np.ndarray, np.ndarray, np.ndarray]:
    """One placement of 1-6 tokens and segments: random, from a vertex, or next to nothing long."""
    ruleset = RULESETS[draw(st.sampled_from(["xwing2", "armada"]))]
    names = sorted(catalog(ruleset))
    k = draw(st.integers(1, 6))
    tokens = draw(st.lists(st.sampled_from(names), min_size=k, max_size=k))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    placement = np.column_stack(
        [
            rng.uniform(250.0, 650.0, k),
            rng.uniform(250.0, 650.0, k),
            rng.choice([0.0, 90.0, rng.uniform(0.0, 360.0)], k),
            rng.integers(0, 2, k),
        ]
    )
    n = 40
    p = rng.uniform(150.0, 750.0, (n, 2))
    q = p + rng.uniform(-300.0, 300.0, (n, 2))
    corners = np.concatenate([o.world_outline() for o in obstacles_of(ruleset, tokens, placement)])
    picks = corners[rng.integers(0, len(corners), (n, 2))]
    p[:10] = picks[:10, 0]  # from a vertex
    q[10:15] = picks[10:15, 1]  # to a vertex
    p[15:20], q[15:20] = picks[15:20, 0], picks[15:20, 1]  # vertex to vertex
    q[20:25] = p[20:25] + rng.uniform(-1e-3, 1e-3, (5, 2))  # shorter than allclose's tolerance
    return ruleset, tokens, placement, p, q


@pytest.mark.parametrize("name", PATHS)
@given(segment_cases())
def test_obstructed_equals_obstructed_segment(
    name: str, case: tuple[Ruleset, list[str], np.ndarray, np.ndarray, np.ndarray]
) -> None:
    ruleset, tokens, placement, p, q = case
    blockers = [o.polygon() for o in obstacles_of(ruleset, tokens, placement)]
    expected = [
        obstructed_segment(np.array([a, b]), blockers)[0] for a, b in zip(p, q, strict=True)
    ]
    with path(name):
        got = batch.obstructed(p, q, tokens, placement, ruleset=ruleset)
    assert got.dtype == np.bool_
    assert got.tolist() == expected


#: A huge-ship token at angle 0: x from 460 to 540, y from 360 to 585 (exact).
HUGE = (["hugeship-long"], np.array([[500.0, 472.5, 0.0, 0.0]]))
TOUCHING_CASES = [
    ((0.0, 0.0), (460.0, 360.0), True, "ends on a corner"),
    ((0.0, 0.0), (459.9, 360.0), False, "stops short of the corner"),
    ((450.0, 370.0), (470.0, 350.0), True, "crosses the outside of a corner, touching it"),
    ((450.0, 369.99999), (470.0, 349.99999), False, "passes 7e-6 mm clear of the corner"),
    (
        (450.0, 369.9999995),
        (470.0, 349.9999995),
        True,
        "passes 3.5e-7 mm from the corner: touching",
    ),
    ((400.0, 360.0), (520.0, 360.0), True, "runs along the bottom edge"),
    ((300.0, 360.0), (459.999, 360.0), False, "on the bottom edge's line, short of it"),
    ((480.0, 400.0), (520.0, 500.0), True, "lies wholly inside"),
    ((500.0, 400.0), (500.0, 400.0), True, "a point inside"),
    ((540.0, 500.0), (540.0, 500.0), True, "a point on the right edge"),
    ((540.000002, 500.0), (540.000002, 500.0), False, "a point 2e-6 mm outside"),
    ((540.000001, 500.0), (540.000001, 500.0), True, "a point 1e-6 mm outside: touching"),
    ((459.9995, 400.0), (460.0005, 400.0), True, "1e-3 long across the left edge"),
    ((459.999, 400.0), (459.9995, 400.0), False, "5e-4 long, 5e-4 mm short of the edge"),
]


@pytest.mark.parametrize("name", PATHS)
@pytest.mark.parametrize(("p", "q", "expected", "what"), TOUCHING_CASES)
def test_touching_counts(
    name: str, p: tuple[float, float], q: tuple[float, float], expected: bool, what: str
) -> None:
    tokens, placement = HUGE
    blocker = obstacles_of(RULESETS["xwing2"], tokens, placement)[0].polygon()
    assert obstructed_segment(np.array([p, q]), [blocker])[0] is expected, what
    with path(name):
        assert batch.obstructed([p], [q], tokens, placement).tolist() == [expected], what


def test_obstructed_bad_input() -> None:
    tokens, placement = HUGE
    with pytest.raises(InvalidInputError, match=r"expected shape \(1, 4\)"):
        batch.obstructed([[0.0, 0.0]], [[1.0, 1.0]], tokens, placement[None])
    with pytest.raises(InvalidInputError, match=r"two arrays of shape \(N, 2\)"):
        batch.obstructed([[0.0, 0.0]], [[1.0, 1.0], [2.0, 2.0]], tokens, placement)
    assert batch.obstructed(np.empty((0, 2)), np.empty((0, 2)), tokens, placement).shape == (0,)


# -- exact orientation ------------------------------------------------------------------


def exact_sign(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> int:
    fa, fb, fc = ([Fraction(v) for v in point] for point in (a, b, c))
    det = (fa[0] - fc[0]) * (fb[1] - fc[1]) - (fa[1] - fc[1]) * (fb[0] - fc[0])
    return (det > 0) - (det < 0)


#: Millimetre-scale coordinates: 0, or at least 1e-6 in magnitude (orient is exact while
#: no product underflows, far below any length on a table).
finite = st.floats(min_value=-1000.0, max_value=1000.0, allow_nan=False).filter(
    lambda v: v == 0.0 or abs(v) >= 1e-6
)


def nudged(value: float, ulps: int) -> float:
    """`value` moved by `ulps` units in the last place (0 stays 0: no subnormals)."""
    for _ in range(abs(ulps) if value != 0.0 else 0):
        value = math.nextafter(value, math.copysign(math.inf, ulps))
    return value


NEAR_A_LINE = (
    finite,
    finite,
    finite,
    finite,
    st.floats(0.0, 1.0),
    st.integers(-3, 3),
    st.integers(-3, 3),
)


def near_a_line(
    ax: float, ay: float, bx: float, by: float, t: float, nudge_x: int, nudge_y: int
) -> tuple[tuple[float, float, float, float, float, float], int]:
    """A point on segment ab rounded to floats, nudged by a few ulps, and its exact sign."""
    cx = nudged(ax + t * (bx - ax), nudge_x)
    cy = nudged(ay + t * (by - ay), nudge_y)
    return (ax, ay, bx, by, cx, cy), exact_sign((ax, ay), (bx, by), (cx, cy))


@given(*NEAR_A_LINE)
def test_orientation_signs_are_exact_near_a_line(
    ax: float, ay: float, bx: float, by: float, t: float, nudge_x: int, nudge_y: int
) -> None:
    """The numpy path's sign of a point a few ulps off segment ab is exact."""
    coordinates, expected = near_a_line(ax, ay, bx, by, t, nudge_x, nudge_y)
    signs = _numpy_paths.orient(*(np.array([v]) for v in coordinates))
    assert int(signs[0]) == expected


@given(*NEAR_A_LINE)
def test_orientation_signs_are_exact_near_a_line_in_the_numba_kernel(
    ax: float, ay: float, bx: float, by: float, t: float, nudge_x: int, nudge_y: int
) -> None:
    """The numba kernels' sign of a point a few ulps off segment ab is exact."""
    pytest.importorskip("numba")
    from tabletop.geom import _kernels  # the numba kernels: only with the `fast` extra

    coordinates, expected = near_a_line(ax, ay, bx, by, t, nudge_x, nudge_y)
    assert _kernels.orient(*coordinates) == expected
