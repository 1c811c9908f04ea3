"""``tabletop render --around A B [--zoom MM]``: the picture of a dispute, read back from its SVG.

The scenes are two flipped huge-ship tokens (80 x 225 rectangles, the catalog's
``hugeship-long``) placed corner to corner, so that every number is worked out by hand:
wall1 at (300, 450) has its top-right corner at (340, 562.5); wall2's bottom-left corner
is 59.76 mm right of it and 79.68 mm above (a 3-4-5 triangle, 99.6 mm: a violation of
the 100 mm obstacle spacing, 0.4 mm inside) or 60.24 and 80.32 (100.4 mm: legal, 0.4 mm
outside). The points 100 mm from wall1 near that corner lie on the circle of radius 100
about it; along the measurement that is (340 + 0.6 x 100, 562.5 + 0.8 x 100) = (400, 642.5).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from common import run, run_json, scene_file
from matplotlib.image import imread

CORNER = (340.0, 562.5)
LIMIT_POINT = (400.0, 642.5)

SCENE = """\
ruleset = "xwing2"

[[obstacles]]
id = "wall1"
token = "hugeship-long"
at = [300.0, 450.0]

[[obstacles]]
id = "wall2"
token = "hugeship-long"
at = [{x}, {y}]
"""
# wall2's centre: the corner + the gap + half the token (40, 112.5).
VIOLATION = {"x": 340.0 + 59.76 + 40.0, "y": 562.5 + 79.68 + 112.5}
LEGAL = {"x": 340.0 + 60.24 + 40.0, "y": 562.5 + 80.32 + 112.5}

_PATH = re.compile(r'<g id="{gid}">\s*<path d="([^"]*)"')
_POINT = re.compile(r"[ML] (-?[\d.]+) (-?[\d.]+)")


def _paths(svg: str, gid: str) -> list[list[tuple[float, float]]]:
    """Every path drawn in the group `gid`, as SVG points."""
    start = svg.index(f'<g id="{gid}">')
    end = svg.index("</g>", start)
    return [
        [(float(x), float(y)) for x, y in _POINT.findall(d)]
        for d in re.findall(r'<path d="([^"]*)"', svg[start:end])
    ]


class _View:
    """The map from SVG points to table millimetres, read from the axes' frame."""

    def __init__(self, svg: str, window: list[float]) -> None:
        (frame,) = _paths(svg, "dispute-view")
        xs, ys = [p[0] for p in frame], [p[1] for p in frame]
        self.px = (min(xs), max(xs))
        self.py = (max(ys), min(ys))  # SVG y grows downwards
        self.window = window

    def to_mm(self, point: tuple[float, float]) -> tuple[float, float]:
        x0, x1, y0, y1 = self.window
        fx = (point[0] - self.px[0]) / (self.px[1] - self.px[0])
        fy = (point[1] - self.py[0]) / (self.py[1] - self.py[0])
        return x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)


def _render(tmp_path: Path, gap: dict[str, float], *extra: str) -> tuple[str, dict[str, object]]:
    scene = scene_file(tmp_path, SCENE.format(**gap))
    out = tmp_path / "dispute.svg"
    answer = run_json(
        "render", scene, "-o", out, "--around", "wall1", "wall2", *extra, "--json", "--force"
    )
    return out.read_text("utf-8"), answer


def test_the_view_spans_the_requested_window(tmp_path: Path) -> None:
    svg, answer = _render(tmp_path, VIOLATION, "--zoom", "60")
    # Centred on the middle of the closest points (340, 562.5)-(399.76, 642.18).
    centre = ((340.0 + 399.76) / 2, (562.5 + 642.18) / 2)
    window = answer["window"]
    assert isinstance(window, list)
    assert window == pytest.approx(
        [centre[0] - 60, centre[0] + 60, centre[1] - 60, centre[1] + 60], abs=1e-6
    )
    view = _View(svg, window)
    # Square: 120 mm each way drawn at one scale.
    assert view.px[1] - view.px[0] == pytest.approx(view.py[0] - view.py[1], rel=1e-4)
    # Every 10 mm grid line in view lies where the window says: x = 310, 320, ... 420.
    lines = _paths(svg, "cm-grid")
    verticals = sorted(round(view.to_mm(p[0])[0], 3) for p in lines if p[0][0] == p[1][0])
    assert verticals == pytest.approx([310.0 + 10 * k for k in range(12)], abs=0.01)
    horizontals = sorted(round(view.to_mm(p[0])[1], 3) for p in lines if p[0][1] == p[1][1])
    assert horizontals == pytest.approx([550.0 + 10 * k for k in range(12)], abs=0.01)
    # The millimetre grid: one line a millimetre, 120 or 121 each way.
    mm_lines = _paths(svg, "mm-grid")
    assert 240 <= len(mm_lines) <= 242


