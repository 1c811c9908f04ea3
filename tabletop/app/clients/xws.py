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
-> ship XWS id, made from xwing-data2 by ``data/make_xws_pilots.py``).

Examples
--------
>>> squad = parse_list(b'{"faction": "rebelalliance", "pilots": [{"id": "lukeskywalker",'
...                    b' "ship": "t65xwing"}], "obstacles": ["core2asteroid5"]}', "l.json")
>>> squad.pilots[0].base, squad.obstacles
('small', ('core2asteroid5',))
>>> parse_list(b'{"pilots": [{"id": "lukeskywalker"}]}', "l.json").pilots[0].ship
't65xwing'
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletop.app.clients.model import ClientFileError, ClientImport
from tabletop.geom.rulesets import get_ruleset
from tabletop.obstacles.catalog import catalog

__all__ = [
    "XwsList",
    "XwsPilot",
    "is_list_file",
    "parse_list",
    "pilot_ships",
    "read",
    "recognises",
    "ship_bases",
]

#: Largest list read, bytes (a list is a few kilobytes).
MAX_LIST_BYTES = 1024 * 1024
#: An XWS pilot id (schema.json: lower-case letters, digits and hyphens, not ending in one).
_PILOT_ID = re.compile(r"^[0-9a-z-]*[0-9a-z]$")


@functools.cache
def ship_bases() -> dict[str, str]:
    """Return ship XWS id -> base size (``small``, ``medium``, ``large``, ``huge``)."""
    path = Path(__file__).parent / "data" / "xws-ships.json"
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


def _json(data: bytes) -> Any:
    return json.loads(data.decode("utf-8"))


def recognises(data: bytes) -> bool:
    """Tell whether `data` is an XWS list: a JSON object with a ``pilots`` list.

    Examples
    --------
    >>> recognises(b'{"pilots": []}'), recognises(b'{"ObjectStates": []}'), recognises(b"x")
    (True, False, False)
    """
    if len(data) > MAX_LIST_BYTES or not data.lstrip().startswith(b"{"):
        return False
    if b'"pilots"' not in data and b"\\" not in data:
        # No "pilots" key, written plainly or with an escape: not a list, and a large
        # scene file is not parsed to find that out.
        return False
    try:
        parsed = _json(data)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return False
    return (
        isinstance(parsed, dict)
        and isinstance(parsed.get("pilots"), list)
        and "ObjectStates" not in parsed
    )


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
            "xwing-data2 (such as lukeskywalker), or the pilot's ship given by 'ship'",
            file=file,
            entry=entry,
            key=key,
        )
    return ship


def _pilot(index: int, raw: Any, file: str) -> XwsPilot:
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
    if "ship" in raw:
        ship = _text(raw.get("ship"), file, entry, "ship", "the ship's XWS id (a string)")
    else:
        ship = _ship_of_pilot(pilot, file, entry, key)
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


def _obstacles(raw: Any, file: str) -> tuple[str, ...] | None:
    if raw is None:
        return None
    if not isinstance(raw, list):
        raise ClientFileError(
            "expected a list of obstacle ids", file=file, entry="the list", key="obstacles"
        )
    known = catalog(get_ruleset("xwing2"))
    found = []
    for index, value in enumerate(raw):
        name = _text(value, file, f"obstacles[{index}]", "obstacles", "an XWS obstacle id")
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
        raw = _json(data)
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
    pilots = tuple(_pilot(i, p, file) for i, p in enumerate(pilots_raw))
    return XwsList(
        file, raw.get("name"), raw.get("faction"), pilots, _obstacles(raw.get("obstacles"), file)
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
