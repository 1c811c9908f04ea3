"""The legend: a handle for each kind of thing drawn."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from matplotlib.artist import Artist
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from tabletop.geom.rulesets import Ruleset
from tabletop.obstacles.measuring import Measurement
from tabletop.obstacles.scene import Scene
from tabletop.plots.move import MoveLike
from tabletop.plots.style import ALARM, INK, MEASURE, TEMPLATE, kind_colour, player_colour

if TYPE_CHECKING:
    from tabletop.obstacles.legality import CheckReport
from tabletop.plots._common import (
    _rgb,
)

__all__ = ["legend_handles"]


# -- legend ----------------------------------------------------------------------------


def _named(rules: Ruleset, limit: float, *, wrap: bool = False) -> str:
    """``distance 3 (185 mm)``: the band words where the limit is one of its lines."""
    words = rules.limit_words(limit)
    if words is None:
        return f"{limit:g} mm"
    return f"{words}\n({limit:g} mm)" if wrap else f"{words} ({limit:g} mm)"


def _scene_handles(scene: Scene) -> list[Artist]:
    """Return entries for the ships (one per player), arc lines and each obstacle kind shown."""
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
    return handles


def _setup_rule_handles(scene: Scene) -> list[Artist]:
    """Return entries for the edge zone without obstacles, the deployment zone and the setup area."""
    rs = scene.ruleset
    rule = rs.obstacle_placement
    limit = rule.edge
    if not rule.inside_setup_area:
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
    handles: list[Artist] = [
        Patch(facecolor="none", edgecolor=INK, linewidth=0, hatch="///", label=what),
        Patch(facecolor=(*_rgb(player_colour(1)), 0.10), edgecolor="none", label=deploy),
    ]
    if rule.inside_setup_area:
        handles.append(
            Patch(facecolor="none", edgecolor=INK, linestyle=(0, (6, 4)), label="setup area")
        )
    return handles


def _report_handles(report: CheckReport | None) -> list[Artist]:
    """Return entries for violations and their fixes, when the report has any."""
    if report is None or not report.violations:
        return []
    handles: list[Artist] = [
        Line2D(
            [],
            [],
            color=ALARM,
            linewidth=2.0,
            marker="o",
            markersize=3.5,
            label="violation: closest points,\nmeasured distance, limit, margin",
        )
    ]
    if any(v.fixable and v.fix is not None for v in report.violations):
        handles.append(
            Patch(
                facecolor="none",
                edgecolor=ALARM,
                linestyle=(0, (1.5, 1.5)),
                label="nearest legal position (fix)",
            )
        )
    return handles


def _measurement_handles(measurement: Measurement | None) -> list[Artist]:
    """Return entries for the ruler, line of sight, tied segments and obstruction of a measurement."""
    if measurement is None:
        return []
    handles: list[Artist] = [
        Line2D(
            [],
            [],
            color=MEASURE,
            linewidth=1.8,
            marker="o",
            markersize=4,
            label="measurement (closest points)",
        )
    ]
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
    return handles


def _move_handles(moves: Sequence[MoveLike]) -> list[Artist]:
    """Return entries for maneuver templates, start ghosts and bump points."""
    if not moves:
        return []
    handles: list[Artist] = [
        Patch(facecolor=(*_rgb(TEMPLATE), 0.75), edgecolor="black", label="maneuver template"),
        Patch(
            facecolor="none",
            edgecolor=INK,
            linestyle=(0, (3, 2)),
            label="start position (ghost)",
        ),
    ]
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


def legend_handles(
    scene: Scene,
    *,
    report: CheckReport | None = None,
    measurement: Measurement | None = None,
    moves: Sequence[MoveLike] = (),
) -> list[Artist]:
    """Return legend entries (proxy artists with labels) for what a picture shows."""
    return [
        *_scene_handles(scene),
        *_setup_rule_handles(scene),
        *_report_handles(report),
        *_measurement_handles(measurement),
        *_move_handles(moves),
    ]
