"""Armada speed charts: a course must keep to the hull's chart (navigate: one click more)."""

from __future__ import annotations

import io
import json

import pytest

from tabletop.app.cli import main
from tabletop.app.scene.scenefile import parse_scene
from tabletop.geom.hulls import hull_names, speed_chart
from tabletop.geom.rulesets import get_ruleset
from tabletop.maneuvers import execute, parse_maneuver
from tabletop.maneuvers.armada import chart_violation
from tabletop.maneuvers.notation import ArmadaCourse

ARMADA = get_ruleset("armada")


def test_every_hull_has_a_chart_of_at_most_four_speeds() -> None:
    for hull in hull_names():
        chart = speed_chart(hull)
        assert chart is not None, hull
        assert 1 <= len(chart) <= 4
        for speed, row in enumerate(chart, 1):
            assert len(row) == speed
            assert all(clicks in (0, 1, 2) for clicks in row)


@pytest.mark.parametrize(
    ("words", "legal"),
    [
        ("speed 1 yaw 1", True),
        ("speed 1 yaw -1", True),
        ("speed 1 yaw 2", False),  # Victory speed 1: I
        ("speed 2 yaw 0 1", True),
        ("speed 2 yaw 1 0", False),  # speed 2: - I
        ("speed 2 yaw 1 0 navigate", True),
        ("speed 2 yaw 0 2 navigate", True),
        ("speed 2 yaw 0 -2 navigate", True),
        ("speed 2 yaw 1 2 navigate", False),  # two joints over the chart
        ("speed 1 yaw 2 navigate", True),
        ("speed 3", False),  # top speed 2
        ("speed 0", True),
    ],
)
def test_victory_chart(words: str, legal: bool) -> None:
    course = parse_maneuver(words, ARMADA)
    assert isinstance(course, ArmadaCourse)
    assert (chart_violation(course, "victory") is None) is legal


def test_without_a_hull_every_course_is_allowed() -> None:
    assert chart_violation(ArmadaCourse(4, (2, 2, 2, 2)), None) is None


def test_a_course_off_the_chart_leaves_the_ship_and_says_why() -> None:
    scene = parse_scene(
        {
            "ruleset": "armada",
            "phase": "play",
            "ships": [
                {"id": "vsd", "base": "medium", "hull": "victory", "at": [900, 300]},
                {"id": "anon", "base": "medium", "at": [500, 300]},
            ],
        }
    )
    blocked = execute(scene, "vsd", "speed 2 yaw 1 1")
    assert blocked.legal is False
    assert blocked.reason is not None
    assert "at most 0 clicks at joint 1" in blocked.reason
    assert blocked.final.tolist() == blocked.start.tolist()
    # Without a hull the same course moves: two clicks, 45 degrees to the left.
    moved = execute(scene, "anon", "speed 2 yaw 1 1")
    assert moved.legal is None
    assert moved.final[2] == pytest.approx(135.0)


def test_the_command_reports_it_with_exit_zero(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "s.json"
    path.write_text(
        json.dumps(
            {
                "ruleset": "armada",
                "ships": [{"id": "vsd", "base": "medium", "hull": "victory", "at": [900, 80]}],
            }
        ),
        encoding="utf-8",
    )
    out = io.StringIO()
    assert main(["move", str(path), "vsd", "speed", "3", "--json"], out, io.StringIO()) == 0
    answer = json.loads(out.getvalue())
    assert answer["legal"] is False
    assert "top speed of 2" in answer["reason"]
