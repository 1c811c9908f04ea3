"""A4 printables of an event as PDF bytes: tables of text over pages, and match slips.

The application builds the content (who sits where, the standings); this module lays it
out on A4 portrait pages, 210 mm x 297 mm, and returns the PDF's bytes. Nothing here
writes a file.

Examples
--------
>>> table = PrintTable("Round 1", "by table", ("table", "player"), (("1", "Ann"),))
>>> table_pages_pdf([table])[:5]
b'%PDF-'
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from tabletop.plots.style import INK, RC_PARAMS, plain_text

__all__ = ["A4_PORTRAIT_IN", "PageCode", "PrintTable", "Slip", "slips_pdf", "table_pages_pdf"]

#: A4 portrait, width and height in inches (210 mm x 297 mm).
A4_PORTRAIT_IN = (210 / 25.4, 297 / 25.4)
#: Rows of a table on one page (the rest go on the next, under the same headings).
ROWS_PER_PAGE = 48
#: Slips on one page, one above the other, with a cut line between.
SLIPS_PER_PAGE = 3
#: The longest name drawn at full size on a slip (12 pt bold in 0.44 of the page's width).
NAME_CHARS = 32
_PDF_METADATA = {"CreationDate": None, "ModDate": None}


@dataclass(frozen=True, slots=True)
class PageCode:
    """A QR code to print: the address it holds and its modules, dark ones True, by row.

    The application makes the modules (``segno``); this module only draws them.
    """

    url: str
    modules: tuple[tuple[bool, ...], ...]


@dataclass(frozen=True, slots=True)
class PrintTable:
    """A table to print: a title, a line under it, column headings and rows of cells."""

    title: str
    subtitle: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class Slip:
    """A match slip: event, round, table, the two players, and the fields they fill in.

    `fields` are what each player writes (``"final score"``, ``"TP"``), each with a line;
    `players` are as printed (name and id); `stage` names a playoff round ("Semi-final")
    in place of its number; `scale` is the regulation's MoV → TP table for the TP line.
    """

    heading: str
    round: int
    table: int
    players: tuple[str, str]
    fields: tuple[str, ...]
    note: str
    stage: str = ""
    scale: str = ""

    @property
    def label(self) -> str:
        """The slip's corner: "round 3 - table 2", or the stage ("Final - table 1")."""
        return f"{self.stage or f'round {self.round}'} - table {self.table}"


def _pdf(figures: list[Any]) -> bytes:
    from matplotlib.backends.backend_pdf import PdfPages

    buffer = io.BytesIO()
    with PdfPages(buffer, metadata=_PDF_METADATA) as pages:
        for fig in figures:
            plain_text(fig)  # names are drawn as typed: "$" and "_" are characters
            pages.savefig(fig)
    return buffer.getvalue()


def _column_widths(table: PrintTable) -> list[float]:
    # Each column as wide as its longest text, as a share of the page's 0.88 width.
    longest = [
        max([len(table.columns[k]), *(len(r[k]) for r in table.rows)]) + 2
        for k in range(len(table.columns))
    ]
    total = sum(longest)
    return [0.88 * n / total for n in longest]


def _draw_code(fig: Any, code: PageCode, right: float, top: float, size_mm: float) -> None:
    """Draw `code` with its top-right corner at (`right`, `top`), `size_mm` wide, the address under."""
    width = size_mm / 210
    height = size_mm / 297
    axes = fig.add_axes((right - width, top - height, width, height))
    axes.imshow(
        [[0.0 if dark else 1.0 for dark in row] for row in code.modules],
        cmap="gray",
        vmin=0.0,
        vmax=1.0,
        interpolation="nearest",
    )
    axes.set_axis_off()
    fig.text(right, top - height - 0.008, code.url, fontsize=6, color=INK, ha="right")


def _table_page(
    table: PrintTable, rows: Sequence[tuple[str, ...]], page: str, code: PageCode | None = None
) -> Any:
    from matplotlib.figure import Figure

    fig = Figure(figsize=A4_PORTRAIT_IN)
    fig.text(0.06, 0.955, table.title, fontsize=16, weight="bold", color=INK)
    fig.text(0.06, 0.935, table.subtitle, fontsize=10, color=INK)
    fig.text(0.94, 0.02, page, fontsize=8, color=INK, ha="right")
    if code is not None:  # the public page, for the phones: top right, above the table
        _draw_code(fig, code, 0.94, 0.99, 22.0)
    widths = _column_widths(table)
    lefts = [0.06 + sum(widths[:k]) for k in range(len(widths))]
    step = 0.86 / (ROWS_PER_PAGE + 1)
    top = 0.91
    for k, heading in enumerate(table.columns):
        fig.text(lefts[k], top, heading, fontsize=9, weight="bold", color=INK)
    fig.add_artist(_rule(top - step * 0.35))
    for i, row in enumerate(rows, 1):
        y = top - step * i
        if i % 2 == 0:
            fig.add_artist(_band(y - step * 0.3, step))
        for k, cell in enumerate(row):
            fig.text(lefts[k], y, cell, fontsize=9, color=INK)
    return fig


