"""A contested ``check`` call says what a judge rules at its line, as ``measure`` does.

rules.md: obstacles "beyond range 1 (> 100) of every other obstacle" and "beyond range 2
(> 200) of every edge" (strict: exactly on the line is too close); a ship "within range 1
(<= 100) of its player's edge" (closed: exactly 100 is legal); Armada obstacles "entirely
in the setup area" (the line is closed); "two outlines that only touch do not overlap".
The words come from each rule's comparison. Worked out by hand on a 3' x 3' X-Wing table
(914.4 mm square) with 40 mm squares: ``a`` centred at (300, 457.2) and ``b`` at
(440 + d, 457.2) are 100 + d apart (a's right side at x = 320, b's left at 420 + d), the
margin to "more than 100" is d; a square centred at (457.2, 220 + d) is 200 + d from the
bottom edge (its nearest); a small ship (40 mm) at (457.2, 80 + d) facing up reaches
100 + d from player 1's edge, margin -d to "at most 100".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from common import json_scene_file, run

from tabletop.app.scene.scenefile import parse_scene
from tabletop.obstacles.legality import check

SQUARE40 = [[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]]
SPACING_WORDS = "legal only beyond it (exactly 100.0 mm is too close)"


def pair(d: float) -> dict[str, Any]:
    return {
        "ruleset": "xwing2",
        "obstacles": [
            {"id": "a", "outline": SQUARE40, "at": [300.0, 457.2]},
            {"id": "b", "outline": SQUARE40, "at": [440.0 + d, 457.2]},
        ],
    }


@pytest.mark.parametrize(
    ("d", "legal", "where"),
    [
        (0.4, True, "0.4 mm beyond it"),  # the brief's 100.4 mm: legal, contested
        (0.0, False, "on it"),  # at the line: too close (the rule is "more than")
        (-0.4, False, "0.4 mm inside it"),  # just inside: a contested violation
        (1.0, True, "1.0 mm beyond it"),  # the contested zone is closed: still ruled
    ],
)
def test_spacing_ruling_at_the_line(tmp_path: Path, d: float, legal: bool, where: str) -> None:
    ruling = f"within 1.0 mm of the 100.0 mm spacing line ({where}): {SPACING_WORDS}"
    path = json_scene_file(tmp_path, pair(d))
    code, out, _ = run("check", path, "--json", "--no-fix")
    assert code == (0 if legal else 1)
    data = json.loads(out)
    if legal:
        (entry,) = data["contested"]
        assert (entry["rule"], entry["verdict"]) == ("obstacle-spacing", "legal, contested")
        assert entry["margin"] == pytest.approx(d, abs=1e-9)
        assert entry["ruling"] == ruling
    else:
        (violation,) = data["violations"]
        assert violation["rule"] == "obstacle-spacing"
        assert violation["margin"] == pytest.approx(d, abs=1e-9)
        assert violation["contested"] is True
        assert violation["ruling"] == ruling
    code, out, _ = run("check", path, "--no-fix")
    if legal:
        assert (
            f"  legal, contested: obstacle-spacing a b: measured {100.0 + d:.1f} mm, "
            f"limit 100.0 mm, margin +{d:.1f} mm\n    ruling: {ruling}\n"
        ) in out
    else:
        assert "CONTESTED (within the contested distance of the line)\n" in out
        assert f"\n     ruling: {ruling}\n" in out


def test_just_outside_the_contested_zone_there_is_no_ruling(tmp_path: Path) -> None:
    # 101.2 mm apart: margin 1.2 > 1.0, a plain legal placement, nothing to rule.
    report = check(parse_scene(pair(1.2)))
    assert report.legal
    assert not report.contested
    path = json_scene_file(tmp_path, pair(1.2))
    code, out, _ = run("check", path, "--json", "--margins")
    assert code == 0
    data = json.loads(out)
    spacing = [m for m in data["margins"] if m["rule"] == "obstacle-spacing"]
    assert spacing[0]["margin"] == pytest.approx(1.2, abs=1e-9)
    assert spacing[0]["contested"] is False
    assert spacing[0]["ruling"] is None
    assert "contested" not in data


def test_a_violation_far_from_its_line_has_a_null_ruling(tmp_path: Path) -> None:
    # 90 mm apart: margin -10, not contested.
    path = json_scene_file(tmp_path, pair(-10.0))
    code, out, _ = run("check", path, "--json", "--no-fix")
    assert code == 1
    (violation,) = json.loads(out)["violations"]
    assert violation["contested"] is False
    assert violation["ruling"] is None


@pytest.mark.parametrize(
    ("d", "where"), [(0.4, "0.4 mm beyond it"), (0.0, "on it"), (-0.3, "0.3 mm inside it")]
)
def test_edge_ruling_at_the_line(d: float, where: str) -> None:
    data = {
        "ruleset": "xwing2",
        "obstacles": [{"id": "rock", "outline": SQUARE40, "at": [457.2, 220.0 + d]}],
    }
    report = check(parse_scene(data), fixes=False)
    ruling = (
        f"within 1.0 mm of the 200.0 mm edge line ({where}): "
        "legal only beyond it (exactly 200.0 mm is too close)"
    )
    if d > 0.0:
        (m,) = report.contested
        assert (m.rule, m.ruling) == ("obstacle-edge", ruling)
    else:
        (v,) = report.violations
        assert (v.rule, v.ruling) == ("obstacle-edge", ruling)


@pytest.mark.parametrize(
    ("d", "legal", "where"),
    [(-0.4, True, "0.4 mm inside it"), (0.0, True, "on it"), (0.4, False, "0.4 mm beyond it")],
)
def test_deployment_ruling_is_closed(d: float, legal: bool, where: str) -> None:
    # "Within range 1 (<= 100)": exactly 100 is legal, and the words say so.
    data = {
        "ruleset": "xwing2",
        "ships": [{"id": "s", "base": "small", "at": [457.2, 80.0 + d], "heading": 0.0}],
    }
    report = check(parse_scene(data))
    ruling = (
        f"within 1.0 mm of the 100.0 mm deployment line ({where}): "
        "legal on it or inside it (exactly 100.0 mm is legal)"
    )
    assert report.legal is legal
    found = report.contested if legal else report.violations
    (entry,) = [e for e in found if e.rule == "ship-deployment"]
    assert entry.distance == pytest.approx(100.0 + d, abs=1e-9)
    assert entry.ruling == ruling


def test_armada_setup_area_ruling() -> None:
    # A 40 mm square centred at x = 324.3 on a 6' x 3' table reaches x = 304.3, 0.5 mm past
    # the setup-area marker at 304.8 (a closed line: touching it is inside).
    data = {
        "ruleset": "armada",
        "area": "6x3ft",
        "obstacles": [{"id": "rock", "outline": SQUARE40, "at": [324.3, 457.2]}],
    }
    (v,) = check(parse_scene(data), fixes=False).violations
    assert v.rule == "obstacle-setup-area"
    assert v.ruling == (
        "within 1.0 mm of the setup-area line (0.5 mm beyond it): "
        "legal on it or inside it (touching the line is legal)"
    )


@pytest.mark.parametrize(
    ("gap", "where"), [(0.5, "0.5 mm apart"), (0.0, "touching"), (-0.2, "0.2 mm overlapping")]
)
def test_ship_overlap_ruling(gap: float, where: str) -> None:
    # Two small Armada ships (43 x 71) side by side at heading 0, centres 43 + gap apart.
    data = {
        "ruleset": "armada",
        "area": "6x3ft",
        "ships": [
            {"id": "c", "base": "small", "at": [900.0, 100.0]},
            {"id": "d", "base": "small", "at": [943.0 + gap, 100.0]},
        ],
    }
    report = check(parse_scene(data), margins=True)
    assert report.margins is not None
    (m,) = [m for m in report.margins if m.rule == "ship-overlap"]
    assert m.ruling == (
        f"within 1.0 mm of touching ({where}): "
        "legal touching or apart (touching is not overlapping)"
    )
    assert report.legal is (gap >= 0.0)
