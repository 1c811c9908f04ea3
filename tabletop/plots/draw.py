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
>>> from tabletop.geom.areas import play_area
>>> from tabletop.geom.objects import Ship
>>> from tabletop.geom.rulesets import get_ruleset
>>> from tabletop.obstacles.scene import Scene
>>> scene = Scene(get_ruleset("xwing2"), play_area("3x3ft"), ships=(Ship("a", "small", 300, 40),))
>>> ax = Figure().add_subplot()
>>> artists = draw_scene(ax, scene, violations=False)
>>> sorted(a.get_gid() for a in artists if a.get_gid() in scene.ids)
['a']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from matplotlib.artist import Artist
from matplotlib.axes import Axes

from tabletop.obstacles.scene import Scene
from tabletop.plots.style import INK

if TYPE_CHECKING:
    from tabletop.obstacles.legality import CheckReport
from tabletop.plots._common import (
    scene_limits,
)
from tabletop.plots.area import draw_area, draw_scale_bar
from tabletop.plots.ships import draw_obstacle, draw_ship
from tabletop.plots.violations import draw_violations

__all__ = ["draw_scene"]


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
    printed_names: bool = False,
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
        Mark every violation of :func:`tabletop.obstacles.legality.check` (or of `report`).
    report : CheckReport, optional
        A check already made (default: ``check(scene)`` when `violations` is true).
    exclude : iterable of str
        Ship ids not to draw (a moving ship that :func:`draw_move` draws instead).
    scale_bar : bool, default True
        Draw the millimetre scale bar and ruler below the table.
    printed_names : bool, default False
        Write each catalog token's printed name beside its id.
    """
    skip = set(exclude)
    _frame_axes(ax, scene)
    artists = draw_area(ax, scene)
    for obstacle in scene.obstacles:
        artists += draw_obstacle(ax, scene, obstacle, printed_name=printed_names)
    for ship in scene.ships:
        if ship.id not in skip:
            artists += draw_ship(ax, scene, ship)
    if scale_bar:
        artists += draw_scale_bar(ax, scene)
    if violations:
        if report is None:
            from tabletop.obstacles.legality import check

            report = check(scene)
        artists += draw_violations(ax, scene, report)
    return artists
