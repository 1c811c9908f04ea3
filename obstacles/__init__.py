"""Obstacles: token catalogs, scenes, measuring between objects, placement rules."""

import typing as _typing

from geom._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from geom.measure import (
        json_mm,
    )
    from obstacles.catalog import (
        KINDS,
        Token,
        catalog,
        get_token,
    )
    from obstacles.legality import (
        MAX_FIXES,
        TooManyFixesError,
        check,
    )
    from obstacles.measurement import (
        RANGE_BAND_NAMES,
        ArmadaDetail,
        Measurement,
        MeasurementDetail,
        XWingDetail,
    )
    from obstacles.measuring import (
        measure,
    )
    from obstacles.scene import (
        Obstacle,
        Scene,
    )
    from obstacles.sceneformat import (
        MAX_OBJECTS,
        MAX_OUTLINE_VERTICES,
        SceneFormatError,
        scene_from_dict,
    )
    from obstacles.setup import (
        random_setup,
    )
    from obstacles.verdicts import (
        CheckReport,
        Margin,
        Violation,
    )

__all__ = [
    "KINDS",
    "MAX_FIXES",
    "MAX_OBJECTS",
    "MAX_OUTLINE_VERTICES",
    "RANGE_BAND_NAMES",
    "ArmadaDetail",
    "CheckReport",
    "Margin",
    "Measurement",
    "MeasurementDetail",
    "Obstacle",
    "Scene",
    "SceneFormatError",
    "Token",
    "TooManyFixesError",
    "Violation",
    "XWingDetail",
    "catalog",
    "check",
    "get_token",
    "json_mm",
    "measure",
    "random_setup",
    "scene_from_dict",
]

# Names load on first use (PEP 562), so that a command pays only for what it uses.
_SOURCES: dict[str, str] = {
    "ArmadaDetail": "obstacles.measurement",
    "CheckReport": "obstacles.verdicts",
    "KINDS": "obstacles.catalog",
    "MAX_FIXES": "obstacles.legality",
    "Margin": "obstacles.verdicts",
    "TooManyFixesError": "obstacles.legality",
    "MAX_OBJECTS": "obstacles.sceneformat",
    "MAX_OUTLINE_VERTICES": "obstacles.sceneformat",
    "Measurement": "obstacles.measurement",
    "MeasurementDetail": "obstacles.measurement",
    "Obstacle": "obstacles.scene",
    "RANGE_BAND_NAMES": "obstacles.measurement",
    "Scene": "obstacles.scene",
    "SceneFormatError": "obstacles.sceneformat",
    "Token": "obstacles.catalog",
    "Violation": "obstacles.verdicts",
    "XWingDetail": "obstacles.measurement",
    "catalog": "obstacles.catalog",
    "check": "obstacles.legality",
    "get_token": "obstacles.catalog",
    "json_mm": "geom.measure",
    "measure": "obstacles.measuring",
    "random_setup": "obstacles.setup",
    "scene_from_dict": "obstacles.sceneformat",
}


__getattr__, __dir__ = _lazy_attributes(__name__, _SOURCES, __all__)
