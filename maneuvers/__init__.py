"""Maneuvers: X-Wing templates, rolls and boosts, the Armada maneuver tool, and moves.

:func:`execute` runs one maneuver of one ship against a scene (bumps, obstacles,
fleeing, roll and boost legality) and returns a :class:`MoveResult`; :func:`final_pose`
is the scene-free, array-first final pose of a complete maneuver; :func:`parse_maneuver`
reads the words of ``cli.md``.
"""

import typing as _typing

from geom._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from maneuvers.armada import (
        ToolLayout,
        armada_local_move,
        armada_tool,
        chart_violation,
        choose_side,
        execute_armada,
    )
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
    "chart_violation",
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

# Names load on first use (PEP 562), so that a command pays only for what it uses.
_SOURCES: dict[str, str] = {
    "ADVANCED_BEARINGS": "maneuvers.notation",
    "ARC_STEP_DEGREES": "maneuvers.templates",
    "ARMADA_MAX_CLICKS": "maneuvers.notation",
    "ARMADA_MAX_SPEED": "maneuvers.notation",
    "ActionPosition": "maneuvers.result",
    "ArmadaCourse": "maneuvers.notation",
    "BANK_DEGREES": "maneuvers.templates",
    "BANK_RADII_MM": "maneuvers.templates",
    "BUMP_STEP_MM": "maneuvers.xwing",
    "BarrelRoll": "maneuvers.notation",
    "Bearing": "maneuvers.notation",
    "Boost": "maneuvers.notation",
    "Direction": "maneuvers.notation",
    "Maneuver": "maneuvers.notation",
    "MoveResult": "maneuvers.result",
    "ObstacleHit": "maneuvers.result",
    "PosePath": "maneuvers.templates",
    "RollGeometry": "maneuvers.xwing",
    "RollPosition": "maneuvers.notation",
    "SLIDE_STEP_MM": "maneuvers.xwing",
    "STRAIGHT_UNIT_MM": "maneuvers.templates",
    "TEMPLATE_WIDTH_MM": "maneuvers.templates",
    "TURN_DEGREES": "maneuvers.templates",
    "TURN_RADII_MM": "maneuvers.templates",
    "TemplateShape": "maneuvers.templates",
    "ToolLayout": "maneuvers.armada",
    "XWING_SPEEDS": "maneuvers.notation",
    "XWingManeuver": "maneuvers.notation",
    "accepted_maneuvers": "maneuvers.notation",
    "armada_local_move": "maneuvers.armada",
    "armada_tool": "maneuvers.armada",
    "chart_violation": "maneuvers.armada",
    "choose_side": "maneuvers.armada",
    "execute": "maneuvers.moves",
    "execute_armada": "maneuvers.armada",
    "execute_xwing": "maneuvers.xwing",
    "final_pose": "maneuvers.moves",
    "json_pose": "maneuvers.result",
    "local_move": "maneuvers.moves",
    "maneuver_name": "maneuvers.notation",
    "mirror_moves": "maneuvers.templates",
    "parse_maneuver": "maneuvers.notation",
    "roll_geometry": "maneuvers.xwing",
    "template_polygon": "maneuvers.templates",
    "xwing_final_move": "maneuvers.templates",
    "xwing_local_move": "maneuvers.xwing",
}


__getattr__, __dir__ = _lazy_attributes(__name__, _SOURCES, __all__)
