"""The console examples of README.md and the manual, read and run as a reader would type them.

A console example is a fenced block whose first line starts with ``$ ``: each ``$ `` line is
a command, the lines after it (up to the next ``$ `` line, trailing blank lines dropped)
are what it prints, standard output then standard error. In the expected text ``...``
stands for any text (doctest's ELLIPSIS: a line of its own for any lines); a last line
``(exit N)`` or a comment ``# exit N`` after the command gives the exit code, 0 when
neither does. A comment after the command (``# ...``) is the reader's, not the shell's.

The commands run in a fresh directory that holds a copy of the repository's ``examples/``
(a command that writes never reaches the repository), an empty ``out/`` and
``docs/gallery/``, and the files of ``tests/data/docs/PAGE/`` with its sub-folders: the
inputs a page names that are not in ``examples/`` (``table.toml``, ``bad-setup.toml``,
...). The commands of one page run in order in that directory, so a page's ``push`` sees
the file its earlier ``push`` wrote. Besides ``tabletop`` a command may be ``cat FILE``,
``grep WORD FILE``, ``cp FROM TO`` or ``rm FILE``, run here without a shell, and
``printf '%s\\n' LINE ... | tabletop ...`` gives the lines to tabletop's standard input; a
command may go on over lines that end in a backslash.

An HTML comment ``<!-- console: not run: REASON -->`` on the line before a block leaves
that block out, with its reason (a server that runs until Ctrl-C, a Dask cluster's
address, Node.js); ``tests/test_console_examples.py`` lists the blocks left out and the
single commands whose inputs are still to come, so none is left out unseen.
"""

from __future__ import annotations

import doctest
import io
import re
import shlex
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from common import ROOT

from tabletop.app.cli import main

__all__ = ["PAGES", "Block", "Example", "console_blocks", "run_page"]

#: The pages whose console examples the suite runs: the README and every manual page.
PAGES: tuple[Path, ...] = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
FIXTURES = ROOT / "tests" / "data" / "docs"
_FENCE = re.compile(r"^(```+|~~~+)(.*)$")
_SKIP = re.compile(r"<!--\s*console:\s*not run:\s*(.+?)\s*-->")
_EXIT_COMMENT = re.compile(r"^\s*exit (\d+)")
_EXIT_LINE = re.compile(r"^\(exit (\d+)\)$")
_FLAGS = doctest.ELLIPSIS | doctest.DONT_ACCEPT_TRUE_FOR_1 | doctest.DONT_ACCEPT_BLANKLINE


@dataclass(frozen=True)
class Example:
    """One command of a console block and what the page says it prints."""

    line: int
    command: str
    expected: str
    exit_code: int


@dataclass(frozen=True)
class Block:
    """A console block: where it starts, its commands, and why it is not run (or "")."""

    line: int
    examples: tuple[Example, ...]
    not_run: str


def _examples(lines: list[tuple[int, str]]) -> tuple[Example, ...]:
    found: list[Example] = []
    current: tuple[int, str] | None = None
    body: list[str] = []

    def close() -> None:
        if current is None:
            return
        while body and not body[-1].strip():
            body.pop()
        command, _, comment = current[1].partition(" #")
        code = 0
        said = _EXIT_COMMENT.search(comment)
        if said:
            code = int(said.group(1))
        if body and _EXIT_LINE.match(body[-1]):
            code = int(_EXIT_LINE.match(body[-1]).group(1))  # type: ignore[union-attr]
            body.pop()
        found.append(Example(current[0], command.strip(), "\n".join(body), code))

    joining = False
    for number, text in lines:
        if joining and current is not None:
            # a command continued on the next line (a trailing backslash)
            current = (current[0], current[1][:-1].rstrip() + " " + text.strip())
        elif text.startswith("$ "):
            close()
            current, body = (number, text[2:]), []
        else:
            body.append(text)
        joining = current is not None and not body and current[1].endswith("\\")
    close()
    return tuple(found)


