"""What an event's reports say: standings, final placings, and the export of every result.

Examples
--------
>>> from tabletop.tournament import simulate_event
>>> event = simulate_event("destiny", 8, seed=3)
>>> rows = export_rows(event)
>>> rows[0][:4], len(rows) - 1 == sum(len(r.matches) + len(r.byes) for r in event.rounds)
(['round', 'kind', 'table', 'player_a'], True)
"""

from __future__ import annotations

import argparse
import csv
import io
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from tabletop.app.cli import EXIT_OK, UsageError, emit_json
from tabletop.app.common.csvfile import spreadsheet_cell
from tabletop.app.common.locking import FileUpdate, report_then_publish
from tabletop.app.common.paths import output_target
from tabletop.app.common.text import printable
from tabletop.app.event.eventfile import load_event
from tabletop.tournament import (
    Event,
    Placing,
    Standing,
    counted_tp,
    final_placings,
    score_match,
    standing_headings,
    standings,
    structure_of,
    swiss_round_count,
    tiebreakers,
)

__all__ = [
    "export_action",
    "export_rows",
    "export_text",
    "final_standings",
    "results_json",
    "settled_round",
    "standings_json",
    "standings_text",
]


def _standing_entry(event: Event, s: Standing) -> dict[str, Any]:
    entry: dict[str, Any] = {"rank": s.rank, "id": s.player.id, "name": s.player.name, "tp": s.tp}
    entry |= {t.field: t.json(s) for t in tiebreakers(event.regulation.tiebreakers)}
    entry |= {
        "wins": s.wins,
        "losses": s.losses,
        "byes": s.byes,
        "opponents": list(s.opponents),
        "dropped": s.dropped,
    }
    return entry


def standings_json(event: Event, rows: list[Standing], through: int) -> dict[str, Any]:
    """Return the JSON object of ``tabletop event standings --json``."""
    return {"round": through, "players": [_standing_entry(event, s) for s in rows]}


def standings_text(event: Event, rows: list[Standing], through: int) -> str:
    """Return the standings as a table, titled "Standings after round N" (names and ids)."""
    keys = event.regulation.tiebreakers
    headings = standing_headings(keys)
    head = ["rank", headings[0], "id", *headings[1:], "opponents"]
    table = [head]
    for s in rows:
        cells = s.cells(keys, decimals=4)
        # the player's name and id, from the TO's files
        cells[0:1] = [printable(cells[0]), printable(s.player.id)]
        table.append([str(s.rank), *cells, printable(" ".join(s.opponents))])
    widths = [max(len(r[k]) for r in table) for k in range(len(head) - 1)]
    title = f"Standings after round {through}" + (f", {event.name}" if event.name else "")
    lines = [printable(title)]
    for row in table:
        cells = [
            row[k].ljust(widths[k]) if k in (1, 2) else row[k].rjust(widths[k])
            for k in range(len(head) - 1)
        ]
        lines.append(("  ".join(cells) + "  " + row[-1]).rstrip())
    return "\n".join(lines)


def settled_round(event: Event) -> int:
    """Return the last Swiss round whose results are all in (the standings' round)."""
    played = swiss_round_count(event)
    last = event.rounds[-1] if event.rounds else None
    if last is not None and last.kind == "swiss" and any(not m.has_result for m in last.matches):
        played -= 1  # the round being played does not count until its results are in
    return played


# -- final placings ----------------------------------------------------------------------


def _placing_entry(event: Event, p: Placing) -> dict[str, Any]:
    swiss = _standing_entry(event, p.standing)
    rank = swiss.pop("rank")
    return {"place": p.place, "reached": p.reached, "seed": p.seed, "rank": rank} | swiss


