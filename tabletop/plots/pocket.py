"""The Pocket Battles battlefield as player 1 sees it: 15 zones, units, contacts.

Rows run from player 1's rear (bottom) to player 2's rear (top); each zone is named
absolutely and in both players' words. A unit is a stack of cards, one per surviving
troop, coloured by player, labelled with its id, troops, wounds and order tokens;
contacts are lines across the engagement row; the last play is the title. matplotlib is
imported only when a picture is made.
"""

from __future__ import annotations

from typing import Any, cast

from tabletop.boards.pocket import PocketBattles, PocketState
from tabletop.boards.pocket.state import UnitState
from tabletop.boards.pocket.zones import (
    ENGAGEMENT_ROW,
    SECTOR_WORDS,
    SECTORS,
    ZONES,
    zone_row,
    zone_sector,
)
from tabletop.plots.formats import check_picture_format, picture_bytes
from tabletop.plots.style import ALARM, RC_PARAMS, player_colour

__all__ = ["CELL", "draw_battle", "render_battle", "unit_positions"]

#: A zone's drawn width and height (axes units).
CELL = (4.0, 2.0)
_ROW_NAMES = {1: "rear", 2: "front", 3: "engagement", 4: "front", 5: "rear"}


def unit_positions(state: PocketState) -> dict[str, tuple[float, float]]:
    """Return where each unit on the field is drawn: the centre of its card stack."""
    # In the engagement zone each player's units get their own line (player 2's above),
    # so that the contacts between them show as lines across the gap.
    by_place: dict[tuple[str, int], list[str]] = {}
    for unit in state.units.values():
        if unit.on_field and unit.zone is not None:
            side = unit.player if zone_row(unit.zone) == ENGAGEMENT_ROW else 0
            by_place.setdefault((unit.zone, side), []).append(unit.id)
    width, height = CELL
    level = {0: 0.45, 1: 0.2, 2: 0.6}
    out: dict[str, tuple[float, float]] = {}
    for (z, side), ids in by_place.items():
        col, row = SECTORS.index(zone_sector(z)), zone_row(z)
        for k, uid in enumerate(ids):
            x = col * width + width * (k + 0.5) / len(ids)
            out[uid] = (x, (row - 1) * height + height * level[side])
    return out


def _draw_zones(ax: Any) -> None:
    """Draw the fifteen zones, each shaded by row and named in both players' words."""
    from matplotlib.patches import Rectangle

    width, height = CELL
    for z in ZONES:
        col, row = SECTORS.index(zone_sector(z)), zone_row(z)
        fill = (
            "#f3ecd9"
            if row == ENGAGEMENT_ROW
            else ("#eef3f8" if row < ENGAGEMENT_ROW else "#f6eef4")
        )
        ax.add_patch(
            Rectangle(
                (col * width, (row - 1) * height),
                width,
                height,
                facecolor=fill,
                edgecolor="#555555",
                lw=1.0,
            )
        )
        s = zone_sector(z)
        words = f"P1 {SECTOR_WORDS[1][s]} · P2 {SECTOR_WORDS[2][s]}"
        ax.text(
            col * width + 0.1,
            row * height - 0.12,
            f"{z}  {_ROW_NAMES[row]}",
            va="top",
            ha="left",
            fontsize=8,
            weight="bold",
            color="#333333",
        )
        ax.text(
            col * width + width - 0.1,
            row * height - 0.12,
            words,
            va="top",
            ha="right",
            fontsize=6.5,
            color="#666666",
        )


def _unit_label(uid: str, unit: UnitState) -> str:
    """Return a unit card's text: its id, troops, and wounds and order tokens if any."""
    wounds = unit.wound_tokens()
    count = f"{len(unit.troops)} troop" + ("s" if len(unit.troops) != 1 else "")
    # Engaged cards are shorter: two lines of text, not three.
    label = f"{uid}\n{count}"
    details = []
    if wounds:
        details.append(f"{wounds} wound" + ("s" if wounds != 1 else ""))
    if unit.orders:
        details.append(f"{unit.orders} token" + ("s" if unit.orders != 1 else ""))
    if details:
        label += (", " if unit.engaged_row else "\n") + "\n".join(details)
    return label


def _draw_unit(
    ax: Any, state: PocketState, positions: dict[str, tuple[float, float]], uid: str
) -> tuple[Any, float, float]:
    """Draw a unit as a stack of cards (one per troop) with its label on top.

    Returns the label and its card's width and height (board units), for fitting.
    """
    from matplotlib.patches import Rectangle

    x, y = positions[uid]
    unit = state.units[uid]
    colour = player_colour(unit.player)
    crowd = sum(1 for u in positions if state.units[u].zone == unit.zone and positions[u][1] == y)
    card_w = min(1.5, 0.9 * CELL[0] / crowd)
    card_h = 0.56 if unit.engaged_row else 0.8
    for k in range(len(unit.troops) - 1, -1, -1):
        card = ax.add_patch(
            Rectangle(
                (x - card_w / 2 + 0.08 * k, y - card_h / 2 + 0.06 * k),
                card_w,
                card_h,
                facecolor=colour,
                edgecolor="white",
                lw=1.0,
                alpha=1.0 if k == 0 else 0.55,
                zorder=3 + (len(unit.troops) - k),
            )
        )
        if k == 0:
            card.set_gid(f"card:{uid}")
    text = ax.text(
        x,
        y,
        _unit_label(uid, unit),
        ha="center",
        va="center",
        fontsize=7 if crowd < 3 and not unit.engaged_row else 6,
        color="white",
        weight="bold",
        zorder=20,
        gid=f"label:{uid}",
    )
    return text, card_w, card_h


