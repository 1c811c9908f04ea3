"""The scene format of ``scene-format.md``: its limits, and scenes from and to its structure.

:func:`scene_from_dict` checks everything the format says (types, ranges, ids, tokens,
bases, hulls) and raises :class:`SceneFormatError` naming the entry and key;
:meth:`tabletop.obstacles.scene.Scene.to_dict` is its inverse. Reading files is not done here
(:mod:`tabletop.app.scene.scenefile` reads them and adds the file name to the error).
"""

from __future__ import annotations

import itertools as _itertools
import math as _math
from collections.abc import Mapping
from typing import Any, NoReturn

import numpy as np
import shapely

from tabletop.geom.areas import PlayArea, play_area
from tabletop.geom.errors import InvalidInputError, show
from tabletop.geom.objects import Ship
from tabletop.geom.poses import MAX_COORDINATE_MM, normalize_heading
from tabletop.geom.rulesets import CONSTANT_NAMES, RULESET_NAMES, RULESETS, Ruleset, get_ruleset
from tabletop.obstacles.catalog import KINDS, catalog, get_token
from tabletop.obstacles.scene import Obstacle, Scene

__all__ = [
    "GAME_NAMES",
    "MAX_COORDINATE_MM",
    "MAX_OBJECTS",
    "MAX_OUTLINE_VERTICES",
    "SceneFormatError",
    "plain_outline",
    "scene_from_dict",
    "word_elsewhere",
]

#: Most vertices a custom outline may have.
MAX_OUTLINE_VERTICES = 10_000
#: Most objects (obstacles and ships) a scene may hold.
MAX_OBJECTS = 10_000


_SCENE_KEYS = (
    "ruleset",
    "area",
    "phase",
    "format",
    "constants",
    "source",
    "placed_last",
    "printed_names",
    "obstacles",
    "ships",
)
_SOURCE_KEYS = ("client", "format", "version", "file", "position_mm", "heading_deg")
_OBSTACLE_KEYS = ("id", "token", "outline", "kind", "at", "angle", "flipped", "player")
_SHIP_KEYS = ("id", "base", "at", "heading", "player", "hull")


class SceneFormatError(InvalidInputError):
    """A scene structure that does not fit ``scene-format.md``, with the entry and key.

    ``where`` is ``"ENTRY: key 'KEY'"`` (either part may be missing); whoever read the
    structure from a file adds the file (:class:`tabletop.app.scene.scenefile.SceneError`).

    Attributes
    ----------
    entry : str or None
        ``obstacles[2] 'rock-a'`` style, or None for a top-level key.
    key : str or None
        The key at fault.
    """

    def __init__(self, message: str, *, entry: str | None = None, key: str | None = None) -> None:
        parts = [entry] if entry else []
        if key:
            parts.append(f"key {key!r}")
        super().__init__(message, where=": ".join(parts) or None)
        self.entry, self.key = entry, key


