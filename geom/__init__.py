"""The geometry kernel: poses, shapes, play areas, rulesets, distances, bands and arcs.

It knows no game phase: everything here is a pure function of poses, outlines and a
:class:`~geom.rulesets.Ruleset`. Array functions come first (numpy arrays of poses and
shapely geometries in, arrays out); scalar helpers unpack one answer.
"""

from geom.arcs import (
    XWING_ARCS,
    AttackRange,
    arc_region_outline,
    attack_range,
    in_arc,
    parse_xwing_arc,
)
from geom.areas import AREA_PRESETS, EDGES, PlayArea, play_area
from geom.errors import IllegalManeuverError, InvalidConstantError, InvalidInputError, TabletopError
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
