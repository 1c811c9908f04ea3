"""Setup legality: every rule ``tabletop check`` applies, one commented block per rule.

:func:`check` reports every problem of a scene as a :class:`Violation` (it never raises
for a rule broken); :meth:`CheckReport.legal` is the yes/no on top. Each violation with a
distance carries the measured number, the limit, the margin (positive is legal), the
contested flag, the closest points and a sentence a judge can read out; placement
violations also carry the shortest move that makes that obstacle legal.
"""

from __future__ import annotations

import dataclasses as _dc
import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import shapely

from geom.areas import PlayArea
from geom.measure import closest_points, inside, json_mm, overlaps
from geom.objects import Ship
from geom.poses import FloatArray
from geom.rulesets import Ruleset
from geom.tolerance import same_length, within
from obstacles.placement import fix_move, legal_region, placement_limits
from obstacles.scene import Obstacle, Scene

__all__ = ["RULES", "CheckReport", "Violation", "check"]

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


@_dc.dataclass(frozen=True, eq=False)
class Violation:
    """One broken rule.

    Attributes
    ----------
    rule : str
        One of :data:`RULES`.
    objects : tuple of str
        The ids involved.
    distance, limit, margin : float or None
        The measured distance, the rule's limit and ``measured - limit`` signed so that
        positive is legal (None for rules without a distance).
    contested : bool
        ``|measured - limit| <= contested_within``.
    points : ndarray of shape (2, 2) or None
        The closest points that gave `distance`.
    message : str
        A sentence a judge can read out.
    fix : mapping or None
        For placement rules: ``{"move": [dx, dy]}``, the shortest move of the first
        object that makes it legal with everything else held still, or None when no
        position at this rotation is legal.
    fixable : bool
        Whether the rule carries a ``fix`` key at all.
    """

    rule: str
    objects: tuple[str, ...]
    distance: float | None
    limit: float | None
    margin: float | None
    contested: bool
    points: FloatArray | None
    message: str
    fix: Mapping[str, Any] | None = None
    fixable: bool = False

    @classmethod
    def plain(
        cls,
        rule: str,
        objects: Sequence[str],
        message: str,
        fix: Mapping[str, Any] | None = None,
        *,
        fixable: bool = False,
    ) -> Violation:
        """Return a violation of a rule without a distance (null distance, limit, margin)."""
        return cls(rule, tuple(objects), None, None, None, False, None, message, fix, fixable)

    def to_json(self) -> dict[str, Any]:
        """Return the violation object of ``tabletop check --json``."""
        out: dict[str, Any] = {
            "rule": self.rule,
            "objects": list(self.objects),
            "distance": None if self.distance is None else json_mm(self.distance),
            "limit": None if self.limit is None else json_mm(self.limit),
            "margin": None if self.margin is None else json_mm(self.margin),
            "contested": self.contested,
            "points": None
            if self.points is None
            else [[json_mm(x), json_mm(y)] for x, y in np.asarray(self.points)],
            "message": self.message,
        }
        if self.fixable:
            out["fix"] = None if self.fix is None else dict(self.fix)
        return out

    def describe(self, number: int) -> str:
        """Return the lines ``tabletop check`` prints for this violation, numbered `number`."""
        lines = [f"  {number}. {self.rule}: {self.message}"]
        if self.distance is not None and self.limit is not None and self.margin is not None:
            contested = (
                "  CONTESTED (within the contested distance of the line)" if self.contested else ""
            )
            lines.append(
                f"     measured {self.distance:.1f} mm, limit {self.limit:.1f} mm, "
                f"margin {self.margin:+.1f} mm{contested}"
            )
        if self.points is not None:
            (x0, y0), (x1, y1) = self.points
            lines.append(f"     closest points ({x0:.1f}, {y0:.1f}) to ({x1:.1f}, {y1:.1f})")
        if self.fixable:
            if self.fix is None:
                lines.append(f"     fix: no legal position for {self.objects[0]} at this rotation")
            else:
                dx, dy = self.fix["move"]
                lines.append(f"     fix: move {self.fix['object']} by ({dx:+.2f}, {dy:+.2f}) mm")
        return "\n".join(lines)


