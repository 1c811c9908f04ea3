"""The numpy paths' floating-point filters against the scalar path, forced on for small inputs.

``tabletop.obstacles._numpy_paths`` settles most setups and segments in floating point and hands
the doubtful ones to the exact path; the filters switch on only for large inputs, so
here their thresholds are set to zero and their answers compared, item by item, with
the scalar API (:func:`tabletop.obstacles.legality.check`, :func:`obstructed_segment`) and the
numba kernels, on setups whose gaps are placed at the spacing line (shapely measures
them) and segments grazing the outlines' corners. The verdicts are compared exactly even
there: a filter decides only where its error bound cannot reach the line, and hands
every doubtful item to the exact path, the scalar API's own measurement.
``tabletop.geom.poses.compose`` is compared with a reference written with ``math`` and
with ``np.mod``; one pose composed alone agrees with its row composed with others within
``AGREEMENT_MM`` (``tests/agreement.py``: numpy may take another loop for one row). The
heading fold is ``np.mod`` to the bit: one exact subtraction or one correctly rounded
addition, which IEEE 754 fixes on every platform.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from agreement import arrays_agree
from hypothesis import given
from hypothesis import strategies as st
from test_batch_obstacles import (
    RULESETS,
    obstacles_of,
    path,
    scalar_legal,
    segment_cases,
    setups,
)

from tabletop.geom.areas import play_area
from tabletop.geom.poses import _fold_heading, compose
from tabletop.geom.rulesets import Ruleset
from tabletop.obstacles import _numpy_paths, batch
from tabletop.obstacles.catalog import catalog
from tabletop.obstacles.obstruction import obstructed_segment


@pytest.fixture(autouse=True)
def filters_always_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Use the distance tables and the disks for any number of setups or segments."""
    monkeypatch.setattr(_numpy_paths, "_FIELDS_FROM", 0)
    monkeypatch.setattr(_numpy_paths, "_DISKS_FROM", 0)


# -- setups -----------------------------------------------------------------------------


@given(setups())
def test_filtered_setups_equal_check(case: tuple[Ruleset, list[str], np.ndarray]) -> None:
    ruleset, tokens, placements = case
    with path("numpy"):
        got = batch.setups_legal(tokens, placements, ruleset=ruleset)
    assert got.tolist() == scalar_legal(ruleset, tokens, placements)


#: Gaps beyond the spacing limit, mm: on the line, either side of the tolerance, within
#: and beyond the tables' half-cell error (0.71 mm).
#: Gaps past the spacing limit. Not exactly the 1e-6 mm tolerance: the pairs are built to
#: about 1e-10 mm, and at the tolerance itself that residue decides (hypothesis found one);
#: 1e-8 mm either side of it is far above the residue and still the line's neighbourhood.
OFFSETS = [
    -1.0,
    -0.7,
    -1e-3,
    -1e-6,
    0.0,
    5e-7,
    1e-6 - 1e-8,
    1e-6 + 1e-8,
    2e-6,
    1e-3,
    0.7,
    0.72,
    1.5,
]


def _gap(ruleset: Ruleset, tokens: list[str], placement: np.ndarray) -> float:
    a, b = (o.polygon() for o in obstacles_of(ruleset, tokens, placement))
    return float(shapely.distance(a, b))


