"""`measure` to a line of the table: ``edge:NAME`` and Armada's ``setup:NAME`` (issue 14.11).

Worked by hand: a small X-Wing base (40 mm, no guides counted) centred at y gives
``914.4 - (y + 20)`` to the top edge; an Armada small base (43 x 71 mm) at heading 0 faces
along x, its 71 mm along x, so at x it is ``x - 35.5 - 304.8`` from the left setup line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from common import run, run_json, scene_file

from tabletop.obstacles.measuring import EDGE_TARGETS


def _xwing(tmp_path: Path, y: float) -> str:
    return scene_file(
        tmp_path,
        f"""
        ruleset = "xwing2"
        area = "3x3ft"
        [[ships]]
        id = "a"
        base = "small"
        at = [300.0, {y!r}]
        heading = 90.0
        """,
    )


@pytest.mark.parametrize(
    ("y", "distance", "band", "contested"),
    [
        (794.4, 100.0, 1, True),  # on the range-1 line: range 1
        (794.3999, 100.0001, 2, True),  # just beyond it
        (794.4001, 99.9999, 1, True),  # just inside
        (600.0, 294.4, 3, False),
        (894.4, 0.0, 0, True),  # touching the edge: range 0 in 2.0, on its line (touching)
    ],
)
def test_distance_to_the_top_edge(
    tmp_path: Path, y: float, distance: float, band: int, contested: bool
) -> None:
    data = run_json("measure", _xwing(tmp_path, y), "a", "edge:top", "--json")
    assert data["to"] == "edge:top"
    assert data["distance"] == pytest.approx(distance, abs=1e-6)
    assert data["band"] == band
    assert data["contested"] is contested
    assert data["points"][1][1] == pytest.approx(914.4)


def test_from_an_edge_to_an_object_is_the_same_length(tmp_path: Path) -> None:
    scene = _xwing(tmp_path, 500.0)
    there = run_json("measure", scene, "a", "edge:bottom", "--json")
    back = run_json("measure", scene, "edge:bottom", "a", "--json")
    assert there["distance"] == back["distance"] == pytest.approx(480.0)
    assert back["points"] == there["points"][::-1]


def test_an_object_past_the_edge_measures_zero(tmp_path: Path) -> None:
    data = run_json("measure", _xwing(tmp_path, 910.0), "a", "edge:top", "--json")
    assert data["distance"] == 0.0


def _armada(tmp_path: Path, x: float) -> str:
    return scene_file(
        tmp_path,
        f"""
        ruleset = "armada"
        area = "6x3ft"
        [[ships]]
        id = "ship"
        base = "small"
        at = [{x!r}, 450.0]
        heading = 0.0
        """,
    )


@pytest.mark.parametrize(
    ("x", "distance", "distance_band"),
    [
        (416.8, 76.5, 1),  # on the distance-1 line
        (416.80001, 76.50001, 2),
        (416.79999, 76.49999, 1),
    ],
)
def test_distance_to_the_armada_setup_line(
    tmp_path: Path, x: float, distance: float, distance_band: int
) -> None:
    scene = _armada(tmp_path, x)
    data = run_json("measure", scene, "ship", "setup:left", "--json")
    assert data["distance"] == pytest.approx(distance, abs=1e-6)
    assert data["distance_band"] == distance_band
    assert data["points"][1][0] == pytest.approx(304.8)


def test_a_setup_line_on_an_xwing_table_is_refused_naming_the_edge(tmp_path: Path) -> None:
    code, out, _ = run("measure", _xwing(tmp_path, 500.0), "a", "setup:left", "--json")
    assert code == 2
    message = json.loads(out)["error"]["message"]
    assert "Armada's setup area" in message
    assert "'edge:left'" in message


def test_an_unknown_line_lists_the_lines(tmp_path: Path) -> None:
    code, out, _ = run("measure", _xwing(tmp_path, 500.0), "a", "edge:north", "--json")
    assert code == 2
    error = json.loads(out)["error"]
    assert error["where"] == "to 'edge:north'"
    for name in EDGE_TARGETS:
        assert name in error["message"]


def test_an_arc_to_a_line_is_refused(tmp_path: Path) -> None:
    code, out, _ = run("measure", _xwing(tmp_path, 500.0), "a", "edge:top", "--arc", "front")
    assert code == 2
    assert out == ""


def test_an_object_named_like_a_line_is_that_object(tmp_path: Path) -> None:
    scene = scene_file(
        tmp_path,
        """
        ruleset = "xwing2"
        area = "3x3ft"
        [[ships]]
        id = "a"
        base = "small"
        at = [300.0, 300.0]
        [[ships]]
        id = "edge:top"
        base = "small"
        at = [300.0, 440.0]
        """,
    )
    data = run_json("measure", scene, "a", "edge:top", "--json")
    assert data["distance"] == pytest.approx(100.0)


def test_unknown_id_names_its_role(tmp_path: Path) -> None:
    scene = _xwing(tmp_path, 500.0)
    for argv, where in ((("nobody", "a"), "from 'nobody'"), (("a", "nobody"), "to 'nobody'")):
        code, out, _ = run("measure", scene, *argv, "--json")
        assert code == 2
        assert json.loads(out)["error"]["where"] == where
