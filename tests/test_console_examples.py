"""Every console example of README.md and the manual prints what the page says (issue 36.2).

The rules of a console block (``...``, ``(exit N)``, the files beside the commands, the
blocks left out and why) are in ``tests/console_examples.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from common import ROOT
from console_examples import PAGES, console_blocks, run_page

#: The console blocks the suite does not run, each with the reason its page gives.
NOT_RUN = {
    ("board-server.md", "a server runs until Ctrl-C"),
    ("bulk.md", "a 30 s connect time-out, and an install without the cluster extra"),
    ("dogfight.md", "a Dask cluster's address"),
    ("event-server.md", "a server runs until Ctrl-C"),
    ("oracle.md", "Node.js"),
}


#: Commands whose inputs are not yet in ``tests/data/docs/``: skipped, each with why. Every
#: one must still be on its page, so that the list shrinks as the inputs come.
PENDING: dict[tuple[str, str], str] = {}


#: The long simulations (10,000 games each, about 40 s of CPU apiece) run in the thorough
#: profile only (``TABLETOP_HYPOTHESIS=thorough make test``); the default run keeps to the
#: CI's budget. Their engine is the one every shorter example runs.
LONG_RUNS = "--games 10000"
THOROUGH = os.environ.get("TABLETOP_HYPOTHESIS") == "thorough"


def _left_for_now(name: str, command: str) -> bool:
    return (name, command) in PENDING or (not THOROUGH and LONG_RUNS in command)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_console_example_prints_what_the_page_says(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "80")
    wrong = run_page(page, tmp_path, lambda command: _left_for_now(page.name, command))
    assert not wrong, "\n".join(wrong)


def test_every_pending_command_is_still_on_its_page() -> None:
    for name, command in PENDING:
        page = next(p for p in PAGES if p.name == name)
        assert command in {e.command for b in console_blocks(page) for e in b.examples}


def test_console_blocks_are_read_as_written() -> None:
    readme = console_blocks(ROOT / "README.md")
    commands = [e.command for b in readme for e in b.examples]
    assert "tabletop check examples/xwing-contested.toml" in commands
    contested = next(e for b in readme for e in b.examples if "contested" in e.command)
    assert contested.exit_code == 1
    assert contested.expected.startswith("examples/xwing-contested.toml: xwing2, ILLEGAL")


def test_only_the_blocks_named_here_are_left_out() -> None:
    left_out = {
        (page.name, block.not_run)
        for page in PAGES
        for block in console_blocks(page)
        if block.not_run
    }
    assert left_out == NOT_RUN


def test_no_command_line_example_hides_outside_a_console_block() -> None:
    # A "$ tabletop" line anywhere else would be an example the suite never runs.
    for page in PAGES:
        run = {e.line for b in console_blocks(page) for e in b.examples}
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if line.startswith("$ tabletop"):
                assert number in run, f"{page.name}:{number}: {line}"


def test_the_pages_exist() -> None:
    assert len(PAGES) > 20
    assert all(os.path.getsize(p) for p in PAGES)
