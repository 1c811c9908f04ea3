"""Event files: reading and writing TOML and JSON events as ``tournament.md`` says.

Every problem is an :class:`EventFileError` naming the file, the entry (a player by id,
``round 2 table 3``, ``round 2 bye 1``), the key, and what was expected. Nothing is
guessed and nothing is dropped: an unknown key is an error, and every result is scored
as the file is read, so a result that contradicts its table never reaches a command.

Examples
--------
>>> data = {"game": "destiny", "seed": 1, "name": "E", "players": [{"id": "a", "name": "A"}]}
>>> parse_event(data).players[0].name
'A'
>>> parse_event({**data, "seed": "x"}, "e.toml")
Traceback (most recent call last):
...
tabletop.app.event.eventfile.EventFileError: e.toml: key 'seed': expected an integer, got 'x'
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, NoReturn

from tabletop.app.common.datafile import (
    FileError,
    parse_text,
    read_data,
    refuse_lone_surrogates,
    show,
)
from tabletop.app.common.datatext import file_text
from tabletop.app.common.files import atomic_write
from tabletop.tournament import (
    REGULATIONS,
    ROUND_KINDS,
    TIERS,
    Bye,
    Clock,
    Event,
    Match,
    Player,
    Round,
    TournamentError,
    get_regulation,
    parse_utc,
    score_match,
    structure_of,
    utc_text,
)

__all__ = [
    "EventFileError",
    "checked_event_text",
    "clock_data",
    "event_data",
    "event_text",
    "load_event",
    "parse_event",
    "tournament_error",
    "write_event",
]

_EVENT_KEYS = (
    "game", "regulation", "name", "seed", "tier", "structure", "swiss_rounds", "cut",
    "playoff_games", "round_minutes", "players", "rounds", "clock",
)  # fmt: skip
_CLOCK_KEYS = ("round", "minutes", "start", "paused_seconds", "paused_at")
_PLAYER_KEYS = (
    "id", "name", "faction", "club", "fleet_points", "squadron_points", "first_round_bye",
    "dropped_after", "returned_for", "arrived_for",
)  # fmt: skip
_ROUND_KEYS = ("kind", "matches", "byes")
_MATCH_KEYS = (
    "table", "players", "scores", "second_player", "winner", "games", "concession", "by_time",
    "tp", "tp_override", "defeated",
)  # fmt: skip
_BYE_KEYS = ("player", "table")
_GAMES = ("armada", "destiny")
#: Integers in an event file are TOML's, 64-bit signed: each is below this.
_INTEGER_LIMIT = 2**63


class EventFileError(FileError):
    """An event file that cannot be used, with where the problem is (file, entry, key)."""


def tournament_error(error: TournamentError, file: str) -> EventFileError:
    """Return a tournament error as an input error naming the file, round, table, player."""
    parts = []
    if error.round is not None:
        parts.append(f"round {error.round}")
    if error.table is not None:
        parts.append(f"table {error.table}")
    if not parts and error.player is not None:
        parts.append(f"player {error.player!r}")
    return EventFileError(error.message, file=file, entry=" ".join(parts) or None, key=error.key)


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, message: str, entry: str | None = None, key: str | None = None) -> NoReturn:
        raise EventFileError(message, file=self.source, entry=entry, key=key)

    def table(self, value: Any, entry: str | None, allowed: tuple[str, ...]) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            self.fail(f"expected a table, got {show(value)}", entry)
        for key in value:
            if key not in allowed:
                self.fail(f"unknown key; expected one of: {', '.join(allowed)}", entry, str(key))
        return value

    def integer(self, value: Any, entry: str | None, key: str, low: int = 0) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"expected an integer, got {show(value)}", entry, key)
        if value < low:
            if value <= -_INTEGER_LIMIT:
                self.fail(
                    f"expected an integer of at least {low}, got a huge negative one", entry, key
                )
            self.fail(f"expected an integer of at least {low}, got {value}", entry, key)
        if value >= _INTEGER_LIMIT:
            # TOML integers are 64-bit: a standard reader refuses a longer one.
            self.fail(
                f"expected an integer below 2^63 = {_INTEGER_LIMIT}, got one of "
                f"{value.bit_length()} bits",
                entry,
                key,
            )
        return value

    def text(self, value: Any, entry: str | None, key: str) -> str:
        if not isinstance(value, str) or not value.strip():
            self.fail(f"expected a non-empty string, got {show(value)}", entry, key)
        return value

    def flag(self, value: Any, entry: str | None, key: str) -> bool:
        if not isinstance(value, bool):
            self.fail(f"expected true or false, got {show(value)}", entry, key)
        return value

    def pair(self, value: Any, entry: str, key: str, kind: str) -> list[Any]:
        if not isinstance(value, list) or len(value) != 2:
            self.fail(f"expected two {kind}s, got {show(value)}", entry, key)
        return value

    def player(self, value: Any, index: int) -> Player:
        entry = f"players[{index}]"
        raw = self.table(value, entry, _PLAYER_KEYS)
        if "id" not in raw:
            self.fail("missing; every player needs a unique id", entry, "id")
        pid = self.text(raw["id"], entry, "id")
        entry = f"players[{index}] {pid!r}"
        if "name" not in raw:
            self.fail("missing; expected the player's name", entry, "name")
        optional: dict[str, Any] = {}
        for key in ("faction", "club"):
            if key in raw:
                optional[key] = self.text(raw[key], entry, key)
        for key in ("fleet_points", "squadron_points", "dropped_after"):
            if key in raw:
                optional[key] = self.integer(raw[key], entry, key)
        if "returned_for" in raw:
            back = self.integer(raw["returned_for"], entry, "returned_for", 1)
            if "dropped_after" not in raw or back <= raw["dropped_after"] + 1:
                self.fail(
                    "expected a round after the round following dropped_after "
                    "(a player who never missed a round has not returned)",
                    entry,
                    "returned_for",
                )
            optional["returned_for"] = back
        if "arrived_for" in raw:
            arrived = self.integer(raw["arrived_for"], entry, "arrived_for", 2)
            if "dropped_after" in raw and raw["dropped_after"] < arrived - 1:
                self.fail(
                    f"expected a round from {arrived - 1} (arrived_for - 1): a player cannot "
                    "drop before arriving",
                    entry,
                    "dropped_after",
                )
            optional["arrived_for"] = arrived
        first = self.flag(raw.get("first_round_bye", False), entry, "first_round_bye")
        return Player(pid, self.text(raw["name"], entry, "name"), first_round_bye=first, **optional)

    def match(self, value: Any, number: int, index: int, ids: set[str]) -> Match:
        entry = f"round {number} matches[{index}]"
        raw = self.table(value, entry, _MATCH_KEYS)
        if "table" not in raw:
            self.fail("missing; expected the table number", entry, "table")
        table = self.integer(raw["table"], entry, "table", 1)
        entry = f"round {number} table {table}"
        if "players" not in raw:
            self.fail("missing; expected the two player ids", entry, "players")
        players = [
            self.text(p, entry, "players")
            for p in self.pair(raw["players"], entry, "players", "player id")
        ]
        for key in ("second_player", "winner", "concession", "defeated"):
            if key in raw:
                self.text(raw[key], entry, key)
        for pid in players + [
            raw[k] for k in ("second_player", "winner", "concession", "defeated") if k in raw
        ]:
            if pid not in ids:
                self.fail(f"unknown player {pid!r}", entry, "players")
        options: dict[str, Any] = {}
        if "scores" in raw:
            options["scores"] = tuple(
                self.integer(s, entry, "scores")
                for s in self.pair(raw["scores"], entry, "scores", "score")
            )
        if "tp" in raw:
            options["tp"] = tuple(
                self.integer(s, entry, "tp") for s in self.pair(raw["tp"], entry, "tp", "TP value")
            )
        if "games" in raw:
            games = raw["games"]
            if not isinstance(games, list) or not 1 <= len(games) <= 3:
                self.fail(f"expected one to three game winners, got {show(games)}", entry, "games")
            options["games"] = tuple(self.text(g, entry, "games") for g in games)
        for key in ("second_player", "winner", "concession", "defeated"):
            if key in raw:
                options[key] = raw[key]
        if "by_time" in raw:
            options["by_time"] = self.flag(raw["by_time"], entry, "by_time")
        if "tp_override" in raw:
            if "tp" not in raw:
                self.fail(
                    "expected only beside tp (the reason for the TP entered)", entry, "tp_override"
                )
            options["tp_override"] = self.text(raw["tp_override"], entry, "tp_override")
        try:
            return Match(table, (players[0], players[1]), **options)
        except TournamentError as error:
            self.fail(error.message, entry)

    def round(self, value: Any, number: int, ids: set[str]) -> Round:
        entry = f"rounds[{number - 1}]"
        raw = self.table(value, entry, _ROUND_KEYS)
        if raw.get("kind") not in ROUND_KINDS:
            self.fail(
                f"expected one of {', '.join(ROUND_KINDS)}, got {show(raw.get('kind'))}",
                entry,
                "kind",
            )
        matches = raw.get("matches", [])
        byes = raw.get("byes", [])
        for key, items in (("matches", matches), ("byes", byes)):
            if not isinstance(items, list):
                self.fail(f"expected a list of tables, got {show(items)}", entry, key)
        parsed = tuple(self.match(m, number, i, ids) for i, m in enumerate(matches))
        given = []
        for i, b in enumerate(byes):
            where = f"round {number} bye {i + 1}"
            bye = self.table(b, where, _BYE_KEYS)
            if "player" not in bye:
                self.fail("missing; expected the player id", where, "player")
            pid = self.text(bye["player"], where, "player")
            if pid not in ids:
                self.fail(f"unknown player {pid!r}", where, "player")
            table = self.integer(bye["table"], where, "table", 1) if "table" in bye else None
            given.append(Bye(pid, table))
        return Round(raw["kind"], parsed, tuple(given))


def _clock(reader: _Reader, value: Any) -> Clock:
    """Read the round clock (``[clock]``: round, minutes, start, paused seconds)."""
    raw = reader.table(value, "clock", _CLOCK_KEYS)
    for key in ("round", "minutes", "start"):
        if key not in raw:
            reader.fail("missing; the clock needs round, minutes and start", "clock", key)
    moments = {}
    for key in ("start", "paused_at"):
        if key in raw:
            text = reader.text(raw[key], "clock", key)
            try:
                moments[key] = parse_utc(text)
            except ValueError:
                reader.fail(
                    f"expected a UTC time as 2026-05-02T10:00:00Z, got {show(text)}", "clock", key
                )
    return Clock(
        round=reader.integer(raw["round"], "clock", "round", 1),
        minutes=reader.integer(raw["minutes"], "clock", "minutes"),
        start=moments["start"],
        paused_seconds=reader.integer(raw.get("paused_seconds", 0), "clock", "paused_seconds"),
        paused_at=moments.get("paused_at"),
    )


def clock_data(clock: Clock) -> dict[str, Any]:
    """Return the clock as the event file's ``[clock]`` table holds it."""
    data: dict[str, Any] = {"round": clock.round, "minutes": clock.minutes}
    data |= {"start": utc_text(clock.start), "paused_seconds": clock.paused_seconds}
    if clock.paused_at is not None:
        data["paused_at"] = utc_text(clock.paused_at)
    return data


