"""Organized play: run an Armada or Destiny event kept in one TOML or JSON file.

  new --game G [--players CSV] [--seed N] -o EVENT     a new event
  announce EVENT                                       Swiss rounds, cut, playoff, round time
  add EVENT ID [--name N] [--faction F] [--club C]     register a player (late: losses before)
  pair EVENT [-o OUT]                                  pair the next round (Swiss or playoff)
  pending EVENT                                        the current round's tables still playing
  result EVENT ROUND TABLE (--scores A B | --score ID=N --score ID=N) [--second ID]
         [--concession ID] | --winner ID | --games A B [A] [--by-time]
         [--tp A B [--override-tp REASON]] [--replace] | --clear
         [--defeated ID]
  drop EVENT ID [--after ROUND]  /  return EVENT ID     (ID: an id, a name or a prefix)
  unpair EVENT                                         remove the current round's pairing
  standings EVENT [--round N] [--top N] [--final]      rank, TP, tiebreakers, record; placings
  check EVENT                                          audit the event (exit 1 on findings)
  export EVENT --format csv|json [-o FILE]             standings and every result
  print EVENT --what pairings|standings|slips -o FILE.pdf|html   A4 printables
  render EVENT -o PICTURE                              standings and bracket as a picture
  serve EVENT [--host H] [--port N] [--public-url URL] [--read-only]   the event in the browser
  codes EVENT [--player ID] [--reset ID]               the players' codes (secrets file)

new, add, pair, unpair, result, drop and return write the event back atomically under its lock,
in place unless -o names another file; on any error nothing is written.
"""

from __future__ import annotations

import argparse
import io
import os
import textwrap
from collections.abc import Callable
from typing import Any, TextIO

from tabletop.app.cli import (
    EXIT_OK,
    EXIT_VIOLATIONS,
    UsageError,
    add_action,
    add_actions,
    emit_json,
)
from tabletop.app.common.files import picture_output
from tabletop.app.common.locking import FileUpdate, locked_update, report_then_publish
from tabletop.app.common.paths import output_target, same_file
from tabletop.app.common.text import printable
from tabletop.app.event.console import (
    add_action as _add,
)
from tabletop.app.event.console import (
    announce_action,
    pending_action,
    result_action,
    save_event,
)
from tabletop.app.event.eventfile import (
    EventFileError,
    checked_event_text,
    load_event,
    tournament_error,
)
from tabletop.app.event.playersfile import read_players
from tabletop.app.event.printables import PRINT_WHATS, print_action
from tabletop.app.event.reports import (
    export_action,
    final_standings,
    settled_round,
    standings_json,
    standings_text,
)
from tabletop.app.event.seats import drop_action, return_action, shown, unpair_action
from tabletop.app.event.server import command as server_command
from tabletop.plots.formats import PICTURE_OUTPUTS, PICTURE_SUFFIXES
from tabletop.tournament import (
    TIERS,
    Event,
    Pairing,
    TournamentError,
    audit,
    get_regulation,
    pair_next,
    stage_title,
    standings,
)

__all__ = [
    "ACTIONS",
    "WHY_WIDTH",
    "handler",
    "pairing_text",
    "register",
    "run",
    "standings_json",
    "standings_text",
]

#: The sub-commands of ``tabletop event``.
ACTIONS = (
    "new", "pair", "result", "drop", "return", "standings", "check", "render", "add", "pending",
    "announce", "export", "print", "unpair", "serve", "codes",
)  # fmt: skip
_OPERANDS = {
    "new": (),
    "pair": ("EVENT",),
    "result": ("EVENT", "ROUND", "TABLE"),
    "drop": ("EVENT", "ID"),
    "return": ("EVENT", "ID"),
    "standings": ("EVENT",),
    "check": ("EVENT",),
    "render": ("EVENT",),
    "add": ("EVENT", "ID"),
    "pending": ("EVENT",),
    "announce": ("EVENT",),
    "export": ("EVENT",),
    "print": ("EVENT",),
    "unpair": ("EVENT",),
    "serve": ("EVENT",),
    "codes": ("EVENT",),
}


