"""What the server changes, each through the function the ``tabletop event`` command runs.

A result, an added, dropped or returning player and the next round are written by the
command's own handler (``event result``, ``add``, ``drop``, ``return``, ``pair``), given
the arguments the command line would parse and the server's locked update
(:meth:`tabletop.app.event.server.hub.EventHub.write`); its ``--json`` report is the
answer. Re-pairing and the clock are the server's own small changes, made the same way.

Players are named by id or by name (case-insensitively, or a unique beginning of either):
:func:`resolve_player`.
"""

from __future__ import annotations

import argparse
import io
import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TextIO

from tabletop.app.common.locking import FileUpdate
from tabletop.app.event import command as event_command
from tabletop.app.event.console import add_action, result_action
from tabletop.app.event.eventfile import checked_event_text
from tabletop.app.event.server.hub import EventHub, conflict
from tabletop.app.web.errors import RequestError
from tabletop.tournament import (
    Clock,
    Event,
    Match,
    TournamentError,
    now_utc,
    pair_next,
    score_match,
    structure_of,
)

__all__ = [
    "add",
    "clock_action",
    "drop",
    "pair",
    "record_result",
    "repair",
    "resolve_player",
    "return_",
    "round_minutes",
    "scored",
]

Handler = Callable[[argparse.Namespace, list[str], TextIO], int]
#: Placeholder operands: the handler gets the real ones; the parser only fills defaults.
_PLACEHOLDERS = {
    "result": ["E", "1", "1"],
    "add": ["E", "x"],
    "drop": ["E", "x"],
    "return": ["E", "x"],
    "pair": ["E"],
    "unpair": ["E"],
}


def resolve_player(event: Event, given: Any, where: str) -> str:
    """Return the id of the player `given` names: an id, a name, or a unique beginning.

    Raises
    ------
    RequestError
        When it names nobody or more than one player (listing them).
    """
    if not isinstance(given, str) or not given.strip():
        raise RequestError("expected a player's id or name", where=where)
    ids = [p.id for p in event.players]
    if given in ids:
        return given
    wanted = given.strip().casefold()

    def fits(text: str, prefix: bool) -> bool:
        folded = text.casefold()
        return folded.startswith(wanted) if prefix else folded == wanted

    for prefix in (False, True):
        found = [p for p in event.players if fits(p.id, prefix) or fits(p.name, prefix)]
        if len(found) == 1:
            return found[0].id
        if len(found) > 1:
            names = ", ".join(f"{p.name} ({p.id})" for p in found[:10])
            raise RequestError(f"{given!r} names more than one player: {names}", where=where)
    raise RequestError(f"no player is called {given!r}", where=where)


def _args(action: str, **values: Any) -> argparse.Namespace:
    """Return the arguments ``tabletop event ACTION --json`` would parse, with `values` set."""
    parser = argparse.ArgumentParser(prog="tabletop event", add_help=False)
    event_command.register(parser)
    args = parser.parse_args([action, *_PLACEHOLDERS[action], "--json"])
    for name, value in values.items():
        setattr(args, name, value)
    return args


def _run(handler: Handler, args: argparse.Namespace, operands: list[str]) -> Any:
    """Return a change that runs the command's handler on the locked update."""

    def change(update: FileUpdate, event: Event) -> str:
        args.event_update = update
        report = io.StringIO()
        handler(args, operands, report)
        return report.getvalue()

    return change


def _answer(text: str) -> Any:
    return json.loads(text)


# -- results -----------------------------------------------------------------------------


def scored(event: Event, number: int, match: Match) -> Any:
    """Return the outcome of `match` in round `number` (raising as ``event result`` would)."""
    kind = event.rounds[number - 1].kind
    games = structure_of(event).playoff_games if kind == "playoff" else 1
    try:
        return score_match(event.regulation, match, games)
    except TournamentError as error:
        error.round, error.table = number, match.table
        raise


def record_result(
    hub: EventHub,
    number: int,
    table: int,
    result: dict[str, Any],
    *,
    version: int | None = None,
    check: Callable[[Event], None] | None = None,
) -> Any:
    """Record a result by ``event result``'s handler; return its JSON report.

    `result` holds the options: ``scores`` (in the match's order), ``second``,
    ``winner``, ``games``, ``concession``, ``by_time``, ``replace`` or ``clear``.
    `check` runs first on the event read under the lock (a refusal there changes nothing).
    """
    values = {
        "scores": result.get("scores"),
        "second": result.get("second"),
        "winner": result.get("winner"),
        "games": result.get("games"),
        "concession": result.get("concession"),
        "defeated": result.get("defeated"),
        "by_time": bool(result.get("by_time", False)),
        "replace": bool(result.get("replace", False)),
        "clear": bool(result.get("clear", False)),
    }
    args = _args("result", **values)
    run = _run(result_action, args, [str(hub.path), str(number), str(table)])

    def change(update: FileUpdate, event: Event) -> str:
        if check is not None:
            check(event)
        if number <= len(event.rounds):
            match = event.rounds[number - 1].match(table)
            if (
                match is not None
                and match.has_result
                and not (values["replace"] or values["clear"])
            ):
                raise conflict(
                    'already has a result; send "replace": true to replace it '
                    '(or "clear": true to remove it)',
                    f"round {number} table {table}",
                )
        return str(run(update, event))

    command = f"tabletop event result (server) {number} {table}"
    return _answer(hub.write(command, change, version=version))


