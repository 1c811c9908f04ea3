"""What the board's page is shown: outlines, regions and answers, from the CLI's own code.

The page draws only what these functions give it, so it needs no geometry of its own:
an obstacle's outline is the one every command measures (its catalog outline placed by
``at``, ``angle`` and ``flipped``), a ship's the base of its ruleset placed by its pose,
and the regions are those ``tabletop render`` draws. Every outline is a list of
``[x, y]`` vertices in millimetres, counter-clockwise, without the closing vertex.

A *local* outline is the object at the origin with angle (heading) 0: turned by the
object's ``angle`` (counter-clockwise, degrees) and moved to ``(x, y)`` it is the outline
on the table. A ship at heading 0 faces +x.

Examples
--------
>>> from tabletop.app.scene.scenefile import parse_scene
>>> scene = parse_scene({"ships": [{"id": "a", "base": "small", "at": [100, 200], "heading": 90}]})
>>> layout_answer(scene)["objects"][0]["outline"]
[[80.0, 180.0], [120.0, 180.0], [120.0, 220.0], [80.0, 220.0]]
"""

from __future__ import annotations

import functools
import io
import json
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import shapely

from tabletop.app.cli import emit_json
from tabletop.app.common.datafile import show
from tabletop.app.query.answers import answer, answer_bytes
from tabletop.app.scene.scenefile import parse_scene
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.objects import Ship
from tabletop.geom.poses import to_world
from tabletop.geom.rulesets import RULESET_NAMES, ArmadaRuleset, Ruleset, get_ruleset
from tabletop.geom.shapes import base_footprint, place_outline
from tabletop.obstacles.placement import placement_limits
from tabletop.obstacles.scene import Obstacle, Scene

__all__ = [
    "catalog_answer",
    "layout_answer",
    "preview_move_answer",
    "query_answer",
    "regions",
    "scene_of",
]


def _mm(value: float) -> float:
    # Rounded to the project's equality tolerance (1e-6 mm), never -0.0.
    return round(float(value), 6) + 0.0


def _points(vertices: Iterable[Iterable[float]]) -> list[list[float]]:
    return [[_mm(x), _mm(y)] for x, y in vertices]


def _ring(geometry: Any) -> list[list[float]]:
    """Return a polygon's exterior, counter-clockwise, without the closing vertex."""
    oriented = shapely.orient_polygons(geometry)
    coords = np.asarray(shapely.get_exterior_ring(oriented).coords, dtype=np.float64)
    return _points(coords[:-1])


def scene_of(data: Any, where: str = "scene") -> Scene:
    """Return the scene of a request's ``scene`` value (the checks of a scene file).

    Raises
    ------
    SceneError
        For anything that does not fit ``scene-format.md``; ``where`` begins with `where`.
    """
    return parse_scene(data, where)


# -- the palette -------------------------------------------------------------------------


def _ruleset(name: Any) -> Ruleset:
    if name is None:
        return get_ruleset("xwing2")
    if not isinstance(name, str) or name not in RULESET_NAMES:
        raise InvalidInputError(
            f"unknown ruleset {show(name)}; expected one of: {', '.join(RULESET_NAMES)}",
            where="ruleset",
        )
    return get_ruleset(name)


def ship_local_outline(ruleset: Ruleset, base: str) -> list[list[float]]:
    """Return a base's outline at the origin, heading 0 (facing +x), without guides."""
    footprint = base_footprint(ruleset, base)
    return _points(to_world(footprint.outline, np.array([0.0, 0.0, 0.0])))


def catalog_answer(ruleset_name: Any = None) -> dict[str, Any]:
    """Return the palette of a ruleset: its tokens, bases, area presets and arc names.

    ``arcs`` are what ``measure --arc`` takes: X-Wing's arcs, or Armada's hull zones.

    Raises
    ------
    InvalidInputError
        For an unknown ruleset (``where`` is ``ruleset``).

    Examples
    --------
    >>> answer = catalog_answer("xwing2")
    >>> [b["name"] for b in answer["bases"]]
    ['small', 'medium', 'large', 'huge', 'huge-short']
    >>> answer["bases"][0]["outline"]
    [[-20.0, 20.0], [-20.0, -20.0], [20.0, -20.0], [20.0, 20.0]]
    """
    from tabletop.geom.areas import AREA_PRESETS
    from tabletop.obstacles.catalog import catalog

    rules = _ruleset(ruleset_name)
    tokens = [
        {"name": token.name, "kind": token.kind, "outline": _points(token.outline)}
        for token in catalog(rules).values()
    ]
    bases = [
        {"name": name, "outline": ship_local_outline(rules, name)} for name in rules.base_sizes
    ]
    return {
        "ruleset": rules.name,
        "tokens": tokens,
        "bases": bases,
        "areas": list(AREA_PRESETS),
        "rulesets": list(RULESET_NAMES),
        "arcs": list(_arc_names(rules)),
    }


