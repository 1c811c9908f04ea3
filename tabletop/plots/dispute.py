"""A picture of a dispute: two objects and the line between them, a millimetre visible.

:func:`dispute_window` chooses the square view (centre and half-width, mm) and
:func:`draw_dispute` draws into it: a millimetre grid (every 10 mm darker), the objects
in or near the view, the distance between the two as a dimension line with its number,
the line of the rule in question (the placement limit of a violation between the two
objects, otherwise the nearest band line of the measurement) drawn where it lies on the
table (every point at that distance from the first object), and the contested band
(within ``contested_within`` of that line) shaded. :func:`render_dispute` returns the
whole picture as PNG, SVG or PDF bytes; nothing here writes a file.

The view and the line in question are chosen in :mod:`tabletop.plots.dispute_view`.
"""

from __future__ import annotations

import dataclasses as _dc
import textwrap
from typing import TYPE_CHECKING, Any, cast

import matplotlib
import numpy as np
import shapely
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure

from tabletop.geom.measure import json_mm
from tabletop.geom.objects import Ship
from tabletop.geom.poses import FloatArray
from tabletop.obstacles.measuring import EDGE_TARGETS, Measurement, edge_line
from tabletop.obstacles.scene import Obstacle, Scene
from tabletop.plots._common import _Z_MEASURE, _Z_TOP, _object_shape, _patch
from tabletop.plots.dispute_overview import draw_overview, off_view_labels
from tabletop.plots.dispute_view import (
    LARGEST_ZOOM_MM,
    SMALLEST_ZOOM_MM,
    DisputeLine,
    check_zoom,
    dispute_line,
    dispute_notes,
    dispute_ruling,
    dispute_text,
    dispute_window,
    printed_names,
)
from tabletop.plots.formats import check_picture_format, picture_bytes
from tabletop.plots.ships import draw_obstacle, draw_ship
from tabletop.plots.style import ALARM, INK, MEASURE, RC_PARAMS

if TYPE_CHECKING:
    from tabletop.obstacles.verdicts import CheckReport

__all__ = [
    "LARGEST_ZOOM_MM",
    "SMALLEST_ZOOM_MM",
    "DisputeLine",
    "DisputePicture",
    "check_zoom",
    "dispute_line",
    "dispute_notes",
    "dispute_ruling",
    "dispute_text",
    "dispute_window",
    "draw_dispute",
    "printed_names",
    "render_dispute",
]

_GRID_MINOR, _GRID_MAJOR = "#E4E4E4", "#B4B4B4"
# Okabe-Ito reddish purple, see-through: no obstacle kind has that colour.
_BAND_FILL = (0.80, 0.475, 0.655, 0.30)


def _outline(scene: Scene, obj_id: str) -> tuple[Any, float]:
    """Return the measured outline of an object or table line, and the radius to add to it."""
    if obj_id in EDGE_TARGETS:
        return edge_line(scene, obj_id), 0.0
    obj = scene.get(obj_id)
    if isinstance(obj, Ship):
        return obj.measured_shape(scene.ruleset)
    return obj.polygon(), 0.0


def _grid(ax: Axes, window: tuple[float, float, float, float]) -> list[Artist]:
    x0, x1, y0, y1 = window
    artists: list[Artist] = []
    for step, colour, width, gid in (
        (1, _GRID_MINOR, 0.4, "mm-grid"),
        (10, _GRID_MAJOR, 0.7, "cm-grid"),
    ):
        xs = np.arange(np.ceil(x0 / step) * step, x1 + 1e-9, step)
        ys = np.arange(np.ceil(y0 / step) * step, y1 + 1e-9, step)
        segments = [((x, y0), (x, y1)) for x in xs] + [((x0, y), (x1, y)) for y in ys]
        lines = LineCollection(segments, colors=colour, linewidths=width, zorder=0.5, gid=gid)
        ax.add_collection(lines)
        artists.append(lines)
    return artists


