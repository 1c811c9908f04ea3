"""What the API answers about the event: ``GET /api/event`` and ``GET /api/me``.

Each view is made once per version (:class:`~tabletop.app.event.server.hub.Snapshot`
keeps it). A spectator sees the state of a report (``awaiting-confirmation`` and who
reported, or ``disputed``), never its numbers; the TO and the table's players see them.
Results are the rows ``tabletop event export --format json`` writes; standings are
``tabletop event standings --json``'s players, as of the last complete round.
"""

from __future__ import annotations

from typing import Any

from tabletop.app.event.console import result_sentence
from tabletop.app.event.reports import results_json, settled_round, standings_json
from tabletop.app.event.server.hub import Snapshot, TableReports
from tabletop.tournament import (
    Clock,
    Event,
    Match,
    TournamentError,
    stage_name,
    standings,
    structure_of,
    utc_text,
)

__all__ = ["clock_json", "current_match", "event_view", "me_view", "outcome_text"]


def clock_json(clock: Clock | None) -> dict[str, Any] | None:
    """Return the clock for the pages: when it ends, or the seconds left while paused.

    Examples
    --------
    >>> from tabletop.tournament import parse_utc
    >>> c = Clock(2, 120, parse_utc("2026-05-02T10:00:00Z"), paused_seconds=60)
    >>> clock_json(c)["ends_at"]
    '2026-05-02T12:01:00Z'
    """
    if clock is None:
        return None
    ends = clock.ends_at()
    return {
        "round": clock.round,
        "minutes": clock.minutes,
        "start": utc_text(clock.start),
        "paused_seconds": clock.paused_seconds,
        "paused": clock.paused,
        "paused_at": None if clock.paused_at is None else utc_text(clock.paused_at),
        "ends_at": None if ends is None else utc_text(ends),
        "remaining": clock.remaining(clock.paused_at) if clock.paused_at is not None else None,
    }


def _results(snapshot: Snapshot) -> dict[tuple[int, int], dict[str, Any]]:
    found = snapshot.views.get("results")
    if found is None:
        rows = results_json(snapshot.event)
        found = {(r["round"], r["table"]): r for r in rows if r.get("player_b") is not None}
        snapshot.views["results"] = found
    return found


def _pairs(snapshot: Snapshot, number: int, full: bool) -> list[dict[str, Any]]:
    event = snapshot.event
    name = {p.id: p.name for p in event.players}
    results = _results(snapshot)
    pairs = []
    for m in event.rounds[number - 1].matches:
        reports: TableReports | None = snapshot.reports.get((number, m.table))
        report = None if reports is None else (reports.full() if full else reports.public())
        pairs.append(
            {
                "table": m.table,
                "players": list(m.players),
                "names": [name[p] for p in m.players],
                "result": results.get((number, m.table)) if m.has_result else None,
                "report": report,
            }
        )
    return pairs


def _bracket(snapshot: Snapshot) -> list[dict[str, Any]]:
    event = snapshot.event
    name = {p.id: p.name for p in event.players}
    rounds = []
    for number, round_ in enumerate(event.rounds, 1):
        if round_.kind != "playoff":
            continue
        pairs = _pairs(snapshot, number, full=False)
        for entry in pairs:
            result = entry["result"]
            entry["winner"] = None if result is None else result["winner"]
        byes = [{"player": b.player, "name": name[b.player], "table": b.table} for b in round_.byes]
        rounds.append(
            {"round": number, "stage": stage_name(event, number), "pairs": pairs, "byes": byes}
        )
    return rounds


def _standings(snapshot: Snapshot) -> tuple[int, list[dict[str, Any]]]:
    found = snapshot.views.get("standings")
    if found is None:
        event = snapshot.event
        through = settled_round(event)
        table = standings_json(event, standings(event, through), through)
        found = snapshot.views["standings"] = (through, table["players"])
    return found


