"""``tabletop query`` at speed: the scene cache, and the fast paths of one measurement.

The cache answers a scene seen before without parsing it, so it must never answer a
changed scene from an old one, and it must stay bounded in entries and in bytes. The
fast paths (one pair of outlines, one distance to band, obstacles far from a shot left
out) must give what the general paths give, to the last bit.
"""

from __future__ import annotations

import io
import json
import math
from typing import Any

import numpy as np
import pytest
import shapely
from agreement import assert_agree
from hypothesis import given
from hypothesis import strategies as st
from shapely import affinity

from tabletop.app import cli
from tabletop.app.query import answers as cmd_query
from tabletop.app.scene.scenefile import parse_scene
from tabletop.geom.arcs import arc_region_outline, attack_range
from tabletop.geom.measure import closest_points, line_band, line_bands
from tabletop.geom.rulesets import get_ruleset
from tabletop.geom.shapes import base_footprint, world_polygon
from tabletop.geom.tolerance import EPSILON_MM
from tabletop.obstacles.measuring import _blockers, _near, measure
from tabletop.obstacles.obstruction import obstructed_segment
from tabletop.obstacles.scene import Obstacle


def two_ships(y: Any = 340.0, **extra: Any) -> dict[str, Any]:
    """Two small ships facing each other; at y = 340 their bases are 200 mm apart."""
    return {
        "ships": [
            {"id": "a", "base": "small", "at": [100.0, 100.0], "heading": 90.0, **extra},
            {"id": "b", "base": "small", "at": [100.0, y], "heading": 270.0},
        ]
    }


def ask(*scenes: dict[str, Any]) -> list[dict[str, Any]]:
    out = io.StringIO()
    lines = [json.dumps({"op": "measure", "scene": s, "from": "a", "to": "b"}) for s in scenes]
    cmd_query.serve(lines, out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.fixture(autouse=True)
def empty_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cmd_query, "_SCENES", cmd_query._SceneCache())


def test_a_changed_scene_is_never_answered_from_the_old_one() -> None:
    # The bases' facing edges are at y = 120 and y - 20: 200, 200.5, then 200 again.
    answers = ask(two_ships(), two_ships(340.5), two_ships(), two_ships(340.5))
    assert [a["distance"] for a in answers] == [200.0, 200.5, 200.0, 200.5]
    assert len(cmd_query._SCENES) == 2


def test_values_equal_in_python_but_not_in_json_are_different_scenes() -> None:
    # 1 and true are equal in Python (and hash alike): the cached scene with player 1
    # must not answer for player true, which the scene format refuses.
    good, bad = ask(two_ships(player=1), two_ships(player=True))
    assert good["distance"] == 200.0
    assert bad["error"]["message"] == "expected 1 or 2, got true"
    # -0.0 == 0.0 too; both are legal, and each is its own entry.
    zero = {"ships": [{"id": "a", "base": "small", "at": [0.0, 0.0]}]}
    negative = {"ships": [{"id": "a", "base": "small", "at": [-0.0, 0.0]}]}
    assert cmd_query._scene_key(zero) != cmd_query._scene_key(negative)


def test_a_repeated_scene_is_one_parsed_object() -> None:
    first = cmd_query._scene(two_ships(), "request 1")
    again = cmd_query._scene(json.loads(json.dumps(two_ships())), "request 2")
    assert again is first


def test_a_scene_larger_than_the_byte_budget_is_answered_but_not_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    size = len(cmd_query._scene_text(two_ships()) or b"")
    monkeypatch.setattr(cmd_query, "_SCENE_CACHE_BYTES", size - 1)
    assert ask(two_ships())[0]["distance"] == 200.0
    assert len(cmd_query._SCENES) == 0
    monkeypatch.setattr(cmd_query, "_SCENE_CACHE_BYTES", size)  # just fits
    ask(two_ships())
    assert len(cmd_query._SCENES) == 1
    assert cmd_query._SCENES.bytes == size