@_dc.dataclass(frozen=True, eq=False)
class CheckReport:
    """Everything :func:`check` found.

    Attributes
    ----------
    ruleset : str
        The ruleset name.
    violations : tuple of Violation
        In rule order, then object order.
    checked : mapping of str to int
        What each rule looked at (obstacles, pairs, ships).
    """

    ruleset: str
    violations: tuple[Violation, ...]
    checked: Mapping[str, int]

    @property
    def legal(self) -> bool:
        """Whether no rule is broken."""
        return not self.violations

    def to_json(self) -> dict[str, Any]:
        """Return the object of ``tabletop check --json``."""
        return {
            "ruleset": self.ruleset,
            "legal": self.legal,
            "violations": [v.to_json() for v in self.violations],
            "checked": dict(self.checked),
        }

    def describe(self, source: str) -> str:
        """Return the report ``tabletop check`` prints, headed by `source` (the scene's name)."""
        verdict = "legal" if self.legal else f"ILLEGAL: {len(self.violations)} violation(s)"
        lines = [f"{source}: {self.ruleset}, {verdict}"]
        lines.extend(v.describe(i) for i, v in enumerate(self.violations, 1))
        counted = ", ".join(f"{rule} {n}" for rule, n in self.checked.items())
        lines.append(f"  checked: {counted}")
        return "\n".join(lines)


def _margin(value: float) -> float:
    """Return a signed margin, lengths within EPSILON_MM of the line taken as on it."""
    return 0.0 if same_length(value, 0.0) else float(value)


def _contested(margin: float, ruleset: Ruleset) -> bool:
    return bool(within(abs(margin), ruleset.contested_within))


def _edge_distances(
    polygon: shapely.Geometry, area: PlayArea
) -> list[tuple[str, float, FloatArray]]:
    """Signed distance of an outline from each edge, inward (negative past the edge)."""
    coords = np.asarray(shapely.get_coordinates(polygon), dtype=np.float64)
    out = []
    i = int(np.argmin(coords[:, 1]))
    out.append(("bottom", coords[i, 1], np.array([coords[i], [coords[i, 0], 0.0]])))
    i = int(np.argmax(coords[:, 1]))
    out.append(
        ("top", area.height - coords[i, 1], np.array([coords[i], [coords[i, 0], area.height]]))
    )
    i = int(np.argmin(coords[:, 0]))
    out.append(("left", coords[i, 0], np.array([coords[i], [0.0, coords[i, 1]]])))
    i = int(np.argmax(coords[:, 0]))
    out.append(
        ("right", area.width - coords[i, 0], np.array([coords[i], [area.width, coords[i, 1]]]))
    )
    return out


def _with_band(ruleset: Ruleset, limit: float) -> str:
    """``200 mm (range 2)``: the band only where the limit is one of its lines."""
    words = ruleset.limit_words(limit)
    return f"{limit:g} mm ({words})" if words else f"{limit:g} mm"


def _apart(ruleset: Ruleset, limit: float) -> str:
    """``100 mm apart (range 1)``, the band only where the limit is one of its lines."""
    words = ruleset.limit_words(limit)
    return f"{limit:g} mm apart ({words})" if words else f"{limit:g} mm apart"


def _words_first(ruleset: Ruleset, limit: float) -> str:
    """``range 1 (100 mm)``, or ``150 mm`` where the limit is no band line."""
    words = ruleset.limit_words(limit)
    return f"{words} ({limit:g} mm)" if words else f"{limit:g} mm"


def _number_word(count: int) -> str:
    """Spell a small count as the rules do (``three``), larger ones as digits."""
    words = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
    return words[count] if 0 <= count < len(words) else str(count)