class _Reader:
    def __init__(self) -> None:
        # Outlines already found simple and non-degenerate, by their vertices' bytes,
        # each with whether it is clockwise: a scene of many alike outlines checks each
        # shape once.
        self.simple_outlines: dict[bytes, bool] = {}

    def fail(self, message: str, entry: str | None = None, key: str | None = None) -> NoReturn:
        raise SceneFormatError(message, entry=entry, key=key)

    def number(self, value: Any, entry: str | None, key: str, *, length: bool = True) -> float:
        # The common case first: a float in range (NaN and the infinities fail the
        # comparison and take the checks below, which name them).
        if type(value) is float and -MAX_COORDINATE_MM <= value <= MAX_COORDINATE_MM:
            return value
        if type(value) is int and -MAX_COORDINATE_MM <= value <= MAX_COORDINATE_MM:
            return float(value)
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.fail(f"expected a number, got {show(value)}", entry, key)
        try:
            number = float(value)
        except OverflowError:
            digits = len(str(abs(value)))
            self.fail(
                f"expected a number that fits a 64-bit float, got an integer of {digits} digits",
                entry,
                key,
            )
        if not _math.isfinite(number):
            self.fail(f"expected a finite number, got {show(value)}", entry, key)
        if abs(number) > MAX_COORDINATE_MM:
            what = "length within ±10^6 mm" if length else "number within ±10^6"
            self.fail(f"expected a {what}, got {show(value)}", entry, key)
        return number

    def point(self, value: Any, entry: str | None, key: str) -> tuple[float, float]:
        if type(value) is list and len(value) == 2:
            x, y = value
            if (
                type(x) is float
                and type(y) is float
                and -MAX_COORDINATE_MM <= x <= MAX_COORDINATE_MM
                and -MAX_COORDINATE_MM <= y <= MAX_COORDINATE_MM
            ):
                return x, y
        if not isinstance(value, list | tuple) or len(value) != 2:
            self.fail(f"expected a pair of numbers [x, y] in mm, got {show(value)}", entry, key)
        return self.number(value[0], entry, key), self.number(value[1], entry, key)

    def choice(self, value: Any, options: tuple[str, ...], entry: str | None, key: str) -> str:
        if not isinstance(value, str) or value not in options:
            self.fail(
                f"expected one of {', '.join(repr(o) for o in options)}, got {show(value)}",
                entry,
                key,
            )
        return value

    def player(self, value: Any, entry: str | None) -> int:
        if isinstance(value, bool) or value not in (1, 2) or not isinstance(value, int):
            self.fail(f"expected 1 or 2, got {show(value)}", entry, "player")
        return int(value)

    def table(self, value: Any, entry: str, allowed: tuple[str, ...]) -> Mapping[str, Any]:
        if type(value) is not dict and not isinstance(value, Mapping):  # JSON's dict first
            self.fail(f"expected a table of keys, got {show(value)}", entry)
        for key in value:
            if key not in allowed:
                ident = value.get("id")
                if isinstance(ident, str) and ident.strip():
                    entry = f"{entry} {show(ident)}"  # name the entry by its id where it has one
                self.fail(f"unknown key; expected only: {', '.join(allowed)}", entry, str(key))
        return value

    def numbers_in(self, value: Any, key: str, *, length: bool) -> None:
        """Check the numbers of a value, a list or a table (one level) as :meth:`number` does.

        The shapes themselves are checked by the code the value goes to; this only keeps
        a non-finite, huge or unconvertible number from reaching it.
        """
        if isinstance(value, Mapping):
            items = [(f"{key}.{name}", item) for name, item in value.items()]
        elif isinstance(value, list):
            items = [(f"{key}[{index}]", item) for index, item in enumerate(value)]
        else:
            items = [(key, value)]
        for where, item in items:
            if isinstance(item, int | float) and not isinstance(item, bool):
                self.number(item, None, where, length=length)

    def ident(self, raw: Mapping[str, Any], where: str, seen: set[str]) -> tuple[str, str]:
        if "id" not in raw:
            self.fail("missing required key; expected a unique id string", where, "id")
        ident = raw["id"]
        if not isinstance(ident, str) or not ident.strip():
            self.fail(f"expected a non-empty string, got {show(ident)}", where, "id")
        try:
            ident.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate from a JSON \ud800 escape
            self.fail(f"expected valid Unicode text, got {show(ident)}", where, "id")
        entry = f"{where} {show(ident)}"
        if ident in seen:
            self.fail(
                f"duplicate id {show(ident)}; ships and obstacles share one id space", entry, "id"
            )
        seen.add(ident)
        return ident, entry

    def outline(self, value: Any, entry: str) -> np.ndarray[Any, np.dtype[np.float64]]:
        if not isinstance(value, list) or len(value) < 3:
            self.fail(
                f"expected a list of at least three [x, y] points in mm, got {show(value)}",
                entry,
                "outline",
            )
        if len(value) > MAX_OUTLINE_VERTICES:
            self.fail(
                f"expected at most {MAX_OUTLINE_VERTICES} vertices, got {len(value)}",
                entry,
                "outline",
            )
        points = _plain_points(value)
        if points is None:  # anything but pairs of floats in range: each point says why
            points = np.array([self.point(p, entry, "outline") for p in value], dtype=np.float64)
        oriented = _simple_ccw(points, self.simple_outlines)
        if oriented is None:
            reason = shapely.is_valid_reason(shapely.Polygon(points))
            self.fail(
                f"expected a simple polygon (no self-intersection, non-zero area): {reason}",
                entry,
                "outline",
            )
        return oriented


