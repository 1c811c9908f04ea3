"""X-Wing moves against a scene: maneuvers with bumps and obstacles, barrel rolls, boosts.

The rules applied are those of ``rules.md`` (Final poses, Barrel roll, Moving through and
ending on obstacles, Huge ships, Bump, Fled). Guides count as part of a base for
overlapping ships and obstacles; fleeing and the resolve-order distance use the base
without guides.

Examples
--------
>>> from tabletop.geom.rulesets import get_ruleset
>>> from tabletop.maneuvers.notation import BarrelRoll, XWingManeuver
>>> xw = get_ruleset("xwing2")
>>> xwing_local_move(XWingManeuver("koiogran", 2), "small", xw).tolist()
[0.0, 120.0, 180.0]
>>> xwing_local_move(BarrelRoll("left", "back"), "large", xw).tolist()
[-100.0, -20.0, 0.0]
>>> xwing_local_move(BarrelRoll("right", "forward"), "small", get_ruleset("xwing1")).tolist()
[80.0, 20.0, 0.0]
>>> xwing_local_move(XWingManeuver("turn", 1, "left"), "huge", xw)
Traceback (most recent call last):
...
tabletop.geom.errors.IllegalManeuverError: maneuver 'turn 1 left': a huge ship cannot do 'turn 1 left'; huge ships fly straight 1-5, bank 1-3 left|right and stationary
"""

from __future__ import annotations

import dataclasses as _dc
from collections.abc import Iterable, Sequence
from typing import Literal

import numpy as np
import shapely

from tabletop.geom.errors import IllegalManeuverError
from tabletop.geom.measure import closest_points, overlaps
from tabletop.geom.objects import Ship
from tabletop.geom.poses import FloatArray, Millimetres, compose, to_world
from tabletop.geom.rulesets import Ruleset
from tabletop.geom.shapes import base_footprint, world_polygon, world_polygons
from tabletop.maneuvers._shared import nearest_first, outside_play_area, place
from tabletop.maneuvers.bumps import last_free_progress, path_speed
from tabletop.maneuvers.notation import (
    BarrelRoll,
    Boost,
    XWingManeuver,
    maneuver_name,
)
from tabletop.maneuvers.result import ActionPosition, MoveResult, ObstacleHit, TemplateMove
from tabletop.maneuvers.templates import (
    PosePath,
    TemplateShape,
    template_polygon,
    xwing_final_move,
)
from tabletop.obstacles.scene import Scene

__all__ = [
    "SLIDE_STEP_MM",
    "RollGeometry",
    "execute_xwing",
    "roll_geometry",
    "xwing_local_move",
]

#: Step of the scan of a 1st-edition roll's slide, mm; boundaries are then bisected.
SLIDE_STEP_MM: Millimetres = 0.5

_TEMPLATE_KIND: dict[str, Literal["straight", "bank", "turn"]] = {
    "straight": "straight",
    "koiogran": "straight",
    "bank": "bank",
    "segnor": "bank",
    "turn": "turn",
    "tallon": "turn",
}
#: Turn after a complete advanced maneuver, right-hand version (left negates), degrees.
_EXTRA_TURN = {"koiogran": 180.0, "segnor": 180.0, "tallon": -90.0}
_HUGE_BEARINGS = frozenset({"straight", "bank", "stationary"})
_HUGE_WORDS = "huge ships fly straight 1-5, bank 1-3 left|right and stationary"


