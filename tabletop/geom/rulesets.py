"""Rulesets: every constant and rule choice of a game edition, as frozen data.

A :class:`Ruleset` holds the numbers of ``rules.md`` (band lines, base sizes, arc
half-angles, placement limits) and the few rule choices that differ between editions
(whether range 0 exists, how a barrel roll slides). Code asks the ruleset, never
``if ruleset == ...``.

Examples
--------
>>> xw = get_ruleset("xwing2")
>>> xw.xwing_range_bands
(100.0, 200.0, 300.0, 400.0, 500.0)
>>> get_ruleset("xwing2", {"xwing_obstacle_edge": 190}).xwing_obstacle_edge
190.0
>>> get_ruleset("chess")
Traceback (most recent call last):
...
tabletop.geom.errors.InvalidInputError: unknown ruleset 'chess'; expected one of: xwing2, xwing1, armada
"""

from __future__ import annotations

import abc as _abc
import dataclasses as _dc
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from tabletop.geom._constants import check_constant, check_range
from tabletop.geom._constants import frozen as _frozen
from tabletop.geom.errors import InvalidConstantError, InvalidInputError
from tabletop.geom.rules import (
    BandKind,
    BaseSpec,
    ManeuverGrammar,
    ObstacleSet,
)
from tabletop.geom.tolerance import same_length

if TYPE_CHECKING:
    import shapely

    from tabletop.geom.areas import PlayArea
    from tabletop.geom.rulelines import PlacementRule, RuleLine

__all__ = [
    "CONSTANT_NAMES",
    "DISK_BASES",
    "RULESETS",
    "RULESET_NAMES",
    "ArmadaRuleset",
    "Game",
    "Ruleset",
    "XWingRuleset",
    "get_ruleset",
]

Game = Literal["xwing", "armada"]


