"""What every drawing module shares: drawing order, geometry paths, patches and label placement."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import shapely
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.patches import PathPatch
from matplotlib.path import Path
from shapely.ops import polylabel

from tabletop.geom.objects import Ship
from tabletop.geom.poses import FloatArray
from tabletop.obstacles.scene import Obstacle, Scene

if TYPE_CHECKING:
    pass

__all__ = ["geometry_path", "scene_limits"]


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


def _rgb(colour: str) -> tuple[float, float, float]:
    value = colour.lstrip("#")
    return tuple(int(value[i : i + 2], 16) / 255.0 for i in (0, 2, 4))  # type: ignore[return-value]


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
