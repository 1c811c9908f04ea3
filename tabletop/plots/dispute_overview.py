"""The overview beside a dispute's close-up: both pieces whole, labelled, and where the view is.

A close-up keeps a millimetre visible, so a piece far from the call is only partly in it,
or not at all. The overview frames both pieces whole (and the table's edge, when a piece
is measured to it), names each at its middle, draws the measurement and outlines the
close-up's view, so that a reader always sees which piece is which.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.patches import Rectangle

from tabletop.geom.objects import Ship
from tabletop.obstacles.measuring import EDGE_TARGETS, Measurement, edge_line
from tabletop.obstacles.scene import Obstacle, Scene
from tabletop.plots._common import _label_point, _object_shape, _patch
from tabletop.plots.style import INK, MEASURE

__all__ = ["draw_overview", "off_view_labels"]

# Room around the two pieces in the overview, as a share of the larger side.
_ROOM = 0.08


def _shape(scene: Scene, obj_id: str) -> Any:
    if obj_id in EDGE_TARGETS:
        return edge_line(scene, obj_id)
    return _object_shape(scene, scene.get(obj_id))


def _named(obj_id: str, names: dict[str, str] | None) -> str:
    return obj_id if not names or obj_id not in names else f"{obj_id} ({names[obj_id]})"


def draw_overview(
    ax: Axes,
    scene: Scene,
    measurement: Measurement,
    window: tuple[float, float, float, float],
    names: dict[str, str] | None = None,
) -> list[Artist]:
    """Draw both measured pieces whole, each labelled, the measurement and the view's frame.

    `window` is the close-up's view ``(xmin, xmax, ymin, ymax)``, mm.
    """
    ids = (measurement.from_id, measurement.to_id)
    shapes = {i: _shape(scene, i) for i in ids}
    # A table edge is a line as long as the table: frame the pieces and the measurement.
    pts = np.asarray(measurement.points, dtype=np.float64).reshape(2, 2)
    framed = [s for i, s in shapes.items() if i not in EDGE_TARGETS] + [shapely.MultiPoint(pts)]
    x0, y0, x1, y1 = shapely.union_all(framed).bounds
    side = max(x1 - x0, y1 - y0, 20.0)
    cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
    half = side * (0.5 + _ROOM)
    ax.set_xlim(cx - half, cx + half)
    ax.set_ylim(cy - half, cy + half)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title("both pieces; the box is the close-up", fontsize=8, color=INK)
    ax.patch.set_gid("overview")
    artists: list[Artist] = []
    view = shapely.box(cx - half, cy - half, cx + half, cy + half)
    others: list[Ship | Obstacle] = [*scene.obstacles, *scene.ships]
    for obj in others:
        shape = _object_shape(scene, obj)
        if obj.id in ids or not shapely.intersects(shape, view):
            continue
        artists.append(_patch(ax, shape, facecolor="#EEEEEE", edgecolor="#BBBBBB", lw=0.6))
    for number, obj_id in enumerate(ids):
        shape = shapes[obj_id]
        if obj_id in EDGE_TARGETS:
            xy = np.asarray(shape.coords, dtype=np.float64)
            (drawn,) = ax.plot(xy[:, 0], xy[:, 1], color=INK, linewidth=2.0)
            artists.append(drawn)
            at = pts[number]
        else:
            artists.append(_patch(ax, shape, facecolor="#C8C8C8", edgecolor=INK, lw=0.9))
            at = np.asarray(_label_point(shape))
        artists.append(
            ax.annotate(
                _named(obj_id, names),
                xy=(float(at[0]), float(at[1])),
                ha="center",
                va="center",
                fontsize=8,
                color="black",
                bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "alpha": 0.85},
                gid=f"overview-{obj_id}",
            )
        )
    (line,) = ax.plot(pts[:, 0], pts[:, 1], color=MEASURE, linewidth=1.0)
    artists.append(line)
    wx0, wx1, wy0, wy1 = window
    frame = Rectangle(
        (wx0, wy0), wx1 - wx0, wy1 - wy0, fill=False, edgecolor="#D55E00", lw=1.2, gid="view-box"
    )
    ax.add_patch(frame)
    artists.append(frame)
    return artists


def off_view_labels(
    ax: Axes,
    measurement: Measurement,
    window: tuple[float, float, float, float],
    names: dict[str, str] | None = None,
) -> list[Artist]:
    """Name each measured piece whose closest point is outside the close-up, at the view's edge.

    The label stands where the measurement leaves the view, with an arrow toward the piece
    and how far beyond the edge its closest point lies.
    """
    x0, x1, y0, y1 = window
    pts = np.asarray(measurement.points, dtype=np.float64).reshape(2, 2)
    inside = [bool(x0 <= p[0] <= x1 and y0 <= p[1] <= y1) for p in pts]
    artists: list[Artist] = []
    shown = shapely.clip_by_rect(shapely.LineString(pts), x0, y0, x1, y1)
    if shown.is_empty or shown.length == 0.0:
        return artists
    ends = np.asarray(shown.coords, dtype=np.float64)
    for index, obj_id in enumerate((measurement.from_id, measurement.to_id)):
        if inside[index]:
            continue
        # The clipped segment's end nearest this piece's closest point.
        border = ends[int(np.argmin(np.hypot(*(ends - pts[index]).T)))]
        away = float(np.hypot(*(pts[index] - border)))
        direction = (pts[index] - border) / max(away, 1e-9)
        # Into the view, and to the right of the line from A to B (the side the end
        # labels take; the distance is written on the left).
        unit = (pts[1] - pts[0]) / max(float(np.hypot(*(pts[1] - pts[0]))), 1e-9)
        right = np.array([unit[1], -unit[0]])
        offset = (-direction * 1.2 + right * 0.5) * 30.0
        artists.append(
            ax.annotate(
                f"{_named(obj_id, names)}: {away:.1f} mm beyond this edge",
                xy=(float(border[0]), float(border[1])),
                xytext=(float(offset[0]), float(offset[1])),
                textcoords="offset points",
                ha="left" if offset[0] >= 0.0 else "right",
                va="bottom" if offset[1] >= 0.0 else "top",
                fontsize=9,
                color="black",
                arrowprops={"arrowstyle": "->", "color": INK, "linewidth": 1.0},
                bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": INK},
                gid=f"{obj_id}-off-view",
            )
        )
    return artists