def test_the_dimension_number_is_measures_distance(tmp_path: Path) -> None:
    for gap, expected in ((VIOLATION, 99.6), (LEGAL, 100.4)):
        svg, _ = _render(tmp_path, gap)
        scene = scene_file(tmp_path, SCENE.format(**gap))
        measured = run_json("measure", scene, "wall1", "wall2", "--json")
        assert measured["distance"] == pytest.approx(expected, abs=1e-9)
        group = svg[svg.index('<g id="dimension-label">') :]
        number = re.search(r">([\d.]+) mm</text>", group)
        assert number is not None
        assert float(number.group(1)) == measured["distance"]


def _limit_line_mm(svg: str, window: list[float]) -> list[tuple[float, float]]:
    view = _View(svg, window)
    points = [view.to_mm(p) for path in _paths(svg, "limit-line") for p in path]
    x0, x1, y0, y1 = window
    return [(x, y) for x, y in points if x0 < x < x1 and y0 < y < y1]


# Two obstacles are ruled by their spacing: its 100 mm limit is the line, legal or not.
@pytest.mark.parametrize(("gap", "what"), [(VIOLATION, "limit"), (LEGAL, "limit")])
def test_the_line_is_drawn_100_mm_from_the_corner(
    tmp_path: Path, gap: dict[str, float], what: str
) -> None:
    svg, answer = _render(tmp_path, gap, "--zoom", "70")
    assert answer["line"] == {"what": what, "at": 100.0, "from": "wall1", "contested_within": 1.0}
    window = answer["window"]
    assert isinstance(window, list)
    points = _limit_line_mm(svg, window)
    assert len(points) > 20
    for x, y in points:
        if x > CORNER[0] and y > CORNER[1]:
            # The quarter circle about the corner (vertices of a 256-gon: within 0.01 mm).
            assert math.dist((x, y), CORNER) == pytest.approx(100.0, abs=0.02)
        elif x <= CORNER[0]:
            # Above the token's top edge, 100 mm above it.
            assert y == pytest.approx(662.5, abs=0.02)
    # It passes through (400, 642.5), where the measurement crosses it.
    nearest = min(math.dist(p, LIMIT_POINT) for p in points)
    assert nearest < 1.0
    # And the chord of the drawn line there is within 0.02 mm of that point.
    assert any(
        abs(math.dist(p, CORNER) - 100.0) < 0.02 and math.dist(p, LIMIT_POINT) < 1.0 for p in points
    )


def test_the_contested_band_is_shaded_1_mm_each_side(tmp_path: Path) -> None:
    svg, answer = _render(tmp_path, VIOLATION, "--zoom", "70")
    window = answer["window"]
    assert isinstance(window, list)
    view = _View(svg, window)
    radii = sorted(
        math.dist(view.to_mm(p), CORNER)
        for path in _paths(svg, "contested-band")
        for p in path
        if view.to_mm(p)[0] > CORNER[0] + 1 and view.to_mm(p)[1] > CORNER[1] + 1
    )
    assert radii[0] == pytest.approx(99.0, abs=0.02)
    assert radii[-1] == pytest.approx(101.0, abs=0.02)


def test_a_violation_is_said_in_the_notes_and_the_limit_is_vermillion(tmp_path: Path) -> None:
    svg, _ = _render(tmp_path, VIOLATION)
    notes = svg[svg.index('<g id="notes">') :]
    assert "placement limit 100.0 mm from wall1" in notes
    assert "margin -0.4 mm (negative: on the wrong side)" in notes
    assert "VIOLATION, contested" in notes
    limit = svg[svg.index('<g id="limit-line">') :]
    assert "stroke: #d55e00" in limit[:2000]


def test_a_far_measurement_is_shown_at_the_line(tmp_path: Path) -> None:
    """At 300.2 mm the default view is the 30 mm around the 300 line and B's corner.

    In play no placement rule holds between the two: the band line is the question.
    """
    text = SCENE.format(x=340.0 + 180.12 + 40.0, y=562.5 + 240.16 + 112.5)
    scene = scene_file(tmp_path, 'phase = "play"\n' + text)
    out = tmp_path / "far.png"
    answer = run_json("render", scene, "-o", out, "--around", "wall1", "wall2", "--json")
    # The 300 line crosses the measurement at (340 + 180, 562.5 + 240); B's corner is
    # at (520.12, 802.66); the view is centred between them, 30 mm each way.
    cx, cy = (520.0 + 520.12) / 2, (802.5 + 802.66) / 2
    assert answer["window"] == pytest.approx([cx - 30, cx + 30, cy - 30, cy + 30], abs=1e-6)
    assert answer["line"] == {
        "what": "band line",
        "at": 300.0,
        "from": "wall1",
        "contested_within": 1.0,
    }
    assert imread(out).shape[:2] == (1000, 1300)


