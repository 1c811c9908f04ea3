"""Drawing a move: the template or tool, the ghost start, the final base and the bump."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from numpy.typing import ArrayLike

from tabletop.geom.objects import Ship
from tabletop.geom.poses import FloatArray
from tabletop.obstacles.scene import Scene
from tabletop.plots.ships import draw_ship
from tabletop.plots.style import ALARM, TEMPLATE, player_colour

if TYPE_CHECKING:
    pass
from tabletop.plots._common import (
    _LABEL_BOX,
    _Z_LABEL,
    _Z_MOVE,
    _Z_TEMPLATE,
    _Z_TOP,
    _label_point,
    _lines,
    _object_shape,
    _patch,
    _polygons,
    _rgb,
    _text,
)

__all__ = ["MoveLike", "draw_move", "move_text"]


class MoveLike(Protocol):
    """What :func:`draw_move` reads from a move (``tabletop.maneuvers.execute``'s ``MoveResult``)."""

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


def _draw_template(ax: Axes, ship_id: str, template: object) -> list[Artist]:
    """Draw the maneuver template (its areas filled, any lines as lines)."""
    artists: list[Artist] = []
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
    return artists


def _draw_obstacle_hits(ax: Axes, scene: Scene, ship_id: str, move: MoveLike) -> list[Artist]:
    """Outline each obstacle the move went through or ended on, numbered in order."""
    artists: list[Artist] = []
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
    return artists


def _draw_bump(ax: Axes, ship_id: str, move: MoveLike) -> list[Artist]:
    """Star the bump point and name the ship bumped, if the move bumped."""
    if move.bump_point is None:
        return []
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
    label = ax.annotate(
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
    return [star, label]


def _draw_flags(ax: Axes, move: MoveLike, final: FloatArray) -> list[Artist]:
    """Write FLED and NOT LEGAL above the final base when they apply."""
    flags = []
    if move.fled:
        flags.append("FLED")
    if move.legal is False:
        flags.append("NOT LEGAL")
    if not flags:
        return []
    return [
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
    ]


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
        artists += _draw_template(ax, ship_id, move.template)
    artists += _draw_positions(ax, scene, ship, move, final)
    start_ship = ship.moved(float(start[0]), float(start[1]), float(start[2]))
    artists += draw_ship(ax, scene, start_ship, ghost=True, label="", gid=f"{ship_id}-start")
    final_ship = ship.moved(float(final[0]), float(final[1]), float(final[2]))
    artists += draw_ship(ax, scene, final_ship, gid=ship_id)
    artists += _draw_obstacle_hits(ax, scene, ship_id, move)
    artists += _draw_bump(ax, ship_id, move)
    artists += _draw_flags(ax, move, final)
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
