"""Pocket Battles battle files: TOML or JSON, read and written as ``pocket-battles.md`` says.

Every problem is a :class:`BattleFileError` naming the file, the entry (an army, a unit
or a troop by id, or a play by its number), the key and what was expected. Nothing is
guessed: unknown keys, a troop in two units, a zone such as ``D7``, a file with some units
zoned and some not, are all errors.

Examples
--------
>>> battle, plays = parse_battle(battle_data(example_battle()), "b.toml")
>>> battle.size, [a.name for a in battle.armies], plays
(60, ['Example red', 'Example blue'], [])
>>> bad = battle_data(example_battle())
>>> bad["armies"][0]["units"][0]["zone"] = "D7"
>>> parse_battle(bad, "b.toml")
Traceback (most recent call last):
...
tabletop.app.pocket.battlefile.BattleFileError: b.toml: armies[0] units[0] 'spears': key 'zone': 'D7' is not a zone; expected A1-C5 (sector A, B or C, row 1 to 5)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, NoReturn

from tabletop.app.common.datafile import FileError, read_data, refuse_lone_surrogates, show
from tabletop.boards.errors import InvalidPlayError, InvalidPositionError, ReplayError
from tabletop.boards.game import replay
from tabletop.boards.pocket import (
    Army,
    Battle,
    PocketBattles,
    PocketRules,
    PocketState,
    Troop,
    UnitSpec,
    example_battle,
    parse_trait,
)
from tabletop.boards.pocket.plays import Play
from tabletop.boards.pocket.rules import RULING_OPTIONS
from tabletop.boards.pocket.zones import is_zone

__all__ = [
    "MAX_BATTLE_SIZE",
    "BattleFile",
    "BattleFileError",
    "battle_data",
    "example_battle",
    "load_battle",
    "parse_battle",
    "read_plays",
    "replay_battle",
]

#: The largest battle size read, points: 1,000 tokens a round; far past any played.
MAX_BATTLE_SIZE = 10_000
#: The largest whole number a file may hold: TOML's integers are 64-bit.
_MOST_INTEGER = 2**63 - 1
_TOP_KEYS = ("game", "size", "attacker", "seed", "plays", "armies", "rules")
_ARMY_KEYS = ("player", "name", "units")
_UNIT_KEYS = ("id", "zone", "troops")
_TROOP_KEYS = ("id", "points", "formation", "wounds", "melee", "shoot", "traits")
_MAX_PLAYS = 100_000


class BattleFileError(FileError):
    """A battle file that cannot be used, with the file, entry and key at fault."""


@dataclass(frozen=True, slots=True)
class BattleFile:
    """A loaded battle file: the setup and the plays so far (as written)."""

    path: str
    battle: Battle
    plays: tuple[str, ...]


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, message: str, entry: str | None = None, key: str | None = None) -> NoReturn:
        raise BattleFileError(message, file=self.source, entry=entry, key=key)

    def table(self, value: Any, entry: str | None, allowed: Sequence[str]) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            self.fail(f"expected a table, got {show(value)}", entry)
        for key in value:
            if key not in allowed:
                self.fail(f"unknown key; expected one of: {', '.join(allowed)}", entry, str(key))
        return value

    def integer(
        self, value: Any, entry: str | None, key: str, low: int, high: int | None = None
    ) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"expected a whole number, got {show(value)}", entry, key)
        high = _MOST_INTEGER if high is None else high
        if value < low or value > high:
            if abs(value) > _MOST_INTEGER:  # a number of 4,000 digits is not printed whole
                self.fail(
                    f"expected a whole number from {low} to {high}, got a huge one", entry, key
                )
            span = f"from {low}" + (f" to {high}" if high is not None else " up")
            self.fail(f"expected a whole number {span}, got {value}", entry, key)
        return value

    def word(self, value: Any, entry: str | None, key: str) -> str:
        if not isinstance(value, str) or not value or value.split() != [value]:
            self.fail(f"expected an id: one word with no spaces, got {show(value)}", entry, key)
        return value

    def items(self, value: Any, entry: str | None, key: str) -> list[Any]:
        if not isinstance(value, list):
            self.fail(f"expected a list, got {show(value)}", entry, key)
        return value


def _troop(r: _Reader, raw: Any, where: str, seen: dict[str, str], unit: str) -> Troop:
    entry = where
    if isinstance(raw, Mapping) and isinstance(raw.get("id"), str):
        entry = f"{where} {raw['id']!r}"
    t = r.table(raw, entry, _TROOP_KEYS)
    for key in ("id", "points", "formation", "wounds"):
        if key not in t:
            r.fail("missing; every troop has id, points, formation and wounds", entry, key)
    troop_id = r.word(t["id"], entry, "id")
    # A troop belongs to one unit only.
    if troop_id in seen:
        r.fail(
            f"troop {troop_id!r} is already in unit {seen[troop_id]!r}; a troop is in one unit",
            entry,
            "id",
        )
    seen[troop_id] = unit
    dice = {}
    for key in ("melee", "shoot"):
        dice[key] = None if t.get(key) is None else r.integer(t[key], entry, key, 1, 6)
    traits = r.items(t.get("traits", []), entry, "traits")
    for text in traits:
        if not isinstance(text, str):
            r.fail(f"expected a trait name, got {show(text)}", entry, "traits")
        try:
            parse_trait(text)
        except InvalidPositionError as error:
            r.fail(error.reason, entry, "traits")
    return Troop(
        troop_id,
        r.integer(t["points"], entry, "points", 0),
        r.integer(t["formation"], entry, "formation", 1),
        r.integer(t["wounds"], entry, "wounds", 0),
        dice["melee"],
        dice["shoot"],
        tuple(traits),
    )


def _army(
    r: _Reader, raw: Any, index: int, units_seen: set[str], troops_seen: dict[str, str]
) -> Army:
    where = f"armies[{index}]"
    a = r.table(raw, where, _ARMY_KEYS)
    if "player" not in a:
        r.fail("missing; expected 1 or 2", where, "player")
    player = r.integer(a["player"], where, "player", 1, 2)
    name = a.get("name", f"Army {player}")
    if not isinstance(name, str):
        r.fail(f"expected a text, got {show(name)}", where, "name")
    units = []
    for k, raw_unit in enumerate(r.items(a.get("units", []), where, "units")):
        entry = f"{where} units[{k}]"
        if isinstance(raw_unit, Mapping) and isinstance(raw_unit.get("id"), str):
            entry += f" {raw_unit['id']!r}"
        u = r.table(raw_unit, entry, _UNIT_KEYS)
        if "id" not in u:
            r.fail("missing; every unit has an id", entry, "id")
        unit_id = r.word(u["id"], entry, "id")
        if unit_id in units_seen:
            r.fail(
                f"unit {unit_id!r} is given twice; unit ids are unique in the battle", entry, "id"
            )
        units_seen.add(unit_id)
        zone = u.get("zone")
        if zone is not None and (not isinstance(zone, str) or not is_zone(zone)):
            r.fail(
                f"{show(zone)} is not a zone; expected A1-C5 (sector A, B or C, row 1 to 5)",
                entry,
                "zone",
            )
        if "troops" not in u:
            # A unit without the key is a mistyped file, not an empty unit (troops = []
            # is the check verdict unit-empty).
            r.fail(f"unit {unit_id!r} has no troops key; expected troops = [...]", entry, "troops")
        raw_troops = r.items(u["troops"], entry, "troops")
        troops = tuple(
            _troop(r, raw_troop, f"{entry} troops[{j}]", troops_seen, unit_id)
            for j, raw_troop in enumerate(raw_troops)
        )
        units.append(UnitSpec(unit_id, troops, zone))
    return Army(player, name, tuple(units))


def parse_battle(data: Any, source: str = "<battle>") -> tuple[Battle, list[str]]:
    """Read a battle file's structure: the setup and the play texts.

    Raises
    ------
    BattleFileError
        For any problem, naming the entry and key.
    """
    r = _Reader(source)
    top = r.table(data, None, _TOP_KEYS)
    if top.get("game", "pocket-battles") != "pocket-battles":
        r.fail(f"expected 'pocket-battles', got {show(top['game'])}", None, "game")
    for key in ("size", "armies"):
        if key not in top:
            r.fail("missing", None, key)
    # The size is checked by the rules (check reports it); here it must be a number.
    size = r.integer(top["size"], None, "size", 0, MAX_BATTLE_SIZE)
    attacker = r.integer(top.get("attacker", 1), None, "attacker", 1, 2)
    seed = r.integer(top.get("seed", 0), None, "seed", 0, _MOST_INTEGER)
    rules = PocketRules()
    if "rules" in top:
        options = r.table(top["rules"], "rules", tuple(RULING_OPTIONS))
        for key, value in options.items():
            if value not in RULING_OPTIONS[key]:
                r.fail(
                    f"expected one of: {', '.join(RULING_OPTIONS[key])}; got {show(value)}",
                    "rules",
                    key,
                )
        rules = PocketRules(**options)
    raw_armies = r.items(top["armies"], None, "armies")
    if len(raw_armies) != 2:
        r.fail(f"expected two armies, got {len(raw_armies)}", None, "armies")
    units_seen: set[str] = set()
    troops_seen: dict[str, str] = {}
    armies = [_army(r, raw, i, units_seen, troops_seen) for i, raw in enumerate(raw_armies)]
    if {a.player for a in armies} != {1, 2}:
        r.fail("expected one army of player 1 and one of player 2", "armies[1]", "player")
    armies.sort(key=lambda a: a.player)
    # Every unit zoned (deployed) or none (deployment by plays).
    zoned = [u.zone is not None for a in armies for u in a.units]
    if any(zoned) and not all(zoned):
        missing = [u.id for a in armies for u in a.units if u.zone is None]
        r.fail(
            "some units have a zone and some not; give every unit a zone or none "
            f"(no zone: {', '.join(missing)})",
            None,
            "armies",
        )
    plays = r.items(top.get("plays", []), None, "plays")
    if len(plays) > _MAX_PLAYS:
        r.fail(f"{len(plays)} plays; at most {_MAX_PLAYS}", None, "plays")
    for number, text in enumerate(plays, start=1):
        if not isinstance(text, str):
            r.fail(f"expected a play's text, got {show(text)}", f"play {number}")
    return Battle(size, (armies[0], armies[1]), attacker, seed, rules), list(plays)


def load_battle(path: str | Path) -> BattleFile:
    """Read a battle file (by suffix, ``.toml`` or ``.json``)."""
    data = read_data(path, "battle", error=BattleFileError)
    refuse_lone_surrogates(data, str(path), BattleFileError)
    battle, plays = parse_battle(data, str(path))
    return BattleFile(str(path), battle, tuple(plays))


def read_plays(file: BattleFile) -> list[Play]:
    """Read every play text of the file (without applying them).

    Raises
    ------
    BattleFileError
        For the first play that cannot be read (an unknown unit or troop included).
    """
    game = PocketBattles(file.battle)
    plays = []
    for number, text in enumerate(file.plays, start=1):
        try:
            plays.append(game.parse_play(text))
        except InvalidPlayError as error:
            raise BattleFileError(
                f"{text!r}: {error.reason}", file=file.path, entry=f"play {number}"
            ) from None
    return plays


def replay_battle(file: BattleFile) -> tuple[PocketBattles, PocketState]:
    """Replay the file's plays from the start; return the rules object and the position.

    Raises
    ------
    BattleFileError
        For the first play that cannot be read or is illegal, naming its number and rule.
    """
    game = PocketBattles(file.battle)
    try:
        state = replay(game, game.start(), file.plays).state
    except ReplayError as error:
        cause = error.cause
        rule = f" (rule: {error.rule})" if error.rule else ""
        raise BattleFileError(
            f"{cause.play!r}: {cause.reason}{rule}", file=file.path, entry=f"play {error.number}"
        ) from None
    return game, state


def battle_data(battle: Battle, plays: Sequence[str] = ()) -> dict[str, Any]:
    """Return a battle as the file's structure (what :func:`parse_battle` reads)."""
    data: dict[str, Any] = {
        "game": "pocket-battles",
        "size": battle.size,
        "attacker": battle.attacker,
        "seed": battle.seed,
    }
    changed = {
        f.name: getattr(battle.rules, f.name)
        for f in fields(battle.rules)
        if f.name in RULING_OPTIONS and getattr(battle.rules, f.name) != f.default
    }
    if changed:
        data["rules"] = changed
    if plays:
        data["plays"] = list(plays)
    data["armies"] = [
        {
            "player": army.player,
            "name": army.name,
            "units": [
                {
                    "id": u.id,
                    **({"zone": u.zone} if u.zone else {}),
                    "troops": [t.to_dict() for t in u.troops],
                }
                for u in army.units
            ],
        }
        for army in battle.armies
    ]
    return data