def event_view(snapshot: Snapshot, full: bool = False) -> dict[str, Any]:
    """Return ``GET /api/event``: the round, its pairs and byes, the clock, the standings.

    `full` (the TO's view) shows the numbers of the reports awaiting confirmation.
    """
    key = "event-full" if full else "event"
    cached = snapshot.views.get(key)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    event = snapshot.event
    number = len(event.rounds)
    name = {p.id: p.name for p in event.players}
    current = event.rounds[-1] if event.rounds else None
    through, players = _standings(snapshot)
    view = {
        "version": snapshot.version,
        "name": event.name,
        "game": event.game,
        "regulation": event.regulation_id,
        "round": number,
        "kind": None if current is None else current.kind,
        "clock": clock_json(event.clock if event.clock and event.clock.round == number else None),
        "pairs": [] if current is None else _pairs(snapshot, number, full),
        "byes": []
        if current is None
        else [{"player": b.player, "name": name[b.player], "table": b.table} for b in current.byes],
        "standings": players,
        "standings_round": through,
        "bracket": _bracket(snapshot),
    }
    if current is not None:
        view["stage"] = stage_name(event, number)
    snapshot.views[key] = view
    return view


def current_match(event: Event, pid: str) -> tuple[int, Match | None]:
    """Return the current round and `pid`'s match in it (None: a bye, or not seated)."""
    number = len(event.rounds)
    if number == 0:
        return 0, None
    for m in event.rounds[-1].matches:
        if pid in m.players:
            return number, m
    return number, None


def outcome_text(event: Event, match: Match, outcome: Any, pid: str) -> str:
    """Return what a result gives, said to player `pid`: ``"you win 140–100: 6 / 4"``."""
    me = match.players.index(pid)
    them = 1 - me
    verb = "win" if outcome.winner == pid else "lose"
    said = f"you {verb}"
    if match.scores is not None:
        said += f" {match.scores[me]}–{match.scores[them]}"
    elif match.games is not None and len(match.games) > 1:
        wins = sum(1 for g in match.games if g == pid)
        said += f" {wins}–{len(match.games) - wins} in games"
    return f"{said}: {outcome.tp[me]} / {outcome.tp[them]} ({result_sentence(match, outcome)})"


def _games(event: Event) -> int:
    """Return the games a match of the current round is played in (1, or 3 in a playoff)."""
    if not event.rounds or event.rounds[-1].kind != "playoff":
        return 1
    try:
        return structure_of(event).playoff_games
    except TournamentError:
        return 1


def _record(snapshot: Snapshot, pid: str) -> dict[str, Any]:
    _, players = _standings(snapshot)
    for row in players:
        if row["id"] == pid:
            return {k: row[k] for k in ("rank", "tp", "wins", "losses", "byes")}
    return {}


def me_view(snapshot: Snapshot, pid: str) -> dict[str, Any]:
    """Return ``GET /api/me``: the player's table, opponent (and record), and the reports."""
    event = snapshot.event
    player = event.player(pid)
    number, match = current_match(event, pid)
    view: dict[str, Any] = {
        "id": pid,
        "name": player.name,
        "round": number,
        "table": None,
        "opponent": None,
        "report": None,
        "version": snapshot.version,
        "game": event.game,
        "regulation": event.regulation_id,
        "kind": event.rounds[-1].kind if event.rounds else None,
        "record": _record(snapshot, pid),
        "result": None,
        "bye": any(b.player == pid for b in event.rounds[-1].byes) if event.rounds else False,
        "games_per_match": _games(event),
    }
    if match is None:
        return view
    other = match.players[1 - match.players.index(pid)]
    view["table"] = match.table
    view["players"] = list(match.players)
    view["opponent"] = {
        "id": other,
        "name": event.player(other).name,
        "record": _record(snapshot, other),
    }
    reports = snapshot.reports.get((number, match.table))
    view["report"] = None if reports is None else reports.full()
    if match.has_result:
        view["result"] = _results(snapshot).get((number, match.table))
    return view
