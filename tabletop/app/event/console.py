"""The TO's console: results by name, cleared results, late arrivals, open tables.

It also announces the structure before round 1.

Each ``*_action`` is a handler of ``tabletop event`` (see :mod:`tabletop.app.event.command`):
it takes the parsed arguments, the operands and the report stream, and an action that
changes the event stages the new file in the locked update ``args.event_update``.

Examples
--------
>>> from tabletop.tournament import ARMADA_2015, Match, score_match
>>> m = Match(3, ("silvia", "andrea"), scores=(100, 140))
>>> result_sentence(m, score_match(ARMADA_2015, m))
'andrea beats silvia 140–100: 6 / 4'
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any, TextIO

from tabletop.app.cli import EXIT_OK, UsageError, emit_json
from tabletop.app.common.locking import FileUpdate
from tabletop.app.common.paths import same_file
from tabletop.app.common.text import printable
from tabletop.app.event.eventfile import EventFileError, checked_event_text, load_event
from tabletop.tournament import (
    Event,
    Match,
    Outcome,
    Player,
    Round,
    TournamentError,
    add_player,
    counted_tp,
    pending_tables,
    round_is_open,
    score_match,
    structure_of,
)

__all__ = [
    "add_action",
    "announce_action",
    "pending_action",
    "positive_number",
    "result_action",
    "result_sentence",
    "save_event",
]


def save_event(event: Event, args: argparse.Namespace, source: str) -> str:
    """Stage the event in the command's locked update: in place, or at ``-o``."""
    # The event file is the document being kept: updating it in place is the point. Any
    # other -o is a new file, replaced only with --force, and never the source. The text
    # is published after the report is written (see event.command._run_writer).
    update: FileUpdate = args.event_update
    if args.output is None or same_file(args.output, source):
        update.stage(checked_event_text(event, source), path=source, force=True)
        return source
    text = checked_event_text(event, args.output)
    update.stage(text, path=args.output, inputs=[source], force=args.force)
    return str(args.output)


def positive_number(text: str, what: str) -> int:
    """Return an operand as a number from 1; a usage error names `what` otherwise."""
    # ASCII digits only (int() refuses some of what isdigit() accepts), and no more than
    # an event file can hold: int() of thousands of digits is refused, not read.
    if not (text.isascii() and text.isdigit()) or len(text) > 18 or int(text) < 1:
        shown = text if len(text) <= 30 else f"{text[:20]}… ({len(text)} characters)"
        raise UsageError(f"{what} is a number from 1 to {10**18 - 1}, got {shown!r}")
    return int(text)


# -- result ------------------------------------------------------------------------------


def result_sentence(match: Match, outcome: Outcome) -> str:
    """Return who won what: ``"andrea beats silvia 140–100: 6 / 4"`` (winner's TP first)."""
    winner, loser = outcome.winner, outcome.loser
    w, lo = match.players.index(winner), match.players.index(loser)
    tp = counted_tp(match, outcome)
    said = f"{winner} beats {loser}"
    if match.scores is not None:
        said += f" {match.scores[w]}–{match.scores[lo]}"
        if match.scores[0] == match.scores[1] and match.concession is None:
            said += " as second player"
    elif match.games is not None and len(match.games) > 1:
        wins = sum(1 for g in match.games if g == winner)
        said += f" {wins}–{len(match.games) - wins} in games"
    if match.concession is not None:
        said += " by concession"
    if match.defeated is not None:
        said += f" ({match.defeated} defeated: One Player Defeated)"
    if match.by_time:
        said += " on time"
    said += f": {tp[w]} / {tp[lo]}"
    if match.tp_override is not None:
        said += f" (TP set by the TO: {match.tp_override}; the regulation gives "
        said += f"{outcome.tp[w]} / {outcome.tp[lo]})"
    return said