@_dc.dataclass(frozen=True)
class RollGeometry:
    """Where the 1-straight template and the ship go in a barrel roll to the right.

    Attributes
    ----------
    lateral : float
        How far sideways the ship moves, mm (base width plus the template's extent away
        from the side).
    across : float
        The template's extent away from the side: 40 for a narrow end against the
        side (small bases), 20 for the long side (medium and large), mm.
    along : float
        The template's extent along the side, mm.
    slide : float
        1st edition: the largest forward or backward offset of the continuous slide
        (base length minus `along`), mm.
    """

    lateral: Millimetres
    across: Millimetres
    along: Millimetres
    slide: Millimetres

    def offsets(self, ruleset: Ruleset) -> dict[str, Millimetres]:
        """Return the forward offset of each named position (forward, centre, back), mm."""
        reach = self.along / 2.0 if ruleset.xwing_roll_model == "positions" else self.slide
        return {"forward": reach, "centre": 0.0, "back": -reach}

    def template(self, width: Millimetres, offset: Millimetres, ruleset: Ruleset) -> FloatArray:
        """Return the right-hand roll template's corners in the ship frame.

        2.0: centred on the side hash mark; 1st edition: halfway to the ship's offset, so
        that neither end passes the front or back of either base position.
        """
        centre = 0.0 if ruleset.xwing_roll_model == "positions" else offset / 2.0
        x0 = width / 2.0
        y0, y1 = centre - self.along / 2.0, centre + self.along / 2.0
        return np.array([[x0, y0], [x0 + self.across, y0], [x0 + self.across, y1], [x0, y1]])


def roll_geometry(ruleset: Ruleset, base: str) -> RollGeometry:
    """Return the barrel-roll geometry of a base (``rules.md``, Barrel roll).

    Examples
    --------
    >>> from tabletop.geom.rulesets import get_ruleset
    >>> roll_geometry(get_ruleset("xwing2"), "medium")
    RollGeometry(lateral=80.0, across=20.0, along=40.0, slide=20.0)
    """
    width, length = ruleset.base_size(base)
    template = TemplateShape("straight", 1).length
    # A small base takes the template's narrow end against its side, larger bases its long side.
    across, along = (template, 20.0) if base == "small" else (20.0, template)
    return RollGeometry(width + across, across, along, length - along)


def _template_of(maneuver: XWingManeuver | Boost) -> tuple[TemplateShape, bool, bool]:
    if isinstance(maneuver, Boost):
        shape = TemplateShape(maneuver.bearing, 1)
        return shape, maneuver.direction == "left", False
    kind = _TEMPLATE_KIND[maneuver.bearing]
    shape = TemplateShape(kind, maneuver.speed)
    return shape, maneuver.direction == "left", maneuver.reverse


def _check_base(
    maneuver: XWingManeuver | BarrelRoll | Boost,
    base: str,
    ruleset: Ruleset,
    text: str | None = None,
) -> None:
    if not ruleset.base_spec(base).is_huge:
        return
    if (
        isinstance(maneuver, XWingManeuver)
        and maneuver.bearing in _HUGE_BEARINGS
        and not maneuver.reverse
    ):
        return
    name = maneuver_name(maneuver)
    raise IllegalManeuverError(f"a huge ship cannot do {name!r}; {_HUGE_WORDS}", text or name)


def _extra_turn(maneuver: XWingManeuver) -> float:
    turn = _EXTRA_TURN.get(maneuver.bearing, 0.0)
    return -turn if maneuver.direction == "left" else turn


def xwing_local_move(
    maneuver: XWingManeuver | BarrelRoll | Boost,
    base: str,
    ruleset: Ruleset,
    *,
    text: str | None = None,
) -> FloatArray:
    """Return the local move ``(dx, dy, dheading)`` of a complete maneuver, roll or boost.

    A roll without a position word goes to the centre position.

    Raises
    ------
    IllegalManeuverError
        For a maneuver the base cannot do (huge ships: only straight, bank, stationary);
        its ``where`` names `text` (the words as given) or else the maneuver's name.
    """
    _check_base(maneuver, base, ruleset, text)
    half_length = _template_edge(ruleset, base)
    if isinstance(maneuver, BarrelRoll):
        geometry = roll_geometry(ruleset, base)
        side = -1.0 if maneuver.direction == "left" else 1.0
        offset = geometry.offsets(ruleset)[maneuver.position or "centre"]
        return np.array([side * geometry.lateral, offset, 0.0])
    if isinstance(maneuver, XWingManeuver) and maneuver.bearing == "stationary":
        return np.zeros(3)
    shape, left, reverse = _template_of(maneuver)
    move = xwing_final_move(shape, half_length, left=left, reverse=reverse)
    if isinstance(maneuver, XWingManeuver):
        move[2] += _extra_turn(maneuver)
    return move


