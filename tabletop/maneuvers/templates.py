"""X-Wing maneuver templates in the ship frame, final poses, and poses along a template.

Ship frame (``tabletop.geom.poses``): origin at the base centre, +y forward, +x right, mm. A
*local move* is ``(dx, dy, dheading)`` in that frame, heading change in degrees
counter-clockwise (a right bank turns clockwise: −45°); :func:`tabletop.geom.poses.compose`
applies it to world poses.

Every template is built for the forward, right-hand version and mirrored: left mirrors
x, reverse mirrors y (through the rear guides). Both mirrors negate the heading change.

Examples
--------
>>> straight_two = TemplateShape("straight", 2)
>>> template_polygon(straight_two, 20.0).bounds
(-10.0, 20.0, 10.0, 100.0)
>>> xwing_final_move(TemplateShape("bank", 1), 20.0).round(3).tolist()
[37.574, 90.711, -45.0]
>>> xwing_final_move(TemplateShape("turn", 1), 20.0, left=True).round(3).tolist()
[-55.0, 55.0, 90.0]
>>> xwing_final_move(TemplateShape("straight", 1), 40.0, reverse=True).tolist()
[0.0, -120.0, 0.0]
"""

from __future__ import annotations

import dataclasses as _dc
import math as _math
from typing import Literal

import numpy as np
import shapely
from numpy.typing import ArrayLike

from tabletop.geom.poses import Degrees, FloatArray, Millimetres

__all__ = [
    "ARC_STEP_DEGREES",
    "BANK_DEGREES",
    "BANK_RADII_MM",
    "STRAIGHT_UNIT_MM",
    "TEMPLATE_WIDTH_MM",
    "TURN_DEGREES",
    "TURN_RADII_MM",
    "PosePath",
    "TemplateShape",
    "mirror_moves",
    "template_polygon",
    "xwing_final_move",
]

#: Width of every X-Wing template (``rules.md``), mm.
TEMPLATE_WIDTH_MM: Millimetres = 20.0
#: Length of a straight template per speed, mm.
STRAIGHT_UNIT_MM: Millimetres = 40.0
#: Centre-line radius of the bank templates 1-3, mm.
BANK_RADII_MM: dict[int, Millimetres] = {1: 80.0, 2: 130.0, 3: 180.0}
#: Centre-line radius of the turn templates 1-3, mm.
TURN_RADII_MM: dict[int, Millimetres] = {1: 35.0, 2: 62.5, 3: 90.0}
#: How far a bank template turns, degrees.
BANK_DEGREES: Degrees = 45.0
#: How far a turn template turns, degrees.
TURN_DEGREES: Degrees = 90.0
#: Angular step of the polygons standing for template arcs (sagitta under 0.002 mm).
ARC_STEP_DEGREES: Degrees = 0.5


@_dc.dataclass(frozen=True)
class TemplateShape:
    """One template: a straight, bank or turn of a speed.

    Attributes
    ----------
    kind : {"straight", "bank", "turn"}
        The template family.
    speed : int
        1-5 for straights, 1-3 for banks and turns.
    """

    kind: Literal["straight", "bank", "turn"]
    speed: int

    @property
    def radius(self) -> Millimetres | None:
        """The centre-line radius in mm, None for a straight."""
        if self.kind == "bank":
            return BANK_RADII_MM[self.speed]
        if self.kind == "turn":
            return TURN_RADII_MM[self.speed]
        return None

    @property
    def turn_degrees(self) -> Degrees:
        """How far the centre line turns (clockwise for the right-hand template), degrees."""
        return {"straight": 0.0, "bank": BANK_DEGREES, "turn": TURN_DEGREES}[self.kind]

    @property
    def length(self) -> Millimetres:
        """Length of the centre line, mm.

        Examples
        --------
        >>> round(TemplateShape("bank", 1).length, 3), TemplateShape("straight", 3).length
        (62.832, 120.0)
        """
        radius = self.radius
        if radius is None:
            return STRAIGHT_UNIT_MM * self.speed
        return radius * _math.radians(self.turn_degrees)

    def centre_line(self, along: ArrayLike) -> tuple[FloatArray, FloatArray]:
        """Return points and unit directions of the centre line at arc lengths `along`.

        The right-hand template starts at the origin heading +y; `along` is clipped to
        ``[0, length]``. Returns ``(points (..., 2), directions (..., 2))``.
        """
        c = np.clip(np.asarray(along, dtype=np.float64), 0.0, self.length)
        radius = self.radius
        if radius is None:
            zero = np.zeros_like(c)
            return np.stack([zero, c], axis=-1), np.stack([zero, np.ones_like(c)], axis=-1)
        angle = c / radius
        points = np.stack([radius * (1.0 - np.cos(angle)), radius * np.sin(angle)], axis=-1)
        directions = np.stack([np.sin(angle), np.cos(angle)], axis=-1)
        return points, directions