def _dimension(
    ax: Axes, measurement: Measurement, window: tuple[float, float, float, float]
) -> list[Artist]:
    """Draw the distance as a dimension line: arrows to both closest points and the number."""
    pts = np.asarray(measurement.points, dtype=np.float64).reshape(2, 2)
    artists: list[Artist] = []
    (line,) = ax.plot(
        pts[:, 0], pts[:, 1], color=MEASURE, linewidth=1.4, zorder=_Z_MEASURE, gid="dimension"
    )
    artists.append(line)
    x0, x1, y0, y1 = window
    unit, _ = _sides(measurement)
    # Arrowheads only (annotations are not clipped to the view): a 2 mm shaft into each
    # closest point in view, pointing at it from the line.
    shaft = min(2.0, float(measurement.distance) / 2.0)
    if shaft > 1e-9:
        for head, inward in ((pts[0], -unit), (pts[1], unit)):
            if not (x0 <= head[0] <= x1 and y0 <= head[1] <= y1):
                continue
            tail = head - inward * shaft
            artists.append(
                ax.annotate(
                    "",
                    xy=(float(head[0]), float(head[1])),
                    xytext=(float(tail[0]), float(tail[1])),
                    arrowprops={
                        "arrowstyle": "-|>",
                        "color": MEASURE,
                        "linewidth": 1.4,
                        "shrinkA": 0,
                        "shrinkB": 0,
                    },
                    zorder=_Z_MEASURE,
                )
            )
    # The number is written by the middle of the part of the line in view.
    shown = shapely.clip_by_rect(shapely.LineString(pts), x0, y0, x1, y1)
    if measurement.distance > 1e-9 and not shown.is_empty and shown.length > 0:
        mid = np.asarray(shapely.line_interpolate_point(shown, 0.5, normalized=True).coords[0])
    else:
        mid = (pts[0] + pts[1]) / 2.0
    _, left = _sides(measurement)
    offset = left * 12.0
    artists.append(
        ax.annotate(
            f"{dispute_text(measurement.distance)} mm",
            xy=(float(mid[0]), float(mid[1])),
            xytext=(float(offset[0]), float(offset[1])),
            textcoords="offset points",
            ha="left" if offset[0] > 0.2 else ("right" if offset[0] < -0.2 else "center"),
            va="bottom" if offset[1] > 0.2 else ("top" if offset[1] < -0.2 else "center"),
            fontsize=11,
            fontweight="bold",
            color=MEASURE,
            bbox={"boxstyle": "round,pad=0.25", "facecolor": "white", "edgecolor": MEASURE},
            zorder=_Z_TOP,
            gid="dimension-label",
        )
    )
    return artists


def _rule_line(ax: Axes, scene: Scene, line: DisputeLine) -> list[Artist]:
    """Draw the line at `line.at_mm` from its object and shade the contested band."""
    shape, radius = _outline(scene, line.around)
    colour = ALARM if line.violation is not None else INK
    outer = shapely.buffer(shape, radius + line.at_mm + line.contested_within, quad_segs=64)
    inner_at = radius + line.at_mm - line.contested_within
    inner = shapely.buffer(shape, inner_at, quad_segs=64) if inner_at > 0 else shape
    band = shapely.difference(outer, inner)
    artists: list[Artist] = [
        _patch(ax, band, facecolor=_BAND_FILL, edgecolor="none", zorder=1.0, gid="contested-band")
    ]
    locus = (
        shapely.buffer(shape, radius + line.at_mm, quad_segs=64)
        if radius + line.at_mm > 0
        else shape
    )
    boundary = shapely.boundary(locus) if locus.geom_type != "LineString" else locus
    parts = getattr(boundary, "geoms", [boundary])
    for number, part in enumerate(parts):
        xy = np.asarray(part.coords, dtype=np.float64)
        (drawn,) = ax.plot(
            xy[:, 0],
            xy[:, 1],
            color=colour,
            linewidth=1.3,
            linestyle=(0, (6, 3)),
            zorder=_Z_MEASURE - 0.2,
            gid="limit-line" if number == 0 else f"limit-line-{number}",
        )
        artists.append(drawn)
    return artists


def _sides(measurement: Measurement) -> tuple[FloatArray, FloatArray]:
    """Return the unit vector from A's closest point to B's and its left normal."""
    pts = np.asarray(measurement.points, dtype=np.float64).reshape(2, 2)
    d = pts[1] - pts[0]
    norm = float(np.hypot(*d))
    unit = d / norm if norm > 1e-9 else np.array([1.0, 0.0])
    return unit, np.array([-unit[1], unit[0]])


