"""Maneuvers: X-Wing templates, rolls and boosts, the Armada maneuver tool, and moves.

:func:`execute` runs one maneuver of one ship against a scene (bumps, obstacles,
fleeing, roll and boost legality) and returns a :class:`MoveResult`; :func:`final_pose`
is the scene-free, array-first final pose of a complete maneuver; :func:`parse_maneuver`
reads the words of ``cli.md``.
"""

from maneuvers.armada import ToolLayout, armada_local_move, armada_tool, choose_side, execute_armada
from maneuvers.moves import execute, final_pose, local_move
from maneuvers.notation import (
    ADVANCED_BEARINGS,
    ARMADA_MAX_CLICKS,
    ARMADA_MAX_SPEED,
    XWING_SPEEDS,
    ArmadaCourse,
    BarrelRoll,
    Bearing,
    Boost,
    Direction,
    Maneuver,
    RollPosition,
    XWingManeuver,
    accepted_maneuvers,
    maneuver_name,
    parse_maneuver,
)
from maneuvers.result import ActionPosition, MoveResult, ObstacleHit, json_pose
from maneuvers.templates import (
    ARC_STEP_DEGREES,
    BANK_DEGREES,
    BANK_RADII_MM,
    STRAIGHT_UNIT_MM,
    TEMPLATE_WIDTH_MM,
    TURN_DEGREES,
    TURN_RADII_MM,
    PosePath,
    TemplateShape,
    mirror_moves,
    template_polygon,
    xwing_final_move,
)
from maneuvers.xwing import (
    BUMP_STEP_MM,
    SLIDE_STEP_MM,
    RollGeometry,
    execute_xwing,
    roll_geometry,
    xwing_local_move,
)

__all__ = [
    "ADVANCED_BEARINGS",
    "ARC_STEP_DEGREES",
    "ARMADA_MAX_CLICKS",
    "ARMADA_MAX_SPEED",
    "BANK_DEGREES",
    "BANK_RADII_MM",
    "BUMP_STEP_MM",
    "SLIDE_STEP_MM",
    "STRAIGHT_UNIT_MM",
    "TEMPLATE_WIDTH_MM",
    "TURN_DEGREES",
    "TURN_RADII_MM",
    "XWING_SPEEDS",
    "ActionPosition",
    "ArmadaCourse",
    "BarrelRoll",
    "Bearing",
    "Boost",
    "Direction",
    "Maneuver",
    "MoveResult",
    "ObstacleHit",
    "PosePath",
    "RollGeometry",
    "RollPosition",
    "TemplateShape",
    "ToolLayout",
    "XWingManeuver",
    "accepted_maneuvers",
    "armada_local_move",
    "armada_tool",
    "choose_side",
    "execute",
    "execute_armada",
    "execute_xwing",
    "final_pose",
    "json_pose",
    "local_move",
    "maneuver_name",
    "mirror_moves",
    "parse_maneuver",
    "roll_geometry",
    "template_polygon",
    "xwing_final_move",
    "xwing_local_move",
]
