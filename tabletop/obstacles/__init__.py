"""Obstacles: token catalogs, scenes, measuring between objects, placement rules."""

import typing as _typing

from tabletop.geom.lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from tabletop.geom.measure import (
        json_mm,
    )
    from tabletop.obstacles.armada_detail import (
        ArmadaDetail,
        MeasurementDetail,
    )
    from tabletop.obstacles.catalog import (
        KINDS,
        Token,
        catalog,
        get_token,
    )
    from tabletop.obstacles.legality import (
        MAX_FIXES,
        TooManyFixesError,
        check,
    )
    from tabletop.obstacles.measurement import (
        RANGE_BAND_NAMES,
        Measurement,
        XWingDetail,
    )
    from tabletop.obstacles.measuring import (
        measure,
    )
    from tabletop.obstacles.scene import (
        Obstacle,
        Scene,
    )
    from tabletop.obstacles.sceneformat import (
        MAX_OBJECTS,
        MAX_OUTLINE_VERTICES,
        SceneFormatError,
        scene_from_dict,
    )
    from tabletop.obstacles.setup import (
        random_setup,
    )
    from tabletop.obstacles.verdicts import (
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
    "ArmadaDetail": "tabletop.obstacles.armada_detail",
    "CheckReport": "tabletop.obstacles.verdicts",
    "KINDS": "tabletop.obstacles.catalog",
    "MAX_FIXES": "tabletop.obstacles.legality",
    "Margin": "tabletop.obstacles.verdicts",
    "TooManyFixesError": "tabletop.obstacles.legality",
    "MAX_OBJECTS": "tabletop.obstacles.sceneformat",
    "MAX_OUTLINE_VERTICES": "tabletop.obstacles.sceneformat",
    "Measurement": "tabletop.obstacles.measurement",
    "MeasurementDetail": "tabletop.obstacles.armada_detail",
    "Obstacle": "tabletop.obstacles.scene",
    "RANGE_BAND_NAMES": "tabletop.obstacles.measurement",
    "Scene": "tabletop.obstacles.scene",
    "SceneFormatError": "tabletop.obstacles.sceneformat",
    "Token": "tabletop.obstacles.catalog",
    "Violation": "tabletop.obstacles.verdicts",
    "XWingDetail": "tabletop.obstacles.measurement",
    "catalog": "tabletop.obstacles.catalog",
    "check": "tabletop.obstacles.legality",
    "get_token": "tabletop.obstacles.catalog",
    "json_mm": "tabletop.geom.measure",
    "measure": "tabletop.obstacles.measuring",
    "random_setup": "tabletop.obstacles.setup",
    "scene_from_dict": "tabletop.obstacles.sceneformat",
}


__getattr__, __dir__ = _lazy_attributes(__name__, _SOURCES, __all__)