def _draw_captions(ax: Any, game: PocketBattles, state: PocketState) -> None:
    """Write the round, winner and last play above, and each player's army and tokens."""
    width, height = CELL
    title = f"round {state.round}"
    if state.winner is not None:
        title += f" — won by player {state.winner}"
    if state.last_play:
        title += f"; last play: {state.last_play}"
    ax.set_title(title, fontsize=10)
    names = {a.player: a.name for a in game.battle.armies}
    ax.text(
        1.5 * width,
        -0.25,
        f"player 1: {names[1]} (tokens {state.pool[1]})",
        ha="center",
        va="top",
        color=player_colour(1),
        fontsize=9,
    )
    ax.text(
        1.5 * width,
        5 * height + 0.25,
        f"player 2: {names[2]} (tokens {state.pool[2]})",
        ha="center",
        va="bottom",
        color=player_colour(2),
        fontsize=9,
    )


def draw_battle(ax: Any, game: PocketBattles, state: PocketState) -> None:
    """Draw the battlefield and the position onto the matplotlib axes `ax`."""
    width, height = CELL
    _draw_zones(ax)
    positions = unit_positions(state)
    for contact in state.contacts:
        if contact.first in positions and contact.second in positions:
            (x0, y0), (x1, y1) = positions[contact.first], positions[contact.second]
            ax.plot([x0, x1], [y0, y1], color=ALARM, lw=3.0, zorder=2, solid_capstyle="round")
    labels = [_draw_unit(ax, state, positions, uid) for uid in positions]
    _draw_captions(ax, game, state)
    ax.set_xlim(-0.1, 3 * width + 0.1)
    ax.set_ylim(-0.8, 5 * height + 0.8)
    ax.set_aspect("equal")
    ax.axis("off")
    _fit_labels(ax, labels)


#: The smallest label size (points): below it a unit's id is shortened instead.
_SMALLEST_LABEL_PT = 4.0
#: A label's margin inside its card, as a share of the card's width and height.
_LABEL_MARGIN = 0.08
#: Line height as a multiple of the font size, and the extra width matplotlib's
#: renderer gives a line over its glyphs' outline (measured: about 5 %).
_LINE_HEIGHT, _WIDTH_SLACK = 1.25, 1.08


def _label_size_pt(lines: list[str], size_pt: float) -> tuple[float, float]:
    """Return the width and height (points) of bold lines at `size_pt`."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    font = FontProperties(size=size_pt, weight="bold")
    measure = TextToPath()
    width = max(
        measure.get_text_width_height_descent(line, font, ismath=False)[0] for line in lines
    )
    return width * _WIDTH_SLACK, (len(lines) * _LINE_HEIGHT + 0.2) * size_pt


def _shortened(line: str, size_pt: float, room_pt: float) -> str:
    """Return `line`, or its beginning and end around "…", as much as fits `room_pt`.

    Both ends stay: unit ids often differ only at their end (``guard-1``, ``guard-2``).
    """
    kept = len(line)
    shown = line
    while kept > 1 and _label_size_pt([shown], size_pt)[0] > room_pt:
        kept -= 1
        head = (kept + 1) // 2
        shown = line[:head] + "…" + line[len(line) - (kept - head) :]
    return shown


def _fit_labels(ax: Any, labels: list[tuple[Any, float, float]]) -> None:
    """Shrink each unit's label (and at the smallest size shorten its id) to fit its card."""
    ax.apply_aspect()  # the equal aspect decides how many points a data unit is
    origin = ax.transData.transform((0.0, 0.0))
    corner = ax.transData.transform((1.0, 1.0))
    points_per_px = 72.0 / ax.figure.dpi
    per_unit_x = (corner[0] - origin[0]) * points_per_px
    per_unit_y = (corner[1] - origin[1]) * points_per_px
    for text, card_w, card_h in labels:
        room_w = card_w * (1 - 2 * _LABEL_MARGIN) * per_unit_x
        room_h = card_h * (1 - 2 * _LABEL_MARGIN) * per_unit_y
        lines = str(text.get_text()).split("\n")
        size = float(text.get_fontsize())
        width, height = _label_size_pt(lines, size)
        scale = min(1.0, room_w / width, room_h / height)
        size = max(_SMALLEST_LABEL_PT, size * scale)
        while _label_size_pt(lines, size)[1] > room_h and len(lines) > 1:
            # The last details go first: a label keeps the unit's id above all.
            lines = lines[:-1]
        lines = [_shortened(line, size, room_w) for line in lines]
        text.set_fontsize(size)
        text.set_text("\n".join(lines))


def render_battle(game: PocketBattles, state: PocketState, fmt: str = "png") -> bytes:
    """Return the picture of `state` as `fmt` (``png``, ``svg`` or ``pdf``) bytes.

    Raises
    ------
    tabletop.geom.errors.InvalidInputError
        For a format not in :data:`tabletop.plots.formats.PICTURE_FORMATS`.
    """
    import matplotlib as mpl
    from matplotlib.figure import Figure

    check_picture_format(fmt)
    with mpl.rc_context(cast(Any, dict(RC_PARAMS))):
        fig = Figure(figsize=(7.5, 9.0), dpi=100)
        ax = fig.add_subplot()
        fig.subplots_adjust(left=0.02, right=0.98, bottom=0.02, top=0.94)
        draw_battle(ax, game, state)
        return picture_bytes(fig, fmt)
