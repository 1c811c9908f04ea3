"""Drawing obstacles and ships: outlines, printed arcs or hull zones, headings and ids."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely
from matplotlib.artist import Artist
from matplotlib.axes import Axes

from tabletop.geom.hulls import hull_arcs, hull_token
from tabletop.geom.objects import Ship
from tabletop.geom.poses import FloatArray, to_world
from tabletop.geom.rulesets import ArmadaRuleset, Ruleset
from tabletop.geom.shapes import world_polygon
from tabletop.obstacles.catalog import printed_name as catalog_printed_name
from tabletop.obstacles.scene import Obstacle, Scene
from tabletop.plots.style import kind_colour, player_colour

if TYPE_CHECKING:
    pass
from tabletop.plots._common import (
    _LABEL_BOX,
    _LABEL_MM_PER_CHAR,
    _Z_ARC,
    _Z_ID,
    _Z_OBSTACLE,
    _Z_SHIP,
    _label_point,
    _lines,
    _patch,
    _rgb,
    _text,
)

__all__ = ["draw_obstacle", "draw_ship"]


# -- obstacles and ships ---------------------------------------------------------------


def draw_obstacle(
    ax: Axes, scene: Scene, obstacle: Obstacle, *, printed_name: bool = False
) -> list[Artist]:
    """Draw an obstacle as its true outline, coloured by kind, with its id.

    With `printed_name`, a catalog token's label also gives the name printed on it
    (``rock1 (Asteroid 5)``).
    """
    text = obstacle.id
    if printed_name and obstacle.token is not None:
        printed = catalog_printed_name(scene.ruleset, obstacle.token)
        text = text if printed is None else f"{text} ({printed})"
    colour = kind_colour(obstacle.kind)
    polygon = obstacle.polygon()
    patch = _patch(
        ax,
        polygon,
        facecolor=colour,
        alpha=0.55,
        edgecolor=colour,
        linewidth=1.0,
        zorder=_Z_OBSTACLE,
        gid=obstacle.id,
    )
    edge = _patch(
        ax, polygon, facecolor="none", edgecolor=colour, linewidth=1.2, zorder=_Z_OBSTACLE
    )
    x, y = _label_point(polygon)
    x0, y0, x1, _ = polygon.bounds
    va = "center"
    if x1 - x0 < _LABEL_MM_PER_CHAR * (len(text) + 2):
        # Too small to hold its id: write it just below the token.
        x, y, va = (x0 + x1) / 2, y0 - 2.0, "top"
    label = _text(
        ax,
        x,
        y,
        text,
        va=va,
        fontsize=7.5,
        color="black",
        bbox={**_LABEL_BOX, "alpha": 0.7},
        gid=f"{obstacle.id}-label",
        zorder=_Z_ID,
    )
    return [patch, edge, label]


def _ray_in(shape: Any, apex: Sequence[float], direction: Sequence[float]) -> FloatArray | None:
    far = (apex[0] + 1.0e4 * direction[0], apex[1] + 1.0e4 * direction[1])
    part = shapely.intersection(shape, shapely.LineString([tuple(apex), far]))
    lines = _lines(part)
    if not lines:
        return None
    coords = np.concatenate(lines)
    along = (coords - np.asarray(apex)) @ np.asarray(direction)
    return np.array([coords[np.argmin(along)], coords[np.argmax(along)]])


#: How far an arc line is drawn past the token, mm.
_ARC_EXTENSION_MM = 45.0


def _arc_lines(scene: Scene, ship: Ship) -> list[tuple[FloatArray, FloatArray | None]]:
    """Return printed arc lines in the ship frame: (segment on the token, extension)."""
    return _arc_lines_of(scene.ruleset, ship)


@functools.singledispatch
def _arc_lines_of(rs: Ruleset, ship: Ship) -> list[tuple[FloatArray, FloatArray | None]]:
    """Return printed arc lines (X-Wing): from the base's centre at the arc half-angle."""
    extend = _ARC_EXTENSION_MM
    segments: list[tuple[FloatArray, FloatArray | None]] = []
    width, length = rs.base_size(ship.base)
    body = shapely.box(-width / 2, -length / 2, width / 2, length / 2)
    a = math.radians(rs.arc_half_angle(ship.base))
    for sx in (-1.0, 1.0):
        for sy in (1.0, -1.0):
            d = (sx * math.sin(a), sy * math.cos(a))
            seg = _ray_in(body, (0.0, 0.0), d)
            if seg is None:
                continue
            ext = None
            if sy > 0:
                ext = np.array([seg[1], seg[1] + extend * np.asarray(d)])
            segments.append((seg, ext))
    return segments


@_arc_lines_of.register(ArmadaRuleset)
def _hull_zone_lines(rs: ArmadaRuleset, ship: Ship) -> list[tuple[FloatArray, FloatArray | None]]:
    """Return hull-zone lines (Armada): from the apexes printed on the hull token."""
    extend = _ARC_EXTENSION_MM
    segments: list[tuple[FloatArray, FloatArray | None]] = []
    arcs, _ = hull_arcs(rs, ship.base, ship.hull)
    token = shapely.Polygon(hull_token(rs, ship.base))
    af, ar = math.radians(arcs.front_half_angle), math.radians(arcs.rear_half_angle)
    for sx in (-1.0, 1.0):
        for apex, d, front in (
            ((0.0, arcs.front_apex_y), (sx * math.sin(af), math.cos(af)), True),
            ((0.0, arcs.rear_apex_y), (sx * math.sin(ar), -math.cos(ar)), False),
        ):
            seg = _ray_in(token, apex, d)
            if seg is None:
                continue
            ext = np.array([seg[1], seg[1] + extend * np.asarray(d)]) if front else None
            segments.append((seg, ext))
    return segments


