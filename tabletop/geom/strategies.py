"""Hypothesis strategies for the geometry: poses, bases and ships.

Import it as ``from tabletop.geom import strategies``: ``import geom`` alone never imports
hypothesis. Obstacles, legal setups and whole scenes are :mod:`tabletop.obstacles.strategies`
(geom sits at the bottom of the import graph and imports nothing above it). Every strategy follows
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
>>> from tabletop.geom import strategies
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

from collections.abc import Mapping
from typing import Any, TypeAlias

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from tabletop.geom.areas import PlayArea
from tabletop.geom.hulls import hull_base
from tabletop.geom.objects import Ship
from tabletop.geom.poses import MAX_COORDINATE_MM, normalize_heading
from tabletop.geom.rulesets import Ruleset
from tabletop.geom.strategy_arguments import (
    area_argument,
    bounded_floats,
    check_number,
    check_order,
    check_strategy,
    default_ids,
    drawn_id,
    drawn_player,
    ruleset_argument,
)

__all__ = [
    "MAX_COORDINATE_MM",
    "AreaSpec",
    "Pose",
    "bases",
    "poses",
    "ships",
]

#: A pose drawn by :func:`poses`: ``(x, y, heading)`` in mm and degrees.
Pose: TypeAlias = tuple[float, float, float]


#: What an ``area`` option accepts: a play area, a preset name or ``{width, height}``.
AreaSpec: TypeAlias = PlayArea | str | Mapping[str, Any]


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
        The play area: a :class:`~tabletop.geom.areas.PlayArea`, a preset name or a
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
    play = area_argument(area)
    low = check_number("min_heading", min_heading)
    high = check_number("max_heading", max_heading)
    check_order("min_heading", low, "max_heading", high)
    edge = check_number("margin", margin, min_value=0.0)
    if 2.0 * edge > min(play.width, play.height):
        raise InvalidArgument(
            f"margin={margin!r} leaves no room in a {play.width:g} x {play.height:g} mm area; "
            f"it must be at most {min(play.width, play.height) / 2.0:g}"
        )
    return st.tuples(
        bounded_floats(edge, play.width - edge),
        bounded_floats(edge, play.height - edge),
        bounded_floats(low, high),
    )


def bases(*, ruleset: str | Ruleset = "xwing2") -> st.SearchStrategy[str]:
    """Return a strategy of the base names of a ruleset.

    Parameters
    ----------
    ruleset : str or Ruleset, default "xwing2"
        ``"xwing2"``, ``"xwing1"``, ``"armada"``, or a :class:`~tabletop.geom.rulesets.Ruleset`.

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
    return st.sampled_from(tuple(ruleset_argument(ruleset).base_sizes))


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
    """Return a strategy of :class:`~tabletop.geom.objects.Ship` objects with their centres in an area.

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
        other than squadrons carry a random hull of their base or none; X-Wing ships never do.

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
    rules = ruleset_argument(ruleset)
    play = area_argument(area, rules)
    where = poses(area=play, min_heading=min_heading, max_heading=max_heading, margin=margin)
    id_strategy = default_ids() if ids is None else check_strategy("ids", ids)
    player_strategy = (
        st.sampled_from((1, 2)) if players is None else check_strategy("players", players)
    )
    base_strategy = (
        st.sampled_from(tuple(rules.base_sizes))
        if bases is None
        else check_strategy("bases", bases)
    )
    # A hull is drawn as an index into the hulls of the drawn base (a hull is printed
    # for one size of ship), so that bases and hulls shrink independently.
    hulls: st.SearchStrategy[int | None] = st.none()
    if rules.hull_names:
        hulls = st.none() | st.integers(0, len(rules.hull_names) - 1)

    return _drawn_ships(rules, id_strategy, base_strategy, player_strategy, where, hulls)


def _drawn_ships(
    rules: Ruleset,
    id_strategy: st.SearchStrategy[str],
    base_strategy: st.SearchStrategy[str],
    player_strategy: st.SearchStrategy[int],
    where: st.SearchStrategy[tuple[float, float, float]],
    hulls: st.SearchStrategy[int | None],
) -> st.SearchStrategy[Ship]:
    """Return the strategy of one ship for :func:`ships` (id, base, player, pose, hull index)."""

    # A closure, so that the strategy's repr stays short (not every argument's).
    @st.composite
    def draw_ship(draw: st.DrawFn) -> Ship:
        ident = drawn_id(draw(id_strategy))
        base = draw(base_strategy)
        if base not in rules.base_sizes:
            raise InvalidArgument(
                f"bases must generate bases of {rules.name} ({', '.join(rules.base_sizes)}), "
                f"got {base!r}"
            )
        player = drawn_player(draw(player_strategy), optional=False)
        assert player is not None
        x, y, heading = draw(where)
        index = draw(hulls)  # drawn for every base, so that bases shrink independently
        on_base = [h for h in rules.hull_names if hull_base(h) == base]
        hull = None if index is None or not on_base else on_base[index % len(on_base)]
        return Ship(ident, base, x, y, normalize_heading(heading), player, hull)

    return draw_ship()
