"""Measuring between scene objects: distance, band, arc and attack range.

This is what ``tabletop measure`` prints. Distances between ships use the bases
without guides (an Armada squadron is its disk); with an arc, the distance is the
attack range to the in-arc part of the defender (X-Wing: its base; Armada: the
defending hull zone, or the squadron's disk).

Either end may instead be a line of the table (:data:`EDGE_TARGETS`): ``edge:bottom``,
``edge:top``, ``edge:left``, ``edge:right`` (the play area's edges; player 1's edge is
the bottom) and, where the ruleset has a setup area apart from the table (Armada on a
long table), ``setup:left`` and ``setup:right`` (its lines one ruler length in from the
short edges) and ``setup:bottom``, ``setup:top`` (on the long edges). The distance is
from the object's closest point to the line (0 where it touches or crosses it), banded
like any other. An object whose id is one of these names is that object.

Examples
--------
>>> from tabletop.geom.rulesets import get_ruleset
>>> from tabletop.geom.areas import play_area
>>> from tabletop.geom.objects import Ship
>>> from tabletop.obstacles.scene import Scene
>>> xw = get_ruleset("xwing2")
>>> a = Ship("a", "small", 100.0, 100.0, 90.0)
>>> b = Ship("b", "small", 100.0, 340.0, 270.0)
>>> m = measure(Scene(xw, play_area("3x3ft"), ships=(a, b)), "a", "b")
>>> m.distance, m.band, m.contested
(200.0, 2, True)
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

import numpy as np
import shapely

from tabletop.geom.arcs import AttackRange, attack_range, parse_xwing_arc
from tabletop.geom.areas import EDGES
from tabletop.geom.errors import InvalidInputError, UnknownObjectError, show
from tabletop.geom.measure import band_report, closest_points, json_mm, line_band
from tabletop.geom.objects import Ship
from tabletop.geom.poses import FloatArray
from tabletop.geom.rulesets import ArmadaRuleset, Ruleset
from tabletop.geom.tolerance import EPSILON_MM, within
from tabletop.obstacles.measurement import (
    RANGE_BAND_NAMES,
    Clearance,
    Measurement,
    Segment,
    XWingDetail,
    segment_of,
)
from tabletop.obstacles.obstruction import (
    TIE_ANGLE_DEGREES,
    Obstructed,
    obstructed_band,
    obstructed_segment,
    segment_clearance,
    tied_bands,
)
from tabletop.obstacles.rulings import contested_ruling, line_report
from tabletop.obstacles.scene import Obstacle, Scene

if TYPE_CHECKING:
    from tabletop.obstacles._armada_shot import _ArmadaArc
    from tabletop.obstacles.measurement import MeasurementDetail

__all__ = [
    "EDGE_TARGETS",
    "RANGE_BAND_NAMES",
    "Measurement",
    "edge_line",
    "edges_may_be_parallel",
    "json_mm",
    "measure",
    "measurement_detail",
    "xwing_shot_fields",
]

#: The lines of the table a measurement may take as an end, in the order errors list them.
EDGE_TARGETS: tuple[str, ...] = (
    *(f"edge:{edge}" for edge in EDGES),
    *(f"setup:{edge}" for edge in EDGES),
)


def edge_line(scene: Scene, name: str) -> shapely.LineString:
    """Return the line called `name` (one of :data:`EDGE_TARGETS`) in `scene`'s frame.

    Raises
    ------
    InvalidInputError
        For another name, or a ``setup:`` line where the ruleset has no setup area apart
        from the play area.

    Examples
    --------
    >>> from tabletop.geom.areas import play_area
    >>> from tabletop.geom.rulesets import get_ruleset
    >>> armada = Scene(get_ruleset("armada"), play_area("6x3ft"))
    >>> edge_line(armada, "setup:left").wkt
    'LINESTRING (304.8 0, 304.8 914.4)'
    >>> edge_line(armada, "edge:top").wkt
    'LINESTRING (0 914.4, 1828.8 914.4)'
    """
    kind, _, edge = name.partition(":")
    if name not in EDGE_TARGETS:
        raise InvalidInputError(
            f"unknown line {name!r}; expected one of: " + ", ".join(EDGE_TARGETS)
        )
    area = scene.area
    if kind == "edge":
        return area.edge_segment(edge)
    x0, y0, x1, y1 = scene.ruleset.setup_area(area).bounds
    if (x0, y0, x1, y1) == (0.0, 0.0, area.width, area.height):
        raise InvalidInputError(
            f"{name!r} is a line of Armada's setup area on a long table; this scene "
            f"({scene.ruleset.name}, {area.width:g} x {area.height:g} mm) has no setup area "
            f"apart from the play area: measure to 'edge:{edge}'"
        )
    return {
        "bottom": shapely.LineString(((x0, y0), (x1, y0))),
        "top": shapely.LineString(((x0, y1), (x1, y1))),
        "left": shapely.LineString(((x0, y0), (x0, y1))),
        "right": shapely.LineString(((x1, y0), (x1, y1))),
    }[edge]


def _shape(scene: Scene, obj: Ship | Obstacle) -> tuple[shapely.Geometry, float]:
    if isinstance(obj, Ship):
        return obj.measured_shape(scene.ruleset)
    return obj.polygon(), 0.0


def measure(
    scene: Scene, a: str, b: str, *, arc: str | None = None, defending_zone: str | None = None
) -> Measurement:
    """Measure from object `a` to object `b` of `scene`, optionally from an arc of `a`.

    Parameters
    ----------
    scene : Scene
        The scene holding both objects.
    a, b : str
        Object ids. With `arc`, both must be ships.
    arc : str, optional
        X-Wing: ``front``, ``rear``, ``left``, ``right``, ``full-front``, ``full-rear``
        or ``bullseye``. Armada: the attacking hull zone ``front``, ``left``, ``right``
        or ``rear``.
    defending_zone : str, optional
        Armada: the defending hull zone to measure to. Without it, the closest in-arc
        hull zone is taken; of zones equally close, the first with line of sight.

    Raises
    ------
    InvalidInputError
        For an unknown id, an arc from or to an obstacle, an unknown arc name, the same
        object twice, or an arc from an Armada squadron.
    """
    ruleset = scene.ruleset
    if a == b:
        raise InvalidInputError(f"cannot measure {a!r} to itself; give two different ids")
    if (a in EDGE_TARGETS and not scene.has(a)) or (b in EDGE_TARGETS and not scene.has(b)):
        return _measure_to_line(scene, a, b, arc=arc, defending_zone=defending_zone)
    first, second = _lookup(scene, a, "from"), _lookup(scene, b, "to")
    notes: list[str] = []
    base_distance: float | None = None
    in_arc: bool | None = None
    shot: _XWingArc | _ArmadaArc | None = None
    if defending_zone is not None and arc is None:
        raise InvalidInputError(_DEFENDING_ZONE_ALONE)
    if arc is None:
        (ga, ra), (gb, rb) = _shape(scene, first), _shape(scene, second)
        d_arr, pts = closest_points(ga, gb, ra, rb)
        distance = float(d_arr)
    else:
        attack = _attack(ruleset, scene, first, second, arc, defending_zone)
        distance, pts, in_arc, defending_zone, shot, base_distance, shot_notes = attack
        notes += shot_notes
    return _measurement(
        scene,
        a,
        b,
        distance,
        pts,
        shot,
        arc=arc,
        in_arc=in_arc,
        notes=tuple(notes),
        base_distance=base_distance,
    )


def _measurement(
    scene: Scene, a: str, b: str, distance: float, pts: Any, shot: Any, **fields: Any
) -> Measurement:
    """Band a distance under the scene's rules and build the one record every path returns.

    The flag, ``nearest_line`` and ``margin`` name one line (:func:`line_report`): an
    Armada attack in arc is reported against the range ruler's lines.
    """
    ruleset = scene.ruleset
    report = band_report(
        distance,
        ruleset.band_lines,
        zero_band=ruleset.zero_band(ruleset.band_kinds[0]),
        within=ruleset.contested_within,
    )
    attack = fields.get("in_arc") is True
    found = line_report(ruleset, distance, attack=attack)
    detail = measurement_detail(ruleset, distance, report.band, shot)
    if fields.get("in_arc") is False:
        # Out of arc there is no attack: the answer says nothing about obstruction.
        detail = detail.out_of_arc()
    return Measurement(
        from_id=a,
        to_id=b,
        distance=distance,
        points=np.asarray(pts, dtype=np.float64).reshape(2, 2),
        nearest_line=found.line,
        margin=found.margin,
        contested=found.contested,
        detail=detail,
        ruling=contested_ruling(ruleset, distance, attack=attack),
        **fields,
    )


def _lookup(scene: Scene, ident: str, role: str) -> Ship | Obstacle:
    """Return the object `ident`; an unknown id names its role (``from 'x'``, ``to 'x'``).

    The message lists the scene's ids; for a name like ``edge:north``, also the table's
    lines a measurement may take.
    """
    try:
        return scene.get(ident)
    except UnknownObjectError as error:
        message = error.message
        if ident.partition(":")[0] in ("edge", "setup"):
            message += "; or a line of the table: " + ", ".join(EDGE_TARGETS)
        raise UnknownObjectError(message, ident, where=f"{role} {show(ident)}") from None


def _measure_to_line(
    scene: Scene, a: str, b: str, *, arc: str | None, defending_zone: str | None
) -> Measurement:
    """Measure from an object to a line of the table (or from a line to an object)."""
    ids = set(scene.ids)
    a_line, b_line = a not in ids and a in EDGE_TARGETS, b not in ids and b in EDGE_TARGETS
    if a_line and b_line:
        raise InvalidInputError(f"{a!r} and {b!r} are both lines of the table: give an object")
    if arc is not None or defending_zone is not None:
        line = a if a_line else b
        raise InvalidInputError(f"{line!r} is a line of the table: an arc measures to a ship")
    line = edge_line(scene, a if a_line else b)
    obj = _lookup(scene, b, "to") if a_line else _lookup(scene, a, "from")
    geometry, radius = _shape(scene, obj)
    if a_line:
        d_arr, pts = closest_points(line, geometry, 0.0, radius)
    else:
        d_arr, pts = closest_points(geometry, line, radius, 0.0)
    return _measurement(scene, a, b, float(d_arr), pts, None)


class _XWingArc(NamedTuple):
    """What an X-Wing arc shot found besides its range."""

    obstructed: Obstructed
    obstructed_by: tuple[str, ...]
    tied_segments: tuple[Segment, ...] | None
    clearances: tuple[Clearance, ...]


@functools.singledispatch
def measurement_detail(
    ruleset: Ruleset, distance: float, main_band: int | None, shot: _XWingArc | _ArmadaArc | None
) -> MeasurementDetail:
    """Build the game's detail: X-Wing's one range band, and what an arc shot found."""
    if isinstance(shot, _XWingArc):
        return XWingDetail(main_band, *shot)
    return XWingDetail(main_band)


@measurement_detail.register(ArmadaRuleset)
def _armada_detail(
    ruleset: ArmadaRuleset,
    distance: float,
    main_band: int | None,
    shot: _XWingArc | _ArmadaArc | None,
) -> MeasurementDetail:
    """Return the Armada detail: distance and range bands, and what a hull-zone shot found."""
    d_band = line_band(distance, ruleset.band_lines_of("distance"))
    r_index = line_band(distance, ruleset.band_lines_of("range"))
    r_band = None if r_index is None else RANGE_BAND_NAMES[r_index - 1]
    from tabletop.obstacles._armada_shot import _ArmadaArc  # Armada only, as below
    from tabletop.obstacles.armada_detail import ArmadaDetail

    if isinstance(shot, _ArmadaArc):
        return ArmadaDetail(
            d_band,
            r_band,
            shot.defending_zone,
            shot.obstructed,
            shot.obstructed_by,
            shot.line_of_sight,
            shot.sight_line,
            shot.clearances,
        )
    return ArmadaDetail(d_band, r_band)


#: An attack measured: distance, points, in arc, defending zone, shot, base distance, notes.
_Attack: TypeAlias = (
    "tuple[float, FloatArray, bool, str | None, _XWingArc | _ArmadaArc, float | None, list[str]]"
)


#: Why a defending hull zone cannot be given (an X-Wing attack, or no arc at all).
_DEFENDING_ZONE_ALONE = "a defending hull zone is for Armada attacks from a hull zone"


@functools.singledispatch
def _attack(
    ruleset: Ruleset,
    scene: Scene,
    first: Ship | Obstacle,
    second: Ship | Obstacle,
    arc: str,
    defending_zone: str | None,
) -> _Attack:
    """Measure an X-Wing attack: range from the arc, with obstruction (and tied segments)."""
    if defending_zone is not None:
        raise InvalidInputError(_DEFENDING_ZONE_ALONE)
    attacker, defender = _attack_pair(scene, first, second)
    blockers = _blockers(scene, attacker, defender)
    distance, pts, in_arc, shot = _xwing_shot(scene, attacker, defender, arc, blockers)
    return distance, pts, in_arc, None, shot, None, []


@_attack.register(ArmadaRuleset)
def _armada_attack(
    ruleset: ArmadaRuleset,
    scene: Scene,
    first: Ship | Obstacle,
    second: Ship | Obstacle,
    arc: str,
    defending_zone: str | None,
) -> _Attack:
    """Measure an Armada attack from a hull zone; out of arc, the plain base distance."""
    # The hull-zone shot (and the hull tables it reads) loads with the first Armada attack.
    from tabletop.obstacles._armada_shot import _armada_shot

    attacker, defender = _attack_pair(scene, first, second)
    blockers = _blockers(scene, attacker, defender)
    placed = [(obj.id, _blocker_geometry(scene, obj)) for obj in blockers]
    armada = _armada_shot(scene, attacker, defender, arc, defending_zone, placed)
    distance, pts, in_arc, zone, notes, shot = armada
    (ga, ra), (gb, rb) = _shape(scene, first), _shape(scene, second)
    plain, plain_pts = closest_points(ga, gb, ra, rb)
    if not in_arc:
        # Out of arc: the plain distance between the bases (cli.md).
        return float(plain), plain_pts, in_arc, zone, shot, None, list(notes)
    # In arc, the attack range runs from the hull token; say the base distance.
    return distance, pts, in_arc, zone, shot, float(plain), list(notes)


def _xwing_shot(
    scene: Scene,
    attacker: Ship,
    defender: Ship,
    arc: str,
    blockers: list[Ship | Obstacle],
) -> tuple[float, FloatArray, bool, _XWingArc]:
    """Attack range from an X-Wing arc, with obstruction (and tied segments)."""
    ruleset = scene.ruleset
    parse_xwing_arc(arc)
    # Each outline looked up once (a lookup builds the base's spec and a cache key).
    attacker_polygon, defender_polygon = attacker.polygon(ruleset), defender.polygon(ruleset)
    shot = attack_range(
        ruleset,
        attacker.pose,
        attacker.base,
        defender_polygon,
        arc,
        attacker_polygon=attacker_polygon,
    )
    return (
        shot.distance,
        shot.points,
        shot.in_arc,
        _obstruction(
            scene, shot, attacker, defender, blockers, (attacker_polygon, defender_polygon)
        ),
    )


def _obstruction(
    scene: Scene,
    shot: AttackRange,
    attacker: Ship,
    defender: Ship,
    blockers: list[Ship | Obstacle],
    outlines: tuple[shapely.Geometry, shapely.Geometry],
) -> _XWingArc:
    """Return what an X-Wing shot finds besides its range: obstruction, tied segments, clearances.

    `outlines` are the attacker's and the defender's placed bases.
    """
    attacker_polygon, defender_polygon = outlines
    measured = shot.target_part if shot.in_arc else defender_polygon
    bands: list[FloatArray] = []
    if shot.in_arc or edges_may_be_parallel(attacker.heading, defender.heading):
        bands = tied_bands(attacker_polygon, measured, shot.distance)
    tied: tuple[Segment, ...] | None = None
    near = _near(scene, blockers, np.concatenate(bands) if bands else shot.points)
    geometry = [g for _, g in near]
    if bands:
        blocked, hits = obstructed_band(bands, geometry)
        tied = tuple(segment_of(band) for band in bands)
    else:
        blocked, hits = obstructed_segment(shot.points, geometry)
    by = tuple(sorted(near[i][0] for i in hits))
    clearances = _clearances(scene, blockers, shot.points)
    return _XWingArc(blocked, by, tied, clearances)


def xwing_shot_fields(
    scene: Scene,
    attacker: Ship,
    defender: Ship,
    shot: AttackRange,
    outlines: tuple[shapely.Geometry, shapely.Geometry],
) -> dict[str, Any]:
    """Return the fields after ``in_arc`` of the answer to an X-Wing shot already ranged.

    `shot` is what :func:`~tabletop.geom.arcs.attack_range` gives for two ships of an
    X-Wing scene (a caller ranging many shots at once); `outlines` are both ships' bases
    placed as :meth:`Ship.polygon` places them. The fields are those
    :meth:`Measurement.to_json` of ``measure(scene, attacker.id, defender.id, arc=...)``
    writes after ``in_arc``: tied segments, obstruction and clearances, measured here
    as :func:`measure` measures them (out of arc, obstruction is not answered). The
    fields before them are the measure's without an arc, to the in-arc part: X-Wing's
    one band scale asks an attack the same question.
    """
    blockers = _blockers(scene, attacker, defender)
    detail = XWingDetail(None, *_obstruction(scene, shot, attacker, defender, blockers, outlines))
    if shot.in_arc:
        return detail.arc_json()
    detail = detail.out_of_arc()
    return {**detail.arc_json(), **detail.unasked_json()}


def _clearances(
    scene: Scene, blockers: list[Ship | Obstacle], points: FloatArray
) -> tuple[Clearance, ...]:
    """How far the measured segment clears each blocker within the contested distance.

    Every blocker it crosses or touches is listed, and every one it clears by no more
    than ``contested_within``; sorted by margin, then id.
    """
    within_mm = scene.ruleset.contested_within
    found = []
    for ident, geometry in _near(scene, blockers, points, reach=within_mm):
        margin = segment_clearance(points, geometry)
        if margin <= within_mm + EPSILON_MM:
            found.append(Clearance(ident, margin, bool(within(abs(margin), within_mm))))
    return tuple(sorted(found, key=lambda c: (c.margin, c.id)))


#: How far from parallel (degrees, either way) two bases' edges may be and still be
#: looked at for tied segments: twice the tie angle, far above a placed edge's rounding.
_PARALLEL_WITHIN_DEGREES = 2.0 * TIE_ANGLE_DEGREES


def edges_may_be_parallel(heading_a: float, heading_b: float) -> bool:
    """Return whether two rectangular bases at these headings may have tied segments.

    Tied segments run between parallel edges (within :data:`TIE_ANGLE_DEGREES`); a
    rectangle's edges lie along its heading and across it, so two bases whose headings
    differ by far from a multiple of 90 degrees have none (``False`` decides it).
    """
    off = (heading_a - heading_b) % 90.0
    return off <= _PARALLEL_WITHIN_DEGREES or off >= 90.0 - _PARALLEL_WITHIN_DEGREES


def _blockers(scene: Scene, attacker: Ship, defender: Ship) -> list[Ship | Obstacle]:
    """Return what can obstruct an attack: obstacles, and ships other than the two.

    X-Wing: only huge ships obstruct; Armada: every ship's base, never a squadron.
    """
    ruleset = scene.ruleset
    found: list[Ship | Obstacle] = list(scene.obstacles)
    obstructs: dict[str, bool] = {}  # a fleet has few base sizes: one spec each
    for ship in scene.ships:
        if ship.id in (attacker.id, defender.id):
            continue
        if ship.base not in obstructs:
            obstructs[ship.base] = ruleset.base_spec(ship.base).obstructs
        if obstructs[ship.base]:
            found.append(ship)
    return found


def _blocker_geometry(scene: Scene, blocker: Ship | Obstacle) -> shapely.Geometry:
    return blocker.polygon(scene.ruleset) if isinstance(blocker, Ship) else blocker.polygon()


#: How much farther than the length tolerance a blocker's bound must lie from every
#: shot to be left out, mm: far above the rounding of a placed vertex.
_NEAR_MARGIN_MM = 1.0


def _near(
    scene: Scene, blockers: list[Ship | Obstacle], shot: FloatArray, *, reach: float = 0.0
) -> list[tuple[str, shapely.Geometry]]:
    """Return the blockers (id, geometry) whose bounds come near the shot's points.

    Obstruction asks whether a blocker comes within the length tolerance of a segment
    (or of a band of them) spanned by `shot`'s points: a blocker whose bounding box lies
    farther than that from their bounding box cannot, and an obstacle's outline is not
    placed unless its disk (:attr:`Obstacle.reach`) comes near.
    """
    xs, ys = shot[:, 0].tolist(), shot[:, 1].tolist()
    gap = EPSILON_MM + _NEAR_MARGIN_MM + reach
    x0, x1, y0, y1 = min(xs) - gap, max(xs) + gap, min(ys) - gap, max(ys) + gap
    found = []
    for blocker in blockers:
        if isinstance(blocker, Obstacle):
            r = blocker.reach
            if blocker.x + r < x0 or blocker.x - r > x1 or blocker.y + r < y0 or blocker.y - r > y1:
                continue
            if len(xs) == 2 and _disk_off_segment(blocker.x, blocker.y, r + gap, xs, ys):
                # One segment: its box is loose (a long diagonal shot spans most of the
                # table), the disk's distance from the segment itself is not.
                continue
        geometry = _blocker_geometry(scene, blocker)
        bx0, by0, bx1, by1 = geometry.bounds
        if bx1 < x0 or bx0 > x1 or by1 < y0 or by0 > y1:
            continue
        found.append((blocker.id, geometry))
    return found


def _disk_off_segment(
    cx: float, cy: float, radius: float, xs: list[float], ys: list[float]
) -> bool:
    """Return whether the disk about ``(cx, cy)`` lies wholly off the segment of `xs`, `ys`.

    Squared distances compared, the margin in `radius` far above their rounding.
    """
    ax, ay, bx, by = xs[0], ys[0], xs[1], ys[1]
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0.0 else ((cx - ax) * dx + (cy - ay) * dy) / length2
    t = min(1.0, max(0.0, t))
    ex, ey = ax + t * dx - cx, ay + t * dy - cy
    return ex * ex + ey * ey > radius * radius


def _attack_pair(
    scene: Scene, first: Ship | Obstacle, second: Ship | Obstacle
) -> tuple[Ship, Ship]:
    if not isinstance(first, Ship):
        raise InvalidInputError(f"{first.id!r} is an obstacle: only a ship measures from an arc")
    if not isinstance(second, Ship):
        if second.kind == "huge-ship":
            raise InvalidInputError(
                f"{second.id!r} is a huge ship placed as an obstacle: it cannot be an attack target"
            )
        raise InvalidInputError(f"{second.id!r} is an obstacle: an arc measures to a ship")
    return first, second
