"""Dogfight game files: TOML or JSON as ``dogfight.md`` shows, read with the scene files' discipline.

Every problem is a :class:`DogfightFileError` naming the file, the entry (``play 7``,
``fighters.rebels``, ``cards``) and the key, and saying what was expected. The structure
is checked here; the position's rules (squares, types, card counts, one fighter a
square) by :mod:`tabletop.boards.dogfight`, whose errors are turned into file errors.

Examples
--------
>>> parsed = parse_game_file({"game": "dogfight", "seed": 11, "plays": ["pass"]}, "g.toml")
>>> parsed.kind, parsed.plays
('position', ('pass',))
>>> parse_game_file({"game": "dogfight", "phase": "defend"}, "g.toml").start(Dogfight())
Traceback (most recent call last):
...
tabletop.app.dogfight.gamefile.DogfightFileError: g.toml: phase: expected vector, move or fire (a file never starts in defend), got 'defend'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletop.app.common.datafile import FileError, read_data, refuse_lone_surrogates, show
from tabletop.app.common.datatext import file_text
from tabletop.boards import InvalidPositionError, ReplayError, replay
from tabletop.boards.dogfight import (
    SIDES,
    STANDARD,
    Dogfight,
    Position,
    Violation,
    placement_violations,
)

__all__ = [
    "DogfightFileError",
    "GameFile",
    "game_log_text",
    "load_game_file",
    "parse_game_file",
]

_KEYS = (
    "game",
    "to_play",
    "phase",
    "seed",
    "deck",
    "kills",
    "quiet_turns",
    "plays",
    "fighters",
    "cards",
)
#: What the top-level ``deck`` may say: cards shuffled from the seed, or a real deck
#: whose draws are plays (``draw CARD``).
DECKS = ("seeded", "physical")
_CARD_KEYS = ("rebels", "empire", "deck", "discard")
#: The largest seed a file may give (TOML's largest integer).
MAX_SEED = 2**63 - 1
#: Most plays a file may hold (a game ends long before: 100 quiet turns draw).
MAX_PLAYS = 1_000_000


class DogfightFileError(FileError):
    """A Dogfight game file that cannot be used."""


@dataclass(frozen=True, slots=True)
class GameFile:
    """A game file whose structure is sound: its position's parts and its plays.

    Attributes
    ----------
    kind : str
        ``setup`` (kills 0-0, vector phase, no plays, no cards in hands or discard) or
        ``position``.
    placements : tuple
        ``(side, square, type)`` of every fighter, as the file lists them.
    """

    file: str
    kind: str
    placements: tuple[tuple[str, str, str], ...]
    plays: tuple[str, ...]
    settings: Mapping[str, Any]

    def violations(self) -> list[Violation]:
        """Return the broken rules of the file's fighters, judged as its kind.

        Raises
        ------
        DogfightFileError
            For an unknown fighter type or a square off the board.
        """
        try:
            return placement_violations(STANDARD, self.placements, setup=self.kind == "setup")
        except InvalidPositionError as error:
            raise DogfightFileError(error.reason, file=self.file, entry=error.entry) from None

    def start(self, game: Dogfight) -> Position:
        """Build the file's position (before its plays).

        Raises
        ------
        DogfightFileError
            For a position the rules refuse, naming the entry.
        """
        fighters: dict[str, dict[str, str]] = {side: {} for side in SIDES}
        for side, square, kind in self.placements:
            fighters[side][square] = kind  # a side's table has each square once
        try:
            return game.position(fighters, **self.settings)
        except InvalidPositionError as error:
            raise DogfightFileError(error.reason, file=self.file, entry=error.entry) from None

    def check_settings(self, game: Dogfight) -> None:
        """Check everything but the fighters (cards, kills, phase, side), as bad input.

        ``check`` reports the fighters' violations; the rest of a file must still be
        usable, so it is judged on the standard setup.

        Raises
        ------
        DogfightFileError
            For an unknown card, more copies than the deck has, a bad phase or side.
        """
        try:
            game.position(None, **self.settings)
        except InvalidPositionError as error:
            raise DogfightFileError(error.reason, file=self.file, entry=error.entry) from None

    def final(self, game: Dogfight) -> Position:
        """Build the position and apply the file's plays in order, each checked.

        Raises
        ------
        DogfightFileError
            For the first play that cannot be read or is illegal: its number (from 1),
            its text, and the rule it breaks in words.
        """
        start = self.start(game)
        try:
            return replay(game, start, self.plays).state
        except ReplayError as error:
            cause = error.cause
            rule = f" (rule: {error.rule})" if error.rule else ""
            raise DogfightFileError(
                f"{cause.play!r}: {cause.reason}{rule}",
                file=self.file,
                entry=f"play {error.number}",
                key="plays",
            ) from None


def _fail(message: str, file: str, entry: str | None = None, key: str | None = None) -> Any:
    raise DogfightFileError(message, file=file, entry=entry, key=key)


def _integer(value: Any, file: str, key: str, entry: str | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(f"expected a whole number, got {show(value)}", file, entry, key)
    if value < 0:
        _fail(f"expected 0 or more, got {value}", file, entry, key)
    if value > MAX_SEED:  # TOML's integers are 64-bit: no larger count or seed is written
        _fail(f"expected at most {MAX_SEED} (2**63 - 1), got a larger number", file, entry, key)
    return int(value)


def _names(value: Any, file: str, key: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        _fail(f"expected a list of card names, got {show(value)}", file, "cards", key)
    return list(value)


def parse_game_file(data: Any, file: str = "<game>") -> GameFile:
    """Check a game file's structure and return its parts.

    Raises
    ------
    DogfightFileError
        For a missing or wrong ``game``, an unknown key, or a value of the wrong type.
    """
    _check_top(data, file)
    settings = _settings(data, file)
    plays = _plays(data, file)
    placements = _placements(data, file)
    hands: dict[str, list[str]] = {}
    if "cards" in data:
        hands = _cards(data["cards"], file, settings)
    setup = (
        not any(settings["kills"].values())
        and settings.get("phase", "vector") == "vector"
        and not plays
        and not any(hands.values())
        and not settings.get("discard")
    )
    return GameFile(
        file, "setup" if setup else "position", tuple(placements), tuple(plays), settings
    )


def _check_top(data: Any, file: str) -> None:
    """Refuse anything but a table of known keys with ``game = "dogfight"``."""
    if not isinstance(data, dict):
        _fail("expected a table of keys at the top of the file", file)
    for key in data:
        if key not in _KEYS:
            _fail(f"unknown key; expected one of: {', '.join(_KEYS)}", file, key=key)
    if "game" not in data:
        _fail('missing; expected game = "dogfight"', file, key="game")
    if data["game"] != "dogfight":
        _fail(f'expected "dogfight", got {show(data["game"])}', file, key="game")


def _settings(data: dict[str, Any], file: str) -> dict[str, Any]:
    """Return the position's settings: side, phase, seed, deck, quiet turns and kills."""
    settings: dict[str, Any] = {}
    for key in ("to_play", "phase"):
        if key in data:
            if not isinstance(data[key], str):
                _fail(f"expected a text, got {show(data[key])}", file, key=key)
            settings[key] = data[key]
    settings["seed"] = _integer(data.get("seed", 0), file, "seed")
    deck = data.get("deck", "seeded")
    if deck not in DECKS:
        _fail(f'expected "seeded" or "physical", got {show(deck)}', file, key="deck")
    if deck == "physical":
        settings["physical"] = True
    if settings["seed"] > MAX_SEED:
        _fail(f"expected at most {MAX_SEED} (2**63 - 1), got {settings['seed']}", file, key="seed")
    settings["quiet_turns"] = _integer(data.get("quiet_turns", 0), file, "quiet_turns")
    kills = data.get("kills", {})
    if not isinstance(kills, dict):
        _fail(
            f"expected a table like {{ rebels = 0, empire = 0 }}, got {show(kills)}",
            file,
            key="kills",
        )
    for side, count in kills.items():
        if side not in SIDES:
            _fail("unknown side; expected rebels or empire", file, "kills", side)
        _integer(count, file, side, "kills")
    settings["kills"] = dict(kills)
    return settings


