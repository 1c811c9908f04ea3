"""Huge ships on the move, by edition: each case at its line, just inside and just outside.

Worked out by hand. ``raider`` is a huge base (80 x 225, h = 112.5) at (457.2, 200)
facing +y: straight s ends at y = 200 + 225 + 40 s (straight 2: 505.0, straight 1: 465.0)
and its front guides (x = 457.2 +- [10, 13.6]) reach y + 112.5 + 1.6 = y + 114.1 (straight
2: 619.1; straight 1: 579.1). Every other ship sits on the same centre line, so its rear
guides are in the same columns and reach down to y_c - h - 1.6: a small ship (h = 20)
overlaps the straight-2 position when y_c - 21.6 < 619.1, i.e. y_c < 640.7; a large ship
(h = 40) when y_c < 660.7; a huge one (h = 112.5) when y_c < 733.2 (speed 1: y_c < 693.2).
Touching is not overlapping (rules.md, Measuring). A slow shapely model of the bases with
guides (:func:`base_with_guides`) confirms each of those lines independently.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import shapely
from common import run, run_json, scene_file, ships

from tabletop.geom.areas import play_area
from tabletop.geom.objects import Ship
from tabletop.geom.rulesets import get_ruleset
from tabletop.maneuvers import execute
from tabletop.maneuvers.result import MoveResult, TemplateMove
from tabletop.obstacles.scene import Obstacle, Scene

X = 457.2
HALF = {"small": 20.0, "large": 40.0, "huge": 112.5}


def base_with_guides(base: str, y: float) -> shapely.Geometry:
    """A base facing +y at (X, y) with its four guides: an independent slow model."""
    h, w = HALF[base], 40.0 if base == "huge" else HALF[base]
    parts = [shapely.box(X - w, y - h, X + w, y + h)]
    for inner, outer in ((10.0, 13.6), (-13.6, -10.0)):
        parts.append(shapely.box(X + inner, y + h, X + outer, y + h + 1.6))
        parts.append(shapely.box(X + inner, y - h - 1.6, X + outer, y - h))
    return shapely.union_all(parts)


def shares_area(a: shapely.Geometry, b: shapely.Geometry) -> bool:
    return bool(shapely.intersection(a, b).area > 1e-9)


def scene_of(ruleset: str, *others: Ship, obstacles: tuple[Obstacle, ...] = ()) -> Scene:
    return Scene(
        get_ruleset(ruleset),
        play_area("6x3ft"),
        phase="play",
        obstacles=obstacles,
        ships=(Ship("raider", "huge", X, 200.0), *others),
    )


def rock(ident: str, x: float, y: float) -> Obstacle:
    square = np.array([[-10.0, -10.0], [10.0, -10.0], [10.0, 10.0], [-10.0, 10.0]])
    return Obstacle(ident, square, "asteroid", x, y)


def fly(scene: Scene, words: str = "straight 2") -> MoveResult:
    return execute(scene, "raider", words)


def detail(result: MoveResult) -> TemplateMove:
    assert isinstance(result.detail, TemplateMove)
    return result.detail


@pytest.mark.parametrize(("base", "line"), [("small", 640.7), ("large", 660.7), ("huge", 733.2)])
def test_the_overlap_lines_worked_out_by_hand_agree_with_a_slow_model(
    base: str, line: float
) -> None:
    mover = base_with_guides("huge", 505.0)
    assert not shares_area(mover, base_with_guides(base, line))
    assert shares_area(mover, base_with_guides(base, line - 0.1))
    assert not shares_area(mover, base_with_guides(base, line + 0.1))


# -- 2.0 -------------------------------------------------------------------------------


@pytest.mark.parametrize(("y", "overlapped"), [(640.7, False), (640.6, True), (640.8, False)])
def test_2e_huge_over_a_standard_ship_completes_and_sets_it_aside(
    y: float, overlapped: bool
) -> None:
    """rules.md, Huge ships, 2.0: "A huge ship overlapping a standard ship completes its
    maneuver; the standard ship suffers critical damage equal to the revealed speed and is
    set aside until the huge ship has moved, then placed by its owner"."""
    result = fly(scene_of("xwing2", Ship("x1", "small", X, y)))
    assert result.final.tolist() == pytest.approx([X, 505.0, 90.0])
    assert result.complete
    assert result.bumped is None
    assert result.bump_point is None
    data = result.to_json()
    assert data["speeds_tried"] == [2]
    assert data["flown"] == "straight 2"
    assert data["set_aside"] == (["x1"] if overlapped else [])
    assert data["destroyed"] == []
    expected = [{"ship": "x1", "amount": 2, "kind": "critical"}] if overlapped else []
    assert [{k: d[k] for k in ("ship", "amount", "kind")} for d in data["damage"]] == expected


def test_2e_the_issue_s_raider_toward_an_x_wing() -> None:
    """The X-Wing at (457.2, 600) is 40.7 mm deep in the straight-2 position: the raider
    ends at (457.2, 505.0), complete, and the X-Wing is set aside with 2 critical damage."""
    result = fly(scene_of("xwing2", Ship("xwing", "small", X, 600.0)))
    assert result.to_json()["final"] == {"at": [457.2, 505.0], "heading": 90.0}
    text = result.describe()
    assert "overlapped: xwing (small, at speed 2): set aside" in text
    assert "damage:     xwing: 2 critical damage" in text


