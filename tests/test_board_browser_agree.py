"""The page's verdict and the command line's agree: every bundled example (in
test_board_browser.py) and 200 random setups, some made illegal on purpose.

Each setup goes to the board the way a load does (the page PUTs it and asks the server's
``check``); the verdict the page then shows (``#verdict``: legal, and each violation's
rule, objects and margin) must be what ``tabletop query`` answers for the same scene:
the verdicts exactly, the margins within ``AGREEMENT_MM`` (``tests/agreement.py``).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks.board_browser import missing

REASON = missing()
if REASON is not None:
    pytest.skip(REASON, allow_module_level=True)

from agreement import assert_agree  # noqa: E402
from board_support import Opener, browser, open_board, server  # noqa: E402

from benchmarks.board_browser import cli_verdict  # noqa: E402
from tabletop.geom.areas import play_area  # noqa: E402
from tabletop.geom.rulesets import get_ruleset  # noqa: E402
from tabletop.obstacles import random_setup  # noqa: E402

__all__ = ["browser", "open_board", "server"]  # fixtures, used by name

RULESETS = ("xwing2", "xwing1", "armada")
SETUPS = 200

#: Collect what #verdict shows after each scene is made the board.
PAGE_LOOP = """async (scenes) => {
  const shown = [];
  for (const raw of scenes) {
    await boardApp.board.replace(raw, "load");
    await boardApp.idle();
    const list = document.getElementById('verdict');
    shown.push({legal: list.dataset.legal === 'true',
      violations: [...list.querySelectorAll('[data-rule]')].map(e => ({
        rule: e.dataset.rule, objects: e.dataset.objects,
        margin: e.dataset.margin === undefined ? null : Number(e.dataset.margin)}))});
  }
  return shown;
}"""


def random_setups(count: int) -> list[dict[str, Any]]:
    """Legal random setups, half of them with one obstacle pushed off its place."""
    rng = random.Random(19)
    scenes = []
    for seed in range(count):
        rules = get_ruleset(RULESETS[seed % len(RULESETS)])
        scene = random_setup(rules, play_area(rules.default_area), seed=seed).to_dict()
        if seed % 2:
            moved = rng.choice(scene["obstacles"])
            moved["at"] = [
                round(moved["at"][0] + rng.uniform(-90, 90), 2),
                round(moved["at"][1] + rng.uniform(-90, 90), 2),
            ]
        if seed % 5 == 0:
            scene["ships"] = [
                {"id": "s1", "base": "small", "at": [200.0, rng.uniform(10, 140)], "heading": 90.0},
                {"id": "s2", "base": "small", "at": [rng.uniform(215, 260), 60.0], "player": 1},
            ]
        scenes.append(scene)
    return scenes


def cli_answers(scenes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``tabletop query``'s check answers, one process for every scene."""
    lines = "".join(json.dumps({"op": "check", "scene": s}) + "\n" for s in scenes)
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "query"],
        input=lines,
        capture_output=True,
        text=True,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_page_and_cli_agree_on_200_random_setups(open_board: Opener, tmp_path: Path) -> None:
    scenes = random_setups(SETUPS)
    expected = [cli_verdict(answer) for answer in cli_answers(scenes)]
    assert sum(not e["legal"] for e in expected) >= SETUPS // 4  # illegal ones are tried too
    page = open_board(scenes[0])
    shown = page.evaluate(PAGE_LOOP, [json.dumps(s) for s in scenes])
    for index, (page_says, cli_says) in enumerate(zip(shown, expected, strict=True)):
        try:
            assert_agree(page_says, cli_says)
        except AssertionError as error:
            raise AssertionError(f"setup {index} ({scenes[index]['ruleset']}): {error}") from None
    page.screenshot(path=str(tmp_path / "last-random.png"))
