"""Armada moves: tool side, speed reduction on a blocked move, obstacles, squadrons, fleeing.

Small base 43 × 71; a straight course moves 68.4 mm per speed (46.13 + 22.27).
"""

from __future__ import annotations

import numpy as np
import pytest
from common import tool_detail

from tabletop.geom.areas import play_area
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.objects import Ship
from tabletop.geom.rulesets import get_ruleset
from tabletop.maneuvers import armada_tool, choose_side, execute, parse_maneuver
from tabletop.maneuvers.notation import ArmadaCourse
from tabletop.obstacles.scene import Obstacle, Scene

ARMADA = get_ruleset("armada")
A = Ship("a", "small", 900.0, 200.0)


def square(ident: str, x: float, y: float, side: float = 20.0) -> Obstacle:
    half = side / 2.0
    outline = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    return Obstacle(ident, outline, "asteroid", x, y)


def scene_of(obstacles: tuple[Obstacle, ...], *ships: Ship) -> Scene:
    return Scene(ARMADA, play_area("6x3ft"), phase="play", obstacles=obstacles, ships=ships)


def test_a_free_straight_course() -> None:
    result = execute(scene_of((), A), "a", "speed 3")
    assert result.final.tolist() == pytest.approx([900.0, 200.0 + 3 * 68.4, 90.0])
    assert result.complete
    assert result.bumped is None
    assert tool_detail(result).speed == 3
    assert tool_detail(result).side == "left"
    assert tool_detail(result).tool_overlap is False
    assert result.maneuver == "speed 3 yaw 0 0 0"
    # The tool lies alongside, touching the base side: x 900 - 21.5 - 15.25 to 900 - 21.5.
    assert result.template is not None
    assert result.template.bounds == pytest.approx((863.25, 235.5, 878.5, 235.5 + 3 * 68.4))


def test_a_blocked_move_drops_speed_until_it_fits() -> None:
    # The blocker's rear edge at 405.2 - 35.5 = 369.7. Speed 3 overlaps it; speed 2 puts
    # a's front at 336.8 + 35.5 = 372.3 (overlap); speed 1 at 303.9 fits.
    blocker = Ship("b", "small", 900.0, 200.0 + 3 * 68.4)
    result = execute(scene_of((), A, blocker), "a", "speed 3 yaw 0 0 0")
    assert tool_detail(result).speed == 1
    assert result.final.tolist() == pytest.approx([900.0, 268.4, 90.0])
    assert result.bumped == "b"
    assert not result.complete
    assert result.to_json()["speed"] == 1


def test_the_closest_overlapped_ship_is_bumped() -> None:
    near = Ship("near", "small", 900.0, 340.0)  # overlapped at speeds 3 and 2
    far = Ship("far", "small", 930.0, 440.0)  # x from 908.5, y from 404.5: speed 3 only
    result = execute(scene_of((), A, near, far), "a", "speed 3")
    assert tool_detail(result).speed == 1
    assert result.bumped == "near"


def test_a_move_that_fits_only_at_speed_0() -> None:
    blocker = Ship("b", "small", 900.0, 271.0 + 1.0)  # rear edge 236.5: overlaps speed 1
    result = execute(scene_of((), A, blocker), "a", "speed 2")
    assert tool_detail(result).speed == 0
    assert result.final.tolist() == pytest.approx(A.pose.tolist())
    assert result.bumped == "b"


def test_touching_is_not_overlapping() -> None:
    blocker = Ship("b", "small", 900.0, 200.0 + 2 * 68.4 + 71.0)
    result = execute(scene_of((), A, blocker), "a", "speed 2")
    assert tool_detail(result).speed == 2
    assert result.complete


def test_the_tool_goes_on_the_side_away_from_the_turn() -> None:
    # Turning right with the tool on the left swings the base into the tool.
    assert choose_side(ArmadaCourse(1, (-1,)), "small", ARMADA) == ("right", (True, False))
    assert choose_side(ArmadaCourse(1, (1,)), "small", ARMADA) == ("left", (False, True))
    assert choose_side(ArmadaCourse(2, (0, 0)), "small", ARMADA) == ("left", (False, False))
    result = execute(scene_of((), A), "a", "speed 1 yaw -1")
    assert tool_detail(result).side == "right"
    assert result.legal is None
    assert result.final[2] == pytest.approx(67.5)


def test_a_named_side_that_overlaps_the_tool_is_reported() -> None:
    result = execute(scene_of((), A), "a", "speed 1 yaw -1 side left")
    assert result.legal is False
    assert result.reason == "the ship would overlap the tool on the left side"
    assert tool_detail(result).tool_overlap is True


def test_huge_ships_take_the_tool_at_their_rear_base() -> None:
    layout = armada_tool(ArmadaCourse(1, (0,)), "huge", ARMADA, "left")
    assert layout.points[0].tolist() == pytest.approx([-(77.5 / 2 + 7.625), -351.4 / 2 + 129.0])
    result = execute(scene_of((), Ship("h", "huge", 900.0, 400.0)), "h", "speed 2")
    assert result.final.tolist() == pytest.approx([900.0, 400.0 + 2 * 68.4, 90.0])


def test_obstacles_count_at_the_final_position_only() -> None:
    obstacles = (
        square("passed", 900.0, 260.0),  # under the path, not under the final base
        square("landed", 900.0, 200.0 + 2 * 68.4 + 30.0),
        square("touched", 900.0 + 21.5 + 10.0, 336.8),  # touches the final base's side
    )
    result = execute(scene_of(obstacles, A), "a", "speed 2")
    assert result.obstacles == (("landed", "ends-on"),)


def test_speed_0_still_resolves_obstacles() -> None:
    result = execute(scene_of((square("under", 900.0, 200.0),), A), "a", "speed 0")
    assert result.obstacles == (("under", "ends-on"),)
    assert result.template is None
    assert tool_detail(result).side is None


def test_squadrons_do_not_stop_a_ship() -> None:
    squadron = Ship("tie", "squadron", 900.0, 200.0 + 68.4)
    result = execute(scene_of((), A, squadron), "a", "speed 1")
    assert tool_detail(result).speed == 1
    assert result.complete
    assert tool_detail(result).squadrons == ("tie",)


def test_fleeing() -> None:
    result = execute(scene_of((), Ship("a", "small", 900.0, 800.0)), "a", "speed 2")
    assert result.fled


def test_squadrons_cannot_use_the_tool() -> None:
    with pytest.raises(InvalidInputError, match="a squadron moves by distance"):
        execute(scene_of((), Ship("tie", "squadron", 900.0, 200.0)), "tie", "speed 1")


@pytest.mark.parametrize(
    ("words", "match"),
    [
        ("speed 5", r"speed 5 is out of range \(0 to 4\)"),
        ("speed 2 yaw 0", "speed 2 takes 2 yaw values"),
        ("speed 1 yaw 3", r"a yaw value 3 is out of range \(-2 to 2\)"),
        ("speed 1 side up", "expected left or right"),
        ("straight 2", "unknown word 'straight'"),
    ],
)
def test_bad_courses(words: str, match: str) -> None:
    with pytest.raises(InvalidInputError, match=match) as error:
        parse_maneuver(words, ARMADA)
    assert "accepted for armada: speed 0-4" in str(error.value)