@pytest.mark.parametrize(
    ("y", "final_y", "tried", "complete"),
    [
        (733.2, 505.0, [2], True),  # touching the straight-2 position: no overlap
        (733.3, 505.0, [2], True),  # 0.1 clear
        (733.1, 465.0, [2, 1], False),  # 0.1 deep at speed 2: straight 1
        (693.2, 465.0, [2, 1], False),  # straight 1 touches it: flown
        (693.1, 200.0, [2, 1, 0], False),  # straight 1 also overlaps: stationary
    ],
)
def test_2e_huge_over_a_huge_ship_flies_one_speed_lower(
    y: float, final_y: float, tried: list[int], complete: bool
) -> None:
    """rules.md, Huge ships, 2.0: "a huge ship overlapping another huge ship executes the
    maneuver one speed lower, again until it overlaps none (a stationary maneuver after
    speed 0), then it and each huge ship it overlapped suffer critical damage equal to the
    revealed speed"."""
    result = fly(scene_of("xwing2", Ship("lambda", "huge", X, y)))
    assert result.final.tolist() == pytest.approx([X, final_y, 90.0])
    assert result.complete is complete
    data = result.to_json()
    assert data["speeds_tried"] == tried
    assert data["flown"] == {2: "straight 2", 1: "straight 1", 0: "stationary"}[tried[-1]]
    damage = [(d["ship"], d["amount"], d["kind"]) for d in data["damage"]]
    if complete:
        assert damage == []
        assert data["bumped"] is None
    else:
        assert damage == [("raider", 2, "critical"), ("lambda", 2, "critical")]
        assert data["bumped"] == "lambda"
        assert data["bump_point"] is None
        assert data["overlapped"][0]["effect"] == "speed-down"


def test_2e_the_issue_s_raider_toward_a_huge_ship_ends_at_465() -> None:
    result = fly(scene_of("xwing2", Ship("lambda", "huge", X, 725.0)))
    assert result.to_json()["final"]["at"] == [457.2, 465.0]


@pytest.mark.parametrize(("x", "through"), [(477.2, False), (477.1, True), (477.3, False)])
def test_2e_obstacles_under_a_huge_ship_s_template_are_reported(x: float, through: bool) -> None:
    """rules.md, Huge ships, 2.0: "Obstacles a huge ship moves through or ends on are
    reported as for standard ships". The straight-2 template spans x 447.2-467.2, y
    312.5-392.5; a 20 mm rock at y 350 touches its side when centred at x = 477.2."""
    result = fly(scene_of("xwing2", obstacles=(rock("rock", x, 350.0),)))
    assert result.obstacles == ((("rock", "moves-through"),) if through else ())
    assert detail(result).removed == ()


def test_2e_an_obstacle_under_the_final_base_is_reported_by_section_not_removed() -> None:
    # The final base spans y 392.5-617.5 around 505: a rock at y 560 is under the fore half.
    result = fly(scene_of("xwing2", obstacles=(rock("fore-rock", X, 560.0),)))
    assert result.obstacles == (("fore-rock", "ends-on"),)
    assert dict(detail(result).sections) == {"fore": ("fore-rock",), "aft": ()}
    assert result.to_json()["removed"] == []


def test_the_move_command_prints_the_huge_ship_rulings(tmp_path: Path) -> None:
    text = ships("xwing2", ("raider", "huge", X, 200.0, 90.0), ("xwing", "small", X, 600.0, 90.0))
    path = scene_file(tmp_path, text)
    data = run_json("move", path, "raider", "straight", "2", "--json")
    assert data["final"]["at"] == [457.2, 505.0]
    assert data["set_aside"] == ["xwing"]
    code, out, _ = run("move", path, "raider", "straight 2")
    assert code == 0
    # As docs/move.md prints it.
    assert out == (
        "raider: straight 2\n"
        "  start:      (457.2, 200.0) heading 90.0°\n"
        "  final:      (457.2, 505.0) heading 90.0°\n"
        "  complete:   yes\n"
        "  bumped:     no\n"
        "  fled:       no\n"
        "  obstacles:  none\n"
        "  speeds:     tried 2; flown: straight 2\n"
        "  overlapped: xwing (small, at speed 2): set aside; its owner places it again after the move\n"
        "  damage:     xwing: 2 critical damage\n"
        '  rule:       2.0 Rules Reference, huge-ship appendix: "A huge ship overlapping a '
        "standard ship completes its maneuver; the standard ship suffers critical damage "
        "equal to the revealed speed and is set aside until the huge ship has moved, then "
        'placed by its owner"\n'
        "  fore:       no obstacle\n"
        "  aft:        no obstacle\n"
        '  template:   rules.md, Final poses (every base): "straight s: (0, 2h + 40s), 0°; '
        "bank s: (R(1 − cos45°) + h·sin45°, h + R·sin45° + h·cos45°), −45° heading "
        'change"\n'
    )
