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

import json
import math
from pathlib import Path
from typing import Any

import pytest
from common import json_scene_file
from common import run as run_cli

from tabletop.app.datatext import toml_text
from tabletop.app.scenefile import parse_scene
from tabletop.obstacles.legality import RULES, CheckReport, Violation, check

DATA = Path(__file__).resolve().parent.parent / "tabletop" / "obstacles" / "data"

#: Play areas, width × height in mm (``scene-format.md``).
AREAS: dict[str, tuple[float, float]] = {
    "3x3ft": (914.4, 914.4),
    "6x3ft": (1828.8, 914.4),
    "180x90cm": (1800.0, 900.0),
}
#: Placement limits of ``rules.md``: X-Wing range 2 / range 1, Armada distance 3 / 1.
EDGE_LIMIT = {"xwing2": 200.0, "xwing1": 200.0, "armada": 185.0}
SPACING_LIMIT = {"xwing2": 100.0, "xwing1": 100.0, "armada": 76.5}
#: The Armada setup-area markers sit one range-ruler length from each short edge.
MARKER = 304.8

Point = tuple[float, float]


def _outlines(filename: str) -> dict[str, list[Point]]:
    raw = json.loads((DATA / filename).read_text("utf-8"))
    return {t["name"]: [(float(x), float(y)) for x, y in t["outline"]] for t in raw["tokens"]}


OUTLINES: dict[str, dict[str, list[Point]]] = {
    "xwing": _outlines("xwing-obstacles.json"),
    "armada": _outlines("armada-obstacles.json"),
}


def game(ruleset: str) -> str:
    return "armada" if ruleset == "armada" else "xwing"


def turned(outline: list[Point], angle: float, flipped: bool) -> list[Point]:
    """Return a token frame outline mirrored (x -> -x) if flipped, then turned by `angle`."""
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    out = []
    for x, y in outline:
        if flipped:
            x = -x
        out.append((x * c - y * s, x * s + y * c))
    return out


# -- shapes: what goes into a scene entry, and the turned vertices it has ---------------

SQUARE = [[-30.0, -30.0], [30.0, -30.0], [30.0, 30.0], [-30.0, 30.0]]
TRIANGLE = [[-20.0, -10.0], [20.0, -10.0], [0.0, 25.0]]


class Shape:
    """An obstacle entry without its position, and its turned vertices (token frame)."""

    def __init__(self, label: str, entry: dict[str, Any], vertices: list[Point]) -> None:
        self.label = label
        self.entry = entry
        self.vertices = vertices

    def __repr__(self) -> str:
        return self.label


def token_shape(ruleset: str, token: str, angle: float, flipped: bool) -> Shape:
    vertices = turned(OUTLINES[game(ruleset)][token], angle, flipped)
    entry = {"token": token, "angle": angle, "flipped": flipped}
    return Shape(f"{token}@{angle:g}{'-flipped' if flipped else ''}", entry, vertices)


def custom_shape(label: str, outline: list[list[float]], angle: float, flipped: bool) -> Shape:
    # Extents by hand: the square reaches 30 every way at 0°. The triangle turned 180°
    # has vertices (20, 10), (-20, 10), (0, -25); flipped then turned 90° it has
    # (10, 20), (10, -20), (-25, 0).
    hand: dict[str, list[Point]] = {
        "square": [(-30.0, -30.0), (30.0, -30.0), (30.0, 30.0), (-30.0, 30.0)],
        "triangle@180": [(20.0, 10.0), (-20.0, 10.0), (0.0, -25.0)],
        "triangle@90-flipped": [(10.0, 20.0), (10.0, -20.0), (-25.0, 0.0)],
    }
    entry = {"outline": outline, "kind": "asteroid", "angle": angle, "flipped": flipped}
    return Shape(label, entry, hand[label])