def _scores_by_name(
    given: list[str], event: Event, match: Match, source: str, where: str
) -> tuple[int, int]:
    """Return ``--score ID=N`` pairs (an id, a name or a prefix) in the match's order."""
    found: dict[str, int] = {}
    for item in given:
        text, sep, number = item.rpartition("=")
        if not sep or not text:
            raise UsageError(f"--score is ID=POINTS (e.g. --score andrea=140), got {item!r}")
        if not (number.isascii() and number.isdigit()) or len(number) > 18:
            raise UsageError(
                f"--score {text}=: the points are a whole number from 0, got {number!r}"
            )
        pid = _at_table(event, text, match, source, where, "--score")
        if pid in found:
            raise UsageError(f"--score gives {pid!r} twice")
        found[pid] = int(number)
    if len(found) != 2:
        a, b = match.players
        raise UsageError(f"--score is needed for both players: --score {a}=N --score {b}=N")
    return found[match.players[0]], found[match.players[1]]


def _at_table(event: Event, text: str, match: Match, source: str, where: str, option: str) -> str:
    """Return the id `text` names, refused unless that player is at the table."""
    from tabletop.app.event.seats import player_id

    pid = player_id(event, text, source, option)
    if pid not in match.players:
        raise EventFileError(
            f"{option} names {pid!r}, who is not at this table "
            f"({match.players[0]} v {match.players[1]})",
            file=source,
            entry=where,
        )
    return pid


def _replace_match(event: Event, number: int, match: Match) -> Event:
    round_ = event.rounds[number - 1]
    matches = tuple(match if m.table == match.table else m for m in round_.matches)
    rounds = list(event.rounds)
    rounds[number - 1] = Round(round_.kind, matches, round_.byes)
    return event.with_rounds(tuple(rounds))


def _find_match(event: Event, source: str, number: int, table: int) -> tuple[Round, Match]:
    if number > len(event.rounds):
        raise EventFileError(
            f"the event has {len(event.rounds)} round(s)", file=source, entry=f"round {number}"
        )
    round_ = event.rounds[number - 1]
    match = round_.match(table)
    if match is None:
        tables = ", ".join(str(m.table) for m in round_.matches) or "none"
        raise EventFileError(
            f"no such table; round {number} has tables {tables}",
            file=source,
            entry=f"round {number} table {table}",
        )
    return round_, match


def _clear(
    args: argparse.Namespace, event: Event, source: str, found: tuple[int, Match], out: TextIO
) -> int:
    number, match = found
    where = f"round {number} table {match.table}"
    if not match.has_result:
        raise EventFileError("has no result to clear", file=source, entry=where)
    save_event(_replace_match(event, number, match.without_result()), args, source)
    a, b = match.players
    if args.json:
        emit_json({"round": number, "table": match.table, "players": [a, b], "cleared": True}, out)
    else:
        out.write(printable(f"{where}: result cleared ({a} v {b})") + "\n")
    return EXIT_OK


def _entered(
    args: argparse.Namespace, event: Event, number: int, match: Match, source: str
) -> Match:
    """Return the match with the result the options give (checked against the table)."""
    where = f"round {number} table {match.table}"
    scores = tuple(args.scores) if args.scores else None
    if args.score:
        if scores is not None:
            raise UsageError("give the scores once: --scores A B or --score ID=N --score ID=N")
        scores = _scores_by_name(args.score, event, match, source, where)
    given = [
        k for k, v in (("scores", scores), ("winner", args.winner), ("games", args.games)) if v
    ]
    if len(given) != 1:
        raise UsageError("result needs exactly one of --scores/--score, --winner, --games")

    def named(text: str | None, option: str) -> str | None:
        return None if text is None else _at_table(event, text, match, source, where, option)

    games = tuple(named(g, "--games") or "" for g in args.games) if args.games else None
    if args.override_tp is not None and not args.tp:
        raise UsageError("--override-tp REASON goes with the --tp A B it explains")
    entered = replace(
        match.without_result(),
        scores=scores,
        second_player=named(args.second, "--second"),
        winner=named(args.winner, "--winner"),
        games=games,
        concession=named(args.concession, "--concession"),
        defeated=named(args.defeated, "--defeated"),
        by_time=args.by_time,
        tp=tuple(args.tp) if args.tp else None,
        tp_override=args.override_tp,
    )
    tied = scores is not None and scores[0] == scores[1]
    if tied and entered.second_player is None and entered.concession is None:
        if entered.defeated is None and event.regulation.result_entry == "scores":
            raise EventFileError(
                "equal scores: the second player wins; give --second ID (or NAME)",
                file=source,
                entry=where,
            )
    return entered


