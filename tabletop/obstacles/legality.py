"""Setup legality: every rule ``tabletop check`` applies, one commented block per rule.

:func:`check` reports every problem of a scene as a :class:`Violation` (it never raises
for a rule broken); :meth:`CheckReport.legal` is the yes/no on top. Every rule with a line
measures a number for each object or pair it looks at (a :class:`Margin`: distance, limit,
margin, positive is legal, and contested against that rule's own line); a violation is a
measurement on the wrong side, with a sentence a judge can read out, and placement
violations also carry the shortest move that makes that obstacle legal
(:func:`tabletop.obstacles.fixing.shortest_fix`). Pairwise rules look only at the pairs a spatial
index (``shapely.STRtree``) finds within reach, so a check grows as n log n.
"""

from __future__ import annotations

import dataclasses as _dc
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import shapely

from tabletop.geom.errors import InvalidInputError
from tabletop.geom.measure import closest_points, json_mm
from tabletop.geom.objects import ship_polygons
from tabletop.obstacles._deployment import _deployment
from tabletop.obstacles._margins import (
    _apart,
    _BoxExtremes,
    _edge_distances,
    _measure,
    _with_band,
    _worth_recording,
)
from tabletop.obstacles._nearest import candidate_pairs
from tabletop.obstacles._overlap_rule import overlap_depth, ship_overlaps
from tabletop.obstacles.composition import composition_violations
from tabletop.obstacles.fix_regions import HullCache
from tabletop.obstacles.fixing import grown_by_spacing, shortest_fix
from tabletop.obstacles.placeable import default_clearance, placeable_entry, way_words
from tabletop.obstacles.placement import placement_limits
from tabletop.obstacles.scene import Obstacle, Scene, obstacle_polygons
from tabletop.obstacles.verdicts import PLACEMENT_RULES, CheckReport, Margin, Violation, mm

__all__ = [
    "MAX_FIXES",
    "RULES",
    "CheckReport",
    "Margin",
    "TooManyFixesError",
    "Violation",
    "check",
    "overlap_depth",
]

#: The most obstacles a check fixes: each fix searches the table (about 20 ms for one
#: obstacle among 200), so a check of a larger illegal table is refused with a clear
#: message instead of running for minutes; with fixes off it answers at any size.
MAX_FIXES = 500

#: Rule ids, in report order.
RULES: tuple[str, ...] = (
    "obstacle-edge",
    "obstacle-spacing",
    "obstacle-setup-area",
    "obstacle-composition",
    "ship-deployment",
    "ship-overlap",
    "outside-play-area",
)


def check(
    scene: Scene,
    *,
    fixes: bool = True,
    margins: bool = False,
    clearance: float | None = None,
    placed: str | None = None,
) -> CheckReport:
    """Check a scene's legality under its ruleset; report every broken rule.

    Parameters
    ----------
    scene : Scene
    fixes : bool, default True
        Whether to compute the shortest legal move for each placement violation (the
        slow part of an illegal check; without it ``fix`` is null).
    margins : bool, default False
        Whether the report lists every measurement the rules made
        (:attr:`CheckReport.margins`, smallest margin first).
    clearance : float, optional
        Each fix also gives a ``placeable`` move landing this far (mm) past every line
        (default: clear of the contested zone,
        :func:`~tabletop.obstacles.placeable.default_clearance`).
    placed : str, optional
        The obstacle being placed (default: the scene's ``placed_last``): in a spacing
        violation it is named first and is the one the fix moves.

    Returns
    -------
    CheckReport
        Its ``legal`` is True when no rule is broken.

    Examples
    --------
    >>> import tomllib
    >>> from tabletop.obstacles.scene import Scene
    >>> scene = Scene.from_dict(tomllib.load(open("examples/xwing-tournament.toml", "rb")))
    >>> check(scene).legal
    True
    >>> closest = check(scene, margins=True).margins[0]
    >>> closest.rule, closest.margin > 0
    ('ship-deployment', True)
    """
    ruleset, area = scene.ruleset, scene.area
    placed = _placed_id(scene, placed)
    found: list[Violation] = []
    measured: list[Margin] = []
    checked: dict[str, int] = {}
    # Every outline placed once per check, in one pass per shape; the rules share them.
    obstacle_shapes = obstacle_polygons(scene.obstacles)
    polygons = dict(zip((o.id for o in scene.obstacles), obstacle_shapes, strict=True))
    ship_shapes = ship_polygons(scene.ships, ruleset)
    limits = placement_limits(ruleset, area)
    index: dict[str, int] = {o.id: i for i, o in enumerate(scene.obstacles)}
    wanted: dict[str, Obstacle] = {}

    def fix_for(obstacle: Obstacle) -> Mapping[str, Any] | None:
        # Fixes are computed once every rule has run: each obstacle once, after the
        # count of obstacles to fix is known (and bounded).
        wanted[obstacle.id] = obstacle
        return None

    if scene.phase == "setup":
        _setup_rules(
            scene,
            limits,
            obstacle_shapes,
            ship_shapes,
            found,
            measured,
            checked,
            fix_for,
            placed,
            every=margins,
        )
    _table_rules(scene, polygons, ship_shapes, found, measured, checked, margins=margins)
    if fixes and wanted:
        grown = default_clearance(ruleset.contested_within) if clearance is None else clearance
        found = _with_fixes(found, wanted, obstacle_shapes, index, limits, grown)
    return _report(ruleset.name, found, measured, checked, margins=margins, fixes=fixes)