def _game_and_regulation(reader: _Reader, raw: Mapping[str, Any]) -> tuple[str, str]:
    """Read the game and its regulation (the game's default when none is given)."""
    if raw.get("game") not in _GAMES:
        reader.fail(
            f"expected one of {', '.join(_GAMES)}, got {show(raw.get('game'))}", None, "game"
        )
    game: str = raw["game"]
    regulation = raw.get("regulation", get_regulation(game).id)
    if regulation not in REGULATIONS or REGULATIONS[regulation].game != game:
        known = ", ".join(r for r in REGULATIONS if REGULATIONS[r].game == game)
        reader.fail(
            f"expected a {game} regulation ({known}), got {show(regulation)}", None, "regulation"
        )
    return game, regulation


def _structure_numbers(
    reader: _Reader, raw: Mapping[str, Any], regulation: str
) -> tuple[str | None, dict[str, Any]]:
    """Read the structure's name and the numbers that override it (rounds, cut, games, minutes)."""
    structure = reader.text(raw["structure"], None, "structure") if "structure" in raw else None
    known_structures = (*REGULATIONS[regulation].structures, "custom")
    if structure is not None and structure not in known_structures:
        reader.fail(
            f"expected one of {', '.join(known_structures)}, got {show(structure)}",
            None,
            "structure",
        )
    numbers: dict[str, Any] = {}
    for key in ("swiss_rounds", "cut"):
        if key in raw:
            numbers[key] = reader.integer(raw[key], None, key)
    if "playoff_games" in raw:
        games = reader.integer(raw["playoff_games"], None, "playoff_games", 1)
        if games not in (1, 3):
            reader.fail(f"expected 1 or 3, got {games}", None, "playoff_games")
        numbers["playoff_games"] = games
    if "round_minutes" in raw:
        numbers["round_minutes"] = reader.integer(raw["round_minutes"], None, "round_minutes", 1)
    return structure, numbers


