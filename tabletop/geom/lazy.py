"""Lazy package attributes (PEP 562), shared by the packages' ``__init__`` modules.

A command imports only the modules it uses: ``tabletop check`` never loads matplotlib,
numba or the maneuver code just because a package ``__init__`` names them.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping

__all__ = ["lazy_attributes"]


def lazy_attributes(
    package: str, sources: Mapping[str, str], exported: Iterable[str]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """Return a package's ``__getattr__`` and ``__dir__`` loading names on first use.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    sources : mapping of str to str
        Each exported name and the module that defines it.
    exported : iterable of str
        The package's ``__all__``.
    """
    names = sorted(exported)

    def __getattr__(name: str) -> object:
        source = sources.get(name)
        if source is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(source), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(names))

    return __getattr__, __dir__