@_dc.dataclass(frozen=True)
class Ruleset(_abc.ABC):
    """The constants and rule choices of one game edition: the base of the rules objects.

    It implements :class:`tabletop.geom.rules.Rules` through its two games,
    :class:`XWingRuleset` and :class:`ArmadaRuleset`, which override what differs.

    Lengths are in millimetres, angles in degrees. Build one with :func:`get_ruleset`;
    :meth:`with_constants` returns a copy with ``[constants]`` overrides applied.

    Attributes
    ----------
    name : str
        ``"xwing2"``, ``"xwing1"`` or ``"armada"``.
    game : {"xwing", "armada"}
        Which game's geometry applies.
    default_area : str
        The play-area preset used when a scene names none.
    range_zero : bool
        X-Wing 2.0: touching or overlapping is range 0. 1st edition counts it as range 1.
    base_sizes : mapping of str to (width, length)
        Every base of the game, width across the ship and length along its heading, mm.
        A squadron's entry is its disk (diameter, diameter).
    """

    name: str
    game: Game
    default_area: str
    range_zero: bool
    base_sizes: Mapping[str, tuple[float, float]]
    xwing_range_bands: tuple[float, ...] = (100.0, 200.0, 300.0, 400.0, 500.0)
    xwing_arc_half_angles: Mapping[str, float] = _dc.field(
        default_factory=lambda: _frozen(
            {"small": 40.62, "medium": 41.40, "large": 41.76, "huge": 41.45}
        )
    )
    xwing_bullseye_width: float = 15.0
    xwing_obstacle_edge: float = 200.0
    xwing_obstacle_spacing: float = 100.0
    xwing_deployment: float = 100.0
    #: Guides (nubs): width, inner edge offset from the centre line, how far they stick out.
    xwing_guide_width: float = 3.6
    xwing_guide_inner: float = 10.0
    xwing_guide_depth: float = 1.6
    #: Families whose tokens a tournament setup may use (never devices).
    xwing_tournament_families: frozenset[str] = frozenset()
    #: Barrel roll model: "positions" (2.0: three positions) or "slide" (1e: continuous).
    xwing_roll_model: Literal["positions", "slide"] = "positions"
    #: What a huge ship's final position does to the ships it overlaps (``rules.md``, Huge
    #: ships): "speed-down" (2.0: a huge ship overlapped makes it fly one speed lower, a
    #: standard ship is set aside) or "destroy" (1e: small and large ships are destroyed,
    #: a huge ship is bumped).
    xwing_huge_overlaps: Literal["speed-down", "destroy"] = "speed-down"
    #: Whether a huge ship's template counts for obstacles (2.0) or only its final
    #: position does (1e, where the obstacles under it are removed).
    xwing_huge_template_counts: bool = True
    #: Where a huge ship's template is set (``rules.md``, Huge ships): "front-edge" (2.0,
    #: as every ship) or "front-base-rear-edge" (1e: that edge, the centre line, at both ends).
    xwing_huge_template_at: Literal["front-edge", "front-base-rear-edge"] = "front-edge"
    armada_distance_bands: tuple[float, ...] = (76.5, 124.5, 185.0, 245.0, 304.8)
    armada_range_bands: tuple[float, ...] = (123.5, 187.0, 304.8)
    armada_squadron_diameter: float = 31.0
    armada_tool: Mapping[str, float] = _dc.field(
        default_factory=lambda: _frozen(
            {
                "click_degrees": 22.5,
                "to_pivot": 46.13,
                "pivot_to_guides": 22.27,
                "half_width": 7.625,
            }
        )
    )
    #: Printed ship-token sizes by base (width, length), mm [U]; see ``geom/data``.
    armada_token_sizes: Mapping[str, tuple[float, float]] = _dc.field(
        default_factory=lambda: _frozen(
            {
                "small": (38.5, 70.25),
                "medium": (58.5, 101.5),
                "large": (73.0, 128.5),
                "huge": (73.0, 350.9),
            }
        )
    )
    contested_within: float = 1.0

    # -- what every game answers (the Rules protocol); the games override -------------

    @property
    @_abc.abstractmethod
    def band_kinds(self) -> tuple[BandKind, ...]:
        """The band scales this game measures, the main one first."""
        ...

    @_abc.abstractmethod
    def band_lines_of(self, kind: BandKind) -> tuple[float, ...]:
        """Return the lines of one band scale, mm.

        Raises
        ------
        InvalidInputError
            For a scale the game does not have.
        """
        ...

    def zero_band(self, kind: BandKind) -> bool:
        """Return whether touching is band 0 of that scale (X-Wing 2.0 range 0)."""
        return False

    @property
    def band_lines(self) -> tuple[float, ...]:
        """Every band line a measurement report flags as contested, in mm."""
        lines: set[float] = set()
        for kind in self.band_kinds:
            lines |= set(self.band_lines_of(kind))
        return tuple(sorted(lines))

    @property
    @_abc.abstractmethod
    def obstacle_edge_limit(self) -> float:
        """How far (strictly more than) an obstacle must be from every edge, mm."""
        ...

    @property
    @_abc.abstractmethod
    def obstacle_spacing_limit(self) -> float:
        """How far (strictly more than) obstacles must be from each other, mm."""
        ...

    @property
    @_abc.abstractmethod
    def deployment_limit(self) -> float:
        """How far (at most) the whole base may be from its player's edge, mm."""
        ...

    @property
    @_abc.abstractmethod
    def obstacle_set(self) -> ObstacleSet:
        """The obstacles of a setup."""
        ...

    @property
    @_abc.abstractmethod
    def maneuver_grammar(self) -> ManeuverGrammar:
        """How maneuvers of this game are written."""
        ...

    @property
    def setup_area_boxed(self) -> bool:
        """Whether obstacles are placed inside a setup area smaller than the table."""
        return False

    @property
    def obstacle_placement(self) -> PlacementRule:
        """The obstacle placement rule: the limits, and whether the setup area applies."""
        from tabletop.geom.rulelines import PlacementRule  # here: a measurement asks none

        edge, spacing = self.obstacle_edge_limit, self.obstacle_spacing_limit
        return PlacementRule(edge, spacing, inside_setup_area=self.setup_area_boxed)

    @property
    def deployment_line(self) -> RuleLine:
        """The deployment rule: the whole base within (at most) the limit of its edge."""
        from tabletop.geom.rulelines import RuleLine

        return RuleLine("deployment", self.deployment_limit, "inside", closed=True)

    @property
    def squadron_line(self) -> RuleLine:
        """An Armada squadron deploys within (at most) distance 2 of a friendly ship."""
        from tabletop.geom.rulelines import RuleLine

        return RuleLine("squadron", self.armada_distance_bands[1], "inside", closed=True)

    @property
    def overlap_line(self) -> RuleLine:
        """Ships may not overlap: touching is not overlapping, so the line itself is legal.

        Its length is the gap between the outlines (minus the overlap's depth).
        """
        from tabletop.geom.rulelines import RuleLine

        return RuleLine("touching", 0.0, "beyond", closed=True)

    @property
    def play_area_line(self) -> RuleLine:
        """Every object entirely inside the play area; touching the table edge is inside."""
        from tabletop.geom.rulelines import RuleLine

        return RuleLine("table edge", 0.0, "inside", closed=True, boundary=True)

    def setup_area(self, area: PlayArea) -> shapely.Polygon:
        """Return where obstacles and deployed ships go on `area`: the whole table here."""
        return area.setup_area(armada=False)

    @property
    def hull_names(self) -> tuple[str, ...]:
        """The hulls a ship may name (printed tokens, speed charts); empty without hulls."""
        return ()

    @property
    def hull_zones(self) -> bool:
        """Whether ships attack from hull zones (Armada) rather than printed arcs (X-Wing)."""
        return False

    @property
    def ruler(self) -> tuple[BandKind, tuple[float, ...]]:
        """The band scale of the game's ruler and the lines printed on it, mm."""
        kind = self.band_kinds[0]
        return kind, self.band_lines_of(kind)

    @property
    def ship_guides(self) -> bool:
        """Whether bases have guides (nubs) that count for overlap and maneuvers."""
        return False

    @_abc.abstractmethod
    def _spec(self, base: str, width: float, length: float) -> BaseSpec: ...

    def base_spec(self, base: str) -> BaseSpec:
        """Return the spec of a base of this game.

        Raises
        ------
        InvalidInputError
            If the ruleset has no such base; the message lists those it has.
        """
        width, length = self.base_size(base)
        return self._spec(base, width, length)

    def limit_words(self, limit: float) -> str | None:
        """Return the band a limit is the outer line of (``"range 2"``), or None.

        The words follow the limits, so an overridden constant never reads as a band
        it is not: a 150 mm X-Wing edge limit is on no range line.
        """
        for kind in self.band_kinds:
            for index, line in enumerate(self.band_lines_of(kind)):
                if same_length(line, limit):
                    return f"{kind} {index + 1}"
        return None

    def base_size(self, base: str) -> tuple[float, float]:
        """Return ``(width, length)`` of a base of this ruleset, in mm.

        Raises
        ------
        InvalidInputError
            If the ruleset has no such base; the message lists those it has.
        """
        try:
            return self.base_sizes[base]
        except KeyError:
            raise InvalidInputError(
                f"unknown base {base!r} for {self.name}; expected one of: "
                + ", ".join(self.base_sizes)
            ) from None

    def arc_half_angle(self, base: str) -> float:
        """Return the X-Wing arc half-angle for a base, degrees from the heading."""
        key = "huge" if base in _HUGE_XWING_BASES else base
        return self.xwing_arc_half_angles[key]

    def with_constants(self, overrides: Mapping[str, Any]) -> Ruleset:
        """Return a copy with ``[constants]`` overrides applied.

        Raises
        ------
        InvalidConstantError
            For an unknown name or a value of the wrong shape.
        """
        changes: dict[str, Any] = {}
        for name, value in overrides.items():
            if name not in CONSTANT_NAMES:
                raise InvalidConstantError(
                    f"unknown constant {name!r}; expected one of: " + ", ".join(CONSTANT_NAMES),
                    where=f"constants.{name}",
                )
            changes[name] = check_constant(name, value, getattr(self, name))
            check_range(name, changes[name])
        return _dc.replace(self, **changes)


