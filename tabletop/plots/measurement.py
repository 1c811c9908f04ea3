"""Drawing a measurement: the arc or hull zone, closest points, ruler ticks, obstruction."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely
from matplotlib.artist import Artist
from matplotlib.axes import Axes

from tabletop.geom.arcs import arc_region_outline
from tabletop.geom.hulls import firing_arc, hull_arcs, hull_zone
from tabletop.geom.mmtext import mm_text
from tabletop.geom.objects import Ship
from tabletop.geom.rulesets import ArmadaRuleset, Ruleset
from tabletop.geom.shapes import world_polygon
from tabletop.obstacles.measuring import Measurement
from tabletop.obstacles.scene import Scene
from tabletop.plots.style import ALARM, MEASURE, player_colour

if TYPE_CHECKING:
    pass
from tabletop.plots._common import (
    _LABEL_BOX,
    _Z_ARC,
    _Z_MEASURE,
    _Z_SHIP,
    _Z_TOP,
    _crowd,
    _free_spot,
    _label_point,
    _lines,
    _object_shape,
    _offset_label,
    _patch,
    _polygons,
    _rgb,
    _text_size_mm,
)

__all__ = ["band_text", "draw_measurement"]


# -- measurements ----------------------------------------------------------------------


def band_text(measurement: Measurement) -> str:
    """Return a measurement's band in words (``range 2``; ``distance 3, medium range``).

    Examples
    --------
    >>> from tabletop.geom.areas import play_area
    >>> from tabletop.geom.rulesets import get_ruleset
    >>> a, b = Ship("a", "small", 100, 100), Ship("b", "small", 100, 290, 270)
    >>> scene = Scene(get_ruleset("xwing2"), play_area("3x3ft"), ships=(a, b))
    >>> from tabletop.obstacles.measuring import measure
    >>> band_text(measure(scene, "a", "b"))
    'range 2'
    """
    return measurement.band_words()


def _measurement_text(m: Measurement) -> str:
    head = f"{m.from_id} to {m.to_id}"
    if m.arc is not None:
        head += f" ({m.arc} {m.detail.arc_word})"
    distance = f"{mm_text(m.distance, line=m.nearest_line)} mm: {band_text(m)}"
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


@functools.singledispatch
def _arc_shading(
    rs: Ruleset, attacker: Ship, arc: str
) -> tuple[shapely.Polygon, shapely.Polygon | None]:
    """Return the arc measured from (world outline) and the hull zone shot from, if any.

    Printed arcs (X-Wing) have no zone; :func:`_hull_zone_shading` answers for Armada.
    """
    return world_polygon(arc_region_outline(rs, attacker.base, arc), attacker.pose), None


@_arc_shading.register(ArmadaRuleset)
def _hull_zone_shading(
    rs: ArmadaRuleset, attacker: Ship, arc: str
) -> tuple[shapely.Polygon, shapely.Polygon | None]:
    """Return the firing arc of an Armada hull zone, and the zone itself."""
    arcs, _ = hull_arcs(rs, attacker.base, attacker.hull)
    local = firing_arc(arcs, arc)
    region = world_polygon(np.asarray(local.exterior.coords)[:-1], attacker.pose)
    zone_local = hull_zone(rs, attacker.base, arcs, arc)
    return region, world_polygon(np.asarray(zone_local.exterior.coords)[:-1], attacker.pose)


def _draw_arc(ax: Axes, scene: Scene, m: Measurement) -> list[Artist]:
    """Shade the arc measured from (clipped to the table) and, in Armada, its hull zone."""
    if m.arc is None:
        return []
    attacker = scene.get(m.from_id)
    if not isinstance(attacker, Ship):
        return []
    rs = scene.ruleset
    colour = player_colour(attacker.player)
    region, zone = _arc_shading(rs, attacker, m.arc)
    region = shapely.intersection(region, scene.area.polygon())
    artists: list[Artist] = [
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
    ]
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
    return artists


def _tied_bands(m: Measurement) -> list[Any]:
    """Return the valid polygons of the tied segments (the band any of which may be used)."""
    tied = [shapely.Polygon(band) for band in m.detail.tied_segments or ()]
    return [
        band if band.is_valid else shapely.make_valid(band)
        for band in tied
        if len(band.exterior.coords) >= 4
    ]


def _draw_tied_bands(ax: Axes, tied: list[Any]) -> list[Artist]:
    """Shade each band of tied segments, numbered in its ``gid``."""
    return [
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
        for number, band in enumerate(tied, start=1)
    ]


def _draw_sight_line(ax: Axes, m: Measurement) -> tuple[Any, list[Artist]]:
    """Draw the Armada line of sight; return it as a shapely line (or None) and its artists."""
    sight_points = m.detail.sight_line
    if sight_points is None or len(sight_points) != 2:
        return None, []
    sight = np.asarray(sight_points, dtype=np.float64).reshape(2, 2)
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
    return shapely.LineString(sight), [sight_line]


def _draw_obstruction(ax: Axes, obj_id: str, shape: Any, crossed_by: Any) -> list[Artist]:
    """Hatch one obstructing object, mark where the measured line crosses it, and label it."""
    artists: list[Artist] = [
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
    ]
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
    return artists


def _draw_ruler(ax: Axes, scene: Scene, m: Measurement, pts: Any) -> list[Artist]:
    """Draw the closest-points segment with a tick at each band line it passes (mm)."""
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
    artists: list[Artist] = [ruler]
    if m.distance <= 1e-9:
        return artists
    rs = scene.ruleset
    d = pts[1] - pts[0]
    unit = d / float(np.hypot(*d))
    normal = np.array([-unit[1], unit[0]])
    for mark in rs.band_lines_of(rs.band_kinds[0]):
        if mark >= m.distance:
            break
        at = pts[0] + unit * mark
        tick = np.array([at - normal * 6.0, at + normal * 6.0])
        (t,) = ax.plot(tick[:, 0], tick[:, 1], color=MEASURE, linewidth=1.2, zorder=_Z_MEASURE)
        artists.append(t)
    return artists


def draw_measurement(ax: Axes, scene: Scene, measurement: Measurement) -> list[Artist]:
    """Draw a measurement as the ruler would lie.

    The closest-points segment, its band lines as ticks, the distance and band beside
    it; the arc measured from, and every obstacle (or ship) that obstructs it hatched.

    The arc measured from is shaded on the table (arcs are unbounded; the shading stops
    at the table's edges). Armada measurements also show the line of sight between the
    targeting points, along which obstruction is traced.
    """
    m = measurement
    artists = _draw_arc(ax, scene, m)
    pts = np.asarray(m.points, dtype=np.float64).reshape(2, 2)
    segment = shapely.LineString(pts) if m.distance > 1e-9 else shapely.Point(pts[0])
    tied = _tied_bands(m)
    artists += _draw_tied_bands(ax, tied)
    sight, sight_artists = _draw_sight_line(ax, m)
    artists += sight_artists
    # Obstruction is traced along the line of sight when there is one, else along the
    # tied bands, else along the ruler itself.
    crossed_by: Any = sight if sight is not None else shapely.union_all(tied) if tied else segment
    for obj_id in m.detail.obstructed_by:
        try:
            obj = scene.get(str(obj_id))
        except ValueError:
            continue
        shape = _object_shape(scene, obj, guides=False)
        artists += _draw_obstruction(ax, str(obj_id), shape, crossed_by)
    artists += _draw_ruler(ax, scene, m, pts)
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
