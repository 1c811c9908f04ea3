"""What a dispute's close-up says: both pieces named, the rule's own line, the ruling under it.

The scenes are test_render_dispute's: two huge-ship tokens corner to corner, 99.6 mm apart
(0.4 mm inside the 100 mm obstacle spacing: a violation) or 100.4 mm (legal by 0.4 mm).
Read back from the SVG (text is written as text).
"""

from __future__ import annotations

import re
from pathlib import Path

from common import run_json, scene_file
from test_render_dispute import LEGAL, SCENE, VIOLATION


def _svg(tmp_path: Path, gap: dict[str, float], *extra: str) -> str:
    scene = scene_file(tmp_path, SCENE.format(**gap))
    out = tmp_path / "dispute.svg"
    run_json("render", scene, "-o", out, "--around", "wall1", "wall2", *extra, "--json", "--force")
    return out.read_text("utf-8")


def _group(svg: str, gid: str) -> str:
    """The text drawn in the group `gid` (its <text> elements joined by spaces)."""
    start = svg.index(f'<g id="{gid}">')
    depth, at = 0, start
    for match in re.finditer(r"<g\b|</g>", svg[start:]):
        depth += 1 if match.group() == "<g" else -1
        if depth == 0:
            at = start + match.end()
            break
    return " ".join(re.findall(r">([^<>]+)</text>", svg[start:at]))


def test_a_violation_states_check_s_sentence_under_the_picture(tmp_path: Path) -> None:
    svg = _svg(tmp_path, VIOLATION)
    ruling = _group(svg, "ruling")
    assert ruling.startswith("Ruling: wall1 is 99.6 mm from wall2; obstacles must be more than")
    assert "100 mm apart" in ruling
    # The contested call's ruling at the line, as check gives it.
    assert "within 1.0 mm of the 100.0 mm spacing line (0.4 mm inside it)" in ruling


def test_an_obstacle_spacing_dispute_names_its_own_line_and_no_range_band(tmp_path: Path) -> None:
    for gap, verdict in ((VIOLATION, "VIOLATION, contested"), (LEGAL, "legal, contested")):
        notes = _group(_svg(tmp_path, gap), "notes")
        assert "rule: obstacle-spacing" in notes
        assert "placement limit 100.0 mm from wall1" in notes
        assert verdict in notes
        assert "range" not in notes


def test_a_legal_pair_is_ruled_by_the_spacing_it_keeps(tmp_path: Path) -> None:
    ruling = _group(_svg(tmp_path, LEGAL), "ruling")
    assert ruling.startswith(
        "Ruling: wall1 (Huge ship (long, 80 x 225)) and wall2 (Huge ship (long, 80 x 225)): "
        "legal under obstacle-spacing, measured 100.4 mm against the 100.0 mm limit"
    )
    assert "margin +0.4 mm" in ruling


def test_the_distance_and_its_margin_are_printed_at_one_precision(tmp_path: Path) -> None:
    svg = _svg(tmp_path, VIOLATION)
    notes = _group(svg, "notes")
    label = _group(svg, "dimension-label")
    # The number on the line, the notes' distance and its margin: 99.6 = 100 - 0.4.
    assert label == "99.6 mm"
    assert "distance 99.6 mm" in notes
    assert "margin -0.4 mm" in notes


def test_both_pieces_are_framed_and_named_even_when_one_is_off_the_close_up(
    tmp_path: Path,
) -> None:
    # A 5 mm half-width view where the call is, between wall2's corner and the line 100 mm
    # from wall1: wall1's corner, 99.6 mm away, is out of it.
    svg = _svg(tmp_path, VIOLATION, "--zoom", "5")
    off = _group(svg, "wall1-off-view")
    assert off.startswith("wall1 (Huge ship (long, 80 x 225)): ")
    assert off.endswith("mm beyond this edge")
    assert _group(svg, "wall2-end") == "wall2 (Huge ship (long, 80 x 225))"
    # The overview frames both whole, each named, and outlines the close-up.
    for ident in ("wall1", "wall2"):
        assert _group(svg, f"overview-{ident}") == f"{ident} (Huge ship (long, 80 x 225))"
    assert '<g id="view-box">' in svg


def test_an_obstacle_and_an_edge_are_ruled_by_the_edge_limit_legal_or_not(tmp_path: Path) -> None:
    """wall1's bottom edge 205 mm above the bottom edge (centre 317.5 - 112.5): legal by 5 mm."""
    scene = scene_file(
        tmp_path,
        'ruleset = "xwing2"\n[[obstacles]]\nid = "wall1"\ntoken = "hugeship-long"\n'
        "at = [300.0, 317.5]\n",
    )
    out = tmp_path / "edge.svg"
    answer = run_json("render", scene, "-o", out, "--around", "wall1", "edge:bottom", "--json")
    assert answer["line"] == {
        "what": "limit",
        "at": 200.0,
        "from": "wall1",
        "contested_within": 1.0,
    }
    svg = out.read_text("utf-8")
    notes = _group(svg, "notes")
    assert "rule: obstacle-edge" in notes
    assert "distance 205.0 mm" in notes
    assert "margin +5.0 mm" in notes
    assert "range" not in notes
    assert "legal under obstacle-edge, measured 205.0 mm against the 200.0 mm limit" in _group(
        svg, "ruling"
    )
    # In play no placement rule holds: the band line (range 2, at 200 mm) is the question.
    play = scene_file(tmp_path, 'phase = "play"\n' + Path(scene).read_text("utf-8"), "play.toml")
    answer = run_json(
        "render", play, "-o", tmp_path / "play.svg", "--around", "wall1", "edge:bottom", "--json"
    )
    assert answer["line"]["what"] == "band line"