#: The names a scene's ``[constants]`` table may set (``rules.md``).
CONSTANT_NAMES: tuple[str, ...] = (
    "xwing_range_bands",
    "xwing_arc_half_angles",
    "xwing_bullseye_width",
    "xwing_obstacle_edge",
    "xwing_obstacle_spacing",
    "xwing_deployment",
    "armada_distance_bands",
    "armada_range_bands",
    "armada_squadron_diameter",
    "armada_tool",
    "contested_within",
)

#: X-Wing bases that are huge (the few maneuvers, huge arcs, obstruction).
_HUGE_XWING_BASES = frozenset({"huge", "huge-short"})
#: Bases measured as a disk, of any game (Armada squadrons).
DISK_BASES = frozenset({"squadron"})
#: The Armada huge base.
_ARMADA_HUGE = frozenset({"huge"})


#: A game's rules add no fields: each keeps Ruleset's __init__, __repr__ (which names
#: the instance's own class), __eq__ and __hash__ (which compare the classes at run
#: time), and is frozen as its own class; generating those methods again for each game
#: only slowed every command's start-up.
_GAME = _dc.dataclass(frozen=True, init=False, repr=False, eq=False)


@_GAME
class XWingRuleset(Ruleset):
    """The X-Wing rules; the editions (``xwing2``, ``xwing1``) differ by data alone."""

    @property
    def band_kinds(self) -> tuple[BandKind, ...]:
        """X-Wing measures range only."""
        return ("range",)

    def band_lines_of(self, kind: BandKind) -> tuple[float, ...]:
        """Return the range lines (``xwing_range_bands``), mm."""
        if kind not in self.band_kinds:
            raise InvalidInputError(f"unknown band kind {kind!r} for {self.name}; expected: range")
        return self.xwing_range_bands

    def zero_band(self, kind: BandKind) -> bool:
        """Return whether touching is range 0 (2.0 and later)."""
        return self.range_zero

    @property
    def obstacle_edge_limit(self) -> float:
        """``xwing_obstacle_edge``, mm."""
        return self.xwing_obstacle_edge

    @property
    def obstacle_spacing_limit(self) -> float:
        """``xwing_obstacle_spacing``, mm."""
        return self.xwing_obstacle_spacing

    @property
    def deployment_limit(self) -> float:
        """``xwing_deployment``, mm."""
        return self.xwing_deployment

    @property
    def obstacle_set(self) -> ObstacleSet:
        """Three different tokens per player from the tournament families."""
        return ObstacleSet(
            catalog="xwing-obstacles",
            kinds=_frozen({}),
            per_player=3,
            families=self.xwing_tournament_families,
            setup_kinds=("asteroid", "debris", "gas"),
        )

    @property
    def maneuver_grammar(self) -> ManeuverGrammar:
        """Templates: straight, bank, turn, ..., rolls and boosts."""
        return "templates"

    @property
    def ship_guides(self) -> bool:
        """X-Wing bases have guides."""
        return True

    @property
    def ruler(self) -> tuple[BandKind, tuple[float, ...]]:
        """The range ruler: range 1 to 3."""
        return "range", self.xwing_range_bands[:3]

    def _spec(self, base: str, width: float, length: float) -> BaseSpec:
        huge = base in _HUGE_XWING_BASES
        half_angle = self.xwing_arc_half_angles["huge" if huge else base]
        return BaseSpec(width, length, False, huge, half_angle, obstructs=huge)


