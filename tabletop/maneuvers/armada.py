"""Armada moves: the maneuver tool, its side, speed reduction on overlap, obstacles.

The tool (``rules.md``, Maneuver tool; ``armada_tool`` constants of the ruleset): its
first guides sit in the notches at the front of the base (a huge ship: the front of its
rear base), on one side, the tool's centre line ``half width`` outboard of the base
side. Each joint is ``to_pivot`` (46.13 mm) past the previous guides; after turning by
its clicks (22.5° each, positive counter-clockwise) the tool runs ``pivot_to_guides``
(22.27 mm) to that joint's guides. The ship ends keeping the pose relative to the guides
of its speed's joint that it had relative to the first guides.

Examples
--------
>>> from tabletop.geom.rulesets import get_ruleset
>>> from tabletop.maneuvers.notation import ArmadaCourse
>>> armada = get_ruleset("armada")
>>> armada_local_move(ArmadaCourse(2, (0, 0)), "small", armada).round(6).tolist()
[0.0, 136.8, 0.0]
>>> armada_local_move(ArmadaCourse(1, (-1,)), "small", armada).round(3).tolist()
[-2.846, 80.553, -22.5]
>>> choose_side(ArmadaCourse(1, (-1,)), "small", armada)
('right', (True, False))
"""

from __future__ import annotations

import dataclasses as _dc
import math as _math

import numpy as np
import shapely

from tabletop.geom.errors import IllegalManeuverError
from tabletop.geom.hulls import speed_chart
from tabletop.geom.measure import geometry_distance, overlaps
from tabletop.geom.objects import Ship
from tabletop.geom.poses import FloatArray, Millimetres, compose
from tabletop.geom.rulesets import Ruleset
from tabletop.geom.shapes import rectangle, world_polygon
from tabletop.maneuvers._shared import nearest_first, outside_play_area, place
from tabletop.maneuvers.notation import ArmadaCourse, Direction, maneuver_name
from tabletop.maneuvers.overlaps import Damage, ShipOverlap, ShipOverlaps
from tabletop.maneuvers.result import MoveResult, ObstacleHit, ToolMove
from tabletop.obstacles.scene import Scene

__all__ = [
    "ToolLayout",
    "armada_local_move",
    "armada_tool",
    "chart_violation",
    "choose_side",
    "execute_armada",
]

#: The sentence that deals the damage of a ship overlapping a ship, and where it is.
_OVERLAP_RULE = (
    "deal one facedown damage card to the ship that moved and the closest ship that it overlapped"
)
_OVERLAP_SOURCE = "Armada Rules Reference, Overlapping"


@_dc.dataclass(frozen=True, eq=False)
class ToolLayout:
    """The maneuver tool set to a course, in the ship frame of the starting pose.

    Attributes
    ----------
    points : ndarray of shape (2n + 1, 2)
        The tool's centre line: the first guides, then each pivot and the guides after
        it, mm.
    final_move : ndarray of shape (3,)
        The ship's local move ``(dx, dy, dheading)`` to the guides of the last joint.
    half_width : float
        Half the tool's width, mm.
    """

    points: FloatArray
    final_move: FloatArray
    half_width: Millimetres

    def polygon(self) -> shapely.Geometry:
        """Return the tool's outline (round at the joints), or an empty polygon at speed 0.

        Examples
        --------
        >>> from tabletop.geom.rulesets import get_ruleset
        >>> layout = armada_tool(ArmadaCourse(1, (0,)), "small", get_ruleset("armada"), "left")
        >>> [round(v, 3) for v in layout.polygon().bounds]
        [-36.75, 35.5, -21.5, 103.9]
        """
        if len(self.points) < 2:
            return shapely.Polygon()
        line = shapely.LineString(self.points)
        return shapely.buffer(line, self.half_width, cap_style="flat", join_style="round")


def _guides_start(ruleset: Ruleset, base: str, side: Direction) -> FloatArray:
    width, length = ruleset.base_size(base)
    tool = ruleset.armada_tool
    x = (width / 2.0 + tool["half_width"]) * (-1.0 if side == "left" else 1.0)
    # A huge ship takes the tool at the notches of its rear (large) base.
    front = length / 2.0
    if base == "huge":
        front = -length / 2.0 + ruleset.base_size("large")[1]
    return np.array([x, front])


