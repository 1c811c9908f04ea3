"""The ship-overlap rule: ships (and huge ships placed as obstacles) that share area.

:func:`ship_overlaps` measures each pair the spatial index finds within reach: an overlap
by its depth past the touching line (:func:`overlap_depth`), a gap by its closest points.
A check asked again with only an obstacle moved, as while one is dragged, finds its
ships' outlines placed as before (the very objects: :func:`ship_polygons` keeps those it
placed lately), and the last answer stands without measuring again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import shapely

from tabletop.geom.measure import closest_points, overlaps
from tabletop.geom.objects import ship_polygons
from tabletop.geom.rulesets import Ruleset
from tabletop.obstacles._margins import _measure
from tabletop.obstacles._nearest import candidate_pairs
from tabletop.obstacles.placement import minkowski_sum
from tabletop.obstacles.scene import Scene
from tabletop.obstacles.verdicts import Margin, Violation

__all__ = ["overlap_depth", "ship_overlaps"]

#: The last call of ship_overlaps: what it asked, its margins and its violations (a check
#: asked again with an obstacle moved, as while one is dragged, has its ships as before).
_LAST_OVERLAPS: list[tuple[tuple[Any, ...], tuple[Margin, ...], tuple[Violation, ...]] | None] = [
    None
]


def overlap_depth(a: shapely.Geometry, b: shapely.Geometry) -> float:
    """Return how deep two outlines overlap: the shortest move of `a` that separates them.

    Exact for polygons: the moves of `a` that make it meet `b` are the Minkowski sum of
    `b` and the reflected `a`; the depth is the distance from no move to its boundary.

    Examples
    --------
    >>> import shapely
    >>> round(overlap_depth(shapely.box(0, 0, 40, 40), shapely.box(39.8, 10, 80, 50)), 9)
    0.2
    """
    reflected = shapely.transform(a, lambda xy: -xy)
    region = minkowski_sum(b, reflected)
    return float(shapely.distance(shapely.Point(0.0, 0.0), shapely.boundary(region)))


def ship_overlaps(
    scene: Scene,
    polygons: Mapping[str, shapely.Geometry],
    ship_shapes: Sequence[shapely.Geometry],
    measured: list[Margin],
    *,
    nearest: bool,
) -> list[Violation]:
    """Ships (and huge-ship obstacles) overlapping: depth past the touching line.

    `ship_shapes` are the bases without guides (the outlines themselves where the
    ruleset has no guides).
    """
    ruleset = scene.ruleset
    guides = ruleset.ship_guides
    ships = list(scene.ships)
    huge = [o for o in scene.obstacles if o.kind == "huge-ship"]
    shapes = ship_polygons(ships, ruleset, guides=True) if guides else list(ship_shapes)
    everything = shapes + [polygons[o.id] for o in huge]
    names = [s.id for s in ships] + [o.id for o in huge]
    # The outlines placed lately are the very objects of the last check (their caches):
    # the same outlines, names and ruleset measure the same, so the last answer stands.
    asked = (ruleset, nearest, tuple(names), tuple(everything), len(ships))
    last = _LAST_OVERLAPS[0]
    if last is not None and _same_question(last[0], asked):
        measured.extend(last[1])
        return list(last[2])
    own: list[Margin] = []
    found = _measured_overlaps(ruleset, everything, names, len(ships), own, nearest=nearest)
    measured.extend(own)
    _LAST_OVERLAPS[0] = (asked, tuple(own), tuple(found))
    return found


def _same_question(last: tuple[Any, ...], asked: tuple[Any, ...]) -> bool:
    """Whether two calls of :func:`ship_overlaps` ask the same: alike values, identical outlines."""
    ruleset, nearest, names, shapes, ship_count = asked
    return (
        last[0] is ruleset
        and last[1] == nearest
        and last[2] == names
        and last[4] == ship_count
        and len(last[3]) == len(shapes)
        and all(a is b for a, b in zip(last[3], shapes, strict=True))
    )


def _measured_overlaps(
    ruleset: Ruleset,
    everything: Sequence[shapely.Geometry],
    names: Sequence[str],
    ship_count: int,
    measured: list[Margin],
    *,
    nearest: bool,
) -> list[Violation]:
    """Measure the overlaps of :func:`ship_overlaps`: the ships first, then huge-ship obstacles."""
    guides = ruleset.ship_guides
    line = ruleset.overlap_line
    huge = set(names[ship_count:])
    found: list[Violation] = []
    for i, j in candidate_pairs(everything, ruleset.contested_within + 1e-3, nearest=nearest):
        if i >= ship_count:
            continue  # two huge-ship obstacles: the spacing rule's business
        a, b = everything[i], everything[j]
        if bool(overlaps(a, b)):
            distance = overlap_depth(a, b)
            margin = -max(distance, 2e-6)  # an overlap is never on the line
            points = None
        else:
            gap, pts = closest_points(a, b)
            distance = float(gap)
            margin = max(distance, 0.0)
            points = pts
        m = _measure(ruleset, "ship-overlap", (names[i], names[j]), line, distance, margin, points)
        measured.append(m)
        if line.broken(m.margin):
            if j >= ship_count:
                text = f"{names[i]} overlaps the huge ship {names[j]} placed as an obstacle"
            else:
                text = f"{names[i]} overlaps {names[j]}" + (" (guides included)" if guides else "")
            found.append(Violation.measured(m, text))
    # Ship pairs first, then ships against huge-ship obstacles, as reported before.
    found.sort(key=lambda v: v.objects[1] in huge)
    return found
