r"""The players CSV of ``tabletop event new --players``: read strictly, checked row by row.

A header ``id,name`` and any of the optional columns, then one player a line. Every
problem is an :class:`~tabletop.app.event.eventfile.EventFileError` naming the file, the line
and the column.

Examples
--------
>>> import tempfile, pathlib
>>> roster = pathlib.Path(tempfile.mkdtemp()) / "players.csv"
>>> _ = roster.write_text("id,name,faction\nana,Ana,rebel\nbo,Bo,imperial\n")
>>> [(p.id, p.faction) for p in read_players(str(roster), "armada-2015")]
[('ana', 'rebel'), ('bo', 'imperial')]
"""

from __future__ import annotations

from typing import Any

from tabletop.app.common.csvfile import read_csv_rows
from tabletop.app.event.eventfile import EventFileError
from tabletop.tournament import Player, get_regulation

__all__ = ["CSV_COLUMNS", "read_players"]

#: The columns a players CSV may have (``id`` and ``name`` first).
CSV_COLUMNS = (
    "id",
    "name",
    "faction",
    "club",
    "fleet_points",
    "squadron_points",
    "first_round_bye",
)


def _check_caps(path: str, where: str, regulation_id: str, options: dict[str, Any]) -> None:
    """Refuse a fleet (or a squadron total) over the regulation's cap.

    A squadron cap the regulation marks advisory is only a finding of ``check``.
    """
    regulation = get_regulation(regulation_id)
    caps = [("fleet_points", regulation.fleet_cap, "fleet")]
    if not regulation.squadron_cap_advisory:
        caps.append(("squadron_points", regulation.squadron_cap, "squadrons"))
    for key, cap, what in caps:
        value = options.get(key)
        if cap is not None and value is not None and value > cap:
            raise EventFileError(
                f"{value} points; {regulation.id} caps the {what} at {cap}",
                file=path,
                entry=where,
                key=key,
            )


def read_players(path: str, game: str) -> tuple[Player, ...]:
    """Return the players of a CSV file for an event of `game` (a regulation id).

    Raises
    ------
    EventFileError
        For a file that cannot be read strictly (:func:`read_csv_rows`), a header that
        does not start ``id,name`` or names an unknown column, a row with the wrong
        number of fields, a missing or repeated id, an unknown faction, points that are
        not a whole number or over the regulation's cap, or ``first_round_bye`` other
        than true or false, naming the line and the column.
    """
    numbered = read_csv_rows(path, EventFileError)  # strict: each problem names its line
    rows = [row for _, row in numbered]
    if not rows or rows[0][:2] != ["id", "name"]:
        raise EventFileError("expected a header starting id,name", file=path, entry="line 1")
    header = rows[0]
    for column in header:
        if column not in CSV_COLUMNS:
            raise EventFileError(
                f"unknown column; expected some of: {', '.join(CSV_COLUMNS)}",
                file=path,
                entry="line 1",
                key=column,
            )
    players: list[Player] = []
    seen: set[str] = set()
    for number, row in numbered[1:]:
        if not any(cell.strip() for cell in row):
            continue
        where = f"line {number}"
        if len(row) != len(header):
            raise EventFileError(
                f"expected {len(header)} columns, got {len(row)}", file=path, entry=where
            )
        cells = dict(zip(header, (c.strip() for c in row), strict=True))
        if not cells["id"]:
            raise EventFileError("expected a player id", file=path, entry=where, key="id")
        if cells["id"] in seen:
            raise EventFileError(
                f"duplicate player id {cells['id']!r}", file=path, entry=where, key="id"
            )
        seen.add(cells["id"])
        options: dict[str, Any] = {}
        for key in ("faction", "club"):
            if cells.get(key):
                options[key] = cells[key]
        factions = get_regulation(game).factions
        if factions and options.get("faction", factions[0]) not in factions:
            raise EventFileError(
                f"expected one of {', '.join(factions)}, got {cells['faction']!r}",
                file=path,
                entry=where,
                key="faction",
            )
        for key in ("fleet_points", "squadron_points"):
            if cells.get(key):
                if not cells[key].isdigit():
                    raise EventFileError(
                        f"expected a non-negative integer, got {cells[key]!r}",
                        file=path,
                        entry=where,
                        key=key,
                    )
                options[key] = int(cells[key])
        _check_caps(path, where, game, options)
        if cells.get("first_round_bye"):
            if cells["first_round_bye"] not in ("true", "false"):
                raise EventFileError(
                    "expected true or false", file=path, entry=where, key="first_round_bye"
                )
            options["first_round_bye"] = cells["first_round_bye"] == "true"
        players.append(Player(cells["id"], cells["name"] or cells["id"], **options))
    return tuple(players)