def _simple_ccw(
    points: np.ndarray[Any, np.dtype[np.float64]], simple_outlines: dict[bytes, bool]
) -> np.ndarray[Any, np.dtype[np.float64]] | None:
    """Return an outline's points counter-clockwise and read-only; None if not simple.

    `simple_outlines` holds the outlines already found simple and non-degenerate, by
    their vertices' bytes, each with whether it is clockwise (a scene of many alike
    outlines checks each shape once); a new simple one is added to it.
    """
    key = points.tobytes()
    clockwise = simple_outlines.get(key)
    if clockwise is None:
        polygon = shapely.Polygon(points)
        if not polygon.is_valid or polygon.area <= 0.0:
            return None
        clockwise = simple_outlines[key] = not shapely.is_ccw(polygon.exterior)
    if clockwise:
        points = points[::-1].copy()  # the same polygon, stored counter-clockwise
    points.setflags(write=False)
    return points


def plain_outline(
    value: Any, simple_outlines: dict[bytes, bool]
) -> np.ndarray[Any, np.dtype[np.float64]] | None:
    """Return an outline in the plain form as the general reader stores it, else None.

    The plain form: a list of 3 to :data:`MAX_OUTLINE_VERTICES` ``[x, y]`` pairs of
    floats within range, making a simple polygon of non-zero area. The array is the one
    :func:`scene_from_dict` stores (counter-clockwise, read-only); for anything else the
    general reader converts the points or names the fault.

    Parameters
    ----------
    value : Any
        The outline as parsed.
    simple_outlines : dict of bytes to bool
        The outlines already found simple in this scene (see :func:`_simple_ccw`).

    Examples
    --------
    >>> plain_outline([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0]], {}).tolist()
    [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]
    >>> plain_outline([[0, 0], [0, 1], [1, 0]], {}) is None  # integers: the general reader
    True
    """
    if type(value) is not list or not 3 <= len(value) <= MAX_OUTLINE_VERTICES:
        return None
    points = _plain_points(value)
    return None if points is None else _simple_ccw(points, simple_outlines)


def _plain_points(value: list[Any]) -> np.ndarray[Any, np.dtype[np.float64]] | None:
    """Return a list of ``[x, y]`` float pairs within range as an array, or None.

    The common case, read in one pass: what :meth:`_Reader.point` accepts as it is. For
    anything else (integers, another shape, a value out of range) the caller reads the
    points one at a time, which converts them or names the one at fault.
    """
    # Type by type at C speed: lists of two, then floats only.
    if set(map(type, value)) != {list} or set(map(len, value)) != {2}:
        return None
    flat = list(_itertools.chain.from_iterable(value))
    if set(map(type, flat)) != {float}:
        return None
    points = np.array(flat, dtype=np.float64).reshape(-1, 2)
    # NaN fails this comparison too (its maximum is NaN).
    if not float(np.abs(points).max()) <= MAX_COORDINATE_MM:
        return None
    return points


def _ruleset(r: _Reader, data: Mapping[str, Any]) -> tuple[Ruleset, Mapping[str, Any]]:
    """Read the ruleset's name and the ``[constants]`` that override its numbers."""
    name = r.choice(data.get("ruleset", "xwing2"), RULESET_NAMES, None, "ruleset")
    constants = data.get("constants", {})
    if not isinstance(constants, Mapping):
        r.fail(f"expected a table of constants, got {show(constants)}", None, "constants")
    for key, value in constants.items():
        if key in CONSTANT_NAMES:  # unknown names are reported by get_ruleset
            r.numbers_in(value, f"constants.{key}", length=False)
    try:
        return get_ruleset(name, constants), constants
    except InvalidInputError as error:
        r.fail(error.message, None, error.where or "constants")


