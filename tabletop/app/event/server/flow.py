"""Results from the players: one reports, the opponent confirms or reports other numbers.

A report is checked as ``event result`` checks a result (the regulation scores it) and
kept by the server, awaiting confirmation. The opponent's confirmation records it through
``event result``'s own handler, exactly as the TO would type it; the opponent reporting
the same result records it too, and other numbers make the table ``disputed`` (409,
naming both reports) until one player reports again to agree or the TO records a result.
A player reports and confirms only the match they are seated at in the current round.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tabletop.app.common.datafile import show
from tabletop.app.event.server.actions import record_result, resolve_player, scored
from tabletop.app.event.server.hub import (
    EventHub,
    PlayerReport,
    TableReports,
    api_error,
    conflict,
)
from tabletop.app.event.server.views import current_match, outcome_text
from tabletop.app.web.errors import RequestError
from tabletop.tournament import Event, Match, TournamentError

__all__ = ["DisputeError", "confirm", "parse_result", "preview", "report", "whole_number"]

#: The keys of a player's report.
REPORT_KEYS = ("round", "table", "scores", "second", "defeated", "winner", "games", "version")


class DisputeError(RequestError):
    """The opponent reported other numbers: 409, with both reports."""

    status = 409

    def __init__(self, message: str, where: str, reports: list[dict[str, Any]]) -> None:
        super().__init__(message, where=where)
        self.reports = reports


def whole_number(value: Any, key: str, low: int = 0) -> int:
    """Return a JSON whole number of at least `low`, or refuse naming `key`."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value < 2**53:
        raise RequestError(f"expected a whole number from {low}, got {show(value)}", f"key {key!r}")
    return value


def parse_result(event: Event, match: Match, body: dict[str, Any]) -> dict[str, Any]:
    """Return the result a body gives, as ``event result``'s options (ids, match order).

    Players may be named by id or name. Exactly one of ``scores`` (an object of both
    players' scores), ``winner`` or ``games`` is given.
    """
    given = [k for k in ("scores", "winner", "games") if body.get(k) is not None]
    if len(given) != 1:
        raise RequestError("expected exactly one of scores, winner, games", "request body")
    seated = set(match.players)

    def at_table(value: Any, key: str) -> str:
        pid = resolve_player(event, value, f"key {key!r}")
        if pid not in seated:
            a, b = match.players
            raise RequestError(f"{pid!r} is not at this table ({a} v {b})", f"key {key!r}")
        return pid

    result: dict[str, Any] = {}
    if body.get("scores") is not None:
        raw = body["scores"]
        if not isinstance(raw, dict) or len(raw) != 2:
            raise RequestError("expected both players' scores: {ID: N, ID: N}", "key 'scores'")
        by_id = {at_table(k, "scores"): whole_number(v, "scores") for k, v in raw.items()}
        if len(by_id) != 2:
            raise RequestError("expected a score for each of the two players", "key 'scores'")
        result["scores"] = [by_id[match.players[0]], by_id[match.players[1]]]
        if body.get("second") is not None:
            result["second"] = at_table(body["second"], "second")
        if body.get("concession") is not None:
            result["concession"] = at_table(body["concession"], "concession")
        if body.get("defeated") is not None:  # armada-2018: One Player Defeated
            result["defeated"] = at_table(body["defeated"], "defeated")
    elif body.get("winner") is not None:
        result["winner"] = at_table(body["winner"], "winner")
    else:
        games = body["games"]
        if not isinstance(games, list) or not 1 <= len(games) <= 3:
            raise RequestError("expected one to three game winners", "key 'games'")
        result["games"] = [at_table(g, "games") for g in games]
    if body.get("by_time") is not None:
        if not isinstance(body["by_time"], bool):
            raise RequestError("expected true or false", "key 'by_time'")
        result["by_time"] = body["by_time"]
    return result


def _as_match(match: Match, result: dict[str, Any]) -> Match:
    scores = result.get("scores")
    games = result.get("games")
    return replace(
        match.without_result(),
        scores=None if scores is None else (scores[0], scores[1]),
        second_player=result.get("second"),
        winner=result.get("winner"),
        games=None if games is None else tuple(games),
        concession=result.get("concession"),
        by_time=bool(result.get("by_time", False)),
        defeated=result.get("defeated"),
    )


