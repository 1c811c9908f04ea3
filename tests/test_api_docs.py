"""Every package has an ``__all__``, and every name it exports is documented."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

PACKAGES = (
    "tabletop",
    "tabletop.geom",
    "tabletop.obstacles",
    "tabletop.maneuvers",
    "tabletop.plots",
    "tabletop.app",
    "tabletop.boards",
    "tabletop.boards.pocket",
    "tabletop.boards.dogfight",
)


def _exported(package: str) -> list[tuple[str, object]]:
    module = importlib.import_module(package)
    names: list[str] = list(module.__all__)
    return [(name, getattr(module, name)) for name in names]


@pytest.mark.parametrize("package", PACKAGES)
def test_every_package_has_an_all_of_real_names(package: str) -> None:
    module = importlib.import_module(package)
    assert module.__doc__, f"{package} has no docstring"
    assert isinstance(module.__all__, list | tuple)
    assert len(set(module.__all__)) == len(module.__all__), "a name is exported twice"
    for name in module.__all__:
        assert hasattr(module, name), f"{package}.__all__ names {name!r}, which it lacks"


def _documented_constant(package: str, name: str) -> bool:
    """A constant is documented by a ``#:`` comment above it, or in a module docstring."""
    root = Path(importlib.import_module(package).__file__ or "").parent
    pattern = re.compile(rf"#:.*\n(?:#:.*\n)*{re.escape(name)}\b")
    for source in root.glob("*.py"):
        text = source.read_text(encoding="utf-8")
        if pattern.search(text):
            return True
    return False


@pytest.mark.parametrize(
    ("package", "name"),
    [(package, name) for package in PACKAGES for name, _ in _exported(package)],
)
def test_every_exported_name_is_documented(package: str, name: str) -> None:
    value = getattr(importlib.import_module(package), name)
    if inspect.isclass(value) or inspect.isfunction(value) or inspect.ismodule(value):
        assert inspect.getdoc(value), f"{package}.{name} has no docstring"
    else:
        assert _documented_constant(package, name), (
            f"{package}.{name} has no '#:' comment where it is defined"
        )