def final_standings(event: Event, args: argparse.Namespace, out: TextIO) -> int:
    """Report the final placings of a complete event (``standings --final``)."""
    placings = final_placings(event)
    if args.top is not None:
        if args.top < 1:
            raise UsageError(f"--top is a number of players from 1, got {args.top}")
        placings = placings[: args.top]
    through = swiss_round_count(event)
    if args.json:
        players = [_placing_entry(event, p) for p in placings]
        emit_json({"round": through, "final": True, "players": players}, out)
        return EXIT_OK
    title = "Final placings" + (f", {event.name}" if event.name else "")
    cut = any(r.kind == "playoff" for r in event.rounds)
    rows: list[tuple[str, ...]] = [("place", "player", "id", "reached", "seed", "Swiss rank", "TP")]
    for p in placings:
        name = p.standing.player.name + (" (dropped)" if p.standing.dropped else "")
        seed = "" if p.seed is None else str(p.seed)
        rows.append(
            (
                *(str(p.place), name, p.standing.player.id, p.reached, seed),
                *(str(p.standing.rank), str(p.standing.tp)),
            )
        )
    if not cut:  # no playoff: no stage and no seed to show
        rows = [(r[0], r[1], r[2], r[5], r[6]) for r in rows]
    left = (1, 2, 3) if cut else (1, 2)
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    said = (
        f"Swiss standings after round {through}, then the playoff"
        if cut
        else f"no cut: the Swiss standings after round {through} are final"
    )
    lines = [title, said]
    for row in rows:
        cells = [
            row[k].ljust(widths[k]) if k in left else row[k].rjust(widths[k])
            for k in range(len(row))
        ]
        lines.append("  ".join(cells).rstrip())
    out.write("\n".join(printable(line) for line in lines) + "\n")
    return EXIT_OK


# -- export ------------------------------------------------------------------------------

_RESULT_COLUMNS = (
    "round", "kind", "table", "player_a", "player_b", "score_a", "score_b", "second_player",
    "winner", "games", "concession", "by_time", "tp_a", "tp_b", "mov", "tp_override",
)  # fmt: skip


def results_json(event: Event) -> list[dict[str, Any]]:
    """Return every match and bye of the event, round by round, as export rows.

    A match without a result has empty result fields; a bye has no ``player_b`` and the
    regulation's bye TP (Swiss) or none (a playoff bye goes through).
    """
    games = 1
    if any(r.kind == "playoff" for r in event.rounds):
        games = structure_of(event).playoff_games
    rows: list[dict[str, Any]] = []
    for number, round_ in enumerate(event.rounds, 1):
        played = games if round_.kind == "playoff" else 1
        for m in round_.matches:
            outcome = score_match(event.regulation, m, played)
            row: dict[str, Any] = dict.fromkeys(_RESULT_COLUMNS)
            row |= {"round": number, "kind": round_.kind, "table": m.table}
            row |= {"player_a": m.players[0], "player_b": m.players[1]}
            if m.scores is not None:
                row |= {"score_a": m.scores[0], "score_b": m.scores[1]}
            row |= {"second_player": m.second_player, "concession": m.concession}
            row |= {"games": list(m.games) if m.games else None, "by_time": m.by_time}
            if outcome is not None:
                tp = counted_tp(m, outcome)
                row |= {"winner": outcome.winner, "tp_a": tp[0], "tp_b": tp[1]}
                row |= {"mov": outcome.margin, "tp_override": m.tp_override}
            rows.append(row)
        for b in round_.byes:
            row = dict.fromkeys(_RESULT_COLUMNS)
            row |= {"round": number, "kind": round_.kind, "table": b.table, "player_a": b.player}
            row |= {"winner": b.player, "by_time": False}
            if round_.kind == "swiss":
                row |= {"tp_a": event.regulation.bye_tp, "mov": event.regulation.bye_mov}
            rows.append(row)
    return rows


def export_rows(event: Event) -> list[list[str]]:
    """Return the results as CSV rows, a header first (games joined by spaces)."""
    rows = [list(_RESULT_COLUMNS)]
    for row in results_json(event):
        cells = []
        for key in _RESULT_COLUMNS:
            value = row[key]
            if value is None:
                cells.append("")
            elif isinstance(value, list):
                cells.append(" ".join(value))
            elif isinstance(value, bool):
                cells.append("true" if value else "")
            else:
                cells.append(str(value))
        rows.append(cells)
    return rows


def _standings_csv(event: Event, through: int) -> str:
    buffer = io.StringIO()
    writer = _SafeWriter(buffer)  # names and ids are the players' own text
    ranking = tiebreakers(event.regulation.tiebreakers)
    writer.writerow(
        [
            *("rank", "id", "name", "tp"),
            *(t.field for t in ranking),
            *("wins", "losses", "byes", "dropped"),
        ]
    )
    for s in standings(event, through):
        marks = [t.text(s, 6) for t in ranking]
        writer.writerow(
            [
                *(s.rank, s.player.id, s.player.name, s.tp),
                *marks,
                *(s.wins, s.losses, s.byes, "true" if s.dropped else ""),
            ]
        )
    return buffer.getvalue()