@_GAME
class ArmadaRuleset(Ruleset):
    """The Armada rules: distance and range bands, hull zones, the maneuver tool."""

    @property
    def band_kinds(self) -> tuple[BandKind, ...]:
        """Armada measures distance (1-5) and range (close, medium, long)."""
        return ("distance", "range")

    def band_lines_of(self, kind: BandKind) -> tuple[float, ...]:
        """Return the distance or range lines, mm."""
        if kind == "distance":
            return self.armada_distance_bands
        if kind == "range":
            return self.armada_range_bands
        raise InvalidInputError(
            f"unknown band kind {kind!r} for {self.name}; expected one of: distance, range"
        )

    @property
    def obstacle_edge_limit(self) -> float:
        """Beyond distance 3 of every edge, mm."""
        return self.armada_distance_bands[2]

    @property
    def obstacle_spacing_limit(self) -> float:
        """Beyond distance 1 of each other, mm."""
        return self.armada_distance_bands[0]

    @property
    def deployment_limit(self) -> float:
        """Within distance 3 of the player's edge, mm."""
        return self.armada_distance_bands[2]

    @property
    def obstacle_set(self) -> ObstacleSet:
        """The standard set: three asteroid fields, two debris fields, one station."""
        return ObstacleSet(
            catalog="armada-obstacles",
            kinds=_frozen({"asteroid": 3, "debris": 2, "station": 1}),
            per_player=None,
            families=frozenset(),
            setup_kinds=("asteroid", "debris", "station"),
        )

    @property
    def maneuver_grammar(self) -> ManeuverGrammar:
        """Courses set on the maneuver tool."""
        return "tool"

    @property
    def setup_area_boxed(self) -> bool:
        """Obstacles go in the setup area, not the whole table."""
        return True

    def setup_area(self, area: PlayArea) -> shapely.Polygon:
        """Return the setup area: the central strip of a long table, else the whole table."""
        return area.setup_area(armada=True)

    @property
    def hull_zones(self) -> bool:
        """Armada ships attack from their four hull zones."""
        return True

    @property
    def hull_names(self) -> tuple[str, ...]:
        """Every hull of ``geom/data/armada-hulls.json``."""
        from tabletop.geom.hulls import hull_names  # the hull table is loaded only when asked

        return hull_names()

    def _spec(self, base: str, width: float, length: float) -> BaseSpec:
        disk = base in DISK_BASES
        return BaseSpec(width, length, disk, base in _ARMADA_HUGE, None, obstructs=not disk)


