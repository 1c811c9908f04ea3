"""Imports flow one way: geom <- obstacles <- maneuvers <- plots <- tabletop.

Every module of every package is read (not imported): its import statements anywhere
(function bodies included) and the imports in its doctest examples. A module may import
its own package and the packages below it; ``boards`` and ``tournament`` are leaves
beside ``geom`` that import nothing of ours; nothing imports ``tabletop`` but itself.
"""

from __future__ import annotations

import ast
import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Each package and the packages of ours it may import (its own included).
ALLOWED: dict[str, frozenset[str]] = {
    "geom": frozenset({"geom"}),
    "obstacles": frozenset({"geom", "obstacles"}),
    "maneuvers": frozenset({"geom", "obstacles", "maneuvers"}),
    "plots": frozenset({"geom", "obstacles", "maneuvers", "plots", "boards", "tournament"}),
    "tabletop": frozenset(
        {"geom", "obstacles", "maneuvers", "plots", "tabletop", "boards", "tournament"}
    ),
    "boards": frozenset({"boards"}),
    "tournament": frozenset({"tournament"}),
}
OURS = frozenset(ALLOWED)


def _modules() -> list[Path]:
    return sorted(p for package in ALLOWED for p in (ROOT / package).rglob("*.py"))


def _imported(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found & OURS


def _doctest_sources(tree: ast.Module, path: Path) -> list[str]:
    sources = []
    parser = doctest.DocTestParser()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            docstring = ast.get_docstring(node, clean=False)
            if docstring:
                for example in parser.get_examples(docstring, str(path)):
                    sources.append(example.source)
    return sources


def _all_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = _imported(tree)
    for source in _doctest_sources(tree, path):
        found |= _imported(ast.parse(source))
    return found


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_module_imports_only_its_package_and_those_below(path: Path) -> None:
    package = path.relative_to(ROOT).parts[0]
    wrong = _all_imports(path) - ALLOWED[package]
    assert not wrong, f"{path.relative_to(ROOT)} imports {sorted(wrong)} (doctests included)"


def test_the_reader_sees_doctest_imports() -> None:
    text = '"""Doc.\n\n>>> from tabletop.scenefile import load_scene\n"""\nimport geom\n'
    tree = ast.parse(text)
    found = _imported(tree)
    for source in _doctest_sources(tree, Path("x.py")):
        found |= _imported(ast.parse(source))
    assert found == {"geom", "tabletop"}