def _check_version(hub: EventHub, body: dict[str, Any]) -> None:
    """Refuse (409) a body based on a version of the event other than the one served."""
    if body.get("version") is None:
        return
    given = whole_number(body["version"], "version")
    if given != hub.snapshot.version:
        raise conflict(
            f"the event has changed since the version this request was based on ({given}); "
            "reload and try again",
            "version",
        )


def _own_match(event: Event, pid: str, body: dict[str, Any]) -> tuple[int, Match]:
    """Return the player's current match, which the body must name (403 otherwise)."""
    number = whole_number(body.get("round"), "round", 1)
    table = whole_number(body.get("table"), "table", 1)
    current, match = current_match(event, pid)
    if match is None or (number, table) != (current, match.table):
        mine = "none" if match is None else f"round {current} table {match.table}"
        error = RequestError(
            f"a player reports only their own current match ({mine})",
            f"round {number} table {table}",
        )
        error.status = 403
        raise error
    if match.has_result:
        raise conflict(
            "already has a result (the TO can change it)", f"round {number} table {table}"
        )
    return number, match


def _checked(
    hub: EventHub, event: Event, found: tuple[int, Match], body: dict[str, Any], pid: str
) -> PlayerReport:
    number, match = found
    result = parse_result(event, match, body)
    entered = _as_match(match, result)
    try:
        outcome = scored(event, number, entered)
    except TournamentError as error:
        raise api_error(error, hub.path) from None
    return PlayerReport(pid, result, outcome_text(event, entered, outcome, pid))


def preview(hub: EventHub, pid: str, body: dict[str, Any]) -> dict[str, Any]:
    """Return what a result would give, said to the player; nothing is kept."""
    event = hub.refresh().event
    number, match = _own_match(event, pid, body)
    said = _checked(hub, event, (number, match), body, pid)
    return {"round": number, "table": match.table, **said.result, "text": said.text}


def _record(hub: EventHub, number: int, table: int, reported: PlayerReport) -> Any:
    """Record a report both players agree on, by ``event result``'s handler."""
    key = (number, table)

    def still_agreed(event: Event) -> None:
        known = hub.report_of(key)
        if known is None or known.first != reported or known.other is not None:
            raise conflict(
                "the report changed meanwhile; look again", f"round {number} table {table}"
            )

    return record_result(hub, number, table, reported.result, check=still_agreed)


def report(hub: EventHub, pid: str, body: dict[str, Any]) -> tuple[int, Any]:
    """Keep a player's report; return the status and the answer.

    202 awaiting confirmation; 200 with ``event result``'s report when it matches the
    opponent's report; a :class:`DisputeError` (409) when it differs from it.
    """
    _check_version(hub, body)
    event = hub.snapshot.event
    number, match = _own_match(event, pid, body)
    mine = _checked(hub, event, (number, match), body, pid)
    key = (number, match.table)
    where = f"round {number} table {match.table}"

    def keep(
        reports: dict[tuple[int, int], TableReports],
    ) -> tuple[PlayerReport | None, TableReports]:
        known = reports.get(key)
        if known is not None and known.first.by != pid and known.first.result == mine.result:
            return known.first, known  # the opponent reported the same: record it
        if known is None or known.first.by == pid:
            reports[key] = TableReports(number, match.table, mine, None)
        else:
            reports[key] = TableReports(number, match.table, known.first, mine)
        return None, reports[key]

    agreed, table = hub.change_reports(keep)
    if agreed is not None:
        return 200, _record(hub, number, match.table, agreed)
    if table.other is not None:
        both = [table.first.as_json(), table.other.as_json()]
        raise DisputeError(
            f"disputed: {table.first.by} reported {table.first.text}; "
            f"{table.other.by} reported {table.other.text}",
            where,
            both,
        )
    return 202, {"state": "awaiting-confirmation", "round": number, "table": match.table}


def confirm(hub: EventHub, pid: str, body: dict[str, Any]) -> Any:
    """Record the opponent's report as ``event result`` would; return that command's JSON."""
    _check_version(hub, body)
    event = hub.snapshot.event
    number, match = _own_match(event, pid, body)
    where = f"round {number} table {match.table}"
    known = hub.report_of((number, match.table))
    if known is None:
        raise conflict("no report to confirm: report the result", where)
    if known.other is not None:
        raise conflict("the reports differ (disputed): report again to agree, or ask the TO", where)
    if known.first.by == pid:
        error = RequestError("only the opponent confirms a report", where)
        error.status = 403
        raise error
    agreed = known.first
    return _record(hub, number, match.table, agreed)
