"""Hypothesis strategies for obstacles, legal setups and whole scenes.

The geometry strategies (poses, bases, ships) are :mod:`tabletop.geom.strategies`; these build
on them and follow the same house style (keyword-only options, ``min_*`` / ``max_*``
bounds, :class:`~hypothesis.errors.InvalidArgument` for impossible arguments). Every
value drawn is one that a scene file accepts (``scene-format.md``).

Examples
--------
>>> from hypothesis import given, settings
>>> from tabletop.obstacles import strategies
>>> @settings(max_examples=5, deadline=None, database=None)
... @given(strategies.scenes(ruleset="armada", max_ships=2, max_obstacles=2))
... def test_scene_fits(scene):
...     assert len(scene.ships) <= 2 and len(scene.obstacles) <= 2
>>> test_scene_fits()
"""

from __future__ import annotations

import dataclasses as _dc
from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
import shapely
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from tabletop.geom.areas import PlayArea
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.rulesets import Ruleset
from tabletop.geom.strategies import AreaSpec, ships
from tabletop.geom.strategy_arguments import (
    area_argument,
    bounded_floats,
    check_count,
    check_order,
    check_strategy,
    default_ids,
    drawn_id,
    drawn_player,
    ruleset_argument,
    scene_constants,
    unique_ids,
)
from tabletop.obstacles.catalog import KINDS, Token
from tabletop.obstacles.catalog import catalog as token_catalog
from tabletop.obstacles.scene import Obstacle, Scene
from tabletop.obstacles.sceneformat import MAX_OUTLINE_VERTICES

__all__ = ["MAX_OUTLINE_VERTICES", "legal_setups", "obstacles", "scenes"]

#: Custom outlines: vertex radii, mm, and the relative angle gaps between vertices. Gaps
#: of 10-19 units keep every gap under half a turn, so the outline is star-shaped about
#: its origin and therefore simple.
_MIN_RADIUS, _MAX_RADIUS = 5.0, 80.0
_MIN_GAP, _MAX_GAP = 10, 19


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


def _vertex_bounds(min_vertices: int, max_vertices: int) -> tuple[int, int]:
    """Check the vertex counts of custom outlines: ``3 <= min <= max <= MAX_OUTLINE_VERTICES``."""
    low = check_count("min_vertices", min_vertices, min_value=3)
    high = check_count("max_vertices", max_vertices, min_value=3)
    check_order("min_vertices", low, "max_vertices", high)
    if high > MAX_OUTLINE_VERTICES:
        raise InvalidArgument(
            f"max_vertices={max_vertices!r} must be at most {MAX_OUTLINE_VERTICES} "
            "(the scene-file limit)"
        )
    return low, high


