"""Band boundary tables for both games: ranges, distances, contested lines, range 0.

Two bases are laid out so that the gap between them is known by hand: base A sits with a
flat side facing +x, base B is turned by the test rotation about its own centre and
slid so that its nearest feature (an edge midpoint at 0° and 90°, a corner at 30° and
45°) touches the line ``y = 0`` exactly `gap` mm from A's side. Every point of B then
lies at least `gap` mm further along +x than every point of A, and the two named points
are `gap` apart, so the distance is exactly `gap`. The whole pair is then rotated by the
same angle and moved to the middle of the table, which keeps the distance.

Expected bands come from ``rules.md``: band k holds ``d <= D_k`` (a distance exactly on
a line is the shorter band), contested within 1.0 mm of a band line, X-Wing range 0 only
in ``xwing2`` (``xwing1`` counts touching as range 1).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from agreement import AGREEMENT_MM

from tabletop.geom.areas import play_area
from tabletop.geom.measure import band_report, closest_points, contested, line_band, line_bands
from tabletop.geom.objects import Ship
from tabletop.geom.rulesets import Ruleset, get_ruleset
from tabletop.obstacles.measuring import measure
from tabletop.obstacles.scene import Scene

#: Base sizes from rules.md, (width, length) in mm; a squadron is a disk of diameter 31.
XWING_SIZES: dict[str, tuple[float, float]] = {
    "small": (40.0, 40.0),
    "medium": (60.0, 60.0),
    "large": (80.0, 80.0),
    "huge": (80.0, 225.0),
    "huge-short": (80.0, 195.0),
}
ARMADA_SIZES: dict[str, tuple[float, float]] = {
    "small": (43.0, 71.0),
    "medium": (63.0, 102.0),
    "large": (77.5, 129.0),
    "huge": (77.5, 351.4),
}
SQUADRON_RADIUS = 15.5
ROTATIONS = (0.0, 30.0, 45.0, 90.0)
TABLE_CENTRE = (457.2, 457.2)


def xwing_contested(ruleset_name: str, gap: float, near_a_band_line: bool) -> bool:
    """Contested: near a band line, or (2.0, where touching is range 0) within 1 mm of 0."""
    return near_a_band_line or (ruleset_name == "xwing2" and gap <= 1.0)


# X-Wing: (distance, xwing2 range, xwing1 range, contested). Lines 100 … 500; the last
# column is "within 1 mm of a band line 100..500" (range 0's line, touching, is added by
# xwing_contested for 2.0).
XWING_ROWS: list[tuple[float, int | None, int | None, bool]] = [
    (-5.0, 0, 1, False),  # overlapping by 5 mm: distance 0
    (0.0, 0, 1, False),  # touching: range 0 in 2.0, range 1 in 1st edition
    (0.01, 1, 1, False),
    (50.0, 1, 1, False),
    (98.99, 1, 1, False),
    (99.0, 1, 1, True),
    (99.99, 1, 1, True),
    (100.0, 1, 1, True),
    (100.01, 2, 2, True),
    (101.0, 2, 2, True),
    (101.01, 2, 2, False),
    (198.99, 2, 2, False),
    (199.0, 2, 2, True),
    (199.99, 2, 2, True),
    (200.0, 2, 2, True),
    (200.01, 3, 3, True),
    (201.0, 3, 3, True),
    (201.01, 3, 3, False),
    (298.99, 3, 3, False),
    (299.0, 3, 3, True),
    (299.99, 3, 3, True),
    (300.0, 3, 3, True),
    (300.01, 4, 4, True),
    (301.0, 4, 4, True),
    (301.01, 4, 4, False),
    (398.99, 4, 4, False),
    (399.0, 4, 4, True),
    (399.99, 4, 4, True),
    (400.0, 4, 4, True),
    (400.01, 5, 5, True),
    (401.0, 5, 5, True),
    (401.01, 5, 5, False),
    (498.99, 5, 5, False),
    (499.0, 5, 5, True),
    (499.99, 5, 5, True),
    (500.0, 5, 5, True),
    (500.01, None, None, True),
    (501.0, None, None, True),
    (501.01, None, None, False),
    (650.0, None, None, False),
]

# Armada: (distance, distance band, range band, contested). Distance lines 76.5, 124.5,
# 185.0, 245.0, 304.8; range lines close 123.5, medium 187.0, long 304.8. Every one of
# them is a contested line; 123.5 and 124.5 are 1.0 apart, 185.0 and 187.0 are 2.0 apart.
ARMADA_ROWS: list[tuple[float, int | None, str | None, bool]] = [
    (-5.0, 1, "close", False),  # overlapping: distance 0, no distance or range 0
    (0.0, 1, "close", False),
    (50.0, 1, "close", False),
    (75.49, 1, "close", False),
    (75.5, 1, "close", True),
    (76.49, 1, "close", True),
    (76.5, 1, "close", True),
    (76.51, 2, "close", True),
    (77.5, 2, "close", True),
    (77.51, 2, "close", False),
    (100.0, 2, "close", False),
    (122.49, 2, "close", False),
    (122.5, 2, "close", True),
    (123.49, 2, "close", True),
    (123.5, 2, "close", True),
    (123.51, 2, "medium", True),
    (124.49, 2, "medium", True),
    (124.5, 2, "medium", True),
    (124.51, 3, "medium", True),
    (125.5, 3, "medium", True),
    (125.51, 3, "medium", False),
    (150.0, 3, "medium", False),
    (183.99, 3, "medium", False),
    (184.0, 3, "medium", True),
    (184.99, 3, "medium", True),
    (185.0, 3, "medium", True),
    (185.01, 4, "medium", True),
    (186.0, 4, "medium", True),  # 1.0 beyond 185 and 1.0 short of 187
    (186.99, 4, "medium", True),
    (187.0, 4, "medium", True),
    (187.01, 4, "long", True),
    (188.0, 4, "long", True),
    (188.01, 4, "long", False),
    (243.99, 4, "long", False),
    (244.0, 4, "long", True),
    (244.99, 4, "long", True),
    (245.0, 4, "long", True),
    (245.01, 5, "long", True),
    (246.0, 5, "long", True),
    (246.01, 5, "long", False),
    (303.79, 5, "long", False),
    (303.8, 5, "long", True),
    (304.79, 5, "long", True),
    (304.8, 5, "long", True),
    (304.81, None, None, True),
    (305.8, None, None, True),
    (305.81, None, None, False),
    (400.0, None, None, False),
]
RANGE_INDEX: dict[str | None, int | None] = {"close": 1, "medium": 2, "long": 3, None: None}


# -- the layout, worked out without the kernel -----------------------------------------


def _offsets(size: tuple[float, float], heading: float) -> list[tuple[float, float]]:
    """Corner offsets from the centre of a rectangular base at `heading`."""
    width, length = size
    h = math.radians(heading)
    right = (math.sin(h), -math.cos(h))
    forward = (math.cos(h), math.sin(h))
    return [
        (
            sx * width / 2 * right[0] + sy * length / 2 * forward[0],
            sx * width / 2 * right[1] + sy * length / 2 * forward[1],
        )
        for sx in (-1.0, 1.0)
        for sy in (-1.0, 1.0)
    ]


def _extreme(size: tuple[float, float] | None, heading: float, sign: float) -> tuple[float, float]:
    """The offset of the base's outermost point along ``sign * x`` (an edge: its midpoint)."""
    if size is None:
        return (sign * SQUADRON_RADIUS, 0.0)
    corners = _offsets(size, heading)
    best = max(sign * x for x, _ in corners)
    chosen = [(x, y) for x, y in corners if sign * x > best - 1e-9]
    return (sum(x for x, _ in chosen) / len(chosen), sum(y for _, y in chosen) / len(chosen))


