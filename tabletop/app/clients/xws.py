"""XWS squad lists (elistevens/xws-spec) in: a player's ships and obstacle choices.

A list is a JSON object with ``pilots`` (each an object naming the pilot by ``id``, or
``name`` in XWS 1.x, and its ship by ``ship``) and optionally ``faction``, ``name`` and
``obstacles`` (the three tournament obstacles the player brings, by XWS id: the catalog
token names, such as ``core2asteroid5``). A list has no positions, so ``import`` refuses
it and points to what reads a list: ``check LIST`` (the tournament obstacle composition)
and ``setup --from LIST`` (a random legal table with the list's ships and obstacles).

A ship's base comes from ``data/xws-ships.json`` (ship XWS id -> size, made from
xwing-data2 by ``data/make_xws_ships.py``). A pilot that gives only its ``id`` (XWS 2.0
lists may leave ``ship`` out) flies the ship ``data/xws-pilots.json`` names (pilot XWS id
-> ship XWS id, made from xwing-data2 by ``data/make_xws_pilots.py``). A pilot id with its
ship appended (``dfs311-vultureclassdroidfighter``, the form of the XWS spec's own sample)
is that pilot of that ship.

A 1st-edition list (factions ``rebel``, ``imperial``, ``scum``, or XWS 0.1's ``rebels``
and ``empire``; or a version 0.x or 1.x without a 2.0 faction) is read against the 1st
edition's ships; its obstacle ids may be hyphenated (``core-asteroid-5``)
(``data/xws1-ships.json``, made from xwing-data by ``data/make_xws1_ships.py``) and laid
out under ``xwing1``. A 2.0 faction decides for 2.0 whatever the version: real exports of
the 2.0 builders state ``0.3.0``.

Examples
--------
>>> squad = parse_list(b'{"faction": "rebelalliance", "pilots": [{"id": "lukeskywalker",'
...                    b' "ship": "t65xwing"}], "obstacles": ["core2asteroid5"]}', "l.json")
>>> squad.pilots[0].base, squad.obstacles
('small', ('core2asteroid5',))
>>> parse_list(b'{"pilots": [{"id": "lukeskywalker"}]}', "l.json").pilots[0].ship
't65xwing'
>>> parse_list(b'{"pilots": [{"id": "dfs311-vultureclassdroidfighter"}]}', "l.json").pilots[0]
XwsPilot(id='dfs311-vultureclassdroidfighter', ship='vultureclassdroidfighter', base='small')
>>> first = parse_list(b'{"faction": "scum", "pilots": [{"name": "sunnybounder",'
...                    b' "ship": "m3ainterceptor"}], "version": "0.3.0"}', "l.json")
>>> first.ruleset, first.pilots[0].base
('xwing1', 'small')
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletop.app.clients.model import ClientFileError, ClientImport
from tabletop.app.clients.recognise import MAX_LIST_BYTES
from tabletop.app.clients.recognise import xws_list as recognises
from tabletop.geom.rulesets import get_ruleset
from tabletop.obstacles.catalog import catalog

__all__ = [
    "FIRST_EDITION_FACTIONS",
    "SECOND_EDITION_FACTIONS",
    "XwsList",
    "XwsPilot",
    "edition",
    "is_list_file",
    "parse_list",
    "pilot_ships",
    "read",
    "recognises",
    "ship_bases",
    "ship_bases_first_edition",
]

#: An XWS pilot id (schema.json: lower-case letters, digits and hyphens, not ending in one).
_PILOT_ID = re.compile(r"^[0-9a-z-]*[0-9a-z]$")
#: The factions of XWS 1.x (the 1st edition) and of XWS 2.x (xws-spec README, xwing-data2).
#: XWS 0.1 and 0.2 wrote ``rebels`` and ``empire`` (the xws-spec sample of those versions).
FIRST_EDITION_FACTIONS = frozenset({"rebel", "imperial", "scum", "rebels", "empire"})
#: A 1st-edition obstacle id (``core-asteroid-5``: EXPANSION-TYPE-N, xws-spec 0.3.0).
_HYPHENED_OBSTACLE = re.compile(r"^[a-z0-9]+-(asteroid|debris)-[0-9]+$")
SECOND_EDITION_FACTIONS = frozenset(
    {
        "rebelalliance",
        "galacticempire",
        "scumandvillainy",
        "resistance",
        "firstorder",
        "galacticrepublic",
        "separatistalliance",
    }
)
_VERSION_MAJOR = re.compile(r"^\s*(\d+)\.")


@functools.cache
def ship_bases() -> dict[str, str]:
    """Return ship XWS id -> base size (``small``, ``medium``, ``large``, ``huge``)."""
    path = Path(__file__).parent / "data" / "xws-ships.json"
    table: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))["ships"]
    return table


@functools.cache
def ship_bases_first_edition() -> dict[str, str]:
    """Return 1st-edition ship XWS id -> base size (``small``, ``large``, ``huge``)."""
    path = Path(__file__).parent / "data" / "xws1-ships.json"
    table: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))["ships"]
    return table


@functools.cache
def pilot_ships() -> dict[str, str]:
    """Return pilot XWS id -> the XWS id of the ship the pilot flies."""
    path = Path(__file__).parent / "data" / "xws-pilots.json"
    table: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))["pilots"]
    return table


@dataclass(frozen=True)
class XwsPilot:
    """One pilot of a list: its id (or XWS 1.x name), its ship and that ship's base."""

    id: str
    ship: str
    base: str


