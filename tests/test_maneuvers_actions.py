"""Barrel rolls and boosts: positions, legality and the reasons given.

Ship "a" is small at (300, 300) facing +y. A left roll moves it 80 mm to x = 220; its
1-straight template lies against the left side, x 240-280, y 290-310 (2.0).
"""

from __future__ import annotations

import numpy as np
import pytest
from common import template_detail

from tabletop.geom.areas import play_area
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.objects import Ship
from tabletop.geom.rulesets import get_ruleset
from tabletop.maneuvers import execute
from tabletop.obstacles.scene import Obstacle, Scene

A = Ship("a", "small", 300.0, 300.0)


def square(ident: str, x: float, y: float, side: float = 10.0) -> Obstacle:
    half = side / 2.0
    outline = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    return Obstacle(ident, outline, "debris", x, y)


def scene_of(ruleset: str, obstacles: tuple[Obstacle, ...], *ships: Ship) -> Scene:
    return Scene(
        get_ruleset(ruleset), play_area("3x3ft"), phase="play", obstacles=obstacles, ships=ships
    )


def test_a_free_roll_reports_three_legal_positions_and_ends_at_the_centre() -> None:
    result = execute(scene_of("xwing2", (), A), "a", "roll left")
    assert result.legal is True
    assert result.reason is None
    assert result.complete
    assert result.final.tolist() == pytest.approx([220.0, 300.0, 90.0])
    assert [(p.name, p.legal) for p in template_detail(result).positions] == [
        ("forward", True),
        ("centre", True),
        ("back", True),
    ]
    assert [p.pose[1] for p in template_detail(result).positions] == pytest.approx(
        [310.0, 300.0, 290.0]
    )
    assert result.template is not None
    assert result.template.bounds == pytest.approx((240.0, 290.0, 280.0, 310.0))
    data = result.to_json()
    assert data["legal"] is True
    assert data["positions"][0] == {
        "position": "forward",
        "offset": 10.0,
        "at": [220.0, 310.0],
        "heading": 90.0,
        "legal": True,
        "reason": None,
    }


def test_a_roll_blocked_at_centre_and_forward_ends_back() -> None:
    # The blocker at (220, 338): body from 318, guides from 316.4 at the same x as a's.
    # forward: a's guides reach 331.6 (overlap); centre: body to 320 (overlap); back: 311.6.
    blocker = Ship("b", "small", 220.0, 338.0)
    result = execute(scene_of("xwing2", (), A, blocker), "a", "roll left")
    assert result.legal is True
    assert result.final.tolist() == pytest.approx([220.0, 290.0, 90.0])
    reasons = {p.name: p.reason for p in template_detail(result).positions}
    assert reasons == {
        "forward": "the base overlaps ship b",
        "centre": "the base overlaps ship b",
        "back": None,
    }


def test_a_named_position_that_fails_is_illegal() -> None:
    blocker = Ship("b", "small", 220.0, 338.0)
    result = execute(scene_of("xwing2", (), A, blocker), "a", "roll left forward")
    assert result.legal is False
    assert not result.complete
    assert result.reason == "the forward position fails: the base overlaps ship b"
    assert result.final.tolist() == pytest.approx(A.pose.tolist())


def test_a_roll_fails_when_every_position_fails() -> None:
    rock = square("rock", 260.0, 300.0)  # on the template
    result = execute(scene_of("xwing2", (rock,), A), "a", "roll left")
    assert result.legal is False
    assert result.final.tolist() == pytest.approx(A.pose.tolist())
    assert result.reason == (
        "every position fails: forward: the template overlaps obstacle rock; "
        "centre: the template overlaps obstacle rock; back: the template overlaps obstacle rock"
    )


def test_roll_reasons_for_obstacles_under_the_base_and_fleeing() -> None:
    rock = square("rock", 220.0, 282.0)  # under the back and centre positions only
    result = execute(scene_of("xwing2", (rock,), A), "a", "roll left")
    assert result.final.tolist() == pytest.approx([220.0, 310.0, 90.0])
    assert template_detail(result).positions[2].reason == "the base overlaps obstacle rock"
    edge = Ship("a", "small", 70.0, 300.0)
    fled = execute(scene_of("xwing2", (), edge), "a", "roll left")
    assert fled.legal is False
    assert template_detail(fled).positions[1].reason == "the ship would flee the play area"
    assert not fled.fled