XWING_SHAPES = [
    token_shape("xwing2", "coreasteroid0", 0.0, False),
    token_shape("xwing2", "core2asteroid5", 37.5, True),
    token_shape("xwing2", "yt2400debris1", 200.0, True),
    token_shape("xwing2", "gascloud2", 123.4, False),
    token_shape("xwing2", "pomdebris3", 301.0, True),
    token_shape("xwing2", "vt49decimatordebris0", 45.0, False),
    custom_shape("square", SQUARE, 0.0, False),
    custom_shape("triangle@180", TRIANGLE, 180.0, False),
    custom_shape("triangle@90-flipped", TRIANGLE, 90.0, True),
]
XWING1_SHAPES = [
    token_shape("xwing1", "coreasteroid3", 300.0, False),
    token_shape("xwing1", "yt2400debris2", 15.5, True),
]
ARMADA_SHAPES = [
    token_shape("armada", "asteroid-1", 30.0, False),
    token_shape("armada", "debris-3", 145.0, True),
    token_shape("armada", "station", 77.0, False),
    token_shape("armada", "asteroid-5", 250.5, True),
    token_shape("armada", "debris-2", 0.0, False),
    token_shape("armada", "asteroid-4", 200.0, True),
    custom_shape("square", SQUARE, 0.0, False),
    custom_shape("triangle@180", TRIANGLE, 180.0, False),
    custom_shape("triangle@90-flipped", TRIANGLE, 90.0, True),
]

#: (offset past the line, toward legal, mm) -> (violation?, contested?)
OFFSETS: dict[float, tuple[bool, bool]] = {
    0.01: (False, False),
    0.0: (True, True),
    -0.01: (True, True),
    -1.0: (True, True),
    -1.01: (True, False),
}


# -- helpers ----------------------------------------------------------------------------


def obstacle(ident: str, shape: Shape, at: Point, **extra: Any) -> dict[str, Any]:
    return {"id": ident, **shape.entry, "at": [at[0], at[1]], **extra}


def scene(ruleset: str, area: str, **parts: Any) -> dict[str, Any]:
    return {"ruleset": ruleset, "area": area, **parts}


def run_check(data: dict[str, Any], *, fixes: bool = True) -> CheckReport:
    return check(parse_scene(data), fixes=fixes)


def rules_of(report: CheckReport, rule: str) -> list[Violation]:
    return [v for v in report.violations if v.rule == rule]


def edge_reference(shape: Shape, edge: str, gap: float, area: str) -> tuple[Point, Point, int]:
    """Place `shape` so that its furthest vertex toward `edge` is `gap` mm from it.

    Returns the reference point, that vertex in world coordinates, and the axis (0: x,
    1: y) the distance runs along. The other coordinate is the middle of the table.
    """
    width, height = AREAS[area]
    xs = [x for x, _ in shape.vertices]
    ys = [y for _, y in shape.vertices]
    if edge == "bottom":
        at = (width / 2, gap - min(ys))
        return at, (at[0] + shape.vertices[ys.index(min(ys))][0], gap), 1
    if edge == "top":
        at = (width / 2, height - gap - max(ys))
        return at, (at[0] + shape.vertices[ys.index(max(ys))][0], height - gap), 1
    if edge == "left":
        at = (gap - min(xs), height / 2)
        return at, (gap, at[1] + shape.vertices[xs.index(min(xs))][1]), 0
    at = (width - gap - max(xs), height / 2)
    return at, (width - gap, at[1] + shape.vertices[xs.index(max(xs))][1]), 0


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


# -- ship-deployment --------------------------------------------------------------------


def reach(half_w: float, half_l: float, heading: float) -> float:
    """How far a base's farthest point is from its centre along y, by hand."""
    t = math.radians(heading)
    return abs(half_l * math.sin(t)) + abs(half_w * math.cos(t))


XWING_DEPLOY = [
    ("small", 20.0, 20.0, 90.0),
    ("small", 20.0, 20.0, 45.0),
    ("medium", 30.0, 30.0, 30.0),
    ("large", 40.0, 40.0, 75.0),
]


@pytest.mark.parametrize("player", [1, 2])
@pytest.mark.parametrize(("base", "half_w", "half_l", "heading"), XWING_DEPLOY)
@pytest.mark.parametrize("ruleset", ["xwing2", "xwing1"])
@pytest.mark.parametrize("offset", [0.0, -0.01, 0.01, 1.0, 1.01])
def test_xwing_deployment_line(
    ruleset: str,
    base: str,
    half_w: float,
    half_l: float,
    heading: float,
    player: int,
    offset: float,
) -> None:
    # The farthest point of the base (no guides) is 100 + offset from the player's edge;
    # exactly 100 is legal, margin = 100 - distance.
    height = AREAS["3x3ft"][1]
    r = reach(half_w, half_l, heading)
    far = 100.0 + offset
    y = far - r if player == 1 else height - far + r
    ship = {"id": "s", "base": base, "at": [457.2, y], "heading": heading, "player": player}
    if player == 2:
        ship["heading"] = heading + 180.0
    report = run_check(scene(ruleset, "3x3ft", ships=[ship]))
    assert report.checked["ship-deployment"] == 1
    if offset <= 0.0:
        assert report.legal, [v.message for v in report.violations]
        return
    (v,) = report.violations
    assert (v.rule, v.objects, v.limit) == ("ship-deployment", ("s",), 100.0)
    assert v.distance == pytest.approx(far, abs=1e-9)
    assert v.margin == pytest.approx(-offset, abs=1e-9)
    assert v.contested is (offset <= 1.0)
    assert v.points is not None
    edge_y = 0.0 if player == 1 else height
    assert v.points[1][1] == edge_y
    assert abs(v.points[0][1] - edge_y) == pytest.approx(far, abs=1e-9)
    assert f"player {player}" in v.message
    assert "fix" not in v.to_json()


