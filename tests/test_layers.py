"""Imports flow one way: geom <- obstacles <- maneuvers <- plots <- app, inside ``tabletop``.

Every module of every layer is read (not imported): its import statements anywhere
(function bodies included) and the imports in its doctest examples. A layer may import
itself and the layers below it; ``boards`` and ``tournament`` are leaves beside ``geom``
that import nothing of ours; nothing imports ``tabletop.app`` but the application itself
and the package root (``tabletop/__init__.py`` re-exports the scene-file names lazily,
``tabletop/__main__.py`` runs the command).

Inside the application: a few modules at the top of ``app/``, one sub-package per command
family (each saying what it holds), no circle between them, one Host/Origin guard. Across
the whole package: no private name (nor private module) imported from another package.
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


# -- the application, by feature ----------------------------------------------------------

APP = PACKAGE / "app"
#: Most modules at the top of ``app/``: the entry, the package, and little else.
MOST_APP_TOP_MODULES = 6


def _app_subpackages() -> list[str]:
    return sorted(p.name for p in APP.iterdir() if (p / "__init__.py").is_file())


def _imported_modules(tree: ast.AST) -> list[str]:
    modules: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules += [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Import):
            modules += [a.name for a in node.names]
    return modules


def _app_graph() -> dict[str, set[str]]:
    """Return each sub-package of ``app`` and the other sub-packages it imports."""
    graph: dict[str, set[str]] = {name: set() for name in _app_subpackages()}
    for name, uses in graph.items():
        for path in (APP / name).rglob("*.py"):
            for module in _imported_modules(ast.parse(path.read_text(encoding="utf-8"))):
                parts = module.split(".")
                if parts[:2] == ["tabletop", "app"] and len(parts) > 2:
                    if parts[2] in graph and parts[2] != name:
                        uses.add(parts[2])
    return graph


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    """Return a circle of `graph` (its names, the first again at the end), or None."""
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str] | None:
        if name in path:
            return [*path[path.index(name) :], name]
        if name in done:
            return None
        for used in sorted(graph[name]):
            if found := visit(used, [*path, name]):
                return found
        done.add(name)
        return None

    for name in sorted(graph):
        if found := visit(name, []):
            return found
    return None


def test_the_top_of_app_holds_few_modules() -> None:
    top = sorted(p.name for p in APP.glob("*.py"))
    assert "cli.py" in top
    assert len(top) <= MOST_APP_TOP_MODULES, top


@pytest.mark.parametrize("name", _app_subpackages())
def test_every_sub_package_of_app_says_what_it_holds(name: str) -> None:
    tree = ast.parse((APP / name / "__init__.py").read_text(encoding="utf-8"))
    docstring = ast.get_docstring(tree)
    assert docstring is not None, f"app/{name}/__init__.py has no docstring"
    assert len(docstring) > 40, f"app/{name}/__init__.py says too little"


def test_no_circle_between_the_sub_packages_of_app() -> None:
    assert _circle(_app_graph()) is None


def test_the_circle_finder_finds_one() -> None:
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"b"}}) == ["b", "c", "b"]
    assert _circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_one_host_and_origin_guard() -> None:
    """Only the web layer's guard reads the Host and Origin headers of a request."""
    readers = sorted(
        str(p.relative_to(PACKAGE))
        for p in PACKAGE.rglob("*.py")
        if b'b"origin"' in p.read_bytes() or b'b"host"' in p.read_bytes()
    )
    assert readers == ["app/web/guard.py"]


def _package_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).parent.parts)


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _owner(dotted: str) -> str:
    """Return the package that holds `dotted` (a package, a module, or a name in a module)."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        if (ROOT.joinpath(*parts[:end]) / "__init__.py").is_file():
            return ".".join(parts[:end])
    return parts[0]


def _private_imports(text: str, here: str) -> list[str]:
    """Return each private name (or private module) `text` imports from outside package `here`."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            dotted_names = [(f"{node.module}.{a.name}", a.name) for a in node.names]
            for dotted, name in dotted_names:
                crosses = dotted.startswith("tabletop.") and _owner(dotted) != here
                if crosses and any(map(_is_private, dotted.split("."))):
                    found.append(f"from {node.module} import {name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                crosses = alias.name.startswith("tabletop.") and _owner(alias.name) != here
                if crosses and any(map(_is_private, alias.name.split("."))):
                    found.append(f"import {alias.name}")
    return found


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT))
)
def test_no_private_name_is_imported_across_packages(path: Path) -> None:
    assert _private_imports(path.read_text(encoding="utf-8"), _package_of(path)) == []


def test_the_private_import_finder_finds_one() -> None:
    text = (
        "from tabletop.geom.strategies import _area\n"
        "from tabletop.obstacles._kernels import jit\n"
        "from tabletop.geom import _kernels, batch\n"
        "import tabletop.geom._kernels\n"
        "from tabletop.geom.strategies import poses\n"
    )
    assert _private_imports(text, "tabletop.obstacles") == [
        "from tabletop.geom.strategies import _area",
        "from tabletop.geom import _kernels",
        "import tabletop.geom._kernels",
    ]
    assert _private_imports(text, "tabletop.geom") == [
        "from tabletop.obstacles._kernels import jit"
    ]