def armada_tool(course: ArmadaCourse, base: str, ruleset: Ruleset, side: Direction) -> ToolLayout:
    """Lay the maneuver tool for `course` on one side of a base (ship frame).

    Examples
    --------
    >>> from tabletop.geom.rulesets import get_ruleset
    >>> layout = armada_tool(ArmadaCourse(1, (0,)), "small", get_ruleset("armada"), "right")
    >>> layout.points.round(3).tolist()
    [[29.125, 35.5], [29.125, 81.63], [29.125, 103.9]]
    """
    tool = ruleset.armada_tool
    start = _guides_start(ruleset, base, side)
    points = [start]
    at, angle = start, 0.0
    for clicks in course.yaws[: course.speed]:
        pivot = at + tool["to_pivot"] * np.array([-_math.sin(angle), _math.cos(angle)])
        angle += _math.radians(clicks * tool["click_degrees"])
        at = pivot + tool["pivot_to_guides"] * np.array([-_math.sin(angle), _math.cos(angle)])
        points += [pivot, at]
    # The ship keeps its pose relative to the guides: rotate the offset from the first
    # guides to the ship centre by the course's turn and hang it from the last guides.
    c, s = _math.cos(angle), _math.sin(angle)
    offset = -start
    centre = at + np.array([c * offset[0] - s * offset[1], s * offset[0] + c * offset[1]])
    move = np.array([centre[0], centre[1], _math.degrees(angle)])
    return ToolLayout(np.array(points), move, tool["half_width"])


def _tool_overlap(layout: ToolLayout, ruleset: Ruleset, base: str) -> bool:
    width, length = ruleset.base_size(base)
    # At heading 90° the world axes are the ship frame's (+x right, +y forward).
    final = world_polygon(rectangle(width, length), compose([0.0, 0.0, 90.0], layout.final_move))
    tool = layout.polygon()
    return False if tool.is_empty else bool(overlaps(final, tool))


def choose_side(
    course: ArmadaCourse, base: str, ruleset: Ruleset
) -> tuple[Direction, tuple[bool, bool]]:
    """Return the tool side for a course and whether the ship overlaps the tool (left, right).

    The course's own side if it names one; else the side on which the final base does
    not overlap the tool, left where both fit (and left where neither does).
    """
    left = _tool_overlap(armada_tool(course, base, ruleset, "left"), ruleset, base)
    right = _tool_overlap(armada_tool(course, base, ruleset, "right"), ruleset, base)
    if course.side is not None:
        return course.side, (left, right)
    return ("right" if left and not right else "left"), (left, right)


def _check_base(course: ArmadaCourse, base: str, ruleset: Ruleset, text: str | None) -> None:
    if ruleset.base_spec(base).is_disk:
        raise IllegalManeuverError(
            "a squadron moves by distance, not with the maneuver tool; "
            "`move` takes Armada ships (small, medium, large, huge bases)",
            text or maneuver_name(course),
        )


def armada_local_move(
    course: ArmadaCourse, base: str, ruleset: Ruleset, *, text: str | None = None
) -> FloatArray:
    """Return the local move ``(dx, dy, dheading)`` of a full-speed course (side: :func:`choose_side`).

    Raises
    ------
    IllegalManeuverError
        For a squadron; its ``where`` names `text` (the words as given) or the course.
    """
    _check_base(course, base, ruleset, text)
    if course.speed == 0:
        return np.zeros(3)
    side, _ = choose_side(course, base, ruleset)
    return armada_tool(course, base, ruleset, side).final_move