# -- players -----------------------------------------------------------------------------


def add(hub: EventHub, pid: str, name: str | None, version: int | None = None) -> Any:
    """Register a player (``event add``) and give them a code; return the report."""
    args = _args("add", name=name)
    answer = _answer(
        hub.write(
            "tabletop event add (server)",
            _run(add_action, args, [str(hub.path), pid]),
            version=version,
        )
    )
    hub.ensure_codes([pid])
    return answer


def drop(hub: EventHub, pid: str, version: int | None = None) -> Any:
    """Drop a player (``event drop``); return the report."""
    handler: Handler = event_command.handler("drop")
    change = _run(handler, _args("drop"), [str(hub.path), pid])
    return _answer(hub.write("tabletop event drop (server)", change, version=version))


def return_(hub: EventHub, pid: str, version: int | None = None) -> Any:
    """Bring a dropped player back (``event return``); return the report."""
    handler: Handler = event_command.handler("return")
    change = _run(handler, _args("return"), [str(hub.path), pid])
    return _answer(hub.write("tabletop event return (server)", change, version=version))


# -- rounds ------------------------------------------------------------------------------


def pair(hub: EventHub, commit: bool, preview_version: int | None) -> tuple[Any, int]:
    """Preview the next round (nothing written), or write it (``event pair``).

    Returns the pairing as ``event pair --json`` prints it, and the version it was made at
    (a preview) or the event's new version (a commit).
    """
    if not commit:
        snapshot = hub.refresh()
        try:
            pairing = pair_next(snapshot.event)
        except TournamentError as error:
            from tabletop.app.event.server.hub import api_error

            raise api_error(error, hub.path) from None
        return pairing.to_json(), snapshot.version
    if preview_version is None:
        raise RequestError("a commit names the preview it saw", where="key 'preview_version'")
    handler: Handler = event_command.handler("pair")
    change = _run(handler, _args("pair"), [str(hub.path)])
    answer = _answer(hub.write("tabletop event pair (server)", change, version=preview_version))
    return answer, hub.snapshot.version


def repair(hub: EventHub, version: int | None = None) -> Any:
    """Remove the current round's pairing when none of its results is recorded (``event unpair``)."""
    run = _run(event_command.handler("unpair"), _args("unpair"), [str(hub.path)])

    def change(update: FileUpdate, event: Event) -> str:
        if not event.rounds:
            raise conflict("no round has been paired; nothing to re-pair", "round")
        number, last = len(event.rounds), event.rounds[-1]
        recorded = [m.table for m in last.matches if m.has_result]
        if recorded:
            tables = ", ".join(str(t) for t in recorded)
            raise conflict(
                f"round {number} has results at table(s) {tables}; clear them first",
                f"round {number}",
            )
        return str(run(update, event))

    return _answer(hub.write("tabletop event unpair (server)", change, version=version))


# -- the clock ---------------------------------------------------------------------------


def round_minutes(event: Event) -> int | None:
    """Return the current round's length in minutes (the event's, else the regulation's)."""
    return event.round_minutes or event.regulation.round_minutes


def _clocked(event: Event, action: str, minutes: int | None) -> Clock:
    now = now_utc()
    number = len(event.rounds)
    if action == "start":
        if number == 0:
            raise conflict("no round has been paired; pair one, then start its clock", "clock")
        length = minutes if minutes is not None else round_minutes(event)
        if length is None:
            raise RequestError(
                'the event sets no round time: give "minutes"', where="key 'minutes'"
            )
        return Clock(round=number, minutes=length, start=now)
    clock = event.clock
    if clock is None or clock.round != number:
        raise conflict(f"the clock of round {number} has not been started", "clock")
    if action == "pause":
        return clock.pause(now)
    if action == "resume":
        return clock.resume(now)
    if minutes is None:
        raise RequestError('"add" needs "minutes"', where="key 'minutes'")
    return clock.add(minutes)


def clock_action(hub: EventHub, action: str, minutes: int | None, version: int | None) -> Any:
    """Start, pause, resume or lengthen the round's clock, kept in the event file."""

    def change(update: FileUpdate, event: Event) -> str:
        try:
            clock = _clocked(event, action, minutes)
        except TournamentError as error:
            raise conflict(error.message, "clock") from None
        update.stage(
            checked_event_text(replace(event, clock=clock, _index={}), hub.path), force=True
        )
        return "{}"

    hub.write(f"tabletop event clock {action} (server)", change, version=version)
    from tabletop.app.event.server.views import clock_json

    return clock_json(hub.snapshot.event.clock)