def _mirror(points: FloatArray, left: bool, reverse: bool) -> FloatArray:
    scale = np.array([-1.0 if left else 1.0, -1.0 if reverse else 1.0])
    return np.asarray(points * scale, dtype=np.float64)


def mirror_moves(moves: ArrayLike, *, left: bool = False, reverse: bool = False) -> FloatArray:
    """Mirror right-hand forward local moves ``(..., 3)``: left mirrors x, reverse y.

    Each mirror negates the heading change.

    Examples
    --------
    >>> mirror_moves([37.5, 90.7, -45.0], left=True, reverse=True).tolist()
    [-37.5, -90.7, -45.0]
    """
    out = np.array(moves, dtype=np.float64)
    if left:
        out[..., 0] *= -1.0
        out[..., 2] *= -1.0
    if reverse:
        out[..., 1] *= -1.0
        out[..., 2] *= -1.0
    return out + 0.0  # no -0.0


def template_polygon(
    shape: TemplateShape,
    half_length: Millimetres,
    *,
    left: bool = False,
    reverse: bool = False,
    upto: Millimetres | None = None,
) -> shapely.Polygon:
    """Return a template laid at the guides of a base, in the ship frame.

    Parameters
    ----------
    shape : TemplateShape
        Which template.
    half_length : float
        Half the base length along the heading, mm: the template starts at the front
        edge, ``(0, half_length)`` (reverse: the rear edge).
    left, reverse : bool
        Mirror x (a left maneuver) or y (a reverse maneuver, at the rear guides).
    upto : float, optional
        Only the part of the template up to this arc length of its centre line, mm
        (a partial move); None: the whole template. An empty polygon for 0 or less.

    Examples
    --------
    >>> template_polygon(TemplateShape("straight", 1), 20.0, reverse=True).bounds
    (-10.0, -60.0, 10.0, -20.0)
    >>> [round(v, 2) for v in template_polygon(TemplateShape("turn", 1), 20.0).bounds]
    [-10.0, 20.0, 35.0, 65.0]
    >>> template_polygon(TemplateShape("bank", 2), 20.0, upto=0.0).is_empty
    True
    """
    length = shape.length if upto is None else min(max(upto, 0.0), shape.length)
    if length <= 0.0:
        return shapely.Polygon()
    half_width = TEMPLATE_WIDTH_MM / 2.0
    radius = shape.radius
    if radius is None:
        corners = np.array(
            [[-half_width, 0.0], [half_width, 0.0], [half_width, length], [-half_width, length]]
        )
    else:
        sweep = length / radius
        steps = max(2, _math.ceil(_math.degrees(sweep) / ARC_STEP_DEGREES))
        angles = np.linspace(0.0, sweep, steps + 1)
        rings = []
        for r in (radius - half_width, radius + half_width):
            rings.append(np.stack([radius - r * np.cos(angles), r * np.sin(angles)], axis=-1))
        corners = np.concatenate([rings[0], rings[1][::-1]])
    corners = corners + np.array([0.0, half_length])
    polygon = shapely.Polygon(_mirror(corners, left, reverse))
    return shapely.orient_polygons(polygon)


def xwing_final_move(
    shape: TemplateShape, half_length: Millimetres, *, left: bool = False, reverse: bool = False
) -> FloatArray:
    """Return the local move ``(dx, dy, dheading)`` of a complete template move (``rules.md``).

    straight s: ``(0, 2h + 40s)``; bank s: ``(R(1 − cos45°) + h·sin45°,
    h + R·sin45° + h·cos45°)``, −45°; turn s: ``(R + h, h + R)``, −90°; h = `half_length`.
    """
    h = half_length
    radius = shape.radius
    if radius is None:
        move = [0.0, 2.0 * h + STRAIGHT_UNIT_MM * shape.speed, 0.0]
    elif shape.kind == "bank":
        a = _math.radians(BANK_DEGREES)
        move = [
            radius * (1.0 - _math.cos(a)) + h * _math.sin(a),
            h + radius * _math.sin(a) + h * _math.cos(a),
            -BANK_DEGREES,
        ]
    else:
        move = [radius + h, h + radius, -TURN_DEGREES]
    return mirror_moves(move, left=left, reverse=reverse)