def _writes(action: argparse.ArgumentParser, what: str) -> None:
    action.add_argument("-o", "--output", help=what)
    action.add_argument(
        "--force", action="store_true", help="replace an existing -o file (never an input)"
    )


def _event_operand(action: argparse.ArgumentParser) -> None:
    action.add_argument("event", metavar="EVENT", help="the event file (.toml or .json)")


def _register_new(actions: argparse._SubParsersAction[Any]) -> None:
    new = add_action(actions, "new", "a new event", "Start a new event file (-o EVENT).")
    _writes(new, "the event file to write")
    new.add_argument("--game", choices=("armada", "destiny"), help="the game")
    new.add_argument("--regulation", help="a regulation id (default: the game's)")
    new.add_argument("--players", help="a CSV with a header id,name[,faction,club,...]")
    new.add_argument("--name", default="", help="the event's name")
    new.add_argument("--seed", type=int, default=0, help="the seed of random choices (default 0)")
    new.add_argument("--tier", choices=TIERS, default="competitive", help="the tier")
    new.add_argument("--structure", help="basic | advanced | custom (Destiny)")
    new.add_argument("--swiss-rounds", type=int, help="Swiss rounds (informal, custom)")
    new.add_argument("--cut", type=int, help="players in the cut (0: none)")
    new.add_argument("--playoff-games", type=int, choices=(1, 3), help="games per playoff match")
    new.add_argument("--round-minutes", type=int, help="the round time (default: the regulation's)")


def _register_result(actions: argparse._SubParsersAction[Any]) -> None:
    result = add_action(
        actions,
        "result",
        "enter a match's result",
        "Enter the result of the match at TABLE in ROUND: --scores, --winner or --games.",
    )
    _event_operand(result)
    result.add_argument("round", metavar="ROUND", help="the round, from 1")
    result.add_argument("table", metavar="TABLE", help="the table, from 1")
    _writes(result, "file to write (default: the event, in place)")
    result.add_argument("--scores", type=int, nargs=2, metavar=("A", "B"), help="final scores")
    result.add_argument("--second", help="the second player (decides equal scores)")
    result.add_argument("--winner", help="the winner of a single game")
    result.add_argument("--games", nargs="+", metavar="ID", help="each game's winner")
    result.add_argument("--concession", help="the player who conceded")
    result.add_argument(
        "--defeated",
        help="the player whose every ship (but flotillas) was destroyed: One Player Defeated",
    )
    result.add_argument("--by-time", action="store_true", help="the last game ended on time")
    result.add_argument("--tp", type=int, nargs=2, metavar=("A", "B"), help="the TP written down")
    result.add_argument(
        "--score",
        action="append",
        metavar="ID=N",
        help="a player's final score by id (Armada; once per player, in any order)",
    )
    result.add_argument(
        "--override-tp",
        metavar="REASON",
        help="keep a --tp that differs from the regulation's, with the TO's reason",
    )
    result.add_argument("--replace", action="store_true", help="replace an entered result")
    result.add_argument("--clear", action="store_true", help="remove the table's result")