def _rotate(x: float, y: float, degrees: float) -> tuple[float, float]:
    t = math.radians(degrees)
    return (x * math.cos(t) - y * math.sin(t), x * math.sin(t) + y * math.cos(t))


def pair(
    base_a: str,
    size_a: tuple[float, float] | None,
    base_b: str,
    size_b: tuple[float, float] | None,
    gap: float,
    rotation: float,
) -> tuple[Ship, Ship]:
    """Two ships whose distance is `gap` (0 when negative: they overlap by ``-gap``)."""
    heading_a, heading_b = 90.0, 90.0 + rotation
    ax, ay = _extreme(size_a, heading_a, +1.0)
    bx, by = _extreme(size_b, heading_b, -1.0)
    centre_b = (ax + gap - bx, ay - by)
    poses = []
    for (x, y), heading in (((0.0, 0.0), heading_a), (centre_b, heading_b)):
        rx, ry = _rotate(x, y, rotation)
        poses.append((rx + TABLE_CENTRE[0], ry + TABLE_CENTRE[1], heading + rotation))
    (xa, ya, ha), (xb, yb, hb) = poses
    return Ship("a", base_a, xa, ya, ha), Ship("b", base_b, xb, yb, hb)


def measured(ruleset: Ruleset, a: Ship, b: Ship) -> tuple[float, np.ndarray]:
    ga, ra = a.measured_shape(ruleset)
    gb, rb = b.measured_shape(ruleset)
    d, points = closest_points(ga, gb, ra, rb)
    return float(d), points