_XWING_BASES = _frozen(
    {
        "small": (40.0, 40.0),
        "medium": (60.0, 60.0),
        "large": (80.0, 80.0),
        "huge": (80.0, 225.0),
        "huge-short": (80.0, 195.0),
    }
)
_XWING1_FAMILIES = frozenset({"core", "core2", "yt2400", "vt49"})
_XWING2_FAMILIES = _XWING1_FAMILIES | {"gascloud", "pom"}

#: The three rulesets by name, with the constants of ``rules.md``.
RULESETS: Mapping[str, Ruleset] = _frozen(
    {
        "xwing2": XWingRuleset(
            name="xwing2",
            game="xwing",
            default_area="3x3ft",
            range_zero=True,
            base_sizes=_XWING_BASES,
            xwing_tournament_families=_XWING2_FAMILIES,
            xwing_roll_model="positions",
        ),
        "xwing1": XWingRuleset(
            name="xwing1",
            game="xwing",
            default_area="3x3ft",
            range_zero=False,
            base_sizes=_XWING_BASES,
            xwing_tournament_families=_XWING1_FAMILIES,
            xwing_roll_model="slide",
            xwing_huge_overlaps="destroy",
            xwing_huge_template_counts=False,
            xwing_huge_template_at="front-base-rear-edge",
        ),
        "armada": ArmadaRuleset(
            name="armada",
            game="armada",
            default_area="6x3ft",
            range_zero=False,
            base_sizes=_frozen(
                {
                    "small": (43.0, 71.0),
                    "medium": (63.0, 102.0),
                    "large": (77.5, 129.0),
                    "huge": (77.5, 351.4),
                    "squadron": (31.0, 31.0),
                }
            ),
        ),
    }
)
#: The ruleset names a scene may give.
RULESET_NAMES: tuple[str, ...] = tuple(RULESETS)


def get_ruleset(name: str, constants: Mapping[str, Any] | None = None) -> Ruleset:
    """Return the ruleset called `name`, with optional ``[constants]`` overrides.

    Parameters
    ----------
    name : str
        ``"xwing2"``, ``"xwing1"`` or ``"armada"``.
    constants : mapping, optional
        Overrides by the names in :data:`CONSTANT_NAMES`.

    Raises
    ------
    InvalidInputError
        For an unknown ruleset name, or a bad override.
    """
    try:
        ruleset = RULESETS[name]
    except (KeyError, TypeError):
        raise InvalidInputError(
            f"unknown ruleset {name!r}; expected one of: " + ", ".join(RULESET_NAMES)
        ) from None
    if constants:
        ruleset = ruleset.with_constants(constants)
        if "armada_squadron_diameter" in constants:
            d = ruleset.armada_squadron_diameter
            sizes = dict(ruleset.base_sizes)
            sizes["squadron"] = (d, d)
            ruleset = _dc.replace(ruleset, base_sizes=_frozen(sizes))
    return ruleset
