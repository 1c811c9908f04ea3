"""Armada ship tokens: hull zones, firing arcs, targeting points and attack range.

A ship token is the printed card on the base (``Ruleset.armada_token_sizes``). Its four
printed arc lines are rays from apexes on the centre line (``geom/data/armada-hulls.json``):
the front lines leave ``(0, front_apex_y)`` at ± ``front_half_angle`` from +y, the rear
lines leave ``(0, rear_apex_y)`` at ± ``rear_half_angle`` from -y. A hull zone is the part
of the token between two lines; its firing arc is the unbounded region between them. A
ship without a known hull uses a generic token whose lines run from the corners to the
centre, and answers that used it carry a note.

Examples
--------
>>> from tabletop.geom.rulesets import get_ruleset
>>> arcs, note = hull_arcs(get_ruleset("armada"), "small", "cr90")
>>> arcs.front_half_angle, note
(40.9, None)
>>> round(hull_zone(get_ruleset("armada"), "small", arcs, "front").area, 1) > 0
True
"""

from __future__ import annotations

import dataclasses as _dc
import functools as _functools
import itertools as _itertools
import json as _json
import math as _math
from collections.abc import Mapping
from pathlib import Path as _Path
from typing import Any

import numpy as np
import shapely
from numpy.typing import ArrayLike

from tabletop.geom.arcs import FAR_MM
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.measure import closest_points
from tabletop.geom.poses import FloatArray
from tabletop.geom.rulesets import Ruleset
from tabletop.geom.shapes import rectangle, world_polygon
from tabletop.geom.tolerance import EPSILON_MM

#: The package's data files (installed with it).
_DATA = _Path(__file__).parent / "data"

__all__ = [
    "HULL_ZONES",
    "ArmadaAttack",
    "HullArcs",
    "armada_attack_range",
    "firing_arc",
    "hull_arcs",
    "hull_base",
    "hull_names",
    "hull_token",
    "hull_zone",
    "targeting_point",
    "zones_crossed",
]

#: The hull zones of a (non-huge) Armada ship, in the order ties are broken.
HULL_ZONES: tuple[str, ...] = ("front", "left", "right", "rear")


