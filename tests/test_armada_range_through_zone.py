"""Armada: attack range measured through another hull zone of the defender (RRG 1.6).

``rules.md``: when the attack-range segment passes through the interior of a hull zone of
the defender other than the defending one, the attacker has no line of sight to that
zone, whatever the targeting points say. Running along an arc line (the edge between two
zones) is not passing through. The lengths inside a zone are checked against a plain
clipping of the segment by the zone's half-planes (the token's four sides and the two
arc lines from the apex), written from the hull data alone. Arc lines that cannot bound
four hull zones are an input error naming the hull, never a raw GEOS exception.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from common import run, run_json, scene_file

from tabletop.geom.errors import InvalidInputError
from tabletop.geom.hulls import HullArcs, armada_attack_range, hull_arcs, zones_crossed
from tabletop.geom.rulesets import get_ruleset

ARMADA = get_ruleset("armada")
SMALL_TOKEN = (38.5, 70.25)
GLADIATOR_APEX, GLADIATOR_FRONT = 1.6, 33.1  # geom/data/armada-hulls.json
S0 = (686.92, 256.78, 126.70)
S1 = (674.98, 334.36, 237.60)

ISSUE_SCENE = f"""
ruleset = "armada"
area = "6x3ft"
phase = "play"
[[ships]]
id = "s0"
base = "small"
hull = "gladiator"
at = [{S0[0]}, {S0[1]}]
heading = {S0[2]}
[[ships]]
id = "s1"
base = "small"
hull = "gladiator"
at = [{S1[0]}, {S1[1]}]
heading = {S1[2]}
"""


def _local(point: tuple[float, float], pose: tuple[float, float, float]) -> tuple[float, float]:
    """World point to the ship frame (+y forward, +x to the ship's right)."""
    h = math.radians(pose[2])
    dx, dy = point[0] - pose[0], point[1] - pose[1]
    return dx * math.sin(h) - dy * math.cos(h), dx * math.cos(h) + dy * math.sin(h)


def _front_zone_length(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Length of segment a-b (ship frame) inside a small Gladiator's front hull zone.

    The zone is where |x| <= w/2, |y| <= l/2 and y - apex >= |x| / tan(half-angle):
    six half-planes ``n . p <= c``, clipped by Cyrus-Beck.
    """
    w, length = SMALL_TOKEN
    cot = 1.0 / math.tan(math.radians(GLADIATOR_FRONT))
    planes = [
        ((1.0, 0.0), w / 2),
        ((-1.0, 0.0), w / 2),
        ((0.0, 1.0), length / 2),
        ((0.0, -1.0), length / 2),
        ((cot, -1.0), -GLADIATOR_APEX),
        ((-cot, -1.0), -GLADIATOR_APEX),
    ]
    lo, hi = 0.0, 1.0
    d = (b[0] - a[0], b[1] - a[1])
    for (nx, ny), c in planes:
        rate = nx * d[0] + ny * d[1]
        slack = c - (nx * a[0] + ny * a[1])
        if rate == 0.0:
            if slack < 0.0:
                return 0.0
            continue
        t = slack / rate
        if rate > 0.0:
            hi = min(hi, t)
        else:
            lo = max(lo, t)
    return max(0.0, hi - lo) * math.hypot(*d)


def test_the_issue_example_has_no_line_of_sight_to_the_right_zone(tmp_path: Path) -> None:
    path = scene_file(tmp_path, ISSUE_SCENE)
    out = run_json(
        "measure", path, "s1", "s0", "--arc", "left", "--defending-zone", "right", "--json"
    )
    assert out["defending_zone"] == "right"
    assert out["distance"] == pytest.approx(10.18, abs=0.01)  # the issue: 10.18 mm
    assert (out["distance_band"], out["range_band"]) == (1, "close")
    assert out["line_of_sight"] is False
    # The closest-points segment, clipped by the front zone's half-planes: 4.3 mm inside.
    a, b = (_local(tuple(p), S0) for p in out["points"])
    inside = _front_zone_length(a, b)
    assert inside == pytest.approx(4.277, abs=0.001)
    assert out["notes"] == [
        f"s0: the attack-range segment runs {inside:.3f} mm through the front hull zone, "
        "not the defending right one: no line of sight (RRG 1.6)"
    ]
    code, text, _ = run("measure", path, "s1", "s0", "--arc", "left", "--defending-zone", "right")
    assert code == 0
    assert "  sight:      NO: traced through another hull zone\n" in text


def test_the_issue_example_without_a_named_zone_measures_the_front_zone(tmp_path: Path) -> None:
    # The front zone is closer (5.1 mm) and its segment crosses no other zone.
    out = run_json(
        "measure", scene_file(tmp_path, ISSUE_SCENE), "s1", "s0", "--arc", "left", "--json"
    )
    assert out["defending_zone"] == "front"
    assert out["distance"] == pytest.approx(5.124, abs=0.001)
    assert out["line_of_sight"] is True
    assert "notes" not in out


def test_the_api_lists_the_zone_crossed() -> None:
    arcs, _ = hull_arcs(ARMADA, "small", "gladiator")
    shot = armada_attack_range(
        ARMADA, S1, "small", arcs, "left", S0, "small", arcs, defending_zone="right"
    )
    assert [name for name, _ in shot.crossed] == ["front"]
    front = armada_attack_range(
        ARMADA, S1, "small", arcs, "left", S0, "small", arcs, defending_zone="front"
    )
    assert front.crossed == ()


# -- the line: along the arc line, just inside the front zone, just inside the right -----


def _arc_line_point(t: float, off: float) -> tuple[float, float]:
    """A point ``t`` mm along the front-right arc line from the apex, ``off`` mm to its
    front side (positive) or its right side (negative); ship frame at the origin."""
    a = math.radians(GLADIATOR_FRONT)
    along = (math.sin(a), math.cos(a))
    normal = (-math.cos(a), math.sin(a))  # toward the front zone
    return (t * along[0] + off * normal[0], GLADIATOR_APEX + t * along[1] + off * normal[1])


@pytest.mark.parametrize(
    ("off", "crossed"),
    [(0.0, False), (1e-3, True), (-1e-3, False), (1e-7, False), (-1e-7, False)],
)
def test_a_segment_along_the_arc_line_is_not_through_the_front_zone(
    off: float, crossed: bool
) -> None:
    arcs, _ = hull_arcs(ARMADA, "small", "gladiator")
    segment = [_arc_line_point(2.0, off), _arc_line_point(15.0, off)]
    found = zones_crossed(ARMADA, [0.0, 0.0, 90.0], "small", arcs, "right", segment)
    if crossed:
        assert [name for name, _ in found] == ["front"]
        assert found[0][1] == pytest.approx(13.0, abs=1e-6)
    else:
        assert found == ()


# -- arc lines that cannot bound four hull zones ------------------------------------------


@pytest.mark.parametrize(
    ("front_apex", "rear_apex", "ok"),
    [(0.5, 0.5, True), (0.501, 0.5, True), (0.499, 0.5, False), (-10.0, 10.0, False)],
)
def test_front_and_rear_lines_crossing_at_the_centre_line_are_an_input_error(
    front_apex: float, rear_apex: float, ok: bool
) -> None:
    def measure() -> None:
        arcs = HullArcs("twisted", front_apex, rear_apex, 40.0, 40.0)
        armada_attack_range(ARMADA, [0, 0, 90], "small", arcs, "left", [-200, 0, 90], "small", arcs)

    if ok:
        measure()
        return
    with pytest.raises(InvalidInputError) as info:
        measure()
    assert info.value.where == "hull 'twisted'"
    assert "expected front_apex_y >= rear_apex_y" in info.value.message


@pytest.mark.parametrize(
    ("half_angle", "ok"),
    [(89.999, True), (90.0, False), (0.001, True), (0.0, False), (-5.0, False)],
)
def test_half_angles_must_lie_between_0_and_90_degrees(half_angle: float, ok: bool) -> None:
    def measure() -> None:
        arcs = HullArcs("odd", 0.0, 0.0, half_angle, 40.0)
        armada_attack_range(ARMADA, [0, 0, 90], "small", arcs, "left", [-200, 0, 90], "small", arcs)

    if ok:
        measure()
        return
    with pytest.raises(InvalidInputError, match="front_half_angle") as info:
        measure()
    assert info.value.where == "hull 'odd'"


@pytest.mark.parametrize("value", [math.nan, math.inf])
def test_a_value_that_is_not_finite_is_an_input_error(value: float) -> None:
    with pytest.raises(InvalidInputError, match="expected a finite number") as info:
        HullArcs("nan", value, 0.0, 30.0, 30.0)
    assert info.value.where == "hull 'nan'"


@pytest.mark.parametrize(("apex", "ok"), [(35.0, True), (40.0, False)])
def test_an_apex_off_the_token_is_an_input_error_naming_the_hull(apex: float, ok: bool) -> None:
    # The small token is 70.25 mm long: the centre line runs to y = 35.125.
    arcs = HullArcs("far", apex, apex, 30.0, 30.0)

    def measure() -> None:
        armada_attack_range(ARMADA, [0, 0, 90], "small", arcs, "left", [-200, 0, 90], "small", arcs)

    if ok:
        measure()
        return
    with pytest.raises(InvalidInputError, match="no area on a small ship token") as info:
        measure()
    assert info.value.where == "hull 'far'"