@dataclass(frozen=True)
class XwsList:
    """A parsed XWS list."""

    file: str
    name: str | None
    faction: str | None
    pilots: tuple[XwsPilot, ...]
    obstacles: tuple[str, ...] | None
    ruleset: str = "xwing2"
    #: Why the list was read as it was (``faction 'scum'``, ``version 0.3.0``), or None.
    edition_reason: str | None = None


def is_list_file(path: str) -> bool:
    """Tell whether `path` names a readable regular file holding an XWS list."""
    try:
        with open(path, "rb") as stream:
            head = stream.read(MAX_LIST_BYTES + 1)
    except OSError:
        return False
    return recognises(head)


def _text(value: Any, file: str, entry: str, key: str, expected: str) -> str:
    if not isinstance(value, str) or not value:
        raise ClientFileError(
            f"expected {expected}, got {json.dumps(value)[:60]}", file=file, entry=entry, key=key
        )
    return value


def _ship_of_pilot(pilot: str, file: str, entry: str, key: str) -> str:
    """Return the ship of a pilot named without one, from the pilot table."""
    ship = pilot_ships().get(pilot)
    if ship is None:
        raise ClientFileError(
            f"unknown pilot {pilot!r} and no 'ship' key: expected a pilot XWS id of "
            "xwing-data2 (such as lukeskywalker, or dfs311-vultureclassdroidfighter with "
            "its ship appended), or the pilot's ship given by 'ship'",
            file=file,
            entry=entry,
            key=key,
        )
    return ship


def _appended_ship(pilot: str) -> str | None:
    """Return the ship a pilot id names after its last hyphens (``dfs311-<ship>``), if any.

    Examples
    --------
    >>> _appended_ship("dfs311-vultureclassdroidfighter"), _appended_ship("lukeskywalker")
    ('vultureclassdroidfighter', None)
    """
    if pilot in pilot_ships():
        return None
    parts = pilot.split("-")
    for cut in range(1, len(parts)):
        ship = "-".join(parts[cut:])
        if ship in ship_bases():
            return ship
    return None


def _second_edition_ship(raw: dict[str, Any], pilot: str, file: str, entry: str, key: str) -> str:
    appended = _appended_ship(pilot)
    if "ship" in raw:
        ship = _text(raw.get("ship"), file, entry, "ship", "the ship's XWS id (a string)")
        if ship not in ship_bases() and pilot in pilot_ships():
            # A 2.0 builder's export may name the ship by its 1st-edition id ("xwing"):
            # the pilot id says which 2.0 ship it is.
            return pilot_ships()[pilot]
        return ship
    return appended or _ship_of_pilot(pilot, file, entry, key)


def _pilot(index: int, raw: Any, file: str, ruleset: str = "xwing2") -> XwsPilot:
    entry = f"pilots[{index}]"
    if not isinstance(raw, dict):
        raise ClientFileError("expected an object (a pilot)", file=file, entry=entry)
    key = "id" if "id" in raw else "name"
    pilot = _text(raw.get(key), file, entry, key, "the pilot's XWS id (a string)")
    if not _PILOT_ID.match(pilot):
        raise ClientFileError(
            f"{pilot!r} is not an XWS pilot id: expected lower-case letters, digits and "
            "hyphens (such as lukeskywalker)",
            file=file,
            entry=entry,
            key=key,
        )
    if ruleset == "xwing1":
        ship = _text(raw.get("ship"), file, entry, "ship", "the ship's XWS id (a string)")
        base = ship_bases_first_edition().get(ship)
        if base is None:
            raise ClientFileError(
                f"unknown 1st-edition ship {ship!r}: the list is read as a 1st-edition "
                "list; expected an XWS ship id of xwing-data (such as xwing or tiefighter)",
                file=file,
                entry=entry,
                key="ship",
            )
        return XwsPilot(pilot, ship, base)
    ship = _second_edition_ship(raw, pilot, file, entry, key)
    base = ship_bases().get(ship)
    if base is None:
        raise ClientFileError(
            f"unknown ship {ship!r}: expected an XWS ship id of xwing-data2 "
            "(such as t65xwing or tielnfighter)",
            file=file,
            entry=entry,
            key="ship",
        )
    return XwsPilot(pilot, ship, base)


