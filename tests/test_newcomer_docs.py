"""What a newcomer reads is true (issue 14.16): the README's scene, commands and pointers.

The README's sample scene is checked as printed; the rules it leans on are in the
repository (``docs/rules.md``); the Armada arc answer says, in the output itself, that
it measures from the hull token and gives the plain base distance beside it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from common import ROOT, run, run_json

from tabletop.app.scenefile import load_scene
from tabletop.obstacles.measuring import measure

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end >= 0 else None]


def test_the_readme_sample_scene_is_legal_as_shown(tmp_path: Path) -> None:
    block = re.search(r"```toml\n(.*?)```", _section("A scene"), re.S)
    assert block is not None
    scene = tmp_path / "sample.toml"
    scene.write_text(block.group(1), encoding="utf-8")
    code, out, _ = run("check", scene)
    assert code == 0, out
    assert "legal as shown" in _section("A scene")


def test_setup_says_how_to_run_the_command_and_names_the_extras() -> None:
    setup = _section("Set-up")
    assert ".venv/bin/tabletop" in setup
    assert "source .venv/bin/activate" in setup
    assert "tabletop[plots]" in setup
    assert "tabletop[fast]" in setup
    assert "rustworkx" in setup
    assert "docs/rules.md" in setup


def test_the_rules_are_in_the_repository() -> None:
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for heading in ("## Measuring, in every game", "## X-Wing", "## Armada"):
        assert heading in rules
    assert "(docs/rules.md)" in README
    assert "`rules.md`" not in _section("Choices where the rules are silent or sources disagree")


def test_guides_are_explained() -> None:
    assert "**Guides**" in _section("A scene")


def test_armada_arc_output_says_hull_token_and_base_distance() -> None:
    scene_path = "examples/armada-standard.toml"
    data = run_json("measure", scene_path, "cr90", "nebulon", "--arc", "left", "--json")
    assert data["in_arc"] is True
    plain = measure(load_scene(scene_path), "cr90", "nebulon")
    assert data["base_distance"] == pytest.approx(plain.distance, abs=1e-6)
    assert data["distance"] != pytest.approx(plain.distance, abs=1e-3)
    code, out, _ = run("measure", scene_path, "cr90", "nebulon", "--arc", "left")
    assert code == 0
    assert (
        "  measured:   from the left hull zone on the hull token (attack range); base to base is"
        in out
    )
    # Out of arc the answer is the base distance itself, and says so already.
    out_of_arc = run_json("measure", scene_path, "victory", "gladiator", "--arc", "front", "--json")
    assert out_of_arc["in_arc"] is False
    assert "base_distance" not in out_of_arc