def _template_edge(ruleset: Ruleset, base: str) -> float:
    """Return how far ahead of the base centre the template is set, mm (``rules.md``).

    Half the base length, at the front edge; a 1st-edition huge ship sets it at the rear
    edge of its front base, the centre line (0), and moves that edge to the speed line.
    """
    if ruleset.xwing_huge_template_at == "front-base-rear-edge" and ruleset.base_spec(base).is_huge:
        return 0.0
    return ruleset.base_size(base)[1] / 2.0


@_dc.dataclass(frozen=True, eq=False)
class _Table:
    """The scene as one moving ship sees it."""

    scene: Scene
    ship: Ship
    outline: FloatArray
    body: FloatArray
    others: tuple[Ship, ...]
    other_polygons: FloatArray
    obstacle_polygons: tuple[shapely.Polygon, ...]

    @classmethod
    def build(cls, scene: Scene, ship: Ship) -> _Table:
        ruleset = scene.ruleset
        others = tuple(s for s in scene.ships if s.id != ship.id)
        return cls(
            scene,
            ship,
            base_footprint(ruleset, ship.base, guides=True).outline,
            base_footprint(ruleset, ship.base).outline,
            others,
            np.array([s.polygon(ruleset, guides=True) for s in others], dtype=object),
            tuple(o.polygon() for o in scene.obstacles),
        )

    def at(self, pose: FloatArray) -> shapely.Polygon:
        """Return the base with guides at a world pose."""
        return world_polygon(self.outline, pose)

    def ship_hits(self, polygons: FloatArray) -> FloatArray:
        """Which other ships each polygon overlaps: a bool array ``(n, ships)``."""
        if not self.others:
            return np.zeros((len(polygons), 0), dtype=bool)
        return np.asarray(overlaps(polygons[:, None], self.other_polygons[None, :]))

    def fled(self, pose: FloatArray) -> bool:
        """Whether any part of the base without guides is outside the play area."""
        return outside_play_area(self.scene.area, world_polygon(self.body, pose))

    def nearest_first(self, indices: Iterable[int]) -> list[str]:
        """Ids of the obstacles at `indices`, nearest to the starting base first."""
        start = world_polygon(self.body, self.ship.pose)
        return [o.id for o in nearest_first(start, [self.scene.obstacles[i] for i in indices])]

    def nearest_ship(self, indices: Sequence[int], polygon: shapely.Polygon) -> int:
        """Return the index (in `others`) of the ship nearest to `polygon`, ties by id."""
        return min(
            indices,
            key=lambda i: (
                float(shapely.distance(polygon, self.other_polygons[i])),
                self.others[i].id,
            ),
        )


