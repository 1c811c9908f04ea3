"""Obstacles: token catalogs, scenes, measuring between objects, placement rules."""

from obstacles.catalog import KINDS, Token, catalog, get_token
from obstacles.measuring import RANGE_BAND_NAMES, Measurement, json_mm, measure
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
