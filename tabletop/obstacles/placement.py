"""Obstacle placement: the limits of each game, and the legal region of a token.

The legal region is where an obstacle's reference point may go, at its current rotation,
with everything else held still: strictly inside the rectangle that keeps the token more
than the edge limit from every edge (and, for Armada, entirely in the setup area), and
outside every other obstacle's *forbidden region*, the Minkowski sum of that obstacle and
the reflected token grown by the spacing limit. The shortest move that makes a placement
legal (``fix``) is the way from the reference point to the nearest point of that region,
computed exactly from these polygons, not by trial steps.

Examples
--------
>>> import shapely
>>> square = shapely.box(-10, -10, 10, 10)
>>> sums = minkowski_sum(square, square)
>>> sums.bounds
(-20.0, -20.0, 20.0, 20.0)
"""

from __future__ import annotations

import dataclasses as _dc
import math as _math
from collections.abc import Sequence

import numpy as np
import shapely

from tabletop.geom.areas import PlayArea
from tabletop.geom.poses import FloatArray
from tabletop.geom.rules import PlacementRule
from tabletop.geom.rulesets import Ruleset
from tabletop.geom.shapes import place_outline
from tabletop.geom.tolerance import EPSILON_MM

__all__ = [
    "FIX_CLEARANCE_MM",
    "PlacementLimits",
    "fix_move",
    "legal_region",
    "minkowski_sum",
    "placement_limits",
]

#: How far inside the legal region a fix lands, mm: past the line, as the rules require
#: "more than", by a margin no ruler shows.
FIX_CLEARANCE_MM = 0.001

#: Segments per quarter circle when a spacing limit is grown into a region. The polygon
#: is grown from a slightly larger radius so that it contains the true rounded region.
_QUAD_SEGS = 256


