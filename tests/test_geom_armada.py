"""Armada: hull zones, firing arcs from the hull data, attack range to the in-arc part of
the defending hull zone, squadron disks, and the generic-token note."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import shapely

from tabletop.geom.areas import play_area
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.hulls import (
    HULL_ZONES,
    armada_attack_range,
    firing_arc,
    hull_arcs,
    hull_names,
    hull_token,
    hull_zone,
    targeting_point,
)
from tabletop.geom.measure import closest_points
from tabletop.geom.objects import Ship
from tabletop.geom.rulesets import get_ruleset
from tabletop.obstacles.measuring import measure
from tabletop.obstacles.scene import Scene

AR = get_ruleset("armada")
HULL_DATA: dict[str, Any] = json.loads(
    (
        Path(__file__).resolve().parents[1] / "tabletop" / "geom" / "data" / "armada-hulls.json"
    ).read_text("utf-8")
)
#: Hulls with four hull zones (the data gives a rear apex).
FOUR_ZONE_HULLS = [h for h in HULL_DATA["hulls"] if h["rear_apex_y"] is not None]
#: The printed tokens, width × length (Ruleset.armada_token_sizes, from the hull data).
TOKENS: dict[str, tuple[float, float]] = {
    "small": (38.5, 70.25),
    "medium": (58.5, 101.5),
    "large": (73.0, 128.5),
    "huge": (73.0, 350.9),
}
SQUADRON_RADIUS = 15.5


def world(x: float, y: float, pose: tuple[float, float, float]) -> tuple[float, float]:
    """A ship-frame point (x right, y forward) in the world."""
    x0, y0, heading = pose
    h = math.radians(heading)
    return (x0 + x * math.sin(h) + y * math.cos(h), y0 - x * math.cos(h) + y * math.sin(h))


def rigid(
    pose: tuple[float, float, float], spin: float, shift: tuple[float, float]
) -> tuple[float, float, float]:
    t = math.radians(spin)
    x, y, heading = pose
    return (
        x * math.cos(t) - y * math.sin(t) + shift[0],
        x * math.sin(t) + y * math.cos(t) + shift[1],
        heading + spin,
    )


# -- hull zones partition the token ---------------------------------------------------


@pytest.mark.parametrize("hull", [*hull_names(), None])
@pytest.mark.parametrize("base", ["small", "medium", "large"])
def test_hull_zones_partition_the_token(hull: str | None, base: str) -> None:
    arcs, _ = hull_arcs(AR, base, hull)
    width, length = TOKENS[base]
    token = shapely.box(-width / 2, -length / 2, width / 2, length / 2)
    zones = [hull_zone(AR, base, arcs, zone) for zone in HULL_ZONES]
    for zone in zones:
        assert isinstance(zone, shapely.Polygon)
        assert zone.area > 0.0
        assert token.buffer(1e-9).contains(zone)
    assert sum(z.area for z in zones) == pytest.approx(width * length, rel=1e-9)
    assert shapely.union_all(zones).area == pytest.approx(width * length, rel=1e-9)
    for first, second in itertools.combinations(zones, 2):
        assert shapely.intersection(first, second).area == pytest.approx(0.0, abs=1e-6)


@pytest.mark.parametrize("base", list(TOKENS))
def test_generic_zones_are_four_equal_triangles(base: str) -> None:
    # Lines from the corners to the centre: each zone is a triangle with a token side as
    # its base and the centre as apex, so each has area w·l/4.
    arcs, note = hull_arcs(AR, base, None)
    width, length = TOKENS[base]
    assert arcs.hull == "generic"
    assert note is not None
    assert arcs.front_half_angle == pytest.approx(math.degrees(math.atan2(width / 2, length / 2)))
    for zone in HULL_ZONES:
        assert hull_zone(AR, base, arcs, zone).area == pytest.approx(width * length / 4, rel=1e-9)
    front = hull_zone(AR, base, arcs, "front")
    assert sorted(
        map(tuple, np.round(np.asarray(front.exterior.coords)[:-1], 9).tolist())
    ) == sorted([(0.0, 0.0), (width / 2, length / 2), (-width / 2, length / 2)])


def test_cr90_front_and_rear_zones_by_hand() -> None:
    # CR90: lines from (0, -7.2), front 40.9° from +y, rear 39.9° from -y, on the small
    # token 38.5 × 70.25. The front lines reach the sides (x = ±19.25) at
    # y = -7.2 + 19.25 / tan 40.9°, below the front edge: the front zone is a pentagon.
    arcs, note = hull_arcs(AR, "small", "cr90")
    assert note is None
    y_front = -7.2 + 19.25 / math.tan(math.radians(40.9))
    y_rear = -7.2 - 19.25 / math.tan(math.radians(39.9))
    front_area = 38.5 * (35.125 - y_front) + 0.5 * 38.5 * (y_front + 7.2)
    rear_area = 38.5 * (y_rear + 35.125) + 0.5 * 38.5 * (-7.2 - y_rear)
    side_area = (38.5 * 70.25 - front_area - rear_area) / 2
    assert hull_zone(AR, "small", arcs, "front").area == pytest.approx(front_area, rel=1e-9)
    assert hull_zone(AR, "small", arcs, "rear").area == pytest.approx(rear_area, rel=1e-9)
    assert hull_zone(AR, "small", arcs, "left").area == pytest.approx(side_area, rel=1e-9)
    assert hull_zone(AR, "small", arcs, "right").area == pytest.approx(side_area, rel=1e-9)
    assert hull_zone(AR, "small", arcs, "front").bounds == pytest.approx(
        (-19.25, -7.2, 19.25, 35.125), abs=1e-9
    )


# -- firing arcs from the hull data ---------------------------------------------------


@pytest.mark.parametrize("entry", FOUR_ZONE_HULLS, ids=[h["hull"] for h in FOUR_ZONE_HULLS])
def test_hull_arcs_come_from_the_data(entry: dict[str, Any]) -> None:
    arcs, note = hull_arcs(AR, "medium", entry["hull"])
    assert note is None
    assert arcs.hull == entry["hull"]
    assert arcs.front_apex_y == entry["front_apex_y"]
    assert arcs.rear_apex_y == entry["rear_apex_y"]
    assert arcs.front_half_angle == entry["front_half_angle"]
    assert arcs.rear_half_angle == entry["rear_half_angle"]


@pytest.mark.parametrize("entry", FOUR_ZONE_HULLS, ids=[h["hull"] for h in FOUR_ZONE_HULLS])
@pytest.mark.parametrize("line", ["front-right", "front-left", "rear-right", "rear-left"])
@pytest.mark.parametrize("offset", [1.0, -1.0])
def test_points_1mm_either_side_of_each_printed_line(
    entry: dict[str, Any], line: str, offset: float
) -> None:
    fa, ra = entry["front_apex_y"], entry["rear_apex_y"]
    sf, cf = (
        math.sin(math.radians(entry["front_half_angle"])),
        math.cos(math.radians(entry["front_half_angle"])),
    )
    sr, cr = (
        math.sin(math.radians(entry["rear_half_angle"])),
        math.cos(math.radians(entry["rear_half_angle"])),
    )
    # (apex, direction, normal toward the front/rear zone, the zone on the other side)
    table = {
        "front-right": ((0.0, fa), (sf, cf), (-cf, sf), "front", "right"),
        "front-left": ((0.0, fa), (-sf, cf), (cf, sf), "front", "left"),
        "rear-right": ((0.0, ra), (sr, -cr), (-cr, -sr), "rear", "right"),
        "rear-left": ((0.0, ra), (-sr, -cr), (cr, -sr), "rear", "left"),
    }
    apex, u, n, inner, outer = table[line]
    point = shapely.Point(
        apex[0] + 150 * u[0] + offset * n[0], apex[1] + 150 * u[1] + offset * n[1]
    )
    arcs, _ = hull_arcs(AR, "medium", entry["hull"])
    holding = [zone for zone in HULL_ZONES if firing_arc(arcs, zone).contains(point)]
    assert holding == [inner if offset > 0 else outer]


def test_unknown_hull_and_zone_are_rejected() -> None:
    with pytest.raises(InvalidInputError, match="unknown hull 'tie-fighter'"):
        hull_arcs(AR, "small", "tie-fighter")
    arcs, _ = hull_arcs(AR, "small", "cr90")
    with pytest.raises(InvalidInputError, match="unknown hull zone 'top'"):
        firing_arc(arcs, "top")
    with pytest.raises(InvalidInputError, match="no ship token"):
        hull_token(AR, "squadron")


# -- generic-token note ---------------------------------------------------------------


def test_generic_token_note_when_hull_is_missing() -> None:
    _, note = hull_arcs(AR, "small", None)
    assert note is not None
    assert "no hull given" in note
    assert "generic token" in note
    arcs, note = hull_arcs(AR, "huge", "super-star-destroyer")
    assert arcs.hull == "generic"
    assert note is not None
    assert "six hull zones" in note


def test_measure_notes_the_generic_token() -> None:
    ships = (
        Ship("a", "small", 400.0, 300.0, 90.0),
        Ship("b", "medium", 400.0, 500.0, 270.0, player=2, hull="victory"),
        Ship("s", "squadron", 450.0, 420.0),
    )
    scene = Scene(AR, play_area("6x3ft"), ships=ships)
    to_ship = measure(scene, "a", "b", arc="front")
    assert [n.split(":")[0] for n in to_ship.notes if "generic token" in n] == ["a"]
    assert to_ship.to_json()["notes"] == list(to_ship.notes)
    back = measure(scene, "b", "a", arc="front")
    assert [n.split(":")[0] for n in back.notes if "generic token" in n] == ["a"]
    to_squadron = measure(scene, "a", "s", arc="front")  # a squadron has no token to note
    assert [n.split(":")[0] for n in to_squadron.notes if "generic token" in n] == ["a"]
    known = Scene(
        AR,
        play_area("6x3ft"),
        ships=(ships[1], Ship("c", "small", 600.0, 500.0, 180.0, hull="cr90")),
    )
    assert measure(known, "b", "c", arc="left").notes == ()
    assert measure(scene, "a", "b").notes == ()  # a plain distance uses bases, no token


# -- attack range to the in-arc part of the defending hull zone -----------------------


@pytest.mark.parametrize(
    ("spin", "shift"), [(0.0, (0.0, 0.0)), (30.0, (700.0, 300.0)), (-100.0, (900.0, 600.0))]
)
def test_attack_range_to_the_in_arc_part_of_the_defending_zone(
    spin: float, shift: tuple[float, float]
) -> None:
    # Both generic small tokens (38.5 × 70.25). Attacker at the origin heading +y: its
    # front zone is the triangle (0, 0), (±19.25, 35.125), and its front firing arc is
    # bounded on the right by the line x = y · 19.25 / 35.125 (through the corner V).
    # Defender at (100, 150), same heading: token x 80.75 … 119.25, y 114.875 … 185.125.
    # Its corner (80.75, 114.875) nearest the attacker is outside the arc; the arc line
    # enters its left zone at P = (80.75, y*), y* = 80.75 · 35.125 / 19.25, and P is the
    # closest in-arc point. V and P lie on the same line, so the range is |P − V|.
    y_star = 80.75 * 35.125 / 19.25
    expected = math.hypot(80.75 - 19.25, y_star - 35.125)  # ≈ 127.96: distance 3, medium
    generic, _ = hull_arcs(AR, "small", None)
    attacker = rigid((0.0, 0.0, 90.0), spin, shift)
    defender = rigid((100.0, 150.0, 90.0), spin, shift)
    shot = armada_attack_range(AR, attacker, "small", generic, "front", defender, "small", generic)
    assert shot.in_arc
    assert shot.defending_zone == "left"
    assert shot.distance == pytest.approx(expected, abs=1e-9)
    assert shot.points[0] == pytest.approx(world(19.25, 35.125, attacker), abs=1e-9)
    assert shot.points[1] == pytest.approx(world(80.75, y_star, attacker), abs=1e-9)
    # The defender's rear zone lies wholly outside the front arc.
    rear = armada_attack_range(
        AR, attacker, "small", generic, "front", defender, "small", generic, defending_zone="rear"
    )
    assert not rear.in_arc
    # The plain token-to-zone distance is shorter: the corner (80.75, 114.875) to V.
    assert rear.distance == pytest.approx(math.hypot(80.75 - 19.25, 114.875 - 35.125), abs=1e-9)


def test_attack_range_through_measure_reports_the_bands() -> None:
    ships = (Ship("a", "small", 400.0, 300.0, 90.0), Ship("b", "small", 500.0, 450.0, 90.0))
    m = measure(Scene(AR, play_area("6x3ft"), ships=ships), "a", "b", arc="front")
    y_star = 80.75 * 35.125 / 19.25
    assert m.distance == pytest.approx(math.hypot(61.5, y_star - 35.125), abs=1e-9)
    assert (m.in_arc, m.defending_zone, m.distance_band, m.range_band) == (
        True,
        "left",
        3,
        "medium",
    )


# -- squadrons: exact disks -----------------------------------------------------------


@pytest.mark.parametrize(
    ("centre", "expected", "on_ship", "on_disk"),
    [
        # beside the right side of a small base (43 × 71) at the origin heading +y
        ((100.0, 10.0), 100.0 - 21.5 - 15.5, (21.5, 10.0), (84.5, 10.0)),
        # off the corner (21.5, 35.5) by (30, 40): 50 − 15.5
        ((51.5, 75.5), 34.5, (21.5, 35.5), (21.5 + 0.6 * 34.5, 35.5 + 0.8 * 34.5)),
        # straight ahead of the front edge
        ((0.0, 135.5), 84.5, (0.0, 35.5), (0.0, 120.0)),
        # overlapping the base
        ((30.0, 0.0), 0.0, None, None),
    ],
)
def test_squadron_distance_is_to_the_circle(
    centre: tuple[float, float],
    expected: float,
    on_ship: tuple[float, float] | None,
    on_disk: tuple[float, float] | None,
) -> None:
    ship = Ship("ship", "small", 0.0, 0.0, 90.0)
    squadron = Ship("sq", "squadron", centre[0], centre[1], 17.0)
    (ga, ra), (gb, rb) = ship.measured_shape(AR), squadron.measured_shape(AR)
    assert (ra, rb) == (0.0, SQUADRON_RADIUS)
    d, points = closest_points(ga, gb, ra, rb)
    assert float(d) == pytest.approx(expected, abs=1e-9)
    if on_ship is not None and on_disk is not None:
        assert points[0] == pytest.approx(on_ship, abs=1e-9)
        assert points[1] == pytest.approx(on_disk, abs=1e-9)
        assert math.dist(points[1], centre) == pytest.approx(SQUADRON_RADIUS, abs=1e-9)


def test_two_squadrons_measure_centre_distance_less_both_radii() -> None:
    a = Ship("a", "squadron", 100.0, 100.0)
    b = Ship("b", "squadron", 160.0, 180.0)  # centres 100 apart
    m = measure(Scene(AR, play_area("6x3ft"), ships=(a, b)), "a", "b")
    assert m.distance == pytest.approx(100.0 - 31.0, abs=1e-9)
    assert m.points == pytest.approx(np.array([[109.3, 112.4], [150.7, 167.6]]), abs=1e-9)
    assert (m.distance_band, m.range_band) == (1, "close")


def test_squadron_diameter_is_a_constant() -> None:
    wide = get_ruleset("armada", {"armada_squadron_diameter": 40.0})
    a, b = Ship("a", "squadron", 0.0, 0.0), Ship("b", "squadron", 100.0, 0.0)
    (ga, ra), (gb, rb) = a.measured_shape(wide), b.measured_shape(wide)
    assert float(closest_points(ga, gb, ra, rb)[0]) == pytest.approx(60.0, abs=1e-9)


def test_attack_on_a_squadron_wholly_in_arc() -> None:
    # CR90 front zone on a small token: its front edge y = 35.125 is wholly in the front
    # arc (the front lines reach the sides lower down), so a squadron dead ahead at
    # (0, 200) is 200 − 35.125 − 15.5 away.
    arcs, _ = hull_arcs(AR, "small", "cr90")
    shot = armada_attack_range(
        AR, (0.0, 0.0, 90.0), "small", arcs, "front", (0.0, 200.0, 0.0), "squadron", None
    )
    assert shot.in_arc
    assert shot.defending_zone is None
    assert shot.distance == pytest.approx(149.375, abs=1e-9)
    assert shot.points == pytest.approx(np.array([[0.0, 35.125], [0.0, 184.5]]), abs=1e-9)


def test_attack_on_a_squadron_out_of_arc() -> None:
    # Dead astern of the generic front zone, whose apex is the token centre.
    generic, _ = hull_arcs(AR, "small", None)
    shot = armada_attack_range(
        AR, (0.0, 0.0, 90.0), "small", generic, "front", (0.0, -200.0, 0.0), "squadron", None
    )
    assert not shot.in_arc
    assert shot.distance == pytest.approx(200.0 - 15.5, abs=1e-9)


@pytest.mark.parametrize(("spin", "shift"), [(0.0, (0.0, 0.0)), (60.0, (500.0, 400.0))])
def test_attack_on_a_squadron_partly_in_arc(spin: float, shift: tuple[float, float]) -> None:
    # Generic front zone: its right side runs along the arc line from the centre through
    # V = (19.25, 35.125). The squadron centre sits a = 100 beyond V along that line and
    # h = 10 outside it. The in-arc part is the cap cut off by the line; its closest
    # point is the chord end nearer V, a − √(r² − h²) from V along the line. The plain
    # distance is √(a² + h²) − r.
    theta = math.atan2(19.25, 35.125)
    u = (math.sin(theta), math.cos(theta))
    outward = (math.cos(theta), -math.sin(theta))
    a, h, r = 100.0, 10.0, SQUADRON_RADIUS
    local = (19.25 + a * u[0] + h * outward[0], 35.125 + a * u[1] + h * outward[1])
    generic, _ = hull_arcs(AR, "small", None)
    attacker = rigid((0.0, 0.0, 90.0), spin, shift)
    centre = world(local[0], local[1], attacker)
    shot = armada_attack_range(
        AR, attacker, "small", generic, "front", (*centre, 0.0), "squadron", None
    )
    assert shot.in_arc
    assert shot.distance == pytest.approx(a - math.sqrt(r * r - h * h), abs=1e-9)  # ≈ 88.16
    assert shot.points[0] == pytest.approx(world(19.25, 35.125, attacker), abs=1e-9)
    chord_end = a - math.sqrt(r * r - h * h)
    assert shot.points[1] == pytest.approx(
        world(19.25 + chord_end * u[0], 35.125 + chord_end * u[1], attacker), abs=1e-9
    )
    right = armada_attack_range(
        AR, attacker, "small", generic, "right", (*centre, 0.0), "squadron", None
    )
    assert right.in_arc
    assert right.distance == pytest.approx(math.hypot(a, h) - r, abs=1e-9)  # ≈ 85.00


# -- targeting points -----------------------------------------------------------------


def test_targeting_points_from_data_else_the_centroid() -> None:
    arcs, _ = hull_arcs(AR, "small", "cr90")
    point, note = targeting_point(AR, "small", arcs, "left")
    assert point == (-11.5, -7.875)
    assert note is None
    generic, _ = hull_arcs(AR, "small", None)
    point, note = targeting_point(AR, "small", generic, "front")
    # The centroid of the triangle (0, 0), (±19.25, 35.125).
    assert point == pytest.approx((0.0, 2 * 35.125 / 3), abs=1e-9)
    assert note is not None
    assert "centroid" in note