@functools.singledispatch
def _printed_token(rs: Ruleset, base: str) -> FloatArray | None:
    """Return the outline of a token printed inside the base, ship frame (X-Wing: none)."""
    return None


@_printed_token.register(ArmadaRuleset)
def _hull_token_outline(rs: ArmadaRuleset, base: str) -> FloatArray | None:
    """Return the Armada hull token, whose zones the arc lines divide."""
    return hull_token(rs, base)


def _heading_mark(scene: Scene, ship: Ship) -> FloatArray:
    width, length = scene.ruleset.base_size(ship.base)
    tip = length / 2 - 2.5
    # A long, narrow arrowhead: its point must be unmistakable at any rotation.
    half = min(width, length) * 0.11
    return np.array([[0.0, tip], [-half, tip - 3.0 * half], [half, tip - 3.0 * half]])


def _draw_base(ax: Axes, scene: Scene, ship: Ship, colour: str, ghost: bool, gid: str) -> Artist:
    """Draw the base with its guides: tinted, or an unfilled dashed outline for a ghost."""
    base = ship.polygon(scene.ruleset, guides=True)
    if ghost:
        style: dict[str, Any] = {
            "facecolor": "none",
            "edgecolor": colour,
            "linestyle": (0, (3, 2)),
            "linewidth": 1.1,
        }
    else:
        style = {"facecolor": colour, "edgecolor": colour, "linewidth": 1.4}
    patch = _patch(ax, base, zorder=_Z_SHIP, gid=gid, **style)
    if not ghost:
        patch.set_facecolor((*_rgb(colour), 0.22))
    return patch


def _draw_arc_lines(
    ax: Axes, scene: Scene, ship: Ship, colour: str, ghost: bool, gid: str
) -> list[Artist]:
    """Draw the arc lines on the base and, but for a ghost, the front arc's dashed reach."""
    line_alpha = 0.5 if ghost else 1.0
    artists: list[Artist] = []
    for number, (seg, ext) in enumerate(_arc_lines(scene, ship), start=1):
        world = to_world(seg, ship.pose)
        (line,) = ax.plot(
            world[:, 0],
            world[:, 1],
            color=colour,
            linewidth=0.8,
            alpha=line_alpha,
            zorder=_Z_SHIP,
        )
        artists.append(line)
        if ext is not None and not ghost:
            world = to_world(ext, ship.pose)
            (line,) = ax.plot(
                world[:, 0],
                world[:, 1],
                color=colour,
                linewidth=0.8,
                linestyle=(0, (2, 2)),
                zorder=_Z_ARC,
                gid=f"{gid}-arc-line-{number}",
            )
            artists.append(line)
    return artists


def draw_ship(
    ax: Axes,
    scene: Scene,
    ship: Ship,
    *,
    ghost: bool = False,
    label: str | None = None,
    gid: str | None = None,
) -> list[Artist]:
    """Draw a ship in its player's colour.

    Its base (with guides, X-Wing), printed token (Armada), arc lines, a heading mark
    and its id.

    Parameters
    ----------
    ghost : bool, default False
        Draw an unfilled dashed outline only (a start position).
    label : str, optional
        The text written on the base (default: the ship's id; "" for none).
    gid : str, optional
        The SVG id of the base (default: the ship's id).
    """
    rs = scene.ruleset
    colour = player_colour(ship.player)
    gid = ship.id if gid is None else gid
    artists: list[Artist] = [_draw_base(ax, scene, ship, colour, ghost, gid)]
    disk = rs.base_spec(ship.base).is_disk
    printed = None if disk else _printed_token(rs, ship.base)
    if printed is not None:
        token = world_polygon(printed, ship.pose)
        artists.append(
            _patch(
                ax,
                token,
                facecolor="none",
                edgecolor=colour,
                linewidth=0.7,
                alpha=0.5 if ghost else 1.0,
                zorder=_Z_SHIP,
            )
        )
    if not disk:
        artists += _draw_arc_lines(ax, scene, ship, colour, ghost, gid)
        mark = to_world(_heading_mark(scene, ship), ship.pose)
        artists.append(
            _patch(
                ax,
                shapely.Polygon(mark),
                facecolor="none" if ghost else colour,
                edgecolor=colour,
                linewidth=0.8,
                zorder=_Z_SHIP,
                gid=f"{gid}-heading",
            )
        )
    text = ship.id if label is None else label
    if text:
        x, y, ha, va = _behind(scene, ship)
        artists.append(
            _text(
                ax,
                x,
                y,
                text,
                ha=ha,
                va=va,
                fontsize=7.5,
                fontweight="bold",
                color="black",
                bbox={**_LABEL_BOX, "alpha": 0.75},
                gid=f"{gid}-label",
                zorder=_Z_ID + (0.0 if ghost else 0.1),
            )
        )
    return artists


def _behind(scene: Scene, ship: Ship) -> tuple[float, float, str, str]:
    """Where a ship's id goes: just behind its base (below a squadron), and how to align."""
    _, length = scene.ruleset.base_size(ship.base)
    if scene.ruleset.base_spec(ship.base).is_disk:
        return ship.x, ship.y - length / 2 - 2.0, "center", "top"
    guides = scene.ruleset.xwing_guide_depth if scene.ruleset.ship_guides else 0.0
    theta = math.radians(ship.heading)
    back = (-math.cos(theta), -math.sin(theta))
    reach = length / 2 + guides + 2.5
    x, y = ship.x + back[0] * reach, ship.y + back[1] * reach
    ha = "left" if back[0] > 0.38 else ("right" if back[0] < -0.38 else "center")
    va = "bottom" if back[1] > 0.38 else ("top" if back[1] < -0.38 else "center")
    return x, y, ha, va