def test_xwing_deployment_ignores_guides() -> None:
    # A small ship facing its opponent with its front edge at exactly 100: the guides
    # stick out to 101.6 but do not count for deployment.
    report = run_check(
        scene("xwing2", "3x3ft", ships=[{"id": "s", "base": "small", "at": [400, 80]}])
    )
    assert report.legal


ARMADA_DEPLOY = [
    ("small", 21.5, 35.5, 90.0),
    ("medium", 31.5, 51.0, 90.0),
    ("large", 38.75, 64.5, 60.0),
    ("small", 21.5, 35.5, 0.0),
]


@pytest.mark.parametrize("player", [1, 2])
@pytest.mark.parametrize(("base", "half_w", "half_l", "heading"), ARMADA_DEPLOY)
@pytest.mark.parametrize("offset", [0.0, -0.01, 0.01, 1.01])
def test_armada_deployment_line(
    base: str, half_w: float, half_l: float, heading: float, player: int, offset: float
) -> None:
    # The whole base within distance 3 (185) of the player's long edge.
    height = AREAS["6x3ft"][1]
    r = reach(half_w, half_l, heading)
    far = 185.0 + offset
    y = far - r if player == 1 else height - far + r
    ship = {"id": "s", "base": base, "at": [914.4, y], "heading": heading, "player": player}
    report = run_check(scene("armada", "6x3ft", ships=[ship]))
    if offset <= 0.0:
        assert report.legal, [v.message for v in report.violations]
        return
    (v,) = report.violations
    assert (v.rule, v.limit) == ("ship-deployment", 185.0)
    assert v.distance == pytest.approx(far, abs=1e-9)
    assert v.margin == pytest.approx(-offset, abs=1e-9)
    assert v.contested is (offset <= 1.0)
    assert "distance 3" in v.message


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("offset", [0.0, 0.01, -0.01])
def test_armada_deployment_inside_setup_area(side: str, offset: float) -> None:
    # A small base (43 wide) at heading 90 with its side on the marker (offset 0), inside
    # by 0.01, or 0.01 past it: only the last breaks deployment, by 0.01 mm.
    x = MARKER + offset + 21.5 if side == "left" else 1828.8 - MARKER - offset - 21.5
    ship = {"id": "s", "base": "small", "at": [x, 100.0], "heading": 90}
    report = run_check(scene("armada", "6x3ft", ships=[ship]))
    if offset >= 0.0:
        assert report.legal, [v.message for v in report.violations]
        return
    (v,) = report.violations
    assert v.rule == "ship-deployment"
    # 0.01 mm over the marker line (limit 0): a contested call.
    assert v.distance == pytest.approx(0.01, abs=1e-9)
    assert v.limit == 0.0
    assert v.margin == pytest.approx(-0.01, abs=1e-9)
    assert v.contested
    assert "setup area" in v.message