def _register_console(actions: argparse._SubParsersAction[Any]) -> None:
    add = add_action(
        actions,
        "add",
        "register a player, late if rounds have been paired",
        "Register player ID. After round k the player arrives for round k + 1 and every "
        "round missed is a loss (0 TP, 0 MoV, not a round played).",
    )
    _event_operand(add)
    add.add_argument("id", metavar="ID", help="the new player's id")
    _writes(add, "file to write (default: the event, in place)")
    add.add_argument("--name", help="the player's name (default: the id)")
    add.add_argument("--faction", help="the player's faction (Armada: rebel | imperial)")
    add.add_argument("--club", help="the player's club")
    pending = add_action(actions, "pending", "the current round's tables without a result")
    _event_operand(pending)
    announce = add_action(actions, "announce", "Swiss rounds, cut, playoff games and round time")
    _event_operand(announce)
    export = add_action(actions, "export", "standings and every result as CSV or JSON")
    _event_operand(export)
    export.add_argument("--format", choices=("csv", "json"), help="csv or json")
    export.add_argument(
        "--table",
        choices=("standings", "results"),
        help="CSV: the one table to write (default standings; -o DIR writes both)",
    )
    _writes(export, "the file to write, or (CSV) a folder for both tables (default: stdout)")
    print_ = add_action(actions, "print", "pairings, standings or match slips on A4")
    _event_operand(print_)
    print_.add_argument("--what", choices=PRINT_WHATS, help="what to print")
    _writes(print_, "the file to write: .pdf or .html")


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's actions and their arguments."""
    actions = add_actions(parser)
    _register_new(actions)
    pair = add_action(actions, "pair", "pair the next round (Swiss or playoff)")
    _event_operand(pair)
    _writes(pair, "file to write (default: the event, in place)")
    _register_result(actions)
    drop = add_action(actions, "drop", "drop a player")
    _event_operand(drop)
    drop.add_argument("id", metavar="ID", help="the player's id, name or a unique prefix")
    _writes(drop, "file to write (default: the event, in place)")
    drop.add_argument("--after", type=int, help="the last round played (default: the last)")
    back = add_action(actions, "return", "bring a dropped player back")
    _event_operand(back)
    back.add_argument("id", metavar="ID", help="the player's id, name or a unique prefix")
    _writes(back, "file to write (default: the event, in place)")
    again = add_action(
        actions, "unpair", "remove the current round's pairing while it has no result"
    )
    _event_operand(again)
    _writes(again, "file to write (default: the event, in place)")
    table = add_action(actions, "standings", "rank, TP, tiebreakers, record")
    _event_operand(table)
    table.add_argument("--round", type=int, help="as of this Swiss round")
    table.add_argument("--top", type=int, help="show the first N players only")
    table.add_argument("--final", action="store_true", help="final placings after the playoff")
    audit_ = add_action(actions, "check", "audit the event (exit 1 on findings)")
    _event_operand(audit_)
    render = add_action(actions, "render", "standings and bracket as a picture")
    _event_operand(render)
    _writes(render, f"the picture to write: {PICTURE_SUFFIXES}")
    _register_console(actions)
    server_command.register(actions)


def _operands(args: argparse.Namespace) -> list[str]:
    return [str(getattr(args, name.lower())) for name in _OPERANDS[args.action]]