def _back_off(table: _Table, path: PosePath) -> tuple[float, FloatArray | None]:
    """Run back along the pose path from its end until no ship is overlapped.

    Returns the progress where the ship stops and which ships it overlapped just beyond
    that point (None when the end of the path itself overlaps nothing). The search
    (:func:`tabletop.maneuvers.bumps.last_free_progress`) skips no free gap, however short.
    """
    start = table.ship.pose

    def polygon(at: float) -> shapely.Polygon:
        return table.at(compose(start, path.poses(at)))

    def hits_at(moving: shapely.Polygon) -> FloatArray:
        return np.asarray(table.ship_hits(np.array([moving], dtype=object))[0])

    def hits_along(progress: FloatArray) -> FloatArray:
        poses = compose(start, path.poses(progress))
        return np.asarray(table.ship_hits(world_polygons(table.outline, poses)))

    speed = path_speed(table.outline, path)
    low, high, high_hits = last_free_progress(
        polygon, hits_at, table.other_polygons, speed, path.length, hits_along
    )
    if high_hits is None:
        return path.length, None
    if high == 0.0:
        return 0.0, high_hits
    # "Free" allows floating-point noise (EPSILON_MM) of overlap: settle on the exact touch.
    touched = table.other_polygons[high_hits]
    high, low = low, max(low - 1e-4, 0.0)
    if shapely.intersects(polygon(low), touched).any():
        return low, high_hits  # touching all along (or from the start)
    while high - low > 1e-9:
        middle = 0.5 * (low + high)
        if shapely.intersects(polygon(middle), touched).any():
            high = middle
        else:
            low = middle
    return low, high_hits


def _obstacle_hits(
    table: _Table, final_polygon: shapely.Polygon, counted: shapely.Geometry | None, moved: bool
) -> tuple[ObstacleHit, ...]:
    found: dict[int, Literal["moves-through", "ends-on"]] = {}
    for i, polygon in enumerate(table.obstacle_polygons):
        # Ending on an obstacle: the final base, guides included, overlaps it. A ship that
        # did not move ignores the obstacle it started on (it does not overlap it again).
        if moved and overlaps(final_polygon, polygon):
            found[i] = "ends-on"
        # Moving through: the part of the template that counts overlaps it.
        elif counted is not None and not counted.is_empty and overlaps(counted, polygon):
            found[i] = "moves-through"
    how = {table.scene.obstacles[i].id: found[i] for i in found}
    return tuple((ident, how[ident]) for ident in table.nearest_first(found))


def _bump_point(table: _Table, polygon: shapely.Polygon, index: int) -> FloatArray:
    _, points = closest_points(polygon, table.other_polygons[index])
    return np.asarray(points.mean(axis=0), dtype=np.float64)


def _maneuver(table: _Table, maneuver: XWingManeuver) -> MoveResult:
    ship, ruleset = table.ship, table.scene.ruleset
    start = ship.pose
    half_length = _template_edge(ruleset, ship.base)
    name = maneuver_name(maneuver)
    if maneuver.bearing == "stationary":
        return MoveResult(
            ship=ship.id,
            maneuver=name,
            start=start,
            final=start.copy(),
            template=None,
            complete=True,
            bumped=None,
            fled=table.fled(start),
            obstacles=(),
        )
    shape, left, reverse = _template_of(maneuver)
    path = PosePath(shape, half_length, left, reverse)
    template = place(template_polygon(shape, half_length, left=left, reverse=reverse), start)
    final = compose(start, xwing_local_move(maneuver, ship.base, ruleset))
    final_hits = table.ship_hits(np.array([table.at(final)], dtype=object))[0]
    progress = path.length
    bumped: str | None = None
    bump_point: FloatArray | None = None
    counted: shapely.Geometry = template
    # A ship that would end overlapping a ship moves back along the template until it
    # overlaps none, touching the last one it overlapped; an advanced turn is not applied.
    guides_only: tuple[str, ...] = ()
    if final_hits.any():
        guides_only = _guides_only(table, final, [int(i) for i in np.flatnonzero(final_hits)])
        progress, touching = _back_off(table, path)
        final = compose(start, path.poses(progress))
        polygon = table.at(final)
        overlapped = np.flatnonzero(final_hits if touching is None else touching)
        index = table.nearest_ship(list(overlapped), polygon)
        bumped = table.others[index].id
        bump_point = _bump_point(table, polygon, index)
        # Only the template between the start and the final position counts for obstacles.
        upto = progress - 2.0 * half_length
        counted = place(
            template_polygon(shape, half_length, left=left, reverse=reverse, upto=upto), start
        )
    final_polygon = table.at(final)
    hits = _obstacle_hits(table, final_polygon, counted, moved=progress > 0.0)
    return MoveResult(
        ship=ship.id,
        maneuver=name,
        start=start,
        final=final,
        template=template,
        complete=bumped is None,
        bumped=bumped,
        fled=table.fled(final),
        obstacles=hits,
        bump_point=bump_point,
        counted_template=counted,
        # X-Wing: a ship that bumps skips its Perform Action step.
        detail=TemplateMove(
            progress=float(progress), skips_action=bumped is not None, guides_only=guides_only
        ),
    )


