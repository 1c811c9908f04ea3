"""The scene loader, value by value: ids, catalog tokens, numbers, types, outlines,
scene choices, ``[constants]`` and ships, each rejection naming where it failed.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from common import write_scene
from scenefile_support import ROCK, SHIP_A, check_where, json_error, load_toml, toml_error

from tabletop.app.scene.scenefile import (
    MAX_OBJECTS,
    SceneError,
    load_scene,
    parse_scene,
)
from tabletop.obstacles.scene import Obstacle

# -- ids ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        (ROCK + ROCK.replace("coreasteroid0", "coreasteroid3"), "obstacles[1] 'rock'"),
        (SHIP_A + SHIP_A.replace("100, 40", "300, 40"), "ships[1] 'a'"),
        # ships and obstacles share one id space: the ship is the second "rock"
        (ROCK + SHIP_A.replace('"a"', '"rock"'), "ships[0] 'rock'"),
    ],
    ids=["obstacles", "ships", "obstacle-and-ship"],
)
def test_duplicate_id(tmp_path: Path, text: str, entry: str) -> None:
    error, file = toml_error(tmp_path, text)
    check_where(error, file, entry, "id", "duplicate id", "one id space")


@pytest.mark.parametrize("ident", ["5", '""', '"   "', "true"])
def test_id_must_be_a_non_empty_string(tmp_path: Path, ident: str) -> None:
    error, file = toml_error(tmp_path, SHIP_A.replace('"a"', ident))
    check_where(error, file, "ships[0]", "id", "expected a non-empty string")


# -- catalog tokens ----------------------------------------------------------------------


def test_catalog_token_loads_with_the_catalog_kind(tmp_path: Path) -> None:
    scene = load_toml(tmp_path, ROCK + "angle = 30\nflipped = true\nplayer = 2\n")
    rock = scene.obstacles[0]
    assert isinstance(rock, Obstacle)
    assert (rock.id, rock.token, rock.kind, rock.family) == (
        "rock",
        "coreasteroid0",
        "asteroid",
        "core",
    )
    assert (rock.x, rock.y, rock.angle, rock.flipped, rock.player) == (
        457.2,
        457.2,
        30.0,
        True,
        2,
    )


def test_huge_ship_tokens_are_xwing_obstacles(tmp_path: Path) -> None:
    scene = load_toml(tmp_path, ROCK.replace("coreasteroid0", "hugeship-short"))
    token = scene.obstacles[0]
    assert token.kind == "huge-ship"
    # an 80 x 195 rectangle centred on its reference point
    assert token.polygon().bounds == pytest.approx((417.2, 359.7, 497.2, 554.7))


# -- numbers -----------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "+nan"])
def test_toml_non_finite_numbers(tmp_path: Path, value: str) -> None:
    error, file = toml_error(tmp_path, SHIP_A.replace("[100, 40]", f"[{value}, 40]"))
    check_where(error, file, "ships[0] 'a'", "at", "expected a finite number")


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
def test_json_non_finite_numbers_name_the_entry_and_key(tmp_path: Path, value: str) -> None:
    text = f'{{"ships": [{{"id": "a", "base": "small", "at": [100, 40], "heading": {value}}}]}}'
    error, file = json_error(tmp_path, text)
    check_where(error, file, "ships[0] 'a'", "heading", "expected a finite number")


@pytest.mark.parametrize("x", ["1000000.5", "-1000001", "1e7"])
def test_length_beyond_a_million_mm(tmp_path: Path, x: str) -> None:
    error, file = toml_error(tmp_path, SHIP_A.replace("[100, 40]", f"[{x}, 40]"))
    check_where(error, file, "ships[0] 'a'", "at", "within ±10^6 mm")


def test_length_of_exactly_a_million_mm_loads(tmp_path: Path) -> None:
    # a fled ship may be anywhere; ±10^6 itself is within the limit
    scene = load_toml(tmp_path, SHIP_A.replace("[100, 40]", "[1000000, -1000000]"))
    assert (scene.ships[0].x, scene.ships[0].y) == (1.0e6, -1.0e6)


def test_huge_integer_toml(tmp_path: Path) -> None:
    # TOML readers hand back arbitrary-size integers: 10^30 is a number, just too long
    big = "1" + "0" * 30
    error, file = toml_error(tmp_path, SHIP_A.replace("[100, 40]", f"[{big}, 40]"))
    check_where(error, file, "ships[0] 'a'", "at", "within ±10^6 mm")


@pytest.mark.parametrize("suffix", ["scene.toml", "scene.json"])
def test_integer_that_does_not_fit_a_float(tmp_path: Path, suffix: str) -> None:
    big = "1" + "0" * 400
    if suffix.endswith(".toml"):
        path = write_scene(tmp_path, SHIP_A.replace("[100, 40]", f"[100, {big}]"), suffix)
    else:
        text = f'{{"ships": [{{"id": "a", "base": "small", "at": [100, {big}]}}]}}'
        path = write_scene(tmp_path, text, suffix)
    with pytest.raises(SceneError) as info:
        load_scene(path)
    check_where(info.value, str(path), "ships[0] 'a'", "at", "fits a 64-bit float", "401 digits")


def test_integer_too_long_to_read_at_all(tmp_path: Path) -> None:
    # beyond Python's 4300-digit conversion limit the parser itself gives up: a file error
    big = "1" + "0" * 5000
    error, file = toml_error(tmp_path, SHIP_A.replace("[100, 40]", f"[100, {big}]"))
    check_where(error, file, None, None, "not valid TOML")


# -- wrong types -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "key", "expected"),
    [
        ('at = ["100", 40]', "at", "expected a number, got '100'"),
        ("at = [true, 40]", "at", "expected a number, got true"),
        ("at = [100, 40, 0]", "at", "expected a pair of numbers [x, y]"),
        ("at = 100", "at", "expected a pair of numbers [x, y]"),
        ("at = { x = 100, y = 40 }", "at", "expected a pair of numbers [x, y]"),
        ('heading = "north"', "heading", "expected a number, got 'north'"),
        ("heading = false", "heading", "expected a number, got false"),
        ("base = 5", "base", "expected a base name, got 5"),
        ('base = "tiny"', "base", "unknown base 'tiny' for xwing2"),
        ('base = "squadron"', "base", "unknown base 'squadron' for xwing2"),
    ],
)
def test_wrong_ship_types(tmp_path: Path, line: str, key: str, expected: str) -> None:
    lines = [ln for ln in SHIP_A.splitlines() if not ln.startswith(key + " ")]
    error, file = toml_error(tmp_path, "\n".join([*lines, line, ""]))
    check_where(error, file, "ships[0] 'a'", key, expected)


@pytest.mark.parametrize(
    ("line", "key", "expected"),
    [
        ("angle = true", "angle", "expected a number, got true"),
        ('angle = "30"', "angle", "expected a number, got '30'"),
        ("flipped = 1", "flipped", "expected true or false, got 1"),
        ('flipped = "yes"', "flipped", "expected true or false, got 'yes'"),
        ("token = 5", "token", "expected a catalog token name, got 5"),
    ],
)
def test_wrong_obstacle_types(tmp_path: Path, line: str, key: str, expected: str) -> None:
    lines = [ln for ln in textwrap.dedent(ROCK).splitlines() if not ln.startswith(key + " ")]
    error, file = toml_error(tmp_path, "\n".join([*lines, line, ""]))
    check_where(error, file, "obstacles[0] 'rock'", key, expected)


def test_a_long_value_is_abridged_in_the_message(tmp_path: Path) -> None:
    text = SHIP_A.replace("[100, 40]", "[" + ", ".join(["1"] * 5000) + "]")
    error, file = toml_error(tmp_path, text)
    check_where(error, file, "ships[0] 'a'", "at", "expected a pair of numbers", "...")
    assert len(error.message) < 200


# -- outlines ----------------------------------------------------------------------------


def outline_text(points: str) -> str:
    return f"""
    [[obstacles]]
    id = "home"
    outline = {points}
    at = [450, 450]
    """


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        ("[[0, 0], [10, 10], [10, 0], [0, 10]]", "simple polygon"),  # bow-tie
        ("[[0, 0], [10, 0]]", "at least three [x, y] points"),
        ("[]", "at least three [x, y] points"),
        ("[[0, 0], [10, 0], [20, 0]]", "simple polygon"),  # zero area, collinear
        ("[[0, 0], [0, 0], [0, 0]]", "simple polygon"),  # zero area, one point
        ('"triangle"', "at least three [x, y] points"),
        ("[[0, 0], [10, 0], [0]]", "pair of numbers [x, y]"),
    ],
    ids=["bow-tie", "two-points", "empty", "collinear", "one-point", "string", "short-point"],
)
def test_outline_not_a_simple_polygon(tmp_path: Path, points: str, expected: str) -> None:
    error, file = toml_error(tmp_path, outline_text(points))
    check_where(error, file, "obstacles[0] 'home'", "outline", expected)


def test_outline_loads_counter_clockwise_with_default_kind(tmp_path: Path) -> None:
    # given clockwise: stored counter-clockwise, the same triangle
    scene = load_toml(tmp_path, outline_text("[[0, 25], [20, -10], [-20, -10]]"))
    home = scene.obstacles[0]
    assert home.kind == "other"
    assert home.token is None
    assert home.outline.tolist() == [[-20.0, -10.0], [20.0, -10.0], [0.0, 25.0]]
    # area 0.5 * 40 * 35 = 700, placed with its origin at (450, 450)
    assert home.polygon().area == pytest.approx(700.0)
    assert home.polygon().bounds == pytest.approx((430.0, 440.0, 470.0, 475.0))


def test_outline_kind(tmp_path: Path) -> None:
    scene = load_toml(tmp_path, outline_text("[[0, 0], [10, 0], [0, 10]]") + 'kind = "gas"\n')
    assert scene.obstacles[0].kind == "gas"
    error, file = toml_error(
        tmp_path, outline_text("[[0, 0], [10, 0], [0, 10]]") + 'kind = "lava"\n'
    )
    check_where(error, file, "obstacles[0] 'home'", "kind", "'asteroid'", "'other'", "'lava'")


# -- scene-level choices -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "key", "expected"),
    [
        ('ruleset = "xwing3"', "ruleset", "'xwing2', 'xwing1', 'armada'"),
        ("ruleset = 2", "ruleset", "got 2"),
        ('phase = "combat"', "phase", "'setup', 'play'"),
        ('format = "casual"', "format", "'standard', 'tournament'"),
        ('area = "4x4ft"', "area", "unknown area preset '4x4ft'"),
        ("area = 914.4", "area", "a preset name or a table"),
    ],
)
def test_unknown_scene_choice(tmp_path: Path, line: str, key: str, expected: str) -> None:
    error, file = toml_error(tmp_path, line + "\n" + SHIP_A)
    check_where(error, file, None, key, expected)


@pytest.mark.parametrize(
    ("area", "key", "expected"),
    [
        ("{ width = 914.4 }", "area", "exactly width and height"),
        ("{ width = 914.4, height = 914.4, depth = 5 }", "area", "exactly width and height"),
        ("{ width = -1, height = 900 }", "area", "positive length"),
        ("{ width = 0, height = 900 }", "area", "positive length"),
        ('{ width = "wide", height = 900 }', "area", "expected a number in mm"),
        ("{ width = true, height = 900 }", "area", "expected a number in mm"),
        ("{ width = nan, height = 900 }", "area.width", "expected a finite number"),
        ("{ width = 900, height = 2e6 }", "area.height", "within ±10^6 mm"),
        ("{ width = 1" + "0" * 400 + ", height = 900 }", "area.width", "fits a 64-bit float"),
    ],
)
def test_bad_area_table(tmp_path: Path, area: str, key: str, expected: str) -> None:
    error, file = toml_error(tmp_path, f"area = {area}\n" + SHIP_A)
    check_where(error, file, None, key, expected)


def test_area_presets_and_defaults(tmp_path: Path) -> None:
    assert load_toml(tmp_path, SHIP_A).area.width == 914.4  # xwing2: 3x3ft
    armada = load_toml(tmp_path, 'ruleset = "armada"\n')
    assert (armada.area.width, armada.area.height, armada.area.name) == (1828.8, 914.4, "6x3ft")
    cm = load_toml(tmp_path, 'ruleset = "armada"\narea = "180x90cm"\n').area
    assert (cm.width, cm.height) == (1800.0, 900.0)
    table = load_toml(tmp_path, "area = { width = 1200, height = 600.5 }\n").area
    assert (table.width, table.height, table.name) == (1200.0, 600.5, None)


def test_scene_defaults(tmp_path: Path) -> None:
    scene = load_toml(tmp_path, "")
    assert (scene.ruleset.name, scene.phase, scene.format) == ("xwing2", "setup", "standard")
    assert (scene.obstacles, scene.ships) == ((), ())
    played = load_toml(tmp_path, 'ruleset = "xwing1"\nphase = "play"\nformat = "tournament"\n')
    assert (played.ruleset.name, played.phase, played.format) == ("xwing1", "play", "tournament")


def test_too_many_objects() -> None:
    ships = [{"id": f"s{i}", "base": "small", "at": [100, 40]} for i in range(MAX_OBJECTS + 1)]
    with pytest.raises(SceneError) as info:
        parse_scene({"ships": ships}, "big.json")
    check_where(info.value, "big.json", None, None, f"at most {MAX_OBJECTS} objects")


# -- [constants] -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "key", "expected"),
    [
        ("range_bands = [1, 2, 3, 4, 5]", "constants.range_bands", "unknown constant"),
        (
            "armada_distance_bands = [76.0, 125.0, 185.0, 245.0]",
            "constants.armada_distance_bands",
            "expected a list of 5 numbers",
        ),
        (
            "armada_range_bands = [200.0, 150.0, 304.8]",
            "constants.armada_range_bands",
            "increasing",
        ),
        (
            'xwing_range_bands = [100, 200, "300", 400, 500]',
            "constants.xwing_range_bands",
            "expected a number",
        ),
        (
            "xwing_arc_half_angles = { small = 40, medium = 41, large = 42 }",
            "constants.xwing_arc_half_angles",
            "exactly the keys small, medium, large, huge",
        ),
        ("contested_within = -1", "constants.contested_within", "at least 0"),
        ("contested_within = [1]", "constants.contested_within", "expected a number"),
        ("contested_within = nan", "constants.contested_within", "expected a finite number"),
        ("xwing_obstacle_edge = 2e6", "constants.xwing_obstacle_edge", "within ±10^6"),
        (
            "xwing_range_bands = [100, 200, 300, 400, 1" + "0" * 400 + "]",
            "constants.xwing_range_bands[4]",
            "fits a 64-bit float",
        ),
    ],
)
def test_bad_constants(tmp_path: Path, table: str, key: str, expected: str) -> None:
    error, file = toml_error(tmp_path, f"[constants]\n{table}\n")
    check_where(error, file, None, key, expected)


def test_constants_override_the_ruleset(tmp_path: Path) -> None:
    text = """
    ruleset = "armada"
    [constants]
    armada_distance_bands = [76.0, 125.0, 185.0, 245.0, 304.8]
    armada_squadron_diameter = 32
    """
    scene = load_toml(tmp_path, text)
    assert scene.ruleset.armada_distance_bands == (76.0, 125.0, 185.0, 245.0, 304.8)
    assert scene.ruleset.base_sizes["squadron"] == (32.0, 32.0)
    assert scene.constants["armada_squadron_diameter"] == 32


# -- ships -------------------------------------------------------------------------------


def test_default_headings_by_player(tmp_path: Path) -> None:
    text = (
        SHIP_A
        + """
    [[ships]]
    id = "b"
    base = "small"
    at = [100, 870]
    player = 2

    [[ships]]
    id = "c"
    base = "medium"
    at = [300, 870]
    player = 2
    heading = -90

    [[ships]]
    id = "d"
    base = "large"
    at = [500, 50]
    heading = 450
    """
    )
    scene = load_toml(tmp_path, text)
    a, b, c, d = scene.ships
    assert (a.player, a.heading, a.hull) == (1, 90.0, None)
    assert (b.player, b.heading) == (2, 270.0)
    assert (c.player, c.heading) == (2, 270.0)
    assert (d.player, d.heading) == (1, 90.0)


@pytest.mark.parametrize("player", ["0", "3", '"2"', "true", "1.0", "[1]"])
def test_bad_player(tmp_path: Path, player: str) -> None:
    error, file = toml_error(tmp_path, SHIP_A + f"player = {player}\n")
    check_where(error, file, "ships[0] 'a'", "player", "expected 1 or 2")


def test_armada_ships_load(tmp_path: Path) -> None:
    text = """
    ruleset = "armada"
    [[ships]]
    id = "vic"
    base = "medium"
    hull = "victory"
    at = [800, 80]
    [[ships]]
    id = "sq"
    base = "squadron"
    at = [950, 150]
    player = 2
    """
    vic, sq = load_toml(tmp_path, text).ships
    assert (vic.base, vic.hull, vic.heading) == ("medium", "victory", 90.0)
    assert (sq.base, sq.hull, sq.heading, sq.is_squadron) == ("squadron", None, 270.0, True)