def _composition(scene: Scene) -> list[Violation]:
    ruleset = scene.ruleset
    found: list[Violation] = []

    def broken(objects: Sequence[str], message: str) -> None:
        found.append(Violation.plain("obstacle-composition", objects, message))

    wanted = ruleset.obstacle_set
    if wanted.per_player is None:
        # A fixed set (Armada: three asteroid fields, two debris fields, one station).
        for kind, count in wanted.kinds.items():
            ids = [o.id for o in scene.obstacles if o.kind == kind]
            if len(ids) != count:
                broken(
                    ids, f"the table has {len(ids)} {kind} obstacles; the standard set has {count}"
                )
        others = [o.id for o in scene.obstacles if o.kind not in wanted.kinds]
        if others:
            broken(others, f"{', '.join(others)}: not part of the standard obstacle set")
        by_token: dict[str, list[str]] = {}
        for o in scene.obstacles:
            by_token.setdefault(o.token or f"custom {o.id}", []).append(o.id)
        every = _number_word(wanted.size)
        for name, ids in by_token.items():
            if len(ids) > 1:
                broken(
                    ids, f"{', '.join(ids)} are the same token ({name}); all {every} must differ"
                )
        return found
    # Brought by the players (X-Wing tournament): each player exactly `per_player`
    # different tokens of the allowed families.
    families = wanted.families
    per_player = wanted.per_player
    brings = _number_word(per_player)
    for o in scene.obstacles:
        if o.token is None or o.family not in families:
            what = "a custom outline" if o.token is None else f"{o.token} ({o.family})"
            broken(
                [o.id], f"{o.id} is {what}, not a token allowed in {ruleset.name} tournament play"
            )
        if o.player not in (1, 2):
            broken(
                [o.id],
                f"{o.id} has no player; in tournament play each player brings {brings} obstacles",
            )
    for player in (1, 2):
        mine = [o for o in scene.obstacles if o.player == player]
        if len(mine) != per_player:
            broken(
                [o.id for o in mine],
                f"player {player} brought {len(mine)} obstacles; each player brings exactly "
                f"{per_player}",
            )
        seen: dict[str, list[str]] = {}
        for o in mine:
            if o.token is not None:
                seen.setdefault(o.token, []).append(o.id)
        for name, ids in seen.items():
            if len(ids) > 1:
                broken(
                    ids,
                    f"player {player} brought {name} {len(ids)} times; the {brings} must differ",
                )
    return found


