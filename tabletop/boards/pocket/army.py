"""Troops, units, armies and a battle's setup, with their legality.

The troop tiles' printed values are not in the rulebook, so troops are data: points,
formation, wound points, the black (``melee``) and white (``shoot``) die values and
traits. Construction is permissive; :func:`check_battle` reports every broken rule at
once (battle size, army points, formation, unit wounds, empty units, deployment zones).

Examples
--------
>>> spear = Troop("spear-1", points=6, formation=3, wounds=1, melee=4)
>>> unit = UnitSpec("spears", (spear, spear.renamed("spear-2")), zone="B2")
>>> unit_traits(unit.troops).engagement, formation_limit(unit.troops)
(0, 3)
>>> parse_trait("+2 engagement"), parse_trait("wide arc")
(('engagement', 2), ('wide arc', 0))
>>> parse_trait("+0 shoot")
Traceback (most recent call last):
...
tabletop.boards.errors.InvalidPositionError: trait +N shoot: N is from 1 to 99, got 0
"""

from __future__ import annotations

import re as _re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tabletop.boards.errors import InvalidPositionError
from tabletop.boards.pocket.rules import PocketRules
from tabletop.boards.pocket.zones import Player, Zone, own_zones

__all__ = [
    "FLAG_TRAITS",
    "Army",
    "Battle",
    "BattleCheck",
    "Traits",
    "Troop",
    "UnitSpec",
    "Violation",
    "check_battle",
    "formation_limit",
    "parse_trait",
    "unit_traits",
]

#: The traits that are a plain yes or no, by their exact names.
FLAG_TRAITS: tuple[str, ...] = (
    "double order",
    "spur",
    "impetuous",
    "leader",
    "long range",
    "reactive",
    "slow",
    "wide arc",
)
#: The largest N of a ``+N`` trait: N more dice or hits, so a bound on one roll's work.
MOST_TRAIT_BONUS = 99
_NUMBERED = _re.compile(r"\+([0-9]+) (engagement|shoot|wounds)")
_TRAIT_HELP = (
    ", ".join(FLAG_TRAITS)
    + f", +N engagement, +N shoot, +N wounds (N from 1 to {MOST_TRAIT_BONUS})"
)


def parse_trait(text: str) -> tuple[str, int]:
    """Read a trait's exact name: ``(name, 0)`` for a flag, ``(kind, N)`` for ``+N kind``.

    Raises
    ------
    InvalidPositionError
        For any other text.
    """
    if text in FLAG_TRAITS:
        return (text, 0)
    match = _NUMBERED.fullmatch(text)
    if match is None:
        shown = repr(text) if len(text) <= 60 else f"{text[:40]!r}… ({len(text)} characters)"
        raise InvalidPositionError(f"unknown trait {shown}; expected one of: {_TRAIT_HELP}")
    digits = match.group(1).lstrip("0")
    if not digits or len(digits) > len(str(MOST_TRAIT_BONUS)) or int(digits) > MOST_TRAIT_BONUS:
        size = digits if len(digits) <= 6 else f"a {len(digits)}-digit number"
        raise InvalidPositionError(
            f"trait +N {match.group(2)}: N is from 1 to {MOST_TRAIT_BONUS}, got {size or 0}"
        )
    return (match.group(2), int(digits))


@dataclass(frozen=True, slots=True)
class Troop:
    """One troop tile: deployment points, formation, wound points, die values, traits."""

    id: str
    points: int
    formation: int
    wounds: int
    melee: int | None = None
    shoot: int | None = None
    traits: tuple[str, ...] = ()

    def renamed(self, new_id: str) -> Troop:
        """Return the same troop under another id."""
        return replace(self, id=new_id)

    def to_dict(self) -> dict[str, Any]:
        """Return the troop as the battle file writes it."""
        out: dict[str, Any] = {
            "id": self.id,
            "points": self.points,
            "formation": self.formation,
            "wounds": self.wounds,
        }
        if self.melee is not None:
            out["melee"] = self.melee
        if self.shoot is not None:
            out["shoot"] = self.shoot
        if self.traits:
            out["traits"] = list(self.traits)
        return out


@dataclass(frozen=True, slots=True)
class Traits:
    """What a unit can do because one of its troops can (the largest N for ``+N``)."""

    flags: frozenset[str] = frozenset()
    engagement: int = 0
    shoot: int = 0
    wounds: int = 0

    def has(self, name: str) -> bool:
        """Tell whether the unit has the flag trait `name`."""
        return name in self.flags


def unit_traits(troops: Iterable[Troop]) -> Traits:
    """Return the traits of a unit made of `troops` (any troop's trait is the unit's)."""
    flags: set[str] = set()
    numbers = {"engagement": 0, "shoot": 0, "wounds": 0}
    for troop in troops:
        for text in troop.traits:
            name, n = parse_trait(text)
            if n:
                numbers[name] = max(numbers[name], n)
            else:
                flags.add(name)
    return Traits(frozenset(flags), numbers["engagement"], numbers["shoot"], numbers["wounds"])