def _load(path: str) -> Event:
    return load_event(path)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the command."""
    operands = _operands(args)
    source = operands[0] if operands else (args.output or "<event>")
    try:
        handler = _HANDLERS[args.action]
        if args.action in _WRITERS:
            return _run_writer(handler, args, operands, out)
        return handler(args, operands, out)
    except TournamentError as error:
        raise tournament_error(error, source) from None


# -- one writer at a time (tabletop.app.common.locking) ------------------------------------------

#: The actions that write an event file.
_WRITERS = frozenset({"new", "pair", "result", "drop", "return", "add", "unpair"})


def _run_writer(
    handler: Callable[[argparse.Namespace, list[str], TextIO], int],
    args: argparse.Namespace,
    operands: list[str],
    out: TextIO,
) -> int:
    """Run a writing action under the written file's lock: read, change, report, publish.

    The handler reads the event under the lock, stages the new file and writes its report
    to a buffer; the report reaches `out` and is flushed before the new file replaces the
    old, so a failure anywhere (a bad value, a full or closed output) changes nothing.
    """
    source = operands[0] if operands else None
    written = args.output if args.output is not None else source
    if written is None or (source is not None and same_file(written, source)):
        written = source
    if written is None:
        return handler(args, operands, out)  # new without -o: a usage error, nothing to lock
    command = " ".join(["tabletop", "event", args.action, *operands])
    with locked_update(written, command=command) as update:
        args.event_update = update
        report = io.StringIO()
        code = handler(args, operands, report)
        update.finish(report.getvalue(), out)
        return code


# -- new ---------------------------------------------------------------------------------


def _new(args: argparse.Namespace, operands: list[str], out: TextIO) -> int:
    if args.game is None:
        raise UsageError("new needs --game armada|destiny")
    if args.output is None:
        raise UsageError("new needs -o EVENT")
    output_target(args.output, force=True)  # a name no file can have, before anything is read
    if os.path.lexists(args.output) and not args.force:
        # Said before the players are read, in the event file's own words.
        raise EventFileError(
            "already exists; a new event never overwrites a file (--force replaces it)",
            file=args.output,
        )
    regulation = get_regulation(args.regulation or args.game)
    if regulation.game != args.game:
        raise UsageError(f"--regulation {regulation.id} is for {regulation.game}, not {args.game}")
    if args.round_minutes is not None and not 1 <= args.round_minutes <= 24 * 60:
        raise UsageError(f"--round-minutes is from 1 to 1440, got {args.round_minutes}")
    players = read_players(args.players, regulation.id) if args.players else ()
    event = Event(
        args.game,
        regulation.id,
        args.name,
        args.seed,
        players,
        tier=args.tier,
        structure=args.structure,
        swiss_rounds=args.swiss_rounds,
        cut=args.cut,
        playoff_games=args.playoff_games,
        round_minutes=args.round_minutes,
    )
    update: FileUpdate = args.event_update
    text = checked_event_text(event, args.output)
    update.stage(text, inputs=[args.players] if args.players else [], force=args.force)
    if args.json:
        emit_json(
            {
                "event": args.output,
                "game": event.game,
                "regulation": regulation.id,
                "players": len(players),
            },
            out,
        )
    else:
        said = f"{args.output}: a new {regulation.title} event, {len(players)} players"
        out.write(printable(said) + "\n")
    return EXIT_OK


# -- pair --------------------------------------------------------------------------------


#: The widest a pairing line's reason runs before it wraps under itself.
WHY_WIDTH = 80


def pairing_text(event: Event, pairing: Pairing) -> str:
    """Return the pairing as a table a TO can read aloud: names with ids, and why.

    A long reason wraps under its column, so no line runs past the table's width plus
    :data:`WHY_WIDTH` characters.
    """
    # Names come from the TO's files: escaped, so a name is never a terminal command.
    name = {p.id: printable(shown(event, p.id)) for p in event.players}
    stage = stage_title(pairing.kind, pairing.round, len(pairing.pairs) + len(pairing.byes))
    title = stage + (" (swiss)" if pairing.kind == "swiss" else "")
    title = printable(title + (f", {event.name}" if event.name else ""))
    rows = [("table", "player", "rank", "TP", "", "player", "rank", "TP", "why")]
    for p in pairing.pairs:
        (a, b), (ra, rb), (ta, tb) = p.players, p.ranks, p.tp
        rows.append(
            (
                *(str(p.table), name[a], str(ra), str(ta), "v"),
                *(name[b], str(rb), str(tb), printable(p.explanation)),
            )
        )
    widths = [max(len(r[k]) for r in rows) for k in range(8)]
    lines = [title]
    for row in rows:
        cells = [
            row[k].rjust(widths[k]) if k in (0, 2, 3, 6, 7) else row[k].ljust(widths[k])
            for k in range(8)
        ]
        lead = "  ".join(cells) + "  "
        wrapped = textwrap.wrap(row[8], WHY_WIDTH, break_on_hyphens=False) or [""]
        lines.append(lead + wrapped[0])
        lines.extend(" " * len(lead) + more for more in wrapped[1:])
    for bye in pairing.byes:
        at = f" (table {bye.table})" if bye.table is not None else ""
        said = f"bye{at}: {name[bye.player]} - {printable(bye.reason)}"
        wrapped = textwrap.wrap(said, 2 * WHY_WIDTH, break_on_hyphens=False)
        lines.append(wrapped[0])
        lines.extend("    " + more for more in wrapped[1:])
    lines.extend(f"WARNING: {printable(w)}" for w in pairing.warnings)
    return "\n".join(line.rstrip() for line in lines)


def _pair(args: argparse.Namespace, operands: list[str], out: TextIO) -> int:
    (source,) = operands
    event = _load(source)
    pairing = pair_next(event)
    updated = event.with_rounds((*event.rounds, pairing.to_round()))
    save_event(updated, args, source)
    if args.json:
        emit_json(pairing.to_json(), out)
    else:
        out.write(pairing_text(event, pairing) + "\n")
    return EXIT_OK


# -- standings, check, render ------------------------------------------------------------


def _standings(args: argparse.Namespace, operands: list[str], out: TextIO) -> int:
    (source,) = operands
    event = _load(source)
    if args.final:
        if args.round is not None:
            raise UsageError("--final places the finished event; it takes no --round")
        return final_standings(event, args, out)
    played = settled_round(event)  # the round being played counts once its results are in
    through = played if args.round is None else args.round
    if not 0 <= through <= played:
        raise UsageError(f"--round is a Swiss round from 0 to {played}, got {through}")
    # --round N: as printed after round N, without anyone registered since
    rows = standings(event, through, arrived_only=args.round is not None)
    if args.top is not None:
        if args.top < 1:
            raise UsageError(f"--top is a number of players from 1, got {args.top}")
        rows = rows[: args.top]
    if args.json:
        emit_json(standings_json(event, rows, through), out)
    else:
        out.write(standings_text(event, rows, through) + "\n")
    return EXIT_OK


def _check(args: argparse.Namespace, operands: list[str], out: TextIO) -> int:
    (source,) = operands
    event = _load(source)
    report = audit(event)
    if args.json:
        emit_json(report.to_json(), out)
    else:
        verdict = "legal" if report.legal else f"{len(report.findings)} finding(s)"
        lines = [f"{source}: {event.regulation.title}, {len(event.rounds)} round(s): {verdict}"]
        for f in report.findings:
            where = " ".join(
                part
                for part in (
                    f"round {f.round}" if f.round else "",
                    f"table {f.table}" if f.table else "",
                )
                if part
            )
            lines.append(f"  {where or 'event'}: {f.rule}: {f.message}")
        lines += [f"  warning: {w.rule}: {w.message}" for w in report.warnings]
        out.write("\n".join(printable(line) for line in lines) + "\n")
    return EXIT_OK if report.legal else EXIT_VIOLATIONS


def _render(args: argparse.Namespace, operands: list[str], out: TextIO) -> int:
    (source,) = operands
    if args.output is None:
        raise UsageError(f"render needs -o {PICTURE_OUTPUTS}")
    fmt = picture_output(args.output, inputs=[source], force=args.force, input_kind="event")
    event = _load(source)
    from tabletop.plots.bracket import event_picture  # matplotlib only for this command

    picture = event_picture(event, fmt)

    def publish(update: FileUpdate | None, report: TextIO) -> int:
        # The picture gets its name after the report is written: a report that cannot
        # be written leaves no picture.
        assert update is not None
        update.stage(picture, inputs=[source], force=args.force, refuse_read_only=False)
        if args.json:
            emit_json({"output": args.output, "format": fmt}, report)
        else:
            report.write(printable(f"wrote {args.output}") + "\n")
        return EXIT_OK

    return report_then_publish(args.output, out, publish)


def handler(action: str) -> Callable[[argparse.Namespace, list[str], TextIO], int]:
    """Return the function that runs ``tabletop event ACTION`` (what the server calls)."""
    return _HANDLERS[action]


_HANDLERS = {
    "new": _new,
    "pair": _pair,
    "result": result_action,
    "drop": drop_action,
    "return": return_action,
    "unpair": unpair_action,
    "standings": _standings,
    "check": _check,
    "render": _render,
    "add": _add,
    "pending": pending_action,
    "announce": announce_action,
    "export": export_action,
    "print": print_action,
    "serve": server_command.serve_action,
    "codes": server_command.codes_action,
}
