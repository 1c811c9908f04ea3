"""Random legal obstacle setups, drawn uniformly from the legal region.

Tokens are placed one after another, as players do. Each token gets a random side and a
rotation (a tenth of a degree); its reference point is drawn uniformly from the region
where it is legal given the tokens already down — by rejection from the edge rectangle
(uniform on the legal region it contains), falling back to sampling the exact legal
region (:func:`tabletop.obstacles.placement.legal_region`) when that region is small. When a token
has no legal position at its rotation, the draw starts again. The same seed gives the
same setup.

Examples
--------
>>> from tabletop.geom.rulesets import get_ruleset
>>> from tabletop.geom.areas import play_area
>>> scene = random_setup(get_ruleset("armada"), play_area("6x3ft"), seed=7)
>>> sorted(o.kind for o in scene.obstacles)
['asteroid', 'asteroid', 'asteroid', 'debris', 'debris', 'station']
>>> random_setup(get_ruleset("armada"), play_area("6x3ft"), seed=7).to_dict() == scene.to_dict()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
import shapely

from tabletop.geom.areas import PlayArea
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.poses import FloatArray
from tabletop.geom.rulesets import Ruleset
from tabletop.geom.shapes import place_outline
from tabletop.obstacles.catalog import Token, catalog
from tabletop.obstacles.placement import PlacementLimits, legal_region, placement_limits
from tabletop.obstacles.scene import Obstacle, Scene

__all__ = ["random_setup", "setup_tokens"]

#: Rejection tries in the edge rectangle before the exact legal region is sampled.
_REJECTION_TRIES = 200
#: Fresh starts before giving up (never reached on the standard tables).
_RESTARTS = 1000
#: Coordinates are written to 0.01 mm (two decimals); angles to a tenth of a degree.
_DECIMALS = 2
_GRID_MM = 0.01


def setup_tokens(ruleset: Ruleset, rng: np.random.Generator) -> list[Token]:
    """Draw the tokens of a setup.

    X-Wing: six different asteroid, debris or gas tokens of the tournament families;
    Armada: the standard set (3 asteroids, 2 debris, 1 station).
    """
    tokens = catalog(ruleset)
    wanted = ruleset.obstacle_set
    if wanted.per_player is None:
        pool = {kind: [t for t in tokens.values() if t.kind == kind] for kind in wanted.setup_kinds}
        chosen: list[Token] = []
        for kind, count in wanted.kinds.items():
            if len(pool[kind]) < count:
                raise InvalidInputError(f"the {ruleset.name} catalog has too few {kind} tokens")
            picks = rng.choice(len(pool[kind]), size=count, replace=False)
            chosen.extend(pool[kind][int(i)] for i in picks)
        order = rng.permutation(len(chosen))
        return [chosen[int(i)] for i in order]
    allowed = [
        t for t in tokens.values() if t.family in wanted.families and t.kind in wanted.setup_kinds
    ]
    picks = rng.choice(len(allowed), size=wanted.size, replace=False)
    return [allowed[int(i)] for i in picks]


def _legal(
    polygon: shapely.Polygon, placed: list[shapely.Polygon], limits: PlacementLimits
) -> bool:
    # The bounds first: the distances to the others are the costly part.
    if not limits.allows(polygon.bounds, None):
        return False
    return not placed or limits.allows(
        polygon.bounds, float(np.min(shapely.distance(polygon, placed)))
    )


def _sample_region(region: shapely.Geometry, rng: np.random.Generator) -> tuple[float, float]:
    triangles = shapely.get_parts(shapely.constrained_delaunay_triangles(region))
    areas = shapely.area(triangles)
    index = int(rng.choice(len(triangles), p=areas / areas.sum()))
    a, b, c = np.asarray(shapely.get_coordinates(triangles[index]))[:3]
    r1, r2 = rng.random(2)
    if r1 + r2 > 1.0:
        r1, r2 = 1.0 - r1, 1.0 - r2
    point = a + r1 * (b - a) + r2 * (c - a)
    return float(point[0]), float(point[1])


def _spot(
    outline: FloatArray,
    local: FloatArray,
    angle: float,
    flipped: bool,
    placed: list[shapely.Polygon],
    limits: PlacementLimits,
    rng: np.random.Generator,
) -> tuple[float, float] | None:
    """Draw a legal position (mm) for a token turned to `local`, or None if none is found.

    Positions are first drawn uniformly in the box the edge limit leaves; when that
    fails, from the region where the token is legal (computed, so slower).
    """
    (min_x, min_y), (max_x, max_y) = local.min(axis=0), local.max(axis=0)
    x0, y0, x1, y1 = limits.edge_box((min_x, min_y, max_x, max_y), 0.0)
    lo, hi = np.array([x0, y0]), np.array([x1, y1])
    if np.all(hi > lo):
        for _ in range(_REJECTION_TRIES):
            x, y = (round(float(v), _DECIMALS) for v in rng.uniform(lo, hi))
            if _legal(shapely.Polygon(local + np.array([x, y])), placed, limits):
                return (x, y)
    region = legal_region(outline, angle, flipped, placed, limits, clearance=_GRID_MM)
    if region.is_empty or region.area <= 0.0:
        return None
    for _ in range(_REJECTION_TRIES):
        x, y = (round(v, _DECIMALS) for v in _sample_region(region, rng))
        if _legal(shapely.Polygon(local + np.array([x, y])), placed, limits):
            return (x, y)
    return None


def random_setup(
    ruleset: Ruleset,
    area: PlayArea,
    *,
    seed: int,
    format: Literal["standard", "tournament"] = "standard",
    tokens: Sequence[str] | None = None,
) -> Scene:
    """Return a random legal obstacle setup (no ships) for `ruleset` on `area`.

    Parameters
    ----------
    ruleset : Ruleset
        Which game's tokens and placement rules.
    area : PlayArea
        The play area.
    seed : int
        The same seed gives the same setup.
    format : {"standard", "tournament"}
        Written into the scene; X-Wing setups always satisfy the tournament composition
        (three different tokens per player from the tournament families).
    tokens : sequence of str, optional
        The catalog tokens to place, in order (players alternate, player 1 first),
        instead of a drawn set; ``setup --from LIST`` places a list's choices so.

    Raises
    ------
    InvalidInputError
        When no legal setup is found (a play area too small for the limits).
    """
    rng = np.random.default_rng(seed)
    limits = placement_limits(ruleset, area)
    for _ in range(_RESTARTS):
        chosen = (
            setup_tokens(ruleset, rng)
            if tokens is None
            else [catalog(ruleset)[name] for name in tokens]
        )
        placed: list[shapely.Polygon] = []
        obstacles: list[Obstacle] = []
        for index, token in enumerate(chosen):
            angle = round(float(rng.uniform(0.0, 360.0)), 1) % 360.0
            flipped = bool(rng.integers(2))
            local = place_outline(token.outline, np.array([0.0, 0.0, angle, float(flipped)]))
            spot = _spot(token.outline, local, angle, flipped, placed, limits, rng)
            if spot is None:
                break
            player = 1 + index % 2
            obstacles.append(
                Obstacle(
                    token.name,
                    token.outline,
                    token.kind,
                    spot[0],
                    spot[1],
                    angle,
                    flipped,
                    player,
                    token.name,
                    token.family,
                )
            )
            placed.append(shapely.Polygon(local + np.array(spot)))
        else:
            return Scene(ruleset, area, format=format, obstacles=tuple(obstacles))
    raise InvalidInputError(
        f"no legal {ruleset.name} setup found on a {area.width:g} x {area.height:g} mm area"
    )