def edition(raw: dict[str, Any]) -> tuple[str, str | None]:
    """Return the ruleset a list is read under, and why (None: a 2.0 list as most are).

    A 1st-edition faction (``rebel``, ``imperial``, ``scum``) makes a 1st-edition list; a
    2.0 faction a 2.0 list, whatever the version (the 2.0 builders' real exports state
    ``0.3.0``); without either, a version 0.x or 1.x makes a 1st-edition list.

    Examples
    --------
    >>> edition({"faction": "scum"}), edition({"faction": "scumandvillainy", "version": "0.3.0"})
    (('xwing1', "faction 'scum'"), ('xwing2', None))
    >>> edition({"version": "0.3.0"}), edition({"version": "2.5.0"})
    (('xwing1', 'version 0.3.0'), ('xwing2', None))
    """
    faction = raw.get("faction")
    if faction in FIRST_EDITION_FACTIONS:
        return "xwing1", f"faction {faction!r}"
    if faction in SECOND_EDITION_FACTIONS:
        return "xwing2", None
    version = raw.get("version")
    if not isinstance(version, str):
        return "xwing2", None
    major = _VERSION_MAJOR.match(version)
    if major is not None and int(major.group(1)) < 2:
        return "xwing1", f"version {version.strip()}"
    return "xwing2", None


def _obstacles(raw: Any, file: str, ruleset: str = "xwing2") -> tuple[str, ...] | None:
    if raw is None:
        return None
    if not isinstance(raw, list):
        raise ClientFileError(
            "expected a list of obstacle ids", file=file, entry="the list", key="obstacles"
        )
    if not raw:
        return None  # builders export "obstacles": [] for a list that chose none
    known = catalog(get_ruleset(ruleset))
    found = []
    for index, value in enumerate(raw):
        name = _text(value, file, f"obstacles[{index}]", "obstacles", "an XWS obstacle id")
        if name not in known and _HYPHENED_OBSTACLE.match(name):
            name = name.replace("-", "")  # the 1st-edition form of the same id
        if name not in known:
            raise ClientFileError(
                f"unknown obstacle {name!r}: expected an XWS obstacle id, one of "
                + ", ".join(sorted(known)),
                file=file,
                entry=f"obstacles[{index}]",
                key="obstacles",
            )
        found.append(name)
    return tuple(found)


def parse_list(data: bytes, file: str) -> XwsList:
    """Parse and validate an XWS list.

    Raises
    ------
    ClientFileError
        Naming the file, the entry (``pilots[2]``, ``obstacles[1]``) and the key: for
        JSON that does not parse, a list without pilots, an unknown ship or obstacle id.
    """
    try:
        raw = json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError) as problem:
        raise ClientFileError(f"not a JSON document ({problem})", file=file) from None
    if not isinstance(raw, dict):
        raise ClientFileError("expected a JSON object (an XWS list)", file=file)
    pilots_raw = raw.get("pilots")
    if not isinstance(pilots_raw, list) or not pilots_raw:
        raise ClientFileError(
            "expected a non-empty list of pilots", file=file, entry="the list", key="pilots"
        )
    for key in ("name", "faction"):
        if key in raw and not isinstance(raw[key], str):
            raise ClientFileError("expected a string", file=file, entry="the list", key=key)
    ruleset, reason = edition(raw)
    pilots = tuple(_pilot(i, p, file, ruleset) for i, p in enumerate(pilots_raw))
    return XwsList(
        file,
        raw.get("name"),
        raw.get("faction"),
        pilots,
        _obstacles(raw.get("obstacles"), file, ruleset),
        ruleset,
        reason,
    )


def read(data: bytes, name: str, *, table: str | None, step: int | None) -> ClientImport:
    """Refuse to import a list: it has no positions (see ``check`` and ``setup --from``).

    Raises
    ------
    ClientFileError
        Always: the list's own errors first, else the pointer to what reads a list.
    """
    del table, step
    parse_list(data, name)
    raise ClientFileError(
        "an XWS list holds ships and obstacle choices but no positions: check its "
        f"obstacles with `tabletop check {name}`, or lay out a legal random table with "
        f"`tabletop setup --from {name} -o SCENE`",
        file=name,
    )