@functools.singledispatch
def _arc_names(rules: Ruleset) -> tuple[str, ...]:
    """Return the arcs a ship measures from: X-Wing's printed arcs."""
    from tabletop.geom.arcs import XWING_ARCS

    return tuple(XWING_ARCS)


@_arc_names.register(ArmadaRuleset)
def _hull_zone_names(rules: ArmadaRuleset) -> tuple[str, ...]:
    """Return Armada's hull zones."""
    from tabletop.geom.hulls import HULL_ZONES

    return tuple(HULL_ZONES)


# -- the mat -------------------------------------------------------------------------------


def _pieces(geometry: Any, cuts: tuple[float, float, float, float] | None) -> list[Any]:
    """Split a region into polygons without holes (an outline cannot show a hole).

    A hole is the allowed box ``cuts``: the region is cut along its sides into the
    strips below, above, left of and right of it.
    """
    polygons = [g for g in shapely.get_parts(geometry) if not g.is_empty and g.area > 0.0]
    if cuts is None or all(len(p.interiors) == 0 for p in polygons):
        return polygons
    x0, y0, x1, y1 = cuts
    big = 1e7
    strips = [
        shapely.box(-big, -big, big, y0),
        shapely.box(-big, y1, big, big),
        shapely.box(-big, y0, x0, y1),
        shapely.box(x1, y0, big, y1),
    ]
    pieces = []
    for polygon in polygons:
        for strip in strips:
            part = shapely.intersection(polygon, strip)
            pieces += [g for g in shapely.get_parts(part) if g.area > 0.0]
    return pieces


def _allowed_box(scene: Scene) -> Any:
    """Where an obstacle may lie: beyond the edge limit, inside the setup area."""
    return placement_limits(scene.ruleset, scene.area).allowed_area()


def regions(scene: Scene) -> list[dict[str, Any]]:
    """Return the regions ``tabletop render`` draws, each a polygon without holes.

    ``deployment`` (each player's zone: within the deployment limit of their edge,
    inside the setup area), ``setup-area`` (Armada: the area inside the setup markers)
    and ``no-obstacle`` (every point within the obstacle edge limit of an edge or, for
    Armada, outside the setup area), the last cut into strips.
    """
    area = scene.area
    rules = scene.ruleset
    table = area.polygon()
    setup = rules.setup_area(area)
    found: list[dict[str, Any]] = []
    for player in (1, 2):
        limit = rules.deployment_limit
        if player == 1:
            strip = shapely.box(0.0, 0.0, area.width, min(limit, area.height))
        else:
            strip = shapely.box(0.0, max(0.0, area.height - limit), area.width, area.height)
        for piece in _pieces(shapely.intersection(strip, setup), None):
            found.append(
                {
                    "kind": "deployment",
                    "label": f"player {player} deployment",
                    "outline": _ring(piece),
                }
            )
    if rules.obstacle_placement.inside_setup_area:  # Armada: the markers' area is drawn too
        found.append({"kind": "setup-area", "label": "setup area", "outline": _ring(setup)})
    allowed = _allowed_box(scene)
    zone = shapely.difference(table, allowed)
    cuts = None if allowed.is_empty else tuple(float(v) for v in allowed.bounds)
    for piece in _pieces(zone, cuts):  # type: ignore[arg-type]
        found.append({"kind": "no-obstacle", "label": "no obstacles", "outline": _ring(piece)})
    return found


def _object_entry(scene: Scene, obj: Ship | Obstacle) -> dict[str, Any]:
    if isinstance(obj, Ship):
        local = ship_local_outline(scene.ruleset, obj.base)
        world = _ring(obj.polygon(scene.ruleset))
        kind, angle = "ship", obj.heading
    else:
        local = _points(place_outline(obj.outline, [0.0, 0.0, 0.0, float(obj.flipped)]))
        world = _points(obj.world_outline())
        kind, angle = "obstacle", obj.angle
    return {
        "id": obj.id,
        "kind": kind,
        "x": float(obj.x),
        "y": float(obj.y),
        "angle": float(angle),
        "outline": world,
        "local_outline": local,
        "label": obj.id,
    }


