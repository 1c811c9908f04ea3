"""Drawing the table: the play area, its edges and zones, and the scale bar that is the game's ruler."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import shapely
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.patches import Rectangle

from tabletop.obstacles.placement import placement_limits
from tabletop.obstacles.scene import Scene
from tabletop.plots.style import INK, player_colour

if TYPE_CHECKING:
    pass
from tabletop.plots._common import (
    _Z_LABEL,
    _Z_MARGIN,
    _Z_TABLE,
    _Z_ZONES,
    _patch,
    _text,
    scene_limits,
)

__all__ = ["draw_area", "draw_scale_bar"]


# -- the table -------------------------------------------------------------------------


def _no_obstacle_zone(scene: Scene) -> Any:
    allowed = placement_limits(scene.ruleset, scene.area).allowed_area()
    return shapely.difference(scene.area.polygon(), allowed)


def _deployment_zone(scene: Scene, player: int) -> Any:
    area = scene.area
    limit = scene.ruleset.deployment_limit
    if player == 1:
        strip = shapely.box(0.0, 0.0, area.width, min(limit, area.height))
    else:
        strip = shapely.box(0.0, max(0.0, area.height - limit), area.width, area.height)
    return shapely.intersection(strip, scene.ruleset.setup_area(area))


def _confines_to_setup_area(scene: Scene) -> bool:
    """Whether the placement rule keeps obstacles inside a setup area (drawn dashed)."""
    return scene.ruleset.obstacle_placement.inside_setup_area


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
    if _confines_to_setup_area(scene):
        sx0, sy0, sx1, sy1 = scene.ruleset.setup_area(area).bounds
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