def _players(reader: _Reader, raw: Mapping[str, Any], regulation: str) -> list[Player]:
    """Read the players: factions the regulation allows, ids unique."""
    players_raw = raw.get("players")
    if not isinstance(players_raw, list):
        reader.fail(f"expected a list of players, got {show(players_raw)}", None, "players")
    players = [reader.player(p, i) for i, p in enumerate(players_raw)]
    factions = REGULATIONS[regulation].factions
    for i, p in enumerate(players):
        if factions and p.faction is not None and p.faction not in factions:
            reader.fail(
                f"expected one of {', '.join(factions)}, got {show(p.faction)}",
                f"players[{i}] {p.id!r}",
                "faction",
            )
    seen: set[str] = set()
    for i, p in enumerate(players):
        if p.id in seen:
            reader.fail(f"duplicate player id {p.id!r}", f"players[{i}]", "id")
        seen.add(p.id)
    return players


def parse_event(data: Any, source: str = "<event>") -> Event:
    """Return the event a parsed TOML/JSON structure describes.

    Raises
    ------
    EventFileError
        For any problem, naming the entry and key.
    """
    reader = _Reader(source)
    raw = reader.table(data, None, _EVENT_KEYS)
    game, regulation = _game_and_regulation(reader, raw)
    if "seed" not in raw:
        reader.fail("missing; random choices (round 1, ties, byes) come from it", None, "seed")
    seed = reader.integer(raw["seed"], None, "seed")
    name = reader.text(raw["name"], None, "name") if "name" in raw else ""
    tier = raw.get("tier", "competitive")
    if tier not in TIERS:
        reader.fail(f"expected one of {', '.join(TIERS)}, got {show(tier)}", None, "tier")
    structure, numbers = _structure_numbers(reader, raw, regulation)
    players = _players(reader, raw, regulation)
    rounds_raw = raw.get("rounds", [])
    if not isinstance(rounds_raw, list):
        reader.fail(f"expected a list of rounds, got {show(rounds_raw)}", None, "rounds")
    ids = {p.id for p in players}
    rounds = tuple(reader.round(r, n, ids) for n, r in enumerate(rounds_raw, 1))
    if "clock" in raw:
        numbers["clock"] = _clock(reader, raw["clock"])
    try:
        event = Event(
            game,
            regulation,
            name,
            seed,
            tuple(players),
            rounds,
            tier=tier,
            structure=structure,
            **numbers,
        )
    except TournamentError as error:
        raise tournament_error(error, source) from None
    _score_all(event, source)
    return event


