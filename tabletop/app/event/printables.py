"""``tabletop event print``: pairings, standings and match slips on A4, as PDF or HTML.

The content is built here from the event; :mod:`tabletop.plots.printables` lays a PDF
out, and the HTML is written here (one page, with A4 print rules).

Examples
--------
>>> from tabletop.tournament import simulate_event
>>> event = simulate_event("armada", 6, seed=2)
>>> [t.subtitle for t in pairing_tables(event)]
['by table', 'by name']
>>> standings_table(event).title
'Standings after round 3'
"""

from __future__ import annotations

import argparse
import html
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from tabletop.app.cli import EXIT_OK, UsageError, emit_json
from tabletop.app.common.extras import require_plots
from tabletop.app.common.locking import FileUpdate, report_then_publish
from tabletop.app.common.paths import output_target
from tabletop.app.common.text import printable
from tabletop.app.event.eventfile import EventFileError, load_event
from tabletop.app.event.reports import settled_round
from tabletop.app.event.seats import shown
from tabletop.tournament import Event, stage_name, standing_headings, standings, structure_of

if TYPE_CHECKING:
    from tabletop.plots.printables import PageCode, PrintTable, Slip

__all__ = [
    "PRINT_WHATS",
    "pairing_tables",
    "print_action",
    "printable_data",
    "slips_of",
    "standings_table",
]

#: What ``event print`` prints.
PRINT_WHATS = ("pairings", "standings", "slips")
_FORMATS = {".pdf": "pdf", ".html": "html", ".htm": "html"}


def _title(event: Event, what: str) -> str:
    return what + (f" - {event.name}" if event.name else "")


def pairing_tables(event: Event) -> list[PrintTable]:
    """Return the current round's pairings by table and, for finding one's seat, by name."""
    from tabletop.plots.printables import PrintTable  # the plots package only to print

    if not event.rounds:
        raise UsageError("no round has been paired yet: nothing to print")
    number = len(event.rounds)
    round_ = event.rounds[-1]
    name = {p.id: shown(event, p.id) for p in event.players}
    tp = {s.player.id: s.tp for s in standings(event, settled_round(event))}
    by_table = [
        (str(m.table), name[a], str(tp[a]), "v", name[b], str(tp[b]))
        for m in round_.matches
        for a, b in (m.players,)
    ]
    by_table += [
        ("" if b.table is None else str(b.table), name[b.player], str(tp[b.player]), "bye", "", "")
        for b in round_.byes
    ]
    seats = []
    for m in round_.matches:
        a, b = m.players
        seats += [(name[a], str(m.table), name[b]), (name[b], str(m.table), name[a])]
    seats += [(name[b.player], "bye", "") for b in round_.byes]
    seats.sort(key=lambda row: (row[0].casefold(), row[0]))
    stage = stage_name(event, number)
    title = _title(
        event,
        f"{stage} ({round_.kind}) pairings" if round_.kind == "swiss" else f"{stage} pairings",
    )
    return [
        PrintTable(
            title, "by table", ("table", "player", "TP", "", "opponent", "TP"), tuple(by_table)
        ),
        PrintTable(title, "by name", ("player", "table", "opponent"), tuple(seats)),
    ]


def standings_table(event: Event) -> PrintTable:
    """Return the full standings after the last round whose results are all in."""
    from tabletop.plots.printables import PrintTable

    through = settled_round(event)
    keys = event.regulation.tiebreakers
    rows = []
    for s in standings(event, through):
        cells = s.cells(keys, decimals=3)
        rows.append((str(s.rank), cells[0], s.player.id, *cells[1:]))
    headings = standing_headings(keys)
    columns = ("rank", headings[0], "id", *headings[1:])
    subtitle = ", ".join(part for part in (event.name, event.regulation.title) if part)
    return PrintTable(f"Standings after round {through}", subtitle, columns, tuple(rows))


def slips_of(event: Event, codes: Mapping[str, str] | None = None) -> list[Slip]:
    """Return one match slip per table of the current round, with the fields to fill in.

    With `codes` (the secrets file's, player id → code), each slip's note gives both
    players' codes for the player's page (``/me``) of ``tabletop event serve``.
    """
    from tabletop.plots.printables import Slip

    if not event.rounds:
        raise UsageError("no round has been paired yet: no slips to print")
    number = len(event.rounds)
    round_ = event.rounds[-1]
    name = {p.id: shown(event, p.id) for p in event.players}
    regulation = event.regulation
    fields: tuple[str, ...]
    if regulation.result_entry == "scores":
        fields = ("final score", "TP", "second player (tick)", "conceded (tick)", "signature")
        note = "Final scores as the rules give them; equal scores: the second player wins."
    elif round_.kind == "playoff" and _best_of_three(event):
        fields = ("won game 1 (tick)", "won game 2 (tick)", "won game 3 (tick)", "signature")
        note = "Best of three: the first to two game wins. Game ended on time: say so."
    else:
        fields = ("winner (tick)", "conceded (tick)", "signature")
        note = "One game: tick the winner; both players sign."
    if regulation.defeat_win:
        fields = (*fields[:-1], "all ships but flotillas destroyed (tick)", fields[-1])
    heading = event.name or regulation.title
    stage = stage_name(event, number) if round_.kind == "playoff" else ""
    scale = regulation.margin_table_text()

    def noted(players: tuple[str, str]) -> str:
        if not codes:
            return note
        given = [f"{name[p]}: {codes[p]}" for p in players if p in codes]
        return note + " Codes for the player's page (/me): " + ", ".join(given) + "."

    return [
        Slip(
            heading,
            number,
            m.table,
            (name[m.players[0]], name[m.players[1]]),
            fields,
            noted(m.players),
            stage,
            scale,
        )
        for m in round_.matches
    ]


