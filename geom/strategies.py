"""Hypothesis strategies for tabletop objects: poses, bases, ships, obstacles and scenes.

Import it as ``from geom import strategies``: ``import geom`` alone never imports
hypothesis, and this module imports the ``obstacles`` package only inside the strategies
that need it (geom sits at the bottom of the import graph). Every strategy follows
Hypothesis's house style: plural names, keyword-only options, ``min_*`` / ``max_*``
bounds, strategies (not values) for the things a test varies (ids, players, bases), and
:class:`~hypothesis.errors.InvalidArgument`, raised when the strategy is built, for an
impossible combination (a minimum above its maximum, an unknown ruleset, a negative size,
a non-strategy where a strategy is expected), and when a value is drawn from a user's
strategy that a scene cannot hold (a blank id, player 3). No strategy ever returns
``nothing()``.

Coordinates and headings are exactly at a bound a fifth of the time (see :func:`poses`),
so that flush and axis-aligned placements are tried. Every value drawn is one that a
scene file accepts (``scene-format.md``): finite
numbers within ±10^6, ids that are non-blank strings, players 1 or 2, counter-clockwise
simple outlines, bases and tokens of the ruleset. Ship headings are normalised to
``[0, 360)`` as the scene loader normalises them, so that a drawn ship equals the ship
read back from its scene-file entry.

Shrinking
---------
Examples shrink toward the simplest table: poses toward the lower-left corner of the
allowed rectangle (``(margin, margin)``) and toward `min_heading`; bases and catalog
tokens toward the first name of the ruleset (``small``; the first catalog token);
obstacles toward an unflipped catalog token at angle 0, custom outlines toward a
triangle of the smallest radius; ship players toward 1 and obstacle players toward
none; ids toward short strings (``"0"``); scenes
toward `min_ships` ships and `min_obstacles` obstacles. A legal setup is drawn from a
seed, so it shrinks toward seed 0 only: the geometry of a failing setup is not
simplified, but the seed that reproduces it is reported.

Examples
--------
>>> from hypothesis import given, settings
>>> from geom import strategies
>>> @settings(max_examples=10, deadline=None, database=None)
... @given(strategies.poses(area="3x3ft", margin=20))
... def test_pose_in_area(pose):
...     x, y, heading = pose
...     assert 20 <= x <= 894.4 and 20 <= y <= 894.4 and 0 <= heading <= 360
>>> test_pose_in_area()
>>> strategies.poses(margin=-1)
Traceback (most recent call last):
...
hypothesis.errors.InvalidArgument: margin=-1 must be at least 0
"""

from __future__ import annotations

import dataclasses as _dc
import math as _math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

import numpy as np
import shapely
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from geom.areas import AREA_PRESETS, PlayArea, play_area
from geom.errors import InvalidInputError
from geom.objects import Ship
from geom.poses import normalize_heading
from geom.rulesets import CONSTANT_NAMES, RULESET_NAMES, RULESETS, Ruleset, get_ruleset

if TYPE_CHECKING:
    from obstacles.scene import Obstacle, Scene

__all__ = [
    "MAX_COORDINATE_MM",
    "MAX_OUTLINE_VERTICES",
    "Pose",
    "bases",
    "legal_setups",
    "obstacles",
    "poses",
    "scenes",
    "ships",
]

#: A pose drawn by :func:`poses`: ``(x, y, heading)`` in mm and degrees.
Pose: TypeAlias = tuple[float, float, float]

#: Largest coordinate a scene file accepts, mm (``tabletop.scenefile.MAX_COORDINATE_MM``).
MAX_COORDINATE_MM = 1.0e6
#: Most vertices a custom outline may have (``tabletop.scenefile.MAX_OUTLINE_VERTICES``).
MAX_OUTLINE_VERTICES = 10_000

#: What an ``area`` option accepts: a play area, a preset name or ``{width, height}``.
AreaSpec: TypeAlias = PlayArea | str | Mapping[str, Any]