def _guides_only(table: _Table, final: FloatArray, overlapped: Sequence[int]) -> tuple[str, ...]:
    """Ids of the ships the full maneuver's base overlaps only through guides (its or theirs)."""
    if not table.scene.ruleset.ship_guides:
        return ()
    body = world_polygon(table.body, final)
    ruleset = table.scene.ruleset
    return tuple(
        sorted(
            table.others[i].id
            for i in overlapped
            if not overlaps(body, table.others[i].polygon(ruleset))
        )
    )


def _action_problems(table: _Table, pose: FloatArray, template: shapely.Polygon) -> str | None:
    """Why a roll or boost position fails, or None when it is legal."""
    polygon = table.at(pose)
    problems = []
    # The ship may not end overlapping a ship (guides count).
    hits = table.ship_hits(np.array([polygon], dtype=object))[0]
    problems += [f"the base overlaps ship {table.others[i].id}" for i in np.flatnonzero(hits)]
    # Nor an obstacle (guides count).
    obstacles = table.scene.obstacles
    problems += [
        f"the base overlaps obstacle {obstacles[i].id}"
        for i, poly in enumerate(table.obstacle_polygons)
        if overlaps(polygon, poly)
    ]
    # Its template may not overlap an obstacle.
    problems += [
        f"the template overlaps obstacle {obstacles[i].id}"
        for i, poly in enumerate(table.obstacle_polygons)
        if overlaps(template, poly)
    ]
    # And it may not flee.
    if table.fled(pose):
        problems.append("the ship would flee the play area")
    return "; ".join(problems) or None


def _roll_position(
    table: _Table, roll: BarrelRoll, geometry: RollGeometry, name: str, offset: float
) -> ActionPosition:
    ruleset = table.scene.ruleset
    side = -1.0 if roll.direction == "left" else 1.0
    width = ruleset.base_size(table.ship.base)[0]
    start = table.ship.pose
    pose = compose(start, [side * geometry.lateral, offset, 0.0])
    corners = geometry.template(width, offset, ruleset) * np.array([side, 1.0])
    template = shapely.Polygon(to_world(corners, start))
    reason = _action_problems(table, pose, template)
    return ActionPosition(name, offset, pose, template, reason is None, reason)


def _slide_intervals(
    table: _Table, roll: BarrelRoll, geometry: RollGeometry
) -> tuple[tuple[float, float], ...]:
    """Return the legal forward offsets of a 1st-edition roll, as closed intervals (mm)."""

    def legal(offset: float) -> bool:
        return _roll_position(table, roll, geometry, "slide", offset).legal

    count = max(2, int(np.ceil(2.0 * geometry.slide / SLIDE_STEP_MM)) + 1)
    offsets = np.linspace(-geometry.slide, geometry.slide, count)
    flags = [legal(float(o)) for o in offsets]

    def edge(good: float, bad: float) -> float:
        while abs(bad - good) > 1e-6:
            middle = 0.5 * (good + bad)
            if legal(middle):
                good = middle
            else:
                bad = middle
        return good

    intervals = []
    i = 0
    while i < count:
        if not flags[i]:
            i += 1
            continue
        j = i
        while j + 1 < count and flags[j + 1]:
            j += 1
        low = float(offsets[i]) if i == 0 else edge(float(offsets[i]), float(offsets[i - 1]))
        high = (
            float(offsets[j]) if j == count - 1 else edge(float(offsets[j]), float(offsets[j + 1]))
        )
        intervals.append((low, high))
        i = j + 1
    return tuple(intervals)


