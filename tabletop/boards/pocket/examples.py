"""Two invented example armies, "Example red" and "Example blue", for tests and the demo.

They are not the published Celts and Romans (whose tile values the rulebook does not
give): every value here is made up to exercise the rules, a trait of each kind included.

Examples
--------
>>> battle = example_battle()
>>> [a.name for a in battle.armies], [a.points for a in battle.armies]
(['Example red', 'Example blue'], [54, 51])
>>> [a.points for a in example_battle(size=80).armies]
[72, 67]
"""

from __future__ import annotations

from tabletop.boards.pocket.army import Army, Battle, Troop, UnitSpec
from tabletop.boards.pocket.rules import PocketRules

__all__ = ["EXAMPLE_ZONES", "example_armies", "example_battle"]

#: Where the example units stand in the battle ready to play.
EXAMPLE_ZONES: dict[str, str] = {
    "spears": "B2",
    "riders": "A2",
    "archers": "C1",
    "warband": "C2",
    "legion": "B4",
    "cohort": "C4",
    "scouts": "A4",
    "auxilia": "B5",
}


def _red(size: int) -> list[UnitSpec]:
    units = [
        UnitSpec(
            "spears",
            (
                Troop("spear-1", 6, 3, 1, melee=4),
                Troop("spear-2", 6, 3, 1, melee=4),
                Troop("spear-3", 6, 3, 1, melee=3),
            ),
        ),
        UnitSpec(
            "riders",
            (
                Troop("rider-1", 12, 2, 2, melee=3, traits=("impetuous",)),
                Troop("rider-2", 10, 2, 2, melee=5, traits=("leader",)),
            ),
        ),
        UnitSpec(
            "archers",
            (
                Troop("archer-1", 7, 2, 1, shoot=3, traits=("long range",)),
                Troop("archer-2", 7, 2, 1, shoot=4, traits=("+1 shoot",)),
            ),
        ),
    ]
    if size >= 80:
        units.append(
            UnitSpec(
                "warband",
                (Troop("warrior-1", 9, 2, 1, melee=3), Troop("warrior-2", 9, 2, 1, melee=4)),
            )
        )
    return units


def _blue(size: int) -> list[UnitSpec]:
    units = [
        UnitSpec(
            "legion",
            (
                Troop("legionary-1", 7, 3, 1, melee=4, traits=("+1 wounds",)),
                Troop("legionary-2", 7, 3, 1, melee=4),
                Troop("legionary-3", 7, 3, 1, melee=3, traits=("slow",)),
            ),
        ),
        UnitSpec(
            "cohort",
            (
                Troop("centurion", 10, 2, 2, melee=5, traits=("double order", "spur")),
                Troop("veteran", 8, 2, 1, melee=4, traits=("+1 engagement",)),
            ),
        ),
        UnitSpec(
            "scouts",
            (
                Troop("slinger-1", 6, 2, 1, melee=2, shoot=4, traits=("wide arc",)),
                Troop("slinger-2", 6, 2, 1, shoot=5, traits=("reactive",)),
            ),
        ),
    ]
    if size >= 80:
        units.append(
            UnitSpec(
                "auxilia",
                (
                    Troop("auxiliary-1", 8, 2, 1, melee=3, shoot=6),
                    Troop("auxiliary-2", 8, 2, 1, melee=5, shoot=4),
                ),
            )
        )
    return units


def example_armies(size: int = 60, *, deployed: bool = True) -> tuple[Army, Army]:
    """Return the two example armies (a fourth unit each from 80 points up)."""
    armies = []
    for player, name, units in ((1, "Example red", _red(size)), (2, "Example blue", _blue(size))):
        placed = tuple(
            UnitSpec(u.id, u.troops, EXAMPLE_ZONES[u.id] if deployed else None) for u in units
        )
        armies.append(Army(player, name, placed))
    return (armies[0], armies[1])


def example_battle(
    size: int = 60, *, deployed: bool = True, seed: int = 5, rules: PocketRules | None = None
) -> Battle:
    """Return the example battle: red (player 1, the attacker) against blue."""
    return Battle(size, example_armies(size, deployed=deployed), 1, seed, rules or PocketRules())
