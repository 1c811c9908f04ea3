"""Every rule's numbers: distance, limit, margin and contested against its own line.

The four calls a judge is asked to make (issue: an Armada obstacle 0.5 mm over the
setup-area line, a ship 0.5 mm off the table, ships overlapping by 0.2 mm, two X-Wing
ships 0.5 mm apart), each at the line and on both sides of it, with numbers worked out
by hand from the placements; ``--margins`` listing every measurement, smallest first;
``--no-fix`` and the query's ``"fix": false``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from common import json_scene_file, run

from tabletop.app.query.answers import answer
from tabletop.app.scene.scenefile import parse_scene
from tabletop.obstacles.legality import check
from tabletop.obstacles.verdicts import Margin

MARKER = 304.8  # Armada setup-area marker from each short edge (rules.md)
SQUARE40 = [[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]]


def margins_of(data: dict[str, Any], rule: str) -> list[Margin]:
    report = check(parse_scene(data), margins=True)
    assert report.margins is not None
    return [m for m in report.margins if m.rule == rule]


# -- an Armada obstacle over the setup-area line ------------------------------------------


@pytest.mark.parametrize("over", [1.5, 1.0, 0.5, 1e-3, 0.0, -0.5])
def test_armada_obstacle_over_the_setup_area_line(over: float) -> None:
    # The square's left side at MARKER - over: `over` mm past the closed line.
    data = {
        "ruleset": "armada",
        "area": "6x3ft",
        "obstacles": [{"id": "rock", "outline": SQUARE40, "at": [MARKER - over + 20.0, 457.2]}],
    }
    report = check(parse_scene(data), margins=True)
    found = [v for v in report.violations if v.rule == "obstacle-setup-area"]
    (m,) = margins_of(data, "obstacle-setup-area")
    assert m.distance == pytest.approx(abs(over), abs=1e-9)
    assert m.limit == 0.0
    assert m.margin == pytest.approx(-over, abs=1e-9)
    assert m.contested is (abs(over) <= 1.0)
    if over <= 0.0:  # on the line is inside (the setup area is closed)
        assert found == []
        return
    (v,) = found
    assert (v.distance, v.limit, v.margin, v.contested) == (m.distance, 0.0, m.margin, m.contested)
    data_json = v.to_json()
    assert data_json["distance"] == pytest.approx(over, abs=1e-6)
    assert data_json["margin"] == pytest.approx(-over, abs=1e-6)
    assert data_json["contested"] is (over <= 1.0)
    assert data_json["points"] == [[round(MARKER - over, 6), 437.2], [MARKER, 437.2]]


# -- a ship off the table ---------------------------------------------------------------


@pytest.mark.parametrize("off", [1.5, 1.0, 0.5, 0.0, -0.5])
def test_ship_off_the_table(off: float) -> None:
    # A small X-Wing base (40 mm) whose left side is `off` mm past the left edge.
    data = {
        "ruleset": "xwing2",
        "area": "3x3ft",
        "phase": "play",
        "ships": [{"id": "s", "base": "small", "at": [20.0 - off, 400.0]}],
    }
    report = check(parse_scene(data))
    found = [v for v in report.violations if v.rule == "outside-play-area"]
    (m,) = margins_of(data, "outside-play-area")
    assert m.distance == pytest.approx(abs(off), abs=1e-9)
    assert m.margin == pytest.approx(-off, abs=1e-9)
    assert m.contested is (abs(off) <= 1.0)
    if off <= 0.0:
        assert found == []
        return
    (v,) = found
    assert v.distance == pytest.approx(off, abs=1e-9)
    assert v.limit == 0.0
    assert v.margin == pytest.approx(-off, abs=1e-9)
    assert v.contested is (off <= 1.0)


# -- ships overlapping --------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["xwing2", "xwing1", "armada"])
@pytest.mark.parametrize("depth", [1.5, 1.0, 0.2, 0.0, -0.2])
def test_ships_overlapping(ruleset: str, depth: float) -> None:
    # Side by side (guides play no part across the sides): small bases 40 (X-Wing) or
    # 43 (Armada) wide, heading 90, their sides `depth` mm into each other; the shortest
    # move apart is sideways by `depth` (along the headings it is the base length).
    width = 43.0 if ruleset == "armada" else 40.0
    area = "6x3ft" if ruleset == "armada" else "3x3ft"
    data = {
        "ruleset": ruleset,
        "area": area,
        "phase": "play",
        "ships": [
            {"id": "a", "base": "small", "at": [500.0, 400.0], "heading": 90},
            {"id": "b", "base": "small", "at": [500.0 + width - depth, 400.0], "heading": 90},
        ],
    }
    report = check(parse_scene(data))
    found = [v for v in report.violations if v.rule == "ship-overlap"]
    (m,) = margins_of(data, "ship-overlap")
    assert m.objects == ("a", "b")
    assert m.distance == pytest.approx(abs(depth), abs=1e-9)
    assert m.margin == pytest.approx(-depth, abs=1e-9)
    assert m.contested is (abs(depth) <= 1.0)
    if depth <= 0.0:  # touching is not overlapping
        assert found == []
        return
    (v,) = found
    assert v.distance == pytest.approx(depth, abs=1e-9)
    assert v.limit == 0.0
    assert v.margin == pytest.approx(-depth, abs=1e-9)
    assert v.contested is (depth <= 1.0)


# -- two X-Wing ships close together ------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "gap", "contested"),
    [
        ("xwing2", 0.5, True),  # range 0 against range 1: touching is a line in 2.0
        ("xwing2", 1.0, True),  # on the contested distance itself
        ("xwing2", 1.5, False),
        ("xwing2", 0.0, True),  # touching: range 0
        ("xwing1", 0.5, False),  # 1st edition has no range 0: only the 100 line counts
    ],
)
def test_xwing_ships_close_together(
    tmp_path: Path, ruleset: str, gap: float, contested: bool
) -> None:
    data = {
        "ruleset": ruleset,
        "area": "3x3ft",
        "phase": "play",
        "ships": [
            {"id": "a", "base": "small", "at": [400.0, 400.0], "heading": 90},
            {"id": "b", "base": "small", "at": [440.0 + gap, 400.0], "heading": 90},
        ],
    }
    code, out, _ = run("measure", json_scene_file(tmp_path, data), "a", "b", "--json")
    assert code == 0
    measured = json.loads(out)
    assert measured["distance"] == pytest.approx(gap, abs=1e-9)
    assert measured["contested"] is contested
    # Not a violation, but the overlap rule's own line (touching) is 0: within 1 mm of
    # it is a contested call in every ruleset.
    report = check(parse_scene(data), margins=True)
    assert report.legal
    (m,) = margins_of(data, "ship-overlap")
    assert m.distance == pytest.approx(gap, abs=1e-9)
    assert m.margin == pytest.approx(gap, abs=1e-9)
    assert m.contested is (gap <= 1.0)


# -- every rule's margins, smallest first -------------------------------------------------


def tournament_table() -> dict[str, Any]:
    # Two 40 mm squares 100.8 mm apart (legal by 0.8), the nearer one 210 mm from the
    # bottom edge (legal by 10); one ship 80 mm from its edge (deployment legal by 20).
    return {
        "ruleset": "xwing2",
        "area": "3x3ft",
        "obstacles": [
            {"id": "a", "outline": SQUARE40, "at": [300.0, 230.0]},
            {"id": "b", "outline": SQUARE40, "at": [300.0 + 40.0 + 100.8, 260.0]},
        ],
        "ships": [{"id": "s", "base": "small", "at": [457.2, 60.0]}],
    }


def test_margins_list_every_rule_smallest_first(tmp_path: Path) -> None:
    data = tournament_table()
    report = check(parse_scene(data), margins=True)
    assert report.legal
    assert report.margins is not None
    listed = [(m.rule, m.objects, round(m.margin, 6)) for m in report.margins]
    assert listed[0] == ("obstacle-spacing", ("a", "b"), 0.8)
    assert report.margins[0].contested
    assert ("obstacle-edge", ("a",), 10.0) in listed  # 210 from the bottom edge
    assert ("obstacle-edge", ("b",), 40.0) in listed
    assert ("ship-deployment", ("s",), 20.0) in listed  # the base reaches 80 mm up
    assert ("outside-play-area", ("s",), 40.0) in listed
    margins = [m.margin for m in report.margins]
    assert margins == sorted(margins)
    # The command and the query give the same list.
    path = json_scene_file(tmp_path, data)
    code, out, _ = run("check", path, "--margins", "--json")
    assert code == 0
    by_command = json.loads(out)
    assert by_command["margins"] == [m.to_json() for m in report.margins]
    by_query = answer(json.dumps({"op": "check", "scene": data, "margins": True}))
    assert by_query["margins"] == by_command["margins"]
    code, out, _ = run("check", path, "--margins")
    assert (
        "obstacle-spacing a b: measured 100.8 mm, limit 100.0 mm, margin +0.8 mm, contested" in out
    )
    # Without the flag there is no such field (the contract's fields only).
    code, out, _ = run("check", path, "--json")
    assert "margins" not in json.loads(out)


# -- fixes on demand ----------------------------------------------------------------------


def illegal_table() -> dict[str, Any]:
    return {
        "ruleset": "xwing2",
        "area": "3x3ft",
        "obstacles": [
            {"id": "a", "outline": SQUARE40, "at": [457.2, 215.0]},
            {"id": "b", "outline": SQUARE40, "at": [457.2 + 40.0 + 90.0, 300.0]},
        ],
    }


def test_no_fix(tmp_path: Path) -> None:
    data = illegal_table()
    path = json_scene_file(tmp_path, data)
    code, out, _ = run("check", path, "--json")
    assert code == 1
    with_fix = json.loads(out)
    code, out, _ = run("check", path, "--json", "--no-fix")
    assert code == 1
    without = json.loads(out)
    # The same verdict and numbers; every fix null.
    for v, w in zip(with_fix["violations"], without["violations"], strict=True):
        assert v["fix"] is not None
        assert w["fix"] is None
        assert {k: x for k, x in v.items() if k != "fix"} == {
            k: x for k, x in w.items() if k != "fix"
        }
    code, out, _ = run("check", path, "--no-fix")
    assert "fix:" not in out
    by_query = answer(json.dumps({"op": "check", "scene": data, "fix": False}))
    assert by_query == without
    assert answer(json.dumps({"op": "check", "scene": data, "fix": True})) == with_fix
    bad = answer(json.dumps({"op": "check", "scene": data, "fix": "no"}))
    assert bad["error"]["where"] == "request 1: key 'fix'"


def test_check_help_names_the_flags() -> None:
    code, out, _ = run("check", "--help")
    assert code == 0
    assert "--no-fix" in out
    assert "--margins" in out
