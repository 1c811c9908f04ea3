"""``tabletop measure`` (and ``report``) against ``cli.md``: fields, values, exit codes.

The scenes are small and built by hand, so every number below is worked out on paper:
X-Wing small bases are 40 mm squares, Armada small bases 43 x 71 mm, squadrons 31 mm
disks; a 3-4-5 triangle between two base corners gives a unique pair of closest points.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from common import run, run_json, scene_file, ships

from tabletop.app.scene.scenefile import load_scene
from tabletop.obstacles.measuring import measure

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.toml"))


@pytest.fixture
def xwing_pair(tmp_path: Path) -> str:
    # a: base 80..120 x 80..120; b: base 210..250 x 240..280. Closest: corner (120, 120)
    # to corner (210, 240), 90 across and 120 up: 150 mm, range 2.
    return scene_file(
        tmp_path, ships("xwing2", ("a", "small", 100, 100, 90), ("b", "small", 230, 260, 90))
    )


@pytest.fixture
def xwing_in_line(tmp_path: Path) -> str:
    # both face up: b (edge y = 270) is 150 mm ahead of a (edge y = 120), a behind b
    return scene_file(
        tmp_path, ships("xwing2", ("a", "small", 100, 100, 90), ("b", "small", 100, 290, 90))
    )


@pytest.fixture
def xwing_face_to_face(tmp_path: Path) -> str:
    # a faces up from y = 100 (front edge y = 120); b faces down from y = 290 (edge 270):
    # 150 mm apart, b straight ahead of a, a straight behind b.
    text = ships("xwing2", ("a", "small", 100, 100, 90), ("b", "small", 100, 290, 270))
    text += '[[obstacles]]\nid = "rock"\ntoken = "coreasteroid0"\nat = [600, 600]\n'
    return scene_file(tmp_path, text)


# -- measure --json: fields and values ---------------------------------------------------


def test_xwing_measure_json(xwing_pair: str) -> None:
    data = run_json("measure", xwing_pair, "a", "b", "--json")
    assert data["from"] == "a"
    assert data["to"] == "b"
    assert data["distance"] == 150.0
    assert data["band"] == 2
    assert data["contested"] is False
    assert data["points"] == [[120.0, 120.0], [210.0, 240.0]]
    # 150 is 50 from both the 100 and the 200 line; margin = line - distance
    assert abs(data["margin"]) == 50.0
    assert data["margin"] == data["nearest_line"] - 150.0
    assert "distance_band" not in data
    assert "range_band" not in data
    assert "arc" not in data


def test_xwing_measure_the_other_way(xwing_pair: str) -> None:
    data = run_json("measure", xwing_pair, "b", "a", "--json")
    assert (data["from"], data["to"], data["distance"], data["band"]) == ("b", "a", 150.0, 2)
    assert data["points"] == [[210.0, 240.0], [120.0, 120.0]]


@pytest.mark.parametrize(
    ("ruleset", "gap", "band", "contested", "margin"),
    [
        ("xwing2", 0.0, 0, True, 0.0),  # touching: range 0, on touching's own line
        ("xwing2", 1.5, 1, False, 98.5),
        ("xwing1", 0.0, 1, False, 100.0),  # 1st edition counts touching as range 1
        ("xwing2", 99.5, 1, True, 0.5),
        ("xwing2", 200.0, 2, True, 0.0),  # exactly on the line: the shorter band
        ("xwing2", 200.5, 3, True, -0.5),
        ("xwing2", 301.5, 4, False, -1.5),
        ("xwing2", 500.0, 5, True, 0.0),
        ("xwing2", 520.0, None, False, -20.0),  # beyond range 5: null
    ],
)
def test_xwing_bands_on_a_straight_line(
    tmp_path: Path, ruleset: str, gap: float, band: int | None, contested: bool, margin: float
) -> None:
    # a faces b's rear edge square on: the bases are `gap` apart along y
    far_y = 100 + 40 + gap
    path = scene_file(
        tmp_path, ships(ruleset, ("a", "small", 100, 100, 90), ("b", "small", 100, far_y, 90))
    )
    data = run_json("measure", path, "a", "b", "--json")
    assert data["distance"] == gap
    assert data["band"] == band
    assert data["contested"] is contested
    assert data["margin"] == margin
    # the edges face each other: the closest points lie on them, straight across
    (x0, y0), (x1, y1) = data["points"]
    assert (y0, y1, x0) == (120.0, 120.0 + gap, x1)


def test_armada_ships_measure_json(tmp_path: Path) -> None:
    # small bases 43 x 71 heading 90: a spans x 478.5..521.5, y 264.5..335.5; b's
    # bottom-left corner is (611.5, 455.5): 90 across, 120 up, 150 mm. Distance 3
    # (124.5 < 150 <= 185), medium range (123.5 < 150 <= 187); nearest line 124.5.
    path = scene_file(
        tmp_path, ships("armada", ("a", "small", 500, 300, 90), ("b", "small", 633, 491, 90))
    )
    data = run_json("measure", path, "a", "b", "--json")
    assert data["distance"] == 150.0
    assert data["distance_band"] == 3
    assert data["range_band"] == "medium"
    assert data["contested"] is False
    assert data["points"] == [[521.5, 335.5], [611.5, 455.5]]
    assert (data["nearest_line"], data["margin"]) == (124.5, -25.5)
    assert "band" not in data


@pytest.mark.parametrize(
    ("centres", "distance", "distance_band", "range_band", "contested"),
    [
        (31.0, 0.0, 1, "close", False),  # disks touching
        (91.0, 60.0, 1, "close", False),
        (155.0, 124.0, 2, "medium", True),  # between the 123.5 and 124.5 lines
        (216.0, 185.0, 3, "medium", True),  # exactly on the distance-3 line
        (250.0, 219.0, 4, "long", False),
        (335.8, 304.8, 5, "long", True),  # the end of the ruler
        (341.0, 310.0, None, None, False),  # beyond it: null, null
    ],
)
def test_armada_squadron_bands(
    tmp_path: Path,
    centres: float,
    distance: float,
    distance_band: int | None,
    range_band: str | None,
    contested: bool,
) -> None:
    # squadron disks of radius 15.5: distance = centre distance - 31
    path = scene_file(
        tmp_path,
        ships("armada", ("s", "squadron", 300, 300, 90), ("t", "squadron", 300 + centres, 300, 90)),
    )
    data = run_json("measure", path, "s", "t", "--json")
    assert data["distance"] == pytest.approx(distance, abs=1e-6)
    assert data["distance_band"] == distance_band
    assert data["range_band"] == range_band
    assert data["contested"] is contested
    assert data["points"] == [
        pytest.approx([315.5, 300.0]),
        pytest.approx([315.5 + distance, 300.0]),
    ]


def test_armada_constants_move_the_bands(tmp_path: Path) -> None:
    # the same 150 mm, with an event's own rulers: distance 3 ends at 149.0 now
    text = ships("armada", ("a", "small", 500, 300, 90), ("b", "small", 633, 491, 90))
    text = text.replace(
        'ruleset = "armada"',
        'ruleset = "armada"\n[constants]\n'
        "armada_distance_bands = [76.0, 125.0, 149.0, 245.0, 304.8]\n",
    )
    data = run_json("measure", scene_file(tmp_path, text), "a", "b", "--json")
    assert (data["distance"], data["distance_band"], data["contested"]) == (150.0, 4, True)


def test_measure_to_an_obstacle(tmp_path: Path) -> None:
    # a custom square obstacle 20 x 20 around (300, 100); a's right edge is x = 120
    text = ships("xwing2", ("a", "small", 100, 100, 90))
    text += textwrap.dedent(
        """
        [[obstacles]]
        id = "box"
        outline = [[-10, -10], [10, -10], [10, 10], [-10, 10]]
        at = [300, 100]
        """
    )
    data = run_json("measure", scene_file(tmp_path, text), "a", "box", "--json")
    assert (data["distance"], data["band"], data["contested"]) == (170.0, 2, False)
    assert data["points"][0][0] == 120.0
    assert data["points"][1][0] == 290.0


# -- --arc -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arc", "in_arc"),
    [
        ("front", True),
        ("bullseye", True),
        ("full-front", True),
        ("rear", False),
        ("full-rear", False),
        ("left", False),
        ("right", False),
    ],
)
def test_xwing_arc_fields(xwing_face_to_face: str, arc: str, in_arc: bool) -> None:
    data = run_json("measure", xwing_face_to_face, "a", "b", "--arc", arc, "--json")
    assert data["arc"] == arc
    assert data["in_arc"] is in_arc
    # b is wholly ahead of a, so the attack range is the plain distance; out of the arc
    # the plain distance is reported too
    assert (data["distance"], data["band"], data["contested"]) == (150.0, 2, False)


def test_xwing_target_behind_reports_the_plain_distance(xwing_in_line: str) -> None:
    # a is behind b: not in b's front arc, in its rear arc
    plain = run_json("measure", xwing_in_line, "b", "a", "--json")
    front = run_json("measure", xwing_in_line, "b", "a", "--arc", "front", "--json")
    rear = run_json("measure", xwing_in_line, "b", "a", "--arc", "rear", "--json")
    assert (front["in_arc"], rear["in_arc"]) == (False, True)
    assert front["distance"] == plain["distance"] == rear["distance"] == 150.0
    assert front["band"] == plain["band"] == 2


def test_xwing_attack_range_to_the_in_arc_part(tmp_path: Path) -> None:
    # b (base 200..240 x 120..160) lies to the right of a (centre (100, 100)). a's
    # front-arc line on that side is the ray at 90 - 40.62 = 49.38 degrees; b's steepest
    # corner (200, 160) is at atan(60 / 100) = 30.96 degrees, below it: no part of b is in
    # the front arc, all of it in the right arc (which reaches down to -49.38 degrees).
    path = scene_file(
        tmp_path, ships("xwing2", ("a", "small", 100, 100, 90), ("b", "small", 220, 140, 90))
    )
    front = run_json("measure", path, "a", "b", "--arc", "front", "--json")
    right = run_json("measure", path, "a", "b", "--arc", "right", "--json")
    # plain distance: a's right edge x = 120 to b's left edge x = 200: 80
    assert (front["in_arc"], front["distance"], front["band"]) == (False, 80.0, 1)
    assert (right["in_arc"], right["distance"], right["band"]) == (True, 80.0, 1)


def test_armada_arc_fields(tmp_path: Path) -> None:
    # b straight ahead of a's front hull zone
    path = scene_file(
        tmp_path, ships("armada", ("a", "small", 500, 300, 90), ("b", "small", 500, 550, 270))
    )
    data = run_json("measure", path, "a", "b", "--arc", "front", "--json")
    assert (data["arc"], data["in_arc"]) == ("front", True)
    assert "distance_band" in data
    assert "range_band" in data
    assert "band" not in data
    rear = run_json("measure", path, "a", "b", "--arc", "rear", "--json")
    assert rear["in_arc"] is False


# -- options anywhere after the subcommand -----------------------------------------------


def test_options_anywhere(xwing_face_to_face: str) -> None:
    s = xwing_face_to_face
    expected = run_json("measure", s, "a", "b", "--json")
    assert run_json("measure", "--json", s, "a", "b") == expected
    assert run_json("measure", s, "a", "--json", "b") == expected
    with_arc = run_json("measure", s, "a", "b", "--arc", "front", "--json")
    assert run_json("measure", s, "--arc", "front", "a", "b", "--json") == with_arc
    assert run_json("measure", "--json", "--arc", "front", s, "a", "b") == with_arc
    assert run_json("measure", s, "--arc=front", "--json", "a", "b") == with_arc


# -- human report ------------------------------------------------------------------------


def test_human_report(tmp_path: Path) -> None:
    # corner (120, 120) to corner (222, 256): 102 across, 136 up, 170 mm (3-4-5 x 34)
    path = scene_file(
        tmp_path, ships("xwing2", ("a", "small", 100, 100, 90), ("b", "small", 242, 276, 90))
    )
    code, out, err = run("measure", path, "a", "b")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "a to b"
    assert "  distance:   170.0 mm" in lines
    assert "  band:       range 2" in lines
    assert "  margin:     30.0 mm inside the 200.0 mm line" in lines
    assert "  contested:  no" in lines
    assert "  closest:    (120.0, 120.0) to (222.0, 256.0)" in lines


def test_human_report_contested_and_beyond(tmp_path: Path) -> None:
    # straight across: b's rear edge at 340.6 - 20 = 320.6, 200.6 mm from a's front edge
    # (120): range 3, 0.6 beyond the 200 line, contested
    path = scene_file(
        tmp_path, ships("xwing2", ("a", "small", 100, 100, 90), ("b", "small", 100, 340.6, 90))
    )
    code, out, _ = run("measure", path, "a", "b")
    assert code == 0
    assert "  distance:   200.6 mm" in out
    assert "  band:       range 3" in out
    assert "  margin:     0.6 mm beyond the 200.0 mm line" in out
    assert "  contested:  YES" in out


def test_human_report_armada(tmp_path: Path) -> None:
    path = scene_file(
        tmp_path, ships("armada", ("a", "small", 500, 300, 90), ("b", "small", 633, 491, 90))
    )
    code, out, _ = run("measure", path, "a", "b")
    assert code == 0
    assert "  distance:   150.0 mm" in out
    assert "  band:       distance 3, medium range" in out
    assert "  margin:     25.5 mm beyond the 124.5 mm line" in out
    assert "  contested:  no" in out


def test_human_report_with_arc(xwing_in_line: str) -> None:
    code, out, _ = run("measure", xwing_in_line, "b", "a", "--arc", "front")
    assert code == 0
    assert out.splitlines()[0] == "b to a, from the front arc"
    assert "NOT in arc" in out
    assert "  distance:   150.0 mm" in out


# -- bad input: exit 2, stdout empty or one JSON error line, never a traceback -----------


def bad_cases(tmp_path: Path) -> list[tuple[list[str], str | None]]:
    """(argv without --json, the expected `where` or None) for input that cannot be used."""
    good = scene_file(
        tmp_path,
        ships("xwing2", ("a", "small", 100, 100, 90), ("b", "small", 100, 290, 270))
        + '[[obstacles]]\nid = "rock"\ntoken = "coreasteroid0"\nat = [600, 600]\n',
    )
    broken = scene_file(tmp_path, '[[ships]]\nid = "a"\nbase = "tiny"\nat = [1, 2]\n', "bad.toml")
    huge = scene_file(tmp_path, "area = { width = 1" + "0" * 400 + ", height = 9 }\n", "h.toml")
    nan = scene_file(
        tmp_path, '{"ships": [{"id": "a", "base": "small", "at": [NaN, 1]}]}', "nan.json"
    )
    missing = str(tmp_path / "missing.toml")
    return [
        (["measure", missing, "a", "b"], missing),
        (["measure", str(tmp_path / "scene.yaml"), "a", "b"], str(tmp_path / "scene.yaml")),
        (["measure", broken, "a", "b"], f"{broken}: ships[0] 'a': key 'base'"),
        (["measure", huge, "a", "b"], f"{huge}: key 'area.width'"),
        (["measure", nan, "a", "b"], f"{nan}: ships[0] 'a': key 'at'"),
        (["measure", good, "a", "zz"], "to 'zz'"),
        (["measure", good, "a", "a"], None),
        (["measure", good, "a", "b", "--arc", "sideways"], None),
        (["measure", good, "rock", "b", "--arc", "front"], None),
        (["measure", good, "a", "rock", "--arc", "front"], None),
        (["measure", good, "a"], None),
        (["measure", good, "a", "b", "c"], None),
        (["measure", good, "a", "b", "--frobnicate"], None),
        (["measure", good, "a", "b", "--arc"], None),
        (["measure"], None),
        (["teleport", good], None),
    ]


def test_bad_input_exits_2_with_the_message_on_stderr(tmp_path: Path) -> None:
    for argv, where in bad_cases(tmp_path):
        code, out, err = run(*argv)
        assert code == 2, argv
        assert out == "", argv
        assert err.startswith(f"tabletop {argv[0]}: error: "), (argv, err)
        assert err.endswith("\n")
        if where is not None:
            assert where in err, (argv, err)


def test_bad_input_with_json_prints_one_error_object(tmp_path: Path) -> None:
    for argv, where in bad_cases(tmp_path):
        code, out, err = run(*argv, "--json")
        assert code == 2, argv
        assert out.count("\n") == 1, (argv, out)
        data = json.loads(out)
        assert list(data) == ["error"]
        assert sorted(data["error"]) == ["message", "where"]
        message = data["error"]["message"]
        assert isinstance(message, str)
        assert message
        assert data["error"]["where"] == where, argv
        assert message in err  # the same message, for people, on stderr


def test_scene_error_details(tmp_path: Path) -> None:
    path = scene_file(tmp_path, '[[ships]]\nid = "a"\nbase = "tiny"\nat = [1, 2]\n')
    code, out, err = run("measure", path, "a", "b", "--json")
    assert code == 2
    error = json.loads(out)["error"]
    assert error["where"] == f"{path}: ships[0] 'a': key 'base'"
    assert error["message"].startswith("unknown base 'tiny' for xwing2; expected one of: small")
    assert err == f"tabletop measure: error: {error['where']}: {error['message']}\n"


def test_unknown_id_lists_the_ids(xwing_face_to_face: str) -> None:
    code, out, _ = run("measure", xwing_face_to_face, "a", "zz", "--json")
    assert code == 2
    message = json.loads(out)["error"]["message"]
    assert message == "no object with id 'zz'; the scene has: rock, a, b"


def test_help_is_not_an_error(xwing_pair: str) -> None:
    code, out, err = run("measure", "--help")
    assert (code, err) == (0, "")
    assert "--arc" in out
    code, out, err = run()
    assert code == 2
    assert out == ""
    assert "measure" in err


# -- the CLI says what the Python API says -----------------------------------------------


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_cli_json_equals_the_api_on_the_examples(example: Path) -> None:
    scene = load_scene(example)
    assert len(scene.ships) >= 2
    for a, b in itertools.permutations(scene.ships, 2):
        api = measure(scene, a.id, b.id).to_json()
        assert run_json("measure", str(example), a.id, b.id, "--json") == api
        if not a.is_squadron:
            arc_api = measure(scene, a.id, b.id, arc="front").to_json()
            cli = run_json("measure", str(example), a.id, b.id, "--arc", "front", "--json")
            assert cli == arc_api


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_report_json_lists_every_ship_pair(example: Path) -> None:
    scene = load_scene(example)
    data = run_json("report", str(example), "--json")
    assert data["scene"] == str(example)
    pairs = list(itertools.combinations(scene.ships, 2))
    assert len(data["pairs"]) == len(pairs) == len(scene.ships) * (len(scene.ships) - 1) // 2
    for row, (a, b) in zip(data["pairs"], pairs, strict=True):
        assert row == measure(scene, a.id, b.id).to_json()


def test_report_human_table(xwing_pair: str) -> None:
    code, out, err = run("report", xwing_pair)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"{xwing_pair}: xwing2, 2 ships, 0 obstacles"
    row = lines[2].split()
    assert row[:5] == ["a", "b", "150.0", "range", "2"]
    assert row[-1] == "-"


# -- real processes ----------------------------------------------------------------------

VENV_BIN = Path(sys.executable).parent


def test_console_script(xwing_pair: str) -> None:
    done = subprocess.run(
        [str(VENV_BIN / "tabletop"), "measure", "--json", xwing_pair, "a", "b"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    data = json.loads(done.stdout)
    assert (data["distance"], data["band"]) == (150.0, 2)


def test_python_m_tabletop_bad_input(tmp_path: Path) -> None:
    path = scene_file(tmp_path, 'ruleset = "xwing2"\ncolour = "red"\n')
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "measure", path, "a", "b", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stdout.count("\n") == 1
    error = json.loads(done.stdout)["error"]
    assert error["where"] == f"{path}: key 'colour'"
    assert error["message"].startswith("unknown key; expected only: ruleset")
    assert done.stderr == f"tabletop measure: error: {error['where']}: {error['message']}\n"


# -- a crash the scene fuzz once found: an arc half-angle of 0, 90, 180 or 360 degrees


@pytest.mark.parametrize("angle", [0, 90, 180, 360])
def test_measure_with_an_arc_half_angle_of(tmp_path: Path, angle: float) -> None:
    path = tmp_path / "arcs.toml"
    path.write_text(
        "[constants]\n"
        "xwing_arc_half_angles = { small = 40.62, medium = 41.4, large = "
        f"{angle}, huge = 41.45 }}\n"
        '[[ships]]\nid = "a"\nbase = "small"\nat = [100, 40]\n'
        '[[ships]]\nid = "b"\nbase = "large"\nat = [300, 40]\n',
        encoding="utf-8",
    )
    for arc in ("front", "left"):
        code, _, err = run("measure", str(path), "b", "a", "--arc", arc, "--json")
        assert code in (0, 2), err