def chart_violation(course: ArmadaCourse, hull: str | None) -> str | None:
    """Return why a course breaks the hull's speed chart, or None when it keeps to it.

    Without a known chart (no hull, or a hull the data lacks) every course is allowed.
    With ``navigate``, one joint may take one click more than its chart entry.

    Examples
    --------
    >>> chart_violation(ArmadaCourse(2, (0, 1)), "victory") is None
    True
    >>> chart_violation(ArmadaCourse(2, (1, 1)), "victory")
    'victory speed 2 allows at most 0 clicks at joint 1, got 1 (its chart: speed 1: I; speed 2: - I)'
    >>> chart_violation(ArmadaCourse(2, (1, 1), navigate=True), "victory") is None
    True
    >>> chart_violation(ArmadaCourse(3, (0, 0, 0)), "victory")
    'victory has a top speed of 2, got speed 3 (its chart: speed 1: I; speed 2: - I)'
    """
    chart = speed_chart(hull)
    if chart is None or course.speed == 0:
        return None
    marks = {0: "-", 1: "I", 2: "II"}
    printed = "; ".join(
        f"speed {s}: " + " ".join(marks.get(c, str(c)) for c in row)
        for s, row in enumerate(chart, 1)
    )
    if course.speed > len(chart):
        return f"{hull} has a top speed of {len(chart)}, got speed {course.speed} (its chart: {printed})"
    row = chart[course.speed - 1]
    over = [
        (joint, abs(clicks) - row[joint])
        for joint, clicks in enumerate(course.yaws)
        if abs(clicks) > row[joint]
    ]
    if not over or (course.navigate and len(over) == 1 and over[0][1] == 1):
        return None
    joint = over[0][0]
    also = " even with navigate (one joint, one click more)" if course.navigate else ""
    return (
        f"{hull} speed {course.speed} allows at most {row[joint]} clicks at joint {joint + 1}"
        f"{also}, got {abs(course.yaws[joint])} (its chart: {printed})"
    )


def _refused(
    scene: Scene, ship: Ship, course: ArmadaCourse, reason: str, detail: ToolMove
) -> MoveResult:
    """Return the answer to a course that cannot be done: illegal, incomplete, unmoved."""
    body = world_polygon(rectangle(*scene.ruleset.base_size(ship.base)), ship.pose)
    return MoveResult(
        ship=ship.id,
        maneuver=maneuver_name(course),
        start=ship.pose,
        final=ship.pose,
        template=None,
        complete=False,
        bumped=None,
        fled=outside_play_area(scene.area, body),
        obstacles=(),
        legal=False,
        reason=reason,
        detail=detail,
    )


def _tool_side(
    scene: Scene, ship: Ship, course: ArmadaCourse
) -> tuple[Direction | None, shapely.Polygon | None, MoveResult | None]:
    """Choose the tool's side and place the tool; or the refusal when the ship overlaps it.

    Returns the side (None at speed 0), the placed tool polygon (None at speed 0) and the
    refused result (None when the course can be done).
    """
    if not course.speed:
        return None, None, None
    ruleset = scene.ruleset
    side, (left, right) = choose_side(course, ship.base, ruleset)
    # The ship may not end overlapping the tool: the tool goes on the other side.
    reason: str | None = None
    if course.side is not None and (left if side == "left" else right):
        reason = f"the ship would overlap the tool on the {side} side"
    elif left and right:
        reason = "the ship would overlap the tool on both sides"
    if reason is not None:
        # A course that cannot be done moves nothing (like one off the chart).
        refused = ToolMove(speed=course.speed, side=side, tool_overlap=True)
        return side, None, _refused(scene, ship, course, reason, refused)
    layout = armada_tool(course, ship.base, ruleset, side)
    return side, place(layout.polygon(), ship.pose), None


def _slow_until_clear(
    ship: Ship,
    course: ArmadaCourse,
    side: Direction | None,
    ruleset: Ruleset,
    blocker_polygons: list[shapely.Polygon],
) -> tuple[int, FloatArray, shapely.Polygon, list[int], dict[int, list[int]]]:
    """Move at one speed less while the ship would overlap a ship (even down to speed 0).

    Returns the speed moved, the final pose and base polygon there, the speeds tried, and
    for each overlapped blocker (by index) the speeds at which it was overlapped.
    """
    body = rectangle(*ruleset.base_size(ship.base))
    overlapped_at: dict[int, list[int]] = {}
    tried: list[int] = []
    speed = course.speed
    while True:
        reduced = ArmadaCourse(speed, course.yaws[:speed], side)
        move = (
            np.zeros(3)
            if speed == 0
            else armada_tool(reduced, ship.base, ruleset, side or "left").final_move
        )
        final = compose(ship.pose, move)
        polygon = world_polygon(body, final)
        tried.append(speed)
        hits = [i for i, other in enumerate(blocker_polygons) if overlaps(polygon, other)]
        for i in hits:
            overlapped_at.setdefault(i, []).append(speed)
        if not hits or speed == 0:
            return speed, final, polygon, tried, overlapped_at
        speed -= 1