def _plays(data: dict[str, Any], file: str) -> list[str]:
    """Return the file's play texts, refusing a non-list, too many, or a non-text."""
    plays = data.get("plays", [])
    if not isinstance(plays, list):
        _fail(f"expected a list of play texts, got {show(plays)}", file, key="plays")
    if len(plays) > MAX_PLAYS:
        _fail(f"{len(plays)} plays; at most {MAX_PLAYS}", file, key="plays")
    for number, text in enumerate(plays, start=1):
        if not isinstance(text, str):
            _fail(f"expected a play text, got {show(text)}", file, f"play {number}", "plays")
    return list(plays)


def _placements(data: dict[str, Any], file: str) -> list[tuple[str, str, str]]:
    """Return ``(side, square, type)`` of the file's fighters (the standard setup if none)."""
    if "fighters" not in data:
        return [
            (side, square, kind) for side in SIDES for square, kind in STANDARD.setup[side].items()
        ]
    fighters = data["fighters"]
    if not isinstance(fighters, dict):
        _fail(
            f"expected [fighters.rebels] and [fighters.empire], got {show(fighters)}",
            file,
            key="fighters",
        )
    for side in fighters:
        if side not in SIDES:
            _fail("unknown side; expected rebels or empire", file, "fighters", side)
    placements: list[tuple[str, str, str]] = []
    for side in SIDES:
        if side not in fighters:
            _fail(
                f"missing [fighters.{side}]; with [fighters], give both sides",
                file,
                "fighters",
                side,
            )
        table = fighters[side]
        if not isinstance(table, dict):
            _fail(f"expected a table of square = type, got {show(table)}", file, "fighters", side)
        for square, kind in table.items():
            if not isinstance(kind, str):
                _fail(
                    f"expected a fighter type, got {show(kind)}", file, f"fighters.{side}", square
                )
            placements.append((side, square, kind))
    return placements