def formation_limit(troops: Sequence[Troop]) -> int:
    """Return how many troops the unit may hold: its lowest formation value (0 if empty)."""
    return min((t.formation for t in troops), default=0)


@dataclass(frozen=True, slots=True)
class UnitSpec:
    """A unit as the battle file gives it: its troops and, once deployed, its zone."""

    id: str
    troops: tuple[Troop, ...]
    zone: Zone | None = None

    @property
    def points(self) -> int:
        """The deployment points of its troops."""
        return sum(t.points for t in self.troops)


@dataclass(frozen=True, slots=True)
class Army:
    """One player's army: its name and units, in the file's order."""

    player: Player
    name: str
    units: tuple[UnitSpec, ...]

    @property
    def points(self) -> int:
        """The deployment points of all its troops (the victory threshold's base)."""
        return sum(u.points for u in self.units)


@dataclass(frozen=True, slots=True)
class Battle:
    """A battle's setup: size, the two armies, the attacker, the dice seed."""

    size: int
    armies: tuple[Army, Army]
    attacker: Player = 1
    seed: int = 0
    rules: PocketRules = field(default_factory=PocketRules)

    def army(self, player: Player) -> Army:
        """Return `player`'s army."""
        return self.armies[0] if self.armies[0].player == player else self.armies[1]

    @property
    def deployed(self) -> bool:
        """True when the file gives every unit a zone (False when it gives none)."""
        return all(u.zone is not None for a in self.armies for u in a.units)

    @property
    def defender(self) -> Player:
        """The player who is not the attacker."""
        return 2 if self.attacker == 1 else 1


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule of an army or deployment."""

    rule: str
    message: str
    unit: str | None = None
    player: Player | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the contract's JSON: rule, then unit or player, then message."""
        out: dict[str, Any] = {"rule": self.rule}
        if self.unit is not None:
            out["unit"] = self.unit
        elif self.player is not None:
            out["player"] = self.player
        out["message"] = self.message
        return out


@dataclass(frozen=True, slots=True)
class BattleCheck:
    """Every violation of a battle's setup, and the warnings."""

    violations: tuple[Violation, ...]
    warnings: tuple[str, ...]

    @property
    def legal(self) -> bool:
        """True when no rule is broken (warnings do not count)."""
        return not self.violations

    def to_json(self) -> dict[str, Any]:
        """Return the contract's JSON of ``check``."""
        return {
            "legal": self.legal,
            "violations": [v.to_json() for v in self.violations],
            "warnings": list(self.warnings),
        }


def check_battle(battle: Battle) -> BattleCheck:
    """Report every broken rule of `battle`'s armies and deployment."""
    rules = battle.rules
    violations: list[Violation] = []
    warnings: list[str] = []
    size = battle.size
    # The battle size is a multiple of 10, from 10 up: tokens are size / 10.
    if size < rules.size_step or size % rules.size_step:
        violations.append(
            Violation(
                "battle-size",
                f"the battle size {size} is not a multiple of {rules.size_step} from "
                f"{rules.size_step} up",
            )
        )
    elif not rules.advised_sizes[0] <= size <= rules.advised_sizes[1]:
        low, high = rules.advised_sizes
        warnings.append(f"the battle size {size} is outside the advised {low}-{high}")
    for army in battle.armies:
        # An army's troops total at most the battle size.
        if army.points > size:
            violations.append(
                Violation(
                    "army-points",
                    f"{army.name!r} has {army.points} points of troops, over the battle "
                    f"size {size}",
                    player=army.player,
                )
            )
        home = own_zones(army.player)
        for unit in army.units:
            # A unit has one troop or more.
            if not unit.troops:
                violations.append(Violation("unit-empty", "the unit has no troop", unit.id))
                continue
            # A unit holds at most as many troops as its lowest formation value.
            limit = formation_limit(unit.troops)
            if len(unit.troops) > limit:
                violations.append(
                    Violation(
                        "formation",
                        f"{len(unit.troops)} troops, but its lowest formation value is {limit}",
                        unit.id,
                    )
                )
            # A unit has at least 1 wound point in all.
            if sum(t.wounds for t in unit.troops) < 1:
                violations.append(
                    Violation("unit-wounds", "the unit has no wound point in all", unit.id)
                )
            # A unit deploys into its own six zones.
            if unit.zone is not None and unit.zone not in home:
                violations.append(
                    Violation(
                        "deployment-zone",
                        f"zone {unit.zone} is not one of player {army.player}'s zones "
                        f"({', '.join(home)})",
                        unit.id,
                    )
                )
    return BattleCheck(tuple(violations), tuple(warnings))