@given(
    st.lists(st.integers(0, 9), min_size=1, max_size=40),
    st.integers(1, 5),
    st.integers(100, 1500),
)
def test_the_cache_stays_within_its_entries_and_bytes(
    picks: list[int], entries: int, budget: int
) -> None:
    cache = cmd_query._SceneCache()
    scenes = [two_ships(300.0 + k, **({"hull": None} if k % 3 else {})) for k in range(10)]
    # Scene sizes differ (some entries carry an extra key), so the byte bound binds too.
    old_size, old_bytes = cmd_query._SCENE_CACHE_SIZE, cmd_query._SCENE_CACHE_BYTES
    cmd_query._SCENE_CACHE_SIZE, cmd_query._SCENE_CACHE_BYTES = entries, budget
    try:
        sizes: dict[bytes, int] = {}
        for pick in picks:
            text = cmd_query._scene_text(scenes[pick])
            assert text is not None
            key = cmd_query._digest(text)
            sizes[key] = len(text)
            if cache.get(key) is None:
                cache.put(key, parse_scene(two_ships()), len(text))
            assert len(cache) <= entries
            assert cache.bytes <= budget
            assert cache.bytes == sum(sizes[k] for k in cache)
            # The scene just asked is kept whenever it fits the budget on its own.
            assert (key in list(cache)) == (len(text) <= budget)
    finally:
        cmd_query._SCENE_CACHE_SIZE, cmd_query._SCENE_CACHE_BYTES = old_size, old_bytes


def test_the_command_answers_a_repeated_and_a_changed_scene_as_the_api(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    scenes = [two_ships(), two_ships(), two_ships(333.25), two_ships()]
    lines = "".join(
        json.dumps({"op": "measure", "scene": s, "from": "a", "to": "b", "arc": "front"}) + "\n"
        for s in scenes
    )
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    assert cli.main(["query"]) == 0
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    # The oracle measures by its own direct paths: within the agreement (tests/agreement.py).
    assert_agree(
        answers, [measure(parse_scene(s), "a", "b", arc="front").to_json() for s in scenes]
    )
    assert [a["distance"] for a in answers] == [200.0, 200.0, 193.25, 200.0]


# The fast paths against the general ones.

coordinate = st.floats(-500.0, 500.0, allow_nan=False)


@st.composite
def outline(draw: st.DrawFn) -> shapely.Geometry:
    x, y = draw(coordinate), draw(coordinate)
    w, h = draw(st.floats(1.0, 200.0)), draw(st.floats(1.0, 200.0))
    turn = draw(st.sampled_from([0.0, 90.0, 33.7, draw(st.floats(0.0, 360.0))]))
    box = shapely.box(x, y, x + w, y + h)
    return affinity.rotate(box, turn, origin=(x, y))


@given(outline(), outline())
def test_one_pair_of_outlines_measures_as_the_array_path(
    a: shapely.Geometry, b: shapely.Geometry
) -> None:
    d, points = closest_points(a, b)
    d_array, points_array = closest_points(np.array([a]), np.array([b]), [0.0], [0.0])
    assert float(d) == float(d_array[0])  # to the last bit
    assert points.tolist() == points_array[0].tolist()
    assert d.shape == ()
    assert points.shape == (2, 2)


@given(
    st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([0.0, 1e-6, 1.1e-6, 100.0, 100.000001, 100.0000011, 300.0, 300.01]),
    ),
    st.booleans(),
)
def test_one_distance_bands_as_the_array_path(d: float, zero_band: bool) -> None:
    lines = (100.0, 200.0, 300.0)
    expected = int(line_bands(d, lines, zero_band=zero_band))
    assert line_band(d, lines, zero_band=zero_band) == (None if expected < 0 else expected)


