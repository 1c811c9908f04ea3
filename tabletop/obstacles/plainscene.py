"""The plain form of a scene, read at once: :func:`plain_scene`.

A scene structure in the plain form a program writes (a known ruleset, its default
play area or a table of numbers for it, catalog tokens by name or outlines of float
pairs, ships without a hull, numbers as JSON numbers in range, every key known) is
built with one pass of inline checks; anything else gives None, and the caller parses
it with :func:`tabletop.obstacles.sceneformat.scene_from_dict`, whose checks name every
fault. Each check here is one that the general reader makes, so a scene accepted here is
the scene the general reader builds, object for object; what it skips is the work only
a fault needs (the entry names of messages) and the general reader's calls. Every scene
file is read this way first (:func:`tabletop.app.scene.scenefile.load_scene`), and so is every
scene of the query oracle.
"""

from __future__ import annotations

import array as _array
import itertools as _itertools
from collections.abc import Mapping
from typing import Any

from tabletop.geom.areas import PlayArea, play_area
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.objects import Ship
from tabletop.geom.poses import MAX_COORDINATE_MM, FloatArray
from tabletop.geom.rulesets import RULESETS, Ruleset
from tabletop.obstacles.catalog import KINDS, catalog
from tabletop.obstacles.scene import Obstacle, Scene
from tabletop.obstacles.sceneformat import MAX_OBJECTS, plain_outline

__all__ = ["plain_scene"]

#: The top-level keys of a plain scene (no constants, source or printed names: those
#: take the general reader).
_PLAIN_SCENE_KEYS = frozenset(
    {"ruleset", "area", "phase", "format", "obstacles", "ships", "placed_last"}
)
_PLAIN_OBSTACLE_KEYS = frozenset(
    {"id", "token", "outline", "kind", "at", "angle", "flipped", "player"}
)
_PLAIN_SHIP_KEYS = frozenset({"id", "base", "at", "heading", "player"})
_PHASES = ("setup", "play")
_MISSING = object()
_FORMATS = ("standard", "tournament")

#: Each ruleset's default play area and obstacle catalog, read once (the catalog at the
#: first token named: a scene of outlines alone never needs it).
_AREAS: dict[str, PlayArea] = {}
_CATALOGS: dict[str, Mapping[str, Any]] = {}


def _number(value: Any) -> float | None:
    """Return a JSON number in range as ``_Reader.number`` does; None for anything else."""
    kind = type(value)
    if kind is float:
        return value if -MAX_COORDINATE_MM <= value <= MAX_COORDINATE_MM else None
    if kind is int and -MAX_COORDINATE_MM <= value <= MAX_COORDINATE_MM:
        return float(value)
    return None


def _point(value: Any) -> tuple[float, float] | None:
    if type(value) is not list or len(value) != 2:
        return None
    x, y = _number(value[0]), _number(value[1])
    if x is None or y is None:
        return None
    return x, y


def _ident(raw: dict[str, Any], seen: set[str]) -> str | None:
    """Return a new, non-empty ASCII id (others, and repeats, take the general reader)."""
    ident = raw.get("id")
    if type(ident) is not str or not ident.isascii() or not ident.strip() or ident in seen:
        return None
    seen.add(ident)
    return ident


def _player(raw: dict[str, Any], default: int | None) -> int | bool | None:
    """Return the player (1 or 2) or `default`; False for a value the general reader judges."""
    if "player" not in raw:
        return default
    value = raw["player"]
    return value if type(value) is int and value in (1, 2) else False


def _tokens(ruleset: Ruleset) -> Mapping[str, Any]:
    """Return the ruleset's obstacle catalog, loaded at the first token a scene names."""
    tokens = _CATALOGS.get(ruleset.name)
    if tokens is None:
        tokens = _CATALOGS[ruleset.name] = catalog(ruleset)
    return tokens


def _obstacle(raw: Any, ruleset: Ruleset, seen: set[str], outlines: _Outlines) -> Obstacle | None:
    """Return a plain obstacle: a catalog token by name, or an outline of float pairs."""
    if type(raw) is not dict or not _PLAIN_OBSTACLE_KEYS.issuperset(raw):
        return None
    ident = _ident(raw, seen)
    at = _point(raw.get("at"))
    if ident is None or at is None:
        return None
    angle = _number(raw.get("angle", 0.0))
    flipped = raw.get("flipped", False)
    player = _player(raw, None)
    if angle is None or type(flipped) is not bool or player is False:
        return None
    x, y = at
    if "outline" in raw:
        kind = raw.get("kind", "other")
        if "token" in raw or type(kind) is not str or kind not in KINDS:
            return None
        outline = outlines.read(raw["outline"])
        if outline is None:
            return None
        return Obstacle(ident, outline, kind, x, y, angle, flipped, player)
    token = raw.get("token")
    spec = _tokens(ruleset).get(token) if type(token) is str and "kind" not in raw else None
    if spec is None:
        return None
    return Obstacle(
        ident, spec.outline, spec.kind, x, y, angle, flipped, player, token, spec.family
    )