@st.composite
def pairs_at_the_line(draw: st.DrawFn) -> tuple[Ruleset, list[str], np.ndarray]:
    """Two tokens at random angles and sides, moved apart until shapely measures a gap
    of the spacing limit plus an offset of :data:`OFFSETS` (to about 1e-9 mm)."""
    ruleset = RULESETS[draw(st.sampled_from(["xwing2", "armada"]))]
    names = sorted(catalog(ruleset))
    tokens = [draw(st.sampled_from(names)), draw(st.sampled_from(names))]
    turn = math.radians(draw(st.floats(0.0, 360.0)))
    target = ruleset.obstacle_spacing_limit + draw(st.sampled_from(OFFSETS))
    area = play_area(ruleset.default_area)
    middle = np.array([area.width / 2.0, area.height / 2.0])
    placement = np.array(
        [
            [0.0, 0.0, draw(st.floats(0.0, 360.0)), float(draw(st.booleans()))],
            [0.0, 0.0, draw(st.floats(0.0, 360.0)), float(draw(st.booleans()))],
        ]
    )
    reach = 100.0 + target
    for _ in range(30):
        half = reach / 2.0 * np.array([math.cos(turn), math.sin(turn)])
        placement[0, :2], placement[1, :2] = middle - half, middle + half
        gap = _gap(ruleset, tokens, placement)
        if abs(gap - target) < 1e-10:
            break
        reach += target - gap
    return ruleset, tokens, placement[None]


# Each path on its own, so that without numba the numpy path is still checked.
@pytest.mark.parametrize("name", ["numpy", "numba"])
@given(pairs_at_the_line())
def test_pairs_at_the_spacing_line_equal_check_and_numba(
    name: str, case: tuple[Ruleset, list[str], np.ndarray]
) -> None:
    ruleset, tokens, placements = case
    expected = scalar_legal(ruleset, tokens, placements)
    with path(name):
        got = batch.setups_legal(tokens, placements, ruleset=ruleset)
    assert got.tolist() == expected


def test_a_table_answers_within_half_a_cell() -> None:
    """The distance table's values at grid points are the exact signed distances."""
    ruleset = RULESETS["xwing2"]
    outline = catalog(ruleset)["vt49decimatordebris0"].outline
    field = _numpy_paths._field(outline, 100.0)
    rng = np.random.default_rng(7)
    ix, iy = rng.integers(0, field.nx, 500), rng.integers(0, field.ny, 500)
    points = shapely.points(field.x0 + ix * 1.0, field.y0 + iy * 1.0)
    polygon = shapely.Polygon(outline)
    distance = shapely.distance(points, polygon.exterior)
    signed = np.where(shapely.contains(polygon, points), -distance, distance)
    assert arrays_agree(field.values[iy * field.nx + ix], signed)


# -- segments ---------------------------------------------------------------------------


@given(segment_cases())
def test_filtered_segments_equal_obstructed_segment(
    case: tuple[Ruleset, list[str], np.ndarray, np.ndarray, np.ndarray],
) -> None:
    ruleset, tokens, placement, p, q = case
    blockers = [o.polygon() for o in obstacles_of(ruleset, tokens, placement)]
    expected = [
        obstructed_segment(np.array([a, b]), blockers)[0] for a, b in zip(p, q, strict=True)
    ]
    with path("numpy"):
        got = batch.obstructed(p, q, tokens, placement, ruleset=ruleset)
    assert got.tolist() == expected