# -- ship-overlap -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gap", "overlap"),
    [
        (3.1, True),  # guides (1.6 each) overlap by 0.1 mm
        (3.2, False),  # guide tips exactly touching
        (3.3, False),
        (0.0, True),  # bases touching nose to nose: the guides reach into the other base
    ],
)
@pytest.mark.parametrize("phase", ["setup", "play"])
def test_xwing_overlap_guides_count(gap: float, overlap: bool, phase: str) -> None:
    a = {"id": "a", "base": "small", "at": [400.0, 300.0], "heading": 90}
    b = {"id": "b", "base": "small", "at": [400.0, 340.0 + gap], "heading": 270, "player": 1}
    report = run_check(scene("xwing2", "3x3ft", phase=phase, ships=[a, b]))
    found = rules_of(report, "ship-overlap")
    assert report.checked["ship-overlap"] == 1
    if not overlap:
        assert not found
        return
    (v,) = found
    assert v.objects == ("a", "b")
    # How deep: the guides meet tip to tip, so the bases must part along their headings
    # until the tips clear (3.2 - gap); sideways the guides would need 3.6 mm or more.
    assert v.distance == pytest.approx(3.2 - gap, abs=1e-9)
    assert v.limit == 0.0
    assert v.margin == pytest.approx(gap - 3.2, abs=1e-9)
    assert v.contested is (3.2 - gap <= 1.0)
    assert "guides" in v.message


@pytest.mark.parametrize(("dx", "overlap"), [(40.0, False), (39.9, True), (40.01, False)])
def test_xwing_overlap_side_by_side(dx: float, overlap: bool) -> None:
    # Side by side the guides (front and rear only) play no part: bases touching do not
    # overlap, bases 0.1 mm into each other do.
    a = {"id": "a", "base": "small", "at": [400.0, 300.0], "heading": 90}
    b = {"id": "b", "base": "small", "at": [400.0 + dx, 300.0], "heading": 90}
    report = run_check(scene("xwing2", "3x3ft", phase="play", ships=[a, b]))
    assert [v.objects for v in rules_of(report, "ship-overlap")] == (
        [("a", "b")] if overlap else []
    )


@pytest.mark.parametrize(("gap", "overlap"), [(0.0, False), (-0.1, True), (0.1, False)])
def test_armada_overlap_exact_touch(gap: float, overlap: bool) -> None:
    # Two small bases (43 x 71) nose to nose: no guides in Armada.
    a = {"id": "a", "base": "small", "at": [900.0, 300.0], "heading": 90}
    b = {"id": "b", "base": "small", "at": [900.0, 371.0 + gap], "heading": 270}
    report = run_check(scene("armada", "6x3ft", phase="play", ships=[a, b]))
    assert [v.objects for v in rules_of(report, "ship-overlap")] == (
        [("a", "b")] if overlap else []
    )


def test_overlap_with_huge_ship_obstacle() -> None:
    # A huge ship placed as an obstacle (80 x 225, long side along x) and a small ship
    # whose base reaches 0.1 mm into it; a second ship exactly touching it.
    data = scene(
        "xwing2",
        "3x3ft",
        phase="play",
        obstacles=[{"id": "hulk", "token": "hugeship-long", "at": [457.2, 457.2], "angle": 90}],
        ships=[
            {"id": "a", "base": "small", "at": [457.2, 457.2 - 40.0 - 20.0 + 0.1]},
            {"id": "b", "base": "small", "at": [457.2 + 112.5 + 20.0, 457.2], "heading": 90},
        ],
    )
    report = run_check(data)
    assert [(v.rule, v.objects) for v in report.violations] == [("ship-overlap", ("a", "hulk"))]


# -- outside-play-area ------------------------------------------------------------------


@pytest.mark.parametrize(("x", "outside"), [(20.0, False), (19.99, True), (-30.0, True)])
def test_ship_outside_play_area(x: float, outside: bool) -> None:
    # A small ship with its left side on the left edge is inside (closed area).
    report = run_check(
        scene(
            "xwing2", "3x3ft", phase="play", ships=[{"id": "s", "base": "small", "at": [x, 400.0]}]
        )
    )
    found = rules_of(report, "outside-play-area")
    if not outside:
        assert report.legal
        return
    (v,) = found
    assert v.objects == ("s",)
    assert v.distance == pytest.approx(20.0 - x, abs=1e-9)
    assert v.limit == 0.0
    assert v.margin == pytest.approx(x - 20.0, abs=1e-9)
    assert v.contested is (20.0 - x <= 1.0)
    assert v.points is not None
    assert v.points[1][0] == 0.0
    assert f"{20.0 - x:.1f} mm past the left edge" in v.message


def test_guides_over_the_edge_are_not_outside() -> None:
    # Facing the bottom edge with the base's front on it: the front guides hang 1.6 mm
    # over, but fleeing and the play area use the base without guides.
    ship = {"id": "s", "base": "small", "at": [400.0, 20.0], "heading": 270}
    report = run_check(scene("xwing2", "3x3ft", phase="play", ships=[ship]))
    assert report.legal


