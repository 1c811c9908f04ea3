"""Every package's exports are single-sourced: ``__all__``, the lazy table and the imports agree.

A package ``__init__`` names each export three times (the ``TYPE_CHECKING`` imports for
type checkers, ``__all__``, and the ``_SOURCES`` table its PEP 562 ``__getattr__`` loads
from); this test keeps them one list. Eagerly importing packages (``plots``,
``tabletop``) import each name they export.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAZY = ("tabletop.geom", "tabletop.obstacles", "tabletop.maneuvers")


def _type_checking_imports(tree: ast.Module) -> dict[str, str]:
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for stmt in node.body:
                assert isinstance(stmt, ast.ImportFrom), ast.unparse(stmt)
                for alias in stmt.names:
                    assert alias.asname is None
                    found[alias.name] = str(stmt.module)
    return found


def _literal(tree: ast.Module, name: str) -> object:
    for node in tree.body:
        target: ast.expr | None = None
        value: ast.expr | None = None
        if isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        if isinstance(target, ast.Name) and target.id == name and value is not None:
            return ast.literal_eval(value)
    raise AssertionError(f"no literal {name}")


@pytest.mark.parametrize("package", LAZY)
def test_all_the_lazy_table_and_the_type_checking_imports_agree(package: str) -> None:
    folder = ROOT.joinpath(*package.split("."))
    tree = ast.parse((folder / "__init__.py").read_text(encoding="utf-8"))
    imports = _type_checking_imports(tree)
    exported = _literal(tree, "__all__")
    sources = _literal(tree, "_SOURCES")
    assert isinstance(exported, list)
    assert isinstance(sources, dict)
    assert sorted(exported) == sorted(sources) == sorted(imports)
    assert sources == imports
    module = importlib.import_module(package)
    for name, source in sources.items():
        # The table names the module that defines the name, not one that re-exports it.
        value = getattr(importlib.import_module(source), name)
        if (folder / f"{name}.py").exists():
            # A function named as its submodule (tabletop.obstacles.catalog): importing the
            # submodule binds the module there, as Python does for every package.
            continue
        assert getattr(module, name) is value
        defined_in = getattr(value, "__module__", source)
        if isinstance(defined_in, str) and defined_in.startswith(LAZY):
            assert defined_in == source or not callable(value), (name, defined_in, source)


@pytest.mark.parametrize(
    ("package", "name"),
    [
        ("tabletop.obstacles", "check"),
        ("tabletop.obstacles", "random_setup"),
        ("tabletop.geom", "Ship"),
        ("tabletop.geom", "Rules"),
    ],
)
def test_the_central_names_are_exported(package: str, name: str) -> None:
    assert name in importlib.import_module(package).__all__