def _area(r: _Reader, data: Mapping[str, Any], ruleset: Ruleset) -> PlayArea:
    """Read the play area: a preset's name or a table of sizes (default: the ruleset's)."""
    raw_area = data.get("area", ruleset.default_area)
    if isinstance(raw_area, Mapping):
        r.numbers_in(raw_area, "area", length=True)
    try:
        return play_area(raw_area)
    except InvalidInputError as error:
        r.fail(error.message, None, "area")


def scene_from_dict(data: Any) -> Scene:
    """Build a :class:`Scene` from the scene-file structure (parsed TOML or JSON).

    Parameters
    ----------
    data : mapping
        The scene as nested dicts and lists.

    Raises
    ------
    SceneFormatError
        For anything that does not fit ``scene-format.md``, naming the entry and key.

    Examples
    --------
    >>> scene_from_dict({"ships": [{"id": "a", "base": "small", "at": [100, 40]}]}).ships[0].heading
    90.0
    >>> scene_from_dict({"ships": [{"id": "a", "base": "tiny", "at": [1, 2]}]})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tabletop.obstacles.sceneformat.SceneFormatError: ships[0] 'a': key 'base': unknown base 'tiny' for xwing2; ...
    """
    r = _Reader()
    if not isinstance(data, Mapping):
        r.fail(f"expected a table (object) at the top level, got {type(data).__name__}")
    for key in data:
        if key not in _SCENE_KEYS:
            r.fail(f"unknown key; expected only: {', '.join(_SCENE_KEYS)}", None, str(key))
    ruleset, constants = _ruleset(r, data)
    area = _area(r, data, ruleset)
    phase = r.choice(data.get("phase", "setup"), ("setup", "play"), None, "phase")
    fmt = r.choice(data.get("format", "standard"), ("standard", "tournament"), None, "format")
    source = _source(r, data.get("source"))
    raw_obstacles = data.get("obstacles", [])
    raw_ships = data.get("ships", [])
    for key, value in (("obstacles", raw_obstacles), ("ships", raw_ships)):
        if not isinstance(value, list):
            r.fail(f"expected a list of tables, got {show(value)}", None, key)
    if len(raw_obstacles) + len(raw_ships) > MAX_OBJECTS:
        r.fail(f"expected at most {MAX_OBJECTS} objects, got {len(raw_obstacles) + len(raw_ships)}")
    seen: set[str] = set()
    tokens = catalog(ruleset) if raw_obstacles else {}
    obstacles = tuple(
        _obstacle(r, ruleset, tokens, raw, index, seen) for index, raw in enumerate(raw_obstacles)
    )
    ships = tuple(_ship(r, ruleset, raw, index, seen) for index, raw in enumerate(raw_ships))
    placed_last = data.get("placed_last")
    if placed_last is not None and (
        not isinstance(placed_last, str) or placed_last not in {o.id for o in obstacles}
    ):
        r.fail(
            f"expected the id of an obstacle of the scene (the token placed last), "
            f"got {show(placed_last)}",
            None,
            "placed_last",
        )
    named = data.get("printed_names", False)
    if not isinstance(named, bool):
        r.fail(
            "expected true or false (give each catalog token's printed name beside its id), "
            f"got {show(named)}",
            None,
            "printed_names",
        )
    return Scene(
        ruleset=ruleset,
        area=area,
        phase=phase,  # type: ignore[arg-type]
        format=fmt,  # type: ignore[arg-type]
        obstacles=obstacles,
        ships=ships,
        constants=dict(constants),
        source=source,
        placed_last=placed_last,
        printed_names=named,
    )


