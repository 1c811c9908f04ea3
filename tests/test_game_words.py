"""A word of the other game says which game it belongs to (issue 14.14).

Bases, hulls, obstacle tokens and maneuver words of Armada in an X-Wing scene, and the
reverse, are bad input whose message names the game and the scene's ruleset; a word no
game knows keeps the plain "unknown" message.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from common import run, scene_file

from tabletop.geom.rulesets import get_ruleset
from tabletop.obstacles.sceneformat import word_elsewhere


def _ship_scene(tmp_path: Path, ruleset: str, lines: str) -> str:
    area = "6x3ft" if ruleset == "armada" else "3x3ft"
    body = "\n".join(f"        {line}" for line in lines.splitlines())
    return scene_file(
        tmp_path,
        f"""
        ruleset = "{ruleset}"
        area = "{area}"
        [[ships]]
        id = "a"
{body}
        at = [500.0, 300.0]
        """,
    )


def _error(*argv: str) -> dict[str, str]:
    code, out, _ = run(*argv, "--json")
    assert code == 2
    error = json.loads(out)["error"]
    assert isinstance(error, dict)
    return error


@pytest.mark.parametrize(
    ("ruleset", "lines", "key", "says"),
    [
        ("xwing2", 'base = "victory"', "base", "unknown base 'victory' for xwing2 ('victory' is an Armada hull; this scene's ruleset is xwing2); expected one of: small"),
        ("xwing2", 'base = "squadron"', "base", "'squadron' is an Armada base; this scene's ruleset is xwing2"),
        ("xwing2", 'base = "small"\nhull = "victory"', "hull", "'victory' is an Armada hull; this scene's ruleset is xwing2"),
        ("armada", 'base = "huge-short"', "base", "'huge-short' is an X-Wing base (xwing1, xwing2); this scene's ruleset is armada"),
        ("armada", 'base = "victory"', "base", "'victory' is a hull: give it as hull = 'victory' beside its base"),
        ("armada", 'base = "small"\nhull = "huge-short"', "hull", "'huge-short' is an X-Wing base (xwing1, xwing2); this scene's ruleset is armada); expected one of: arquitens"),
    ],
)  # fmt: skip
def test_a_ship_word_of_the_other_game(
    tmp_path: Path, ruleset: str, lines: str, key: str, says: str
) -> None:
    error = _error("check", _ship_scene(tmp_path, ruleset, lines))
    assert error["where"].endswith(f"ships[0] 'a': key '{key}'")
    assert says in error["message"]


def test_a_token_of_the_other_game(tmp_path: Path) -> None:
    scene = scene_file(
        tmp_path,
        """
        ruleset = "armada"
        area = "6x3ft"
        [[obstacles]]
        id = "r"
        token = "coreasteroid0"
        at = [600.0, 400.0]
        """,
    )
    error = _error("check", scene)
    assert error["message"].startswith(
        "unknown token 'coreasteroid0' for armada ('coreasteroid0' is an X-Wing obstacle token "
        "(xwing1, xwing2); this scene's ruleset is armada); expected one of: asteroid-1"
    )


def test_a_word_no_game_knows_keeps_the_plain_message(tmp_path: Path) -> None:
    error = _error("check", _ship_scene(tmp_path, "xwing2", 'base = "tiny"'))
    assert error["message"].startswith("unknown base 'tiny' for xwing2; expected one of: small")
    assert word_elsewhere(get_ruleset("armada"), "tiny") is None
    assert word_elsewhere(get_ruleset("armada"), "victory") is None  # its own word


@pytest.mark.parametrize(
    ("scene", "ship", "words", "says"),
    [
        ("armada-standard", "victory", "bank 1 left", "'bank' is an X-Wing maneuver word; the ruleset is armada"),
        ("xwing-dogfight", "wedge", "speed 2 yaw 0 1", "'speed' is an Armada maneuver word; the ruleset is xwing2"),
    ],
)  # fmt: skip
def test_a_maneuver_word_of_the_other_game(scene: str, ship: str, words: str, says: str) -> None:
    error = _error("move", f"examples/{scene}.toml", ship, *words.split())
    assert says in error["message"]


def test_a_mistyped_word_still_gets_did_you_mean() -> None:
    error = _error("move", "examples/xwing-dogfight.toml", "wedge", "bnak", "2", "left")
    assert "did you mean 'bank'?" in error["message"]