@_dc.dataclass(frozen=True)
class HullArcs:
    """Where a hull's printed arc lines run, in the ship frame (mm, degrees).

    Attributes
    ----------
    hull : str
        Hull name (``"generic"`` for the corner-to-centre token).
    front_apex_y, rear_apex_y : float
        Where the front and rear lines leave the centre line.
    front_half_angle, rear_half_angle : float
        Angles of the lines from +y (front) and from -y (rear).
    targeting_points : mapping of zone to (x, y), or None
        Measured targeting points, where the data has them.

    Raises
    ------
    InvalidInputError
        For lines that do not bound four hull zones: a value that is not a finite
        number, a half-angle outside (0°, 90°), or a front apex behind the rear one (the
        front and rear lines would cross at the centre line). ``where`` names the hull.

    Examples
    --------
    >>> HullArcs("twisted", front_apex_y=-10.0, rear_apex_y=10.0,
    ...          front_half_angle=40.0, rear_half_angle=40.0)
    Traceback (most recent call last):
    ...
    tabletop.geom.errors.InvalidInputError: hull 'twisted': the front apex (y = -10.0) is behind the rear apex (y = 10.0): the front and rear arc lines would cross; expected front_apex_y >= rear_apex_y
    """

    hull: str
    front_apex_y: float
    rear_apex_y: float
    front_half_angle: float
    rear_half_angle: float
    targeting_points: Mapping[str, tuple[float, float]] | None = None

    def __post_init__(self) -> None:
        """Refuse arc lines that cannot bound four hull zones (naming the hull)."""
        where = f"hull {self.hull!r}"
        for name in ("front_apex_y", "rear_apex_y", "front_half_angle", "rear_half_angle"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise InvalidInputError(f"{name}: expected a number, got {value!r}", where)
            if not _math.isfinite(value):
                raise InvalidInputError(f"{name}: expected a finite number, got {value!r}", where)
        for name in ("front_half_angle", "rear_half_angle"):
            value = getattr(self, name)
            if not 0.0 < value < 90.0:
                raise InvalidInputError(
                    f"{name}: expected an angle above 0 and below 90 degrees, got {value!r}",
                    where,
                )
        if self.front_apex_y < self.rear_apex_y:
            raise InvalidInputError(
                f"the front apex (y = {self.front_apex_y!r}) is behind the rear apex "
                f"(y = {self.rear_apex_y!r}): the front and rear arc lines would cross; "
                "expected front_apex_y >= rear_apex_y",
                where,
            )


@_functools.cache
def _hull_data() -> dict[str, Any]:
    text = (_DATA / "armada-hulls.json").read_text("utf-8")
    data: dict[str, Any] = _json.loads(text)
    return data


@_functools.cache
def _hulls() -> Mapping[str, HullArcs]:
    data = _hull_data()
    points = data["targeting_points"]["hulls"]
    hulls: dict[str, HullArcs] = {}
    for entry in data["hulls"]:
        if entry["rear_apex_y"] is None:
            continue  # six hull zones (the huge hull): not modelled, uses the generic token
        tp = points.get(entry["hull"])
        hulls[entry["hull"]] = HullArcs(
            hull=entry["hull"],
            front_apex_y=float(entry["front_apex_y"]),
            rear_apex_y=float(entry["rear_apex_y"]),
            front_half_angle=float(entry["front_half_angle"]),
            rear_half_angle=float(entry["rear_half_angle"]),
            targeting_points=(
                {z: (float(tp[z][0]), float(tp[z][1])) for z in HULL_ZONES} if tp else None
            ),
        )
    return hulls


def hull_names() -> tuple[str, ...]:
    """Return every hull name a scene's ``hull`` key accepts."""
    return tuple(entry["hull"] for entry in _hull_data()["hulls"])


def hull_base(hull: str) -> str:
    """Return the base a hull's ship sits on (its size class in the hull data).

    Raises
    ------
    InvalidInputError
        For a hull name the data does not hold.

    Examples
    --------
    >>> hull_base("victory"), hull_base("cr90"), hull_base("super-star-destroyer")
    ('medium', 'small', 'huge')
    """
    for entry in _hull_data()["hulls"]:
        if entry["hull"] == hull:
            return str(entry["base"])
    raise InvalidInputError(f"unknown hull {hull!r}; expected one of: " + ", ".join(hull_names()))


def hull_token(ruleset: Ruleset, base: str) -> FloatArray:
    """Return the printed ship token of a base as ship-frame vertices ``(4, 2)``."""
    try:
        width, length = ruleset.armada_token_sizes[base]
    except KeyError:
        raise InvalidInputError(f"an Armada {base!r} base has no ship token") from None
    return rectangle(width, length)


def hull_arcs(ruleset: Ruleset, base: str, hull: str | None) -> tuple[HullArcs, str | None]:
    """Return the arc lines of a hull on a base, and a note when they are generic.

    Raises
    ------
    InvalidInputError
        For a hull name the data does not hold (the message lists those it does).
    """
    if hull is not None and hull not in hull_names():
        raise InvalidInputError(
            f"unknown hull {hull!r}; expected one of: " + ", ".join(hull_names())
        )
    known = _hulls().get(hull) if hull else None
    if known is not None:
        return known, None
    width, length = ruleset.armada_token_sizes[base]
    corner = _math.degrees(_math.atan2(width / 2.0, length / 2.0))
    reason = (
        f"hull {hull!r} has six hull zones, which are not modelled" if hull else "no hull given"
    )
    note = (
        f"{reason}: a generic token was used, its arc lines running from the corners to the centre"
    )
    return HullArcs("generic", 0.0, 0.0, corner, corner), note


def _check_zone(zone: str) -> None:
    if zone not in HULL_ZONES:
        raise InvalidInputError(
            f"unknown hull zone {zone!r}; expected one of: " + ", ".join(HULL_ZONES)
        )


def firing_arc(arcs: HullArcs, zone: str) -> shapely.Polygon:
    """Return the firing arc of a hull zone in the ship frame (cut at :data:`FAR_MM`)."""
    _check_zone(zone)
    fa, ra = arcs.front_apex_y, arcs.rear_apex_y
    af, ar = _math.radians(arcs.front_half_angle), _math.radians(arcs.rear_half_angle)
    front_left = (-FAR_MM * _math.sin(af), fa + FAR_MM * _math.cos(af))
    rear_left = (-FAR_MM * _math.sin(ar), ra - FAR_MM * _math.cos(ar))
    if zone == "front":
        ring = [(0.0, fa), (-front_left[0], front_left[1]), front_left]
    elif zone == "rear":
        ring = [(0.0, ra), rear_left, (-rear_left[0], rear_left[1])]
    elif zone == "left":
        ring = [(0.0, fa), front_left, rear_left, (0.0, ra)]
    else:
        ring = [
            (0.0, ra),
            (-rear_left[0], rear_left[1]),
            (-front_left[0], front_left[1]),
            (0.0, fa),
        ]
    return shapely.orient_polygons(shapely.Polygon(ring))


def hull_zone(ruleset: Ruleset, base: str, arcs: HullArcs, zone: str) -> shapely.Polygon:
    """Return a hull zone: the part of the ship token in the zone's firing arc (ship frame).

    Raises
    ------
    InvalidInputError
        When the zone is not a region of the token (an apex off the token, or lines
        that leave a zone no area); ``where`` names the hull.
    """
    zone_part = shapely.intersection(
        shapely.Polygon(hull_token(ruleset, base)), firing_arc(arcs, zone)
    )
    if not isinstance(zone_part, shapely.Polygon) or zone_part.area <= EPSILON_MM:
        width, length = ruleset.armada_token_sizes[base]
        raise InvalidInputError(
            f"its arc lines leave the {zone} hull zone no area on a {base} ship token "
            f"({width:g} x {length:g} mm); expected apexes on the token's centre line, "
            f"within {length / 2.0:g} mm of its centre",
            f"hull {arcs.hull!r}",
        )
    return zone_part


def targeting_point(
    ruleset: Ruleset, base: str, arcs: HullArcs, zone: str
) -> tuple[tuple[float, float], str | None]:
    """Return a hull zone's targeting point (ship frame) and a note when it is estimated."""
    _check_zone(zone)
    if arcs.targeting_points is not None:
        return arcs.targeting_points[zone], None
    centroid = hull_zone(ruleset, base, arcs, zone).centroid
    return (float(centroid.x), float(centroid.y)), (
        f"no measured targeting point for the {zone} hull zone of {arcs.hull!r}: "
        "the centroid of the hull zone was used"
    )


def _chords(ring: FloatArray, centre: shapely.Point, radius: float) -> shapely.Geometry:
    """Return the parts of a closed ring's edges inside a circle, as exact segments."""
    c = np.array([centre.x, centre.y])
    pieces = []
    for p, q in _itertools.pairwise(ring):
        if np.hypot(*(q - c)) < np.hypot(*(p - c)):
            p, q = q, p  # measure from the nearer end, for precision on long edges
        length = float(np.hypot(*(q - p)))
        u = (q - p) / length
        along = float(np.dot(c - p, u))
        off = float(abs(u[0] * (c - p)[1] - u[1] * (c - p)[0]))
        if off > radius:
            continue
        half = _math.sqrt(radius * radius - off * off)
        lo, hi = max(along - half, 0.0), min(along + half, length)
        if lo <= hi:
            pieces.append(shapely.LineString([p + lo * u, p + hi * u]))
    return shapely.MultiLineString(pieces)


@_dc.dataclass(frozen=True, eq=False)
class ArmadaAttack:
    """An Armada attack measured from a hull zone.

    Attributes
    ----------
    in_arc : bool
        Whether any part of the defending hull zone (or squadron) is in the firing arc.
    distance : float
        Attack range, mm; the plain distance between the hull zone and the defender's
        token when nothing is in arc.
    points : ndarray of shape (2, 2)
        The closest points (attacker first).
    defending_zone : str or None
        The defending hull zone measured to (None for a squadron).
    crossed : tuple of (str, float)
        The defender's other hull zones whose interior the attack-range segment passes
        through, each with the length inside it, mm (RRG 1.6: measured through another
        hull zone, the attacker has no line of sight to this one).
    """

    in_arc: bool
    distance: float
    points: FloatArray
    defending_zone: str | None
    crossed: tuple[tuple[str, float], ...] = ()


def zones_crossed(
    ruleset: Ruleset,
    defender_pose: ArrayLike,
    defender_base: str,
    defender_arcs: HullArcs,
    defending_zone: str,
    segment: ArrayLike,
) -> tuple[tuple[str, float], ...]:
    """Return the other hull zones whose interior a segment passes through, with the length.

    Running along a zone's edge (an arc line, within the tolerance) or touching it at a
    point is not passing through it: only a length of more than
    :data:`~tabletop.geom.tolerance.EPSILON_MM` deeper than the tolerance inside the zone counts.

    Examples
    --------
    >>> from tabletop.geom.rulesets import get_ruleset
    >>> armada = get_ruleset("armada")
    >>> arcs, _ = hull_arcs(armada, "small", "gladiator")
    >>> # From ahead of the ship, straight down the centre line into the rear zone.
    >>> [(z, round(mm, 3)) for z, mm in zones_crossed(
    ...     armada, [0, 0, 90], "small", arcs, "rear", [[0.0, 60.0], [0.0, -30.0]])]
    [('front', 33.525)]
    """
    _check_zone(defending_zone)
    line = shapely.LineString(np.asarray(segment, dtype=np.float64))
    crossed = []
    for name in HULL_ZONES:
        if name == defending_zone:
            continue
        local = hull_zone(ruleset, defender_base, defender_arcs, name)
        zone = world_polygon(np.asarray(local.exterior.coords)[:-1], defender_pose)
        # Within the tolerance of an arc line is on it: only the part of the segment
        # deeper than EPSILON_MM inside the zone (its inset, exact for a convex zone)
        # decides; the length reported is the whole length inside.
        inset = shapely.buffer(zone, -EPSILON_MM, join_style="mitre")
        if float(shapely.intersection(line, inset).length) > EPSILON_MM:
            crossed.append((name, float(shapely.intersection(line, zone).length)))
    return tuple(crossed)


def armada_attack_range(
    ruleset: Ruleset,
    attacker_pose: ArrayLike,
    attacker_base: str,
    attacker_arcs: HullArcs,
    zone: str,
    defender_pose: ArrayLike,
    defender_base: str,
    defender_arcs: HullArcs | None,
    *,
    defending_zone: str | None = None,
) -> ArmadaAttack:
    """Measure attack range from a hull zone to a ship's hull zone or a squadron.

    From the closest point of the attacking hull zone to the closest point of the
    defending hull zone that lies inside the attacking zone's firing arc. Without
    `defending_zone`, the closest in-arc hull zone is taken (ties in the order of
    :data:`HULL_ZONES`). A squadron defender (``defender_arcs`` None) is its disk.
    The answer lists the defender's other hull zones the segment passes through
    (:func:`zones_crossed`): through any of them the attacker has no line of sight.
    """
    attacking = world_polygon(
        shapely.get_coordinates(
            shapely.get_exterior_ring(hull_zone(ruleset, attacker_base, attacker_arcs, zone))
        )[:-1],
        attacker_pose,
    )
    region = world_polygon(
        np.asarray(firing_arc(attacker_arcs, zone).exterior.coords)[:-1], attacker_pose
    )
    if defender_arcs is None:
        radius = ruleset.armada_squadron_diameter / 2.0
        centre = shapely.Point(np.asarray(defender_pose, dtype=np.float64)[:2])
        d, pts = closest_points(attacking, centre, 0.0, radius)
        if float(shapely.distance(region, centre)) > radius:
            return ArmadaAttack(False, float(d), pts, None)
        # Exact, never a polygonised disk: the disk's own nearest point if it is in arc;
        # else the optimum over disk ∩ arc (both convex) lies on the arc's boundary, on
        # the chords the arc lines cut through the circle.
        chords = _chords(np.asarray(region.exterior.coords), centre, radius)
        if shapely.intersects(region, shapely.Point(pts[1])) or chords.is_empty:
            return ArmadaAttack(True, float(d), pts, None)
        d, pts = closest_points(attacking, chords)
        return ArmadaAttack(True, float(d), pts, None)
    zones = (defending_zone,) if defending_zone else HULL_ZONES
    best: ArmadaAttack | None = None
    for name in zones:
        assert name is not None
        local = hull_zone(ruleset, defender_base, defender_arcs, name)
        target = world_polygon(np.asarray(local.exterior.coords)[:-1], defender_pose)
        part = shapely.intersection(target, region)
        if part.is_empty:
            continue
        d, pts = closest_points(attacking, part)
        if best is None or float(d) < best.distance - 1e-9:
            best = ArmadaAttack(True, float(d), pts, name)
    if best is not None:
        assert best.defending_zone is not None
        crossed = zones_crossed(
            ruleset, defender_pose, defender_base, defender_arcs, best.defending_zone, best.points
        )
        return _dc.replace(best, crossed=crossed)
    token = world_polygon(hull_token(ruleset, defender_base), defender_pose)
    d, pts = closest_points(attacking, token)
    return ArmadaAttack(False, float(d), pts, defending_zone)


@_functools.cache
def _speed_charts() -> Mapping[str, tuple[tuple[int, ...], ...]]:
    data = _json.loads((_DATA / "armada-speed-charts.json").read_text("utf-8"))
    return {hull: tuple(tuple(row) for row in rows) for hull, rows in data["hulls"].items()}


def speed_chart(hull: str | None) -> tuple[tuple[int, ...], ...] | None:
    """Return a hull's speed chart, or None where the hull is unknown or not given.

    Row ``s - 1`` holds, for speed ``s``, the most yaw clicks each joint may take either
    way; the number of rows is the hull's top speed.

    Examples
    --------
    >>> speed_chart("victory")
    ((1,), (0, 1))
    >>> speed_chart(None) is None
    True
    """
    if hull is None:
        return None
    return _speed_charts().get(hull)
