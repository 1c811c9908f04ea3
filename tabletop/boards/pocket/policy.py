"""A greedy policy: each decision scored on its own, by expected hits and token cost.

It looks one play ahead and no further: fights it expects to win come first, tokens are
not wasted on long moves, hits go where they cost the fewest points. Ties are broken by
the simulation's stream, so greedy battles are reproducible from their seed.
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletop.boards.game import Game
from tabletop.boards.pocket.combat import order_cost
from tabletop.boards.pocket.plays import (
    Deploy,
    Kill,
    Order,
    Play,
    React,
    Remove,
    Reposition,
    Target,
    Wound,
)
from tabletop.boards.pocket.state import PocketState, UnitState
from tabletop.boards.pocket.zones import front_row, zone_row
from tabletop.boards.rng import Rng

__all__ = ["greedy_policy", "score_play"]


def _expected(unit: UnitState, stat: str, dice: int) -> float:
    # Each die scores one hit per troop whose value equals it: 1/6 per troop per die.
    return dice * sum(1 for t in unit.troops if getattr(t.spec, stat) is not None) / 6.0


def _standing(unit: UnitState) -> int:
    return sum(max(t.spec.wounds, 1) - t.wounds for t in unit.troops)


def score_play(state: PocketState, play: Play) -> float:
    """Return the greedy value of `play` in `state` (higher is better)."""
    units = state.units
    if isinstance(play, Deploy):
        unit = units[play.unit]
        return 1.0 if zone_row(play.zone) == front_row(unit.player) else 0.0
    if isinstance(play, Reposition):
        unit = units[play.unit]
        return 0.2 if zone_row(play.zone) == front_row(unit.player) else -1.0
    if isinstance(play, Order):
        return _score_order(state, play)
    if isinstance(play, React):
        if play.kind == "wait":
            return 0.0
        return 0.9 if play.kind == "intercept" else 0.7
    if isinstance(play, Target):
        return -float(_standing(units[play.unit]))
    if isinstance(play, Wound | Kill):
        return _score_hit(state, play)
    if isinstance(play, Remove):
        return _score_remove(state, play)
    # spur orders come as Order above; no spur, pass, end and rolls score nothing.
    return 0.0


def _score_order(state: PocketState, play: Order) -> float:
    """Score an order by its kind, less 0.4 a token it costs."""
    units = state.units
    unit = units[play.unit]
    cost = 0.4 * order_cost(unit)
    if play.kind == "charge":
        return 1.0 + _expected(unit, "melee", 2) - cost
    if play.kind == "join":
        return 0.8 + _expected(unit, "melee", 1) - cost
    if play.kind == "shoot":
        target = units[play.arg or ""]
        return 0.9 + _expected(unit, "shoot", 1) - cost - 0.05 * _standing(target)
    if play.kind == "move":
        return (0.3 if zone_row(play.arg or "") == front_row(unit.player) else -0.6) - cost
    if play.kind == "trait":
        return 1.2 - cost
    return -0.8 - cost  # leave


def _score_hit(state: PocketState, play: Wound | Kill) -> float:
    """Score taking a hit on a troop: a kill costs its points, a wound a token."""
    for unit in state.units.values():
        for troop in unit.troops:
            if troop.id == play.troop:
                left = max(troop.spec.wounds, 1) - troop.wounds
                if isinstance(play, Kill):
                    return -2.0 * troop.spec.points
                # A wound that leaves the troop standing costs a token, not points.
                return 10.0 * left if left > 1 else -float(troop.spec.points)
    return 0.0


def _score_remove(state: PocketState, play: Remove) -> float:
    """Remove wounded troops only when their tokens would leave no order next round."""
    units = state.units
    player = next(u.player for u in units.values() if any(t.id == play.troop for t in u.troops))
    wounds = sum(u.wound_tokens() for u in state.player_units(player))
    return 1.0 if wounds >= state.battle.size // 10 else -1.0


def greedy_policy(
    game: Game[PocketState, Play], state: PocketState, plays: Sequence[Play], rng: Rng
) -> Play:
    """Choose the play of highest :func:`score_play`, ties broken at random."""
    if len(plays) == 1:
        return plays[0]
    scored = [(score_play(state, p), i) for i, p in enumerate(plays)]
    best = max(s for s, _ in scored)
    return plays[rng.choice([i for s, i in scored if s >= best - 1e-9])]
