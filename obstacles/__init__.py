"""Obstacles: token catalogs, scenes, measuring between objects, placement rules."""

import importlib as _importlib
import typing as _typing

if _typing.TYPE_CHECKING:
    from geom.measure import json_mm
    from obstacles.catalog import KINDS, Token, catalog, get_token
    from obstacles.measuring import RANGE_BAND_NAMES, Measurement, measure
    from obstacles.scene import Obstacle, Scene

__all__ = [
    "KINDS",
    "RANGE_BAND_NAMES",
    "Measurement",
    "Obstacle",
    "Scene",
    "Token",
    "catalog",
    "get_token",
    "json_mm",
    "measure",
]

# Names load on first use (PEP 562), so that a command pays only for what it uses.
_SOURCES: dict[str, str] = {
    "KINDS": "obstacles.catalog",
    "Measurement": "obstacles.measuring",
    "Obstacle": "obstacles.scene",
    "RANGE_BAND_NAMES": "obstacles.measuring",
    "Scene": "obstacles.scene",
    "Token": "obstacles.catalog",
    "catalog": "obstacles.catalog",
    "get_token": "obstacles.catalog",
    "json_mm": "geom.measure",
    "measure": "obstacles.measuring",
}


def __getattr__(name: str) -> object:
    source = _SOURCES.get(name)
    if source is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_importlib.import_module(source), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
