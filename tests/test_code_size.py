"""Small files and small functions, enforced.

No Python file of ``tabletop/``, ``benchmarks/`` or ``tests/`` is over 600 lines and no
function over 80 (its ``def`` line to its last line, docstring included). Complexity is
ruff's C901 at 25 (``pyproject.toml``), checked here to stay configured. The compiled hot
loops alone are longer, each with its reason written here and above its decorator.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("tabletop", "benchmarks", "tests")
MOST_FILE_LINES = 600
MOST_FUNCTION_LINES = 80
MOST_COMPLEXITY = 25

#: The functions allowed over the limits: (file, function) and why; the same reason is
#: written on the line above each one's decorator.
LONG_ON_PURPOSE: dict[tuple[str, str], str] = {
    (
        "tabletop/geom/_arc_kernel.py",
        "arc_hit",
    ): "a compiled kernel, one pair's whole test, no calls",
}


def python_files() -> list[Path]:
    return sorted(path for folder in FOLDERS for path in (ROOT / folder).rglob("*.py"))


def function_lengths(path: Path) -> dict[str, int]:
    """Each function's name (``Class.method`` for methods, nested by dots) and its lines."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    lengths: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = prefix + child.name
                assert child.end_lineno is not None
                lengths[name] = child.end_lineno - child.lineno + 1
                visit(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return lengths


def test_the_files_are_found() -> None:
    files = [path.relative_to(ROOT).as_posix() for path in python_files()]
    assert "tabletop/geom/rules.py" in files
    assert "tests/test_code_size.py" in files
    assert len(files) > 300


def test_no_file_is_over_600_lines() -> None:
    long = {
        path.relative_to(ROOT).as_posix(): lines
        for path in python_files()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_FILE_LINES
    }
    assert long == {}


def test_no_function_is_over_80_lines_but_the_compiled_kernels() -> None:
    long: dict[tuple[str, str], int] = {}
    for path in python_files():
        for name, lines in function_lengths(path).items():
            if lines > MOST_FUNCTION_LINES:
                long[(path.relative_to(ROOT).as_posix(), name)] = lines
    assert set(long) - set(LONG_ON_PURPOSE) == set(), long
    # An entry no longer needed goes: the list names only what is long today.
    assert set(LONG_ON_PURPOSE) <= set(long)


def test_the_long_kernels_say_why_where_they_are() -> None:
    for (file, function), reason in LONG_ON_PURPOSE.items():
        rows = (ROOT / file).read_text(encoding="utf-8").splitlines()
        at = next(i for i, row in enumerate(rows) if row.startswith(f"def {function}("))
        above = rows[at - 2]  # the comment above the decorator
        assert above == f"# Long on purpose (test_code_size.py): {reason}.", above


def test_ruff_holds_complexity_at_25() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    lint = config["tool"]["ruff"]["lint"]
    assert "C90" in lint["select"]
    assert lint["mccabe"]["max-complexity"] == MOST_COMPLEXITY


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def f():\n    return 1\n", {"f": 2}),
        (
            "class A:\n    def m(self):\n        def inner():\n            pass\n"
            "        return inner\n",
            {"A.m": 4, "A.m.inner": 2},
        ),
    ],
)
def test_function_lengths_count_def_to_last_line(
    tmp_path: Path, source: str, expected: dict[str, int]
) -> None:
    path = tmp_path / "module.py"
    path.write_text(source, encoding="utf-8")
    assert function_lengths(path) == expected
