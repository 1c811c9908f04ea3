"""The scene loader against ``scene-format.md``: every reader rule, with where it failed.

Each rejection test checks the error's parts (file, entry, key) and that its text names
them and says what was expected; each acceptance test checks the loaded values by hand.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest
from common import write_scene

from tabletop.app.scenefile import (
    MAX_FILE_BYTES,
    MAX_OBJECTS,
    SceneError,
    load_scene,
    parse_scene,
    read_scene_data,
)
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.objects import Ship
from tabletop.obstacles.scene import Obstacle, Scene

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.toml"))

SHIP_A = """
[[ships]]
id = "a"
base = "small"
at = [100, 40]
"""

ROCK = """
[[obstacles]]
id = "rock"
token = "coreasteroid0"
at = [457.2, 457.2]
"""


# -- helpers ---------------------------------------------------------------------------


def load_toml(tmp_path: Path, text: str) -> Scene:
    return load_scene(write_scene(tmp_path, text))


def toml_error(tmp_path: Path, text: str) -> tuple[SceneError, str]:
    """Load TOML text that must fail; return the error and the file name it must name."""
    path = write_scene(tmp_path, text)
    with pytest.raises(SceneError) as info:
        load_scene(path)
    return info.value, str(path)


def json_error(tmp_path: Path, text: str) -> tuple[SceneError, str]:
    path = write_scene(tmp_path, text, "scene.json")
    with pytest.raises(SceneError) as info:
        load_scene(path)
    return info.value, str(path)


def check_where(
    error: SceneError, file: str, entry: str | None, key: str | None, *expected: str
) -> None:
    """The error names the file, the entry and the key, and says each expected phrase."""
    assert error.file == file
    assert error.entry == entry
    assert error.key == key
    text = str(error)
    assert text.startswith(file + ": ")
    if entry is not None:
        assert f": {entry}: " in text
    if key is not None:
        assert f"key {key!r}" in text
    for phrase in expected:
        assert phrase in error.message, (phrase, error.message)
    assert isinstance(error, InvalidInputError)
    assert isinstance(error, ValueError)


# -- one table of input errors: each names the file, the entry, the key and says what is expected


#: (id, "toml" or "json", text, entry, key, phrases the message must say)
ERRORS = [
    pytest.param(
        "toml",
        'ruleset = "xwing2"\ncolour = "red"\n' + SHIP_A,
        None,
        "colour",
        ("unknown key", "ruleset", "ships"),
        id="unknown_scene_key",
    ),
    pytest.param(
        "toml",
        ROCK + "size = 3\n",
        "obstacles[0] 'rock'",
        "size",
        ("unknown key", "token", "outline"),
        id="unknown_obstacle_key_names_the_entry_by_id",
    ),
    pytest.param(
        "toml",
        """
    [[obstacles]]
    token = "coreasteroid0"
    at = [457.2, 457.2]
    colour = "grey"
    """,
        "obstacles[0]",
        "colour",
        ("unknown key",),
        id="unknown_obstacle_key_names_the_entry_by_index_without_id",
    ),
    pytest.param(
        "toml",
        SHIP_A + "speed = 3\n",
        "ships[0] 'a'",
        "speed",
        ("unknown key", "heading", "hull"),
        id="unknown_ship_key",
    ),
    pytest.param(
        "toml",
        """
    [[ships]]
    Id = "a"
    base = "small"
    at = [100, 40]
    """,
        "ships[0]",
        "Id",
        ("unknown key",),
        id="a_misspelt_id_key_is_reported_as_unknown",
    ),
    pytest.param(
        "toml",
        ROCK
        + """
    [[obstacles]]
    token = "coreasteroid3"
    at = [200, 700]
    """,
        "obstacles[1]",
        "id",
        ("missing required key", "id"),
        id="missing_obstacle_id",
    ),
    pytest.param(
        "toml",
        """
    [[obstacles]]
    id = "rock"
    token = "coreasteroid0"
    """,
        "obstacles[0] 'rock'",
        "at",
        ("missing required key", "[x, y]"),
        id="missing_obstacle_at",
    ),
    pytest.param(
        "toml",
        SHIP_A
        + """
    [[ships]]
    base = "small"
    at = [300, 40]
    """,
        "ships[1]",
        "id",
        ("missing required key",),
        id="missing_ship_id",
    ),
    pytest.param(
        "toml",
        """
    [[ships]]
    id = "a"
    at = [100, 40]
    """,
        "ships[0] 'a'",
        "base",
        ("missing required key", "small, medium"),
        id="missing_ship_base",
    ),
    pytest.param(
        "toml",
        """
    [[ships]]
    id = "a"
    base = "small"
    """,
        "ships[0] 'a'",
        "at",
        ("missing required key", "[x, y]"),
        id="missing_ship_at",
    ),
    pytest.param(
        "toml",
        ROCK + "outline = [[0, 0], [10, 0], [0, 10]]\n",
        "obstacles[0] 'rock'",
        "outline",
        ("exactly one of", "both"),
        id="both_token_and_outline",
    ),
    pytest.param(
        "toml",
        """
    [[obstacles]]
    id = "rock"
    at = [457.2, 457.2]
    """,
        "obstacles[0] 'rock'",
        "token",
        ("exactly one of", "'outline'"),
        id="neither_token_nor_outline",
    ),
    pytest.param(
        "toml",
        ROCK + 'kind = "gas"\n',
        "obstacles[0] 'rock'",
        "kind",
        ("only with 'outline'",),
        id="kind_with_a_catalog_token",
    ),
    pytest.param(
        "toml",
        ROCK.replace("coreasteroid0", "asteroid-1"),
        "obstacles[0] 'rock'",
        "token",
        ("unknown token 'asteroid-1' for xwing2", "coreasteroid0", "hugeship-long"),
        id="armada_token_in_an_xwing_scene",
    ),
    pytest.param(
        "toml",
        'ruleset = "armada"\n' + ROCK,
        "obstacles[0] 'rock'",
        "token",
        ("unknown token 'coreasteroid0' for armada", "asteroid-1", "station"),
        id="xwing_token_in_an_armada_scene",
    ),
    pytest.param(
        "toml",
        ROCK + "angle = nan\n",
        "obstacles[0] 'rock'",
        "angle",
        ("expected a finite number",),
        id="toml_non_finite_angle",
    ),
    pytest.param(
        "json",
        '{"ships": [{"id": "a", "base": "small", "at": [1e400, 40]}]}',
        "ships[0] 'a'",
        "at",
        ("expected a finite number", "inf"),
        id="json_overflowing_float_literal_is_infinite",
    ),
    pytest.param(
        "toml",
        """
    [[obstacles]]
    id = "far"
    outline = [[0, 0], [2000000, 0], [0, 10]]
    at = [450, 450]
    """,
        "obstacles[0] 'far'",
        "outline",
        ("within ±10^6 mm",),
        id="outline_vertex_beyond_a_million_mm",
    ),
    pytest.param(
        "toml",
        SHIP_A + "heading = 3600000\n",
        "ships[0] 'a'",
        "heading",
        ("within ±10^6",),
        id="angle_beyond_a_million",
    ),
    pytest.param(
        "toml",
        "[obstacles]\nid = 'rock'\n",
        None,
        "obstacles",
        ("expected a list of tables",),
        id="obstacles_must_be_a_list_of_tables",
    ),
    pytest.param(
        "json",
        '{"ships": [5]}',
        "ships[0]",
        None,
        ("expected a table of keys, got 5",),
        id="entry_must_be_a_table",
    ),
    pytest.param(
        "json",
        "[1, 2]",
        None,
        None,
        ("expected a table (object) at the top level",),
        id="top_level_must_be_a_table",
    ),
    pytest.param(
        "json",
        '{"ships": [{"id": "a", "base": "small", "at": [100, 40], "heading": null}]}',
        "ships[0] 'a'",
        "heading",
        ("expected a number, got null",),
        id="json_null_is_a_wrong_type",
    ),
    pytest.param(
        "json",
        '{"ruleset": "armada", '
        '"ships": [{"id": "a", "base": "small", "at": [900, 40], "hull": null}]}',
        "ships[0] 'a'",
        "hull",
        ("expected a hull name (a string)",),
        id="json_null_hull_is_a_wrong_type_not_no_hull",
    ),
    pytest.param(
        "toml",
        "constants = 5\n",
        None,
        "constants",
        ("expected a table of constants",),
        id="constants_must_be_a_table",
    ),
    pytest.param(
        "toml",
        ROCK + "player = 3\n",
        "obstacles[0] 'rock'",
        "player",
        ("expected 1 or 2, got 3",),
        id="bad_obstacle_player",
    ),
    pytest.param(
        "toml",
        SHIP_A + 'hull = "victory"\n',
        "ships[0] 'a'",
        "hull",
        ("Armada ships only",),
        id="hull_on_an_xwing_ship",
    ),
    pytest.param(
        "toml",
        'ruleset = "armada"\n' + SHIP_A + 'hull = "tie"\n',
        "ships[0] 'a'",
        "hull",
        ("unknown hull 'tie'", "victory", "cr90"),
        id="unknown_hull",
    ),
    pytest.param(
        "toml",
        'ruleset = "armada"\n' + SHIP_A.replace('"small"', '"squadron"') + 'hull = "cr90"\n',
        "ships[0] 'a'",
        "hull",
        ("a squadron has no hull",),
        id="hull_on_a_squadron",
    ),
    pytest.param(
        "toml", '[[ships]]\nid = "a\n', None, None, ("not valid TOML", "line 2"), id="invalid_toml"
    ),
    pytest.param(
        "toml", SHIP_A + "at = [1, 2]\n", None, None, ("not valid TOML",), id="toml_duplicate_key"
    ),
    pytest.param(
        "json",
        '{"ships": [}',
        None,
        None,
        ("not valid JSON", "line 1 column 12"),
        id="invalid_json",
    ),
    pytest.param(
        "json",
        '{"ships": [{"id": "a", "base": "small", "at": [100, 40], "at": [300, 40]}]}',
        None,
        None,
        ("not valid JSON", "duplicate key 'at'"),
        id="json_duplicate_key_is_not_silently_dropped",
    ),
    pytest.param(
        "toml",
        "a = " + "[" * 100_000 + "]" * 100_000 + "\n",
        None,
        None,
        ("not valid TOML", "nested too deeply"),
        id="deeply_nested_toml",
    ),
    pytest.param(
        "json",
        "[" * 100_000 + "]" * 100_000,
        None,
        None,
        ("not valid JSON", "nested too deeply"),
        id="deeply_nested_json",
    ),
]


@pytest.mark.parametrize(("kind", "text", "entry", "key", "phrases"), ERRORS)
def test_an_input_error_names_where_and_what(
    tmp_path: Path,
    kind: str,
    text: str,
    entry: str | None,
    key: str | None,
    phrases: tuple[str, ...],
) -> None:
    error, file = (toml_error if kind == "toml" else json_error)(tmp_path, text)
    check_where(error, file, entry, key, *phrases)


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


# -- files -------------------------------------------------------------------------------


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    with pytest.raises(SceneError) as info:
        load_scene(path)
    check_where(info.value, str(path), None, None, "no such file")


@pytest.mark.parametrize("name", ["scene.yaml", "scene", "scene.toml.bak"])
def test_unknown_suffix(tmp_path: Path, name: str) -> None:
    path = write_scene(tmp_path, SHIP_A, name)
    with pytest.raises(SceneError) as info:
        load_scene(path)
    check_where(info.value, str(path), None, None, "unknown scene file type", ".toml or .json")


def test_suffix_is_case_insensitive(tmp_path: Path) -> None:
    assert load_scene(write_scene(tmp_path, SHIP_A, "SCENE.TOML")).ships[0].id == "a"


def test_a_directory(tmp_path: Path) -> None:
    path = tmp_path / "dir.toml"
    path.mkdir()
    with pytest.raises(SceneError) as info:
        load_scene(path)
    check_where(info.value, str(path), None, None, "directory")


@pytest.mark.parametrize("name", ["scene.toml", "scene.json"])
def test_not_utf8(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    body = b'ruleset = "xwing2"\n# caf\xe9\n' if name.endswith("toml") else b'{"id": "caf\xe9"}'
    path.write_bytes(body)
    with pytest.raises(SceneError) as info:
        load_scene(path)
    byte = body.index(b"\xe9")
    check_where(info.value, str(path), None, None, f"not UTF-8 text (byte {byte})")


def test_utf8_ids_load(tmp_path: Path) -> None:
    scene = load_toml(tmp_path, SHIP_A.replace('"a"', '"Poë Dameron"'))
    assert scene.ships[0].id == "Poë Dameron"


def test_file_over_ten_megabytes(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_bytes(b"#" * MAX_FILE_BYTES + b"\n")  # one byte over the limit
    with pytest.raises(SceneError) as info:
        load_scene(path)
    check_where(
        info.value, str(path), None, None, f"{MAX_FILE_BYTES + 1} bytes", f"{MAX_FILE_BYTES}"
    )


def test_file_of_exactly_ten_megabytes_loads(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_bytes(b"#" * (MAX_FILE_BYTES - 1) + b"\n")
    assert MAX_FILE_BYTES == 10 * 1024 * 1024
    assert load_scene(path).ships == ()


def test_loading_never_writes_the_file(tmp_path: Path) -> None:
    path = write_scene(tmp_path, ROCK + SHIP_A)
    before, mtime = path.read_bytes(), path.stat().st_mtime_ns
    load_scene(path)
    assert (path.read_bytes(), path.stat().st_mtime_ns) == (before, mtime)


# -- TOML and JSON: the same scene -------------------------------------------------------

FULL_TOML = """
ruleset = "xwing2"
area = { width = 914.4, height = 914.4 }
phase = "play"
format = "tournament"

