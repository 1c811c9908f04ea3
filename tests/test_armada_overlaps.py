"""Armada ship overlaps in Armada's words: the speeds tried, the speed it ends at, the damage.

RRG 1.6, Overlapping (``../shared/reference/armada.md`` 3.3): a ship that would overlap a
ship "temporarily reduce[s] speed by one ... and move[s] at the new speed; repeat until it
fits, even at speed 0; then deal one facedown damage card to the ship that moved and the
closest ship that it overlapped". Exactly touching is not overlapping.

Worked out by hand: ``m`` is a small base (43 x 71) at (500, 200) facing +y; a straight
speed s moves it 68.4 s (its front edge to 235.5 + 68.4 s). A small ship centred at
(500, y) has its rear edge at y - 35.5, so speed s overlaps it when y < 271 + 68.4 s:
speed 3 below 476.2, speed 2 below 407.8, speed 1 below 339.4. A slow shapely model of the
two rectangles confirms those lines.
"""

from __future__ import annotations

import pytest
import shapely

from tabletop.geom.areas import play_area
from tabletop.geom.objects import Ship
from tabletop.geom.rulesets import get_ruleset
from tabletop.maneuvers import execute
from tabletop.maneuvers.result import MoveResult
from tabletop.obstacles.scene import Scene


def small_box(x: float, y: float) -> shapely.Polygon:
    return shapely.box(x - 21.5, y - 35.5, x + 21.5, y + 35.5)


def course(*others: Ship, words: str = "speed 3") -> MoveResult:
    scene = Scene(
        get_ruleset("armada"),
        play_area("6x3ft"),
        phase="play",
        obstacles=(),
        ships=(Ship("m", "small", 500.0, 200.0), *others),
    )
    return execute(scene, "m", words)


@pytest.mark.parametrize(("speed", "line"), [(3, 476.2), (2, 407.8), (1, 339.4)])
def test_the_lines_agree_with_a_slow_model(speed: int, line: float) -> None:
    mover = small_box(500.0, 200.0 + 68.4 * speed)
    assert shapely.intersection(mover, small_box(500.0, line)).area < 1e-9
    assert shapely.intersection(mover, small_box(500.0, line - 0.1)).area > 1.0
    assert shapely.intersection(mover, small_box(500.0, line + 0.1)).area == 0.0


@pytest.mark.parametrize(
    ("y", "tried", "final_y"),
    [
        (476.2, None, 405.2),  # touching at speed 3: no overlap, the course completes
        (476.3, None, 405.2),
        (476.1, [3, 2], 336.8),  # 0.1 deep at speed 3: speed 2 fits
        (407.8, [3, 2], 336.8),  # speed 2 touches: it fits
        (407.7, [3, 2, 1], 268.4),  # speed 2 overlaps too: speed 1
    ],
)
def test_a_ship_that_would_overlap_moves_one_speed_less_until_it_fits(
    y: float, tried: list[int] | None, final_y: float
) -> None:
    result = course(Ship("a", "small", 500.0, y))
    assert result.final.tolist() == pytest.approx([500.0, final_y, 90.0])
    data = result.to_json()
    if tried is None:
        assert result.complete
        assert "speeds_tried" not in data
        assert data["speed"] == 3
        return
    assert not result.complete
    assert data["speeds_tried"] == tried
    assert data["speed"] == tried[-1]
    assert data["bumped"] == "a"
    # Armada ships drop speed; they do not back into contact: no touching point.
    assert data["bump_point"] is None
    assert [(d["ship"], d["amount"], d["kind"]) for d in data["damage"]] == [
        ("m", 1, "facedown-card"),
        ("a", 1, "facedown-card"),
    ]
    assert "touching" not in result.describe()


def test_only_the_closest_ship_overlapped_is_dealt_a_card() -> None:
    """Speed 3 ends at y 405.2 (base y 369.7-440.7, x 478.5-521.5): ``a`` at (500, 450)
    (rear edge 414.5) and ``b`` at (540, 470) (x 518.5-561.5, rear edge 434.5) both
    overlap; speed 2 (base up to 372.3) fits. From there ``a`` is 414.5 - 372.3 = 42.2 mm
    away and ``b`` 434.5 - 372.3 = 62.2 mm: ``a`` is the closest."""
    result = course(Ship("a", "small", 500.0, 450.0), Ship("b", "small", 540.0, 470.0))
    data = result.to_json()
    assert data["speeds_tried"] == [3, 2]
    assert [(o["id"], o["speeds"]) for o in data["overlapped"]] == [("a", [3]), ("b", [3])]
    assert [d["ship"] for d in data["damage"]] == ["m", "a"]
    text = result.describe()
    assert "  speeds:     tried 3, 2; ends at speed 2\n" in text
    assert "  bumped:     yes, a (the closest ship overlapped; the ships do not touch)\n" in text
    assert "  damage:     m: 1 facedown damage card; a: 1 facedown damage card" in text