def _source(r: _Reader, raw: Any) -> dict[str, Any] | None:
    """Check an imported scene's ``source`` table: the client and its resolution."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        r.fail(f"expected a table, got {show(raw)}", None, "source")
    source: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in _SOURCE_KEYS:
            r.fail(f"unknown key; expected only: {', '.join(_SOURCE_KEYS)}", "source", str(key))
        if key in ("position_mm", "heading_deg"):
            number = r.number(value, "source", key, length=False)
            if number <= 0.0:
                r.fail(f"expected a positive number, got {show(value)}", "source", key)
            source[key] = number
        elif not isinstance(value, str):
            r.fail(f"expected text, got {show(value)}", "source", key)
        else:
            source[key] = value
    if "position_mm" not in source:
        r.fail(
            "missing required key; expected the client's resolution in mm", "source", "position_mm"
        )
    return source


#: Each game's name in messages, by :attr:`Ruleset.game` (each takes "an").
GAME_NAMES: Mapping[str, str] = {"xwing": "X-Wing", "armada": "Armada"}

_WORD_KINDS: tuple[tuple[str, Any], ...] = (
    ("base", lambda rules, word: word in rules.base_sizes),
    ("hull", lambda rules, word: word in rules.hull_names),
    ("obstacle token", lambda rules, word: _names_a_token(rules, word)),
)


def _names_a_token(ruleset: Ruleset, word: str) -> bool:
    """Whether `word` is a token of the ruleset's catalog by name or printed name."""
    try:
        get_token(ruleset, word)
    except InvalidInputError:
        return False
    return True


def word_elsewhere(ruleset: Ruleset, word: str) -> str | None:
    """Say which other game or edition a word belongs to, or None if none knows it.

    It is asked about a word the scene's ruleset does not know (an unknown base, hull or
    token): a word of both games (``small``) names the first other one.

    Examples
    --------
    >>> word_elsewhere(get_ruleset("xwing2"), "victory")
    "'victory' is an Armada hull; this scene's ruleset is xwing2"
    >>> word_elsewhere(get_ruleset("armada"), "huge-short")
    "'huge-short' is an X-Wing base (xwing1, xwing2); this scene's ruleset is armada"
    >>> word_elsewhere(get_ruleset("armada"), "coreasteroid0")
    "'coreasteroid0' is an X-Wing obstacle token (xwing1, xwing2); this scene's ruleset is armada"
    >>> word_elsewhere(get_ruleset("armada"), "Gas Cloud 3")
    "'Gas Cloud 3' is an X-Wing obstacle token (xwing1, xwing2); this scene's ruleset is armada"
    >>> word_elsewhere(get_ruleset("xwing2"), "nonsense") is None
    True
    """
    for kind, knows in _WORD_KINDS:
        owners = [
            name for name, rules in RULESETS.items() if rules != ruleset and knows(rules, word)
        ]
        owners = [name for name in owners if name != ruleset.name]
        if not owners:
            continue
        games = sorted({RULESETS[name].game for name in owners})
        if games == [ruleset.game]:
            editions = ", ".join(owners)
            return f"{word!r} is a {kind} of {editions}, not of this scene's ruleset {ruleset.name}"
        game = " / ".join(GAME_NAMES.get(g, g) for g in games)
        # A word of a game with a single edition needs no list of its editions.
        single_edition = all(
            sum(other.game == RULESETS[n].game for other in RULESETS.values()) == 1 for n in owners
        )
        editions = "" if single_edition else f" ({', '.join(sorted(owners))})"
        return f"{word!r} is an {game} {kind}{editions}; this scene's ruleset is {ruleset.name}"
    return None


def _with_game(message: str, elsewhere: str | None) -> str:
    """Put what game a word belongs to after "unknown WORD", before the accepted list."""
    if elsewhere is None:
        return message
    head, sep, tail = message.partition("; expected")
    return f"{head} ({elsewhere}){sep}{tail}"