def layout_answer(scene: Scene) -> dict[str, Any]:
    """Return the mat of a scene: its area, regions, ruler and every object's outline.

    ``ruler`` is the game's ruler with the scene's constants: ``{"kind": "range" |
    "distance", "lines": [mm, ...]}`` (X-Wing range 1 to 3; Armada distance 1 to 5).
    """
    objects: list[Ship | Obstacle] = [*scene.obstacles, *scene.ships]
    kind, lines = scene.ruleset.ruler
    return {
        "area": {"width": float(scene.area.width), "height": float(scene.area.height)},
        "regions": regions(scene),
        "ruler": {"kind": kind, "lines": [float(v) for v in lines]},
        "objects": [_object_entry(scene, obj) for obj in objects],
    }


# -- answers of the command line -----------------------------------------------------------


def query_answer(body: bytes) -> tuple[bytes, bool]:
    r"""Answer one ``tabletop query`` request as the command does; return (line, is_error).

    The line is what ``tabletop query`` prints for that request as its first line, its
    ``"\n"`` included: the same function answers it, and the same writer prints it.
    """
    result = answer_bytes(body, 1, strict=False)
    out = io.StringIO()
    emit_json(result, out)
    return out.getvalue().encode("utf-8"), "error" in result


def _geometry_outline(geometry: Any) -> list[list[float]] | None:
    """Return the outline of a template: its polygon, or the hull of several parts."""
    if geometry is None or geometry.is_empty:
        return None
    polygons = [g for g in shapely.get_parts(geometry) if isinstance(g, shapely.Polygon)]
    if len(polygons) == 1:
        return _ring(polygons[0])
    hull = shapely.convex_hull(geometry)
    if isinstance(hull, shapely.Polygon):
        return _ring(hull)
    return _points(np.asarray(hull.coords, dtype=np.float64))


def preview_move_answer(request: Mapping[str, Any]) -> tuple[dict[str, Any], bool]:
    """Return the preview of a move and whether it is an error answer.

    ``answer`` is what ``tabletop query`` answers ``{"op": "move", ...}`` with; beside it
    the template (or Armada tool) outline, the final base and the path of the base's
    centre (from the start to the end, a straight segment) in table millimetres.
    """
    line = json.dumps(
        {
            "op": "move",
            "scene": request.get("scene"),
            "ship": request.get("ship"),
            "maneuver": request.get("maneuver"),
        },
        allow_nan=True,
    )
    move = answer(line, 1, strict=True)
    if "error" in move:
        return move, True
    from tabletop.maneuvers import execute

    scene = scene_of(request["scene"])
    result = execute(scene, str(request["ship"]), str(request["maneuver"]))
    ship = scene.ship(str(request["ship"]))
    final = ship.moved(*(float(v) for v in result.final))
    start, end = result.start, result.final
    return {
        "answer": move,
        "template": _geometry_outline(result.template),
        "final_outline": _ring(final.polygon(scene.ruleset)),
        "path": _points([(start[0], start[1]), (end[0], end[1])]),
    }, False


def nudge_all_answer(request: Mapping[str, Any]) -> dict[str, Any]:
    """Return what ``tabletop fix`` does to a scene: every fix applied until it is legal.

    ``{"legal", "moves", "remaining"}``: ``moves`` as ``tabletop fix --json`` gives them
    (``object``, ``move``, ``from``, ``to``, ``rules``, ``way``), ``remaining`` the
    violations left. ``shortest`` true applies the shortest fixes, else the placeable ones.

    Raises
    ------
    SceneError
        For a scene that does not fit ``scene-format.md``.
    tabletop.geom.errors.InvalidInputError
        For a ``shortest`` that is not true or false.
    """
    from tabletop.geom.errors import InvalidInputError
    from tabletop.obstacles.fix_apply import apply_fixes

    shortest = request.get("shortest", False)
    if not isinstance(shortest, bool):
        raise InvalidInputError("expected true or false", where="key 'shortest'")
    outcome = apply_fixes(scene_of(request["scene"]), shortest=shortest)
    return {
        "legal": outcome.legal,
        "moves": [m.to_json() for m in outcome.moves],
        "remaining": [v.to_json() for v in outcome.after.violations],
    }