def test_a_touching_position_is_legal() -> None:
    # The blocker's guides touch the centre position's guides exactly: y 300 + 21.6 = 321.6.
    blocker = Ship("b", "small", 220.0, 343.2)
    result = execute(scene_of("xwing2", (), A, blocker), "a", "roll left")
    assert [p.legal for p in template_detail(result).positions] == [False, True, True]
    assert result.final[1] == pytest.approx(300.0)


def test_medium_and_large_rolls_use_the_long_side() -> None:
    medium = execute(
        scene_of("xwing2", (), Ship("a", "medium", 300.0, 300.0)), "a", "roll right back"
    )
    assert medium.final.tolist() == pytest.approx([380.0, 280.0, 90.0])
    assert medium.template is not None
    assert medium.template.bounds == pytest.approx((330.0, 280.0, 350.0, 320.0))
    large = execute(scene_of("xwing2", (), Ship("a", "large", 300.0, 300.0)), "a", "roll right")
    assert large.final.tolist() == pytest.approx([400.0, 300.0, 90.0])


def test_first_edition_roll_reports_the_legal_slide() -> None:
    # The blocker at (220, 360): its rear guides at 338.4, a's front guides at 321.6 + o.
    # Legal while o <= 16.8; the slide runs from -20 to +20.
    blocker = Ship("b", "small", 220.0, 360.0)
    result = execute(scene_of("xwing1", (), A, blocker), "a", "roll left")
    assert len(template_detail(result).intervals) == 1
    low, high = template_detail(result).intervals[0]
    assert low == pytest.approx(-20.0)
    assert high == pytest.approx(16.8, abs=1e-3)
    assert result.final.tolist() == pytest.approx([220.0, 300.0, 90.0])
    assert [p.offset for p in template_detail(result).positions] == [20.0, 0.0, -20.0]
    assert [p.legal for p in template_detail(result).positions] == [False, True, True]
    assert result.to_json()["intervals"] == [[-20.0, pytest.approx(16.8, abs=1e-3)]]


def test_first_edition_roll_ends_at_the_legal_offset_nearest_the_centre() -> None:
    # The blocker at (220, 335): legal while 321.6 + o <= 313.4, i.e. o <= -8.2.
    blocker = Ship("b", "small", 220.0, 335.0)
    result = execute(scene_of("xwing1", (), A, blocker), "a", "roll left")
    assert result.legal is True
    assert template_detail(result).intervals[0] == pytest.approx((-20.0, -8.2), abs=1e-3)
    assert result.final[1] == pytest.approx(300.0 - 8.2, abs=1e-3)


def test_boosts() -> None:
    free = execute(scene_of("xwing2", (), A), "a", "boost bank left")
    assert free.legal is True
    assert free.final.tolist() == pytest.approx([300.0 - 37.5736, 300.0 + 90.7107, 135.0], abs=1e-3)
    blocker = Ship("b", "small", 300.0, 400.0)
    blocked = execute(scene_of("xwing2", (), A, blocker), "a", "boost straight")
    assert blocked.legal is False
    assert blocked.reason == "the base overlaps ship b"
    assert blocked.bumped is None
    assert blocked.final.tolist() == pytest.approx(A.pose.tolist())
    rock = square("rock", 300.0, 330.0)  # on the 1-straight template (y 320-360)
    through = execute(scene_of("xwing2", (rock,), A), "a", "boost straight")
    assert through.reason == "the template overlaps obstacle rock"


def test_huge_ships_cannot_roll() -> None:
    with pytest.raises(InvalidInputError, match="a huge ship cannot do 'roll left'"):
        execute(scene_of("xwing2", (), Ship("a", "huge", 300.0, 300.0)), "a", "roll left")