def _obstacle(
    r: _Reader,
    ruleset: Ruleset,
    tokens: Mapping[str, Any],
    raw: Any,
    index: int,
    seen: set[str],
) -> Obstacle:
    where = f"obstacles[{index}]"
    r.table(raw, where, _OBSTACLE_KEYS)
    ident, where = r.ident(raw, where, seen)
    if "at" not in raw:
        r.fail("missing required key; expected [x, y] in mm", where, "at")
    x, y = r.point(raw["at"], where, "at")
    angle = r.number(raw.get("angle", 0.0), where, "angle", length=False)
    flipped = raw.get("flipped", False)
    if not isinstance(flipped, bool):
        r.fail(f"expected true or false, got {show(flipped)}", where, "flipped")
    player = r.player(raw["player"], where) if "player" in raw else None
    has_token, has_outline = "token" in raw, "outline" in raw
    if has_token and has_outline:
        r.fail("expected exactly one of 'token' and 'outline', got both", where, "outline")
    if not has_token and not has_outline:
        r.fail(
            "missing required key; expected exactly one of 'token' (a catalog token name) "
            "and 'outline' (a list of [x, y] points)",
            where,
            "token",
        )
    if has_token:
        if "kind" in raw:
            r.fail(
                "a catalog token's kind comes from the catalog; give 'kind' only with 'outline'",
                where,
                "kind",
            )
        token = raw["token"]
        if not isinstance(token, str):
            r.fail(f"expected a catalog token name, got {show(token)}", where, "token")
        spec = tokens.get(token)  # the catalog, read once per scene
        if spec is not None:
            return Obstacle(
                ident, spec.outline, spec.kind, x, y, angle, flipped, player, token, spec.family
            )
        try:
            spec = get_token(ruleset, token)
        except InvalidInputError as error:
            r.fail(_with_game(error.message, word_elsewhere(ruleset, token)), where, "token")
        # A printed name ("Asteroid 5") is read as the catalog token it names.
        return Obstacle(
            ident, spec.outline, spec.kind, x, y, angle, flipped, player, spec.name, spec.family
        )
    outline = r.outline(raw["outline"], where)
    kind = r.choice(raw.get("kind", "other"), KINDS, where, "kind")
    return Obstacle(ident, outline, kind, x, y, angle, flipped, player)


def _ship(r: _Reader, ruleset: Ruleset, raw: Any, index: int, seen: set[str]) -> Ship:
    where = f"ships[{index}]"
    r.table(raw, where, _SHIP_KEYS)
    ident, where = r.ident(raw, where, seen)
    if "base" not in raw:
        r.fail(
            "missing required key; expected a base name: " + ", ".join(ruleset.base_sizes),
            where,
            "base",
        )
    if "at" not in raw:
        r.fail("missing required key; expected [x, y] in mm", where, "at")
    base = raw["base"]
    if not isinstance(base, str):
        r.fail(f"expected a base name, got {show(base)}", where, "base")
    try:
        ruleset.base_size(base)
    except InvalidInputError as error:
        elsewhere = word_elsewhere(ruleset, base)
        if base in ruleset.hull_names:
            elsewhere = f"{base!r} is a hull: give it as hull = {base!r} beside its base"
        r.fail(_with_game(error.message, elsewhere), where, "base")
    x, y = r.point(raw["at"], where, "at")
    player = r.player(raw["player"], where) if "player" in raw else 1
    default_heading = 90.0 if player == 1 else 270.0
    heading = r.number(raw.get("heading", default_heading), where, "heading", length=False)
    hull = raw.get("hull")
    if "hull" in raw:  # a JSON null is a wrong type, not "no hull"
        if not ruleset.hull_names:
            named = word_elsewhere(ruleset, hull) if isinstance(hull, str) else None
            r.fail(
                "'hull' is for Armada ships only" + (f": {named}" if named else ""), where, "hull"
            )
        if ruleset.base_spec(base).is_disk:
            r.fail("a squadron has no hull", where, "hull")
        if not isinstance(hull, str):
            r.fail(f"expected a hull name (a string), got {show(hull)}", where, "hull")
        if hull not in ruleset.hull_names:
            message = f"unknown hull {show(hull)}; expected one of: " + ", ".join(
                ruleset.hull_names
            )
            r.fail(_with_game(message, word_elsewhere(ruleset, hull)), where, "hull")
        # The hull is printed for one size of ship: on another base it is a typing slip.
        from tabletop.geom.hulls import hull_base  # the hull table: Armada ships only

        if hull_base(hull) != base:
            r.fail(
                f"hull {show(hull)} is on a {hull_base(hull)} base; "
                f"expected base = {show(hull_base(hull))}, got {show(base)}",
                where,
                "base",
            )
    return Ship(ident, base, x, y, normalize_heading(heading), player, hull)
