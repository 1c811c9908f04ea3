"""A setup rule's line (:class:`RuleLine`) and the obstacle placement rule (:class:`PlacementRule`).

Both are re-exported by :mod:`tabletop.geom.rules`, where the rules objects' protocol
names them; they live here, loaded when a rule is first asked for, since a measurement
builds neither (each record's class costs its methods' generation at import).
"""

from __future__ import annotations

import dataclasses as _dc
from typing import Literal

from tabletop.geom.tolerance import beyond, within

__all__ = ["LegalSide", "PlacementRule", "RuleLine"]

#: Which side of a rule's line is legal: farther than it, or nearer (inside).
LegalSide = Literal["beyond", "inside"]


@_dc.dataclass(frozen=True, slots=True)
class RuleLine:
    """A setup rule's line and its comparison: which side is legal, and the line itself.

    The comparison is stated once here and every use derives from it: whether a length
    keeps the rule, and the words a judge's ruling gives at the line.

    Attributes
    ----------
    name : str
        What the line is, for people: ``"spacing"``, ``"edge"``, ``"touching"``; a
        boundary's whole name, ``"setup-area line"``.
    line : float
        The limit, mm; 0 for a boundary measured from itself (`boundary`) and for
        touching.
    legal : {"beyond", "inside"}
        The legal side: farther than the line (``>`` or ``>=``) or nearer (``<`` or
        ``<=``).
    closed : bool
        Whether a length on the line keeps the rule (``>=`` / ``<=``); False for a strict
        limit (``>`` / ``<``: "more than").
    boundary : bool
        The line is a boundary (a table edge, a setup-area line): lengths are measured
        inward from it, and "on the line" means touching it.

    Examples
    --------
    >>> spacing = RuleLine("spacing", 100.0, "beyond", closed=False)
    >>> spacing.comparison, spacing.holds(100.0), spacing.holds(100.0000005), spacing.holds(100.001)
    ('>', False, False, True)
    >>> deployment = RuleLine("deployment", 100.0, "inside", closed=True)
    >>> deployment.comparison, deployment.holds(100.0000005), deployment.holds(100.001)
    ('<=', True, False)
    """

    name: str
    line: float
    legal: LegalSide
    closed: bool
    boundary: bool = False

    @property
    def comparison(self) -> str:
        """The legal comparison of a length with the line: ``>``, ``>=``, ``<`` or ``<=``."""
        sign = ">" if self.legal == "beyond" else "<"
        return sign + ("=" if self.closed else "")

    def holds(self, length: float) -> bool:
        """Return whether a length (mm; for a boundary, how far past it) keeps the rule.

        Lengths within the tolerance of the line are on it.
        """
        if self.legal == "beyond":
            return bool(within(self.line, length) if self.closed else beyond(length, self.line))
        return bool(within(length, self.line) if self.closed else beyond(self.line, length))

    def broken(self, margin: float) -> bool:
        """Return whether a signed margin (mm, positive is legal, 0 on the line) breaks it."""
        return margin < 0.0 or (margin == 0.0 and not self.closed)


@_dc.dataclass(frozen=True, slots=True)
class PlacementRule:
    """The obstacle placement rule of a game (``rules.md``, Setup), stated once.

    Every check of a placement derives from it: the legality check, the legal region and
    the fix (:func:`tabletop.obstacles.placement.placement_limits`), and the batch paths,
    numpy and compiled, which take its numbers as plain floats.

    Attributes
    ----------
    edge : float
        An obstacle must be more than this from every edge of the play area, mm.
    spacing : float
        Obstacles must be more than this from each other, mm.
    inside_setup_area : bool
        Whether every obstacle must lie entirely inside the setup area (Armada); that
        line is closed: an obstacle touching it is inside.

    Examples
    --------
    The limits are strict ("more than"): a length on a line, within the tolerance, breaks
    the rule; the setup area's line does not.

    >>> rule = PlacementRule(edge=200.0, spacing=100.0, inside_setup_area=False)
    >>> rule.clears_edge(200.0), rule.clears_edge(200.0000001), rule.clears_edge(200.001)
    (False, False, True)
    >>> rule.clears_spacing(100.0), rule.clears_spacing(100.001)
    (False, True)
    >>> rule.inside(0.0), rule.inside(-0.0000001), rule.inside(-0.001)
    (True, True, False)
    """

    edge: float
    spacing: float
    inside_setup_area: bool

    @property
    def edge_line(self) -> RuleLine:
        """The edge rule: more than `edge` from every edge (strict)."""
        return RuleLine("edge", self.edge, "beyond", closed=False)

    @property
    def spacing_line(self) -> RuleLine:
        """The spacing rule: more than `spacing` from each other obstacle (strict)."""
        return RuleLine("spacing", self.spacing, "beyond", closed=False)

    @property
    def area_line(self) -> RuleLine:
        """The setup area's line, closed: an outline touching it is inside."""
        return RuleLine("setup-area line", 0.0, "inside", closed=True, boundary=True)

    def clears_edge(self, distance: float) -> bool:
        """Return whether an obstacle `distance` mm from an edge obeys the edge rule."""
        return self.edge_line.holds(distance)

    def clears_spacing(self, distance: float) -> bool:
        """Return whether two obstacles `distance` mm apart obey the spacing rule."""
        return self.spacing_line.holds(distance)

    def inside(self, inward: float) -> bool:
        """Return whether an obstacle reaching `inward` mm inside the setup area's line is in it.

        `inward` is negative when the obstacle sticks out past the line.
        """
        return self.area_line.holds(-inward)