def result_action(args: argparse.Namespace, operands: list[str], out: TextIO) -> int:
    """Enter, replace or clear the result of one table (``tabletop event result``)."""
    source, round_text, table_text = operands
    event = load_event(source)
    number = positive_number(round_text, "ROUND")
    table = positive_number(table_text, "TABLE")
    round_, match = _find_match(event, source, number, table)
    where = f"round {number} table {table}"
    if args.clear:
        options = (
            *(args.scores, args.score, args.winner, args.games, args.tp, args.concession),
            args.defeated,
        )
        if any(options) or args.second or args.by_time or args.replace:
            raise UsageError("--clear removes a result and takes no result options")
        return _clear(args, event, source, (number, match), out)
    if match.has_result and not args.replace:
        raise EventFileError(
            "already has a result; give --replace to replace it (or --clear to remove it)",
            file=source,
            entry=where,
        )
    entered = _entered(args, event, number, match, source)
    games = structure_of(event).playoff_games if round_.kind == "playoff" else 1
    try:
        outcome = score_match(event.regulation, entered, games)
    except TournamentError as error:
        error.round = number
        raise
    assert outcome is not None
    if entered.tp is not None and entered.tp != outcome.tp and entered.tp_override is None:
        raise EventFileError(
            f"--tp {entered.tp[0]} {entered.tp[1]} contradicts {event.regulation.id}, which "
            f"gives {outcome.tp[0]} {outcome.tp[1]} "
            f"({result_sentence(replace(entered, tp=None), outcome)}); "
            "give --override-tp REASON to keep the TP written down",
            file=source,
            entry=where,
        )
    if entered.tp_override is not None and entered.tp == outcome.tp:
        raise UsageError(
            f"--tp {outcome.tp[0]} {outcome.tp[1]} is what {event.regulation.id} gives; "
            "--override-tp is only for TP that differ"
        )
    save_event(_replace_match(event, number, entered), args, source)
    said = result_sentence(entered, outcome)
    if args.json:
        report: dict[str, Any] = {
            "round": number,
            "table": table,
            "players": list(match.players),
            "winner": outcome.winner,
            "tp": list(outcome.tp),
            "mov": outcome.margin,
            "text": said,
        }
        if entered.tp_override is not None:
            report |= {"tp_entered": list(entered.tp or ()), "tp_override": entered.tp_override}
        emit_json(report, out)
    else:
        out.write(printable(f"{where}: {said}") + "\n")
    return EXIT_OK


# -- add, pending, announce --------------------------------------------------------------


