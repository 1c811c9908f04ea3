"""The public hypothesis strategies of :mod:`tabletop.geom.strategies`, tested as strategies.

Each strategy returns a ``SearchStrategy``; every draw satisfies the documented
invariants (inside the area, simple counter-clockwise outlines, legal setups that
``check`` passes, sizes within bounds, values a scene file accepts); impossible arguments
raise ``InvalidArgument`` (a table with readable ids); the documented shrink targets are
what ``minimal`` finds; and edge cases (a pose at the corner margin, a base flush against
an edge, two bases touching) are reachable.
"""

from __future__ import annotations

import dataclasses
import math
import subprocess
import sys
from collections.abc import Callable
from typing import Any, Literal, TypeVar

import pytest
import shapely
from hypothesis import Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from hypothesis.strategies import SearchStrategy

from tabletop.app.scene import scenefile
from tabletop.geom import strategies
from tabletop.geom.areas import AREA_PRESETS, PlayArea, play_area
from tabletop.geom.hulls import hull_names
from tabletop.geom.objects import Ship
from tabletop.geom.rulesets import RULESET_NAMES, Ruleset, XWingRuleset, get_ruleset
from tabletop.obstacles import strategies as obstacle_strategies
from tabletop.obstacles.catalog import KINDS, catalog
from tabletop.obstacles.legality import check
from tabletop.obstacles.scene import Obstacle, Scene

T = TypeVar("T")

# -- helpers ---------------------------------------------------------------------------


def minimal(strategy: SearchStrategy[T], condition: Callable[[T], bool] = lambda _: True) -> T:
    """Return the simplest example satisfying `condition` (as hypothesis' own tests do)."""
    return find(strategy, condition, settings=settings(database=None, max_examples=500))


def find_any(strategy: SearchStrategy[T], condition: Callable[[T], bool]) -> T:
    """Return any example satisfying `condition`, without shrinking."""
    return find(
        strategy,
        condition,
        settings=settings(database=None, max_examples=2000, phases=[Phase.generate]),
    )


def _show(value: Any) -> str:
    if isinstance(value, Ruleset):
        stock = value == get_ruleset(value.name) if value.name in RULESET_NAMES else False
        return f"<ruleset {value.name}{'' if stock else ', modified'}>"
    return repr(value)


def e(function: Callable[..., SearchStrategy[Any]], **kwargs: Any) -> Any:
    """One row of an argument table, with a readable id such as ``poses(margin=-1)``."""
    shown = ", ".join(f"{k}={_show(v)}" for k, v in kwargs.items())
    return pytest.param(function, kwargs, id=f"{function.__name__}({shown})")


def wrap(scene_entry: dict[str, Any], group: str, ruleset: str = "xwing2") -> dict[str, Any]:
    return {"ruleset": ruleset, group: [scene_entry]}


RULESETS = st.sampled_from(RULESET_NAMES)
AREAS = st.one_of(
    st.sampled_from(sorted(AREA_PRESETS)),
    st.builds(
        lambda w, h: {"width": w, "height": h},
        st.floats(1.0, 3000.0),
        st.floats(1.0, 3000.0),
    ),
)


# -- each call returns a SearchStrategy, never an empty one -----------------------------

FACTORIES = [
    e(strategies.poses),
    e(strategies.poses, area="6x3ft", margin=457.2, min_heading=-90, max_heading=90),
    e(strategies.poses, area={"width": 40, "height": 40}, margin=20, max_heading=0),
    e(strategies.bases),
    e(strategies.bases, ruleset="armada"),
    e(strategies.ships),
    e(strategies.ships, ruleset="armada", area="180x90cm", players=st.just(2)),
    e(strategies.ships, ruleset=get_ruleset("xwing1"), bases=st.just("huge")),
    e(obstacle_strategies.obstacles),
    e(obstacle_strategies.obstacles, catalog=False, min_vertices=3, max_vertices=3),
    e(obstacle_strategies.obstacles, ruleset="armada", custom=False),
    e(obstacle_strategies.obstacles, max_vertices=scenefile.MAX_OUTLINE_VERTICES),
    e(obstacle_strategies.legal_setups),
    e(obstacle_strategies.legal_setups, ruleset="armada", format="tournament"),
    e(obstacle_strategies.scenes),
    e(obstacle_strategies.scenes, ruleset="armada", min_ships=1, max_ships=1, max_obstacles=0),
    e(obstacle_strategies.scenes, ruleset=get_ruleset("xwing2", {"xwing_obstacle_edge": 150})),
]