def _end_labels(ax: Axes, measurement: Measurement, names: dict[str, str] | None) -> list[Artist]:
    """Write each object's id (and printed name) beside its closest point, inside the view.

    The labels go on the right of the line from A to B, the number on its left.
    """
    pts = np.asarray(measurement.points, dtype=np.float64).reshape(2, 2)
    unit, left = _sides(measurement)
    artists: list[Artist] = []
    for end, inward, obj_id in (
        (pts[0], unit, measurement.from_id),
        (pts[1], -unit, measurement.to_id),
    ):
        label = obj_id if not names or obj_id not in names else f"{obj_id} ({names[obj_id]})"
        offset = (inward * 0.8 - left) * 18.0
        artists.append(
            ax.annotate(
                label,
                xy=(float(end[0]), float(end[1])),
                xytext=(float(offset[0]), float(offset[1])),
                textcoords="offset points",
                ha="left" if offset[0] > 0 else "right",
                va="bottom" if offset[1] > 0 else "top",
                fontsize=9,
                color="black",
                bbox={
                    "boxstyle": "round,pad=0.18",
                    "facecolor": "white",
                    "alpha": 0.85,
                    "edgecolor": "none",
                },
                zorder=_Z_TOP,
                gid=f"{obj_id}-end",
            )
        )
    return artists


def _objects_in_view(scene: Scene, view: Any, keep: set[str]) -> list[Ship | Obstacle]:
    objects: list[Ship | Obstacle] = [*scene.obstacles, *scene.ships]
    return [o for o in objects if o.id in keep or shapely.intersects(_object_shape(scene, o), view)]


def draw_dispute(
    ax: Axes,
    scene: Scene,
    measurement: Measurement,
    *,
    line: DisputeLine,
    window: tuple[float, float, float],
    names: dict[str, str] | None = None,
) -> list[Artist]:
    """Draw the dispute between the two measured objects into a square view.

    Parameters
    ----------
    ax : Axes
        Where to draw; its limits are set to the view.
    scene : Scene
        The scene measured.
    measurement : Measurement
        From the first object of the dispute to the second.
    line : DisputeLine
        The line in question (:func:`dispute_line`).
    window : (float, float, float)
        Centre x, centre y and half-width of the view, mm (:func:`dispute_window`).
    names : dict, optional
        Printed names to write beside ids.
    """
    cx, cy, half = window
    x0, x1, y0, y1 = cx - half, cx + half, cy - half, cy + half
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel("x (mm)")
    ax.set_ylabel("y (mm)")
    ax.tick_params(labelsize=7.5, colors=INK)
    ax.patch.set_gid("dispute-view")
    artists = _grid(ax, (x0, x1, y0, y1))
    # The table's edges: a call may be to an edge, and a token may hang over one.
    edge = np.asarray(scene.area.polygon().exterior.coords, dtype=np.float64)
    (table,) = ax.plot(
        edge[:, 0], edge[:, 1], color=INK, linewidth=1.6, zorder=0.8, gid="table-edge"
    )
    artists.append(table)
    view = shapely.box(x0, y0, x1, y1)
    for obj in _objects_in_view(scene, view, {measurement.from_id, measurement.to_id}):
        drawn = (
            draw_obstacle(ax, scene, obj)
            if isinstance(obj, Obstacle)
            else draw_ship(ax, scene, obj)
        )
        for artist in drawn:
            artist.set_clip_on(True)
        artists += drawn
    artists += _rule_line(ax, scene, line)
    artists += _dimension(ax, measurement, (x0, x1, y0, y1))
    artists += _end_labels(ax, measurement, names)
    # A piece whose closest point is out of the view is named at the view's edge.
    artists += off_view_labels(ax, measurement, (x0, x1, y0, y1), names)
    return artists


@_dc.dataclass(frozen=True)
class DisputePicture:
    """What :func:`render_dispute` drew.

    Attributes
    ----------
    format : str
        ``png``, ``svg`` or ``pdf``.
    size : tuple of int
        Width and height in pixels.
    window : tuple of float
        The view ``(xmin, xmax, ymin, ymax)``, mm.
    line : DisputeLine
        The line drawn.
    picture : bytes
        The picture, in `format`.
    """

    format: str
    size: tuple[int, int]
    window: tuple[float, float, float, float]
    line: DisputeLine
    picture: bytes = _dc.field(repr=False)

    def to_json(self) -> dict[str, Any]:
        """Return the picture's part of ``tabletop render --around --json``."""
        return {
            "format": self.format,
            "size": list(self.size),
            "window": [json_mm(v) for v in self.window],
            "line": {
                "what": self.line.what,
                "at": json_mm(self.line.at_mm),
                "from": self.line.around,
                "contested_within": json_mm(self.line.contested_within),
            },
        }