def _table_rules(
    scene: Scene,
    polygons: Mapping[str, Any],
    ship_shapes: Sequence[Any],
    found: list[Violation],
    measured: list[Margin],
    checked: dict[str, int],
    *,
    margins: bool,
) -> None:
    """Run the rules of every phase: ships apart, everything on the table."""
    # Ships may not overlap each other (X-Wing: guides count; huge-ship obstacles too).
    found.extend(ship_overlaps(scene, polygons, ship_shapes, measured, nearest=margins))
    checked["ship-overlap"] = len(scene.ships) * (len(scene.ships) - 1) // 2
    # Every object lies entirely inside the play area (a fled ship does not).
    shapes = [*(polygons[o.id] for o in scene.obstacles), *ship_shapes]
    found.extend(_outside_play_area(scene, shapes, measured, margins))
    checked["outside-play-area"] = len(scene.obstacles) + len(scene.ships)


def _report(
    ruleset_name: str,
    found: list[Violation],
    measured: list[Margin],
    checked: dict[str, int],
    *,
    margins: bool,
    fixes: bool,
) -> CheckReport:
    """Return the report: violations in rule order, margins smallest first if asked."""
    order = {rule: i for i, rule in enumerate(RULES)}
    found.sort(key=lambda v: order[v.rule])
    listed = None
    if margins:
        listed = tuple(sorted(measured, key=lambda m: (m.margin, order[m.rule], m.objects)))
    contested = _near_the_line(measured, found, order)
    return CheckReport(ruleset_name, tuple(found), checked, listed, fixes, contested)


def _placed_id(scene: Scene, placed: str | None) -> str | None:
    """Return the obstacle being placed (default: the scene's ``placed_last``), checked."""
    placed = scene.placed_last if placed is None else placed
    if placed is not None and placed not in {o.id for o in scene.obstacles}:
        raise InvalidInputError(
            f"no obstacle has the id {placed!r}; expected one of: "
            + ", ".join(o.id for o in scene.obstacles),
            where="--placed",
        )
    return placed


def _setup_rules(
    scene: Scene,
    limits: Any,
    shapes: Sequence[shapely.Geometry],
    ship_shapes: Sequence[shapely.Geometry],
    found: list[Violation],
    measured: list[Margin],
    checked: dict[str, int],
    fix_for: Callable[[Obstacle], Mapping[str, Any] | None],
    placed: str | None,
    *,
    every: bool,
) -> None:
    """Apply the rules of the setup phase: placement, composition and deployment.

    `every` (``--margins``) records every measurement; otherwise only those near the line.
    """
    _obstacle_rules(
        scene, limits, shapes, found, measured, checked, fix_for, placed=placed, every=every
    )
    # Tournament play: the obstacle composition.
    if scene.format == "tournament":
        found.extend(composition_violations(scene))
        checked["obstacle-composition"] = len(scene.obstacles)
    # Ships deploy with the whole base within the deployment limit of their edge.
    found.extend(_deployment(scene, measured, ship_shapes, every=every))
    checked["ship-deployment"] = len(scene.ships)


