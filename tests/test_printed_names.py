"""Catalog tokens answer to their printed names ("Asteroid 5", "Debris 4", "Gas Cloud 3").

The pairs below are read off the clients by hand: VASSAL's X-Wing module calls the core
set's first asteroid (XWS id ``coreasteroid0``) "Asteroid 5", the YT-2400's second debris
cloud (``yt2400debris1``) "Debris 4" and ``gascloud3`` "Gas Cloud 3"; the Armada mod
calls its sharktooth asteroid "Asteroid 4".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from common import run, run_json, scene_file

from tabletop.app.scene.scenefile import parse_scene
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.rulesets import RULESET_NAMES, get_ruleset
from tabletop.obstacles.catalog import catalog, get_token, printed_name
from tabletop.obstacles.scene import Obstacle

XWING_PAIRS = [
    ("coreasteroid0", "Asteroid 5"),
    ("yt2400debris1", "Debris 4"),
    ("gascloud3", "Gas Cloud 3"),
    ("core2asteroid5", "Asteroid 9"),
]

SCENE = """\
ruleset = "{ruleset}"

[[obstacles]]
id = "rock-a"
token = "{a}"
at = [300.0, 400.0]

[[obstacles]]
id = "rock-b"
token = "{b}"
at = [390.0, 420.0]
"""


@pytest.mark.parametrize(("xws", "printed"), XWING_PAIRS)
def test_an_xwing_token_by_its_printed_name(xws: str, printed: str) -> None:
    xwing = get_ruleset("xwing2")
    assert printed_name(xwing, xws) == printed
    assert get_token(xwing, printed).name == xws
    # Any case, any spacing.
    assert get_token(xwing, f"  {printed.upper()}  ").name == xws
    assert get_token(xwing, printed.replace(" ", "   ")).name == xws


def test_an_armada_token_by_its_printed_name_or_whole_label() -> None:
    armada = get_ruleset("armada")
    assert get_token(armada, "Asteroid 4").name == "asteroid-4"
    assert get_token(armada, 'Asteroid 4 ("sharktooth")').name == "asteroid-4"
    assert printed_name(armada, "asteroid-4") == "Asteroid 4"
    # The same words name each game's own token.
    assert get_token(get_ruleset("xwing2"), "Asteroid 4").name == "coreasteroid5"


@pytest.mark.parametrize("ruleset", RULESET_NAMES)
def test_printed_names_are_one_table_each_naming_one_token(ruleset: str) -> None:
    rules = get_ruleset(ruleset)
    tokens = catalog(rules)
    names = [printed_name(rules, name) for name in tokens]
    assert len({str(n).casefold() for n in names}) == len(tokens)
    for name, printed in zip(tokens, names, strict=True):
        assert printed is not None
        assert get_token(rules, printed).name == name
    assert printed_name(rules, "no-such-token") is None


def test_a_scene_naming_printed_names_is_read_as_the_catalog_tokens(tmp_path: Path) -> None:
    by_id = scene_file(
        tmp_path, SCENE.format(ruleset="xwing2", a="coreasteroid0", b="yt2400debris1"), "a.toml"
    )
    by_name = scene_file(
        tmp_path, SCENE.format(ruleset="xwing2", a="Asteroid 5", b="debris 4"), "b.toml"
    )
    # Too close: the same violation, message and fix either way (check exits 1).
    for command, after in (("check", ()), ("measure", ("rock-a", "rock-b"))):
        named = run(command, by_name, *after, "--json")
        assert named == run(command, by_id, *after, "--json")
        assert named[0] == (1 if command == "check" else 0)
    scene = parse_scene(
        {"obstacles": [{"id": "r", "token": "Gas Cloud 3", "at": [400, 400]}]}, "inline"
    )
    (obstacle,) = scene.obstacles
    assert (obstacle.token, obstacle.kind) == ("gascloud3", "gas")
    built = Obstacle.from_token(get_ruleset("xwing2"), "r", "Asteroid 5", 400.0, 400.0)
    assert built.token == "coreasteroid0"


def test_an_unknown_name_lists_the_ids_and_the_printed_names(tmp_path: Path) -> None:
    scene = scene_file(tmp_path, SCENE.format(ruleset="armada", a="Asteroid 2", b="station"))
    code, stdout, stderr = run("check", scene)
    assert (code, stdout) == (2, "")
    assert "obstacles[0] 'rock-a'" in stderr
    assert "unknown token 'Asteroid 2' for armada" in stderr
    # X-Wing's "Asteroid 2" is coreasteroid3: the message says whose word it is.
    assert "('Asteroid 2' is an X-Wing obstacle token (xwing1, xwing2);" in stderr
    assert "(or a printed name: Asteroid 1, Asteroid 4, Asteroid 5, Debris 2" in stderr
    with pytest.raises(InvalidInputError, match="printed name: Asteroid 5, Asteroid 1"):
        get_token(get_ruleset("xwing2"), "Asteroid 99")


def test_list_tokens_shows_the_printed_names() -> None:
    answer = run_json("list", "tokens", "--json")
    items = {item["name"]: item for item in answer["items"]}
    for xws, printed in XWING_PAIRS:
        assert items[xws]["printed_name"] == printed
    armada = run_json("list", "tokens", "--ruleset", "armada", "--json")
    assert armada["items"][1]["printed_name"] == "Asteroid 4"
    assert armada["items"][1]["label"] == 'Asteroid 4 ("sharktooth")'
    code, text, _ = run("list", "tokens")
    assert code == 0
    lines = text.splitlines()
    assert lines[1].split() == ["id", "kind", "family", "printed", "name"]
    assert lines[2].split() == ["coreasteroid0", "asteroid", "core", "Asteroid", "5"]


def test_pictures_write_printed_names_beside_ids_when_asked(tmp_path: Path) -> None:
    scene = scene_file(tmp_path, SCENE.format(ruleset="xwing2", a="Asteroid 5", b="Debris 4"))
    plain, named = tmp_path / "plain.svg", tmp_path / "named.svg"
    assert run("render", scene, "-o", plain)[0] == 0
    assert run("render", scene, "-o", named, "--printed-names")[0] == 0
    assert ">rock-a</text>" in plain.read_text("utf-8")
    assert "(Asteroid 5)" not in plain.read_text("utf-8")
    assert ">rock-a (Asteroid 5)</text>" in named.read_text("utf-8")
    assert ">rock-b (Debris 4)</text>" in named.read_text("utf-8")