def _score_all(event: Event, source: str) -> None:
    """Score every result as the file is read: a contradiction is bad input, not a finding."""
    games = 1
    if any(r.kind == "playoff" for r in event.rounds):
        try:
            games = structure_of(event).playoff_games
        except TournamentError as error:
            raise tournament_error(error, source) from None
    for number, round_ in enumerate(event.rounds, 1):
        for match in round_.matches:
            try:
                score_match(event.regulation, match, games if round_.kind == "playoff" else 1)
            except TournamentError as error:
                raise EventFileError(
                    error.message,
                    file=source,
                    entry=f"round {number} table {match.table}",
                    key=error.key,
                ) from None


def load_event(path: str | Path) -> Event:
    """Read and check an event file (TOML or JSON, by suffix).

    Raises
    ------
    EventFileError
        For any problem with the file, naming the entry and key.
    """
    data = read_data(path, "event", EventFileError)
    refuse_lone_surrogates(data, str(path), EventFileError)
    return parse_event(data, str(path))


def event_data(event: Event) -> dict[str, Any]:
    """Return the event as the structure its file holds (keys in the contract's order)."""
    data: dict[str, Any] = {"game": event.game, "regulation": event.regulation_id}
    if event.name:
        data["name"] = event.name
    data["seed"] = event.seed
    data["tier"] = event.tier
    for key in ("structure", "swiss_rounds", "cut", "playoff_games", "round_minutes"):
        value = getattr(event, key)
        if value is not None:
            data[key] = value
    players = []
    for p in event.players:
        entry: dict[str, Any] = {"id": p.id, "name": p.name}
        for key in _PLAYER_KEYS[2:]:
            value = getattr(p, key)
            if value is not None and value is not False:
                entry[key] = value
        players.append(entry)
    data["players"] = players
    rounds = []
    for r in event.rounds:
        entry = {"kind": r.kind}
        matches = []
        for m in r.matches:
            item: dict[str, Any] = {"table": m.table, "players": list(m.players)}
            for key in _MATCH_KEYS[2:]:
                value = getattr(m, key)
                if value is not None and value is not False:
                    item[key] = list(value) if isinstance(value, tuple) else value
            matches.append(item)
        if matches:
            entry["matches"] = matches
        if r.byes:
            entry["byes"] = [
                {"player": b.player} | ({"table": b.table} if b.table is not None else {})
                for b in r.byes
            ]
        rounds.append(entry)
    if rounds:
        data["rounds"] = rounds
    if event.clock is not None:
        data["clock"] = clock_data(event.clock)
    return data


def event_text(event: Event, path: str | Path) -> str:
    """Return the event file's text, TOML or JSON by the suffix of `path`.

    Raises
    ------
    EventFileError
        For a suffix other than ``.toml`` or ``.json``, or a name no file can hold.
    """
    return file_text(event_data(event), path, kind="event", error=EventFileError)


# -- written files are read back: the tool never writes a file it would then refuse -------


def checked_event_text(event: Event, path: str | Path) -> str:
    """Return the event file's text after reading it back as :func:`load_event` would.

    Every value a command would write (a TP, a seed, a count, a score past 64 bits, a
    key the game does not use) meets the loader's checks before anything is written.

    Raises
    ------
    EventFileError
        What loading the written file would raise, naming `path`, the entry and the key.
    """
    text = event_text(event, path)
    parse_event(parse_text(text, path, "event", EventFileError), str(path))
    return text


def write_event(
    event: Event,
    path: str | Path,
    inputs: list[str | Path] | None = None,
    *,
    force: bool = False,
) -> None:
    """Write the event atomically (TOML or JSON by suffix); never over one of `inputs`.

    An existing file is replaced only with `force` (an event updated in place is).
    """
    atomic_write(path, checked_event_text(event, path), inputs=inputs or [], force=force)