def _outside_play_area(
    scene: Scene, shapes: Sequence[shapely.Geometry], measured: list[Margin], every: bool
) -> list[Violation]:
    """Find each obstacle and ship not entirely inside the play area (mm past its edge).

    `shapes` are the obstacles' outlines, then the ships'.
    """
    ruleset, area = scene.ruleset, scene.area
    table = (0.0, 0.0, area.width, area.height)
    idents = [*(o.id for o in scene.obstacles), *(s.id for s in scene.ships)]
    found: list[Violation] = []
    line = ruleset.play_area_line
    # One vectorised pass over every outline's vertices, then a record per object near
    # the line (every object with `every`).
    extremes = _BoxExtremes(shapes, table)
    for k in _worth_recording(extremes.inward, ruleset, every=every).tolist():
        ident = idents[k]
        side, inward, points = extremes.entry(k)
        m = _measure(ruleset, "outside-play-area", [ident], line, abs(inward), inward, points)
        measured.append(m)
        if line.broken(m.margin):
            found.append(
                Violation.measured(
                    m,
                    f"{ident} is not entirely inside the play area: it reaches "
                    f"{mm(-inward)} mm past the {side} edge",
                )
            )
    return found


def _near_the_line(
    measured: list[Margin], found: list[Violation], order: Mapping[str, int]
) -> tuple[Margin, ...]:
    """Return legal placements near their line: the rule holds, but a judge would be called."""
    broken = {(v.rule, v.objects) for v in found}
    return tuple(
        sorted(
            (
                m
                for m in measured
                if m.contested and m.rule in PLACEMENT_RULES and (m.rule, m.objects) not in broken
            ),
            key=lambda m: (m.margin, order[m.rule], m.objects),
        )
    )


class TooManyFixesError(InvalidInputError):
    """More obstacles to fix than :data:`MAX_FIXES`; the check answers with fixes off.

    Attributes
    ----------
    count : int
        How many obstacles break a placement rule.
    """

    def __init__(self, count: int) -> None:
        super().__init__(
            f"{count} obstacles break a placement rule; fixes are computed for at most "
            f"{MAX_FIXES} (each is a search of the table): check with fixes off "
            '(tabletop check --no-fix, or "fix": false in a query)'
        )
        self.count = count


def _with_fixes(
    found: list[Violation],
    wanted: Mapping[str, Obstacle],
    shapes: Sequence[shapely.Geometry],
    index: Mapping[str, int],
    limits: Any,
    clearance: float | None = None,
) -> list[Violation]:
    """Return the violations with each placement violation's fix filled in.

    With a `clearance`, each fix also carries a ``placeable`` move that lands that far
    past every line.
    """
    if len(wanted) > MAX_FIXES:
        raise TooManyFixesError(len(wanted))
    # Forbidden regions shared between the fixes of this table (alike tokens at alike
    # angles build theirs once).
    sums = HullCache()
    # Every obstacle grown by the spacing limit, once: what proves a fix null cheaply.
    grown = grown_by_spacing(shapes, limits.spacing)
    moves: dict[str, Mapping[str, Any] | None] = {}
    for ident in wanted:
        mine = index[ident]
        others = [p for i, p in enumerate(shapes) if i != mine]
        theirs = [g for i, g in enumerate(grown) if i != mine]
        move = shortest_fix(shapes[mine], others, limits, cache=sums, grown=theirs)
        fix: dict[str, Any] | None = None
        if move is not None:
            shortest = [json_mm(float(v)) for v in move]
            fix = {"object": ident, "move": shortest, "way": way_words(*shortest)}
            if clearance is not None:
                hand = shortest_fix(
                    shapes[mine], others, limits, clearance=clearance, cache=sums, grown=theirs
                )
                fix["placeable"] = (
                    None if hand is None else placeable_entry(hand.tolist(), clearance)
                )
        moves[ident] = fix
    return [
        _dc.replace(v, fix=moves[v.objects[0]]) if v.fixable and v.objects[0] in moves else v
        for v in found
    ]


def _edge_rule(
    scene: Scene,
    limit: float,
    shapes: Sequence[shapely.Geometry],
    found: list[Violation],
    measured: list[Margin],
    fix_for: Callable[[Obstacle], Mapping[str, Any] | None],
    every: bool,
) -> None:
    """Check that obstacles are more than the edge limit (mm) from every edge.

    Each outline's nearest edge comes from its bounds in one vectorised pass (the same
    extreme coordinates); only the obstacles near the line (every one, with `every`)
    are measured edge by edge and recorded.
    """
    ruleset, area = scene.ruleset, scene.area
    line = ruleset.obstacle_placement.edge_line
    if not shapes:
        return
    x0, y0, x1, y1 = shapely.bounds(np.asarray(shapes, dtype=object)).T
    nearest = np.minimum.reduce([y0, area.height - y1, x0, area.width - x1])
    for k in _worth_recording(nearest - limit, ruleset, every=every).tolist():
        o, shape = scene.obstacles[k], shapes[k]
        edges = _edge_distances(shape, area)
        for edge, distance, points in edges:
            m = _measure(ruleset, "obstacle-edge", [o.id], line, distance, distance - limit, points)
            if line.broken(m.margin):
                found.append(
                    Violation.measured(
                        m,
                        f"{o.id} is {mm(distance)} mm from the {edge} edge; it must be more "
                        f"than {_with_band(ruleset, limit)}",
                        fix_for(o),
                        fixable=True,
                    )
                )
        _, distance, points = min(edges, key=lambda e: float(e[1]))
        measured.append(
            _measure(ruleset, "obstacle-edge", [o.id], line, distance, distance - limit, points)
        )