def test_obstacle_and_armada_ship_outside_play_area() -> None:
    square = [[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]]
    data = scene(
        "armada",
        "6x3ft",
        phase="play",
        obstacles=[{"id": "o", "outline": square, "at": [1000.0, 905.0]}],
        ships=[{"id": "s", "base": "small", "at": [1810.0, 400.0], "heading": 90}],
    )
    report = run_check(data)
    assert [(v.rule, v.objects) for v in report.violations] == [
        ("outside-play-area", ("o",)),
        ("outside-play-area", ("s",)),
    ]
    assert "10.6 mm past the top edge" in report.violations[0].message
    assert "2.7 mm past the right edge" in report.violations[1].message
    assert report.checked["outside-play-area"] == 2


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


# -- obstacle-composition ---------------------------------------------------------------

XWING_TOURNAMENT: list[dict[str, Any]] = [
    {"id": "rock-a", "token": "coreasteroid0", "at": [250.0, 300.0], "angle": 15, "player": 1},
    {"id": "rock-b", "token": "core2asteroid5", "at": [457.2, 290.0], "angle": 120, "player": 1},
    {
        "id": "debris-c",
        "token": "yt2400debris1",
        "at": [655.0, 310.0],
        "angle": 200,
        "flipped": True,
        "player": 1,
    },
    {"id": "rock-d", "token": "coreasteroid3", "at": [260.0, 610.0], "angle": 300, "player": 2},
    {
        "id": "debris-e",
        "token": "vt49decimatordebris0",
        "at": [457.2, 500.0],
        "angle": 45,
        "player": 2,
    },
    {"id": "gas-f", "token": "gascloud2", "at": [650.0, 620.0], "angle": 90, "player": 2},
]


