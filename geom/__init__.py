"""The geometry kernel: poses, shapes, play areas, rulesets, distances, bands and arcs.

It knows no game phase: everything here is a pure function of poses, outlines and a
:class:`~geom.rulesets.Ruleset`. Array functions come first (numpy arrays of poses and
shapely geometries in, arrays out); scalar helpers unpack one answer.
"""

import typing as _typing

from geom._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from geom.arcs import (
        XWING_ARCS,
        AttackRange,
        arc_region_outline,
        attack_range,
        in_arc,
        parse_xwing_arc,
    )
    from geom.areas import AREA_PRESETS, EDGES, PlayArea, play_area
    from geom.errors import (
        IllegalManeuverError,
        InvalidConstantError,
        InvalidInputError,
        TabletopError,
    )
    from geom.hulls import (
        HULL_ZONES,
        ArmadaAttack,
        HullArcs,
        armada_attack_range,
        firing_arc,
        hull_arcs,
        hull_names,
        hull_token,
        hull_zone,
        targeting_point,
    )
    from geom.measure import (
        EPSILON_MM,
        BandReport,
        band,
        band_report,
        bands,
        closest_points,
        contested,
        distance,
        overlaps,
    )
    from geom.poses import (
        Degrees,
        FloatArray,
        Millimetres,
        as_poses,
        compose,
        normalize_heading,
        to_local,
        to_world,
    )
    from geom.rulesets import CONSTANT_NAMES, RULESET_NAMES, RULESETS, Ruleset, get_ruleset
    from geom.shapes import (
        Footprint,
        base_footprint,
        place_outline,
        rectangle,
        world_polygon,
        world_polygons,
    )

__all__ = [
    "AREA_PRESETS",
    "CONSTANT_NAMES",
    "EDGES",
    "EPSILON_MM",
    "HULL_ZONES",
    "RULESETS",
    "RULESET_NAMES",
    "XWING_ARCS",
    "ArmadaAttack",
    "AttackRange",
    "BandReport",
    "Degrees",
    "FloatArray",
    "Footprint",
    "HullArcs",
    "IllegalManeuverError",
    "InvalidConstantError",
    "InvalidInputError",
    "Millimetres",
    "PlayArea",
    "Ruleset",
    "TabletopError",
    "arc_region_outline",
    "armada_attack_range",
    "as_poses",
    "attack_range",
    "band",
    "band_report",
    "bands",
    "base_footprint",
    "closest_points",
    "compose",
    "contested",
    "distance",
    "firing_arc",
    "get_ruleset",
    "hull_arcs",
    "hull_names",
    "hull_token",
    "hull_zone",
    "in_arc",
    "normalize_heading",
    "overlaps",
    "parse_xwing_arc",
    "place_outline",
    "play_area",
    "rectangle",
    "targeting_point",
    "to_local",
    "to_world",
    "world_polygon",
    "world_polygons",
]

# Names load on first use (PEP 562), so that a command pays only for what it uses.
_SOURCES: dict[str, str] = {
    "AREA_PRESETS": "geom.areas",
    "ArmadaAttack": "geom.hulls",
    "AttackRange": "geom.arcs",
    "BandReport": "geom.measure",
    "CONSTANT_NAMES": "geom.rulesets",
    "Degrees": "geom.poses",
    "EDGES": "geom.areas",
    "EPSILON_MM": "geom.measure",
    "FloatArray": "geom.poses",
    "Footprint": "geom.shapes",
    "HULL_ZONES": "geom.hulls",
    "HullArcs": "geom.hulls",
    "IllegalManeuverError": "geom.errors",
    "InvalidConstantError": "geom.errors",
    "InvalidInputError": "geom.errors",
    "Millimetres": "geom.poses",
    "PlayArea": "geom.areas",
    "RULESETS": "geom.rulesets",
    "RULESET_NAMES": "geom.rulesets",
    "Ruleset": "geom.rulesets",
    "TabletopError": "geom.errors",
    "XWING_ARCS": "geom.arcs",
    "arc_region_outline": "geom.arcs",
    "armada_attack_range": "geom.hulls",
    "as_poses": "geom.poses",
    "attack_range": "geom.arcs",
    "band": "geom.measure",
    "band_report": "geom.measure",
    "bands": "geom.measure",
    "base_footprint": "geom.shapes",
    "closest_points": "geom.measure",
    "compose": "geom.poses",
    "contested": "geom.measure",
    "distance": "geom.measure",
    "firing_arc": "geom.hulls",
    "get_ruleset": "geom.rulesets",
    "hull_arcs": "geom.hulls",
    "hull_names": "geom.hulls",
    "hull_token": "geom.hulls",
    "hull_zone": "geom.hulls",
    "in_arc": "geom.arcs",
    "normalize_heading": "geom.poses",
    "overlaps": "geom.measure",
    "parse_xwing_arc": "geom.arcs",
    "place_outline": "geom.shapes",
    "play_area": "geom.areas",
    "rectangle": "geom.shapes",
    "targeting_point": "geom.hulls",
    "to_local": "geom.poses",
    "to_world": "geom.poses",
    "world_polygon": "geom.shapes",
    "world_polygons": "geom.shapes",
}


__getattr__, __dir__ = _lazy_attributes(__name__, _SOURCES, __all__)