def _best_of_three(event: Event) -> bool:
    return structure_of(event).playoff_games == 3


def _html_table(table: PrintTable) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in table.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in table.rows
    )
    return (
        f"<section><h1>{html.escape(table.title)}</h1><p>{html.escape(table.subtitle)}</p>"
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></section>"
    )


def _html_slip(slip: Slip) -> str:
    cells = "".join(
        f"<td><h2>{html.escape(player)}</h2>"
        + "".join(f"<p>{html.escape(field)}: ________________</p>" for field in slip.fields)
        + "</td>"
        for player in slip.players
    )
    return (
        f'<section class="slip"><h1>{html.escape(slip.heading)} - {html.escape(slip.label)}'
        f"</h1><table><tr>{cells}</tr></table>"
        + (f"<p><small>{html.escape(slip.scale)}</small></p>" if slip.scale else "")
        + f"<p><small>{html.escape(slip.note)}</small></p></section>"
    )


_STYLE = (
    "@page { size: A4; margin: 15mm; } body { font-family: sans-serif; font-size: 10pt; } "
    "section { page-break-after: always; } table { border-collapse: collapse; width: 100%; } "
    "th, td { text-align: left; padding: 2px 6px; } tbody tr:nth-child(even) { background: #eee; } "
    ".slip { page-break-after: auto; page-break-inside: avoid; border-bottom: 1px dashed #000; "
    "padding: 8mm 0; } .slip td { vertical-align: top; width: 50%; }"
)


def _html(parts: list[str], title: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>\n"
        + "\n".join(parts)
        + "\n</body></html>\n"
    )


def _printable(
    event: Event,
    what: str,
    fmt: str,
    codes: Mapping[str, str] | None = None,
    url: str | None = None,
) -> str | bytes:
    if what == "slips":
        slips = slips_of(event, codes)
        if fmt == "html":
            return _html([_html_slip(s) for s in slips], "match slips")
        from tabletop.plots.printables import slips_pdf

        return slips_pdf(slips, _page_code(url))
    tables = pairing_tables(event) if what == "pairings" else [standings_table(event)]
    if fmt == "html":
        return _html([_html_table(t) for t in tables], tables[0].title)
    from tabletop.plots.printables import table_pages_pdf

    return table_pages_pdf(tables, _page_code(url) if what == "pairings" else None)


def _page_code(url: str | None) -> PageCode | None:
    """Return the QR code of the public page at `url` for a PDF (None: no address, no segno)."""
    if not url:
        return None
    from tabletop.app.event.server.qr import qr_modules
    from tabletop.plots.printables import PageCode

    modules = qr_modules(url)
    return None if modules is None else PageCode(url, modules)


def printable_data(
    event: Event,
    what: str,
    fmt: str,
    codes: Mapping[str, str] | None = None,
    url: str | None = None,
) -> str | bytes:
    """Return ``event print --what WHAT`` of `event` as HTML text or PDF bytes (`fmt`).

    With `url` (the public page's address, once ``event serve`` has run), the PDF's pairings
    and slips carry its QR code.
    """
    return _printable(event, what, fmt, codes, url)


def _secrets(source: str) -> tuple[dict[str, str] | None, str | None]:
    """Return the players' codes and the public page's address (``event serve``), if kept."""
    from tabletop.app.event.server.secretsfile import read_secrets, secrets_path

    found = read_secrets(secrets_path(source))
    return (None, None) if found is None else (found.codes, found.public_url)


def print_action(args: argparse.Namespace, operands: list[str], out: TextIO) -> int:
    """Write pairings, standings or match slips to an A4 PDF or HTML file."""
    (source,) = operands
    if args.what is None:
        raise UsageError(f"print needs --what {'|'.join(PRINT_WHATS)}")
    if args.output is None:
        raise UsageError("print needs -o FILE.pdf or FILE.html")
    fmt = _FORMATS.get(Path(args.output).suffix.lower())
    if fmt is None:
        raise EventFileError(
            "expected a .pdf or .html file (the suffix chooses the format)", file=args.output
        )
    if fmt == "pdf":
        require_plots()
    output_target(args.output, inputs=[source], force=args.force, input_kind="event")
    codes, url = _secrets(source)
    data = _printable(load_event(source), args.what, fmt, codes, url)
    if isinstance(data, str):  # HTML: the QR code of the public page, when served
        from tabletop.app.event.server.qr import with_qr

        data = with_qr(data, url)

    def publish(update: FileUpdate | None, report: TextIO) -> int:
        assert update is not None
        update.stage(data, inputs=[source], force=args.force, refuse_read_only=False)
        if args.json:
            emit_json({"output": args.output, "format": fmt, "what": args.what}, report)
        else:
            report.write(printable(f"wrote {args.what} to {args.output}") + "\n")
        return EXIT_OK

    return report_then_publish(args.output, out, publish)