def _roll(table: _Table, roll: BarrelRoll) -> MoveResult:
    ruleset = table.scene.ruleset
    start = table.ship.pose
    geometry = roll_geometry(ruleset, table.ship.base)
    positions = tuple(
        _roll_position(table, roll, geometry, name, offset)
        for name, offset in geometry.offsets(ruleset).items()
    )
    by_name = {p.name: p for p in positions}
    intervals: tuple[tuple[float, float], ...] = ()
    if ruleset.xwing_roll_model == "slide":
        intervals = _slide_intervals(table, roll, geometry)
    chosen: ActionPosition | None
    if roll.position is not None:
        chosen = by_name[roll.position]
        reason = None if chosen.legal else f"the {roll.position} position fails: {chosen.reason}"
    else:
        # Without a position word the roll ends at the centre if legal, else at the first
        # legal one: forward, then back (2.0); the legal offset nearest the centre (1st
        # edition's slide, forward on a tie).
        chosen = next((p for p in (by_name["centre"], *positions) if p.legal), None)
        if not by_name["centre"].legal and intervals:
            offset = min((o for pair in intervals for o in pair), key=lambda o: (abs(o), -o))
            chosen = _roll_position(table, roll, geometry, "slide", offset)
        reason = None
        if chosen is None:
            reason = "every position fails: " + "; ".join(
                f"{p.name}: {p.reason}" for p in positions
            )
    legal = chosen is not None and chosen.legal
    shown = chosen if chosen is not None else by_name["centre"]
    return MoveResult(
        ship=table.ship.id,
        maneuver=maneuver_name(roll),
        start=start,
        final=shown.pose if legal else start.copy(),
        template=shown.template,
        complete=legal,
        bumped=None,
        fled=False,
        obstacles=(),
        legal=legal,
        reason=reason,
        detail=TemplateMove(positions=positions, intervals=intervals),
    )


def _boost(table: _Table, boost: Boost) -> MoveResult:
    ship, ruleset = table.ship, table.scene.ruleset
    start = ship.pose
    shape, left, _ = _template_of(boost)
    half_length = ruleset.base_size(ship.base)[1] / 2.0
    template = place(template_polygon(shape, half_length, left=left), start)
    pose = compose(start, xwing_local_move(boost, ship.base, ruleset))
    reason = _action_problems(table, pose, template)
    legal = reason is None
    return MoveResult(
        ship=ship.id,
        maneuver=maneuver_name(boost),
        start=start,
        final=pose if legal else start.copy(),
        template=template,
        complete=legal,
        bumped=None,
        fled=False,
        obstacles=(),
        legal=legal,
        reason=reason,
    )


def execute_xwing(
    scene: Scene,
    ship: Ship,
    maneuver: XWingManeuver | BarrelRoll | Boost,
    *,
    text: str | None = None,
) -> MoveResult:
    """Execute an X-Wing maneuver, barrel roll or boost of `ship` against `scene`.

    Raises
    ------
    IllegalManeuverError
        For a maneuver the ship's base cannot do; its ``where`` names `text` (the words
        as given) or else the maneuver's name.
    """
    _check_base(maneuver, ship.base, scene.ruleset, text)
    table = _Table.build(scene, ship)
    if isinstance(maneuver, BarrelRoll):
        return _roll(table, maneuver)
    if isinstance(maneuver, Boost):
        return _boost(table, maneuver)
    if scene.ruleset.base_spec(ship.base).is_huge:
        # Huge ships follow their edition's rules, built on this module's moves.
        from tabletop.maneuvers.huge import huge_maneuver

        return huge_maneuver(table, maneuver)
    return _maneuver(table, maneuver)
