"""Close calls that are legal: ``check`` lists them as "legal, contested" with their margins.

rules.md (Measuring): "A measurement within 1.0 mm (``contested_within``) of a band line is
flagged ``contested`` in every report: that is where judges are called", and a ``check``
placement is contested when |measured - limit| <= 1.0 mm. Worked out by hand: a 40 mm
square centred at (457.2, 220 + d) on a 3' x 3' X-Wing table is 200 + d from the bottom
edge (its nearest), so its margin to the "more than 200" line is d; two such squares
centred 140 + d apart in x are 100 + d apart (margin d to "more than 100").
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from common import json_scene_file, run

from tabletop.app.scene.scenefile import parse_scene
from tabletop.obstacles.legality import check

SQUARE40 = [[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]]


def edge_scene(d: float) -> dict[str, object]:
    return {
        "ruleset": "xwing2",
        "obstacles": [{"id": "rock", "outline": SQUARE40, "at": [457.2, 220.0 + d]}],
    }


@pytest.mark.parametrize(
    ("d", "listed", "legal"),
    [
        (0.0005, True, True),  # the 0.0005 mm past the line
        (1.0, True, True),  # the edge of the contested band: still contested
        (0.999, True, True),  # just inside the band
        (1.001, False, True),  # just outside the band: a plain legal placement
        (0.0, False, False),  # on the line: a violation (the line is the shorter band)
        (-0.0005, False, False),
    ],
)
def test_a_legal_obstacle_near_the_edge_line_is_listed_as_contested(
    d: float, listed: bool, legal: bool
) -> None:
    report = check(parse_scene(edge_scene(d)))
    assert report.legal is legal
    contested = [m for m in report.contested if m.rule == "obstacle-edge"]
    assert bool(contested) is listed
    if listed:
        (m,) = contested
        assert m.distance == pytest.approx(200.0 + d, abs=1e-9)
        assert m.margin == pytest.approx(d, abs=1e-9)
        assert m.contested


def test_the_report_prints_the_number_and_its_margin_at_the_same_precision(
    tmp_path: Path,
) -> None:
    path = json_scene_file(tmp_path, edge_scene(0.0005))
    code, out, _ = run("check", path)
    assert code == 0
    assert out.startswith(f"{path}: xwing2, legal; 1 legal placement(s) contested\n")
    assert (
        "  legal, contested: obstacle-edge rock: measured 200.0005 mm, limit 200.0 mm, "
        "margin +0.0005 mm\n"
    ) in out
    code, out, _ = run("check", path, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["legal"] is True
    (entry,) = data["contested"]
    assert entry["verdict"] == "legal, contested"
    assert entry["rule"] == "obstacle-edge"
    assert entry["objects"] == ["rock"]
    assert entry["distance"] == 200.0005
    assert entry["limit"] == 200.0
    assert entry["margin"] == 0.0005
    assert entry["contested"] is True


@pytest.mark.parametrize(("d", "listed"), [(0.5, True), (1.0, True), (1.001, False)])
def test_a_legal_pair_near_the_spacing_line_is_listed(d: float, listed: bool) -> None:
    data = {
        "ruleset": "xwing2",
        "obstacles": [
            {"id": "a", "outline": SQUARE40, "at": [300.0, 457.2]},
            {"id": "b", "outline": SQUARE40, "at": [440.0 + d, 457.2]},
        ],
    }
    report = check(parse_scene(data))
    assert report.legal
    pairs = [m for m in report.contested if m.rule == "obstacle-spacing"]
    assert bool(pairs) is listed
    if listed:
        assert pairs[0].objects == ("a", "b")
        assert pairs[0].margin == pytest.approx(d, abs=1e-9)


def test_a_scene_without_close_calls_prints_no_contested_field(tmp_path: Path) -> None:
    path = json_scene_file(tmp_path, edge_scene(5.0))
    code, out, _ = run("check", path, "--json")
    assert code == 0
    assert 'contested": [' not in out
