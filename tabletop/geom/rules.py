"""The :class:`Rules` protocol: what every game's rules object answers.

A game is data and one rules object (python-chess's variant classes are the model): the
X-Wing rules (:class:`~tabletop.geom.rulesets.XWingRuleset`, its editions differing by data) and
the Armada rules (:class:`~tabletop.geom.rulesets.ArmadaRuleset`) each override what differs. Code
elsewhere asks the rules object (a base's spec, the band lines, the words for a limit,
the obstacle set, the maneuver grammar) and never tests a game or a base name.

Examples
--------
>>> from tabletop.geom.rulesets import get_ruleset
>>> get_ruleset("xwing2").base_spec("huge-short")
BaseSpec(width=80.0, length=195.0, is_disk=False, is_huge=True, arc_half_angle=41.45, obstructs=True)
>>> get_ruleset("armada").base_spec("squadron")
BaseSpec(width=31.0, length=31.0, is_disk=True, is_huge=False, arc_half_angle=None, obstructs=False)
>>> get_ruleset("xwing2").limit_words(200.0), get_ruleset("xwing2").limit_words(150.0)
('range 2', None)
"""

from __future__ import annotations

import dataclasses as _dc
from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal, Protocol

from tabletop.geom.tolerance import beyond, within

if TYPE_CHECKING:
    import shapely

    from tabletop.geom.areas import PlayArea

__all__ = [
    "BandKind",
    "BaseSpec",
    "ManeuverGrammar",
    "ObstacleSet",
    "PlacementRule",
    "RuleLine",
    "Rules",
]

#: The band scales a game measures: X-Wing ``range``; Armada ``distance`` and ``range``.
BandKind = Literal["range", "distance"]
#: How a game's maneuvers are written: X-Wing templates, or the Armada maneuver tool.
ManeuverGrammar = Literal["templates", "tool"]
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
class BaseSpec:
    """What a base is, for every question asked of it.

    Attributes
    ----------
    width, length : float
        Across the ship and along its heading, mm (a disk: its diameter twice).
    is_disk : bool
        An Armada squadron: measured as a disk, no arcs, no maneuver tool.
    is_huge : bool
        An X-Wing huge ship (or an Armada huge base): the few maneuvers huge ships fly.
    arc_half_angle : float or None
        X-Wing arc half-angle, degrees from the heading; None where the game has no
        printed arcs on the base (Armada).
    obstructs : bool
        Whether a ship on this base obstructs attacks between two others.
    """

    width: float
    length: float
    is_disk: bool
    is_huge: bool
    arc_half_angle: float | None
    obstructs: bool


@_dc.dataclass(frozen=True, slots=True)
class ObstacleSet:
    """The obstacles a setup uses and a check requires.

    Attributes
    ----------
    catalog : str
        The token catalog of the game (``obstacles/data/CATALOG.json``).
    kinds : mapping of str to int
        The standard set by kind (Armada: 3 asteroid, 2 debris, 1 station); empty where
        the set is chosen by the players instead.
    per_player : int or None
        How many different tokens each player brings (X-Wing: 3); None for a fixed set.
    families : frozenset of str
        Token families a tournament setup may use (empty: every family of the catalog).
    setup_kinds : tuple of str
        Token kinds a random setup draws from.
    """

    catalog: str
    kinds: Mapping[str, int]
    per_player: int | None
    families: frozenset[str]
    setup_kinds: tuple[str, ...]

    @property
    def size(self) -> int:
        """How many obstacles a setup has."""
        return sum(self.kinds.values()) if self.per_player is None else 2 * self.per_player


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


class Rules(Protocol):
    """What a game's rules object answers (see :class:`~tabletop.geom.rulesets.Ruleset`)."""

    @property
    def name(self) -> str:
        """The ruleset name (``xwing2``, ``xwing1``, ``armada``)."""
        ...

    @property
    def band_kinds(self) -> tuple[BandKind, ...]:
        """The band scales this game measures, the main one first."""
        ...

    @property
    def band_lines(self) -> tuple[float, ...]:
        """Every band line a measurement report flags as contested, mm."""
        ...

    @property
    def obstacle_edge_limit(self) -> float:
        """How far (strictly more than) an obstacle must be from every edge, mm."""
        ...

    @property
    def obstacle_spacing_limit(self) -> float:
        """How far (strictly more than) obstacles must be from each other, mm."""
        ...

    @property
    def deployment_limit(self) -> float:
        """How far (at most) a deployed base may be from its player's edge, mm."""
        ...

    @property
    def deployment_line(self) -> RuleLine:
        """The deployment rule's line and comparison (at most the limit from the edge)."""
        ...

    @property
    def squadron_line(self) -> RuleLine:
        """A squadron's deployment line: within this of a friendly ship (Armada)."""
        ...

    @property
    def overlap_line(self) -> RuleLine:
        """The overlap rule's line: touching, which is legal."""
        ...

    @property
    def play_area_line(self) -> RuleLine:
        """The play area's edge, closed: an object touching it is inside."""
        ...

    @property
    def obstacle_set(self) -> ObstacleSet:
        """The obstacles of a setup."""
        ...

    @property
    def obstacle_placement(self) -> PlacementRule:
        """The obstacle placement rule: the limits, and whether the setup area applies."""
        ...

    @property
    def maneuver_grammar(self) -> ManeuverGrammar:
        """How maneuvers of this game are written."""
        ...

    @property
    def setup_area_boxed(self) -> bool:
        """Whether obstacles are placed inside a setup area smaller than the table."""
        ...

    @property
    def ship_guides(self) -> bool:
        """Whether bases have guides (nubs) that count for overlap and maneuvers."""
        ...

    def band_lines_of(self, kind: BandKind) -> tuple[float, ...]:
        """Return the lines of one band scale, mm."""
        ...

    def zero_band(self, kind: BandKind) -> bool:
        """Return whether touching is band 0 of that scale (X-Wing 2.0 range 0)."""
        ...

    def base_spec(self, base: str) -> BaseSpec:
        """Return the spec of a base of this game."""
        ...

    def limit_words(self, limit: float) -> str | None:
        """Return the band a limit is the outer line of (``"range 2"``), or None."""
        ...

    def setup_area(self, area: PlayArea) -> shapely.Polygon:
        """Return where obstacles and deployed ships go on `area` (Armada: a central strip)."""
        ...