def _squadrons_under(scene: Scene, polygon: shapely.Polygon) -> tuple[str, ...]:
    """Return the squadrons under the final base (the opponent places them aside)."""
    squadrons = []
    for other in scene.ships:
        if other.is_squadron:
            disk, radius = other.measured_shape(scene.ruleset)
            if overlaps(polygon, disk, 0.0, radius):
                squadrons.append(other.id)
    return tuple(squadrons)


def execute_armada(
    scene: Scene, ship: Ship, course: ArmadaCourse, *, text: str | None = None
) -> MoveResult:
    """Execute an Armada course of `ship` against `scene`.

    Raises
    ------
    IllegalManeuverError
        For a squadron; its ``where`` names `text` (the words as given) or the course.
    """
    _check_base(course, ship.base, scene.ruleset, text)
    ruleset = scene.ruleset
    start = ship.pose
    body = rectangle(*ruleset.base_size(ship.base))
    # The course must be one the hull's speed chart allows (where the chart is known).
    chart_problem = chart_violation(course, ship.hull)
    if chart_problem is not None:
        return _refused(scene, ship, course, chart_problem, ToolMove(speed=course.speed))
    side, template, refused = _tool_side(scene, ship, course)
    if refused is not None:
        return refused
    blockers = [s for s in scene.ships if s.id != ship.id and not s.is_squadron]
    blocker_polygons = [s.polygon(ruleset) for s in blockers]
    speed, final, polygon, tried, overlapped_at = _slow_until_clear(
        ship, course, side, ruleset, blocker_polygons
    )
    bumped: str | None = None
    ship_overlaps: ShipOverlaps | None = None
    if overlapped_at:
        # The closest ship it overlapped, by range from where it ends; it is not touching.
        index = min(
            overlapped_at,
            key=lambda i: (float(geometry_distance(polygon, blocker_polygons[i])), blockers[i].id),
        )
        bumped = blockers[index].id
        ship_overlaps = _overlap_answer(ship, blockers, overlapped_at, index, tried)
    # Obstacles count at the final position only, nearest to the starting base first.
    ends_on = [o for o in scene.obstacles if overlaps(polygon, o.polygon())]
    hits_out: tuple[ObstacleHit, ...] = tuple(
        (o.id, "ends-on") for o in nearest_first(world_polygon(body, start), ends_on)
    )
    tool_overlap = None if template is None else bool(overlaps(polygon, template))
    return MoveResult(
        ship=ship.id,
        maneuver=maneuver_name(course),
        start=start,
        final=final,
        template=template,
        complete=not overlapped_at,
        bumped=bumped,
        fled=outside_play_area(scene.area, polygon),
        obstacles=hits_out,
        detail=ToolMove(
            speed=speed,
            side=side,
            tool_overlap=tool_overlap,
            squadrons=_squadrons_under(scene, polygon),
        ),
        overlaps=ship_overlaps,
    )


def _overlap_answer(
    ship: Ship,
    blockers: list[Ship],
    overlapped_at: dict[int, list[int]],
    closest: int,
    tried: list[int],
) -> ShipOverlaps:
    """Say an overlap in Armada's words: speeds tried, ships overlapped, damage cards.

    RRG, Overlapping: "deal one facedown damage card to the ship that moved and the
    closest ship that it overlapped".
    """
    ships = tuple(
        ShipOverlap(blockers[i].id, blockers[i].base, "speed-down", tuple(speeds))
        for i, speeds in sorted(overlapped_at.items(), key=lambda item: blockers[item[0]].id)
    )
    damage = tuple(
        Damage(ident, 1, "facedown-card", _OVERLAP_RULE, _OVERLAP_SOURCE)
        for ident in (ship.id, blockers[closest].id)
    )
    return ShipOverlaps(speeds_tried=tuple(tried), ships=ships, damage=damage)
