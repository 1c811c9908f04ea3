"""``tabletop check`` rule by rule for ships: deployment, overlap and the play area.

As in ``test_check_rules.py`` (the obstacle rules), every expected number is worked out
here by hand from the base sizes and headings, and each base is placed exactly on a
rule's line, just beyond it or just short of it, and the report compared with those
numbers.
"""

from __future__ import annotations

import math

import pytest
from check_support import (
    AREAS,
    MARKER,
    rules_of,
    run_check,
    scene,
)

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


@pytest.mark.parametrize(
    ("x", "outside", "past"), [(20.0, False, ""), (19.99, True, "0.01"), (-30.0, True, "50.0")]
)
def test_ship_outside_play_area(x: float, outside: bool, past: str) -> None:
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
    # The message gives the distance at the precision of the margin (0.01, not "0.0").
    assert f" {past} mm past the left edge" in v.message


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
