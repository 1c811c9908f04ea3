"""Scene builders, catalog shapes and placement limits shared by the ``check`` tests.

The shapes' vertices are turned here by hand from ``obstacles/data/*.json`` (see
``test_check_rules.py``), so the tests know the furthest vertex before the checker does.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from tabletop.app.scene.scenefile import parse_scene
from tabletop.obstacles.legality import CheckReport, Violation, check

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


# -- legal tournament tables ------------------------------------------------------------

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


ARMADA_STANDARD: list[dict[str, Any]] = [
    {"id": "station", "token": "station", "at": [914.4, 457.2]},
    {"id": "eclair", "token": "asteroid-1", "at": [520.0, 330.0], "angle": 30},
    {"id": "sharktooth", "token": "asteroid-4", "at": [1300.0, 600.0], "angle": 200},
    {"id": "tornado", "token": "asteroid-5", "at": [700.0, 640.0], "angle": 100},
    {"id": "chicken-leg", "token": "debris-2", "at": [1150.0, 300.0], "angle": 75},
    {"id": "muffin", "token": "debris-3", "at": [1380.0, 420.0], "flipped": True},
]