# -- X-Wing ---------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset_name", ["xwing2", "xwing1"])
@pytest.mark.parametrize("base", list(XWING_SIZES))
@pytest.mark.parametrize("rotation", ROTATIONS)
@pytest.mark.parametrize(("gap", "range2", "range1", "is_contested"), XWING_ROWS)
def test_xwing_range_boundaries(
    ruleset_name: str,
    base: str,
    rotation: float,
    gap: float,
    range2: int | None,
    range1: int | None,
    is_contested: bool,
) -> None:
    ruleset = get_ruleset(ruleset_name)
    size = XWING_SIZES[base]
    a, b = pair(base, size, base, size, gap, rotation)
    d, points = measured(ruleset, a, b)
    assert d == pytest.approx(max(gap, 0.0), abs=1e-9)
    assert float(np.linalg.norm(points[1] - points[0])) == pytest.approx(d, abs=AGREEMENT_MM)
    expected = range2 if ruleset_name == "xwing2" else range1
    assert line_band(d, ruleset.xwing_range_bands, zero_band=ruleset.range_zero) == expected
    report = band_report(d, ruleset.xwing_range_bands, zero_band=ruleset.range_zero, within=1.0)
    assert report.band == expected
    assert report.contested is xwing_contested(ruleset_name, gap, is_contested)


@pytest.mark.parametrize("base_b", list(XWING_SIZES))
@pytest.mark.parametrize("base_a", list(XWING_SIZES))
@pytest.mark.parametrize("rotation", ROTATIONS)
@pytest.mark.parametrize(("gap", "expected"), [(99.99, 1), (100.0, 1), (100.01, 2)])
def test_xwing_range_between_different_bases(
    base_a: str, base_b: str, rotation: float, gap: float, expected: int
) -> None:
    ruleset = get_ruleset("xwing2")
    a, b = pair(base_a, XWING_SIZES[base_a], base_b, XWING_SIZES[base_b], gap, rotation)
    d, _ = measured(ruleset, a, b)
    assert d == pytest.approx(gap, abs=1e-9)
    assert line_band(d, ruleset.xwing_range_bands, zero_band=True) == expected


def test_xwing_range_zero_only_in_second_edition() -> None:
    xw2, xw1 = get_ruleset("xwing2"), get_ruleset("xwing1")
    assert xw2.range_zero is True
    assert xw1.range_zero is False
    assert line_bands([0.0, 1e-7, 0.5], xw2.xwing_range_bands, zero_band=True).tolist() == [0, 0, 1]
    assert line_bands([0.0, 1e-7, 0.5], xw1.xwing_range_bands, zero_band=False).tolist() == [
        1,
        1,
        1,
    ]


def test_range_bands_vectorised_match_the_table() -> None:
    lines = get_ruleset("xwing2").xwing_range_bands
    gaps = np.array([max(row[0], 0.0) for row in XWING_ROWS])
    got = line_bands(gaps, lines, zero_band=True).tolist()
    assert got == [-1 if row[1] is None else row[1] for row in XWING_ROWS]


# -- Armada ---------------------------------------------------------------------------


def _armada_check(
    ruleset: Ruleset, d: float, dist_band: int | None, range_band: str | None, is_contested: bool
) -> None:
    assert line_band(d, ruleset.armada_distance_bands) == dist_band
    assert line_band(d, ruleset.armada_range_bands) == RANGE_INDEX[range_band]
    assert contested(d, ruleset.band_lines, within=ruleset.contested_within) is is_contested


@pytest.mark.parametrize("base", [*ARMADA_SIZES, "squadron"])
@pytest.mark.parametrize("rotation", ROTATIONS)
@pytest.mark.parametrize(("gap", "dist_band", "range_band", "is_contested"), ARMADA_ROWS)
def test_armada_distance_and_range_boundaries(
    base: str,
    rotation: float,
    gap: float,
    dist_band: int | None,
    range_band: str | None,
    is_contested: bool,
) -> None:
    ruleset = get_ruleset("armada")
    size = ARMADA_SIZES.get(base)
    a, b = pair(base, size, base, size, gap, rotation)
    d, points = measured(ruleset, a, b)
    assert d == pytest.approx(max(gap, 0.0), abs=1e-9)
    assert float(np.linalg.norm(points[1] - points[0])) == pytest.approx(d, abs=AGREEMENT_MM)
    _armada_check(ruleset, d, dist_band, range_band, is_contested)