@pytest.mark.parametrize("name", ["numpy", "numba"])
@given(
    st.sampled_from(sorted(catalog(RULESETS["xwing2"]))),
    st.floats(0.0, 360.0),
    st.integers(0, 2**32 - 1),
)
def test_segments_grazing_corners_equal_numba_and_obstructed_segment(
    name: str, token: str, angle: float, seed: int
) -> None:
    """Segments through a corner, nudged off it by 1e-7 to 1e-5 mm along the corner's
    outward bisector, and segments ending that far from an edge's midpoint."""
    ruleset = RULESETS["xwing2"]
    placement = np.array([[450.0, 450.0, angle, 0.0]])
    obstacle = obstacles_of(ruleset, [token], placement)[0]
    ring = obstacle.world_outline()
    rng = np.random.default_rng(seed)
    n = 60
    k = rng.integers(0, len(ring), n)
    corner, before, after = ring[k], ring[k - 1], ring[(k + 1) % len(ring)]
    outward = 2.0 * corner - before - after
    outward /= np.linalg.norm(outward, axis=1)[:, None]
    # Not exactly 1e-6 outside: a segment square to the bisector would then lie on the
    # tolerance itself, where a rounding of 1e-15 mm decides (hypothesis found one). A
    # nanometre either side of the line is still far above the arithmetic's noise.
    nudge = rng.choice([-1e-5, -1e-6, 0.0, 5e-7, 1e-6 - 1e-9, 1e-6 + 1e-9, 2e-6, 1e-5], n)
    nudge = nudge[:, None]
    through = corner + nudge * outward
    turn = rng.uniform(0.0, 2.0 * math.pi, n)
    direction = np.column_stack([np.cos(turn), np.sin(turn)])
    length = rng.uniform(0.0, 150.0, (n, 2))
    p, q = through - length[:, :1] * direction, through + length[:, 1:] * direction
    # Half of them end at the point instead of passing it.
    q[::2] = through[::2]
    blockers = [obstacle.polygon()]
    expected = [
        obstructed_segment(np.array([a, b]), blockers)[0] for a, b in zip(p, q, strict=True)
    ]
    with path(name):
        got = batch.obstructed(p, q, [token], placement)
    assert got.tolist() == expected


# -- poses ------------------------------------------------------------------------------

finite_heading = st.floats(-1e6, 1e6, allow_nan=False)


@given(st.lists(st.floats(-1e4, 1e4, allow_nan=False, allow_infinity=False), max_size=40))
def test_heading_fold_is_np_mod_bit_for_bit(values: list[float]) -> None:
    edges = [-720.0, -360.0, -1e-14, -0.0, 0.0, 360.0, 720.0, -1e-300]
    total = np.array(
        values + edges + [math.nextafter(e, s) for e in edges for s in (-math.inf, math.inf)]
    )
    expected = np.mod(total, 360.0)
    expected[expected >= 360.0] = 0.0
    got = _fold_heading(total)
    assert got.tobytes() == expected.tobytes()
    assert np.all((got >= 0.0) & (got < 360.0))


@given(
    st.lists(
        st.tuples(st.floats(-1e3, 1e3), st.floats(-1e3, 1e3), finite_heading),
        min_size=1,
        max_size=30,
    ),
    st.tuples(st.floats(-300.0, 300.0), st.floats(-300.0, 300.0), st.floats(-360.0, 360.0)),
)
def test_compose_equals_math_and_rows_equal_single_poses(
    rows: list[tuple[float, float, float]], move: tuple[float, float, float]
) -> None:
    poses = np.array(rows)
    got = compose(poses, move)
    dx, dy, _ = move
    for (x, y, heading), out in zip(rows, got, strict=True):
        t = math.radians(heading)
        s, c = math.sin(t), math.cos(t)
        # The heading is reduced exactly before its sine; math.radians is not, so far
        # from 0 the reference itself is off by up to |heading| * 1e-16 radians.
        tolerance = 1e-9 + 1e-15 * abs(heading) * (abs(dx) + abs(dy))
        assert abs(out[0] - (x + dx * s + dy * c)) <= tolerance
        assert abs(out[1] - (y - dx * c + dy * s)) <= tolerance
        assert 0.0 <= out[2] < 360.0
        alone = compose(np.array([x, y, heading]), move)
        assert arrays_agree(alone[:2], out[:2])
        assert alone[2] == out[2]  # the fold of one sum of the same floats


@pytest.mark.parametrize("quarters", range(-8, 9))
def test_compose_is_exact_at_multiples_of_90_degrees(quarters: int) -> None:
    forward = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)][quarters % 4]
    got = compose([10.0, 20.0, 90.0 * quarters], [3.0, 5.0, 0.0])
    right = (forward[1], -forward[0])
    assert got[0] == 10.0 + 3.0 * right[0] + 5.0 * forward[0]
    assert got[1] == 20.0 + 3.0 * right[1] + 5.0 * forward[1]
