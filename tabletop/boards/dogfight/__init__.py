"""Star Wars Dogfight: the card-driven fighter game on an 8 × 8 board.

The rules record (:mod:`tabletop.boards.dogfight.rules`) is data with each ruling a named
option; positions (:mod:`~tabletop.boards.dogfight.position`) hold fighters, hands, deck,
discard, kills and phase; plays (:mod:`~tabletop.boards.dogfight.plays`) are typed values with a
canonical text; generation (:mod:`~tabletop.boards.dogfight.movegen`) runs on bitboards
(:mod:`~tabletop.boards.dogfight.bitboards`); the judge (:mod:`~tabletop.boards.dogfight.judge`) names the
rule an illegal play breaks; a card with an effect of its own names a registered
:class:`Effect` (:mod:`~tabletop.boards.dogfight.effects`); :class:`Dogfight` is the
engine; the policies (:mod:`~tabletop.boards.dogfight.policies`) play games for the
simulator.

Examples
--------
>>> from tabletop.boards import replay
>>> game = Dogfight()
>>> start = game.position(seed=11, phase="move", hands={"rebels": ["Pursuit"]})
>>> after = replay(game, start, ["move b1 b5 Pursuit"]).state
>>> replay(game, start, ["move b1 b6 Pursuit"])
Traceback (most recent call last):
...
tabletop.boards.errors.ReplayError: play 1 'move b1 b6 Pursuit': Pursuit moves up to 4 squares, this is 5 (rule: too-far)
"""

from __future__ import annotations

from tabletop.boards.dogfight.effects import Effect, register_effect
from tabletop.boards.dogfight.engine import Dogfight
from tabletop.boards.dogfight.plays import (
    Advance,
    Defend,
    Discard,
    Fire,
    Move,
    Pass,
    Play,
    Tactics,
    Take,
    Use,
    parse_play,
    play_text,
)
from tabletop.boards.dogfight.policies import dogfight_outcomes, greedy_policy, simulate_dogfight
from tabletop.boards.dogfight.position import PHASES, Position, Violation, placement_violations
from tabletop.boards.dogfight.rules import (
    SIDES,
    STANDARD,
    Card,
    FighterType,
    Rules,
    parse_square,
    square_name,
)

__all__ = [
    "PHASES",
    "SIDES",
    "STANDARD",
    "Advance",
    "Card",
    "Defend",
    "Discard",
    "Dogfight",
    "Effect",
    "FighterType",
    "Fire",
    "Move",
    "Pass",
    "Play",
    "Position",
    "Rules",
    "Tactics",
    "Take",
    "Use",
    "Violation",
    "dogfight_outcomes",
    "greedy_policy",
    "parse_play",
    "parse_square",
    "placement_violations",
    "play_text",
    "register_effect",
    "simulate_dogfight",
    "square_name",
]
