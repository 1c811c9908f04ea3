"""The shared model of every client reader: what one imported position is, and its report.

Each reader (a TTS mod, a VASSAL module, an XWS list) turns a client file into one
:class:`ClientImport` per position (a log gives one per :class:`Step`). The import report
of ``import.md`` and the scene-file structure are built here, once, for every client.

Examples
--------
>>> position = ClientImport(
...     source=SourceInfo("tts-xwing2", "tts-save", None),
...     ruleset="xwing2",
...     imported=(Imported("Wedge", "a1b2c3", "ship", 100.0, 50.0, 90.0, "small", player=1),),
...     skipped=(Skipped("d4e5f6", "Die", "a die: not a ship or an obstacle"),),
...     table={"source_id": "m1", "name": "Mat"},
...     resolution=Resolution(0.001, 0.001),
...     matches=(),
...     unconfirmed=(),
... )
>>> position.scene_data()["ships"]
[{'id': 'Wedge', 'base': 'small', 'at': [100.0, 50.0], 'heading': 90.0, 'player': 1}]
>>> position.report()["imported"][0]["at"]
[100.0, 50.0]
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from tabletop.app.common.datafile import FileError

__all__ = [
    "ClientFileError",
    "ClientImport",
    "Imported",
    "Match",
    "Resolution",
    "SkipReason",
    "Skipped",
    "SourceInfo",
    "Step",
    "unique_ids",
]

#: Which scene-file area each ruleset's import writes (one 3'x3' mat; Armada's 6'x3').
_AREA = {"xwing2": "3x3ft", "xwing1": "3x3ft", "armada": "6x3ft"}

SkipReason = str


class ClientFileError(FileError):
    """A client file that cannot be read, naming the file, the object, the key and why.

    ``entry`` is the object: a GUID, a piece id or a JSON path (``ObjectStates[3]``).

    Examples
    --------
    >>> str(ClientFileError("expected a finite number, got NaN", file="s.json",
    ...                     entry="object 'a1b2c3'", key="Transform.posX"))
    "s.json: object 'a1b2c3': key 'Transform.posX': expected a finite number, got NaN"
    """


@dataclass(frozen=True)
class SourceInfo:
    """Where a position came from: the report's ``source``.

    Attributes
    ----------
    client : str
        ``tts-xwing2``, ``tts-xwing1``, ``tts-armada``, ``vassal-xwing`` or ``xws``.
    format : str
        ``tts-save``, ``tts-saved-object``, ``vsav``, ``vlog`` or ``xws``.
    version : str or None
        The version the file states, if it states one.
    module : str or None
        The module a VASSAL save names (its ``moduledata``), if it names one.
    """

    client: str
    format: str
    version: str | None
    module: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the report's ``source`` object (``module`` for a save that names one)."""
        out: dict[str, Any] = {"client": self.client, "format": self.format}
        out["version"] = self.version
        if self.module is not None:
            out["module"] = self.module
        return out


@dataclass(frozen=True)
class Imported:
    """One object put on the scene: a ship or an obstacle.

    Attributes
    ----------
    id : str
        The scene id (the client's name made unique and valid).
    source_id : str
        The client's GUID or piece id.
    kind : {"ship", "obstacle"}
    x_mm, y_mm : float
        Position in the scene frame, mm (ship: base centre; token: its reference point).
    angle_deg : float
        Obstacle angle or ship heading, degrees counter-clockwise from +x.
    became : str
        The catalog token (obstacle) or the base name (ship).
    flipped : bool
        An obstacle turned over (a mirror image of the catalog outline).
    player : int or None
        A ship's player: the half of the table it stands on.
    hull : str or None
        An Armada ship's hull (``armada-hulls.json``), where the client names it.
    """

    id: str
    source_id: str
    kind: Literal["ship", "obstacle"]
    x_mm: float
    y_mm: float
    angle_deg: float
    became: str
    flipped: bool = False
    player: int | None = None
    hull: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Return one entry of the report's ``imported`` list."""
        entry: dict[str, Any] = {
            "id": self.id,
            "source_id": self.source_id,
            "kind": self.kind,
            "at": [self.x_mm, self.y_mm],
        }
        if self.kind == "ship":
            entry["heading"] = self.angle_deg
            entry["player"] = self.player
            if self.hull is not None:
                entry["hull"] = self.hull
        else:
            entry["angle"] = self.angle_deg
            entry["flipped"] = self.flipped
        entry["became"] = self.became
        return entry

    def scene_entry(self) -> dict[str, Any]:
        """Return the scene-file entry (a ``[[ships]]`` or ``[[obstacles]]`` table)."""
        at = [self.x_mm, self.y_mm]
        if self.kind == "ship":
            ship: dict[str, Any] = {"id": self.id, "base": self.became, "at": at}
            ship["heading"] = self.angle_deg
            if self.player is not None:
                ship["player"] = self.player
            if self.hull is not None:
                ship["hull"] = self.hull
            return ship
        token: dict[str, Any] = {"id": self.id, "token": self.became, "at": at}
        token["angle"] = self.angle_deg
        if self.flipped:
            token["flipped"] = True
        return token


