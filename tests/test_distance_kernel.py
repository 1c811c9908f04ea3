"""The fused distance+band kernel against a slow model and against its earlier formula.

:func:`tabletop.geom._kernels.distances_bands` has two loops: one for one rectangle each side
(dims given as one row of radius 0 each) and one for every other case (dims per row,
disks). Both are checked here on rectangle-rectangle, rectangle-disk and disk-disk rows,
random, touching and overlapping:

* against an independent slow model: shapely's distance between the two bases built
  from the poses here (a polygon, or a point less its radius), banded with
  ``searchsorted``;
* against the formula the kernel computed before it was split into those two loops,
  frozen below in plain Python (its ``sincos_degrees`` polynomials, its per-row case
  selection, its band pass).

Distances agree within ``AGREEMENT_MM`` (``tests/agreement.py``: compiled code, GEOS and
Python each do their own arithmetic), bands exactly away from that agreement of a line's
decision points; a band of the kernel's own distances is its band exactly.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from agreement import arrays_agree, off_the_lines
from hypothesis import given
from hypothesis import strategies as st

from tabletop.geom.tolerance import EPSILON_MM

# Every test here runs the numba kernel itself: without the `fast` extra there is none.
pytest.importorskip("numba")

from tabletop.geom import _kernels  # needs numba, checked just above

#: A base's dims: half-width, half-length, radius (0 for a rectangle).
Dims = tuple[float, float, float]
Lines = tuple[float, ...]

SMALL = (20.0, 20.0, 0.0)
LARGE = (40.0, 40.0, 0.0)
ARMADA_SMALL = (21.5, 35.5, 0.0)
SQUADRON = (15.5, 15.5, 15.5)
BASES = (SMALL, LARGE, ARMADA_SMALL, SQUADRON)
#: X-Wing range lines (zero band), Armada distance lines, Armada range lines.
LINES = (
    ((100.0, 200.0, 300.0, 400.0, 500.0), True),
    ((76.5, 124.5, 185.0, 245.0, 304.8), False),
    ((123.5, 187.0, 304.8), False),
)


# -- the slow model ---------------------------------------------------------------------


def base_geometry(pose: np.ndarray, dims: tuple[float, float, float]) -> tuple[object, float]:
    """A base at a pose: a shapely polygon, or a disk's centre point and radius."""
    x, y, heading = (float(v) for v in pose)
    hw, hl, radius = dims
    if radius > 0.0:
        return shapely.Point(x, y), radius
    t = math.radians(heading)
    fx, fy = math.cos(t), math.sin(t)  # forward
    rx, ry = math.sin(t), -math.cos(t)  # right
    corners = [(sx * hw, sy * hl) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    return shapely.Polygon(
        [(x + px * rx + py * fx, y + px * ry + py * fy) for px, py in corners]
    ), 0.0


def slow_distance(a: np.ndarray, da: Dims, b: np.ndarray, db: Dims) -> float:
    ga, ra = base_geometry(a, da)
    gb, rb = base_geometry(b, db)
    return max(float(shapely.distance(ga, gb)) - ra - rb, 0.0)


def slow_bands(d: np.ndarray, lines: tuple[float, ...], zero_band: bool) -> np.ndarray:
    edges = np.asarray(lines) + EPSILON_MM
    k = 1 + np.searchsorted(edges, d, side="left")
    k = np.where(k > len(edges), -1, k)
    return np.where(zero_band & (d <= EPSILON_MM), 0, k)


# -- the formula before the split, frozen -----------------------------------------------

_SIN = (
    -1.0 / 6.0,
    1.0 / 120.0,
    -1.0 / 5040.0,
    1.0 / 362880.0,
    -1.0 / 39916800.0,
    1.0 / 6227020800.0,
    -1.0 / 1307674368000.0,
)
_COS = (
    -1.0 / 2.0,
    1.0 / 24.0,
    -1.0 / 720.0,
    1.0 / 40320.0,
    -1.0 / 3628800.0,
    1.0 / 479001600.0,
    -1.0 / 87178291200.0,
    1.0 / 20922789888000.0,
)


def frozen_sincos(h: float) -> tuple[float, float]:
    q = float(np.rint(h / 90.0))
    r = (h - 90.0 * q) * (math.pi / 180.0)
    r2 = r * r
    s = r * (
        1.0
        + r2
        * (
            _SIN[0]
            + r2
            * (
                _SIN[1]
                + r2 * (_SIN[2] + r2 * (_SIN[3] + r2 * (_SIN[4] + r2 * (_SIN[5] + r2 * _SIN[6]))))
            )
        )
    )
    c = 1.0 + r2 * (
        _COS[0]
        + r2
        * (
            _COS[1]
            + r2
            * (
                _COS[2]
                + r2 * (_COS[3] + r2 * (_COS[4] + r2 * (_COS[5] + r2 * (_COS[6] + r2 * _COS[7]))))
            )
        )
    )
    quadrant = int(q - 4.0 * math.floor(q / 4.0))
    odd = (quadrant & 1) == 1
    sine = c if odd else s
    cosine = s if odd else c
    sine = -sine if quadrant >= 2 else sine
    cosine = -cosine if quadrant in (1, 2) else cosine
    return sine, cosine


def frozen_distance(a: np.ndarray, da: Dims, b: np.ndarray, db: Dims) -> float:
    as_, ac = frozen_sincos(float(a[2]))
    bs, bc = frozen_sincos(float(b[2]))
    ahw, ahl, ar = da
    bhw, bhl, br = db
    dx, dy = float(b[0]) - float(a[0]), float(b[1]) - float(a[1])
    cc = ac * bc + as_ * bs
    sn = as_ * bc - ac * bs
    acc, asn = abs(cc), abs(sn)
    u, v = dx * as_ - dy * ac, dx * ac + dy * as_
    ub, vb = dx * bs - dy * bc, dx * bc + dy * bs
    gap = max(
        max(abs(u) - (ahw + bhw * acc + bhl * asn), abs(v) - (ahl + bhw * asn + bhl * acc)),
        max(abs(ub) - (bhw + ahw * acc + ahl * asn), abs(vb) - (bhl + ahw * asn + ahl * acc)),
    )
    best = math.inf
    for sx in (-1.0, 1.0):
        for sy in (-1.0, 1.0):
            x = u + sx * bhw * cc + sy * bhl * sn
            y = v - sx * bhw * sn + sy * bhl * cc
            ex, ey = max(abs(x) - ahw, 0.0), max(abs(y) - ahl, 0.0)
            best = min(best, ex * ex + ey * ey)
            x = -ub + sx * ahw * cc - sy * ahl * sn
            y = -vb + sx * ahw * sn + sy * ahl * cc
            ex, ey = max(abs(x) - bhw, 0.0), max(abs(y) - bhl, 0.0)
            best = min(best, ex * ex + ey * ey)
    rect = math.sqrt(best) if gap > 0.0 else 0.0
    a_disk, b_disk = ar > 0.0, br > 0.0
    px, py = (ub, vb) if a_disk else (u, v)
    ex = max(abs(px) - (bhw if a_disk else ahw), 0.0)
    ey = max(abs(py) - (bhl if a_disk else ahl), 0.0)
    disk_rect = max(math.sqrt(ex * ex + ey * ey) - (ar if a_disk else br), 0.0)
    disks = max(math.sqrt(dx * dx + dy * dy) - ar - br, 0.0)
    return disks if a_disk and b_disk else (disk_rect if a_disk or b_disk else rect)


def frozen_band(d: float, edges: np.ndarray, zero_band: bool) -> int:
    k = 1 + sum(1 for edge in edges if d > edge)
    return 0 if zero_band and d <= EPSILON_MM else (-1 if k > len(edges) else k)


# -- inputs -----------------------------------------------------------------------------


def random_rows(rng: np.random.Generator, n: int, spread: float) -> tuple[np.ndarray, np.ndarray]:
    """N pose pairs, B within `spread` mm of A; every 5th heading a multiple of 45 degrees."""
    a = np.column_stack([rng.uniform(0.0, 900.0, (n, 2)), rng.uniform(0.0, 360.0, n)])
    b = a + np.column_stack([rng.uniform(-spread, spread, (n, 2)), np.zeros(n)])
    b[:, 2] = rng.uniform(0.0, 360.0, n)
    a[::5, 2] = rng.integers(0, 8, len(a[::5])) * 45.0
    return a, b


def touching_rows(da: Dims, db: Dims) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pairs side by side at right-angle headings: touching, a hair apart, a hair over.

    Also returns each pair's gap (0 where the bases overlap).
    """
    a_rows, b_rows, gaps = [], [], []
    for heading, (fx, fy) in ((0.0, (1, 0)), (90.0, (0, 1)), (180.0, (-1, 0)), (270.0, (0, -1))):
        # Side by side across the ships' right axis, then nose to tail along it.
        across = da[0] + db[0]
        along = da[1] + db[1]
        for hair in (0.0, 1e-7, -1e-7, 2e-6, 1e-3, -1e-3):
            for step, length in (((fy, -fx), across), ((fx, fy), along)):
                a_rows.append([100.0, 200.0, heading])
                reach = length + hair
                b_rows.append([100.0 + step[0] * reach, 200.0 + step[1] * reach, heading])
                gaps.append(max(hair, 0.0))
    return np.array(a_rows), np.array(b_rows), np.array(gaps)


def run_kernel(
    a: np.ndarray, b: np.ndarray, da: np.ndarray, db: np.ndarray, lines: Lines, zero_band: bool
) -> tuple[np.ndarray, np.ndarray]:
    out = np.empty(len(a))
    bands = np.empty(len(a), dtype=np.int64)
    edges = np.asarray(lines, dtype=np.float64) + EPSILON_MM
    _kernels.distances_bands(a, b, da, db, edges, zero_band, out, bands)
    return out, bands


def per_row_dims(rng: np.random.Generator, n: int) -> tuple[list[Dims], list[Dims]]:
    choose = rng.integers(0, len(BASES), (2, n))
    return [BASES[i] for i in choose[0]], [BASES[i] for i in choose[1]]


# -- tests ------------------------------------------------------------------------------


@pytest.mark.parametrize("da", BASES)
@pytest.mark.parametrize("db", BASES)
@pytest.mark.parametrize(("lines", "zero_band"), LINES)
def test_one_base_each_side_equals_shapely(
    da: Dims, db: Dims, lines: Lines, zero_band: bool
) -> None:
    rng = np.random.default_rng(15)
    near_a, near_b = random_rows(rng, 150, 120.0)
    far_a, far_b = random_rows(rng, 150, 700.0)
    touch_a, touch_b, gaps = touching_rows(da, db)
    a = np.concatenate([near_a, far_a, touch_a])
    b = np.concatenate([near_b, far_b, touch_b])
    got, bands = run_kernel(a, b, np.array([da]), np.array([db]), lines, zero_band)
    expected = np.array([slow_distance(a[i], da, b[i], db) for i in range(len(a))])
    assert arrays_agree(got, expected)
    away = off_the_lines(expected, [0.0, *lines])
    assert np.array_equal(bands[away], slow_bands(expected, lines, zero_band)[away])
    # The touching rows: their gaps, worked out by hand (the heading's trigonometry is exact).
    np.testing.assert_allclose(got[-len(gaps) :], gaps, rtol=0.0, atol=1e-9)
    touching = [0 if zero_band and g <= EPSILON_MM else 1 for g in gaps]
    assert bands[-len(gaps) :].tolist() == touching


@pytest.mark.parametrize(("lines", "zero_band"), LINES)
def test_dims_per_row_equal_shapely(lines: Lines, zero_band: bool) -> None:
    rng = np.random.default_rng(16)
    a, b = random_rows(rng, 600, 150.0)
    da, db = per_row_dims(rng, len(a))
    got, bands = run_kernel(a, b, np.array(da), np.array(db), lines, zero_band)
    expected = np.array([slow_distance(a[i], da[i], b[i], db[i]) for i in range(len(a))])
    assert arrays_agree(got, expected)
    away = off_the_lines(expected, [0.0, *lines])
    assert away.sum() > 590
    assert np.array_equal(bands[away], slow_bands(expected, lines, zero_band)[away])


@pytest.mark.parametrize("gap", [0.0, 100.0, 200.0, 304.8])
@pytest.mark.parametrize("hair", [-1e-7, 5e-7, 2e-6])
@pytest.mark.parametrize("dims", [(SMALL, LARGE), (SQUADRON, ARMADA_SMALL), (SQUADRON, SQUADRON)])
def test_band_at_an_edge_just_inside_and_just_outside(
    gap: float, hair: float, dims: tuple[Dims, Dims]
) -> None:
    # Nose to tail at heading 90 (exact trigonometry): the gap is along y.
    da, db = dims
    along = da[1] + db[1] + max(gap + hair, 0.0)
    a, b = np.array([[10.0, 20.0, 90.0]]), np.array([[10.0, 20.0 + along, 90.0]])
    lines = (100.0, 200.0, 304.8)
    _, bands = run_kernel(a, b, np.array([da]), np.array([db]), lines, True)
    inside = hair < EPSILON_MM  # within the length tolerance of the line
    expected = {0.0: 0 if inside else 1, 100.0: 1 if inside else 2}.get(gap)
    expected = {200.0: 2 if inside else 3, 304.8: 3 if inside else -1}.get(gap, expected)
    assert bands.tolist() == [expected]


@pytest.mark.parametrize(("lines", "zero_band"), LINES)
def test_the_formula_before_the_split(lines: Lines, zero_band: bool) -> None:
    rng = np.random.default_rng(17)
    edges = np.asarray(lines) + EPSILON_MM
    cases = [
        (np.array([da]), np.array([db]), [da], [db])
        for da in (SMALL, ARMADA_SMALL)
        for db in (LARGE, SQUADRON)
    ]
    n = 700
    da, db = per_row_dims(rng, n)
    cases.append((np.array(da), np.array(db), da, db))
    for dims_a, dims_b, rows_a, rows_b in cases:
        a, b = random_rows(rng, n, 200.0)
        got, bands = run_kernel(a, b, dims_a, dims_b, lines, zero_band)
        old = [
            frozen_distance(a[i], rows_a[i % len(rows_a)], b[i], rows_b[i % len(rows_b)])
            for i in range(n)
        ]
        assert arrays_agree(got, old)
        away = off_the_lines(old, [0.0, *lines])
        frozen = np.array([frozen_band(d, edges, zero_band) for d in old])
        assert np.array_equal(bands[away], frozen[away])
        plain = np.empty(n)
        _kernels.distances(a, b, dims_a, dims_b, plain)
        assert arrays_agree(plain, old)


def test_more_edges_than_the_loop_compares_inline() -> None:
    rng = np.random.default_rng(18)
    lines = tuple(40.0 * k for k in range(1, _kernels.INLINE_EDGES + 4))
    a, b = random_rows(rng, 1500, 500.0)
    got, bands = run_kernel(a, b, np.array([SMALL]), np.array([LARGE]), lines, True)
    assert np.array_equal(bands, slow_bands(got, lines, True))
    assert set(bands.tolist()) == {-1, 0, *range(1, len(lines) + 1)}


@given(
    st.lists(
        st.tuples(
            st.floats(-150.0, 150.0),
            st.floats(-150.0, 150.0),
            st.floats(0.0, 360.0),
            st.floats(0.0, 360.0),
            st.sampled_from(range(len(BASES))),
            st.sampled_from(range(len(BASES))),
        ),
        min_size=1,
        max_size=20,
    )
)
def test_random_rows_equal_shapely(rows: list[tuple[float, float, float, float, int, int]]) -> None:
    a = np.array([[0.0, 0.0, r[2]] for r in rows])
    b = np.array([[r[0], r[1], r[3]] for r in rows])
    da, db = [BASES[r[4]] for r in rows], [BASES[r[5]] for r in rows]
    got, _ = run_kernel(a, b, np.array(da), np.array(db), LINES[0][0], True)
    expected = [slow_distance(a[i], da[i], b[i], db[i]) for i in range(len(rows))]
    assert arrays_agree(got, expected)
    if len(set(da)) == 1 and len(set(db)) == 1:
        one, _ = run_kernel(a, b, np.array(da[:1]), np.array(db[:1]), LINES[0][0], True)
        assert arrays_agree(one, got)