def _results_csv(event: Event) -> str:
    buffer = io.StringIO()
    _SafeWriter(buffer).writerows(export_rows(event))
    return buffer.getvalue()


def _export_text(event: Event, fmt: str, table: str = "standings") -> str:
    through = settled_round(event)
    if fmt == "json":
        ranked = standings_json(event, standings(event, through), through)
        buffer = io.StringIO()
        emit_json(
            {
                "event": event.name,
                "game": event.game,
                "regulation": event.regulation_id,
                "round": through,
                "standings": ranked["players"],
                "results": results_json(event),
            },
            buffer,
        )
        return buffer.getvalue()
    return _standings_csv(event, through) if table == "standings" else _results_csv(event)


#: The files ``export --format csv -o DIR`` writes, one table each.
CSV_FILES = ("standings.csv", "results.csv")


def _is_folder(output: str, fmt: str) -> bool:
    """Whether ``-o`` names a folder for the CSV tables: one that exists, or no .csv name."""
    path = Path(output)
    return fmt == "csv" and (path.is_dir() or output.endswith(("/", os.sep)) or not path.suffix)


def _export_folder(args: argparse.Namespace, source: str, event: Event, out: TextIO) -> int:
    """Write ``standings.csv`` and ``results.csv`` into the folder ``-o`` names."""
    folder = Path(args.output)
    texts = [_export_text(event, "csv", "standings"), _results_csv(event)]
    paths = [folder / name for name in CSV_FILES]
    if not folder.exists():
        if not folder.parent.is_dir():
            raise UsageError(f"-o {args.output}: the folder {str(folder.parent)!r} does not exist")
        folder.mkdir()
    for path in paths:
        output_target(path, inputs=[source], force=args.force)
    updates = [FileUpdate(path) for path in paths]
    try:
        for update, text in zip(updates, texts, strict=True):
            update.stage(text, inputs=[source], force=args.force, refuse_read_only=False)
        report = io.StringIO()
        if args.json:
            written = [str(p) for p in paths]
            emit_json({"output": written, "format": "csv"}, report)
        else:
            report.write(printable(f"wrote {paths[0]} and {paths[1]}") + "\n")
        updates[0].finish(report.getvalue(), out)
        updates[1].finish("", out)
    finally:
        for update in updates:
            update.discard()
    return EXIT_OK


def export_text(event: Event, fmt: str) -> str:
    """Return ``event export --format FMT`` of `event` (``json`` or ``csv``)."""
    return _export_text(event, fmt)


class _SafeWriter:
    """A CSV writer whose every cell is :func:`spreadsheet_cell`: never a formula."""

    def __init__(self, buffer: io.StringIO) -> None:
        self._writer = csv.writer(buffer, lineterminator="\n")

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([spreadsheet_cell(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        for row in rows:
            self.writerow(row)


def export_action(args: argparse.Namespace, operands: list[str], out: TextIO) -> int:
    """Write the standings and every result as CSV or JSON (``tabletop event export``).

    CSV is one table per file: ``--table standings|results`` to the standard output or a
    ``.csv`` file, or both as ``standings.csv`` and ``results.csv`` in the folder ``-o``
    names.
    """
    (source,) = operands
    if args.format is None:
        raise UsageError("export needs --format csv|json")
    if args.table is not None and args.format != "csv":
        raise UsageError("--table chooses one CSV table; JSON holds both")
    if args.output is not None and _is_folder(args.output, args.format):
        if args.table is not None:
            raise UsageError("-o DIR writes both tables; --table goes with one file")
        return _export_folder(args, source, load_event(source), out)
    if args.output is not None:
        output_target(args.output, inputs=[source], force=args.force)
    text = _export_text(load_event(source), args.format, args.table or "standings")
    if args.output is None:
        out.write(text)
        return EXIT_OK

    def publish(update: FileUpdate | None, report: TextIO) -> int:
        assert update is not None
        update.stage(text, inputs=[source], force=args.force, refuse_read_only=False)
        if args.json:
            emit_json({"output": args.output, "format": args.format}, report)
        else:
            report.write(printable(f"wrote {args.output}") + "\n")
        return EXIT_OK

    return report_then_publish(args.output, out, publish)