@dataclass(frozen=True)
class Skipped:
    """An object or container not imported, and why (nothing is dropped silently)."""

    id: str
    name: str
    reason: SkipReason

    def to_json(self) -> dict[str, Any]:
        """Return one entry of the report's ``skipped`` list."""
        return {"id": self.id, "name": self.name, "reason": self.reason}


@dataclass(frozen=True)
class Match:
    """An obstacle identified by its outline: which token, and how far off (mm)."""

    source_name: str
    token: str
    residual_mm: float

    def to_json(self) -> dict[str, Any]:
        """Return one entry of the report's ``matches`` list."""
        return {
            "source_name": self.source_name,
            "token": self.token,
            "residual_mm": self.residual_mm,
        }


@dataclass(frozen=True)
class Resolution:
    """The finest step a client file can express: position in mm, heading in degrees."""

    position_mm: float
    heading_deg: float | None

    def to_json(self) -> dict[str, Any]:
        """Return the report's ``resolution`` object."""
        return {"position_mm": self.position_mm, "heading_deg": self.heading_deg}


@dataclass(frozen=True)
class ClientImport:
    """What a reader returns for one position of a client file."""

    source: SourceInfo
    ruleset: str
    imported: tuple[Imported, ...]
    skipped: tuple[Skipped, ...]
    table: dict[str, str] | None
    resolution: Resolution
    matches: tuple[Match, ...]
    unconfirmed: tuple[str, ...]

    def scene_data(self, phase: str = "play") -> dict[str, Any]:
        """Return the scene-file structure (``scene-format.md``) of this position.

        The scene's ``source`` table records the client, the format and the resolution,
        so that ``check`` and ``measure`` can say when a margin is below it.
        """
        source: dict[str, Any] = {"client": self.source.client, "format": self.source.format}
        if self.source.version is not None:
            source["version"] = self.source.version
        source["position_mm"] = self.resolution.position_mm
        if self.resolution.heading_deg is not None:
            source["heading_deg"] = self.resolution.heading_deg
        return {
            "ruleset": self.ruleset,
            "area": _AREA.get(self.ruleset, "3x3ft"),
            "phase": phase,
            "source": source,
            "obstacles": [i.scene_entry() for i in self.imported if i.kind == "obstacle"],
            "ships": [i.scene_entry() for i in self.imported if i.kind == "ship"],
        }

    def report(self, phase: str = "play") -> dict[str, Any]:
        """Return the ``--json`` report of ``import.md`` (one object)."""
        return {
            "source": self.source.to_json(),
            "scene": self.scene_data(phase),
            "imported": [i.to_json() for i in self.imported],
            "skipped": [s.to_json() for s in self.skipped],
            "table": self.table,
            "resolution": self.resolution.to_json(),
            "matches": [m.to_json() for m in self.matches],
            "unconfirmed": list(self.unconfirmed),
        }


@dataclass(frozen=True)
class Step:
    """One step of a log: the position after the log's ``step``-th entry."""

    step: int
    description: str
    moved: tuple[str, ...]
    position: ClientImport

    def to_json(self) -> dict[str, Any]:
        """Return one entry of ``--steps``' list."""
        return {"step": self.step, "description": self.description, "moved": list(self.moved)}


_SPACES = re.compile(r"\s+")


def _valid_id(name: str, fallback: str) -> str:
    # Control and format characters (TTS nicknames carry BBCode and newlines) are not
    # part of a name a judge types; runs of space become one.
    kept = "".join(c for c in name if unicodedata.category(c)[0] != "C" or c in " \t\n")
    kept = _SPACES.sub(" ", kept).strip()
    return kept or fallback


def unique_ids(names: Iterable[tuple[str, str]]) -> list[str]:
    """Return scene ids for client names, in file order: valid, and unique (``-2``, ``-3``).

    Parameters
    ----------
    names : iterable of (name, fallback)
        The client's name of each object, and the id to use when the name is empty.

    Examples
    --------
    >>> unique_ids([("Asteroid 5", "a"), ("Wedge", "b"), ("Wedge", "c"), ("", "d"), ("Wedge", "e")])
    ['Asteroid 5', 'Wedge', 'Wedge-2', 'd', 'Wedge-3']
    >>> unique_ids([("X", "a"), ("X-2", "b"), ("X", "c")])
    ['X', 'X-2', 'X-3']
    """
    cleaned = [_valid_id(name, fallback) for name, fallback in names]
    taken: set[str] = set()
    counts: dict[str, int] = {}
    out = []
    for base in cleaned:
        ident = base
        if ident in taken:
            number = counts.get(base, 1)
            while ident in taken:
                number += 1
                ident = f"{base}-{number}"
            counts[base] = number
        taken.add(ident)
        out.append(ident)
    return out
