"""Obstruction of attacks: X-Wing attack segments and tied bands, Armada lines of sight.

The scenes are laid out so that the attack segment is known by hand:

* *Single segment*: the attacker is a small base at (300, 300) facing +y (front edge
  y = 320, x 280..320); the defender is a small base turned 45° with its lowest corner at
  (300, 400). The closest points are that corner and the point below it on the front
  edge: the segment x = 300, y 320..400 (80 mm).
* *Tied band*: the defender is a small base at (300, 500) facing the attacker (front edge
  y = 480). The two front edges face each other parallel: every vertical segment
  x in [280, 320], y 320..480 is a shortest one (rules.md, tied shortest segments).

The rules (``rules.md``): touching counts as obstructing; with tied segments the answer
is ``True`` when every one is obstructed, ``False`` when none is, ``"attacker-chooses"``
otherwise; ``obstructed_by`` lists every obstacle (and ship) any of them crosses, sorted.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import shapely
from common import run as run_cli

from tabletop.app.scene.scenefile import parse_scene
from tabletop.geom.errors import InvalidInputError
from tabletop.obstacles.measuring import measure
from tabletop.obstacles.obstruction import (
    obstructed_band,
    obstructed_segment,
    tied_bands,
)

ATTACKER: dict[str, Any] = {"id": "att", "base": "small", "at": [300.0, 300.0], "heading": 90}
CORNER_DEFENDER: dict[str, Any] = {
    "id": "def",
    "base": "small",
    "at": [300.0, 400.0 + 20.0 * math.sqrt(2.0)],
    "heading": 45,
    "player": 2,
}
FACING_DEFENDER: dict[str, Any] = {
    "id": "def",
    "base": "small",
    "at": [300.0, 500.0],
    "heading": 270,
    "player": 2,
}


def box(ident: str, x0: float, x1: float, y0: float, y1: float, **extra: Any) -> dict[str, Any]:
    """A custom rectangular obstacle with its outline in world coordinates (at = origin)."""
    outline = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    return {"id": ident, "outline": outline, "at": [0.0, 0.0], **extra}


def xwing(
    obstacles: list[dict[str, Any]], defender: dict[str, Any], *ships: dict[str, Any]
) -> dict[str, Any]:
    return {
        "ruleset": "xwing2",
        "phase": "play",
        "obstacles": obstacles,
        "ships": [ATTACKER, defender, *ships],
    }


def shot(data: dict[str, Any], a: str = "att", b: str = "def", arc: str = "front") -> Any:
    return measure(parse_scene(data), a, b, arc=arc)


# -- X-Wing: one shortest segment -------------------------------------------------------


def test_single_segment_is_the_hand_segment() -> None:
    m = shot(xwing([], CORNER_DEFENDER))
    assert m.in_arc is True
    assert m.distance == pytest.approx(80.0, abs=1e-9)
    assert m.points.ravel().tolist() == pytest.approx([300.0, 320.0, 300.0, 400.0], abs=1e-9)
    assert m.detail.tied_segments is None
    assert (m.detail.obstructed, list(m.detail.obstructed_by)) == (False, [])


@pytest.mark.parametrize(
    ("obstacle", "blocked"),
    [
        # Beside the segment, 0.01 mm to its right: not obstructing.
        (box("o", 300.01, 310.0, 350.0, 360.0), False),
        # Its left side lies on the segment: touching counts.
        (box("o", 300.0, 310.0, 350.0, 360.0), True),
        # A triangle whose left vertex touches the segment at (300, 360).
        (
            {
                "id": "o",
                "outline": [[300.0, 360.0], [320.0, 350.0], [320.0, 370.0]],
                "at": [0.0, 0.0],
            },
            True,
        ),
        # Across the segment.
        (box("o", 290.0, 310.0, 350.0, 360.0), True),
        # On the extension of the segment beyond the defender (its top corner is at
        # y = 400 + 40√2 = 456.6): not obstructing.
        (box("o", 295.0, 305.0, 470.0, 480.0), False),
        # On the extension behind the attacker (its rear edge is y = 280).
        (box("o", 295.0, 305.0, 200.0, 210.0), False),
        # Beside the extension, just past the defender's corner and to its side.
        (box("o", 301.0, 310.0, 380.0, 399.0), False),
    ],
)
def test_single_segment_obstruction(obstacle: dict[str, Any], blocked: bool) -> None:
    m = shot(xwing([obstacle], CORNER_DEFENDER))
    assert m.detail.obstructed is blocked
    assert list(m.detail.obstructed_by) == (["o"] if blocked else [])


def test_two_obstacles_both_listed_sorted() -> None:
    obstacles = [
        box("zeta", 290.0, 310.0, 340.0, 345.0),
        box("mid", 305.0, 315.0, 360.0, 365.0),  # beside the segment: not listed
        box("alpha", 295.0, 305.0, 370.0, 375.0),
    ]
    m = shot(xwing(obstacles, CORNER_DEFENDER))
    assert m.detail.obstructed is True
    assert list(m.detail.obstructed_by) == ["alpha", "zeta"]


# -- X-Wing: tied segments --------------------------------------------------------------


def test_parallel_bases_report_the_band() -> None:
    m = shot(xwing([], FACING_DEFENDER))
    assert m.distance == pytest.approx(160.0, abs=1e-9)
    (band,) = m.detail.tied_segments or []
    corners = sorted((float(x), float(y)) for x, y in band)
    assert corners == [(280.0, 320.0), (280.0, 480.0), (320.0, 320.0), (320.0, 480.0)]
    assert (m.detail.obstructed, list(m.detail.obstructed_by)) == (False, [])


@pytest.mark.parametrize(
    ("obstacles", "obstructed", "by"),
    [
        # Only the segments with x in [290, 300] are blocked.
        ([box("o", 290.0, 300.0, 380.0, 390.0)], "attacker-chooses", ["o"]),
        # All of them.
        ([box("o", 270.0, 330.0, 380.0, 390.0)], True, ["o"]),
        # Two obstacles that between them cover the band (overlapping at 299..301).
        (
            [box("right", 299.0, 330.0, 350.0, 360.0), box("left", 270.0, 301.0, 400.0, 410.0)],
            True,
            ["left", "right"],
        ),
        # Two obstacles leaving a gap (x 295..305) open.
        (
            [box("right", 305.0, 330.0, 350.0, 360.0), box("left", 270.0, 295.0, 400.0, 410.0)],
            "attacker-chooses",
            ["left", "right"],
        ),
        # Beside the band, 0.01 mm right of the x = 320 segment: none blocked.
        ([box("o", 320.01, 330.0, 380.0, 390.0)], False, []),
        # Touching the x = 320 segment: that one segment is blocked.
        ([box("o", 320.0, 330.0, 380.0, 390.0)], "attacker-chooses", ["o"]),
        # Right of the band, spanning the whole gap between the bases: no segment in it.
        ([box("o", 330.0, 340.0, 300.0, 500.0)], False, []),
    ],
)
def test_parallel_bases_tied_segments(
    obstacles: list[dict[str, Any]], obstructed: bool | str, by: list[str]
) -> None:
    m = shot(xwing(obstacles, FACING_DEFENDER))
    assert m.detail.obstructed == obstructed
    assert type(m.detail.obstructed) is type(obstructed)
    assert list(m.detail.obstructed_by) == by


def test_offset_bases_band_is_the_overlap() -> None:
    # The defender 10 mm to the right: the facing edges share x in [290, 320] only.
    defender = dict(FACING_DEFENDER) | {"at": [310.0, 500.0]}
    m = shot(xwing([], defender))
    (band,) = m.detail.tied_segments or []
    assert sorted(float(x) for x, _ in band) == [290.0, 290.0, 320.0, 320.0]
    # An obstacle under x 281..289 lies between the bases but crosses no tied segment.
    m = shot(xwing([box("o", 281.0, 289.0, 380.0, 390.0)], defender))
    assert (m.detail.obstructed, list(m.detail.obstructed_by)) == (False, [])
    m = shot(xwing([box("o", 281.0, 291.0, 380.0, 390.0)], defender))
    assert (m.detail.obstructed, list(m.detail.obstructed_by)) == ("attacker-chooses", ["o"])


def test_band_of_a_defender_partly_out_of_arc() -> None:
    # The defender's front edge lies at y = 330 (x 310..350), 10 mm ahead. The front arc
    # line leaves the attacker's centre at 40.62° from the heading and crosses y = 330 at
    # x = 300 + 30·tan(40.62°) = 325.7: the in-arc part of the edge is x 310..325.7, and
    # the attacker's front edge ends at x = 320, so the tied band is x 310..320.
    defender = dict(FACING_DEFENDER) | {"at": [330.0, 350.0]}
    m = shot(xwing([], defender))
    assert m.distance == pytest.approx(10.0, abs=1e-9)
    (band,) = m.detail.tied_segments or []
    assert sorted(map(tuple, band)) == [
        (310.0, 320.0),
        (310.0, 330.0),
        (320.0, 320.0),
        (320.0, 330.0),
    ]
    cases = [
        (box("o", 312.0, 314.0, 322.0, 328.0), "attacker-chooses", ["o"]),
        (box("o", 305.0, 327.0, 322.0, 328.0), True, ["o"]),
        # In arc and between the bases, but right of the attacker's edge: no tied segment.
        (box("o", 321.0, 324.0, 322.0, 328.0), False, []),
    ]
    for obstacle, obstructed, by in cases:
        m = shot(xwing([obstacle], defender))
        assert (m.detail.obstructed, list(m.detail.obstructed_by)) == (obstructed, by)


def test_medium_attacker_band_is_the_smaller_edge() -> None:
    # A medium attacker (front edge x 270..330) against the small defender: the band
    # is x 280..320; an obstacle at x 271..279 is beside it.
    attacker = dict(ATTACKER) | {"base": "medium"}
    data = {
        "ruleset": "xwing2",
        "phase": "play",
        "obstacles": [box("o", 271.0, 279.0, 380.0, 390.0)],
        "ships": [attacker, FACING_DEFENDER],
    }
    m = shot(data)
    assert m.distance == pytest.approx(150.0, abs=1e-9)
    (band,) = m.detail.tied_segments or []
    assert sorted({float(x) for x, _ in band}) == [280.0, 320.0]
    assert (m.detail.obstructed, list(m.detail.obstructed_by)) == (False, [])


# -- X-Wing: huge ships -----------------------------------------------------------------

HUGE_ATTACKER: dict[str, Any] = {"id": "att", "base": "small", "at": [457.2, 200.0]}
HUGE_DEFENDER: dict[str, Any] = {
    "id": "def",
    "base": "small",
    "at": [457.2, 600.0],
    "heading": 270,
    "player": 2,
}


def huge_scene(*ships: dict[str, Any], obstacles: list[dict[str, Any]] | None = None) -> Any:
    data = {
        "ruleset": "xwing2",
        "phase": "play",
        "obstacles": obstacles or [],
        "ships": [HUGE_ATTACKER, HUGE_DEFENDER, *ships],
    }
    return parse_scene(data)


def test_huge_ship_between_obstructs() -> None:
    # A CR90 (80 x 225) lying across the band x 437.2..477.2, y 220..580.
    cr90 = {"id": "cr90", "base": "huge", "at": [457.2, 400.0], "heading": 0}
    m = measure(huge_scene(cr90), "att", "def", arc="front")
    assert m.distance == pytest.approx(360.0, abs=1e-9)
    assert (m.detail.obstructed, list(m.detail.obstructed_by)) == (True, ["cr90"])


def test_huge_ship_covering_part_of_the_band() -> None:
    # A GR-75 (80 x 195) lying along x from 262.2 to 457.2: half the band is blocked.
    gr75 = {"id": "gr75", "base": "huge-short", "at": [457.2 - 97.5, 400.0], "heading": 0}
    m = measure(huge_scene(gr75), "att", "def", arc="front")
    assert (m.detail.obstructed, list(m.detail.obstructed_by)) == ("attacker-chooses", ["gr75"])


def test_other_ships_do_not_obstruct_in_xwing() -> None:
    large = {"id": "falcon", "base": "large", "at": [457.2, 400.0], "heading": 0}
    m = measure(huge_scene(large), "att", "def", arc="front")
    assert (m.detail.obstructed, list(m.detail.obstructed_by)) == (False, [])


def test_huge_attacker_and_defender_do_not_obstruct_themselves() -> None:
    data = {
        "ruleset": "xwing2",
        "phase": "play",
        "ships": [
            {"id": "att", "base": "huge", "at": [457.2, 200.0], "heading": 90},
            {"id": "def", "base": "huge", "at": [457.2, 700.0], "heading": 0, "player": 2},
        ],
    }
    m = measure(parse_scene(data), "att", "def", arc="front")
    assert (m.detail.obstructed, list(m.detail.obstructed_by)) == (False, [])


@pytest.mark.parametrize(
    "hulk",
    [
        {"id": "hulk", "token": "hugeship-long", "at": [457.2, 400.0], "angle": 90},
        {
            "id": "hulk",
            "outline": [[-112.5, -40.0], [112.5, -40.0], [112.5, 40.0], [-112.5, 40.0]],
            "kind": "huge-ship",
            "at": [457.2, 400.0],
        },
    ],
)
def test_huge_ship_obstacle_obstructs(hulk: dict[str, Any]) -> None:
    # 225 long across x (344.7..569.7), 80 deep (360..440): the whole band is behind it.
    scene = huge_scene(obstacles=[hulk])
    m = measure(scene, "att", "def", arc="front")
    assert (m.detail.obstructed, list(m.detail.obstructed_by)) == (True, ["hulk"])
    # ...and it is no attack target.
    with pytest.raises(InvalidInputError, match="huge ship placed as an obstacle"):
        measure(scene, "att", "hulk", arc="front")
    # The plain distance to it is still a measurement (its bottom side at y = 360).
    assert measure(scene, "att", "hulk").distance == pytest.approx(140.0, abs=1e-9)


def test_cli_huge_ship_obstacle_target_exit_2(tmp_path: Path) -> None:
    data = {
        "ruleset": "xwing2",
        "phase": "play",
        "obstacles": [{"id": "hulk", "token": "hugeship-long", "at": [457.2, 400.0], "angle": 90}],
        "ships": [HUGE_ATTACKER, HUGE_DEFENDER],
    }
    path = tmp_path / "hulk.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run_cli("measure", str(path), "att", "hulk", "--arc", "front")
    assert (code, out) == (2, "")
    assert "huge ship placed as an obstacle" in err
    assert "Traceback" not in err
    code, out, err = run_cli("measure", str(path), "att", "hulk", "--arc", "front", "--json")
    assert code == 2
    assert "huge ship placed as an obstacle" in json.loads(out)["error"]["message"]
    # Against the real defender, the obstruction fields come out in the JSON.
    code, out, _ = run_cli("measure", str(path), "att", "def", "--arc", "front", "--json")
    assert code == 0
    result = json.loads(out)
    assert (result["obstructed"], result["obstructed_by"]) == (True, ["hulk"])
    (band,) = result["tied_segments"]
    assert sorted(map(tuple, band)) == [
        (437.2, 220.0),
        (437.2, 580.0),
        (477.2, 220.0),
        (477.2, 580.0),
    ]


def test_cli_measure_json_obstruction_fields(tmp_path: Path) -> None:
    data = xwing([box("o", 290.0, 300.0, 380.0, 390.0)], FACING_DEFENDER)
    path = tmp_path / "shot.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, _ = run_cli("measure", str(path), "att", "def", "--arc", "front", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["obstructed"] == "attacker-chooses"
    assert result["obstructed_by"] == ["o"]
    assert (result["arc"], result["in_arc"], result["distance"], result["band"]) == (
        "front",
        True,
        160.0,
        2,
    )
    code, out, _ = run_cli("measure", str(path), "att", "def", "--arc", "front")
    assert code == 0
    assert "obstructed" in out  # the human wording is free; the JSON fields are the contract


# -- the functions themselves -----------------------------------------------------------


def test_tied_bands_and_segments_directly() -> None:
    a = shapely.box(0.0, 0.0, 40.0, 40.0)
    b = shapely.box(10.0, 140.0, 60.0, 180.0)
    (band,) = tied_bands(a, b, 100.0)
    assert sorted(map(tuple, band.tolist())) == [
        (10.0, 40.0),
        (10.0, 140.0),
        (40.0, 40.0),
        (40.0, 140.0),
    ]
    assert tied_bands(a, shapely.box(50.0, 140.0, 90.0, 180.0), 100.0 * math.sqrt(1.01)) == []
    # Edges 0.02° off parallel do not tie (the tolerance is 0.01°).
    turned = shapely.affinity.rotate(b, 0.02, origin=(35.0, 140.0))
    d = shapely.distance(a, turned)
    assert tied_bands(a, turned, d) == []
    assert obstructed_band([band], []) == (False, [])
    assert obstructed_band([band], [shapely.box(0.0, 60.0, 25.0, 70.0)]) == (
        "attacker-chooses",
        [0],
    )
    assert obstructed_band(
        [band], [shapely.box(0.0, 60.0, 25.0, 70.0), shapely.box(24.0, 100.0, 50.0, 101.0)]
    ) == (True, [0, 1])
    points = np.array([[0.0, 0.0], [10.0, 0.0]])
    assert obstructed_segment(points, [shapely.box(10.0, -1.0, 12.0, 1.0)]) == (True, [0])
    assert obstructed_segment(points, [shapely.box(10.01, -1.0, 12.0, 1.0)]) == (False, [])


# -- Armada: line of sight --------------------------------------------------------------

# The Victory's targeting points and the CR90's (geom/data/armada-hulls.json, ship frame
# +y forward): front (0, 39.35) and (0, 27.625). Facing each other along y = 457.2, the
# sight line runs from (700 + 39.35, 457.2) to (1100 - 27.625, 457.2). The printed tokens
# (58.5 x 101.5 and 38.5 x 70.25) end at x = 750.75 and x = 1064.875.
VICTORY: dict[str, Any] = {
    "id": "vic",
    "base": "medium",
    "hull": "victory",
    "at": [700.0, 457.2],
    "heading": 0,
}
CR90: dict[str, Any] = {
    "id": "cr90",
    "base": "small",
    "hull": "cr90",
    "at": [1100.0, 457.2],
    "heading": 180,
    "player": 2,
}


def armada(obstacles: list[dict[str, Any]], *ships: dict[str, Any]) -> Any:
    data = {
        "ruleset": "armada",
        "phase": "play",
        "obstacles": obstacles,
        "ships": [VICTORY, CR90, *ships],
    }
    return measure(parse_scene(data), "vic", "cr90", arc="front")


def test_armada_clear_sight_line() -> None:
    m = armada([])
    assert (m.in_arc, m.defending_zone) == (True, "front")
    assert [list(p) for p in m.detail.sight_line or ()] == [[739.35, 457.2], [1072.375, 457.2]]
    assert (m.detail.obstructed, list(m.detail.obstructed_by)) == (False, [])
    assert m.detail.line_of_sight is True


@pytest.mark.parametrize(
    ("obstacles", "ships", "by"),
    [
        # An obstacle across the line.
        ([box("rock", 880.0, 920.0, 440.0, 470.0)], [], ["rock"]),
        # Another ship's base across the line.
        (
            [],
            [{"id": "frigate", "base": "small", "at": [900.0, 457.2], "heading": 90}],
            ["frigate"],
        ),
        # A squadron never obstructs.
        ([], [{"id": "tie", "base": "squadron", "at": [900.0, 457.2]}], []),
        # Under the attacker's token (x 742..748 < 750.75): ignored.
        ([box("dust", 742.0, 748.0, 455.0, 459.0)], [], []),
        # Under the defender's token (x 1066..1070 > 1064.875): ignored.
        ([box("dust", 1066.0, 1070.0, 455.0, 459.0)], [], []),
        # Just past the attacker's token (but under the rim of its base, which ends at
        # 751): the token, not the base, is what is trimmed.
        ([box("rock", 750.8, 752.0, 455.0, 459.0)], [], ["rock"]),
        # Beside the line, 0.01 mm above it.
        ([box("rock", 880.0, 920.0, 457.21, 470.0)], [], []),
        # Touching the line.
        ([box("rock", 880.0, 920.0, 457.2, 470.0)], [], ["rock"]),
        # Everything at once: obstacle and ship listed, sorted; the squadron not.
        (
            [box("rock", 800.0, 820.0, 440.0, 470.0)],
            [
                {"id": "frigate", "base": "small", "at": [950.0, 457.2], "heading": 90},
                {"id": "a-wing", "base": "squadron", "at": [1000.0, 457.2]},
            ],
            ["frigate", "rock"],
        ),
    ],
)
def test_armada_obstruction(
    obstacles: list[dict[str, Any]], ships: list[dict[str, Any]], by: list[str]
) -> None:
    m = armada(obstacles, *ships)
    assert m.detail.obstructed is bool(by)
    assert list(m.detail.obstructed_by) == by
    assert m.detail.line_of_sight is True


def test_armada_no_line_of_sight_through_another_hull_zone() -> None:
    # The defender (a Victory) faces +y at (900, 457.2); the attacker (a CR90) at (580,
    # 230) faces +x and shoots from its left hull zone. Only the defender's front hull
    # zone is in that arc, so it is the defending zone; but the line to its targeting
    # point (0, 39.35), i.e. (900, 496.55), enters the token through its left side
    # below where the front arc line leaves it, i.e. through the left hull zone.
    data = {
        "ruleset": "armada",
        "phase": "play",
        "ships": [
            {"id": "att", "base": "small", "hull": "cr90", "at": [580.0, 230.0], "heading": 0},
            {
                "id": "def",
                "base": "medium",
                "hull": "victory",
                "at": [900.0, 457.2],
                "heading": 90,
                "player": 2,
            },
        ],
    }
    m = measure(parse_scene(data), "att", "def", arc="left")
    assert (m.in_arc, m.defending_zone) == (True, "front")
    # The CR90's left targeting point (-11.5, -7.875): +y forward is world +x, +x right
    # is world -y, so it sits at (580 - 7.875, 230 + 11.5).
    start, end = (572.125, 241.5), (900.0, 496.55)
    assert [list(p) for p in m.detail.sight_line or ()] == [list(start), list(end)]
    # Where the line crosses the token's left side (x = 900 - 29.25), by hand:
    t = (870.75 - start[0]) / (end[0] - start[0])
    crossing = start[1] + t * (end[1] - start[1]) - 457.2
    # The Victory's front arc line leaves (0, 3.1) at 50.3° from +y and meets that side
    # at y = 3.1 + 29.25 / tan(50.3°), above the crossing: the left zone is crossed.
    front_line = 3.1 + 29.25 / math.tan(math.radians(50.3))
    assert crossing < front_line
    assert m.detail.line_of_sight is False


def test_armada_squadron_target_sight_line_ends_at_its_centre() -> None:
    data = {
        "ruleset": "armada",
        "phase": "play",
        "obstacles": [box("rock", 880.0, 920.0, 440.0, 470.0)],
        "ships": [VICTORY, {"id": "x", "base": "squadron", "at": [1000.0, 457.2], "player": 2}],
    }
    m = measure(parse_scene(data), "vic", "x", arc="front")
    assert [list(p) for p in m.detail.sight_line or ()] == [[739.35, 457.2], [1000.0, 457.2]]
    assert (m.detail.obstructed, list(m.detail.obstructed_by)) == (True, ["rock"])
    assert m.detail.line_of_sight is True
    # An obstacle under the squadron's base (radius 15.5) is trimmed with it.
    data["obstacles"] = [box("dust", 990.0, 995.0, 455.0, 459.0)]
    m = measure(parse_scene(data), "vic", "x", arc="front")
    assert (m.detail.obstructed, list(m.detail.obstructed_by)) == (False, [])
