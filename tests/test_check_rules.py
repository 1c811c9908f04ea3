"""``tabletop check`` rule by rule, at every placement line of both games.

Every expected number is worked out here by hand: catalog tokens are read from
``obstacles/data/*.json`` and turned with ``cos``/``sin`` (mirrored first when flipped, as
``scene-format.md`` says), so the vertex that reaches furthest toward an edge or toward
another token is known before the checker sees the scene. A token is then placed so that
this vertex sits exactly on a placement line, 0.01 mm beyond it, or 0.01 mm (1.0 mm,
1.01 mm) short of it, and the report is compared with those numbers (``rules.md``:
"more than" limits count a measurement on the line as too near; a violation is contested
when ``|measured - limit| <= 1.0``).
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from check_support import (
    AREAS,
    ARMADA_SHAPES,
    EDGE_LIMIT,
    MARKER,
    OFFSETS,
    SPACING_LIMIT,
    XWING1_SHAPES,
    XWING_SHAPES,
    Point,
    Shape,
    edge_reference,
    obstacle,
    rules_of,
    run_check,
    scene,
)

from tabletop.obstacles.legality import RULES

# -- obstacle-edge ----------------------------------------------------------------------

EDGE_CASES = [
    pytest.param(ruleset, area, shape, edge, id=f"{ruleset}-{area}-{shape.label}-{edge}")
    for ruleset, area, shapes, edges in [
        ("xwing2", "3x3ft", XWING_SHAPES, ("bottom", "top", "left", "right")),
        ("xwing1", "3x3ft", XWING1_SHAPES, ("bottom", "right")),
        ("armada", "3x3ft", ARMADA_SHAPES, ("bottom", "top", "left", "right")),
        # On 6' x 3' the short edges are behind the setup-area markers; the long ones count.
        ("armada", "6x3ft", ARMADA_SHAPES, ("bottom", "top")),
    ]
    for shape in shapes
    for edge in edges
]


@pytest.mark.parametrize("offset", list(OFFSETS))
@pytest.mark.parametrize(("ruleset", "area", "shape", "edge"), EDGE_CASES)
def test_obstacle_edge_line(
    ruleset: str, area: str, shape: Shape, edge: str, offset: float
) -> None:
    limit = EDGE_LIMIT[ruleset]
    at, vertex, axis = edge_reference(shape, edge, limit + offset, area)
    report = run_check(scene(ruleset, area, obstacles=[obstacle("rock", shape, at)]))
    broken, contested = OFFSETS[offset]
    found = rules_of(report, "obstacle-edge")
    if not broken:
        assert report.legal, [v.message for v in report.violations]
        return
    assert [v.objects for v in found] == [("rock",)], [v.message for v in report.violations]
    v = found[0]
    assert v.limit == limit
    assert v.distance == pytest.approx(limit + offset, abs=1e-9)
    if offset == 0.0:
        assert v.margin == 0.0  # exactly on the line: the shorter band, a violation
    else:
        assert v.margin == pytest.approx(offset, abs=1e-9)
    assert v.contested is contested
    assert v.points is not None
    width, height = AREAS[area]
    on_edge = {"bottom": 0.0, "top": height, "left": 0.0, "right": width}[edge]
    assert v.points[0][axis] == pytest.approx(vertex[axis], abs=1e-9)
    assert v.points[1][axis] == pytest.approx(on_edge, abs=1e-9)
    assert v.points[1][1 - axis] == pytest.approx(v.points[0][1 - axis], abs=1e-9)
    if shape.entry.get("token"):  # a single extreme vertex: the named point is exact
        assert v.points[0][1 - axis] == pytest.approx(vertex[1 - axis], abs=1e-9)
    assert f"{edge} edge" in v.message
    assert "rock" in v.message
    data = v.to_json()
    assert data["margin"] == round(offset, 6) + 0.0
    assert data["limit"] == limit
    assert data["distance"] == pytest.approx(limit + offset, abs=1e-6)
    assert data["fix"] is not None
    assert data["fix"]["object"] == "rock"


def test_obstacle_edge_floating_point_on_the_line() -> None:
    # rules.md: a token placed at 914.4 - 714.4 from an edge is exactly on the 200 line.
    # A 40 mm square with its top at 714.4 is 914.4 - 714.4 from the top edge.
    square = [[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]]
    report = run_check(
        scene("xwing2", "3x3ft", obstacles=[{"id": "s", "outline": square, "at": [457.2, 694.4]}])
    )
    (v,) = report.violations
    assert (v.rule, v.margin, v.contested) == ("obstacle-edge", 0.0, True)
    assert v.distance == pytest.approx(200.0, abs=1e-9)


def test_obstacle_edge_reports_each_edge_a_token_is_too_near() -> None:
    # A 40 mm square centred 210 mm from the bottom and left edges is 190 from both.
    square = [[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]]
    report = run_check(
        scene("xwing2", "3x3ft", obstacles=[{"id": "s", "outline": square, "at": [210.0, 210.0]}])
    )
    edges = sorted(v.message.split(" from the ")[1].split(" edge")[0] for v in report.violations)
    assert edges == ["bottom", "left"]
    assert all(v.margin == pytest.approx(-10.0) for v in report.violations)
    assert report.checked["obstacle-edge"] == 1


# -- obstacle-spacing -------------------------------------------------------------------


def spacing_scene(
    ruleset: str, area: str, a: Shape, b: Shape, gap: float, a_at: Point
) -> tuple[dict[str, Any], Point, Point]:
    """Place `b` right of `a` (at `a_at`) with their nearest vertices `gap` apart, level.

    A lies wholly left of its rightmost vertex and B wholly right of its leftmost one, so
    with both vertices at the same height the least distance is exactly `gap`. Returns
    the scene and the two vertices.
    """
    ax = max(x for x, _ in a.vertices)
    ay = next(y for x, y in a.vertices if x == ax)
    bx = min(x for x, _ in b.vertices)
    by = next(y for x, y in b.vertices if x == bx)
    va = (a_at[0] + ax, a_at[1] + ay)
    vb = (va[0] + gap, va[1])
    b_at = (vb[0] - bx, vb[1] - by)
    data = scene(ruleset, area, obstacles=[obstacle("first", a, a_at), obstacle("second", b, b_at)])
    return data, va, vb


SPACING_CASES = [
    pytest.param(ruleset, area, a, b, id=f"{ruleset}-{area}-{a.label}-{b.label}")
    for ruleset, area, a, b in [
        ("xwing2", "3x3ft", XWING_SHAPES[0], XWING_SHAPES[1]),
        ("xwing2", "3x3ft", XWING_SHAPES[2], XWING_SHAPES[4]),
        ("xwing2", "3x3ft", XWING_SHAPES[3], XWING_SHAPES[5]),
        ("xwing2", "3x3ft", XWING_SHAPES[6], XWING_SHAPES[7]),
        ("xwing2", "3x3ft", XWING_SHAPES[8], XWING_SHAPES[2]),
        ("xwing1", "3x3ft", XWING1_SHAPES[0], XWING1_SHAPES[1]),
        ("armada", "6x3ft", ARMADA_SHAPES[0], ARMADA_SHAPES[1]),
        ("armada", "6x3ft", ARMADA_SHAPES[2], ARMADA_SHAPES[3]),
        ("armada", "6x3ft", ARMADA_SHAPES[4], ARMADA_SHAPES[5]),
        ("armada", "6x3ft", ARMADA_SHAPES[6], ARMADA_SHAPES[8]),
        ("armada", "3x3ft", ARMADA_SHAPES[7], ARMADA_SHAPES[2]),
    ]
]


@pytest.mark.parametrize("offset", list(OFFSETS))
@pytest.mark.parametrize(("ruleset", "area", "a", "b"), SPACING_CASES)
def test_obstacle_spacing_line(ruleset: str, area: str, a: Shape, b: Shape, offset: float) -> None:
    limit = SPACING_LIMIT[ruleset]
    a_at = (330.0, 457.2) if area == "3x3ft" else (700.0, 457.2)
    data, va, vb = spacing_scene(ruleset, area, a, b, limit + offset, a_at)
    report = run_check(data)
    broken, contested = OFFSETS[offset]
    assert not rules_of(report, "obstacle-edge")
    assert report.checked["obstacle-spacing"] == 1
    if not broken:
        assert report.legal, [v.message for v in report.violations]
        return
    (v,) = report.violations
    assert v.rule == "obstacle-spacing"
    assert v.objects == ("first", "second")
    assert v.limit == limit
    assert v.distance == pytest.approx(limit + offset, abs=1e-9)
    if offset == 0.0:
        assert v.margin == 0.0
    else:
        assert v.margin == pytest.approx(offset, abs=1e-9)
    assert v.contested is contested
    assert v.points is not None
    assert v.points[0][0] == pytest.approx(va[0], abs=1e-9)
    assert v.points[1][0] == pytest.approx(vb[0], abs=1e-9)
    assert v.points[0][1] == pytest.approx(v.points[1][1], abs=1e-9)
    if "token" in a.entry:
        assert tuple(v.points[0]) == pytest.approx(va, abs=1e-9)
    data_json = v.to_json()
    assert data_json["margin"] == round(offset, 6) + 0.0
    assert data_json["fix"]["object"] == "first"
    assert "first" in v.message
    assert "second" in v.message


@pytest.mark.parametrize(("ruleset", "limit"), [("xwing2", 100.0), ("armada", 76.5)])
@pytest.mark.parametrize("offset", list(OFFSETS))
def test_obstacle_spacing_corner_to_corner(ruleset: str, limit: float, offset: float) -> None:
    # Two 40 mm squares, corner to corner along the diagonal: the gap is the distance
    # between the corners (d/√2 along each axis).
    square = [[0.0, 0.0], [40.0, 0.0], [40.0, 40.0], [0.0, 40.0]]
    gap = limit + offset
    step = 40.0 + gap / math.sqrt(2.0)
    area = "3x3ft" if ruleset != "armada" else "6x3ft"
    x0 = 300.0 if ruleset != "armada" else 800.0
    data = scene(
        ruleset,
        area,
        obstacles=[
            {"id": "a", "outline": square, "at": [x0, 300.0]},
            {"id": "b", "outline": square, "at": [x0 + step, 300.0 + step]},
        ],
    )
    report = run_check(data)
    broken, contested = OFFSETS[offset]
    if not broken:
        assert report.legal, [v.message for v in report.violations]
        return
    (v,) = report.violations
    assert v.rule == "obstacle-spacing"
    assert v.distance == pytest.approx(gap, abs=1e-9)
    assert v.margin == (0.0 if offset == 0.0 else pytest.approx(offset, abs=1e-9))
    assert v.contested is contested
    assert v.points is not None
    assert v.points.ravel().tolist() == pytest.approx(
        [x0 + 40.0, 340.0, x0 + step, 300.0 + step], abs=1e-9
    )


def test_obstacle_spacing_counts_pairs_and_lists_each_pair() -> None:
    # Three 40 mm squares in a row, 50 mm apart: a-b and b-c too near, a-c 140 apart.
    square = [[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]]
    data = scene(
        "xwing2",
        "3x3ft",
        obstacles=[
            {"id": "a", "outline": square, "at": [300.0, 457.2]},
            {"id": "b", "outline": square, "at": [390.0, 457.2]},
            {"id": "c", "outline": square, "at": [480.0, 457.2]},
        ],
    )
    report = run_check(data)
    assert report.checked["obstacle-spacing"] == 3
    assert report.checked["obstacle-edge"] == 3
    assert [(v.rule, v.objects) for v in report.violations] == [
        ("obstacle-spacing", ("a", "b")),
        ("obstacle-spacing", ("b", "c")),
    ]
    assert all(v.distance == pytest.approx(50.0) for v in report.violations)


# -- obstacle-setup-area (Armada) -------------------------------------------------------

SETUP_AREA_SHAPES = [ARMADA_SHAPES[i] for i in (0, 1, 2, 3, 6, 7, 8)]


@pytest.mark.parametrize("area", ["6x3ft", "180x90cm"])
@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("shape", SETUP_AREA_SHAPES, ids=repr)
@pytest.mark.parametrize("offset", [0.01, 0.0, -0.01, -5.0])
def test_obstacle_setup_area_markers(shape: Shape, side: str, area: str, offset: float) -> None:
    # `offset` > 0 is inside the setup area. The token lies entirely in the setup area
    # (a closed region: rules.md "entirely in the setup area", armada.md 1.2 "entirely
    # within") when its extreme vertex is on the marker line or inside it; 0.01 mm past
    # the marker it is not, by that distance.
    width, height = AREAS[area]
    xs = [x for x, _ in shape.vertices]
    if side == "left":
        at = (MARKER + offset - min(xs), height / 2)
    else:
        at = (width - MARKER - offset - max(xs), height / 2)
    report = run_check(scene("armada", area, obstacles=[obstacle("rock", shape, at)]))
    assert report.checked["obstacle-setup-area"] == 1
    if offset >= 0.0:
        assert report.legal, [v.message for v in report.violations]
        return
    (v,) = report.violations  # 304.8 mm from the short edge is beyond distance 3 (185)
    assert v.rule == "obstacle-setup-area"
    assert v.objects == ("rock",)
    # How far over the marker line: the offset, against the line 0, contested within 1 mm.
    assert v.distance == pytest.approx(-offset, abs=1e-9)
    assert v.limit == 0.0
    assert v.margin == pytest.approx(offset, abs=1e-9)
    assert v.contested is (-offset <= 1.0)
    assert v.points is not None
    assert v.points[1][0] == pytest.approx(MARKER if side == "left" else width - MARKER)
    assert f"{MARKER:g}" in v.message
    assert f"{width - MARKER:g}" in v.message
    data = v.to_json()
    assert data["fix"] is not None
    dx, dy = data["fix"]["move"]
    assert dy == 0.0
    assert -offset <= abs(dx) <= -offset + 0.005  # just past the marker
    assert (dx > 0) == (side == "left")


def test_obstacle_setup_area_is_the_whole_3x3_area() -> None:
    # On a 3' x 3' area the setup area is the whole play area: 185.01 mm from the left
    # edge is legal, although that is far outside the 6' x 3' markers.
    shape = ARMADA_SHAPES[0]
    at, _, _ = edge_reference(shape, "left", 185.01, "3x3ft")
    report = run_check(scene("armada", "3x3ft", obstacles=[obstacle("rock", shape, at)]))
    assert report.legal
    assert report.checked["obstacle-setup-area"] == 1
    # Hanging 5 mm over the left edge: outside the (whole-area) setup area too.
    at, _, _ = edge_reference(shape, "left", -5.0, "3x3ft")
    report = run_check(scene("armada", "3x3ft", obstacles=[obstacle("rock", shape, at)]))
    assert [v.rule for v in report.violations] == [
        "obstacle-edge",
        "obstacle-setup-area",
        "outside-play-area",
    ]


def test_obstacle_setup_area_not_checked_for_xwing() -> None:
    report = run_check(scene("xwing2", "3x3ft", obstacles=[]))
    assert "obstacle-setup-area" not in report.checked


# -- phase ------------------------------------------------------------------------------


def broken_setup(phase: str) -> dict[str, Any]:
    """A scene breaking every setup rule, plus an overlap and a ship off the table."""
    square = [[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]]
    return scene(
        "xwing2",
        "3x3ft",
        phase=phase,
        format="tournament",
        obstacles=[
            {"id": "o1", "outline": square, "at": [150.0, 457.2]},
            {"id": "o2", "token": "loosecargo", "at": [230.0, 457.2], "player": 1},
        ],
        ships=[
            {"id": "far", "base": "small", "at": [457.2, 457.2]},
            {"id": "x", "base": "small", "at": [600.0, 600.0]},
            {"id": "y", "base": "small", "at": [620.0, 600.0]},
            {"id": "gone", "base": "small", "at": [-50.0, 600.0]},
        ],
    )


def test_phase_play_turns_setup_rules_off() -> None:
    setup = run_check(broken_setup("setup"))
    rules = {v.rule for v in setup.violations}
    assert rules == {
        "obstacle-edge",
        "obstacle-spacing",
        "obstacle-composition",
        "ship-deployment",
        "ship-overlap",
        "outside-play-area",
    }
    play = run_check(broken_setup("play"))
    assert [(v.rule, v.objects) for v in play.violations] == [
        ("ship-overlap", ("x", "y")),
        ("outside-play-area", ("gone",)),
    ]
    assert set(play.checked) == {"ship-overlap", "outside-play-area"}
    assert play.checked == {"ship-overlap": 6, "outside-play-area": 6}


def test_violations_come_in_rule_order() -> None:
    report = run_check(broken_setup("setup"))
    order = [RULES.index(v.rule) for v in report.violations]
    assert order == sorted(order)