@pytest.mark.parametrize(("function", "kwargs"), FACTORIES)
def test_returns_a_nonempty_search_strategy(
    function: Callable[..., SearchStrategy[Any]], kwargs: dict[str, Any]
) -> None:
    strategy = function(**kwargs)
    assert isinstance(strategy, SearchStrategy)
    strategy.validate()
    assert not strategy.is_empty
    find_any(strategy, lambda _: True)  # something can be drawn


def test_import_geom_does_not_import_hypothesis_or_obstacles() -> None:
    code = (
        "import sys, tabletop.geom\n"
        "assert 'hypothesis' not in sys.modules, 'import tabletop.geom imported hypothesis'\n"
        "import tabletop.geom.strategies\n"
        "assert 'tabletop.obstacles' not in sys.modules, 'geom.strategies imported obstacles'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_limits_mirror_the_scene_loader() -> None:
    assert strategies.MAX_COORDINATE_MM == scenefile.MAX_COORDINATE_MM
    assert obstacle_strategies.MAX_OUTLINE_VERTICES == scenefile.MAX_OUTLINE_VERTICES


# -- argument validation ---------------------------------------------------------------

BAD_ARGUMENTS = [
    e(strategies.poses, area="4x4ft"),
    e(strategies.poses, area={"width": -1, "height": 10}),
    e(strategies.poses, area={"width": 10}),
    e(strategies.poses, area=42),
    e(strategies.poses, area=PlayArea(100.0, 100.0, "3x3ft")),
    e(strategies.poses, area=PlayArea(0.0, 100.0)),
    e(strategies.poses, margin=-1),
    e(strategies.poses, margin=457.3),
    e(strategies.poses, margin=math.nan),
    e(strategies.poses, min_heading=90, max_heading=0),
    e(strategies.poses, min_heading=math.inf),
    e(strategies.poses, max_heading=2e6),
    e(strategies.poses, min_heading="0"),
    e(strategies.poses, max_heading=True),
    e(strategies.bases, ruleset="chess"),
    e(strategies.bases, ruleset=2),
    e(strategies.ships, ruleset="xwing3"),
    e(strategies.ships, ids="wedge"),
    e(strategies.ships, players=1),
    e(strategies.ships, bases="small"),
    e(strategies.ships, margin=-0.5),
    e(strategies.ships, min_heading=10, max_heading=5),
    e(obstacle_strategies.obstacles, catalog=False, custom=False),
    e(obstacle_strategies.obstacles, catalog="yes"),
    e(obstacle_strategies.obstacles, min_vertices=2),
    e(obstacle_strategies.obstacles, min_vertices=5, max_vertices=4),
    e(obstacle_strategies.obstacles, max_vertices=scenefile.MAX_OUTLINE_VERTICES + 1),
    e(obstacle_strategies.obstacles, max_vertices=4.5),
    e(obstacle_strategies.obstacles, min_vertices=-3),
    e(obstacle_strategies.obstacles, ids=["a"]),
    e(obstacle_strategies.obstacles, players=st.just),
    e(obstacle_strategies.obstacles, ruleset="armada", area="2x2ft"),
    e(obstacle_strategies.legal_setups, ruleset="checkers"),
    e(obstacle_strategies.legal_setups, format="casual"),
    e(obstacle_strategies.legal_setups, area={"width": 400, "height": 914.4}),
    e(obstacle_strategies.scenes, min_ships=3, max_ships=2),
    e(obstacle_strategies.scenes, min_obstacles=7, max_obstacles=6),
    e(obstacle_strategies.scenes, min_ships=-1),
    e(obstacle_strategies.scenes, max_obstacles=-1),
    e(obstacle_strategies.scenes, max_ships=2.0),
    e(obstacle_strategies.scenes, max_ships=5000, max_obstacles=5001),
    e(obstacle_strategies.scenes, phase="deploy"),
    e(obstacle_strategies.scenes, format="epic"),
    e(obstacle_strategies.scenes, ids=st.text),
    e(
        obstacle_strategies.scenes,
        ruleset=dataclasses.replace(get_ruleset("armada"), name="armada2"),
    ),
    e(
        obstacle_strategies.scenes,
        ruleset=dataclasses.replace(get_ruleset("xwing2"), range_zero=False),
    ),
]


@pytest.mark.parametrize(("function", "kwargs"), BAD_ARGUMENTS)
def test_impossible_arguments_raise_invalid_argument(
    function: Callable[..., SearchStrategy[Any]], kwargs: dict[str, Any]
) -> None:
    with pytest.raises(InvalidArgument):
        function(**kwargs).validate()


BAD_DRAWS = [
    e(strategies.ships, ids=st.just("   ")),
    e(strategies.ships, ids=st.just(7)),
    e(strategies.ships, players=st.just(3)),
    e(strategies.ships, players=st.just(True)),
    e(strategies.ships, players=st.none()),
    e(strategies.ships, bases=st.just("tiny")),
    e(strategies.ships, ruleset="xwing2", bases=st.just("squadron")),
    e(obstacle_strategies.obstacles, ids=st.just("")),
    e(obstacle_strategies.obstacles, players=st.just(0)),
    e(obstacle_strategies.scenes, min_ships=1, ids=st.just("\t")),
]


@pytest.mark.parametrize(("function", "kwargs"), BAD_DRAWS)
def test_strategies_generating_unusable_values_raise_invalid_argument_when_drawn(
    function: Callable[..., SearchStrategy[Any]], kwargs: dict[str, Any]
) -> None:
    @settings(database=None, max_examples=5)
    @given(function(**kwargs))
    def draw(value: Any) -> None:
        pass

    with pytest.raises(InvalidArgument):
        draw()


# -- invariants of every draw ----------------------------------------------------------


@given(st.data())
def test_poses_lie_inside_the_area_within_their_bounds(data: st.DataObject) -> None:
    area = play_area(data.draw(AREAS, label="area"))
    margin = data.draw(st.floats(0.0, min(area.width, area.height) / 2.0), label="margin")
    low = data.draw(st.floats(-720.0, 720.0), label="min_heading")
    high = data.draw(st.floats(low, 720.0), label="max_heading")
    x, y, heading = data.draw(
        strategies.poses(area=area, margin=margin, min_heading=low, max_heading=high)
    )
    assert margin <= x <= area.width - margin
    assert margin <= y <= area.height - margin
    assert low <= heading <= high
    assert all(math.isfinite(v) for v in (x, y, heading))


@given(RULESETS.flatmap(lambda name: st.tuples(st.just(name), strategies.bases(ruleset=name))))
def test_bases_are_bases_of_the_ruleset(drawn: tuple[str, str]) -> None:
    name, base = drawn
    assert base in get_ruleset(name).base_sizes


def ship_cases() -> SearchStrategy[tuple[str, PlayArea, Ship]]:
    def build(name: str, spec: Any) -> SearchStrategy[tuple[str, PlayArea, Ship]]:
        area = play_area(spec)
        return st.tuples(st.just(name), st.just(area), strategies.ships(ruleset=name, area=area))

    return st.tuples(RULESETS, AREAS).flatmap(lambda t: build(*t))


@given(ship_cases())
def test_ships_are_ships_a_scene_file_reads_back_unchanged(
    case: tuple[str, PlayArea, Ship],
) -> None:
    name, area, ship = case
    ruleset = get_ruleset(name)
    assert isinstance(ship, Ship)
    assert isinstance(ship.id, str)
    assert ship.id.strip()
    assert ship.base in ruleset.base_sizes
    assert ship.player in (1, 2)
    assert 0.0 <= ship.x <= area.width
    assert 0.0 <= ship.y <= area.height
    assert 0.0 <= ship.heading < 360.0
    if isinstance(ruleset, XWingRuleset) or ship.is_squadron:
        assert ship.hull is None
    else:
        assert ship.hull is None or ship.hull in hull_names()
    entry: dict[str, Any] = {"id": ship.id, "base": ship.base, "at": [ship.x, ship.y]}
    entry.update(heading=ship.heading, player=ship.player)
    if ship.hull is not None:
        entry["hull"] = ship.hull
    assert scenefile.parse_scene(wrap(entry, "ships", name)).ships == (ship,)


def assert_simple_ccw(outline: Any) -> None:
    polygon = shapely.Polygon(outline)
    assert polygon.is_valid, shapely.is_valid_reason(polygon)
    assert polygon.area > 0.0
    assert shapely.is_ccw(polygon.exterior)


@given(st.data())
def test_obstacles_are_catalog_tokens_or_simple_ccw_outlines(data: st.DataObject) -> None:
    name = data.draw(RULESETS, label="ruleset")
    area = play_area(data.draw(AREAS, label="area"))
    use_catalog, use_custom = data.draw(
        st.sampled_from([(True, True), (True, False), (False, True)]), label="catalog, custom"
    )
    low = data.draw(st.integers(3, 30), label="min_vertices")
    high = data.draw(st.integers(low, 40), label="max_vertices")
    obstacle = data.draw(
        obstacle_strategies.obstacles(
            ruleset=name,
            area=area,
            catalog=use_catalog,
            custom=use_custom,
            min_vertices=low,
            max_vertices=high,
        )
    )
    tokens = catalog(get_ruleset(name))
    assert isinstance(obstacle, Obstacle)
    assert isinstance(obstacle.id, str)
    assert obstacle.id.strip()
    assert 0.0 <= obstacle.x <= area.width
    assert 0.0 <= obstacle.y <= area.height
    assert 0.0 <= obstacle.angle < 360.0
    assert obstacle.player in (None, 1, 2)
    assert obstacle.kind in KINDS
    if obstacle.token is None:
        assert use_custom
        assert low <= len(obstacle.outline) <= high
        assert obstacle.family is None
        assert float(abs(obstacle.outline).max()) <= 80.0
    else:
        assert use_catalog
        assert obstacle.token in tokens
        assert obstacle.kind == tokens[obstacle.token].kind
        assert obstacle.family == tokens[obstacle.token].family
    assert_simple_ccw(obstacle.outline)
    assert_simple_ccw(obstacle.world_outline())
    read = scenefile.parse_scene(wrap(obstacle.to_dict(), "obstacles", name)).obstacles[0]
    assert read.to_dict() == obstacle.to_dict()


@settings(max_examples=30)
@given(RULESETS.flatmap(lambda name: obstacle_strategies.legal_setups(ruleset=name)))
def test_legal_setups_are_legal(scene: Scene) -> None:
    report = check(scene)
    assert report.legal, [v.message for v in report.violations]
    assert len(scene.obstacles) == 6
    assert not scene.ships
    assert len(set(scene.ids)) == 6
    assert scene.phase == "setup"


@settings(max_examples=10)
@given(obstacle_strategies.legal_setups(ruleset="xwing2", area="6x3ft", format="tournament"))
def test_legal_setups_on_another_area_and_format(scene: Scene) -> None:
    assert scene.area == play_area("6x3ft")
    assert scene.format == "tournament"
    assert check(scene).legal


@given(st.data())
def test_scenes_hold_counts_within_bounds_and_unique_ids(data: st.DataObject) -> None:
    name = data.draw(RULESETS, label="ruleset")
    min_ships = data.draw(st.integers(0, 3), label="min_ships")
    max_ships = data.draw(st.integers(min_ships, 4), label="max_ships")
    min_obstacles = data.draw(st.integers(0, 3), label="min_obstacles")
    max_obstacles = data.draw(st.integers(min_obstacles, 4), label="max_obstacles")
    phases: list[Literal["setup", "play"] | None] = [None, "setup", "play"]
    phase = data.draw(st.sampled_from(phases), label="phase")
    scene = data.draw(
        obstacle_strategies.scenes(
            ruleset=name,
            min_ships=min_ships,
            max_ships=max_ships,
            min_obstacles=min_obstacles,
            max_obstacles=max_obstacles,
            phase=phase,
        )
    )
    assert isinstance(scene, Scene)
    assert scene.ruleset == get_ruleset(name)
    assert scene.area == play_area(get_ruleset(name).default_area)
    assert min_ships <= len(scene.ships) <= max_ships
    assert min_obstacles <= len(scene.obstacles) <= max_obstacles
    assert len(set(scene.ids)) == len(scene.ids)
    assert phase is None or scene.phase == phase
    assert scene.format in ("standard", "tournament")
    assert scenefile.parse_scene(scene.to_dict()).to_dict() == scene.to_dict()


@given(
    obstacle_strategies.scenes(
        ruleset=get_ruleset("armada", {"armada_distance_bands": [70, 120, 180, 240, 300]})
    )
)
def test_scenes_of_an_overridden_ruleset_carry_its_constants(scene: Scene) -> None:
    assert scene.constants == {"armada_distance_bands": [70.0, 120.0, 180.0, 240.0, 300.0]}
    assert scenefile.parse_scene(scene.to_dict()).ruleset == scene.ruleset


def test_scenes_make_repeated_ids_unique() -> None:
    scene = minimal(
        obstacle_strategies.scenes(
            min_ships=2, max_ships=2, min_obstacles=1, max_obstacles=1, ids=st.just("a")
        )
    )
    assert scene.ids == ("a", "a~2", "a~3")


# -- documented shrinking --------------------------------------------------------------


def test_poses_shrink_to_the_corner_margin_and_min_heading() -> None:
    assert minimal(strategies.poses(margin=20, min_heading=15, max_heading=30)) == (
        20.0,
        20.0,
        15.0,
    )


def test_ships_shrink_to_a_small_base_of_player_one_at_the_corner() -> None:
    for name in RULESET_NAMES:
        ship = minimal(strategies.ships(ruleset=name))
        assert (ship.base, ship.player, ship.x, ship.y, ship.heading, ship.hull) == (
            "small",
            1,
            0.0,
            0.0,
            0.0,
            None,
        )


def test_obstacles_shrink_to_the_first_token_or_a_small_triangle() -> None:
    for name in RULESET_NAMES:
        rock = minimal(obstacle_strategies.obstacles(ruleset=name))
        assert rock.token == next(iter(catalog(get_ruleset(name))))
        assert (rock.x, rock.y, rock.angle, rock.flipped) == (0.0, 0.0, 0.0, False)
    custom = minimal(obstacle_strategies.obstacles(catalog=False, min_vertices=4))
    assert len(custom.outline) == 4
    assert shapely.Polygon(custom.outline).area == pytest.approx(50.0)  # a square of radius 5


def test_scenes_shrink_to_their_minimum_counts() -> None:
    scene = minimal(obstacle_strategies.scenes(min_ships=2, min_obstacles=1))
    assert (len(scene.ships), len(scene.obstacles)) == (2, 1)
    assert (scene.phase, scene.format) == ("setup", "standard")


# -- reachability of edge cases ----------------------------------------------------------


def test_a_pose_at_the_far_corner_margin_is_reachable() -> None:
    pose = find_any(
        strategies.poses(margin=20, max_heading=0),
        lambda p: p[0] == 914.4 - 20 and p[1] == 914.4 - 20,
    )
    assert pose == (894.4, 894.4, 0.0)


def test_a_base_flush_against_the_play_area_edge_is_reachable() -> None:
    ruleset = get_ruleset("xwing2")
    ship = find_any(
        strategies.ships(bases=st.just("small"), margin=20, min_heading=90, max_heading=90),
        lambda s: s.polygon(ruleset).bounds[2] == 914.4,
    )
    assert ship.x == 914.4 - 20


def test_two_bases_touching_are_reachable() -> None:
    ruleset = get_ruleset("xwing2")
    lane = strategies.ships(
        area={"width": 80, "height": 40}, margin=20, bases=st.just("small"), max_heading=0
    )

    def touching(pair: tuple[Ship, Ship]) -> bool:
        a, b = (s.polygon(ruleset) for s in pair)
        return bool(shapely.distance(a, b) == 0.0 and shapely.intersection(a, b).area == 0.0)

    a, b = find_any(st.tuples(lane, lane), touching)
    assert abs(a.x - b.x) == pytest.approx(40.0)  # side by side (mostly at 20 and 60)


def test_a_custom_outline_with_the_most_vertices_is_reachable() -> None:
    obstacle = find_any(
        obstacle_strategies.obstacles(catalog=False, min_vertices=3, max_vertices=9),
        lambda o: len(o.outline) == 9,
    )
    assert_simple_ccw(obstacle.outline)