def test_printed_names_are_written_beside_the_ids(tmp_path: Path) -> None:
    svg, _ = _render(tmp_path, VIOLATION)
    assert ">wall1 (Huge ship (long, 80 x 225))</text>" in svg


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--zoom", "500"], "--zoom 500 mm: expected a half-width of 1 to 150 mm"),
        (["--zoom", "0.5"], "--zoom 0.5 mm: expected a half-width of 1 to 150 mm"),
        (["--zoom", "nan"], "--zoom nan mm: expected a half-width of 1 to 150 mm"),
        (["--measure", "wall1", "wall2"], "--around draws one dispute"),
    ],
)
def test_bad_requests_are_refused_and_write_nothing(
    tmp_path: Path, extra: list[str], message: str
) -> None:
    scene = scene_file(tmp_path, SCENE.format(**VIOLATION))
    out = tmp_path / "dispute.png"
    code, stdout, stderr = run("render", scene, "-o", out, "--around", "wall1", "wall2", *extra)
    assert (code, stdout) == (2, "")
    assert message in stderr
    assert not out.exists()


def test_zoom_needs_around(tmp_path: Path) -> None:
    scene = scene_file(tmp_path, SCENE.format(**VIOLATION))
    code, _, stderr = run("render", scene, "-o", tmp_path / "x.png", "--zoom", "20")
    assert code == 2
    assert "--zoom needs --around A B" in stderr


def test_an_unknown_object_is_named(tmp_path: Path) -> None:
    scene = scene_file(tmp_path, SCENE.format(**VIOLATION))
    out = tmp_path / "x.png"
    code, _, stderr = run("render", scene, "-o", out, "--around", "wall1", "nope")
    assert code == 2
    assert "nope" in stderr
    assert not out.exists()


def test_json_is_one_object(tmp_path: Path) -> None:
    _, answer = _render(tmp_path, LEGAL)
    assert set(answer) == {"scene", "output", "format", "size", "window", "line"}
    assert json.loads(json.dumps(answer)) == answer


def test_a_call_to_an_edge_draws_the_edge_limit(tmp_path: Path) -> None:
    """wall1's bottom edge 199.6 mm above the bottom edge: 0.4 mm inside the 200 mm limit.

    The limit drawn around it is the line 200 mm below its bottom edge, y = -0.4, beside
    it (260 < x < 340); the table's edge is y = 0.
    """
    scene = scene_file(
        tmp_path,
        'ruleset = "xwing2"\n[[obstacles]]\nid = "wall1"\ntoken = "hugeship-long"\n'
        "at = [300.0, 312.1]\n",
    )
    out = tmp_path / "edge.svg"
    answer = run_json(
        "render", scene, "-o", out, "--around", "wall1", "edge:bottom", "--zoom", "15", "--json"
    )
    assert answer["line"] == {
        "what": "limit",
        "at": 200.0,
        "from": "wall1",
        "contested_within": 1.0,
    }
    window = answer["window"]
    assert isinstance(window, list)
    # Centred between the edge (y = 0) and the limit (y = -0.4), below the wall's
    # bottom edge: the closest points are tied along it (260 <= x <= 340).
    assert window[2:] == pytest.approx([-15.2, 14.8], abs=1e-6)
    assert window[1] - window[0] == pytest.approx(30.0, abs=1e-6)
    assert 260.0 <= (window[0] + window[1]) / 2 <= 340.0
    svg = out.read_text("utf-8")
    points = _limit_line_mm(svg, window)
    # The SVG's coordinates carry 10^-7 mm of noise: the vertex at x = 260 may read 259.9999999.
    beside = [(x, y) for x, y in points if 259.99 < x < 340.01]
    assert beside
    assert all(y == pytest.approx(-0.4, abs=0.02) for _, y in beside)
    view = _View(svg, window)
    edge = [view.to_mm(p) for path in _paths(svg, "table-edge") for p in path]
    assert any(y == pytest.approx(0.0, abs=0.02) for _, y in edge)