@_dc.dataclass(frozen=True)
class PosePath:
    """The poses a base takes along a template (``rules.md``, Bump).

    The guide path runs 2h straight through the starting base (from the rear-guide
    point to the front-guide point), then along the template's centre line, then 2h
    straight along the final heading. At progress `t` the rear-guide point sits at
    arc length `t` on that path and the front-guide point where the path meets the
    circle of radius 2h around it; the centre is their midpoint and the heading the
    chord's direction. Progress runs from 0 (the start) to :attr:`length` (the final
    position). With h = 0 (a 1st-edition huge ship, whose template runs from the rear
    edge of its front base to that same edge) the pose is the point on the centre line,
    heading along it: the limit of the chord.

    Attributes
    ----------
    shape : TemplateShape
        The template.
    half_length : float
        h, half the base length along the heading, mm.
    left, reverse : bool
        The mirrors of the maneuver.

    Examples
    --------
    >>> path = PosePath(TemplateShape("straight", 2), 20.0)
    >>> path.length
    120.0
    >>> path.poses([0.0, 30.0, 120.0]).round(9).tolist()
    [[0.0, 0.0, 0.0], [0.0, 30.0, 0.0], [0.0, 120.0, 0.0]]
    """

    shape: TemplateShape
    half_length: Millimetres
    left: bool = False
    reverse: bool = False

    @property
    def length(self) -> Millimetres:
        """The last progress value: 2h plus the template length, mm."""
        return 2.0 * self.half_length + self.shape.length

    def guide_points(self, along: ArrayLike) -> FloatArray:
        """Return right-hand forward guide-path points ``(..., 2)`` at arc lengths `along`."""
        s = np.asarray(along, dtype=np.float64)
        h = self.half_length
        span = self.shape.length
        c = s - 2.0 * h
        on_line, directions = self.shape.centre_line(c)
        on_line = on_line + np.array([0.0, h])
        beyond = np.clip(c - span, 0.0, None)[..., None]
        before = np.clip(c, None, 0.0)[..., None]
        # Before the template the path runs along +y; after it, along the exit direction.
        return np.asarray(
            on_line + beyond * directions + before * np.array([0.0, 1.0]), dtype=np.float64
        )

    def _front_points(self, rear: FloatArray) -> FloatArray:
        """Where the guide path leaves the circle of radius 2h around each rear point.

        The distance from the rear point grows along the path (which turns at most 90°),
        so the circle is left once: on the exit line when the template's end is inside
        the circle, else on the template (the larger root on a line, the larger angle on
        an arc).
        """
        h = self.half_length
        chord = 2.0 * h
        end, direction = self.shape.centre_line(self.shape.length)
        end = end + np.array([0.0, h])

        def along_line(origin: FloatArray, unit: FloatArray) -> FloatArray:
            offset = origin - rear
            b = np.sum(offset * unit, axis=-1)
            c = np.sum(offset * offset, axis=-1) - chord**2
            u = -b + np.sqrt(np.maximum(b * b - c, 0.0))
            return np.asarray(origin + u[..., None] * unit, dtype=np.float64)

        on_exit = along_line(end, direction)
        radius = self.shape.radius
        if radius is None:
            on_template = along_line(np.array([0.0, h]), np.array([0.0, 1.0]))
        else:
            # Points of the arc: C + R(−cos φ, sin φ), C = (R, h); solve |Q(φ) − P| = 2h.
            d = np.array([radius, h]) - rear
            size = np.hypot(d[..., 0], d[..., 1])
            k = (chord**2 - size**2 - radius**2) / (2.0 * radius)
            alpha = np.arctan2(d[..., 1], -d[..., 0])
            spread = np.arccos(np.clip(k / size, -1.0, 1.0))
            sweep = self.shape.length / radius
            roots = np.stack([alpha + spread, alpha - spread], axis=-1)
            roots = np.mod(roots + np.pi, 2.0 * np.pi) - np.pi
            inside = (roots >= -1e-9) & (roots <= sweep + 1e-9)
            phi = np.clip(np.max(np.where(inside, roots, -np.inf), axis=-1), 0.0, sweep)
            on_template, _ = self.shape.centre_line(phi * radius)
            on_template = on_template + np.array([0.0, h])
        reaches_end = np.linalg.norm(end - rear, axis=-1) <= chord
        return np.asarray(np.where(reaches_end[..., None], on_exit, on_template), dtype=np.float64)

    def poses(self, progress: ArrayLike) -> FloatArray:
        """Return local poses ``(..., 3)`` (centre x, y and heading change) at `progress`.

        Progress is clipped to ``[0, length]``.
        """
        t = np.clip(np.asarray(progress, dtype=np.float64), 0.0, self.length)
        if self.half_length == 0.0:
            # The chord's limit: a point on the centre line, heading along it (a 1e
            # huge ship, whose front base's rear edge runs along the template).
            centre, delta = self.shape.centre_line(t)
        else:
            rear = self.guide_points(t)
            front = self._front_points(rear)
            centre = 0.5 * (rear + front)
            delta = front - rear
        heading = np.degrees(np.arctan2(-delta[..., 0], delta[..., 1]))
        moves = np.concatenate([centre, heading[..., None]], axis=-1)
        return mirror_moves(moves, left=self.left, reverse=self.reverse)
