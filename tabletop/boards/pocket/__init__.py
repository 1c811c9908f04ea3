"""Pocket Battles: the rules engine and judge of the 15-zone battle game.

The battlefield (:mod:`~tabletop.boards.pocket.zones`), troops, units, armies and their legality
(:mod:`~tabletop.boards.pocket.army`), the rules record with each ruling a named option
(:mod:`~tabletop.boards.pocket.rules`), plays as typed values (:mod:`~tabletop.boards.pocket.plays`), the
position (:mod:`~tabletop.boards.pocket.state`), the fights (:mod:`~tabletop.boards.pocket.combat`), the
rules object that implements :class:`tabletop.boards.game.Game` (:mod:`~tabletop.boards.pocket.engine`,
on its listing of legal plays, :mod:`~tabletop.boards.pocket.listing`, and its reasons for
refusing one, :mod:`~tabletop.boards.pocket.diagnose`) and a greedy policy
(:mod:`~tabletop.boards.pocket.policy`).

Examples
--------
>>> from tabletop.boards import replay
>>> game = PocketBattles(example_battle())
>>> result = replay(game, game.start(), ["order riders charge", "react wait", "target scouts"])
>>> game.decision(result.state).kind, game.decision(result.state).dice
('roll', 3)
"""

from tabletop.boards.pocket.army import (
    FLAG_TRAITS,
    Army,
    Battle,
    BattleCheck,
    Traits,
    Troop,
    UnitSpec,
    Violation,
    check_battle,
    formation_limit,
    parse_trait,
    unit_traits,
)
from tabletop.boards.pocket.combat import STRIKE_KINDS, count_hits, order_cost
from tabletop.boards.pocket.engine import DECISION_KINDS, Decision, PocketBattles
from tabletop.boards.pocket.examples import EXAMPLE_ZONES, example_armies, example_battle
from tabletop.boards.pocket.plays import (
    ORDER_KINDS,
    Deploy,
    End,
    Kill,
    NoSpur,
    Order,
    Pass,
    Play,
    React,
    Remove,
    Reposition,
    Roll,
    Surrender,
    Target,
    Wound,
    parse_play,
    play_text,
)
from tabletop.boards.pocket.policy import greedy_policy
from tabletop.boards.pocket.rules import RULING_OPTIONS, PocketRules
from tabletop.boards.pocket.state import PocketState
from tabletop.boards.pocket.zones import ADJACENT, SECTOR_WORDS, ZONES, own_zones, zone_words

__all__ = [
    "ADJACENT",
    "DECISION_KINDS",
    "EXAMPLE_ZONES",
    "FLAG_TRAITS",
    "ORDER_KINDS",
    "RULING_OPTIONS",
    "SECTOR_WORDS",
    "STRIKE_KINDS",
    "ZONES",
    "Army",
    "Battle",
    "BattleCheck",
    "Decision",
    "Deploy",
    "End",
    "Kill",
    "NoSpur",
    "Order",
    "Pass",
    "Play",
    "PocketBattles",
    "PocketRules",
    "PocketState",
    "React",
    "Remove",
    "Reposition",
    "Roll",
    "Surrender",
    "Target",
    "Traits",
    "Troop",
    "UnitSpec",
    "Violation",
    "Wound",
    "check_battle",
    "count_hits",
    "example_armies",
    "example_battle",
    "formation_limit",
    "greedy_policy",
    "order_cost",
    "own_zones",
    "parse_play",
    "parse_trait",
    "play_text",
    "unit_traits",
    "zone_words",
]
