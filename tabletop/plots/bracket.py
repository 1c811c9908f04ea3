"""The standings and the playoff bracket of an event, as one A4 landscape picture.

Made to be printed and pinned to a wall: large type, one row per player (the top 32
when the field is larger), and the bracket drawn so that each match sits between the
two it was fed by. Imports matplotlib only when a picture is made.

Examples
--------
>>> from tabletop.tournament import simulate_event
>>> event = simulate_event("destiny", 8, 3, structure="custom", swiss_rounds=2, cut=4)
>>> bracket_layout(event)[0]
[[1, 2], [1]]
>>> event_picture(event, "svg")[:5]
b'<?xml'
"""

from __future__ import annotations

from typing import Any, cast

from tabletop.plots.formats import check_picture_format, picture_bytes
from tabletop.plots.style import INK, OKABE_ITO, RC_PARAMS
from tabletop.tournament import (
    Event,
    Round,
    match_winner,
    playoff_seeds,
    standing_headings,
    standings,
)

__all__ = ["A4_LANDSCAPE_IN", "STANDINGS_ROWS", "bracket_layout", "event_picture"]

#: The page, inches (A4 landscape).
A4_LANDSCAPE_IN = (11.69, 8.27)
#: Most standings rows drawn (the rest are summarised in one line).
STANDINGS_ROWS = 32


def bracket_layout(event: Event) -> tuple[list[list[int]], list[Round]]:
    """Return, per playoff round, its tables top to bottom, and the playoff rounds.

    The next round's table j is fed by tables j and (last - j + 1), so drawing the
    first round in the order that unfolds from the final keeps every feeder beside its
    match.
    """
    playoff = [r for r in event.rounds if r.kind == "playoff"]
    if not playoff:
        return [], []
    tables = [
        sorted([m.table for m in r.matches] + [b.table or 0 for b in r.byes]) for r in playoff
    ]
    size = len(tables[0])
    rounds = 1
    while 2 ** (rounds - 1) < size:
        rounds += 1
    orders: list[list[int]] = [[1]]
    for _ in range(rounds - 1):
        count = 2 * len(orders[0])
        orders.insert(0, [t for j in orders[0] for t in (j, count + 1 - j)])
    return orders[: len(playoff)], playoff


def _entries(event: Event, round_: Round, number: int) -> dict[int, tuple[list[str], str | None]]:
    entries: dict[int, tuple[list[str], str | None]] = {}
    for m in round_.matches:
        entries[m.table] = (list(m.players), match_winner(event, m, number))
    for b in round_.byes:
        entries[b.table or 0] = ([b.player, "(bye)"], b.player)
    return entries


def event_picture(event: Event, fmt: str = "png") -> bytes:
    """Return the picture of the event's standings and bracket as `fmt` bytes.

    `fmt` is ``png``, ``svg`` or ``pdf``.

    Raises
    ------
    tabletop.geom.errors.InvalidInputError
        For a format not in :data:`tabletop.plots.formats.PICTURE_FORMATS`.
    """
    import matplotlib
    from matplotlib.figure import Figure

    check_picture_format(fmt)
    with matplotlib.rc_context(cast(Any, dict(RC_PARAMS))):
        fig = Figure(figsize=A4_LANDSCAPE_IN)
        layout, playoff = bracket_layout(event)
        has_bracket = bool(layout)
        table_ax = fig.add_axes((0.02, 0.04, 0.45 if has_bracket else 0.96, 0.86))
        fig.text(0.02, 0.955, event.name or "Event", fontsize=20, weight="bold", color=INK)
        fig.text(0.02, 0.925, event.regulation.title, fontsize=11, color=INK)
        _draw_standings(table_ax, event)
        if has_bracket:
            bracket_ax = fig.add_axes((0.5, 0.04, 0.48, 0.86))
            _draw_bracket(bracket_ax, event, layout, playoff)
        return picture_bytes(fig, fmt, dpi=150)