def _words(
    fig: Figure,
    scene: Scene,
    measurement: Measurement,
    line: DisputeLine,
    window: tuple[float, float, float, float],
    inches: tuple[float, float, float],
    title: str | None,
    names: dict[str, str] | None,
) -> None:
    """Write the title, the notes and the overview in the right column, the ruling below."""
    width_in, height_in, side_in = inches
    column = (0.95 + side_in) / width_in
    fig.text(
        0.75 / width_in,
        1.0 - 0.12 / height_in,
        title or "tabletop",
        ha="left",
        va="top",
        fontsize=12,
        fontweight="bold",
        color=INK,
    )
    notes = dispute_notes(measurement, line, names)
    fig.text(
        column,
        1.0 - 0.6 / height_in,
        "\n".join(r for row in notes for r in textwrap.wrap(row, 46, subsequent_indent="  ")),
        ha="left",
        va="top",
        fontsize=9,
        linespacing=1.4,
        color=ALARM if line.violation is not None else INK,
        gid="notes",
    )
    overview_in = min(3.0, width_in - (0.95 + side_in) - 0.3)
    if overview_in > 1.0:
        inset = fig.add_axes(
            (column, 1.2 / height_in, overview_in / width_in, overview_in / height_in)
        )
        draw_overview(inset, scene, measurement, window, names)
    ruling = dispute_ruling(measurement, line, names)
    fig.text(
        0.75 / width_in,
        0.12 / height_in,
        "\n".join(
            textwrap.wrap(
                ruling, min(max(int((width_in - 1.0) * 12), 40), 110), break_on_hyphens=False
            )[:3]
        ),
        ha="left",
        va="bottom",
        fontsize=10,
        linespacing=1.35,
        color=ALARM if line.violation is not None else INK,
        gid="ruling",
    )


def render_dispute(
    scene: Scene,
    measurement: Measurement,
    fmt: str = "png",
    *,
    report: CheckReport | None = None,
    zoom_mm: float | None = None,
    size: tuple[int, int] | None = None,
    dpi: float = 100.0,
    title: str | None = None,
    names: dict[str, str] | None = None,
) -> DisputePicture:
    """Draw the dispute between the two measured objects and return it as `fmt` bytes.

    Parameters
    ----------
    report : CheckReport, optional
        The scene's check: a violation between the two objects gives the line drawn.
    zoom_mm : float, optional
        Half-width of the view, mm (default: :func:`dispute_window`'s).
    size : (int, int), optional
        Pixels (default 1300 x 1000 at 100 dpi: a square view and a notes column).
    """
    from tabletop.plots.picture import check_size

    check_picture_format(fmt)
    check_size(size, dpi)
    if zoom_mm is not None:
        check_zoom(zoom_mm)
    line = dispute_line(scene, measurement, report)
    cx, cy, half = dispute_window(measurement, zoom_mm, line.at_mm)
    window = (cx - half, cx + half, cy - half, cy + half)
    width_px, height_px = size if size is not None else (round(13.0 * dpi), round(10.0 * dpi))
    with matplotlib.rc_context(cast(Any, dict(RC_PARAMS))):
        fig = Figure(figsize=((width_px + 0.01) / dpi, (height_px + 0.01) / dpi), dpi=dpi)
        FigureCanvasAgg(fig)
        fig.set_facecolor("white")
        width_in, height_in = width_px / dpi, height_px / dpi
        # The close-up on the left; the notes and the overview in a column on the right;
        # the ruling across the bottom.
        side_in = max(min(width_in - 4.3, height_in - 1.9), 1.0)
        ax = fig.add_axes(
            (0.75 / width_in, 1.2 / height_in, side_in / width_in, side_in / height_in)
        )
        draw_dispute(ax, scene, measurement, line=line, window=(cx, cy, half), names=names)
        _words(fig, scene, measurement, line, window, (width_in, height_in, side_in), title, names)
        picture = picture_bytes(fig, fmt)
        width, height = (int(v) for v in fig.canvas.get_width_height())
    return DisputePicture(fmt, (width, height), window, line, picture)