def add_action(args: argparse.Namespace, operands: list[str], out: TextIO) -> int:
    """Register a player, late if rounds have been paired (``tabletop event add``)."""
    source, pid = operands
    event = load_event(source)
    if not pid.strip():
        raise UsageError("ID is a non-empty player id")
    player = Player(pid, args.name or pid, faction=args.faction, club=args.club)
    try:
        updated = add_player(event, player)
    except TournamentError as error:
        raise EventFileError(error.message, file=source, entry=f"player {pid!r}") from None
    save_event(updated, args, source)
    missed = len(event.rounds)
    before, after = _rounds_or_none(event), _rounds_or_none(updated)
    note = None
    if round_is_open(event):
        note = (
            f"round {missed} is paired and has no result: `event unpair`, then `add` and "
            "`pair`, seats them in it"
        )
    if args.json:
        report: dict[str, Any] = {
            "player": pid,
            "name": player.name,
            "arrived_for": missed + 1,
            "rounds_missed": missed,
            "players": len(updated.players),
        }
        if before != after:
            report["swiss_rounds"] = after
        if note is not None:
            report["note"] = note
        emit_json(report, out)
    else:
        said = f"{pid} ({player.name}) registered"
        if missed:
            said += f" for round {missed + 1}; {missed} round(s) missed count as losses"
        said += f"; {len(updated.players)} players"
        if before != after:
            said += f"; the structure now has {after} Swiss rounds (it had {before})"
        out.write(printable(said) + "\n")
        if note is not None:
            out.write(printable(note) + "\n")
    return EXIT_OK


def _rounds_or_none(event: Event) -> int | None:
    try:
        return structure_of(event).swiss_rounds
    except TournamentError:
        return None


def pending_action(args: argparse.Namespace, operands: list[str], out: TextIO) -> int:
    """List the current round's tables still waiting for a result (``event pending``)."""
    (source,) = operands
    event = load_event(source)
    number, waiting = pending_tables(event)
    if args.json:
        pending = [{"table": m.table, "players": list(m.players)} for m in waiting]
        emit_json({"round": number, "pending": pending}, out)
        return EXIT_OK
    if number == 0:
        out.write("no round has been paired yet\n")
        return EXIT_OK
    from tabletop.app.event.seats import shown

    lines = [f"round {number}: {len(waiting)} table(s) without a result"]
    lines += [
        f"  table {m.table}: {shown(event, m.players[0])} v {shown(event, m.players[1])}"
        for m in waiting
    ]
    out.write("\n".join(printable(line) for line in lines) + "\n")
    return EXIT_OK


def announcement(event: Event) -> dict[str, Any]:
    """Return the structure a TO announces before round 1 (the JSON of ``announce``)."""
    structure = structure_of(event)
    minutes = event.round_minutes or event.regulation.round_minutes
    playoff = event.round_minutes or (
        event.regulation.playoff_round_minutes
        if structure.cut and structure.playoff_games == 3
        else None
    )
    return {
        "event": event.name,
        "regulation": event.regulation_id,
        "players": len(event.players),
        "tier": event.tier,
        "structure": event.structure or event.regulation.default_structure,
        "swiss_rounds": structure.swiss_rounds,
        "cut": structure.cut,
        "playoff_games": structure.playoff_games if structure.cut else None,
        "round_minutes": minutes,
        "playoff_round_minutes": (playoff or minutes) if structure.cut else None,
    }


def announce_action(args: argparse.Namespace, operands: list[str], out: TextIO) -> int:
    """Announce Swiss rounds, cut, playoff games and round time (``event announce``)."""
    (source,) = operands
    event = load_event(source)
    said = announcement(event)
    if args.json:
        emit_json(said, out)
        return EXIT_OK
    title = event.name or source
    lines = [f"{title}: {event.regulation.title}, {said['players']} players"]
    lines.append(f"  Swiss rounds: {said['swiss_rounds']}")
    if said["cut"]:
        kind = "best of three" if said["playoff_games"] == 3 else "single games"
        lines.append(f"  cut: top {said['cut']}, playoff matches are {kind}")
    else:
        lines.append("  cut: none (the Swiss standings are final)")
    minutes = said["round_minutes"]
    lines.append(
        f"  round time: {minutes} minutes"
        if minutes
        else "  round time: not set (new --round-minutes, or round_minutes in the event file)"
    )
    playoff = said["playoff_round_minutes"]
    if playoff and playoff != minutes:
        lines.append(f"  playoff round time: {playoff} minutes")
    out.write("\n".join(printable(line) for line in lines) + "\n")
    return EXIT_OK
