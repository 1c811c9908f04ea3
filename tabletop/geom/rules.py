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

if TYPE_CHECKING:
    import shapely

    from tabletop.geom.areas import PlayArea
    from tabletop.geom.rulelines import PlacementRule, RuleLine

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


def __getattr__(name: str) -> object:
    """Load :class:`RuleLine` and :class:`PlacementRule` on first use (PEP 562).

    A measurement builds neither, so their module is imported only when a rule is
    asked for; ``from tabletop.geom.rules import RuleLine`` works as before.
    """
    if name in ("RuleLine", "PlacementRule", "LegalSide"):
        from tabletop.geom import rulelines

        value: object = getattr(rulelines, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