def _rule(y: float) -> Any:
    from matplotlib.lines import Line2D

    return Line2D([0.06, 0.94], [y, y], linewidth=0.8, color=INK)


def _band(y: float, height: float) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((0.05, y), 0.9, height, facecolor="#eeeeee", edgecolor="none", zorder=-1)


def table_pages_pdf(tables: Sequence[PrintTable], code: PageCode | None = None) -> bytes:
    """Return the tables as an A4 PDF, each table from a new page, long ones over several.

    With `code`, each page carries that QR code (the event's public page) at its top right.

    Raises
    ------
    ValueError
        For a table with no columns or a row of another width than the headings.
    """
    import matplotlib

    pages = []
    for table in tables:
        if not table.columns or any(len(r) != len(table.columns) for r in table.rows):
            raise ValueError(f"table {table.title!r}: every row needs one cell per column")
        chunks = [
            table.rows[start : start + ROWS_PER_PAGE]
            for start in range(0, max(1, len(table.rows)), ROWS_PER_PAGE)
        ]
        for number, chunk in enumerate(chunks, 1):
            pages.append((table, chunk, f"page {number} of {len(chunks)}"))
    with matplotlib.rc_context(cast(Any, dict(RC_PARAMS))):
        return _pdf([_table_page(t, rows, label, code) for t, rows, label in pages])


def _draw_slip(fig: Any, slip: Slip, bottom: float, height: float) -> None:
    top = bottom + height
    fig.text(0.06, top - 0.03, slip.heading, fontsize=11, weight="bold", color=INK)
    fig.text(
        0.94,
        top - 0.03,
        slip.label,
        fontsize=14,
        weight="bold",
        color=INK,
        ha="right",
    )
    columns = (0.06, 0.52)
    for x, player in zip(columns, slip.players, strict=True):
        # a long name is drawn smaller so that it stays in its half of the slip
        size = 12.0 if len(player) <= NAME_CHARS else max(5.0, 12.0 * NAME_CHARS / len(player))
        fig.text(x, top - 0.07, player, fontsize=size, weight="bold", color=INK)
        for k, label in enumerate(slip.fields):
            y = top - 0.105 - 0.03 * k
            fig.text(x, y, label, fontsize=9, color=INK)
            fig.add_artist(_line(x + 0.17, x + 0.41, y - 0.004))
    fig.text(0.06, bottom + 0.02, slip.note, fontsize=7.5, color=INK)
    if slip.scale:
        fig.text(0.06, bottom + 0.045, slip.scale, fontsize=7.5, color=INK)


def _line(x0: float, x1: float, y: float) -> Any:
    from matplotlib.lines import Line2D

    return Line2D([x0, x1], [y, y], linewidth=0.6, color=INK)


def slips_pdf(slips: Sequence[Slip], code: PageCode | None = None) -> bytes:
    """Return the match slips as an A4 PDF, three to a page with a dashed cut line.

    With `code`, each slip carries that QR code (the event's public page) at its bottom right.
    """
    import matplotlib
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    figures = []
    with matplotlib.rc_context(cast(Any, dict(RC_PARAMS))):
        for start in range(0, max(1, len(slips)), SLIPS_PER_PAGE):
            fig = Figure(figsize=A4_PORTRAIT_IN)
            height = 1 / SLIPS_PER_PAGE
            for k, slip in enumerate(slips[start : start + SLIPS_PER_PAGE]):
                bottom = 1 - height * (k + 1)
                _draw_slip(fig, slip, bottom, height)
                if code is not None:  # bottom right, clear of the fields
                    _draw_code(fig, code, 0.94, bottom + 0.085, 20.0)
                if k:
                    cut = bottom + height
                    fig.add_artist(
                        Line2D([0.02, 0.98], [cut, cut], linewidth=0.6, color=INK, linestyle="--")
                    )
            figures.append(fig)
        return _pdf(figures)
