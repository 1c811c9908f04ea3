"""Obstacles: token catalogs, scenes, measuring between objects, placement rules."""

import typing as _typing

from geom._lazy import lazy_attributes as _lazy_attributes

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


__getattr__, __dir__ = _lazy_attributes(__name__, _SOURCES, __all__)
