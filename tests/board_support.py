"""Fixtures of the browser tests of the board: the real server, headless Chromium, a page.

Imported by ``tests/test_board_browser*.py`` only, after their module-level skip: a
machine without Chromium or Playwright skips those files with one line saying why.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks.board_browser import BoardServer, launch, open_page, wait_idle

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.toml"))
TOURNAMENT = ROOT / "examples" / "xwing-tournament.toml"


class Opener:
    """Open pages on the board, each on a scene; collect what the browser logs as errors.

    A test that provokes a refusal on purpose says so with :meth:`allow`: the browser
    logs every failed request, handled by the page or not.
    """

    def __init__(self, server: BoardServer, browser: Any) -> None:
        self.server = server
        self.browser = browser
        self.errors: list[str] = []
        self.allowed: list[str] = []
        self.pages: list[Any] = []

    def __call__(self, scene: dict[str, Any]) -> Any:
        """Make `scene` the board and open a page on it, idle."""
        self.server.put_scene(scene)
        page = open_page(self.browser, self.server.url, self.errors)
        wait_idle(page)
        self.pages.append(page)
        return page

    def open_more(self) -> Any:
        """Open one more page on the board as it is (another tab)."""
        page = open_page(self.browser, self.server.url, self.errors)
        self.pages.append(page)
        return page

    def allow(self, fragment: str) -> None:
        """Let a logged error holding `fragment` pass (a refusal the test asks for)."""
        self.allowed.append(fragment)

    def unexpected(self) -> list[str]:
        """Return the logged errors that were not allowed."""
        return [e for e in self.errors if not any(a in e for a in self.allowed)]


def scene_of(path: Path) -> dict[str, Any]:
    """The scene-file structure of a TOML scene file."""
    with path.open("rb") as file:
        return tomllib.load(file)


def cli(*words: str, cwd: Path | None = None) -> tuple[int, dict[str, Any]]:
    """Run ``tabletop WORDS --json``; return (exit code, the JSON it printed)."""
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", *words, "--json"],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    printed: dict[str, Any] = json.loads(done.stdout)
    return done.returncode, printed


def scene_file(scene: dict[str, Any], folder: Path, name: str = "scene.json") -> Path:
    """Write `scene` as a JSON scene file in `folder`."""
    path = folder / name
    path.write_text(json.dumps(scene), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BoardServer]:
    folder = tmp_path_factory.mktemp("board")
    start = folder / TOURNAMENT.name
    shutil.copy(TOURNAMENT, start)  # a save writes here, never over the example
    with BoardServer(start) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def open_board(server: BoardServer, browser: Any) -> Iterator[Opener]:
    """Open pages on the board; after the test, no page may have logged an error."""
    opener = Opener(server, browser)
    yield opener
    for page in opener.pages:
        page.close()
    unexpected = opener.unexpected()
    assert unexpected == [], "the browser logged errors:\n" + "\n".join(unexpected)
