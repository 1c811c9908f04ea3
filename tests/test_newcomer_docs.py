"""What a newcomer reads is true (issue 14.16): the manual's scene, the README's set-up and pointers.

The sample scene of ``docs/scenes.md`` is checked as printed; the rules it leans on are in
the repository (``docs/rules.md``); the README installs the project under its own name
and links to every manual page it names; the Armada arc answer says, in the output
itself, that it measures from the hull token and gives the plain base distance beside it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from common import ROOT, run, run_json

from tabletop.app.scene.scenefile import load_scene
from tabletop.obstacles.measuring import measure

README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = ROOT / "docs"


def _section(title: str, text: str = README) -> str:
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else None]


def _page(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def test_the_readme_sample_scene_is_legal_as_shown(tmp_path: Path) -> None:
    block = re.search(r"```toml\n(.*?)```", _section("A scene", _page("scenes.md")), re.S)
    assert block is not None
    scene = tmp_path / "sample.toml"
    scene.write_text(block.group(1), encoding="utf-8")
    code, out, _ = run("check", scene)
    assert code == 0, out
    assert "legal as shown" in _section("A scene", _page("scenes.md"))


def test_setup_says_how_to_run_the_command_and_names_the_extras() -> None:
    setup = _section("Set-up")
    assert ".venv/bin/tabletop" in setup
    assert "source .venv/bin/activate" in setup
    assert "make demo" in setup
    assert "make test" in setup
    install = _section("Install")
    assert "pip install -e '.[plots]'" in install
    assert "'tabletop-judge[plots] @ git+" in install
    assert "dist/tabletop_judge-0.1.0-py3-none-any.whl[plots]'" in install
    assert "tabletop-judge[fast]" in install
    assert "rustworkx" in install
    assert "(docs/rules.md)" in README


def test_no_page_installs_the_unrelated_tabletop_distribution() -> None:
    # `tabletop` on the package index is another project; ours is tabletop-judge.
    wrong = re.compile(r"pip install +['\"]?tabletop(?![-\w])")
    for path in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        assert not wrong.search(path.read_text(encoding="utf-8")), path


def test_every_manual_page_the_readme_links_exists() -> None:
    # docs/board.md and docs/import.md belong to the board and import commands' pages.
    for target in re.findall(r"\]\((docs/[\w.-]+\.md)\)", README):
        if target not in ("docs/board.md", "docs/import.md"):
            assert (ROOT / target).is_file(), target


def test_the_rules_are_in_the_repository() -> None:
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for heading in ("## Measuring, in every game", "## X-Wing", "## Armada"):
        assert heading in rules
    assert "(docs/rules.md)" in README
    assert "`rules.md`" not in _page("rulings.md")


def test_guides_are_explained() -> None:
    assert "**Guides**" in _section("A scene", _page("scenes.md"))


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