def check(scene: Scene, *, fixes: bool = True) -> CheckReport:
    """Check a scene's legality under its ruleset; report every broken rule.

    Parameters
    ----------
    scene : Scene
        The scene.
    fixes : bool, default True
        Whether to compute the shortest legal move for each placement violation.

    Returns
    -------
    CheckReport
        Its ``legal`` is True when no rule is broken.

    Examples
    --------
    >>> import tomllib
    >>> from obstacles.scene import Scene
    >>> with open("examples/xwing-tournament.toml", "rb") as file:
    ...     scene = Scene.from_dict(tomllib.load(file))
    >>> check(scene).legal
    True
    """
    ruleset, area = scene.ruleset, scene.area
    setup = scene.phase == "setup"
    boxed = ruleset.setup_area_boxed
    found: list[Violation] = []
    checked: dict[str, int] = {}
    polygons = {o.id: o.polygon() for o in scene.obstacles}
    limits = placement_limits(ruleset, area)
    fix_cache: dict[str, Mapping[str, Any] | None] = {}

    def fix_for(obstacle: Obstacle) -> Mapping[str, Any] | None:
        if not fixes:
            return None
        if obstacle.id not in fix_cache:
            others = [p for i, p in polygons.items() if i != obstacle.id]
            region = legal_region(
                obstacle.outline, obstacle.angle, obstacle.flipped, others, limits
            )
            move = fix_move(region, (obstacle.x, obstacle.y))
            fix_cache[obstacle.id] = (
                None
                if move is None
                else {"object": obstacle.id, "move": [json_mm(v) for v in move]}
            )
        return fix_cache[obstacle.id]

    if setup:
        # Obstacles must be more than the edge limit from every edge.
        limit = limits.edge
        for o in scene.obstacles:
            for edge, measured, points in _edge_distances(polygons[o.id], area):
                margin = _margin(measured - limit)
                if margin <= 0.0:
                    found.append(
                        Violation(
                            "obstacle-edge",
                            (o.id,),
                            measured,
                            limit,
                            margin,
                            _contested(margin, ruleset),
                            points,
                            f"{o.id} is {measured:.1f} mm from the {edge} edge; it must be more "
                            f"than {_with_band(ruleset, limit)}",
                            fix_for(o),
                            True,
                        )
                    )
        checked["obstacle-edge"] = len(scene.obstacles)

        # Obstacles must be more than the spacing limit from each other.
        limit = limits.spacing
        pairs = list(itertools.combinations(scene.obstacles, 2))
        for a, b in pairs:
            d, pts = closest_points(polygons[a.id], polygons[b.id])
            measured = float(d)
            margin = _margin(measured - limit)
            if margin <= 0.0:
                found.append(
                    Violation(
                        "obstacle-spacing",
                        (a.id, b.id),
                        measured,
                        limit,
                        margin,
                        _contested(margin, ruleset),
                        pts,
                        f"{a.id} is {measured:.1f} mm from {b.id}; obstacles must be more than "
                        f"{_apart(ruleset, limit)}",
                        fix_for(a),
                        True,
                    )
                )
        checked["obstacle-spacing"] = len(pairs)

        # Armada: obstacles lie entirely inside the setup area.
        if boxed:
            region = limits.area
            x0, _, x1, _ = region.bounds
            for o in scene.obstacles:
                if not inside(polygons[o.id], region):
                    found.append(
                        Violation.plain(
                            "obstacle-setup-area",
                            (o.id,),
                            f"{o.id} is not entirely inside the setup area "
                            f"(x from {x0:g} to {x1:g} mm)",
                            fix_for(o),
                            fixable=True,
                        )
                    )
            checked["obstacle-setup-area"] = len(scene.obstacles)

        # Tournament play: the obstacle composition.
        if scene.format == "tournament":
            found.extend(_composition(scene))
            checked["obstacle-composition"] = len(scene.obstacles)

        # Ships deploy with the whole base within the deployment limit of their edge.
        found.extend(_deployment(scene))
        checked["ship-deployment"] = len(scene.ships)

    # Ships may not overlap each other (X-Wing: guides count; huge-ship obstacles too).
    found.extend(_overlaps(scene, polygons))
    ship_pairs = len(scene.ships) * (len(scene.ships) - 1) // 2
    checked["ship-overlap"] = ship_pairs

    # Every object lies entirely inside the play area (a fled ship does not).
    play = area.polygon()
    objects: tuple[Ship | Obstacle, ...] = (*scene.obstacles, *scene.ships)
    for obj in objects:
        shape = polygons[obj.id] if isinstance(obj, Obstacle) else obj.polygon(ruleset)
        if not inside(shape, play):
            worst = min(_edge_distances(shape, area), key=lambda e: e[1])
            found.append(
                Violation.plain(
                    "outside-play-area",
                    (obj.id,),
                    f"{obj.id} is not entirely inside the play area: it reaches "
                    f"{-worst[1]:.1f} mm past the {worst[0]} edge",
                )
            )
    checked["outside-play-area"] = len(scene.obstacles) + len(scene.ships)
    order = {rule: i for i, rule in enumerate(RULES)}
    found.sort(key=lambda v: order[v.rule])
    return CheckReport(ruleset.name, tuple(found), checked)