class _Outlines:
    """The outlines of one scene, each read once: alike outlines share one array.

    An outline written as float pairs is known by those floats' bytes (exact: -0.0 is
    not 0.0 here, nor an integer a float); the first of its kind is read and checked by
    :func:`~tabletop.obstacles.sceneformat.plain_outline`, and every later one of the
    same bytes is that same read-only array, the one the check would give again. A table
    of thousands of alike rocks reads one.
    """

    def __init__(self) -> None:
        self.simple: dict[bytes, bool] = {}
        self.known: dict[bytes, FloatArray] = {}

    def read(self, value: Any) -> FloatArray | None:
        """Return the outline as ``plain_outline`` returns it (None: not plain)."""
        key = _float_pairs(value)
        if key is not None:
            known = self.known.get(key)
            if known is not None:
                return known
        outline = plain_outline(value, self.simple)
        if key is not None and outline is not None:
            self.known[key] = outline
        return outline


def _float_pairs(value: Any) -> bytes | None:
    """Return the bytes of a list of ``[x, y]`` float pairs as doubles; None for anything else."""
    if type(value) is not list or set(map(type, value)) != {list} or set(map(len, value)) != {2}:
        return None
    flat = list(_itertools.chain.from_iterable(value))
    if set(map(type, flat)) != {float}:
        return None
    return _array.array("d", flat).tobytes()


def _area(raw: Any, ruleset: Ruleset) -> PlayArea | None:
    """Return the play area: the ruleset's default, or a table of plain numbers for it.

    The table's numbers must be ones the general reader passes as they are (JSON
    numbers within range); :func:`~tabletop.geom.areas.play_area` then judges the table,
    as it does there, and any fault it finds takes the general reader.
    """
    if raw is _MISSING:
        area = _AREAS.get(ruleset.name)
        if area is None:
            area = _AREAS[ruleset.name] = play_area(ruleset.default_area)
        return area
    if type(raw) is not dict or any(_number(value) is None for value in raw.values()):
        return None
    try:
        return play_area(raw)
    except InvalidInputError:
        return None


def _ships(raw_ships: list[Any], ruleset: Ruleset, seen: set[str]) -> list[Ship] | None:
    """Return the ships of a plain scene, checked inline; None at the first not plain."""
    base_sizes, keys, limit = ruleset.base_sizes, _PLAIN_SHIP_KEYS, MAX_COORDINATE_MM
    ships = []
    for raw in raw_ships:
        if type(raw) is not dict or not keys.issuperset(raw):
            return None
        ident, base, at = raw.get("id"), raw.get("base"), raw.get("at")
        if (
            type(ident) is not str
            or type(base) is not str
            or type(at) is not list
            or len(at) != 2
            or ident in seen
            or base not in base_sizes
            or not ident.isascii()
            or not ident.strip()
        ):
            return None
        seen.add(ident)
        x, y = at
        if type(x) is not float or not -limit <= x <= limit:
            x = _number(x)
        if type(y) is not float or not -limit <= y <= limit:
            y = _number(y)
        player = raw.get("player", 1)
        if x is None or y is None or type(player) is not int or player not in (1, 2):
            return None
        heading = raw.get("heading", _MISSING)
        if heading is _MISSING:
            heading = 90.0 if player == 1 else 270.0
        elif type(heading) is not float or not -limit <= heading <= limit:
            heading = _number(heading)
            if heading is None:
                return None
        heading %= 360.0  # normalize_heading's arithmetic (the value is a float already)
        ships.append(Ship(ident, base, x, y, 0.0 if heading >= 360.0 else heading, player, None))
    return ships


def plain_scene(data: Any) -> Scene | None:
    """Return the scene of `data` if it is in the plain form, else None.

    Parameters
    ----------
    data : Any
        A parsed scene structure (a scene file's, or a request's ``"scene"``).

    Examples
    --------
    >>> scene = plain_scene({"ships": [{"id": "a", "base": "small", "at": [100, 40]}]})
    >>> scene.ships[0].heading, scene.ruleset.name
    (90.0, 'xwing2')
    >>> plain_scene({"ships": [{"id": "a", "base": "tiny", "at": [1, 2]}]}) is None
    True
    """
    if type(data) is not dict or not _PLAIN_SCENE_KEYS.issuperset(data):
        return None
    name = data.get("ruleset", "xwing2")
    phase = data.get("phase", "setup")
    fmt = data.get("format", "standard")
    raw_obstacles = data.get("obstacles", [])
    raw_ships = data.get("ships", [])
    if (
        type(name) is not str
        or name not in RULESETS
        or type(phase) is not str
        or phase not in _PHASES
        or type(fmt) is not str
        or fmt not in _FORMATS
        or type(raw_obstacles) is not list
        or type(raw_ships) is not list
        or len(raw_obstacles) + len(raw_ships) > MAX_OBJECTS
    ):
        return None
    ruleset = RULESETS[name]
    area = _area(data.get("area", _MISSING), ruleset)
    if area is None:
        return None
    seen: set[str] = set()
    outlines = _Outlines()
    obstacles: list[Obstacle] = []
    for raw in raw_obstacles:
        obstacle = _obstacle(raw, ruleset, seen, outlines)
        if obstacle is None:
            return None
        obstacles.append(obstacle)
    ships = _ships(raw_ships, ruleset, seen)
    if ships is None:
        return None
    placed_last = data.get("placed_last")
    if placed_last is not None and (
        type(placed_last) is not str or placed_last not in {o.id for o in obstacles}
    ):
        return None
    return Scene(
        ruleset=ruleset,
        area=area,
        phase=phase,  # type: ignore[arg-type]
        format=fmt,  # type: ignore[arg-type]
        obstacles=tuple(obstacles),
        ships=tuple(ships),
        constants={},
        source=None,
        placed_last=placed_last,
    )
