"""Drawing a scene, its violations, a measurement and a move onto a matplotlib Axes.

Every ``draw_*`` function takes the :class:`~matplotlib.axes.Axes` the caller made, draws
in millimetres (the scene's frame: x along player 1's edge, y toward player 2's) and
returns the artists it added, so a caller can restyle or remove them. Every artist that
stands for an object carries the object's id as its ``gid`` (the main outline gets the
bare id, its label ``"<id>-label"``), so an SVG names each object both as text and as an
element id.

Examples
--------
>>> from matplotlib.figure import Figure
>>> from geom.areas import play_area
>>> from geom.objects import Ship
>>> from geom.rulesets import get_ruleset
>>> from obstacles.scene import Scene
>>> scene = Scene(get_ruleset("xwing2"), play_area("3x3ft"), ships=(Ship("a", "small", 300, 40),))
>>> ax = Figure().add_subplot()
>>> artists = draw_scene(ax, scene, violations=False)
>>> sorted(a.get_gid() for a in artists if a.get_gid() in scene.ids)
['a']
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import shapely
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, PathPatch, Rectangle
from matplotlib.path import Path
from numpy.typing import ArrayLike
from shapely.ops import polylabel

from geom.arcs import arc_region_outline
from geom.hulls import firing_arc, hull_arcs, hull_token, hull_zone
from geom.objects import Ship
from geom.poses import FloatArray, to_world
from geom.rulesets import Ruleset
from geom.shapes import world_polygon
from obstacles.measuring import Measurement
from obstacles.scene import Obstacle, Scene
from plots.style import ALARM, INK, MEASURE, TEMPLATE, kind_colour, player_colour

if TYPE_CHECKING:
    from obstacles.legality import CheckReport, Violation

__all__ = [
    "MoveLike",
    "band_text",
    "draw_area",
    "draw_measurement",
    "draw_move",
    "draw_obstacle",
    "draw_scale_bar",
    "draw_scene",
    "draw_ship",
    "draw_violations",
    "geometry_path",
    "legend_handles",
    "move_text",
    "scene_limits",
    "violation_label",
]

# Drawing order, bottom to top.
_Z_TABLE, _Z_ZONES, _Z_MARGIN, _Z_ARC = 0.0, 1.0, 1.5, 2.0
_Z_OBSTACLE, _Z_TEMPLATE, _Z_SHIP, _Z_MOVE = 3.0, 3.5, 4.0, 4.5
_Z_LABEL, _Z_ALARM, _Z_MEASURE, _Z_TOP = 6.0, 7.0, 8.0, 9.0

# Space around the table for the edge names (mm), and below it for the scale bar.
_PAD_MM = 48.0
_PAD_BELOW_MM = 125.0

# Ids are written above the alarm outlines, under the alarm labels.
_Z_ID = _Z_ALARM + 0.2
# About how wide a character of an id label is on the table at the default size, mm.
_LABEL_MM_PER_CHAR = 6.0

_LABEL_BOX = {"boxstyle": "round,pad=0.18", "facecolor": "white", "edgecolor": "none"}


class MoveLike(Protocol):
    """What :func:`draw_move` reads from a move (``maneuvers.execute``'s ``MoveResult``)."""

    @property
    def ship(self) -> object:
        """The moving ship's id (or the ship)."""

    @property
    def maneuver(self) -> str:
        """The maneuver as words."""

    @property
    def start(self) -> ArrayLike:
        """The starting pose ``(x, y, heading)``."""

    @property
    def final(self) -> ArrayLike:
        """The final pose ``(x, y, heading)``."""

    @property
    def template(self) -> object:
        """The template (or Armada tool) in world coordinates, a shapely geometry or None."""

    @property
    def complete(self) -> bool:
        """False when the ship bumped."""

    @property
    def bumped(self) -> str | None:
        """The id of the ship bumped into."""

    @property
    def fled(self) -> bool:
        """Whether the ship left the play area."""

    @property
    def obstacles(self) -> Sequence[tuple[str, str]]:
        """``(obstacle id, "moves-through" | "ends-on")``, in the order they resolve."""

    @property
    def legal(self) -> bool | None:
        """False for a roll, boost or course that cannot be done (None: not an action)."""

    @property
    def reason(self) -> str | None:
        """Why the move is not legal."""

    @property
    def bump_point(self) -> ArrayLike | None:
        """Where the bumped bases touch."""


# -- geometry helpers ------------------------------------------------------------------


def _polygons(geom: Any) -> list[Any]:
    if geom is None or shapely.is_empty(geom):
        return []
    kind = shapely.get_type_id(geom)
    if kind == 3:  # Polygon
        return [geom] if geom.area > 0 else []
    if kind in (6, 7):  # MultiPolygon, GeometryCollection
        return [p for part in geom.geoms for p in _polygons(part)]
    return []


def _lines(geom: Any) -> list[FloatArray]:
    if geom is None or shapely.is_empty(geom):
        return []
    kind = shapely.get_type_id(geom)
    if kind in (1, 2):  # LineString, LinearRing
        return [np.asarray(geom.coords, dtype=np.float64)]
    if kind in (5, 7):  # MultiLineString, GeometryCollection
        return [line for part in geom.geoms for line in _lines(part)]
    return []


def geometry_path(geom: Any) -> Path:
    """Return a matplotlib path for the polygons of a shapely geometry (holes kept).

    Examples
    --------
    >>> ring = shapely.box(0, 0, 10, 10).difference(shapely.box(2, 2, 8, 8))
    >>> len(geometry_path(ring).vertices)
    10
    """
    vertices: list[FloatArray] = []
    codes: list[FloatArray] = []
    for polygon in _polygons(geom):
        polygon = shapely.orient_polygons(polygon)
        for ring in (polygon.exterior, *polygon.interiors):
            xy = np.asarray(ring.coords, dtype=np.float64)
            code = np.full(len(xy), Path.LINETO, dtype=np.float64)
            code[0], code[-1] = Path.MOVETO, Path.CLOSEPOLY
            vertices.append(xy)
            codes.append(code)
    if not vertices:
        return Path(np.zeros((0, 2)))
    return Path(np.concatenate(vertices), np.concatenate(codes).astype(np.uint8))


def _patch(ax: Axes, geom: Any, **style: Any) -> PathPatch:
    patch = PathPatch(geometry_path(geom), **style)
    ax.add_patch(patch)
    return patch


def _label_point(geom: Any) -> tuple[float, float]:
    polygons = _polygons(geom)
    if not polygons:
        point = shapely.centroid(geom)
        return float(point.x), float(point.y)
    biggest = max(polygons, key=lambda p: p.area)
    point = polylabel(biggest, tolerance=0.5)
    return float(point.x), float(point.y)


def _text(
    ax: Axes, x: float, y: float, text: str, *, gid: str | None = None, **style: Any
) -> Artist:
    style.setdefault("ha", "center")
    style.setdefault("va", "center")
    style.setdefault("zorder", _Z_LABEL)
    artist = ax.text(x, y, text, gid=gid, **style)
    return artist


def _object_shape(scene: Scene, obj: Ship | Obstacle, *, guides: bool = True) -> Any:
    if isinstance(obj, Ship):
        return obj.polygon(scene.ruleset, guides=guides)
    return obj.polygon()


def scene_limits(scene: Scene) -> tuple[float, float, float, float]:
    """Return the view ``(xmin, xmax, ymin, ymax)``: the table, every object and the margins."""
    area = scene.area
    x0, y0, x1, y1 = 0.0, 0.0, area.width, area.height
    objects: list[Ship | Obstacle] = [*scene.obstacles, *scene.ships]
    for obj in objects:
        bx0, by0, bx1, by1 = _object_shape(scene, obj).bounds
        x0, y0, x1, y1 = min(x0, bx0), min(y0, by0), max(x1, bx1), max(y1, by1)
    return x0 - _PAD_MM, x1 + _PAD_MM, y0 - _PAD_BELOW_MM, y1 + _PAD_MM


# -- the table -------------------------------------------------------------------------


def _no_obstacle_zone(scene: Scene) -> Any:
    area = scene.area
    limit = scene.ruleset.obstacle_edge_limit
    table = area.polygon()
    inner = shapely.box(limit, limit, area.width - limit, area.height - limit)
    if limit * 2 >= min(area.width, area.height):
        inner = shapely.Polygon()
    allowed = shapely.intersection(inner, area.setup_area(armada=scene.ruleset.setup_area_boxed))
    return shapely.difference(table, allowed)


def _deployment_zone(scene: Scene, player: int) -> Any:
    area = scene.area
    limit = scene.ruleset.deployment_limit
    if player == 1:
        strip = shapely.box(0.0, 0.0, area.width, min(limit, area.height))
    else:
        strip = shapely.box(0.0, max(0.0, area.height - limit), area.width, area.height)
    return shapely.intersection(strip, area.setup_area(armada=scene.ruleset.setup_area_boxed))


def _is_armada(scene: Scene) -> bool:
    return scene.ruleset.hull_zones


def draw_area(ax: Axes, scene: Scene) -> list[Artist]:
    """Draw the play area to scale.

    The table, its named edges, the deployment zones, the setup area (Armada) and the
    hatched no-obstacle margins.

    The margins are every point where an obstacle may not lie: within the obstacle edge
    limit of an edge (X-Wing: 200 mm; Armada: distance 3) and, for Armada, outside the
    setup area. In the play phase, where the setup rules are not checked, they are drawn
    fainter.
    """
    area = scene.area
    w, h = area.width, area.height
    fade = 1.0 if scene.phase == "setup" else 0.45
    artists: list[Artist] = []
    table = Rectangle((0.0, 0.0), w, h, facecolor="#FBFBF8", edgecolor="none", zorder=_Z_TABLE)
    ax.add_patch(table)
    table.set_gid("play-area")
    artists.append(table)
    for player in (1, 2):
        zone = _deployment_zone(scene, player)
        patch = _patch(
            ax,
            zone,
            facecolor=player_colour(player),
            alpha=0.10 * fade,
            edgecolor="none",
            zorder=_Z_ZONES,
            gid=f"deployment-{player}",
        )
        artists.append(patch)
    margin = _patch(
        ax,
        _no_obstacle_zone(scene),
        facecolor="none",
        edgecolor=INK,
        linewidth=0.0,
        hatch="///",
        alpha=0.35 * fade,
        zorder=_Z_MARGIN,
        gid="no-obstacle-margin",
    )
    artists.append(margin)
    if _is_armada(scene):
        sx0, sy0, sx1, sy1 = area.setup_area(armada=True).bounds
        setup = Rectangle(
            (sx0, sy0),
            sx1 - sx0,
            sy1 - sy0,
            facecolor="none",
            edgecolor=INK,
            linestyle=(0, (6, 4)),
            linewidth=1.0,
            zorder=_Z_MARGIN,
            gid="setup-area",
        )
        ax.add_patch(setup)
        artists.append(setup)
    border = Rectangle(
        (0.0, 0.0), w, h, facecolor="none", edgecolor=INK, linewidth=1.6, zorder=_Z_LABEL
    )
    border.set_gid("play-area-edge")
    ax.add_patch(border)
    artists.append(border)
    gap = 14.0
    style: dict[str, Any] = {"color": INK, "fontsize": 9, "zorder": _Z_LABEL}
    artists.append(
        _text(ax, w / 2, -gap, "player 1 edge (bottom)", va="top", gid="edge-bottom", **style)
    )
    artists.append(
        _text(ax, w / 2, h + gap, "player 2 edge (top)", va="bottom", gid="edge-top", **style)
    )
    artists.append(
        _text(ax, -gap, h / 2, "left edge", rotation=90, ha="right", gid="edge-left", **style)
    )
    artists.append(
        _text(ax, w + gap, h / 2, "right edge", rotation=270, ha="left", gid="edge-right", **style)
    )
    return artists


def _ruler_marks(scene: Scene) -> tuple[str, tuple[float, ...]]:
    kind, lines = scene.ruleset.ruler
    return kind, lines


def draw_scale_bar(
    ax: Axes, scene: Scene, *, origin: tuple[float, float] | None = None
) -> list[Artist]:
    """Draw a millimetre scale bar that is also the game's ruler.

    X-Wing range 1-3, Armada distance 1-5; below the table unless `origin` (its left
    end) is given.
    """
    name, marks = _ruler_marks(scene)
    if origin is None:
        _, _, ymin, _ = scene_limits(scene)
        origin = (0.0, ymin + 42.0)
    x0, y0 = origin
    length = marks[-1]
    height = 9.0
    artists: list[Artist] = []
    start = 0.0
    for i, end in enumerate(marks):
        seg = Rectangle(
            (x0 + start, y0),
            end - start,
            height,
            facecolor=INK if i % 2 == 0 else "white",
            edgecolor=INK,
            linewidth=0.8,
            zorder=_Z_LABEL,
            gid=f"ruler-{i + 1}",
        )
        ax.add_patch(seg)
        artists.append(seg)
        artists.append(
            _text(
                ax,
                x0 + (start + end) / 2,
                y0 + height + 3,
                str(i + 1),
                va="bottom",
                fontsize=7.5,
                color=INK,
            )
        )
        start = end
    step = 100.0
    ticks = np.arange(0.0, length + 1e-6, step)
    for t in ticks:
        artists.append(_text(ax, x0 + t, y0 - 3, f"{t:.0f}", va="top", fontsize=7.5, color=INK))
    artists.append(
        _text(
            ax,
            x0 + length + 12,
            y0 + height / 2,
            f"mm  ({name} ruler: {', '.join(f'{m:g}' for m in marks)} mm)",
            ha="left",
            fontsize=7.5,
            color=INK,
            gid="ruler-label",
        )
    )
    return artists


# -- obstacles and ships ---------------------------------------------------------------


def draw_obstacle(ax: Axes, scene: Scene, obstacle: Obstacle) -> list[Artist]:
    """Draw an obstacle as its true outline, coloured by kind, with its id."""
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
    if x1 - x0 < _LABEL_MM_PER_CHAR * (len(obstacle.id) + 2):
        # Too small to hold its id: write it just below the token.
        x, y, va = (x0 + x1) / 2, y0 - 2.0, "top"
    label = _text(
        ax,
        x,
        y,
        obstacle.id,
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


def _arc_lines(scene: Scene, ship: Ship) -> list[tuple[FloatArray, FloatArray | None]]:
    """Return printed arc lines in the ship frame: (segment on the token, extension)."""
    rs = scene.ruleset
    extend = 45.0
    segments: list[tuple[FloatArray, FloatArray | None]] = []
    if not rs.hull_zones:
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


def _heading_mark(scene: Scene, ship: Ship) -> FloatArray:
    width, length = scene.ruleset.base_size(ship.base)
    tip = length / 2 - 2.5
    # A long, narrow arrowhead: its point must be unmistakable at any rotation.
    half = min(width, length) * 0.11
    return np.array([[0.0, tip], [-half, tip - 3.0 * half], [half, tip - 3.0 * half]])


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
    artists: list[Artist] = []
    base = ship.polygon(rs, guides=True)
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
    artists.append(patch)
    line_alpha = 0.5 if ghost else 1.0
    disk = rs.base_spec(ship.base).is_disk
    if rs.hull_zones and not disk:
        token = world_polygon(hull_token(rs, ship.base), ship.pose)
        artists.append(
            _patch(
                ax,
                token,
                facecolor="none",
                edgecolor=colour,
                linewidth=0.7,
                alpha=line_alpha,
                zorder=_Z_SHIP,
            )
        )
    if not disk:
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


def _rgb(colour: str) -> tuple[float, float, float]:
    value = colour.lstrip("#")
    return tuple(int(value[i : i + 2], 16) / 255.0 for i in (0, 2, 4))  # type: ignore[return-value]


# -- the whole scene -------------------------------------------------------------------


def _frame_axes(ax: Axes, scene: Scene) -> None:
    x0, x1, y0, y1 = scene_limits(scene)
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel("x (mm)")
    ax.set_ylabel("y (mm)")
    ax.tick_params(labelsize=7.5, colors=INK)
    for spine in ax.spines.values():
        spine.set_color("#C8C8C8")


def draw_scene(
    ax: Axes,
    scene: Scene,
    *,
    violations: bool = True,
    report: CheckReport | None = None,
    exclude: Iterable[str] = (),
    scale_bar: bool = True,
) -> list[Artist]:
    """Draw a whole scene: the table, obstacles, ships and every violation ``check`` finds.

    Also frames the axes: equal aspect, millimetre axes, the table and every object in
    view with room for the edge names and the scale bar.

    Parameters
    ----------
    ax : Axes
        Where to draw.
    scene : Scene
        What to draw.
    violations : bool, default True
        Mark every violation of :func:`obstacles.legality.check` (or of `report`).
    report : CheckReport, optional
        A check already made (default: ``check(scene)`` when `violations` is true).
    exclude : iterable of str
        Ship ids not to draw (a moving ship that :func:`draw_move` draws instead).
    scale_bar : bool, default True
        Draw the millimetre scale bar and ruler below the table.
    """
    skip = set(exclude)
    _frame_axes(ax, scene)
    artists = draw_area(ax, scene)
    for obstacle in scene.obstacles:
        artists += draw_obstacle(ax, scene, obstacle)
    for ship in scene.ships:
        if ship.id not in skip:
            artists += draw_ship(ax, scene, ship)
    if scale_bar:
        artists += draw_scale_bar(ax, scene)
    if violations:
        if report is None:
            from obstacles.legality import check

            report = check(scene)
        artists += draw_violations(ax, scene, report)
    return artists


# -- violations ------------------------------------------------------------------------


def _label_side(normal: FloatArray) -> tuple[str, str]:
    ha = "left" if normal[0] > 0.2 else ("right" if normal[0] < -0.2 else "center")
    va = "bottom" if normal[1] > 0.2 else ("top" if normal[1] < -0.2 else "center")
    return ha, va


def _label_box(anchor: FloatArray, normal: FloatArray, size: tuple[float, float]) -> Any:
    """Return the table area (mm) a label of about `size` takes beside `anchor`."""
    w, h = size
    ha, va = _label_side(normal)
    x = {"left": anchor[0] + 6.0, "right": anchor[0] - 6.0 - w, "center": anchor[0] - w / 2}[ha]
    y = {"bottom": anchor[1] + 6.0, "top": anchor[1] - 6.0 - h, "center": anchor[1] - h / 2}[va]
    return shapely.box(x, y, x + w, y + h)


def _free_spot(
    p: FloatArray, q: FloatArray, crowd: Any, size: tuple[float, float]
) -> tuple[float, float]:
    """Return (fraction along p-q, side ±1) where a label covers the least of `crowd`."""
    d = q - p
    norm = float(np.hypot(*d))
    if norm < 1e-9 or crowd is None or shapely.is_empty(crowd):
        return 0.5, 1.0
    best: tuple[float, float, float] | None = None
    for along in (0.5, 0.35, 0.65, 0.2, 0.8):
        for side in (1.0, -1.0):
            normal = _normal(p, q) * side
            box = _label_box(p + d * along, normal, size)
            covered = float(shapely.area(shapely.intersection(box, crowd)))
            if best is None or covered < best[0] - 1.0:
                best = (covered, along, side)
    assert best is not None
    return best[1], best[2]


def _normal(p: FloatArray, q: FloatArray) -> FloatArray:
    d = q - p
    norm = float(np.hypot(*d))
    normal = np.array([-d[1], d[0]]) / norm if norm > 1e-9 else np.array([0.7071, 0.7071])
    if normal[0] < 0 or (abs(normal[0]) < 1e-9 and normal[1] < 0):
        normal = -normal
    return normal


def _offset_label(
    ax: Axes,
    p: FloatArray,
    q: FloatArray,
    text: str,
    *,
    colour: str,
    gid: str | None,
    zorder: float,
    offset_pt: float = 8.0,
    along: float = 0.5,
    side: float = 1.0,
) -> Artist:
    mid = p + (q - p) * along
    normal = _normal(p, q) * side
    offset = normal * offset_pt
    ha, va = _label_side(normal)
    return ax.annotate(
        text,
        xy=(float(mid[0]), float(mid[1])),
        xytext=(float(offset[0]), float(offset[1])),
        textcoords="offset points",
        ha=ha,
        va=va,
        fontsize=8,
        color=colour,
        fontweight="bold",
        bbox={**_LABEL_BOX, "alpha": 0.85, "edgecolor": colour, "linewidth": 0.8},
        zorder=zorder,
        gid=gid,
    )


def violation_label(number: int, violation: Violation) -> str:
    """Return the text written beside a violation: its number, measurement and margin."""
    head = f"[{number}] {violation.rule}"
    if violation.distance is None:
        return head
    lines = [head, f"{violation.distance:.1f} mm"]
    if violation.limit is not None and violation.margin is not None:
        lines[-1] += f" (limit {violation.limit:.1f}, margin {violation.margin:+.1f} mm)"
    if violation.contested:
        lines.append("contested: within 1 mm of the limit")
    return "\n".join(lines)


def draw_violations(ax: Axes, scene: Scene, report: CheckReport) -> list[Artist]:
    """Mark every violation of a check in the alarm colour, numbered in report order.

    A violation with closest points gets that segment, with the measured distance, the
    limit and the margin written beside it; the objects it names are outlined; overlaps
    and parts outside the play area are filled.
    """
    artists: list[Artist] = []
    ids = set(scene.ids)
    stacks: dict[str, int] = {}
    crowd = _crowd(scene)
    fixes_drawn: set[tuple[str, float, float]] = set()
    for number, v in enumerate(report.violations, start=1):
        gid = f"violation-{number}"
        shapes = [
            _object_shape(scene, scene.get(obj), guides=False) for obj in v.objects if obj in ids
        ]
        for obj, shape in zip([o for o in v.objects if o in ids], shapes, strict=True):
            artists.append(
                _patch(
                    ax,
                    shape,
                    facecolor="none",
                    edgecolor=ALARM,
                    linewidth=2.2,
                    zorder=_Z_ALARM,
                    gid=f"{gid}-{obj}",
                )
            )
        if v.rule == "ship-overlap" and len(shapes) >= 2:
            guided = [
                _object_shape(scene, scene.get(o), guides=True) for o in v.objects if o in ids
            ]
            overlap = shapely.intersection(guided[0], guided[1])
            artists.append(
                _patch(ax, overlap, facecolor=ALARM, alpha=0.7, edgecolor="none", zorder=_Z_ALARM)
            )
        if v.rule == "outside-play-area" and shapes:
            outside = shapely.difference(shapes[0], scene.area.polygon())
            artists.append(
                _patch(ax, outside, facecolor=ALARM, alpha=0.6, edgecolor="none", zorder=_Z_ALARM)
            )
        artists += _draw_fix(ax, scene, v, fixes_drawn)
        text = violation_label(number, v)
        if v.points is not None:
            pts = np.asarray(v.points, dtype=np.float64).reshape(2, 2)
            p, q = pts[0], pts[1]
            (line,) = ax.plot(
                pts[:, 0],
                pts[:, 1],
                color=ALARM,
                linewidth=2.0,
                marker="o",
                markersize=3.5,
                zorder=_Z_ALARM,
                gid=f"{gid}-line",
            )
            artists.append(line)
            along, side = _free_spot(p, q, crowd, _text_size_mm(text))
            artists.append(
                _offset_label(
                    ax,
                    p,
                    q,
                    text,
                    colour=ALARM,
                    gid=gid,
                    zorder=_Z_ALARM + 0.5,
                    along=along,
                    side=side,
                )
            )
        else:
            key = v.objects[0] if shapes else ""
            anchor = shapes[0] if shapes else scene.area.polygon()
            x0, _, x1, top = anchor.bounds
            stacked = stacks.get(key, 0)
            stacks[key] = stacked + 1 + text.count("\n")
            artists.append(
                ax.annotate(
                    text,
                    xy=((x0 + x1) / 2, top),
                    xytext=(0.0, 14.0 + 13.0 * stacked),
                    textcoords="offset points",
                    ha="center",
                    va="bottom",
                    fontsize=8,
                    color=ALARM,
                    fontweight="bold",
                    bbox={**_LABEL_BOX, "alpha": 0.85, "edgecolor": ALARM, "linewidth": 0.8},
                    zorder=_Z_ALARM + 0.5,
                    gid=gid,
                )
            )
    return artists


def _draw_fix(
    ax: Axes, scene: Scene, v: Violation, drawn: set[tuple[str, float, float]]
) -> list[Artist]:
    """Draw the nearest legal position a placement violation suggests (once per object)."""
    fix = v.fix
    if not v.fixable or fix is None or "move" not in fix:
        return []
    obj_id = str(fix.get("object", v.objects[0] if v.objects else ""))
    try:
        obj = scene.get(obj_id)
        dx, dy = (float(c) for c in fix["move"])
    except (ValueError, TypeError):
        return []
    key = (obj_id, round(dx, 3), round(dy, 3))
    if key in drawn or not isinstance(obj, Obstacle):
        return []
    drawn.add(key)
    moved = obj.moved(obj.x + dx, obj.y + dy)
    ghost = _patch(
        ax,
        moved.polygon(),
        facecolor="none",
        edgecolor=ALARM,
        linestyle=(0, (1.5, 1.5)),
        linewidth=1.2,
        zorder=_Z_ALARM,
        gid=f"{obj_id}-fix",
    )
    arrow = ax.annotate(
        "",
        xy=(obj.x + dx, obj.y + dy),
        xytext=(obj.x, obj.y),
        arrowprops={
            "arrowstyle": "->",
            "color": ALARM,
            "linewidth": 1.0,
            "shrinkA": 0,
            "shrinkB": 0,
        },
        zorder=_Z_ALARM,
    )
    return [ghost, arrow]


def _crowd(scene: Scene) -> Any:
    """Everything on the table a label should not hide (obstacles and ships)."""
    shapes = [o.polygon() for o in scene.obstacles]
    shapes += [s.polygon(scene.ruleset, guides=True) for s in scene.ships]
    x0, x1, y0, y1 = scene_limits(scene)
    view = shapely.box(x0 + 10.0, y0 + 10.0, x1 - 10.0, y1 - 10.0)
    beyond = shapely.difference(shapely.box(x0 - 1e4, y0 - 1e4, x1 + 1e4, y1 + 1e4), view)
    return shapely.union_all([*shapes, beyond])


def _text_size_mm(text: str) -> tuple[float, float]:
    """About how much of the table (mm) a label of 8-point text covers at the default size."""
    lines = text.split("\n")
    return 7.5 * max(len(line) for line in lines) + 8.0, 16.5 * len(lines) + 8.0


# -- measurements ----------------------------------------------------------------------


def band_text(measurement: Measurement) -> str:
    """Return a measurement's band in words (``range 2``; ``distance 3, medium range``).

    Examples
    --------
    >>> from geom.areas import play_area
    >>> from geom.rulesets import get_ruleset
    >>> a, b = Ship("a", "small", 100, 100), Ship("b", "small", 100, 290, 270)
    >>> scene = Scene(get_ruleset("xwing2"), play_area("3x3ft"), ships=(a, b))
    >>> from obstacles.measuring import measure
    >>> band_text(measure(scene, "a", "b"))
    'range 2'
    """
    return measurement.band_words()


def _measurement_text(m: Measurement) -> str:
    head = f"{m.from_id} to {m.to_id}"
    if m.arc is not None:
        head += f" ({m.arc} {m.detail.arc_word})"
    distance = f"{m.distance:.1f} mm: {band_text(m)}"
    if m.contested:
        distance += " (contested)"
    lines = [head, distance]
    if m.arc is not None and not m.in_arc:
        lines.append("NOT in arc: plain distance")
    if m.detail.obstructed is not None:
        obstructed = m.detail.obstructed
        by = ", ".join(m.detail.obstructed_by)
        if obstructed is True:
            lines.append(f"OBSTRUCTED by {by}")
        elif obstructed == "attacker-chooses":
            lines.append(f"obstructed ({by}):")
            lines.append("attacker chooses")
        else:
            lines.append("not obstructed")
    if m.detail.line_of_sight is False:
        lines.append("NO line of sight")
    if m.detail.tied_segments:
        lines.append("tied: any segment in the band")
    return "\n".join(lines)


def draw_measurement(ax: Axes, scene: Scene, measurement: Measurement) -> list[Artist]:
    """Draw a measurement as the ruler would lie.

    The closest-points segment, its band lines as ticks, the distance and band beside
    it; the arc measured from, and every obstacle (or ship) that obstructs it hatched.

    The arc measured from is shaded on the table (arcs are unbounded; the shading stops
    at the table's edges). Armada measurements also show the line of sight between the
    targeting points, along which obstruction is traced.
    """
    m = measurement
    artists: list[Artist] = []
    rs = scene.ruleset
    if m.arc is not None:
        attacker = scene.get(m.from_id)
        if isinstance(attacker, Ship):
            colour = player_colour(attacker.player)
            if not rs.hull_zones:
                region = world_polygon(arc_region_outline(rs, attacker.base, m.arc), attacker.pose)
                zone = None
            else:
                arcs, _ = hull_arcs(rs, attacker.base, attacker.hull)
                local = firing_arc(arcs, m.arc)
                region = world_polygon(np.asarray(local.exterior.coords)[:-1], attacker.pose)
                zone_local = hull_zone(rs, attacker.base, arcs, m.arc)
                zone = world_polygon(np.asarray(zone_local.exterior.coords)[:-1], attacker.pose)
            region = shapely.intersection(region, scene.area.polygon())
            artists.append(
                _patch(
                    ax,
                    region,
                    facecolor=(*_rgb(colour), 0.06),
                    edgecolor=colour,
                    linestyle=(0, (5, 3)),
                    linewidth=0.9,
                    zorder=_Z_ARC,
                    gid=f"{m.from_id}-{m.arc}-arc",
                )
            )
            if zone is not None:
                artists.append(
                    _patch(
                        ax,
                        zone,
                        facecolor=(*_rgb(colour), 0.55),
                        edgecolor=colour,
                        zorder=_Z_SHIP + 0.05,
                        gid=f"{m.from_id}-{m.arc}-hull-zone",
                    )
                )
    pts = np.asarray(m.points, dtype=np.float64).reshape(2, 2)
    segment = shapely.LineString(pts) if m.distance > 1e-9 else shapely.Point(pts[0])
    tied = [shapely.Polygon(band) for band in m.detail.tied_segments or ()]
    tied = [
        band if band.is_valid else shapely.make_valid(band)
        for band in tied
        if len(band.exterior.coords) >= 4
    ]
    for number, band in enumerate(tied, start=1):
        artists.append(
            _patch(
                ax,
                band,
                facecolor=(0.0, 0.0, 0.0, 0.12),
                edgecolor=MEASURE,
                linestyle=(0, (2, 2)),
                linewidth=0.8,
                zorder=_Z_MEASURE - 0.6,
                gid=f"tied-segments-{number}",
            )
        )
    sight_points = m.detail.sight_line
    crossed_by: Any = segment
    if sight_points is not None and len(sight_points) == 2:
        sight = np.asarray(sight_points, dtype=np.float64).reshape(2, 2)
        crossed_by = shapely.LineString(sight)
        (sight_line,) = ax.plot(
            sight[:, 0],
            sight[:, 1],
            color=MEASURE,
            linewidth=1.2,
            linestyle=(0, (1.5, 2.0)),
            marker="D",
            markersize=3.5,
            zorder=_Z_MEASURE,
            gid="sight-line",
        )
        artists.append(sight_line)
    elif tied:
        crossed_by = shapely.union_all(tied)
    for obj_id in m.detail.obstructed_by:
        try:
            obj = scene.get(str(obj_id))
        except ValueError:
            continue
        shape = _object_shape(scene, obj, guides=False)
        artists.append(
            _patch(
                ax,
                shape,
                facecolor="none",
                edgecolor=MEASURE,
                hatch="xxx",
                linewidth=1.8,
                zorder=_Z_MEASURE - 0.5,
                gid=f"obstruction-{obj_id}",
            )
        )
        crossing = shapely.intersection(shape, crossed_by)
        if _polygons(crossing):
            artists.append(
                _patch(
                    ax,
                    crossing,
                    facecolor=ALARM,
                    alpha=0.6,
                    edgecolor="none",
                    zorder=_Z_MEASURE + 0.1,
                )
            )
        for line in _lines(crossing):
            (hit,) = ax.plot(
                line[:, 0], line[:, 1], color=ALARM, linewidth=3.2, zorder=_Z_MEASURE + 0.1
            )
            artists.append(hit)
        x, y = _label_point(shape)
        artists.append(
            ax.annotate(
                "obstructs",
                xy=(x, y),
                xytext=(0.0, -11.0),
                textcoords="offset points",
                ha="center",
                va="top",
                fontsize=7.5,
                color=MEASURE,
                fontstyle="italic",
                bbox={**_LABEL_BOX, "alpha": 0.8},
                zorder=_Z_MEASURE,
            )
        )
    (ruler,) = ax.plot(
        pts[:, 0],
        pts[:, 1],
        color=MEASURE,
        linewidth=1.8,
        marker="o",
        markersize=4,
        zorder=_Z_MEASURE,
        gid="measurement",
    )
    artists.append(ruler)
    d = pts[1] - pts[0]
    if m.distance > 1e-9:
        unit = d / float(np.hypot(*d))
        normal = np.array([-unit[1], unit[0]])
        lines = rs.band_lines_of(rs.band_kinds[0])
        for mark in lines:
            if mark >= m.distance:
                break
            at = pts[0] + unit * mark
            tick = np.array([at - normal * 6.0, at + normal * 6.0])
            (t,) = ax.plot(tick[:, 0], tick[:, 1], color=MEASURE, linewidth=1.2, zorder=_Z_MEASURE)
            artists.append(t)
    text = _measurement_text(m)
    along, side = _free_spot(pts[0], pts[1], _crowd(scene), _text_size_mm(text))
    artists.append(
        _offset_label(
            ax,
            pts[0],
            pts[1],
            text,
            colour=MEASURE,
            gid="measurement-label",
            zorder=_Z_TOP,
            offset_pt=14.0,
            along=along,
            side=side,
        )
    )
    return artists


# -- moves -----------------------------------------------------------------------------


def _move_ship_id(move: MoveLike) -> str:
    ship = move.ship
    return ship.id if isinstance(ship, Ship) else str(ship)


def move_text(move: MoveLike) -> str:
    """Return a one-line summary of a move (what happened, in words)."""
    head = f"{_move_ship_id(move)}: {move.maneuver}"
    parts = []
    if move.legal is False:
        parts.append("NOT LEGAL" + (f": {move.reason}" if move.reason else ""))
    if not move.complete and move.legal is not False:
        parts.append(f"bumped {move.bumped}" if move.bumped else "incomplete")
    if move.fled:
        parts.append("FLED the play area")
    for obstacle_id, how in move.obstacles:
        parts.append(f"{how.replace('-', ' ')} {obstacle_id}")
    if not parts:
        parts.append("complete")
    return head + " (" + "; ".join(parts) + ")"


def draw_move(ax: Axes, scene: Scene, move: MoveLike) -> list[Artist]:
    """Draw a move.

    The template, the starting base as a ghost, the final base, the bump point and the
    obstacles it moved through or ended on.

    The scene's own drawing of the moving ship should be left out
    (``draw_scene(..., exclude=[ship id])``): this draws it at both ends.
    """
    ship_id = _move_ship_id(move)
    ship = scene.ship(ship_id)
    start = np.asarray(move.start, dtype=np.float64)
    final = np.asarray(move.final, dtype=np.float64)
    artists: list[Artist] = []
    if move.template is not None:
        template = move.template
        if _polygons(template):
            artists.append(
                _patch(
                    ax,
                    template,
                    facecolor=(*_rgb(TEMPLATE), 0.75),
                    edgecolor="black",
                    linewidth=0.9,
                    zorder=_Z_TEMPLATE,
                    gid=f"{ship_id}-template",
                )
            )
        for line in _lines(template):
            (t,) = ax.plot(line[:, 0], line[:, 1], color="black", linewidth=1.4, zorder=_Z_TEMPLATE)
            artists.append(t)
    artists += _draw_positions(ax, scene, ship, move, final)
    start_ship = ship.moved(float(start[0]), float(start[1]), float(start[2]))
    artists += draw_ship(ax, scene, start_ship, ghost=True, label="", gid=f"{ship_id}-start")
    final_ship = ship.moved(float(final[0]), float(final[1]), float(final[2]))
    artists += draw_ship(ax, scene, final_ship, gid=ship_id)
    for number, (obstacle_id, how) in enumerate(move.obstacles, start=1):
        try:
            obstacle = scene.get(obstacle_id)
        except ValueError:
            continue
        shape = _object_shape(scene, obstacle)
        artists.append(
            _patch(
                ax,
                shape,
                facecolor="none",
                edgecolor="black",
                linewidth=1.8,
                linestyle=(0, (4, 2)),
                zorder=_Z_MOVE,
                gid=f"{ship_id}-hits-{obstacle_id}",
            )
        )
        x, y = _label_point(shape)
        artists.append(
            ax.annotate(
                f"{number}. {how.replace('-', ' ')}",
                xy=(x, y),
                xytext=(0.0, -11.0),
                textcoords="offset points",
                ha="center",
                va="top",
                fontsize=7.5,
                fontstyle="italic",
                color="black",
                bbox={**_LABEL_BOX, "alpha": 0.8},
                zorder=_Z_LABEL,
            )
        )
    if move.bump_point is not None:
        bx, by = (float(v) for v in np.asarray(move.bump_point, dtype=np.float64).reshape(2))
        (star,) = ax.plot(
            [bx],
            [by],
            marker="*",
            markersize=15,
            color=ALARM,
            markeredgecolor="black",
            markeredgewidth=0.8,
            linestyle="none",
            zorder=_Z_TOP,
            gid=f"{ship_id}-bump",
        )
        artists.append(star)
        artists.append(
            ax.annotate(
                f"bump: {move.bumped}" if move.bumped else "bump",
                xy=(bx, by),
                xytext=(9.0, 6.0),
                textcoords="offset points",
                fontsize=8,
                fontweight="bold",
                color=ALARM,
                bbox={**_LABEL_BOX, "alpha": 0.85},
                zorder=_Z_TOP,
            )
        )
    flags = []
    if move.fled:
        flags.append("FLED")
    if move.legal is False:
        flags.append("NOT LEGAL")
    if flags:
        artists.append(
            ax.annotate(
                ", ".join(flags),
                xy=(float(final[0]), float(final[1])),
                xytext=(0.0, 16.0),
                textcoords="offset points",
                ha="center",
                fontsize=8,
                fontweight="bold",
                color=ALARM,
                bbox={**_LABEL_BOX, "alpha": 0.85},
                zorder=_Z_TOP,
            )
        )
    return artists


def _draw_positions(
    ax: Axes, scene: Scene, ship: Ship, move: MoveLike, final: FloatArray
) -> list[Artist]:
    """Draw every position a barrel roll considered, except the one the ship ends at.

    Legal ones in the player's colour, failing ones in the alarm colour.
    """
    artists: list[Artist] = []
    for position in getattr(move, "positions", ()) or ():
        pose = np.asarray(position.pose, dtype=np.float64)
        if position.legal and np.allclose(pose, final, atol=1e-6):
            continue
        colour = player_colour(ship.player) if position.legal else ALARM
        placed = ship.moved(float(pose[0]), float(pose[1]), float(pose[2]))
        outline = _patch(
            ax,
            placed.polygon(scene.ruleset, guides=True),
            facecolor="none",
            edgecolor=colour,
            linestyle=(0, (1.0, 1.5)),
            linewidth=1.0,
            zorder=_Z_MOVE,
            gid=f"{ship.id}-{position.name}",
        )
        artists.append(outline)
        verdict = "legal" if position.legal else "fails"
        artists.append(
            _text(
                ax,
                float(pose[0]),
                float(pose[1]),
                f"{position.name}: {verdict}",
                fontsize=6.5,
                color=colour,
                zorder=_Z_LABEL,
            )
        )
    return artists


# -- legend ----------------------------------------------------------------------------


def _named(rules: Ruleset, limit: float, *, wrap: bool = False) -> str:
    """``distance 3 (185 mm)``: the band words where the limit is one of its lines."""
    words = rules.limit_words(limit)
    if words is None:
        return f"{limit:g} mm"
    return f"{words}\n({limit:g} mm)" if wrap else f"{words} ({limit:g} mm)"


def legend_handles(
    scene: Scene,
    *,
    report: CheckReport | None = None,
    measurement: Measurement | None = None,
    moves: Sequence[MoveLike] = (),
) -> list[Artist]:
    """Return legend entries (proxy artists with labels) for what a picture shows."""
    rs = scene.ruleset
    handles: list[Artist] = []
    players = sorted({s.player for s in scene.ships}) or [1]
    for player in players:
        colour = player_colour(player)
        handles.append(
            Patch(
                facecolor=(*_rgb(colour), 0.22),
                edgecolor=colour,
                linewidth=1.4,
                label=f"player {player} ship",
            )
        )
    handles.append(
        Line2D(
            [],
            [],
            color=INK,
            linewidth=0.8,
            linestyle=(0, (2, 2)),
            marker=">",
            markersize=5,
            label="arc lines (front arc dashed),\nheading mark",
        )
    )
    seen: list[str] = []
    for obstacle in scene.obstacles:
        if obstacle.kind not in seen:
            seen.append(obstacle.kind)
    for kind in seen:
        colour = kind_colour(kind)
        handles.append(
            Patch(facecolor=(*_rgb(colour), 0.55), edgecolor=colour, label=f"{kind} (obstacle)")
        )
    limit = rs.obstacle_edge_limit
    if not rs.setup_area_boxed:
        what = f"no obstacles: within {limit:g} mm of an edge"
        deploy = f"deployment: within {rs.deployment_limit:g} mm\nof the player's edge"
    else:
        what = f"no obstacles: within {_named(rs, limit)}\nof an edge, or outside the setup area"
        deploy = (
            f"deployment: within {_named(rs, rs.deployment_limit, wrap=True)} of the player's edge"
        )
    if scene.phase != "setup":
        what += " (setup rule)"
        deploy += " (setup rule)"
    handles.append(Patch(facecolor="none", edgecolor=INK, linewidth=0, hatch="///", label=what))
    handles.append(Patch(facecolor=(*_rgb(player_colour(1)), 0.10), edgecolor="none", label=deploy))
    if rs.setup_area_boxed:
        handles.append(
            Patch(facecolor="none", edgecolor=INK, linestyle=(0, (6, 4)), label="setup area")
        )
    if report is not None and report.violations:
        handles.append(
            Line2D(
                [],
                [],
                color=ALARM,
                linewidth=2.0,
                marker="o",
                markersize=3.5,
                label="violation: closest points,\nmeasured distance, limit, margin",
            )
        )
        if any(v.fixable and v.fix is not None for v in report.violations):
            handles.append(
                Patch(
                    facecolor="none",
                    edgecolor=ALARM,
                    linestyle=(0, (1.5, 1.5)),
                    label="nearest legal position (fix)",
                )
            )
    if measurement is not None:
        handles.append(
            Line2D(
                [],
                [],
                color=MEASURE,
                linewidth=1.8,
                marker="o",
                markersize=4,
                label="measurement (closest points)",
            )
        )
        if measurement.detail.sight_line is not None:
            handles.append(
                Line2D(
                    [],
                    [],
                    color=MEASURE,
                    linewidth=1.2,
                    linestyle=(0, (1.5, 2.0)),
                    marker="D",
                    markersize=3.5,
                    label="line of sight (targeting points)",
                )
            )
        if measurement.detail.tied_segments:
            handles.append(
                Patch(
                    facecolor=(0.0, 0.0, 0.0, 0.12),
                    edgecolor=MEASURE,
                    linestyle=(0, (2, 2)),
                    label="tied closest segments (band)",
                )
            )
        if measurement.detail.obstructed_by:
            handles.append(
                Patch(facecolor="none", edgecolor=MEASURE, hatch="xxx", label="obstructs the shot")
            )
    if moves:
        handles.append(
            Patch(facecolor=(*_rgb(TEMPLATE), 0.75), edgecolor="black", label="maneuver template")
        )
        handles.append(
            Patch(
                facecolor="none",
                edgecolor=INK,
                linestyle=(0, (3, 2)),
                label="start position (ghost)",
            )
        )
        if any(m.bump_point is not None for m in moves):
            handles.append(
                Line2D(
                    [],
                    [],
                    marker="*",
                    markersize=11,
                    color=ALARM,
                    markeredgecolor="black",
                    linestyle="none",
                    label="bump point",
                )
            )
    return handles