def _cards(cards: Any, file: str, settings: dict[str, Any]) -> dict[str, list[str]]:
    """Put the ``[cards]`` table's hands, deck and discard in `settings`; return the hands."""
    if not isinstance(cards, dict):
        _fail(
            f"expected a table of rebels, empire, deck and discard, got {show(cards)}",
            file,
            key="cards",
        )
    for key in cards:
        if key not in _CARD_KEYS:
            _fail(f"unknown key; expected one of: {', '.join(_CARD_KEYS)}", file, "cards", key)
    hands = {side: _names(cards[side], file, side) for side in SIDES if side in cards}
    settings["hands"] = hands
    if "deck" in cards:
        settings["deck"] = _names(cards["deck"], file, "deck")
    settings["discard"] = _names(cards.get("discard", []), file, "discard")
    return hands


def load_game_file(path: str | Path) -> GameFile:
    """Read and check a game file (TOML or JSON, by its suffix).

    Raises
    ------
    DogfightFileError
        For a file that cannot be read or whose structure is wrong.
    """
    data = read_data(path, "game", error=DogfightFileError)
    refuse_lone_surrogates(data, str(path), DogfightFileError)
    return parse_game_file(data, str(path))


def game_log_text(seed: int, plays: Sequence[str], path: str | Path) -> str:
    """Return a replayable game file (the standard setup, `seed`, `plays`) as TOML or JSON.

    Raises
    ------
    DogfightFileError
        For a suffix other than ``.toml`` or ``.json``.
    """
    data = {"game": "dogfight", "seed": seed, "plays": list(plays)}
    return file_text(data, path, kind="game", error=DogfightFileError)
