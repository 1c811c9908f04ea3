"""Ship deployment (``ship-deployment``): each base within its player's deployment zone.

X-Wing ships within the deployment limit of their player's edge; Armada ships and
squadrons inside the setup area too, squadrons within distance 2 of a friendly ship.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely

from tabletop.geom.measure import closest_points
from tabletop.geom.objects import Ship
from tabletop.obstacles._margins import _measure, _past_box, _words_first, _worth_recording
from tabletop.obstacles.scene import Scene
from tabletop.obstacles.verdicts import Margin, Violation, mm


def _squadron_deployment(
    scene: Scene, squadron: Ship, ships: list[Ship], measured: list[Margin]
) -> list[Violation]:
    """Check that an Armada squadron deploys within distance 2 of a friendly ship."""
    ruleset = scene.ruleset
    friends = [s for s in ships if s.player == squadron.player]
    if not friends:
        return [
            Violation.plain(
                "ship-deployment",
                (squadron.id,),
                f"squadron {squadron.id} has no friendly ship to deploy within distance 2 of",
            )
        ]
    reach = ruleset.squadron_line.line
    centre, radius = squadron.measured_shape(ruleset)
    best = min(
        (closest_points(f.polygon(ruleset), centre, 0.0, radius) for f in friends),
        key=lambda r: float(r[0]),
    )
    distance = float(best[0])
    line = ruleset.squadron_line
    m = _measure(
        ruleset, "ship-deployment", [squadron.id], line, distance, reach - distance, best[1][::-1]
    )
    measured.append(m)
    if not line.broken(m.margin):
        return []
    return [
        Violation.measured(
            m,
            f"squadron {squadron.id} is {mm(distance)} mm from the nearest friendly "
            f"ship; it must be within {_words_first(ruleset, reach)}",
        )
    ]


def _near_deployment(
    scene: Scene, polygons: Sequence[shapely.Geometry], *, every: bool
) -> set[int]:
    """Return the ships whose base may break or be contested at the deployment limit."""
    if not polygons:
        return set()
    ruleset, area = scene.ruleset, scene.area
    _, y0, _, y1 = shapely.bounds(np.asarray(polygons, dtype=object)).T
    edges = {p: area.player_edge(p) for p in {s.player for s in scene.ships}}
    bottom = np.array([edges[s.player] == "bottom" for s in scene.ships], dtype=bool)
    reach = np.where(bottom, y1, area.height - y0)
    margins = ruleset.deployment_limit - reach
    return set(_worth_recording(margins, ruleset, every=every).tolist())


def _edge_deployment(
    scene: Scene, ship: Ship, polygon: shapely.Geometry, measured: list[Margin]
) -> list[Violation]:
    """Check that the whole base is within the deployment limit (mm) of its player's edge."""
    ruleset, area = scene.ruleset, scene.area
    limit = ruleset.deployment_limit
    coords = np.asarray(shapely.get_coordinates(polygon), dtype=np.float64)
    if area.player_edge(ship.player) == "bottom":
        i = int(np.argmax(coords[:, 1]))
        distance = float(coords[i, 1])
        points = np.array([coords[i], [coords[i, 0], 0.0]])
    else:
        i = int(np.argmin(coords[:, 1]))
        distance = float(area.height - coords[i, 1])
        points = np.array([coords[i], [coords[i, 0], area.height]])
    line = ruleset.deployment_line
    m = _measure(ruleset, "ship-deployment", [ship.id], line, distance, limit - distance, points)
    measured.append(m)
    if not line.broken(m.margin):
        return []
    words = _words_first(ruleset, limit)
    return [
        Violation.measured(
            m,
            f"{ship.id}'s base reaches {mm(distance)} mm from player {ship.player}'s "
            f"edge; the whole base must be within {words}",
        )
    ]


def _deployment(
    scene: Scene,
    measured: list[Margin],
    polygons: Sequence[shapely.Geometry],
    *,
    every: bool = True,
) -> list[Violation]:
    """Check every ship's deployment; each measurement made is added to `measured`.

    `polygons` are the ships' outlines (:meth:`Ship.polygon`). Each base's reach from
    its edge comes from its bounds in one vectorised pass (the same extreme
    coordinate); a base is measured and recorded where it is near the line (every one,
    with `every`).
    """
    ruleset, area = scene.ruleset, scene.area
    setup_area = ruleset.setup_area(area)
    # Kept as a flag: whether the setup area bounds deployment is one line of the
    # deployment rule, read once here, where that rule is applied.
    boxed = ruleset.setup_area_boxed
    found: list[Violation] = []
    disks = {b: ruleset.base_spec(b).is_disk for b in {s.base for s in scene.ships}}
    ships = [s for s in scene.ships if not disks[s.base]]
    near = _near_deployment(scene, polygons, every=every)
    for k, ship in enumerate(scene.ships):
        polygon = polygons[k]
        disk = disks[ship.base]
        if disk:
            found += _squadron_deployment(scene, ship, ships, measured)
        elif k in near:
            found += _edge_deployment(scene, ship, polygon, measured)
        if boxed or disk:
            # Armada: the whole base inside the setup area (its line is closed).
            _, inward, points = _past_box(polygon, setup_area.bounds)
            line = ruleset.obstacle_placement.area_line
            m = _measure(ruleset, "ship-deployment", [ship.id], line, abs(inward), inward, points)
            measured.append(m)
            if line.broken(m.margin):
                what = "squadron " if disk else ""
                found.append(
                    Violation.measured(m, f"{what}{ship.id} is not entirely inside the setup area")
                )
    return found