def test_band_lines_and_the_tolerance_by_hand() -> None:
    lines = (100.0, 200.0, 300.0)
    assert line_band(100.0 + 0.9e-6, lines) == 1  # within the tolerance of the line
    assert line_band(100.0 + 1.1e-6, lines) == 2  # just beyond it
    assert line_band(300.0 + 1.1e-6, lines) is None
    assert line_band(0.9e-6, lines, zero_band=True) == 0
    assert line_band(math.nan, lines, zero_band=True) is None


@given(
    st.floats(0.0, 914.0),
    st.floats(0.0, 914.0),
    st.floats(0.0, 360.0),
    st.booleans(),
    st.sampled_from(["coreasteroid0", "core2asteroid3", "yt2400debris1", "gascloud4"]),
)
def test_a_placed_obstacle_lies_within_its_reach(
    x: float, y: float, angle: float, flipped: bool, token: str
) -> None:
    rock = Obstacle.from_token(get_ruleset("xwing2"), "o", token, x, y, angle, flipped)
    gaps = np.hypot(*(rock.world_outline() - [x, y]).T)
    assert float(gaps.max()) <= rock.reach + 1e-9
    assert float(gaps.max()) >= rock.reach - 1e-9  # and the bound is tight


@given(
    st.lists(
        st.tuples(st.floats(0.0, 914.0), st.floats(0.0, 914.0), st.floats(0.0, 360.0)),
        min_size=1,
        max_size=8,
    ),
    st.tuples(st.floats(0.0, 914.0), st.floats(0.0, 914.0)),
    st.tuples(st.floats(0.0, 914.0), st.floats(0.0, 914.0)),
)
def test_leaving_far_obstacles_out_finds_the_same_blockers(
    rocks: list[tuple[float, float, float]],
    start: tuple[float, float],
    end: tuple[float, float],
) -> None:
    data = {
        "phase": "play",
        "obstacles": [
            {"id": f"o{i}", "token": "coreasteroid2", "at": [x, y], "angle": a}
            for i, (x, y, a) in enumerate(rocks)
        ],
        "ships": [
            {"id": "a", "base": "small", "at": [20.0, 20.0]},
            {"id": "b", "base": "small", "at": [60.0, 60.0]},
        ],
    }
    scene = parse_scene(data)
    points = np.array([start, end])
    every = [(o.id, o.polygon()) for o in scene.obstacles]
    _, hits = obstructed_segment(points, [g for _, g in every])
    near = _near(scene, _blockers(scene, scene.ship("a"), scene.ship("b")), points)
    _, near_hits = obstructed_segment(points, [g for _, g in near])
    assert sorted(every[i][0] for i in hits) == sorted(near[i][0] for i in near_hits)


@given(
    st.floats(-300.0, 300.0),
    st.floats(-300.0, 300.0),
    st.floats(0.0, 360.0),
    st.sampled_from(["front", "rear", "left", "right", "full-front", "bullseye"]),
    st.sampled_from([0.0, 0.5e-6, 0.99e-6, 1.5e-6, 3e-6]),
)
def test_an_arc_skips_its_grown_region_only_where_it_cannot_matter(
    x: float, y: float, heading: float, arc: str, nudge: float
) -> None:
    xw = get_ruleset("xwing2")
    # Put the target's corner on (or just off) the front arc line, where growth decides.
    half = math.radians(xw.arc_half_angle("small"))
    on_line = (x + 100.0 * math.sin(half) + nudge, y + 100.0 * math.cos(half))
    target = shapely.box(on_line[0], on_line[1], on_line[0] + 40.0, on_line[1] + 40.0)
    pose = [0.0, 0.0, 90.0]
    shot = attack_range(xw, pose, "small", target, arc)
    region = world_polygon(arc_region_outline(xw, "small", arc), pose)
    base = world_polygon(base_footprint(xw, "small").outline, pose)
    outside = shapely.difference(target, base)
    grown = shapely.buffer(region, EPSILON_MM, join_style="mitre")
    expected = not shapely.intersection(outside, region).is_empty or not (
        shapely.intersection(outside, grown).is_empty
    )
    assert shot.in_arc == expected