@pytest.mark.parametrize("base", list(ARMADA_SIZES))
@pytest.mark.parametrize("rotation", ROTATIONS)
@pytest.mark.parametrize("squadron_first", [True, False])
@pytest.mark.parametrize(
    ("gap", "dist_band", "range_band"),
    [
        (76.49, 1, "close"),
        (76.5, 1, "close"),
        (76.51, 2, "close"),
        (187.0, 4, "medium"),
        (187.01, 4, "long"),
        (304.8, 5, "long"),
        (304.81, None, None),
    ],
)
def test_armada_squadron_to_ship_boundaries(
    base: str,
    rotation: float,
    squadron_first: bool,
    gap: float,
    dist_band: int | None,
    range_band: str | None,
) -> None:
    ruleset = get_ruleset("armada")
    if squadron_first:
        a, b = pair("squadron", None, base, ARMADA_SIZES[base], gap, rotation)
    else:
        a, b = pair(base, ARMADA_SIZES[base], "squadron", None, gap, rotation)
    d, _ = measured(ruleset, a, b)
    assert d == pytest.approx(gap, abs=1e-9)
    _armada_check(ruleset, d, dist_band, range_band, True)


def test_armada_band_lines_are_every_distance_and_range_line() -> None:
    ruleset = get_ruleset("armada")
    assert ruleset.armada_distance_bands == (76.5, 124.5, 185.0, 245.0, 304.8)
    assert ruleset.armada_range_bands == (123.5, 187.0, 304.8)
    assert ruleset.band_lines == (76.5, 123.5, 124.5, 185.0, 187.0, 245.0, 304.8)
    assert get_ruleset("xwing2").band_lines == (100.0, 200.0, 300.0, 400.0, 500.0)


# -- band helpers on plain numbers ----------------------------------------------------


@pytest.mark.parametrize(
    ("d", "expected"),
    [(914.4 - 714.4, 2), (200.0 + 1e-7, 2), (200.0 + 2e-6, 3), (200.0 - 1e-7, 2)],
)
def test_lengths_within_a_micrometre_are_equal(d: float, expected: int) -> None:
    # rules.md: 914.4 − 714.4 from an edge is exactly on the 200 line.
    assert line_band(d, (100.0, 200.0, 300.0, 400.0, 500.0)) == expected


@pytest.mark.parametrize(
    ("d", "line", "margin", "is_contested"),
    [
        (0.0, 100.0, 100.0, True),  # touching is range 0's line (zero_band)
        (1.0, 100.0, 99.0, True),
        (1.01, 100.0, 98.99, False),
        (99.0, 100.0, 1.0, True),
        (100.0, 100.0, 0.0, True),
        (149.0, 100.0, -49.0, False),
        (151.0, 200.0, 49.0, False),
        (501.0, 500.0, -1.0, True),
        (620.0, 500.0, -120.0, False),
    ],
)
def test_band_report_nearest_line_and_margin(
    d: float, line: float, margin: float, is_contested: bool
) -> None:
    report = band_report(d, (100.0, 200.0, 300.0, 400.0, 500.0), zero_band=True)
    assert report.nearest_line == line
    assert report.margin == pytest.approx(margin, abs=1e-9)
    assert report.contested is is_contested


def test_contested_within_is_a_ruleset_constant() -> None:
    wide = get_ruleset("xwing2", {"contested_within": 2.0})
    assert contested(98.0, wide.band_lines, within=wide.contested_within)
    assert not contested(97.99, wide.band_lines, within=wide.contested_within)


# -- through the measurement layer ----------------------------------------------------


@pytest.mark.parametrize("rotation", [30.0, 45.0])
@pytest.mark.parametrize(("gap", "range2", "range1", "is_contested"), XWING_ROWS[::3])
@pytest.mark.parametrize("ruleset_name", ["xwing2", "xwing1"])
def test_measure_reports_the_xwing_band(
    rotation: float,
    gap: float,
    range2: int | None,
    range1: int | None,
    is_contested: bool,
    ruleset_name: str,
) -> None:
    ruleset = get_ruleset(ruleset_name)
    size = XWING_SIZES["medium"]
    a, b = pair("medium", size, "medium", size, gap, rotation)
    m = measure(Scene(ruleset, play_area("3x3ft"), ships=(a, b)), "a", "b")
    assert m.distance == pytest.approx(max(gap, 0.0), abs=1e-9)
    assert m.band == (range2 if ruleset_name == "xwing2" else range1)
    assert m.contested is xwing_contested(ruleset_name, gap, is_contested)


@pytest.mark.parametrize("base", ["large", "squadron"])
@pytest.mark.parametrize(("gap", "dist_band", "range_band", "is_contested"), ARMADA_ROWS[::2])
def test_measure_reports_the_armada_bands(
    base: str, gap: float, dist_band: int | None, range_band: str | None, is_contested: bool
) -> None:
    ruleset = get_ruleset("armada")
    size = ARMADA_SIZES.get(base)
    a, b = pair(base, size, base, size, gap, 30.0)
    m = measure(Scene(ruleset, play_area("6x3ft"), ships=(a, b)), "a", "b")
    assert m.distance == pytest.approx(max(gap, 0.0), abs=1e-9)
    assert m.band is None
    assert m.distance_band == dist_band
    assert m.range_band == range_band
    assert m.contested is is_contested