def _deployment(scene: Scene) -> list[Violation]:
    ruleset, area = scene.ruleset, scene.area
    boxed = ruleset.setup_area_boxed
    limit = ruleset.deployment_limit
    setup_area = area.setup_area(armada=boxed)
    found: list[Violation] = []
    ships = [s for s in scene.ships if not ruleset.base_spec(s.base).is_disk]
    for ship in scene.ships:
        polygon = ship.polygon(ruleset)
        coords = np.asarray(shapely.get_coordinates(polygon), dtype=np.float64)
        if ruleset.base_spec(ship.base).is_disk:
            # Armada squadrons: inside the setup area, within distance 2 of a friendly ship.
            friends = [s for s in ships if s.player == ship.player]
            reach = ruleset.armada_distance_bands[1]
            centre, radius = ship.measured_shape(ruleset)
            if friends:
                best = min(
                    (closest_points(f.polygon(ruleset), centre, 0.0, radius) for f in friends),
                    key=lambda r: float(r[0]),
                )
                measured = float(best[0])
                margin = _margin(reach - measured)
                if margin < 0.0:
                    found.append(
                        Violation(
                            "ship-deployment",
                            (ship.id,),
                            measured,
                            reach,
                            margin,
                            _contested(margin, ruleset),
                            best[1][::-1],
                            f"squadron {ship.id} is {measured:.1f} mm from the nearest friendly "
                            f"ship; it must be within {_words_first(ruleset, reach)}",
                        )
                    )
            else:
                found.append(
                    Violation.plain(
                        "ship-deployment",
                        (ship.id,),
                        f"squadron {ship.id} has no friendly ship to deploy within distance 2 of",
                    )
                )
            if not inside(polygon, setup_area):
                found.append(
                    Violation.plain(
                        "ship-deployment",
                        (ship.id,),
                        f"squadron {ship.id} is not entirely inside the setup area",
                    )
                )
            continue
        edge = area.player_edge(ship.player)
        if edge == "bottom":
            i = int(np.argmax(coords[:, 1]))
            measured = float(coords[i, 1])
            points = np.array([coords[i], [coords[i, 0], 0.0]])
        else:
            i = int(np.argmin(coords[:, 1]))
            measured = float(area.height - coords[i, 1])
            points = np.array([coords[i], [coords[i, 0], area.height]])
        margin = _margin(limit - measured)
        if margin < 0.0:
            words = _words_first(ruleset, limit)
            found.append(
                Violation(
                    "ship-deployment",
                    (ship.id,),
                    measured,
                    limit,
                    margin,
                    _contested(margin, ruleset),
                    points,
                    f"{ship.id}'s base reaches {measured:.1f} mm from player {ship.player}'s "
                    f"edge; the whole base must be within {words}",
                )
            )
        if boxed and not inside(polygon, setup_area):
            found.append(
                Violation.plain(
                    "ship-deployment",
                    (ship.id,),
                    f"{ship.id} is not entirely inside the setup area",
                )
            )
    return found


def _overlaps(scene: Scene, polygons: Mapping[str, shapely.Geometry]) -> list[Violation]:
    ruleset = scene.ruleset
    guides = ruleset.ship_guides
    shapes = {s.id: s.polygon(ruleset, guides=guides) for s in scene.ships}
    found: list[Violation] = []
    for a, b in itertools.combinations(scene.ships, 2):
        if bool(overlaps(shapes[a.id], shapes[b.id])):
            found.append(
                Violation.plain(
                    "ship-overlap",
                    (a.id, b.id),
                    f"{a.id} overlaps {b.id}" + (" (guides included)" if guides else ""),
                )
            )
    huge_obstacles = [o for o in scene.obstacles if o.kind == "huge-ship"]
    for ship in scene.ships:
        for o in huge_obstacles:
            if bool(overlaps(shapes[ship.id], polygons[o.id])):
                found.append(
                    Violation.plain(
                        "ship-overlap",
                        (ship.id, o.id),
                        f"{ship.id} overlaps the huge ship {o.id} placed as an obstacle",
                    )
                )
    return found