def _draw_standings(ax: Any, event: Event) -> None:
    rows = standings(event)
    keys = event.regulation.tiebreakers
    ax.set_axis_off()
    ax.set_xlim(0, 1)
    shown = rows[:STANDINGS_ROWS]
    lines = len(shown) + 1 + (len(rows) > STANDINGS_ROWS)
    ax.set_ylim(lines + 0.5, 0.5)
    size = max(7.0, min(13.0, 300 / max(lines, 1)))
    head = ["#", *standing_headings(keys)]
    numbers = len(head) - 2
    xs = [0.0, 0.07, *[0.45 + 0.4 * k / (numbers - 1) for k in range(numbers)]]
    for x, text in zip(xs, head, strict=True):
        ax.text(x, 1, text, fontsize=size, weight="bold", va="center", color=INK)
    for y, s in enumerate(shown, 2):
        if y % 2 == 0:
            ax.axhspan(y - 0.5, y + 0.5, color=OKABE_ITO["sky blue"], alpha=0.12, lw=0)
        cells = [str(s.rank), *s.cells(keys, decimals=3)]
        for x, text in zip(xs, cells, strict=True):
            ax.text(x, y, text, fontsize=size, va="center", color=INK)
    if len(rows) > STANDINGS_ROWS:
        ax.text(
            0.07, lines, f"... and {len(rows) - STANDINGS_ROWS} more", fontsize=size, va="center"
        )


def _draw_bracket(ax: Any, event: Event, layout: list[list[int]], playoff: list[Round]) -> None:
    from matplotlib.patches import Rectangle

    ax.set_axis_off()
    slots = len(layout[0])
    columns = len(layout)
    ax.set_xlim(0, columns + 1)
    ax.set_ylim(slots, 0)
    seeds = playoff_seeds(event)  # fixed at the cut, as the pairing numbers them
    names = {p.id: p.name for p in event.players}
    offset = len(event.rounds) - len(playoff)
    ys: dict[tuple[int, int], float] = {}
    size = max(6.0, min(11.0, 120 / slots, 40 / columns))
    width, half = 0.8, 0.36  # a match's box, in column and slot units
    for column, (order, round_) in enumerate(zip(layout, playoff, strict=True)):
        entries = _entries(event, round_, offset + column + 1)
        for place, table in enumerate(order):
            if column == 0:
                y = place + 0.5
            else:
                count = len(layout[column - 1])
                feeders = (table, count + 1 - table)
                y = sum(ys[(column - 1, f)] for f in feeders) / 2
                joint = column - 0.1
                for f in feeders:
                    fy = ys[(column - 1, f)]
                    ax.plot([column - 1 + width, joint], [fy, fy], color=INK, lw=1.0)
                ax.plot(
                    [joint, joint],
                    [ys[(column - 1, feeders[0])], ys[(column - 1, feeders[1])]],
                    color=INK,
                    lw=1.0,
                )
                ax.plot([joint, column], [y, y], color=INK, lw=1.0)
            ys[(column, table)] = y
            ax.add_patch(
                Rectangle((column, y - half), width, 2 * half, fill=False, edgecolor=INK, lw=1.0)
            )
            ax.text(
                column + width,
                y - half,
                f"table {table}",
                fontsize=size * 0.6,
                ha="right",
                va="bottom",
                color=INK,
            )
            players, winner = entries.get(table, ([], None))
            for k, pid in enumerate(players):
                label = names.get(pid, pid)
                if pid in seeds:
                    label = f"({seeds[pid]}) {label}"
                ax.text(
                    column + 0.04,
                    y + (k - 0.5) * half,
                    label,
                    fontsize=size,
                    va="center",
                    weight="bold" if pid == winner else "normal",
                    color=OKABE_ITO["blue"] if pid == winner else INK,
                )
    last = playoff[-1]
    champion: str | None = None
    if len(layout[-1]) == 1 and last.matches:
        champion = match_winner(event, last.matches[0], len(event.rounds))
    elif len(layout[-1]) == 1 and last.byes:
        champion = last.byes[0].player
    if champion is not None:
        y = ys[(columns - 1, 1)]
        ax.plot([columns - 1 + width, columns + 0.05], [y, y], color=INK, lw=1.0)
        ax.text(
            columns + 0.08,
            y,
            f"champion\n{names[champion]}",
            fontsize=size * 1.2,
            weight="bold",
            va="center",
            color=OKABE_ITO["blue"],
        )
