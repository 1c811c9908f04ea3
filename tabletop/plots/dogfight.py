"""Pictures of Dogfight positions: the board as a chess diagram, the last play, a fighter's reach.

Fighters are drawn by side (Rebels blue circles, the Empire reddish-purple hexagons:
shape and colour both tell them apart) and type (its letter, as in the text diagram).
The last play is an arrow (a move, black) or a vermillion line (a shot, with the target
ringed). With a fighter chosen, the squares it can reach along its lines within its
Move are dotted, knight's jumps it may make ringed, and its lines of fire within its
Range drawn to the first fighter met: an enemy there is a target, an own fighter a
blocker, and the squares behind it within range are crossed out as blocked. matplotlib
is imported only when a picture is drawn, which is returned as bytes (no file is written).
"""

from __future__ import annotations

from typing import Any, cast

from tabletop.boards.dogfight import SIDES, Advance, Dogfight, Fire, Move, Position
from tabletop.boards.dogfight.diagram import fighter_letter, fighter_reach
from tabletop.boards.dogfight.rules import square_name
from tabletop.plots.style import ALARM, INK, OKABE_ITO, PLAYER_COLOURS, RC_PARAMS

__all__ = ["POSITION_SIZE_PX", "draw_dogfight", "render_position"]

_LIGHT, _DARK = "#F2EFE6", "#CFC8B8"
_REACH = OKABE_ITO["bluish green"]
_SIZE_IN = (9.0, 6.4)
_DPI = 100
#: The size of a position's picture, pixels (SVG and PDF: points × 72/100).
POSITION_SIZE_PX = (round(_SIZE_IN[0] * _DPI), round(_SIZE_IN[1] * _DPI))


def _centre(square: int) -> tuple[float, float]:
    return square % 8 + 0.5, square // 8 + 0.5


