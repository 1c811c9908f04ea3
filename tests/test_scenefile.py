"""The scene loader against ``scene-format.md``: every reader rule, with where it failed.

Each rejection test checks the error's parts (file, entry, key) and that its text names
them and says what was expected; each acceptance test checks the loaded values by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scenefile_support import ROCK, SHIP_A, check_where, json_error, toml_error

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