@_dc.dataclass(frozen=True)
class PlacementLimits:
    """The placement rule of a ruleset (:class:`~tabletop.geom.rules.PlacementRule`) on a play area.

    The one source of the limits for the legality check, the legal region, the fix, the
    random setup, the pictures and the batch paths (:meth:`numbers` packs them for
    those): each reads the rule's numbers here, none holds a limit of its own.

    Attributes
    ----------
    rule : PlacementRule
        The game's rule: the edge and spacing limits and whether the setup area applies.
    area : shapely.Polygon
        The region an obstacle must lie entirely in (Armada's setup area; the play area
        for X-Wing).
    width, height : float
        The play area, mm.
    """

    rule: PlacementRule
    area: shapely.Polygon
    width: float
    height: float

    @property
    def edge(self) -> float:
        """An obstacle must be more than this from every edge, mm."""
        return self.rule.edge

    @property
    def spacing(self) -> float:
        """Obstacles must be more than this from each other, mm."""
        return self.rule.spacing

    @property
    def inside_setup_area(self) -> bool:
        """Whether the rule confines obstacles to `area` (Armada), a rule of its own.

        For X-Wing `area` is the table, which the edge rule already keeps them in.
        """
        return self.rule.inside_setup_area

    def edge_box(
        self, bounds: tuple[float, float, float, float], clearance: float
    ) -> tuple[float, float, float, float]:
        """Return the moves the edge rule alone allows a shape: ``(x0, y0, x1, y1)``, mm.

        `bounds` are the shape's ``(min_x, min_y, max_x, max_y)``; every move in the box
        keeps it more than the edge limit, plus `clearance`, from every edge.
        """
        min_x, min_y, max_x, max_y = bounds
        margin = self.edge + clearance
        return (
            margin - min_x,
            margin - min_y,
            self.width - margin - max_x,
            self.height - margin - max_y,
        )

    def move_box(
        self, bounds: tuple[float, float, float, float], clearance: float
    ) -> tuple[float, float, float, float]:
        """Return the moves the edge and setup-area rules allow a shape: ``(x0, y0, x1, y1)``.

        `bounds` are the shape's ``(min_x, min_y, max_x, max_y)``, mm; every move in the
        box keeps it more than the edge limit from every edge, and inside the setup area,
        by `clearance` mm past each line. Empty when ``x0 >= x1`` or ``y0 >= y1``.

        Examples
        --------
        >>> rule = PlacementRule(edge=200.0, spacing=100.0, inside_setup_area=False)
        >>> limits = PlacementLimits(rule, shapely.box(0, 0, 900, 900), 900.0, 900.0)
        >>> limits.move_box((190.0, 300.0, 230.0, 340.0), 0.0)
        (10.0, -100.0, 470.0, 360.0)
        """
        min_x, min_y, max_x, max_y = bounds
        ax0, ay0, ax1, ay1 = self.area.bounds
        x0, y0, x1, y1 = self.edge_box(bounds, clearance)
        # Clear of every edge of the play area by the edge limit, and entirely in the
        # setup area (Armada; the whole play area for X-Wing).
        return (
            max(x0, ax0 + clearance - min_x),
            max(y0, ay0 + clearance - min_y),
            min(x1, ax1 - clearance - max_x),
            min(y1, ay1 - clearance - max_y),
        )

    def allowed_area(self) -> shapely.Geometry:
        """Return where an obstacle may lie, closed: beyond the edge limit, in the area.

        Empty when the edge limit leaves no room. The pictures shade the rest.

        Examples
        --------
        >>> rule = PlacementRule(edge=200.0, spacing=100.0, inside_setup_area=False)
        >>> PlacementLimits(rule, shapely.box(0, 0, 900, 900), 900.0, 900.0).allowed_area().bounds
        (200.0, 200.0, 700.0, 700.0)
        """
        limit = self.edge
        if limit * 2 >= min(self.width, self.height):
            return shapely.Polygon()
        inner = shapely.box(limit, limit, self.width - limit, self.height - limit)
        return shapely.intersection(inner, self.area)

    def allows(self, bounds: tuple[float, float, float, float], gap: float | None) -> bool:
        """Return whether a shape obeys the rule, by its bounds and its nearest gap, mm.

        `bounds` are ``(min_x, min_y, max_x, max_y)``; `gap` is the distance to the
        nearest other obstacle (None: there is none). The edge and spacing limits are
        strict, the setup area's line closed, within the length tolerance.

        Examples
        --------
        >>> rule = PlacementRule(edge=200.0, spacing=100.0, inside_setup_area=False)
        >>> limits = PlacementLimits(rule, shapely.box(0, 0, 900, 900), 900.0, 900.0)
        >>> limits.allows((200.0, 300.0, 240.0, 340.0), None), limits.allows((201.0, 300.0, 240.0, 340.0), 100.0)
        (False, False)
        >>> limits.allows((201.0, 300.0, 240.0, 340.0), 100.001)
        True
        """
        min_x, min_y, max_x, max_y = bounds
        ax0, ay0, ax1, ay1 = self.area.bounds
        edges = (min_x, min_y, self.width - max_x, self.height - max_y)
        inward = (min_x - ax0, min_y - ay0, ax1 - max_x, ay1 - max_y)
        rule = self.rule
        return (
            all(rule.clears_edge(distance) for distance in edges)
            and all(rule.inside(depth) for depth in inward)
            and (gap is None or rule.clears_spacing(gap))
        )

    def numbers(self) -> FloatArray:
        """Return the limits as the batch kernels take them, plain numbers, mm.

        ``edge, spacing, width, height, x0, y0, x1, y1, inside`` with the setup area's
        bounds and ``inside`` 1.0 when the setup-area rule applies.
        """
        x0, y0, x1, y1 = self.area.bounds
        inside = 1.0 if self.inside_setup_area else 0.0
        limits = [self.edge, self.spacing, self.width, self.height, x0, y0, x1, y1, inside]
        return np.array(limits, dtype=np.float64)