def _spacing_rule(
    scene: Scene,
    limit: float,
    shapes: Sequence[shapely.Geometry],
    found: list[Violation],
    measured: list[Margin],
    fix_for: Callable[[Obstacle], Mapping[str, Any] | None],
    placed: str | None,
    every: bool,
) -> None:
    """Check that obstacles are more than the spacing limit (mm) from each other.

    The index gives the pairs within reach of the line (and, with `every`, each
    obstacle's nearest, for the margins: a pair beyond reach is neither broken nor
    contested).
    """
    ruleset = scene.ruleset
    line = ruleset.obstacle_placement.spacing_line
    reach = limit + ruleset.contested_within + 1e-3
    pairs = candidate_pairs(shapes, reach, nearest=every)
    if not pairs:
        return
    first = np.array([i for i, _ in pairs])
    second = np.array([j for _, j in pairs])
    array = np.asarray(shapes, dtype=object)
    distances, points = closest_points(array[first], array[second])
    for (i, j), d, pts in zip(pairs, distances, points, strict=True):
        a, b = scene.obstacles[i], scene.obstacles[j]
        if b.id == placed:
            # The token being placed is named first, and it is the one the fix moves.
            a, b = b, a
            pts = pts[::-1]
        distance = float(d)
        m = _measure(
            ruleset, "obstacle-spacing", [a.id, b.id], line, distance, distance - limit, pts
        )
        measured.append(m)
        if line.broken(m.margin):
            found.append(
                Violation.measured(
                    m,
                    f"{a.id} is {mm(distance)} mm from {b.id}; obstacles must be more "
                    f"than {_apart(ruleset, limit)}",
                    fix_for(a),
                    fixable=True,
                )
            )


def _setup_area_rule(
    scene: Scene,
    region: shapely.Geometry,
    shapes: Sequence[shapely.Geometry],
    found: list[Violation],
    measured: list[Margin],
    fix_for: Callable[[Obstacle], Mapping[str, Any] | None],
    every: bool,
) -> None:
    """Check that obstacles lie entirely inside the setup area (Armada; its line is closed).

    One vectorised pass finds each outline's worst side; the obstacles near the line
    (every one, with `every`) are recorded.
    """
    x0, _, x1, _ = region.bounds
    line = scene.ruleset.obstacle_placement.area_line
    extremes = _BoxExtremes(shapes, region.bounds)
    for k in _worth_recording(extremes.inward, scene.ruleset, every=every).tolist():
        o = scene.obstacles[k]
        _, inward, points = extremes.entry(k)
        m = _measure(
            scene.ruleset, "obstacle-setup-area", [o.id], line, abs(inward), inward, points
        )
        measured.append(m)
        if line.broken(m.margin):
            found.append(
                Violation.measured(
                    m,
                    f"{o.id} is not entirely inside the setup area (x from {x0:g} to {x1:g} mm)",
                    fix_for(o),
                    fixable=True,
                )
            )


def _obstacle_rules(
    scene: Scene,
    limits: Any,
    shapes: Sequence[shapely.Geometry],
    found: list[Violation],
    measured: list[Margin],
    checked: dict[str, int],
    fix_for: Callable[[Obstacle], Mapping[str, Any] | None],
    *,
    placed: str | None = None,
    every: bool = True,
) -> None:
    """Apply the placement rules: edge, spacing and (Armada) the setup area."""
    _edge_rule(scene, limits.edge, shapes, found, measured, fix_for, every)
    checked["obstacle-edge"] = len(scene.obstacles)
    _spacing_rule(scene, limits.spacing, shapes, found, measured, fix_for, placed, every)
    checked["obstacle-spacing"] = len(shapes) * (len(shapes) - 1) // 2
    if limits.inside_setup_area:
        _setup_area_rule(scene, limits.area, shapes, found, measured, fix_for, every)
        checked["obstacle-setup-area"] = len(scene.obstacles)