[constants]
xwing_obstacle_edge = 190
xwing_arc_half_angles = { small = 40.0, medium = 41.0, large = 42.0, huge = 41.5 }

[[obstacles]]
id = "rock"
token = "core2asteroid5"
at = [310.0, 455.5]
angle = 30
flipped = true
player = 1

[[obstacles]]
id = "home"
outline = [[-20, -10], [20, -10], [0, 25]]
kind = "asteroid"
at = [600, 450]

[[ships]]
id = "wedge"
base = "small"
at = [120, 60]

[[ships]]
id = "vader"
base = "huge-short"
at = [400, 800]
player = 2
heading = 265.5
"""

FULL_JSON: dict[str, Any] = {
    "ruleset": "xwing2",
    "area": {"width": 914.4, "height": 914.4},
    "phase": "play",
    "format": "tournament",
    "constants": {
        "xwing_obstacle_edge": 190,
        "xwing_arc_half_angles": {"small": 40.0, "medium": 41.0, "large": 42.0, "huge": 41.5},
    },
    "obstacles": [
        {
            "id": "rock",
            "token": "core2asteroid5",
            "at": [310.0, 455.5],
            "angle": 30,
            "flipped": True,
            "player": 1,
        },
        {
            "id": "home",
            "outline": [[-20, -10], [20, -10], [0, 25]],
            "kind": "asteroid",
            "at": [600, 450],
        },
    ],
    "ships": [
        {"id": "wedge", "base": "small", "at": [120, 60]},
        {"id": "vader", "base": "huge-short", "at": [400, 800], "player": 2, "heading": 265.5},
    ],
}


def test_toml_and_json_load_to_the_same_scene(tmp_path: Path) -> None:
    from_toml = load_scene(write_scene(tmp_path, FULL_TOML))
    from_json = load_scene(write_scene(tmp_path, json.dumps(FULL_JSON), "scene.json"))
    assert read_scene_data(tmp_path / "scene.toml") == FULL_JSON
    assert from_toml.to_dict() == from_json.to_dict()
    assert from_toml.ruleset == from_json.ruleset
    assert from_toml.ruleset.xwing_obstacle_edge == 190.0
    assert from_toml.ruleset.xwing_arc_half_angles["large"] == 42.0
    assert from_toml.area == from_json.area
    for a, b in zip(from_toml.obstacles, from_json.obstacles, strict=True):
        assert a.outline.tolist() == b.outline.tolist()
        assert a.polygon().equals(b.polygon())
    assert from_toml.ships == from_json.ships
    assert from_toml.ships == (
        Ship("wedge", "small", 120.0, 60.0, 90.0, 1, None),
        Ship("vader", "huge-short", 400.0, 800.0, 265.5, 2, None),
    )


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_examples_load_the_same_from_json(tmp_path: Path, example: Path) -> None:
    from_toml = load_scene(example)
    path = write_scene(tmp_path, json.dumps(read_scene_data(example)), "example.json")
    from_json = load_scene(path)
    assert from_toml.to_dict() == from_json.to_dict()
    assert from_toml.ships == from_json.ships
    assert len(from_toml.ships) >= 2


def test_a_scene_written_back_loads_to_the_same_scene(tmp_path: Path) -> None:
    scene = load_scene(write_scene(tmp_path, FULL_TOML))
    again = load_scene(write_scene(tmp_path, json.dumps(scene.to_dict()), "again.json"))
    assert again.to_dict() == scene.to_dict()


# -- game rules are not input errors -----------------------------------------------------


def test_scenes_that_break_game_rules_still_load(tmp_path: Path) -> None:
    text = """
    [[obstacles]]
    id = "edge-rock"
    token = "coreasteroid0"
    at = [30, 30]

    [[obstacles]]
    id = "twin-rock"
    token = "coreasteroid3"
    at = [40, 40]

    [[ships]]
    id = "a"
    base = "small"
    at = [450, 450]

    [[ships]]
    id = "b"
    base = "large"
    at = [460, 455]

    [[ships]]
    id = "fled"
    base = "small"
    at = [-500, 2000]
    """
    scene = load_toml(tmp_path, text)
    assert scene.ids == ("edge-rock", "twin-rock", "a", "b", "fled")
    ruleset = scene.ruleset
    a, b, fled = scene.ships
    assert a.polygon(ruleset).intersection(b.polygon(ruleset)).area > 0  # overlapping ships
    assert not fled.polygon(ruleset).intersects(scene.area.polygon())  # wholly off the table


def test_parse_scene_labels_inline_scenes() -> None:
    with pytest.raises(SceneError) as info:
        parse_scene({"ships": [{"id": "a", "base": "small"}]})
    check_where(info.value, "<scene>", "ships[0] 'a'", "at", "missing required key")