def placement_limits(ruleset: Ruleset, area: PlayArea) -> PlacementLimits:
    """Return the placement limits of `ruleset` on `area`, from its placement rule."""
    rule = ruleset.obstacle_placement
    return PlacementLimits(
        rule=rule,
        area=ruleset.setup_area(area) if rule.inside_setup_area else area.polygon(),
        width=area.width,
        height=area.height,
    )


def _triangles(polygon: shapely.Geometry) -> FloatArray:
    """Return the triangles of a polygon as ``(t, 3, 2)`` vertices."""
    parts = shapely.get_parts(shapely.constrained_delaunay_triangles(polygon))
    coords = shapely.get_coordinates(shapely.get_exterior_ring(parts))
    return np.asarray(coords, dtype=np.float64).reshape(len(parts), 4, 2)[:, :3, :]


def minkowski_sum(a: shapely.Geometry, b: shapely.Geometry) -> shapely.Geometry:
    """Return the Minkowski sum of two simple polygons, exactly.

    Each polygon is cut into triangles; the sum is the union of the convex hulls of
    every pair of triangles' vertex sums.
    """
    ta, tb = _triangles(a), _triangles(b)
    sums = ta[:, None, :, None, :] + tb[None, :, None, :, :]
    points = sums.reshape(len(ta) * len(tb), 9, 2)
    hulls = shapely.convex_hull(shapely.multipoints(points))
    return shapely.union_all(hulls)


def _grown(region: shapely.Geometry, distance: float) -> shapely.Geometry:
    # GEOS cuts a rounded corner into segments of up to twice the nominal angle
    # (pi/2/quad_segs), so a radius of r/cos(pi/(2*quad_segs)) keeps every segment
    # outside the true circle of r.
    radius = distance / _math.cos(_math.pi / (2 * _QUAD_SEGS))
    return shapely.buffer(region, radius, quad_segs=_QUAD_SEGS)


def legal_region(
    outline: FloatArray,
    angle: float,
    flipped: bool,
    others: Sequence[shapely.Geometry],
    limits: PlacementLimits,
    *,
    clearance: float = FIX_CLEARANCE_MM,
) -> shapely.Geometry:
    """Return where a token's reference point may go, at this rotation, to be legal.

    Parameters
    ----------
    outline : ndarray of shape (k, 2)
        The token outline in its own frame.
    angle, flipped :
        Its rotation (degrees) and side.
    others : sequence of shapely polygons
        Every other obstacle, placed.
    limits : PlacementLimits
        The rules.
    clearance : float
        How far past each line the region starts, mm (0 gives the closure of the
        true open region).

    Returns
    -------
    shapely geometry
        A polygon or multipolygon; empty when no position is legal.
    """
    local = place_outline(outline, np.array([0.0, 0.0, angle, float(flipped)]))
    (min_x, min_y), (max_x, max_y) = local.min(axis=0), local.max(axis=0)
    # The token at the origin: its moves are where its reference point may go.
    x0, y0, x1, y1 = limits.move_box((min_x, min_y, max_x, max_y), clearance)
    if not (x0 < x1 and y0 < y1):
        return shapely.Polygon()
    box = shapely.box(x0, y0, x1, y1)
    reflected = shapely.Polygon(-local[::-1])
    forbidden = [
        _grown(minkowski_sum(other, reflected), limits.spacing + clearance) for other in others
    ]
    if forbidden:
        return shapely.difference(box, shapely.union_all(forbidden))
    return box


def fix_move(region: shapely.Geometry, reference: Sequence[float]) -> FloatArray | None:
    """Return the shortest move ``(dx, dy)`` from `reference` into `region`, or None if empty."""
    if region.is_empty:
        return None
    point = shapely.Point(reference[0], reference[1])
    if shapely.contains(region, point):
        return np.zeros(2)
    boundary_point = shapely.get_coordinates(shapely.shortest_line(point, region))[1]
    move = boundary_point - np.asarray(reference[:2], dtype=np.float64)
    move[np.abs(move) < EPSILON_MM * 1e-3] = 0.0
    return np.asarray(move, dtype=np.float64)