#: Custom outlines: vertex radii, mm, and the relative angle gaps between vertices. Gaps
#: of 10-19 units keep every gap under half a turn, so the outline is star-shaped about
#: its origin and therefore simple.
_MIN_RADIUS, _MAX_RADIUS = 5.0, 80.0
_MIN_GAP, _MAX_GAP = 10, 19


# -- argument validation -----------------------------------------------------------------


def _check_number(name: str, value: Any, *, min_value: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidArgument(f"{name}={value!r} must be a number")
    if not _math.isfinite(value):
        raise InvalidArgument(f"{name}={value!r} must be finite")
    if abs(value) > MAX_COORDINATE_MM:
        raise InvalidArgument(f"{name}={value!r} must be within ±{MAX_COORDINATE_MM:g}")
    if min_value is not None and value < min_value:
        raise InvalidArgument(f"{name}={value!r} must be at least {min_value:g}")
    return float(value)


def _check_count(name: str, value: Any, *, min_value: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgument(f"{name}={value!r} must be an integer")
    if value < min_value:
        raise InvalidArgument(f"{name}={value!r} must be at least {min_value}")
    return value


def _check_order(low_name: str, low: float, high_name: str, high: float) -> None:
    if low > high:
        raise InvalidArgument(f"{low_name}={low!r} must be at most {high_name}={high!r}")


def _check_strategy(name: str, value: Any) -> st.SearchStrategy[Any]:
    if not isinstance(value, st.SearchStrategy):
        raise InvalidArgument(
            f"{name}={value!r} must be a strategy (for a fixed value, pass st.just(value))"
        )
    return value


def _ruleset(value: Any) -> Ruleset:
    if isinstance(value, Ruleset):
        return value
    if not isinstance(value, str):
        raise InvalidArgument(f"ruleset={value!r} must be a ruleset name or a Ruleset")
    if value not in RULESET_NAMES:
        raise InvalidArgument(
            f"unknown ruleset={value!r}; expected one of: {', '.join(RULESET_NAMES)}"
        )
    return get_ruleset(value)


def _area(value: Any, ruleset: Ruleset | None = None) -> PlayArea:
    if value is None:
        return play_area(ruleset.default_area if ruleset is not None else "3x3ft")
    if isinstance(value, PlayArea):
        for key in ("width", "height"):
            _check_number(f"area.{key}", getattr(value, key))
        if value.width <= 0 or value.height <= 0:
            raise InvalidArgument(f"area={value!r} must have a positive width and height")
        if value.name is not None and AREA_PRESETS.get(value.name) != (value.width, value.height):
            raise InvalidArgument(
                f"area={value!r} is named {value.name!r}, which is not the preset of that size"
            )
        return value
    if not isinstance(value, str | Mapping):
        raise InvalidArgument(
            f"area={value!r} must be a PlayArea, a preset name or a {{width, height}} mapping"
        )
    try:
        return play_area(value)
    except InvalidInputError as error:
        raise InvalidArgument(f"area={value!r}: {error}") from None


def _scene_constants(ruleset: Ruleset) -> dict[str, Any]:
    """Return the ``[constants]`` that turn the stock ruleset into `ruleset`."""
    if ruleset.name not in RULESETS:
        raise InvalidArgument(
            f"ruleset named {ruleset.name!r} cannot be written in a scene; expected one of: "
            + ", ".join(RULESET_NAMES)
        )
    stock = RULESETS[ruleset.name]
    constants: dict[str, Any] = {}
    for name in CONSTANT_NAMES:
        value = getattr(ruleset, name)
        if value != getattr(stock, name):
            if isinstance(value, tuple):
                constants[name] = list(value)
            elif isinstance(value, Mapping):
                constants[name] = dict(value)
            else:
                constants[name] = value
    if get_ruleset(ruleset.name, constants) != ruleset:
        raise InvalidArgument(
            f"ruleset {ruleset.name!r} differs from the stock one in more than its "
            "[constants], so scenes of it cannot be written as scene files"
        )
    return constants


def _drawn_id(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidArgument(f"ids must generate non-blank strings, got {value!r}")
    return value


def _drawn_player(value: Any, *, optional: bool) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in (1, 2):
        allowed = "1, 2 or None" if optional else "1 or 2"
        raise InvalidArgument(f"players must generate {allowed}, got {value!r}")
    return value


def _unique(names: list[str]) -> list[str]:
    """Make repeated ids unique by a suffix: ``a``, ``a`` → ``a``, ``a~2``."""
    seen: set[str] = set()
    unique = []
    for name in names:
        candidate, number = name, 1
        while candidate in seen:
            number += 1
            candidate = f"{name}~{number}"
        seen.add(candidate)
        unique.append(candidate)
    return unique


def _default_ids() -> st.SearchStrategy[str]:
    """Non-blank text by construction: a first character that is not whitespace."""
    first = st.characters(exclude_categories=("Cs", "Zs", "Zl", "Zp", "Cc")).filter(
        lambda c: not c.isspace()
    )
    tail = st.text(st.characters(codec="utf-8"), max_size=15)
    return st.builds(lambda head, tail: head + tail, first, tail)


def _bounded(low: float, high: float) -> st.SearchStrategy[float]:
    """Floats in ``[low, high]``, each bound drawn a tenth of the time; shrinks to `low`."""

    def pick(choice: tuple[int, float]) -> float:
        which, value = choice
        return low if which == 0 else high if which == 1 else value

    return st.tuples(st.integers(0, 9), st.floats(low, high)).map(pick)


# -- strategies --------------------------------------------------------------------------


def poses(
    *,
    area: AreaSpec = "3x3ft",
    min_heading: float = 0.0,
    max_heading: float = 360.0,
    margin: float = 0.0,
) -> st.SearchStrategy[Pose]:
    """Return a strategy of poses ``(x, y, heading)`` inside a play area.

    Parameters
    ----------
    area : PlayArea, str or mapping, default "3x3ft"
        The play area: a :class:`~geom.areas.PlayArea`, a preset name or a
        ``{"width": ..., "height": ...}`` mapping (mm).
    min_heading, max_heading : float, default 0 and 360
        The closed range of headings, degrees counter-clockwise from +x (within ±10^6).
    margin : float, default 0
        How far (at least) the point stays from every edge, mm; at most half the
        smaller side of the area.

    Returns
    -------
    SearchStrategy of (float, float, float)
        ``margin <= x <= width - margin``, ``margin <= y <= height - margin`` and
        ``min_heading <= heading <= max_heading``, all finite.

    Raises
    ------
    hypothesis.errors.InvalidArgument
        For an unknown area, ``min_heading > max_heading``, a negative margin, or a
        margin that leaves no room.

    Notes
    -----
    Each of x, y and heading is exactly at its lower bound a tenth of the time and at
    its upper bound another tenth, so that flush placements (a base touching an edge at
    ``margin`` = half its side, two bases side by side at the margins, an axis-aligned
    heading) are reached. Shrinks toward the corner ``(margin, margin)`` and toward
    `min_heading`.

    Examples
    --------
    >>> from hypothesis.strategies import SearchStrategy
    >>> isinstance(poses(area={"width": 100, "height": 50}, margin=25), SearchStrategy)
    True
    >>> poses(min_heading=90, max_heading=0)
    Traceback (most recent call last):
    ...
    hypothesis.errors.InvalidArgument: min_heading=90.0 must be at most max_heading=0.0
    """
    play = _area(area)
    low = _check_number("min_heading", min_heading)
    high = _check_number("max_heading", max_heading)
    _check_order("min_heading", low, "max_heading", high)
    edge = _check_number("margin", margin, min_value=0.0)
    if 2.0 * edge > min(play.width, play.height):
        raise InvalidArgument(
            f"margin={margin!r} leaves no room in a {play.width:g} x {play.height:g} mm area; "
            f"it must be at most {min(play.width, play.height) / 2.0:g}"
        )
    return st.tuples(
        _bounded(edge, play.width - edge),
        _bounded(edge, play.height - edge),
        _bounded(low, high),
    )


def bases(*, ruleset: str | Ruleset = "xwing2") -> st.SearchStrategy[str]:
    """Return a strategy of the base names of a ruleset.

    Parameters
    ----------
    ruleset : str or Ruleset, default "xwing2"
        ``"xwing2"``, ``"xwing1"``, ``"armada"``, or a :class:`~geom.rulesets.Ruleset`.

    Returns
    -------
    SearchStrategy of str
        Keys of ``ruleset.base_sizes`` (Armada includes ``"squadron"``).

    Raises
    ------
    hypothesis.errors.InvalidArgument
        For an unknown ruleset.

    Notes
    -----
    Shrinks toward the first base of the ruleset, ``"small"``.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10, database=None)
    ... @given(bases(ruleset="armada"))
    ... def test_base(base):
    ...     assert base in ("small", "medium", "large", "huge", "squadron")
    >>> test_base()
    >>> bases(ruleset="chess")
    Traceback (most recent call last):
    ...
    hypothesis.errors.InvalidArgument: unknown ruleset='chess'; expected one of: xwing2, xwing1, armada
    """
    return st.sampled_from(tuple(_ruleset(ruleset).base_sizes))


def ships(
    *,
    ruleset: str | Ruleset = "xwing2",
    area: AreaSpec | None = None,
    ids: st.SearchStrategy[str] | None = None,
    players: st.SearchStrategy[int] | None = None,
    bases: st.SearchStrategy[str] | None = None,
    min_heading: float = 0.0,
    max_heading: float = 360.0,
    margin: float = 0.0,
) -> st.SearchStrategy[Ship]:
    """Return a strategy of :class:`~geom.objects.Ship` objects with their centres in an area.

    Parameters
    ----------
    ruleset : str or Ruleset, default "xwing2"
        Whose bases (and, for Armada, hulls) to draw.
    area : PlayArea, str or mapping, optional
        Where the base centres lie (default: the ruleset's play area).
    ids : SearchStrategy of str, optional
        The ship ids (default: short non-blank text). Must generate non-blank strings.
    players : SearchStrategy of int, optional
        The owners (default: 1 or 2). Must generate 1 or 2.
    bases : SearchStrategy of str, optional
        The base names (default: :func:`bases` of the ruleset). Must generate bases of
        the ruleset.
    min_heading, max_heading, margin : float
        As for :func:`poses`.

    Returns
    -------
    SearchStrategy of Ship
        Headings are normalised to ``[0, 360)`` as the scene loader does; Armada ships
        other than squadrons carry a random hull or none; X-Wing ships never do.

    Raises
    ------
    hypothesis.errors.InvalidArgument
        When built, for the arguments :func:`poses` rejects, an unknown ruleset or a
        non-strategy `ids`, `players` or `bases`; when drawn, if one of those strategies
        generates a value a scene cannot hold.

    Notes
    -----
    Shrinks toward a small base of player 1 at the corner ``(margin, margin)`` with
    heading `min_heading` (modulo 360), and toward no hull.

    Examples
    --------
    >>> from hypothesis import given, settings, strategies as st
    >>> @settings(max_examples=10, deadline=None, database=None)
    ... @given(ships(ruleset="armada", ids=st.just("isd"), players=st.just(2)))
    ... def test_ship(ship):
    ...     assert ship.id == "isd" and ship.player == 2 and 0 <= ship.heading < 360
    >>> test_ship()
    >>> ships(players=2)
    Traceback (most recent call last):
    ...
    hypothesis.errors.InvalidArgument: players=2 must be a strategy (for a fixed value, pass st.just(value))
    """
    rules = _ruleset(ruleset)
    play = _area(area, rules)
    where = poses(area=play, min_heading=min_heading, max_heading=max_heading, margin=margin)
    id_strategy = _default_ids() if ids is None else _check_strategy("ids", ids)
    player_strategy = (
        st.sampled_from((1, 2)) if players is None else _check_strategy("players", players)
    )
    base_strategy = (
        st.sampled_from(tuple(rules.base_sizes))
        if bases is None
        else _check_strategy("bases", bases)
    )
    hulls: st.SearchStrategy[str | None] = st.none()
    if rules.hull_names:
        hulls = st.none() | st.sampled_from(rules.hull_names)

    @st.composite
    def draw_ship(draw: st.DrawFn) -> Ship:
        ident = _drawn_id(draw(id_strategy))
        base = draw(base_strategy)
        if base not in rules.base_sizes:
            raise InvalidArgument(
                f"bases must generate bases of {rules.name} ({', '.join(rules.base_sizes)}), "
                f"got {base!r}"
            )
        player = _drawn_player(draw(player_strategy), optional=False)
        assert player is not None
        x, y, heading = draw(where)
        hull = draw(hulls)  # drawn for every base, so that bases shrink independently
        if rules.base_spec(base).is_disk:
            hull = None
        return Ship(ident, base, x, y, normalize_heading(heading), player, hull)

    return draw_ship()


def _custom_outlines(min_vertices: int, max_vertices: int) -> st.SearchStrategy[Any]:
    """Counter-clockwise star-shaped (hence simple) outlines about the origin."""

    @st.composite
    def draw_outline(draw: st.DrawFn) -> Any:
        count = draw(st.integers(min_vertices, max_vertices))
        gaps = draw(st.lists(st.integers(_MIN_GAP, _MAX_GAP), min_size=count, max_size=count))
        radii = draw(st.lists(st.floats(_MIN_RADIUS, _MAX_RADIUS), min_size=count, max_size=count))
        turns = np.cumsum(np.asarray(gaps, dtype=np.float64))
        angles = 2.0 * np.pi * (turns - turns[0]) / turns[-1]
        r = np.asarray(radii, dtype=np.float64)
        outline = np.stack([r * np.cos(angles), r * np.sin(angles)], axis=-1)
        outline.setflags(write=False)
        return outline

    def simple_ccw(outline: Any) -> bool:
        polygon = shapely.Polygon(outline)
        return bool(polygon.is_valid and polygon.area > 0 and shapely.is_ccw(polygon.exterior))

    # The construction is simple and counter-clockwise by design; the filter only guards
    # against floating-point corner cases and never rejects in practice.
    return draw_outline().filter(simple_ccw)


def obstacles(
    *,
    ruleset: str | Ruleset = "xwing2",
    area: AreaSpec | None = None,
    catalog: bool = True,
    custom: bool = True,
    min_vertices: int = 3,
    max_vertices: int = 12,
    ids: st.SearchStrategy[str] | None = None,
    players: st.SearchStrategy[int | None] | None = None,
) -> st.SearchStrategy[Obstacle]:
    """Return a strategy of :class:`~obstacles.scene.Obstacle` objects placed in an area.

    Parameters
    ----------
    ruleset : str or Ruleset, default "xwing2"
        Whose token catalog to draw from.
    area : PlayArea, str or mapping, optional
        Where the reference points lie (default: the ruleset's play area).
    catalog : bool, default True
        Draw catalog tokens of the ruleset (any token, devices included).
    custom : bool, default True
        Draw custom outlines: simple polygons, counter-clockwise, star-shaped about
        their origin, every vertex 5 to 80 mm from it, of any :data:`obstacles.KINDS`.
    min_vertices, max_vertices : int, default 3 and 12
        The vertex counts of custom outlines, ``3 <= min_vertices <= max_vertices <=``
        :data:`MAX_OUTLINE_VERTICES`.
    ids : SearchStrategy of str, optional
        The obstacle ids (default: short non-blank text).
    players : SearchStrategy of int or None, optional
        Who brought the obstacle (default: 1, 2 or None).

    Returns
    -------
    SearchStrategy of Obstacle
        Angles in ``[0, 360)``, either side up.

    Raises
    ------
    hypothesis.errors.InvalidArgument
        For an unknown ruleset or area, both `catalog` and `custom` false, vertex counts
        out of order or out of range, or non-strategy `ids` / `players`; when drawn, for
        an id or player a scene cannot hold.

    Notes
    -----
    Shrinks toward the first catalog token of the ruleset, unflipped, at angle 0, at
    the area's lower-left corner, and (custom outlines) toward a triangle of radius 5 mm
    with `min_vertices` vertices.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> import shapely
    >>> @settings(max_examples=10, deadline=None, database=None)
    ... @given(obstacles(catalog=False, max_vertices=8))
    ... def test_outline(obstacle):
    ...     assert obstacle.token is None and 3 <= len(obstacle.outline) <= 8
    ...     assert shapely.is_ccw(obstacle.polygon().exterior)
    >>> test_outline()
    >>> obstacles(catalog=False, custom=False)
    Traceback (most recent call last):
    ...
    hypothesis.errors.InvalidArgument: at least one of catalog and custom must be true
    """
    rules = _ruleset(ruleset)
    play = _area(area, rules)
    if not isinstance(catalog, bool) or not isinstance(custom, bool):
        raise InvalidArgument(f"catalog={catalog!r} and custom={custom!r} must be booleans")
    if not (catalog or custom):
        raise InvalidArgument("at least one of catalog and custom must be true")
    low = _check_count("min_vertices", min_vertices, min_value=3)
    high = _check_count("max_vertices", max_vertices, min_value=3)
    _check_order("min_vertices", low, "max_vertices", high)
    if high > MAX_OUTLINE_VERTICES:
        raise InvalidArgument(
            f"max_vertices={max_vertices!r} must be at most {MAX_OUTLINE_VERTICES} "
            "(the scene-file limit)"
        )
    id_strategy = _default_ids() if ids is None else _check_strategy("ids", ids)
    player_strategy: st.SearchStrategy[int | None] = (
        st.none() | st.sampled_from((1, 2))
        if players is None
        else _check_strategy("players", players)
    )

    from obstacles.catalog import KINDS
    from obstacles.catalog import catalog as token_catalog
    from obstacles.scene import Obstacle

    tokens = token_catalog(rules)
    points = st.tuples(_bounded(0.0, play.width), _bounded(0.0, play.height))
    angles = st.floats(0.0, 360.0, exclude_max=True)
    kinds: list[st.SearchStrategy[tuple[str | None, Any, str]]] = []
    if catalog:
        kinds.append(
            st.sampled_from(tuple(tokens)).map(
                lambda name: (name, tokens[name].outline, tokens[name].kind)
            )
        )
    if custom:
        kinds.append(
            st.tuples(st.none(), _custom_outlines(low, high), st.sampled_from(KINDS)),
        )
    shapes = st.one_of(kinds)

    @st.composite
    def draw_obstacle(draw: st.DrawFn) -> Obstacle:
        ident = _drawn_id(draw(id_strategy))
        token, outline, kind = draw(shapes)
        x, y = draw(points)
        angle = draw(angles)
        flipped = draw(st.booleans())
        player = _drawn_player(draw(player_strategy), optional=True)
        family = tokens[token].family if token is not None else None
        return Obstacle(ident, outline, kind, x, y, angle, flipped, player, token, family)

    return draw_obstacle()


def legal_setups(
    *,
    ruleset: str | Ruleset = "xwing2",
    area: AreaSpec | None = None,
    format: Literal["standard", "tournament"] = "standard",
) -> st.SearchStrategy[Scene]:
    """Return a strategy of whole legal obstacle setups, as :class:`~obstacles.scene.Scene`.

    Each draw is :func:`obstacles.setup.random_setup` with a drawn seed: X-Wing six
    different asteroid, debris or gas tokens, three per player; Armada the standard set.
    Every setup passes :func:`obstacles.legality.check` (no ships, phase ``setup``).

    Parameters
    ----------
    ruleset : str or Ruleset, default "xwing2"
        Whose tokens and placement rules.
    area : PlayArea, str or mapping, optional
        The play area (default: the ruleset's).
    format : {"standard", "tournament"}, default "standard"
        Written into the scene (X-Wing setups satisfy the tournament composition anyway).

    Returns
    -------
    SearchStrategy of Scene

    Raises
    ------
    hypothesis.errors.InvalidArgument
        For an unknown ruleset, area or format, or an area with no room inside the
        obstacle edge limit; when drawn, if no legal setup can be found on the area.

    Notes
    -----
    The setup is a function of the seed, which shrinks toward 0: a failing setup is
    reported with its seed, but its geometry is not simplified by shrinking.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> from obstacles.legality import check
    >>> @settings(max_examples=5, deadline=None, database=None)
    ... @given(legal_setups(ruleset="armada"))
    ... def test_legal(scene):
    ...     assert check(scene).legal and len(scene.obstacles) == 6
    >>> test_legal()
    >>> legal_setups(area={"width": 300, "height": 300}).validate()
    Traceback (most recent call last):
    ...
    hypothesis.errors.InvalidArgument: area 300 x 300 mm leaves no room for obstacles more than 200 mm from every edge
    """
    rules = _ruleset(ruleset)
    play = _area(area, rules)
    if format not in ("standard", "tournament"):
        raise InvalidArgument(f"format={format!r} must be 'standard' or 'tournament'")
    edge = rules.obstacle_edge_limit
    if min(play.width, play.height) <= 2.0 * edge:
        raise InvalidArgument(
            f"area {play.width:g} x {play.height:g} mm leaves no room for obstacles more "
            f"than {edge:g} mm from every edge"
        )

    from obstacles.setup import random_setup

    def setup(seed: int) -> Scene:
        try:
            return random_setup(rules, play, seed=seed, format=format)
        except InvalidInputError as error:
            raise InvalidArgument(f"legal_setups: {error}") from None

    return st.integers(0, 2**32 - 1).map(setup)


def scenes(
    *,
    ruleset: str | Ruleset = "xwing2",
    area: AreaSpec | None = None,
    min_ships: int = 0,
    max_ships: int = 4,
    min_obstacles: int = 0,
    max_obstacles: int = 6,
    phase: Literal["setup", "play"] | None = None,
    format: Literal["standard", "tournament"] | None = None,
    ids: st.SearchStrategy[str] | None = None,
) -> st.SearchStrategy[Scene]:
    """Return a strategy of :class:`~obstacles.scene.Scene` objects (not scene dicts).

    A scene holds :func:`ships` and :func:`obstacles` (catalog and custom) of one
    ruleset, with ids unique across both; ``scene.to_dict()`` is its scene-file
    structure, which the scene loader reads back to an equal scene. The scenes are well
    formed but not necessarily legal (objects may overlap or sit near edges): use
    :func:`legal_setups` for legal ones.

    Parameters
    ----------
    ruleset : str or Ruleset, default "xwing2"
        A ruleset name, or a :class:`~geom.rulesets.Ruleset` that differs from its stock
        ruleset only in ``[constants]`` (those are written into the scene).
    area : PlayArea, str or mapping, optional
        The play area (default: the ruleset's).
    min_ships, max_ships : int, default 0 and 4
        Bounds on the number of ships.
    min_obstacles, max_obstacles : int, default 0 and 6
        Bounds on the number of obstacles.
    phase : {"setup", "play"}, optional
        Fixed phase; by default drawn.
    format : {"standard", "tournament"}, optional
        Fixed format; by default drawn.
    ids : SearchStrategy of str, optional
        Object ids (default: short non-blank text). An id drawn twice gets a suffix
        (``a``, ``a~2``, ``a~3``), so that ids are unique even from ``st.just("a")``.

    Returns
    -------
    SearchStrategy of Scene

    Raises
    ------
    hypothesis.errors.InvalidArgument
        For an unknown ruleset or area, negative counts, a minimum above its maximum,
        more than 10,000 objects, an unknown phase or format, or a non-strategy `ids`.

    Notes
    -----
    Shrinks toward `min_ships` ships and `min_obstacles` obstacles, each shrinking as
    in :func:`ships` and :func:`obstacles`, toward phase ``setup`` and format
    ``standard``.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10, deadline=None, database=None)
    ... @given(scenes(ruleset="xwing1", min_ships=1, max_ships=2, max_obstacles=1))
    ... def test_scene(scene):
    ...     assert 1 <= len(scene.ships) <= 2 and len(scene.obstacles) <= 1
    ...     assert len(set(scene.ids)) == len(scene.ids)
    >>> test_scene()
    >>> scenes(min_ships=3, max_ships=2)
    Traceback (most recent call last):
    ...
    hypothesis.errors.InvalidArgument: min_ships=3 must be at most max_ships=2
    """
    rules = _ruleset(ruleset)
    play = _area(area, rules)
    constants = _scene_constants(rules)
    low_ships = _check_count("min_ships", min_ships)
    high_ships = _check_count("max_ships", max_ships)
    _check_order("min_ships", low_ships, "max_ships", high_ships)
    low_obstacles = _check_count("min_obstacles", min_obstacles)
    high_obstacles = _check_count("max_obstacles", max_obstacles)
    _check_order("min_obstacles", low_obstacles, "max_obstacles", high_obstacles)
    if high_ships + high_obstacles > 10_000:
        raise InvalidArgument(
            f"max_ships + max_obstacles = {high_ships + high_obstacles} must be at most "
            "10000 (the scene-file limit)"
        )
    if phase not in (None, "setup", "play"):
        raise InvalidArgument(f"phase={phase!r} must be None, 'setup' or 'play'")
    if format not in (None, "standard", "tournament"):
        raise InvalidArgument(f"format={format!r} must be None, 'standard' or 'tournament'")
    id_strategy = _default_ids() if ids is None else _check_strategy("ids", ids)
    phases: st.SearchStrategy[Literal["setup", "play"]] = (
        st.sampled_from(("setup", "play")) if phase is None else st.just(phase)
    )
    formats: st.SearchStrategy[Literal["standard", "tournament"]] = (
        st.sampled_from(("standard", "tournament")) if format is None else st.just(format)
    )
    placeholder = st.just("_")
    ship_strategy = ships(ruleset=rules, area=play, ids=placeholder)
    obstacle_strategy = obstacles(ruleset=rules, area=play, ids=placeholder)

    from obstacles.scene import Scene

    @st.composite
    def draw_scene(draw: st.DrawFn) -> Scene:
        drawn_obstacles = draw(
            st.lists(obstacle_strategy, min_size=low_obstacles, max_size=high_obstacles)
        )
        drawn_ships = draw(st.lists(ship_strategy, min_size=low_ships, max_size=high_ships))
        count = len(drawn_obstacles) + len(drawn_ships)
        names = _unique(
            [
                _drawn_id(name)
                for name in draw(st.lists(id_strategy, min_size=count, max_size=count))
            ]
        )
        return Scene(
            rules,
            play,
            phase=draw(phases),
            format=draw(formats),
            obstacles=tuple(
                _dc.replace(o, id=name)
                for o, name in zip(drawn_obstacles, names[: len(drawn_obstacles)], strict=True)
            ),
            ships=tuple(
                _dc.replace(s, id=name)
                for s, name in zip(drawn_ships, names[len(drawn_obstacles) :], strict=True)
            ),
            constants=dict(constants),
        )

    return draw_scene()
