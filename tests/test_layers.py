"""Imports flow one way: geom <- obstacles <- maneuvers <- plots <- app, inside ``tabletop``.

Every module of every layer is read (not imported): its import statements anywhere
(function bodies included) and the imports in its doctest examples. A layer may import
itself and the layers below it; ``boards`` and ``tournament`` are leaves beside ``geom``
that import nothing of ours; nothing imports ``tabletop.app`` but the application itself
and the package root (``tabletop/__init__.py`` re-exports the scene-file names lazily,
``tabletop/__main__.py`` runs the command).
"""

from __future__ import annotations

import ast
import doctest
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tabletop"
#: Each layer and the layers of ours it may import (its own included).
ALLOWED: dict[str, frozenset[str]] = {
    "geom": frozenset({"geom"}),
    "obstacles": frozenset({"geom", "obstacles"}),
    "maneuvers": frozenset({"geom", "obstacles", "maneuvers"}),
    "plots": frozenset({"geom", "obstacles", "maneuvers", "plots", "boards", "tournament"}),
    "app": frozenset({"geom", "obstacles", "maneuvers", "plots", "app", "boards", "tournament"}),
    "boards": frozenset({"boards"}),
    "tournament": frozenset({"tournament"}),
}
#: The package root's own modules: they may name every layer.
ROOT_MODULES = ("__init__.py", "__main__.py")
#: What a module names that is ours but no layer: the bare package, or a layer that is not one.
NOT_A_LAYER = "tabletop"


def _modules() -> list[Path]:
    return sorted(p for layer in ALLOWED for p in (PACKAGE / layer).rglob("*.py"))


def _layer_of(dotted: str) -> str | None:
    """Return the layer a dotted module path names, ``tabletop`` for the root, None if not ours."""
    parts = dotted.split(".")
    if parts[0] != "tabletop":
        return None
    if len(parts) > 1 and parts[1] in ALLOWED:
        return parts[1]
    return NOT_A_LAYER


def _imported(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(layer for a in node.names if (layer := _layer_of(a.name)))
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "tabletop":
                # `from tabletop import geom`: each name is a layer (or a root export).
                found.update(a.name if a.name in ALLOWED else NOT_A_LAYER for a in node.names)
            elif layer := _layer_of(node.module):
                found.add(layer)
    return found


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
def test_a_module_imports_only_its_layer_and_those_below(path: Path) -> None:
    layer = path.relative_to(PACKAGE).parts[0]
    allowed = ALLOWED[layer] | ({NOT_A_LAYER} if layer == "app" else set())
    wrong = _all_imports(path) - allowed
    assert not wrong, f"{path.relative_to(ROOT)} imports {sorted(wrong)} (doctests included)"


def test_every_module_of_the_package_is_in_a_layer_or_the_root() -> None:
    stray = [
        str(p.relative_to(PACKAGE))
        for p in PACKAGE.rglob("*.py")
        if p.relative_to(PACKAGE).parts[0] not in ALLOWED and p.name not in ROOT_MODULES
    ]
    assert stray == []
    assert {p.name for p in PACKAGE.glob("*.py")} == set(ROOT_MODULES)


def test_the_reader_sees_doctest_imports() -> None:
    text = (
        '"""Doc.\n\n>>> from tabletop.app.scene.scenefile import load_scene\n"""\n'
        "from tabletop import geom\nimport tabletop.plots.draw\n"
    )
    tree = ast.parse(text)
    found = _imported(tree)
    for source in _doctest_sources(tree, Path("x.py")):
        found |= _imported(ast.parse(source))
    assert found == {"geom", "plots", "app"}


def test_the_root_names_the_application_lazily() -> None:
    """``import tabletop.geom`` runs the root ``__init__``: it must not import the app."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    eager = {
        layer
        for node in tree.body
        if isinstance(node, ast.ImportFrom | ast.Import)
        for layer in _imported(ast.Module(body=[node], type_ignores=[]))
    }
    assert eager <= {"geom"}


@pytest.fixture(scope="module")
def built_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the wheel from the files git tracks, copied away so the tree is left as it was."""
    source = tmp_path_factory.mktemp("source")
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    for name in filter(None, tracked.split("\0")):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(out),
            str(source),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (wheel,) = out.glob("*.whl")
    return wheel


def test_the_wheel_holds_exactly_one_top_level_package(built_wheel: Path) -> None:
    with zipfile.ZipFile(built_wheel) as wheel:
        names = wheel.namelist()
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert top == {"tabletop"}
    assert "tabletop/geom/data/armada-hulls.json" in names
    assert "tabletop/obstacles/data/xwing-obstacles.json" in names
    assert "tabletop/py.typed" in names