def _shapes(
    tokens: Mapping[str, Token], *, catalog: bool, custom: bool, vertices: tuple[int, int]
) -> st.SearchStrategy[tuple[str | None, Any, str]]:
    """Return (token name or None, outline, kind): catalog tokens first, then custom outlines."""
    kinds: list[st.SearchStrategy[tuple[str | None, Any, str]]] = []
    if catalog:
        kinds.append(
            st.sampled_from(tuple(tokens)).map(
                lambda name: (name, tokens[name].outline, tokens[name].kind)
            )
        )
    if custom:
        kinds.append(
            st.tuples(st.none(), _custom_outlines(*vertices), st.sampled_from(KINDS)),
        )
    return st.one_of(kinds)


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
    """Return a strategy of :class:`~tabletop.obstacles.scene.Obstacle` objects placed in an area.

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
        their origin, every vertex 5 to 80 mm from it, of any :data:`tabletop.obstacles.KINDS`.
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
    rules = ruleset_argument(ruleset)
    play = area_argument(area, rules)
    _check_sources(catalog, custom)
    low, high = _vertex_bounds(min_vertices, max_vertices)
    id_strategy, player_strategy = _ids_and_players(ids, players)
    tokens = token_catalog(rules)
    points = st.tuples(bounded_floats(0.0, play.width), bounded_floats(0.0, play.height))
    angles = st.floats(0.0, 360.0, exclude_max=True)
    shapes = _shapes(tokens, catalog=catalog, custom=custom, vertices=(low, high))
    return _drawn_obstacles(id_strategy, shapes, points, angles, player_strategy, tokens)


def _check_sources(catalog: bool, custom: bool) -> None:
    """Refuse non-boolean flags, or both sources of outlines turned off."""
    if not isinstance(catalog, bool) or not isinstance(custom, bool):
        raise InvalidArgument(f"catalog={catalog!r} and custom={custom!r} must be booleans")
    if not (catalog or custom):
        raise InvalidArgument("at least one of catalog and custom must be true")


def _ids_and_players(
    ids: st.SearchStrategy[str] | None, players: st.SearchStrategy[int | None] | None
) -> tuple[st.SearchStrategy[str], st.SearchStrategy[int | None]]:
    """Return the id and player strategies: the given ones, checked, or the defaults."""
    id_strategy = default_ids() if ids is None else check_strategy("ids", ids)
    player_strategy: st.SearchStrategy[int | None] = (
        st.none() | st.sampled_from((1, 2))
        if players is None
        else check_strategy("players", players)
    )
    return id_strategy, player_strategy


def _drawn_obstacles(
    id_strategy: st.SearchStrategy[str],
    shapes: st.SearchStrategy[tuple[str | None, Any, str]],
    points: st.SearchStrategy[tuple[float, float]],
    angles: st.SearchStrategy[float],
    player_strategy: st.SearchStrategy[int | None],
    tokens: Mapping[str, Token],
) -> st.SearchStrategy[Obstacle]:
    """Return the strategy of one obstacle for :func:`obstacles` (id, shape, place, side, player)."""

    # A closure, so that the strategy's repr stays short (not every argument's).
    @st.composite
    def draw_obstacle(draw: st.DrawFn) -> Obstacle:
        ident = drawn_id(draw(id_strategy))
        token, outline, kind = draw(shapes)
        x, y = draw(points)
        angle = draw(angles)
        flipped = draw(st.booleans())
        player = drawn_player(draw(player_strategy), optional=True)
        family = tokens[token].family if token is not None else None
        return Obstacle(ident, outline, kind, x, y, angle, flipped, player, token, family)

    return draw_obstacle()


def legal_setups(
    *,
    ruleset: str | Ruleset = "xwing2",
    area: AreaSpec | None = None,
    format: Literal["standard", "tournament"] = "standard",
) -> st.SearchStrategy[Scene]:
    """Return a strategy of whole legal obstacle setups, as :class:`~tabletop.obstacles.scene.Scene`.

    Each draw is :func:`tabletop.obstacles.setup.random_setup` with a drawn seed: X-Wing six
    different asteroid, debris or gas tokens, three per player; Armada the standard set.
    Every setup passes :func:`tabletop.obstacles.legality.check` (no ships, phase ``setup``).

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
    >>> from tabletop.obstacles.legality import check
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
    rules = ruleset_argument(ruleset)
    play = area_argument(area, rules)
    if format not in ("standard", "tournament"):
        raise InvalidArgument(f"format={format!r} must be 'standard' or 'tournament'")
    edge = rules.obstacle_placement.edge
    if min(play.width, play.height) <= 2.0 * edge:
        raise InvalidArgument(
            f"area {play.width:g} x {play.height:g} mm leaves no room for obstacles more "
            f"than {edge:g} mm from every edge"
        )

    from tabletop.obstacles.setup import random_setup  # the setup search loads only when drawn

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
    """Return a strategy of :class:`~tabletop.obstacles.scene.Scene` objects (not scene dicts).

    A scene holds :func:`ships` and :func:`obstacles` (catalog and custom) of one
    ruleset, with ids unique across both; ``scene.to_dict()`` is its scene-file
    structure, which the scene loader reads back to an equal scene. The scenes are well
    formed but not necessarily legal (objects may overlap or sit near edges): use
    :func:`legal_setups` for legal ones.

    Parameters
    ----------
    ruleset : str or Ruleset, default "xwing2"
        A ruleset name, or a :class:`~tabletop.geom.rulesets.Ruleset` that differs from its stock
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
    rules = ruleset_argument(ruleset)
    play = area_argument(area, rules)
    counts = _object_counts(min_ships, max_ships, min_obstacles, max_obstacles)
    phases, formats = _phase_and_format(phase, format)
    id_strategy = default_ids() if ids is None else check_strategy("ids", ids)
    ship_strategy, obstacle_strategy = _placeholder_objects(rules, play)
    parts = (ship_strategy, obstacle_strategy, id_strategy, phases, formats)
    return _drawn_scenes((rules, play, scene_constants(rules)), parts, counts)


def _placeholder_objects(rules: Ruleset, play: PlayArea) -> tuple[Any, Any]:
    """Return the ship and obstacle strategies of a scene, ids left to the scene to draw."""
    placeholder = st.just("_")
    ship_strategy = ships(ruleset=rules, area=play, ids=placeholder)
    return ship_strategy, obstacles(ruleset=rules, area=play, ids=placeholder)


def _object_counts(
    min_ships: int, max_ships: int, min_obstacles: int, max_obstacles: int
) -> tuple[int, int, int, int]:
    """Check the bounds on ships and obstacles; return them (ships, then obstacles)."""
    low_ships = check_count("min_ships", min_ships)
    high_ships = check_count("max_ships", max_ships)
    check_order("min_ships", low_ships, "max_ships", high_ships)
    low_obstacles = check_count("min_obstacles", min_obstacles)
    high_obstacles = check_count("max_obstacles", max_obstacles)
    check_order("min_obstacles", low_obstacles, "max_obstacles", high_obstacles)
    if high_ships + high_obstacles > 10_000:
        raise InvalidArgument(
            f"max_ships + max_obstacles = {high_ships + high_obstacles} must be at most "
            "10000 (the scene-file limit)"
        )
    return low_ships, high_ships, low_obstacles, high_obstacles


def _phase_and_format(
    phase: Literal["setup", "play"] | None, format: Literal["standard", "tournament"] | None
) -> tuple[
    st.SearchStrategy[Literal["setup", "play"]],
    st.SearchStrategy[Literal["standard", "tournament"]],
]:
    """Check a fixed phase and format; return a strategy of each (drawn where not fixed)."""
    if phase not in (None, "setup", "play"):
        raise InvalidArgument(f"phase={phase!r} must be None, 'setup' or 'play'")
    if format not in (None, "standard", "tournament"):
        raise InvalidArgument(f"format={format!r} must be None, 'standard' or 'tournament'")
    phases: st.SearchStrategy[Literal["setup", "play"]] = (
        st.sampled_from(("setup", "play")) if phase is None else st.just(phase)
    )
    formats: st.SearchStrategy[Literal["standard", "tournament"]] = (
        st.sampled_from(("standard", "tournament")) if format is None else st.just(format)
    )
    return phases, formats


def _drawn_scenes(
    where: tuple[Ruleset, PlayArea, Mapping[str, Any]],
    parts: tuple[Any, Any, Any, Any, Any],
    counts: tuple[int, int, int, int],
) -> st.SearchStrategy[Scene]:
    """Return the strategy of one scene for :func:`scenes` (obstacles, ships, ids, phase, format).

    `where` is the ruleset, play area and constants; `parts` the strategies of ships,
    obstacles, ids, phases and formats; `counts` the bounds on ships, then obstacles.
    """

    # A closure, so that the strategy's repr stays short (not every argument's).
    @st.composite
    def draw_scene(draw: st.DrawFn) -> Scene:
        rules, play, constants = where
        ship_strategy, obstacle_strategy, id_strategy, phases, formats = parts
        low_ships, high_ships, low_obstacles, high_obstacles = counts
        drawn_obstacles = draw(
            st.lists(obstacle_strategy, min_size=low_obstacles, max_size=high_obstacles)
        )
        drawn_ships = draw(st.lists(ship_strategy, min_size=low_ships, max_size=high_ships))
        count = len(drawn_obstacles) + len(drawn_ships)
        names = unique_ids(
            [drawn_id(name) for name in draw(st.lists(id_strategy, min_size=count, max_size=count))]
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
