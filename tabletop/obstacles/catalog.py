"""Token catalogs: every obstacle token of each game, with its outline, kind and family.

The outlines are the measured figures of ``obstacles/data/`` (each file cites its
source): X-Wing tokens traced from the VASSAL module's masks, Armada tokens from the
Tabletop Simulator mod's collider meshes. X-Wing catalogs also hold ``hugeship-long``
(80 × 225) and ``hugeship-short`` (80 × 195), the epic variant's flipped huge-ship
tokens placed as obstacles.

Examples
--------
>>> from tabletop.geom.rulesets import get_ruleset
>>> token = catalog(get_ruleset("xwing2"))["core2asteroid5"]
>>> token.kind, token.family, token.label
('asteroid', 'core2', 'Asteroid 9')
>>> len(catalog(get_ruleset("armada")))
6
>>> get_token(get_ruleset("xwing2"), "Asteroid 5").name
'coreasteroid0'
>>> printed_name(get_ruleset("armada"), "asteroid-4")
'Asteroid 4'
>>> get_token(get_ruleset("armada"), "coreasteroid0")
Traceback (most recent call last):
...
tabletop.geom.errors.InvalidInputError: unknown token 'coreasteroid0' for armada; expected one of: asteroid-1, asteroid-4, asteroid-5, debris-2, debris-3, station (or a printed name: Asteroid 1, Asteroid 4, Asteroid 5, Debris 2, Debris 3, Station)

Printed names: each token's ``label`` is the name printed on it and shown by the clients
(``Asteroid 5``, ``Debris 4``, ``Gas Cloud 3``; VASSAL's piece names for X-Wing, the
Armada mod's for Armada, each data file's ``source`` says where they come from). A
scene or a command may name a token by it (any case, any spacing); it is read as the
catalog token, whose ``name`` (the XWS id) is what every answer prints. An Armada label's
nickname in quotes (``Asteroid 1 ("eclair")``) is not part of the printed name.
"""

from __future__ import annotations

import dataclasses as _dc
import functools as _functools
import json as _json
from collections.abc import Callable, Mapping
from pathlib import Path as _Path

import numpy as np

from tabletop.geom.errors import InvalidInputError
from tabletop.geom.poses import FloatArray
from tabletop.geom.rulesets import Ruleset
from tabletop.geom.shapes import rectangle

#: The package's data files (installed with it).
_DATA = _Path(__file__).parent / "data"

__all__ = ["KINDS", "Token", "catalog", "get_token", "printed_name"]

#: Obstacle kinds a scene may give a custom outline.
KINDS: tuple[str, ...] = ("asteroid", "debris", "gas", "station", "dust", "huge-ship", "other")


@_dc.dataclass(frozen=True, eq=False)
class Token:
    """One catalog token.

    Attributes
    ----------
    name : str
        The catalog name a scene's ``token`` key uses.
    label : str
        The name printed in rules and peers' programs.
    kind : str
        One of :data:`KINDS`.
    family : str
        The product family (``core``, ``core2``, ``pom``, ``gascloud``, ``device``, ...).
    outline : ndarray of shape (k, 2)
        Counter-clockwise vertices in the token frame (centroid at the origin), mm.
    """

    name: str
    label: str
    kind: str
    family: str
    outline: FloatArray


def _load(filename: str) -> dict[str, Token]:
    text = (_DATA / filename).read_text("utf-8")
    tokens: dict[str, Token] = {}
    for entry in _json.loads(text)["tokens"]:
        outline = np.asarray(entry["outline"], dtype=np.float64)
        outline.setflags(write=False)
        tokens[entry["name"]] = Token(
            entry["name"], entry["label"], entry["kind"], entry["family"], outline
        )
    return tokens


@_functools.cache
def _xwing() -> Mapping[str, Token]:
    tokens = _load("xwing-obstacles.json")
    for name, length, label in (
        ("hugeship-long", 225.0, "Huge ship (long, 80 x 225)"),
        ("hugeship-short", 195.0, "Huge ship (short, 80 x 195)"),
    ):
        outline = rectangle(80.0, length)
        outline.setflags(write=False)
        tokens[name] = Token(name, label, "huge-ship", "huge-ship", outline)
    return tokens


@_functools.cache
def _armada() -> Mapping[str, Token]:
    return _load("armada-obstacles.json")


#: The loader of each catalog a rules object names (``ObstacleSet.catalog``).
_CATALOGS: dict[str, Callable[[], Mapping[str, Token]]] = {
    "xwing-obstacles": _xwing,
    "armada-obstacles": _armada,
}


def catalog(ruleset: Ruleset) -> Mapping[str, Token]:
    """Return the tokens of the ruleset's game, by name."""
    return _CATALOGS[ruleset.obstacle_set.catalog]()


def _printed(token: Token) -> str:
    """Return the printed name of a token: its label without a nickname in quotes."""
    return token.label.split(' ("', 1)[0]


def _folded(name: str) -> str:
    return " ".join(name.split()).casefold()


@_functools.cache
def _by_printed_name(catalog_name: str) -> Mapping[str, Token]:
    """Return one catalog's tokens by printed name and by label (case and spacing folded)."""
    found: dict[str, Token] = {}
    for token in _CATALOGS[catalog_name]().values():
        found.setdefault(_folded(_printed(token)), token)
        found.setdefault(_folded(token.label), token)
    return found


def printed_name(ruleset: Ruleset, name: str) -> str | None:
    """Return the printed name of the catalog token `name` (None for a name not in it)."""
    token = catalog(ruleset).get(name)
    return None if token is None else _printed(token)


def get_token(ruleset: Ruleset, name: str) -> Token:
    """Return one token of the ruleset's catalog, by its name or its printed name.

    Raises
    ------
    InvalidInputError
        For a name the catalog does not hold (the message lists the names it does and
        the printed names).
    """
    tokens = catalog(ruleset)
    if name in tokens:
        return tokens[name]
    by_printed = _by_printed_name(ruleset.obstacle_set.catalog)
    token = by_printed.get(_folded(name))
    if token is not None:
        return token
    printed = ", ".join(dict.fromkeys(_printed(t) for t in tokens.values()))
    raise InvalidInputError(
        f"unknown token {name!r} for {ruleset.name}; expected one of: "
        + ", ".join(tokens)
        + f" (or a printed name: {printed})"
    )
