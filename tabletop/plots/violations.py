"""Drawing what ``check`` found: numbered violations, their closest points and fixes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import shapely
from matplotlib.artist import Artist
from matplotlib.axes import Axes

from tabletop.geom.mmtext import mm_same_precision, mm_text
from tabletop.obstacles.scene import Obstacle, Scene
from tabletop.plots.style import ALARM

if TYPE_CHECKING:
    from tabletop.obstacles.legality import CheckReport, Violation
from tabletop.plots._common import (
    _LABEL_BOX,
    _Z_ALARM,
    _crowd,
    _free_spot,
    _object_shape,
    _offset_label,
    _patch,
    _text_size_mm,
)

__all__ = ["MOST_MARKED_VIOLATIONS", "draw_violations", "violation_label"]

#: Most violations one picture marks (each is several artists and a label); the rest are
#: counted in the picture's notes, and ``tabletop check`` lists them all.
MOST_MARKED_VIOLATIONS = 60


def violation_label(number: int, violation: Violation) -> str:
    """Return the text written beside a violation: its number, measurement and margin."""
    head = f"[{number}] {violation.rule}"
    if violation.distance is None:
        return head
    lines = [head, f"{mm_text(violation.distance, line=violation.limit)} mm"]
    if violation.limit is not None and violation.margin is not None:
        # The distance, its limit and its margin at one precision: they read as one call.
        distance, limit, margin = mm_same_precision(
            [violation.distance, violation.limit, violation.margin],
            lines=[violation.limit, None, None],
            signed=[False, False, True],
        )
        lines[-1] = f"{distance} mm (limit {limit}, margin {margin} mm)"
    if violation.contested:
        lines.append("contested: within 1 mm of the limit")
    return "\n".join(lines)


def _draw_violating_objects(
    ax: Axes, scene: Scene, v: Violation, gid: str, ids: set[str]
) -> tuple[list[Any], list[Artist]]:
    """Outline the objects a violation names; fill an overlap or the part off the table.

    Returns the objects' shapes (without guides) and the artists drawn.
    """
    named = [o for o in v.objects if o in ids]
    shapes = [_object_shape(scene, scene.get(obj), guides=False) for obj in named]
    artists: list[Artist] = [
        _patch(
            ax,
            shape,
            facecolor="none",
            edgecolor=ALARM,
            linewidth=2.2,
            zorder=_Z_ALARM,
            gid=f"{gid}-{obj}",
        )
        for obj, shape in zip(named, shapes, strict=True)
    ]
    if v.rule == "ship-overlap" and len(shapes) >= 2:
        guided = [_object_shape(scene, scene.get(o), guides=True) for o in named]
        overlap = shapely.intersection(guided[0], guided[1])
        artists.append(
            _patch(ax, overlap, facecolor=ALARM, alpha=0.7, edgecolor="none", zorder=_Z_ALARM)
        )
    if v.rule == "outside-play-area" and shapes:
        outside = shapely.difference(shapes[0], scene.area.polygon())
        artists.append(
            _patch(ax, outside, facecolor=ALARM, alpha=0.6, edgecolor="none", zorder=_Z_ALARM)
        )
    return shapes, artists


def _draw_measured(ax: Axes, points: Any, text: str, gid: str, crowd: Any) -> list[Artist]:
    """Draw a violation's closest-points segment with its label in a free spot beside it."""
    pts = np.asarray(points, dtype=np.float64).reshape(2, 2)
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
    along, side = _free_spot(p, q, crowd, _text_size_mm(text))
    label = _offset_label(
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
    return [line, label]


def _draw_stacked_label(
    ax: Axes,
    scene: Scene,
    v: Violation,
    shapes: list[Any],
    text: str,
    gid: str,
    stacks: dict[str, int],
) -> Artist:
    """Write an unmeasured violation's label above its first object (or the table).

    It is stacked over the labels already written there (`stacks`: lines used per object).
    """
    key = v.objects[0] if shapes else ""
    anchor = shapes[0] if shapes else scene.area.polygon()
    x0, _, x1, top = anchor.bounds
    stacked = stacks.get(key, 0)
    stacks[key] = stacked + 1 + text.count("\n")
    return ax.annotate(
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


def draw_violations(ax: Axes, scene: Scene, report: CheckReport) -> list[Artist]:
    """Mark every violation of a check in the alarm colour, numbered in report order.

    A violation with closest points gets that segment, with the measured distance, the
    limit and the margin written beside it; the objects it names are outlined; overlaps
    and parts outside the play area are filled. Only the first
    :data:`MOST_MARKED_VIOLATIONS` are drawn, so that a picture stays quick to draw.
    """
    artists: list[Artist] = []
    ids = set(scene.ids)
    stacks: dict[str, int] = {}
    crowd = _crowd(scene)
    fixes_drawn: set[tuple[str, float, float]] = set()
    for number, v in enumerate(report.violations[:MOST_MARKED_VIOLATIONS], start=1):
        gid = f"violation-{number}"
        shapes, drawn = _draw_violating_objects(ax, scene, v, gid, ids)
        artists += drawn
        artists += _draw_fix(ax, scene, v, fixes_drawn)
        text = violation_label(number, v)
        if v.points is not None:
            artists += _draw_measured(ax, v.points, text, gid, crowd)
        else:
            artists.append(_draw_stacked_label(ax, scene, v, shapes, text, gid, stacks))
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