def tournament(
    ruleset: str = "xwing2", changes: dict[str, dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The legal tournament table of ``examples/xwing-tournament.toml``, with changes by id."""
    changes = changes or {}
    obstacles = [dict(o) | changes.get(o["id"], {}) for o in XWING_TOURNAMENT]
    return scene(ruleset, "3x3ft", format="tournament", obstacles=obstacles)


def composition(report: CheckReport) -> list[tuple[tuple[str, ...], str]]:
    return [(v.objects, v.message) for v in rules_of(report, "obstacle-composition")]


def test_xwing_tournament_legal() -> None:
    report = run_check(tournament())
    assert report.legal, [v.message for v in report.violations]
    assert report.checked["obstacle-composition"] == 6


def test_xwing_standard_format_has_no_composition_rule() -> None:
    data = tournament(changes={"rock-b": {"token": "loosecargo"}})
    data["format"] = "standard"
    report = run_check(data)
    assert "obstacle-composition" not in report.checked
    assert not rules_of(report, "obstacle-composition")


def test_xwing_tournament_duplicate_token() -> None:
    report = run_check(tournament(changes={"rock-b": {"token": "coreasteroid0"}}))
    found = composition(report)
    assert len(found) == 1
    objects, message = found[0]
    assert objects == ("rock-a", "rock-b")
    assert "coreasteroid0" in message


def test_xwing_tournament_same_token_for_both_players_is_allowed() -> None:
    # "each player exactly 3 unique tokens": uniqueness is per player.
    report = run_check(tournament(changes={"rock-d": {"token": "coreasteroid0"}}))
    assert composition(report) == []


@pytest.mark.parametrize("device", ["loosecargo", "spareparts", "electrochaffcloud"])
def test_xwing_tournament_no_devices(device: str) -> None:
    report = run_check(tournament(changes={"gas-f": {"token": device}}))
    found = composition(report)
    assert [objects for objects, _ in found] == [("gas-f",)]
    assert device in found[0][1]


@pytest.mark.parametrize(
    ("ruleset", "token", "allowed"),
    [
        ("xwing1", "gascloud2", False),  # gas clouds are 2.0 only
        ("xwing1", "pomasteroid1", False),
        ("xwing1", "pomdebris2", False),
        ("xwing1", "core2asteroid1", True),
        ("xwing1", "vt49decimatordebris2", True),
        ("xwing2", "pomasteroid1", True),
        ("xwing2", "gascloud5", True),
        ("xwing2", "yt2400debris0", True),
    ],
)
def test_xwing_tournament_families(ruleset: str, token: str, allowed: bool) -> None:
    # gas-f is swapped for the token under test; in xwing1 gas-f's own gascloud2 would
    # be refused too, so the swap leaves only the token under test in question.
    report = run_check(tournament(ruleset, {"gas-f": {"token": token}}))
    found = composition(report)
    assert [objects for objects, _ in found] == ([] if allowed else [("gas-f",)])


def test_xwing_tournament_player_counts() -> None:
    # gas-f is player 1's: 4 against 2. Both players' tokens are listed.
    report = run_check(tournament(changes={"gas-f": {"player": 1}}))
    found = composition(report)
    assert sorted(objects for objects, _ in found) == [
        ("rock-a", "rock-b", "debris-c", "gas-f"),
        ("rock-d", "debris-e"),
    ]
    for objects, message in found:
        assert f"brought {len(objects)} obstacles" in message


def test_xwing_tournament_missing_player_and_custom_outline() -> None:
    obstacles = [dict(o) for o in XWING_TOURNAMENT]
    del obstacles[5]["player"]
    obstacles[2] = {
        "id": "homemade",
        "outline": [[-20.0, -10.0], [20.0, -10.0], [0.0, 25.0]],
        "kind": "asteroid",
        "at": [655.0, 310.0],
        "player": 1,
    }
    report = run_check(scene("xwing2", "3x3ft", format="tournament", obstacles=obstacles))
    found = composition(report)
    ids = sorted(objects for objects, _ in found)
    assert ("homemade",) in ids
    assert ("gas-f",) in ids
    assert ("rock-d", "debris-e") in ids  # player 2 now has only two
    messages = " ".join(m for _, m in found)
    assert "custom outline" in messages
    assert "no player" in messages


ARMADA_STANDARD: list[dict[str, Any]] = [
    {"id": "station", "token": "station", "at": [914.4, 457.2]},
    {"id": "eclair", "token": "asteroid-1", "at": [520.0, 330.0], "angle": 30},
    {"id": "sharktooth", "token": "asteroid-4", "at": [1300.0, 600.0], "angle": 200},
    {"id": "tornado", "token": "asteroid-5", "at": [700.0, 640.0], "angle": 100},
    {"id": "chicken-leg", "token": "debris-2", "at": [1150.0, 300.0], "angle": 75},
    {"id": "muffin", "token": "debris-3", "at": [1380.0, 420.0], "flipped": True},
]


def armada_set(**changes: dict[str, Any]) -> dict[str, Any]:
    obstacles = [dict(o) | changes.get(o["id"], {}) for o in ARMADA_STANDARD]
    return scene("armada", "6x3ft", format="tournament", obstacles=obstacles)


def test_armada_standard_set_legal() -> None:
    report = run_check(armada_set())
    assert report.legal, [v.message for v in report.violations]
    assert report.checked["obstacle-composition"] == 6


def test_armada_wrong_counts() -> None:
    # A debris field swapped for a fourth asteroid field: 4 asteroids, 1 debris.
    report = run_check(armada_set(muffin={"token": "asteroid-1"}))
    found = dict(composition(report))
    assert set(found) == {
        ("eclair", "sharktooth", "tornado", "muffin"),
        ("chicken-leg",),
        ("eclair", "muffin"),  # and the same asteroid twice
    }
    assert "4 asteroid" in found[("eclair", "sharktooth", "tornado", "muffin")]
    assert "1 debris" in found[("chicken-leg",)]


def test_armada_no_station() -> None:
    obstacles = [dict(o) for o in ARMADA_STANDARD[1:]]
    report = run_check(scene("armada", "6x3ft", format="tournament", obstacles=obstacles))
    found = composition(report)
    assert [objects for objects, _ in found] == [()]
    assert "0 station" in found[0][1]


def test_armada_foreign_kind() -> None:
    obstacles = [dict(o) for o in ARMADA_STANDARD]
    obstacles.append(
        {
            "id": "cloud",
            "outline": [[-10.0, -10.0], [10.0, -10.0], [0.0, 10.0]],
            "kind": "gas",
            "at": [914.4, 700.0],
        }
    )
    report = run_check(scene("armada", "6x3ft", format="tournament", obstacles=obstacles))
    assert [objects for objects, _ in composition(report)] == [("cloud",)]


# -- tabletop check: exit codes and JSON ------------------------------------------------


def test_cli_legal_exit_0(tmp_path: Path) -> None:
    path = json_scene_file(tmp_path, tournament())
    code, out, err = run_cli("check", path, "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data == {
        "ruleset": "xwing2",
        "legal": True,
        "violations": [],
        "checked": {
            "obstacle-edge": 6,
            "obstacle-spacing": 15,
            "obstacle-composition": 6,
            "ship-deployment": 0,
            "ship-overlap": 0,
            "outside-play-area": 6,
        },
    }
    code, out, err = run_cli("check", path)
    assert (code, err) == (0, "")
    assert "legal" in out
    assert "ILLEGAL" not in out


def test_cli_toml_legal(tmp_path: Path) -> None:
    path = tmp_path / "armada.toml"
    lines = ['ruleset = "armada"', 'area = "6x3ft"']
    for o in ARMADA_STANDARD:
        lines += ["", "[[obstacles]]", f'id = "{o["id"]}"', f'token = "{o["token"]}"']
        lines.append(f"at = [{o['at'][0]}, {o['at'][1]}]")
        if "angle" in o:
            lines.append(f"angle = {o['angle']}")
        if o.get("flipped"):
            lines.append("flipped = true")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run_cli("check", str(path), "--json")
    assert code == 0
    assert json.loads(out)["checked"]["obstacle-setup-area"] == 6


def test_cli_violations_exit_1_and_json_fields(tmp_path: Path) -> None:
    # A 40 mm square 195 mm from the bottom edge (margin -5, not contested) and a second
    # one whose lower-left corner is level with the first's upper-right corner, 99.5 mm
    # to its right (margin -0.5, contested).
    square = [[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]]
    data = scene(
        "xwing2",
        "3x3ft",
        obstacles=[
            {"id": "rock-a", "outline": square, "at": [300.0, 215.0]},
            {"id": "rock-b", "outline": square, "at": [439.5, 255.0]},
        ],
    )
    path = json_scene_file(tmp_path, data)
    code, out, err = run_cli("check", path, "--json")
    assert (code, err) == (1, "")
    report = json.loads(out)
    assert report["ruleset"] == "xwing2"
    assert report["legal"] is False
    assert report["checked"]["obstacle-edge"] == 2
    assert report["checked"]["obstacle-spacing"] == 1
    edge, spacing = report["violations"]
    for v in (edge, spacing):
        assert set(v) >= {
            "rule",
            "objects",
            "distance",
            "limit",
            "margin",
            "contested",
            "points",
            "message",
        }
        assert isinstance(v["message"], str)
    assert edge["rule"] == "obstacle-edge"
    assert edge["objects"] == ["rock-a"]
    assert (edge["distance"], edge["limit"], edge["margin"]) == (195.0, 200.0, -5.0)
    assert edge["contested"] is False
    assert edge["points"] == [[280.0, 195.0], [280.0, 0.0]]
    assert edge["message"] == (
        "rock-a is 195.0 mm from the bottom edge; it must be more than 200 mm (range 2)"
    )
    # The fix makes rock-a legal under every rule: up past the 200 line (dy just over 5)
    # brings its right side level with rock-b's left side, 99.5 mm away, so it must also
    # go just over 0.5 mm left.
    assert edge["fix"]["object"] == "rock-a"
    dx, dy = edge["fix"]["move"]
    assert -0.52 <= dx < -0.5
    assert 5.0 < dy <= 5.02
    assert spacing["rule"] == "obstacle-spacing"
    assert spacing["objects"] == ["rock-a", "rock-b"]
    assert (spacing["distance"], spacing["limit"], spacing["margin"]) == (99.5, 100.0, -0.5)
    assert spacing["contested"] is True
    assert spacing["points"] == [[320.0, 235.0], [419.5, 235.0]]
    assert spacing["fix"]["object"] == "rock-a"
    code, out, _ = run_cli("check", path)
    assert code == 1
    assert "ILLEGAL: 2 violation(s)" in out
    assert "obstacle-edge" in out
    assert "margin -5.0 mm" in out


def test_cli_contested_spacing(tmp_path: Path) -> None:
    square = [[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]]
    data = scene(
        "xwing2",
        "3x3ft",
        obstacles=[
            {"id": "a", "outline": square, "at": [300.0, 400.0]},
            {"id": "b", "outline": square, "at": [439.5, 400.0]},
        ],
    )
    code, out, _ = run_cli("check", json_scene_file(tmp_path, data), "--json")
    assert code == 1
    (v,) = json.loads(out)["violations"]
    assert (v["rule"], v["distance"], v["margin"], v["contested"]) == (
        "obstacle-spacing",
        99.5,
        -0.5,
        True,
    )
    # Facing parallel edges: any level pair of points on them is a closest pair.
    (x0, y0), (x1, y1) = v["points"]
    assert (x0, x1) == (320.0, 419.5)
    assert y0 == y1
    assert 380.0 <= y0 <= 420.0


# -- bad input: exit 2, a clear message, no traceback -----------------------------------

BAD_INPUTS = [
    (
        {"obstacles": [{"id": "rock", "token": "coreasteroid99", "at": [400, 400]}]},
        ["unknown token 'coreasteroid99'", "obstacles[0] 'rock'", "key 'token'"],
    ),
    (
        {
            "obstacles": [
                {"id": "bow", "outline": [[0, 0], [40, 40], [40, 0], [0, 40]], "at": [400, 400]}
            ]
        },
        ["simple polygon", "obstacles[0] 'bow'", "key 'outline'"],
    ),
    (
        {
            "obstacles": [{"id": "twin", "token": "coreasteroid0", "at": [300, 400]}],
            "ships": [{"id": "twin", "base": "small", "at": [400, 40]}],
        },
        ["duplicate id 'twin'", "ships[0] 'twin'", "key 'id'"],
    ),
    (
        {
            "obstacles": [
                {"id": "a", "token": "coreasteroid0", "at": [300, 400]},
                {"id": "a", "token": "coreasteroid1", "at": [500, 400]},
            ]
        },
        ["duplicate id 'a'", "obstacles[1] 'a'"],
    ),
    (
        {"ruleset": "armada", "obstacles": [{"id": "r", "token": "coreasteroid0", "at": [0, 0]}]},
        ["unknown token 'coreasteroid0' for armada", "asteroid-1"],
    ),
]


@pytest.mark.parametrize(("data", "words"), BAD_INPUTS)
@pytest.mark.parametrize("suffix", [".json", ".toml"])
def test_cli_bad_input_exit_2(
    tmp_path: Path, data: dict[str, Any], words: list[str], suffix: str
) -> None:
    if suffix == ".json":
        path = json_scene_file(tmp_path, data)
    else:
        path = str(tmp_path / "scene.toml")
        Path(path).write_text(toml_text(data), encoding="utf-8")
    code, out, err = run_cli("check", path)
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    assert err.startswith("tabletop check: error: ")
    assert err.count("\n") == 1
    assert path in err
    for word in words:
        assert word in err
    code, out, err = run_cli("check", path, "--json")
    assert code == 2
    error = json.loads(out)["error"]
    assert set(error) == {"message", "where"}
    assert path in error["where"]
    assert "Traceback" not in out + err
    for word in words:
        assert word in error["where"] + ": " + error["message"]


# -- the words of a limit follow the limit ------------------------------------------------

_SQUARE = [[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]]


@pytest.mark.parametrize(
    ("ruleset", "constants", "words"),
    [
        # The defaults: the edge limit is the range 2 (distance 3) line.
        ("xwing2", {}, "more than 200 mm (range 2)"),
        ("armada", {}, "more than 185 mm (distance 3)"),
        # An overridden limit on no band line names no band.
        ("xwing2", {"xwing_obstacle_edge": 150}, "more than 150 mm"),
        # An overridden limit on another line names that line.
        ("xwing1", {"xwing_obstacle_edge": 300}, "more than 300 mm (range 3)"),
        # Band lines moved away from the limit: no band either.
        ("xwing2", {"xwing_range_bands": [90, 190, 290, 390, 490]}, "more than 200 mm"),
        # Armada's limit moves with its distance band.
        (
            "armada",
            {"armada_distance_bands": [70, 120, 180, 240, 300]},
            "more than 180 mm (distance 3)",
        ),
    ],
)
def test_the_edge_message_names_the_limit_and_only_a_true_band(
    ruleset: str, constants: dict[str, Any], words: str
) -> None:
    # The square's left side is 20 mm from the left edge: too near under every limit.
    data = scene(ruleset, "6x3ft" if ruleset == "armada" else "3x3ft", constants=constants)
    data["obstacles"] = [{"id": "sq", "outline": _SQUARE, "at": [40.0, 457.2]}]
    found = rules_of(run_check(data, fixes=False), "obstacle-edge")
    left = [v for v in found if "left edge" in v.message]
    assert len(left) == 1
    assert left[0].message == f"sq is 20.0 mm from the left edge; it must be {words}"