def draw_dogfight(ax: Any, game: Dogfight, position: Position, fighter: int | None = None) -> None:
    """Draw the board, the fighters, the last play and (optionally) a fighter's reach on `ax`."""
    from matplotlib.patches import Circle, FancyArrowPatch, Rectangle, RegularPolygon

    for sq in range(64):
        f, r = sq % 8, sq // 8
        ax.add_patch(Rectangle((f, r), 1, 1, facecolor=_DARK if (f + r) % 2 == 0 else _LIGHT,
                               edgecolor="none", zorder=0))  # fmt: skip
    ax.add_patch(Rectangle((0, 0), 8, 8, fill=False, edgecolor=INK, linewidth=1.2, zorder=1))
    for i in range(8):
        ax.text(i + 0.5, -0.28, "abcdefgh"[i], ha="center", va="center", color=INK)
        ax.text(-0.28, i + 0.5, str(i + 1), ha="center", va="center", color=INK)
    if fighter is not None:
        reach = fighter_reach(game, position, fighter)
        x0, y0 = _centre(fighter)
        for sq in reach.moves:
            ax.add_patch(Circle(_centre(sq), 0.11, color=_REACH, zorder=2))
        for sq in reach.jumps:
            ax.add_patch(Circle(_centre(sq), 0.2, fill=False, edgecolor=_REACH, linewidth=1.5,
                                linestyle="--", zorder=2))  # fmt: skip
        for sq in (*reach.targets, *reach.blockers):
            x1, y1 = _centre(sq)
            colour = ALARM if sq in reach.targets else INK
            ax.plot([x0, x1], [y0, y1], color=colour, linewidth=1.2, linestyle=":", zorder=3)
        for sq in reach.targets:
            ax.add_patch(Circle(_centre(sq), 0.44, fill=False, edgecolor=ALARM, linewidth=2.2,
                                zorder=5))  # fmt: skip
        for sq in reach.blocked:
            x, y = _centre(sq)
            ax.plot([x - 0.15, x + 0.15], [y - 0.15, y + 0.15], color=INK, linewidth=1.2, zorder=2)
            ax.plot([x - 0.15, x + 0.15], [y + 0.15, y - 0.15], color=INK, linewidth=1.2, zorder=2)
        ax.add_patch(Rectangle((fighter % 8, fighter // 8), 1, 1, fill=False,
                               edgecolor=_REACH, linewidth=2.5, zorder=4))  # fmt: skip
    for sq in range(64):
        kind = position.board[sq]
        if kind < 0:
            continue
        side = 0 if position.occupied[0] >> sq & 1 else 1
        colour = PLAYER_COLOURS[side + 1]
        x, y = _centre(sq)
        if side == 0:
            ax.add_patch(Circle((x, y), 0.36, facecolor=colour, edgecolor="white", zorder=4))
        else:
            ax.add_patch(RegularPolygon((x, y), 6, radius=0.38, facecolor=colour,
                                        edgecolor="white", zorder=4))  # fmt: skip
        letter = fighter_letter(game.rules.fighters[kind])
        ax.text(x, y, letter, ha="center", va="center", color="white", fontsize=15,
                fontweight="bold", zorder=6)  # fmt: skip
    last = position.last
    shot = position.shot
    if isinstance(last, Move):
        ax.add_patch(FancyArrowPatch(_centre(last.origin), _centre(last.target), arrowstyle="-|>",
                                     mutation_scale=18, color="black", linewidth=2, zorder=7,
                                     shrinkA=4, shrinkB=12))  # fmt: skip
    if isinstance(last, Fire) or shot is not None:
        origin, target = (last.origin, last.target) if isinstance(last, Fire) else shot  # type: ignore[misc]
        # The shot's line runs under the fighters' letters, over the reach marks.
        line = [_centre(origin), _centre(target)]
        ax.plot(*zip(*line, strict=True), color=ALARM, linewidth=2.5, zorder=3.5)
        ax.add_patch(Circle(_centre(target), 0.46, fill=False, edgecolor=ALARM, linewidth=2.5,
                            zorder=7))  # fmt: skip
    ax.set_xlim(-0.55, 8.05)
    ax.set_ylim(-0.55, 8.05)
    ax.set_aspect("equal")
    ax.axis("off")


def _notes(game: Dogfight, position: Position, fighter: int | None) -> list[str]:
    info = game.describe(position)
    cards = info["cards"]
    assert isinstance(cards, dict)
    winner = game.winner(position)
    lines = [f"over: {winner}" if winner else f"{info['to_play']} to play, {info['phase']} phase"]
    lines.append(
        "kills: " + ", ".join(f"{s} {k}" for s, k in zip(SIDES, position.kills, strict=True))
    )
    lines.append(f"quiet turns: {position.quiet_turns}")
    if position.last is not None:
        note = " (the whole side)" if isinstance(position.last, Advance) else ""
        lines.append(f"last play: {position.last}{note}")
    lines.append("")
    for side in SIDES:
        lines.append(f"{side} hand:")
        lines += [f"  {name}" for name in cards[side]] or ["  (empty)"]
    lines.append(f"deck {len(cards['deck'])}, discard {len(cards['discard'])}")
    lines.append("")
    lines.append("Rebels (circles): A B X Y-Wing")
    lines.append("Empire (hexagons): f TIE Fighter,")
    lines.append("  i TIE Interceptor")
    if fighter is not None:
        kind = game.rules.fighters[position.board[fighter]]
        lines.append("")
        lines.append(f"{kind.name} on {square_name(fighter)}: Move {kind.move}, Range {kind.range}")
        lines.append("green dots: reachable squares")
        lines.append("dashed rings: knight's jumps")
        lines.append("dotted lines: lines of fire to the")
        lines.append("  first fighter met; red ring: target")
        lines.append("crosses: blocked squares in range")
    return lines


def render_position(
    game: Dogfight,
    position: Position,
    fmt: str = "png",
    *,
    fighter: int | None = None,
    title: str | None = None,
) -> bytes:
    """Draw a position and return it as `fmt` (``png``, ``svg`` or ``pdf``) bytes.

    The picture is :data:`POSITION_SIZE_PX` pixels.

    Raises
    ------
    tabletop.geom.errors.InvalidInputError
        For a format not in :data:`tabletop.plots.formats.PICTURE_FORMATS`.
    """
    import matplotlib as mpl
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from tabletop.plots.formats import check_picture_format, picture_bytes

    check_picture_format(fmt)
    with mpl.rc_context(cast(Any, dict(RC_PARAMS))):
        fig = Figure(figsize=_SIZE_IN, dpi=_DPI)
        FigureCanvasAgg(fig)
        ax = fig.add_axes((0.02, 0.03, 0.62, 0.88))
        draw_dogfight(ax, game, position, fighter)
        fig.text(0.66, 0.9, "\n".join(_notes(game, position, fighter)), va="top", ha="left",
                 color=INK, fontsize=9, linespacing=1.35)  # fmt: skip
        fig.suptitle(title or "Star Wars Dogfight", x=0.02, ha="left", fontsize=11)
        return picture_bytes(fig, fmt)