def console_blocks(page: Path) -> list[Block]:
    """Return the console blocks of `page` (fenced blocks whose first line starts with ``$ ``)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        end = i + 1
        while end < len(lines) and lines[end].strip() != fence.group(1):
            end += 1
        inside = list(enumerate(lines[i + 1 : end], i + 2))
        if inside and inside[0][1].startswith("$ "):
            skip = _SKIP.search(lines[i - 1]) if i else None
            blocks.append(Block(i + 1, _examples(inside), skip.group(1) if skip else ""))
        i = end + 1
    return blocks


def _builtin(words: list[str]) -> tuple[int, str, str]:
    name, *rest = words
    missing = [p for p in rest[-1:] if name in ("cat", "grep") and not Path(p).is_file()]
    if missing:
        return 1, "", f"{name}: {missing[0]}: No such file or directory\n"
    if name == "cat":
        return 0, "".join(Path(p).read_text(encoding="utf-8") for p in rest), ""
    if name == "grep":
        word, path = rest
        hits = [ln for ln in Path(path).read_text(encoding="utf-8").splitlines() if word in ln]
        return (0 if hits else 1), "".join(f"{ln}\n" for ln in hits), ""
    if name == "cp":
        shutil.copyfile(rest[0], rest[1])
        return 0, "", ""
    if name == "rm":
        for p in rest:
            Path(p).unlink()
        return 0, "", ""
    raise AssertionError(f"a console example runs tabletop, cat, grep, cp or rm, not {name!r}")


def _printf(words: list[str]) -> str:
    if words[:2] != ["printf", "%s\\n"]:
        raise AssertionError(f"a console example pipes printf '%s\\n' into tabletop, not {words}")
    return "".join(f"{w}\n" for w in words[2:])


def run_command(command: str) -> tuple[int, str]:
    """Run one example's command in the current directory; return (exit code, printed text).

    ``printf '%s\\n' LINE ... | tabletop ...`` gives the lines to the command's standard
    input; ``.venv/bin/tabletop`` is ``tabletop``.
    """
    words = shlex.split(command)
    given = None
    if "|" in words:
        cut = words.index("|")
        given, words = _printf(words[:cut]), words[cut + 1 :]
    if words[0].endswith("/tabletop"):
        words[0] = "tabletop"
    if words[0] != "tabletop":
        code, said, complained = _builtin(words)
        return code, said + complained
    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    if given is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(given.encode("utf-8")), encoding="utf-8")
    try:
        code = main(words[1:], out=out, err=err)
    finally:
        sys.stdin = stdin
    return code, out.getvalue() + err.getvalue()


def prepare(directory: Path, page: Path) -> None:
    """Fill `directory` as the examples of `page` expect to find it."""
    shutil.copytree(ROOT / "examples", directory / "examples")
    (directory / "out").mkdir()
    (directory / "docs" / "gallery").mkdir(parents=True)
    own = FIXTURES / page.stem
    if own.is_dir():
        shutil.copytree(own, directory, dirs_exist_ok=True)


def run_page(page: Path, directory: Path, skip: Callable[[str], bool] | None = None) -> list[str]:
    """Run every console example of `page` in `directory`; return the mismatches, described.

    `skip`, when given, leaves out the commands it is true of (to try a page quickly).
    """
    prepare(directory, page)
    checker = doctest.OutputChecker()
    wrong: list[str] = []
    for block in console_blocks(page):
        if block.not_run:
            continue
        for example in block.examples:
            if skip is not None and skip(example.command):
                continue
            code, printed = run_command(example.command)
            got = printed.rstrip("\n")
            if code != example.exit_code or not checker.check_output(
                example.expected + "\n", got + "\n", _FLAGS
            ):
                wrong.append(
                    f"{page.name}:{example.line}: $ {example.command}\n"
                    f"exit {code} (the page says {example.exit_code}); it printed:\n{got}\n"
                    f"the page says:\n{example.expected}\n"
                )
    return wrong
