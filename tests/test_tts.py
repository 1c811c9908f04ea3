"""`measure --also tts`: the Tabletop Simulator mod's reading beside the rules' (issue 14.15).

Worked by hand. A small attacker at the origin facing +y: its printed front arc lines
leave the centre at ±40.62°, so they cross the front edge (y = 20) at
|x| = a = 20·tan 40.62° = 17.1498 mm. A small defender facing +y whose nearer-left corner
is at (19, y0) is in the front arc (19/y0 < tan 40.62°). The rules measure from the
closest point of the base, (19, 20): y0 − 20. The mod measures from the arc edge, whose
nearest point is (a, 20): √((19 − a)² + (y0 − 20)²), and bands as ⌊d/100⌋ + 1.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from common import run, run_json, scene_file

from tabletop.geom.areas import play_area
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.objects import Ship
from tabletop.geom.rulesets import get_ruleset
from tabletop.obstacles.measuring import measure
from tabletop.obstacles.scene import Scene
from tabletop.obstacles.tts import tts_band, tts_reading

XW = get_ruleset("xwing2")
A_SMALL = 20.0 * math.tan(math.radians(81.24 / 2.0))


def _scene(*ships: Ship) -> Scene:
    return Scene(XW, play_area("3x3ft"), ships=ships)


def _corner_case(y0: float) -> Scene:
    return _scene(Ship("a", "small", 0.0, 0.0, 90.0), Ship("b", "small", 39.0, y0 + 20.0, 90.0))


@pytest.mark.parametrize(
    ("d", "band"), [(0.0, 1), (99.999999, 1), (100.0, 2), (100.000001, 2), (299.99, 3), (300.0, 4)]
)
def test_the_mods_band_at_the_line_and_either_side(d: float, band: int) -> None:
    assert tts_band(d) == band


@pytest.mark.parametrize(
    ("y0", "rules_band", "tts_band_expected"),
    [
        (120.0, 1, 2),  # rules exactly on the line: range 1; the mod 100.017 mm: range 2
        (119.99, 1, 2),  # rules 99.99; the mod 100.007
        (119.98, 1, 1),  # rules 99.98; the mod 99.997: both range 1
    ],
)
def test_from_the_printed_arc_edge(y0: float, rules_band: int, tts_band_expected: int) -> None:
    scene = _corner_case(y0)
    rules = measure(scene, "a", "b", arc="front")
    tts = tts_reading(scene, rules)
    assert rules.distance == pytest.approx(y0 - 20.0, abs=1e-9)
    assert rules.band == rules_band
    expected = math.hypot(19.0 - A_SMALL, y0 - 20.0)
    assert tts.distance == pytest.approx(expected, abs=1e-9)
    assert tts.band == tts_band_expected
    assert tts.in_arc is True
    assert tts.points[0][0] == pytest.approx(A_SMALL, abs=1e-9)
    assert any("from the printed arc edge" in r and "17.15 mm" in r for r in tts.reasons)
    assert tts.agrees is (rules_band == tts_band_expected)


def test_touching_is_range_1_in_the_mod() -> None:
    scene = _scene(Ship("a", "small", 0.0, 0.0, 90.0), Ship("b", "small", 0.0, 40.0, 270.0))
    rules = measure(scene, "a", "b")
    tts = tts_reading(scene, rules)
    assert (rules.band, tts.band) == (0, 1)
    assert tts.reasons == (
        "the mod has no range 0: touching is range 1 there, range 0 by the rules",
    )


def test_on_a_line_without_an_arc_the_mod_reads_the_farther_band() -> None:
    scene = _scene(Ship("a", "small", 0.0, 0.0, 90.0), Ship("b", "small", 0.0, 240.0, 270.0))
    tts = tts_reading(scene, measure(scene, "a", "b"))
    assert (tts.distance, tts.band) == (200.0, 3)
    assert "farther band" in tts.reasons[0]


@pytest.mark.parametrize(
    ("edge", "rules_in", "tts_in"), [(-7.2, True, False), (-6.8, True, True), (-7.6, False, False)]
)
def test_the_mods_bullseye_is_14_mm(edge: float, rules_in: bool, tts_in: bool) -> None:
    # The defender's right edge at x = edge: inside 7.5 (the rules' half-width) or 7 (the mod's).
    defender = Ship("b", "small", edge - 20.0, 200.0, 90.0)
    scene = _scene(Ship("a", "small", 0.0, 0.0, 90.0), defender)
    rules = measure(scene, "a", "b", arc="bullseye")
    tts = tts_reading(scene, rules)
    assert (rules.in_arc, tts.in_arc) == (rules_in, tts_in)
    if rules_in != tts_in:
        assert "14 mm wide" in tts.reasons[0]


def test_other_games_and_objects_are_refused() -> None:
    armada = Scene(get_ruleset("armada"), play_area("6x3ft"), ships=(
        Ship("a", "small", 500.0, 300.0, 0.0), Ship("b", "small", 700.0, 300.0, 0.0)))  # fmt: skip
    with pytest.raises(InvalidInputError, match=r"plays X-Wing 2\.0"):
        tts_reading(armada, measure(armada, "a", "b"))


def test_the_cli_adds_a_tts_object_and_keeps_every_field(tmp_path: Path) -> None:
    scene = scene_file(
        tmp_path,
        """
        ruleset = "xwing2"
        area = "3x3ft"
        [[ships]]
        id = "a"
        base = "small"
        at = [300.0, 300.0]
        heading = 90.0
        [[ships]]
        id = "b"
        base = "small"
        at = [339.0, 440.0]
        heading = 90.0
        """,
    )
    plain = run_json("measure", scene, "a", "b", "--arc", "front", "--json")
    data = run_json("measure", scene, "a", "b", "--arc", "front", "--also", "tts", "--json")
    tts = data.pop("tts")
    assert data == plain
    assert tts["band"] == 2
    assert tts["in_arc"] is True
    assert tts["agrees"] is False
    assert tts["distance"] == pytest.approx(math.hypot(19.0 - A_SMALL, 100.0), abs=1e-6)
    code, out, _ = run("measure", scene, "a", "b", "--arc", "front", "--also", "tts")
    assert code == 0
    assert "  TTS mod:    range 2, 100.02 mm, in arc\n" in out
    assert "  TTS differs: the mod measures from the printed arc edge" in out


def test_the_cli_refuses_tts_for_armada() -> None:
    code, out, _ = run(
        "measure",
        "examples/armada-standard.toml",
        "victory",
        "gladiator",
        "--also",
        "tts",
        "--json",
    )
    assert code == 2
    assert "plays X-Wing 2.0" in json.loads(out)["error"]["message"]


# The peers' figure (rules.md): the mod's arc-edge distance is longer for most front-arc
# shots within range 3, by up to 1.85 / 2.34 / 2.85 mm for small / medium / large attackers.
PEER_MOST = {"small": 1.85, "medium": 2.34, "large": 2.85}


@pytest.mark.parametrize("base", ["small", "medium", "large"])
def test_the_peers_disagreement_figure(base: str) -> None:
    rng = random.Random(14)
    longer: list[float] = []
    changed = 0
    while len(longer) < 400:
        r, angle = rng.uniform(0.0, 360.0), rng.uniform(0.0, 2.0 * math.pi)
        defender = Ship("b", rng.choice(["small", "medium", "large"]), r * math.cos(angle),
                        r * math.sin(angle), rng.uniform(0.0, 360.0))  # fmt: skip
        scene = _scene(Ship("a", base, 0.0, 0.0, 90.0), defender)
        rules = measure(scene, "a", "b", arc="front")
        if not rules.in_arc or rules.band is None or rules.band > 3 or rules.distance <= 1e-6:
            continue
        tts = tts_reading(scene, rules)
        longer.append(tts.distance - rules.distance)
        changed += tts.band != rules.band
    assert min(longer) >= -1e-9  # the arc edge is part of the base: never shorter
    assert sum(d > 1e-3 for d in longer) > len(longer) / 2  # longer for most shots
    assert 0.8 * PEER_MOST[base] < max(longer) <= PEER_MOST[base] + 0.01
    assert changed / len(longer) < 0.03
