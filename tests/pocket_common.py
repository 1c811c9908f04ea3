"""Builders for the Pocket Battles tests: small battles set up by hand, plays by text."""

from __future__ import annotations

from collections.abc import Sequence

from tabletop.boards.pocket import (
    Army,
    Battle,
    Decision,
    PocketBattles,
    PocketRules,
    PocketState,
    Troop,
    UnitSpec,
)

UnitPlan = tuple[str, str | None, Sequence[Troop]]


def troop(
    tid: str,
    points: int = 5,
    formation: int = 3,
    wounds: int = 1,
    melee: int | None = 4,
    shoot: int | None = None,
    traits: Sequence[str] = (),
) -> Troop:
    return Troop(tid, points, formation, wounds, melee, shoot, tuple(traits))


def battle(
    red: Sequence[UnitPlan],
    blue: Sequence[UnitPlan],
    *,
    size: int = 100,
    attacker: int = 1,
    seed: int = 0,
    rules: PocketRules | None = None,
) -> Battle:
    armies = tuple(
        Army(player, name, tuple(UnitSpec(uid, tuple(troops), zone) for uid, zone, troops in plan))
        for player, name, plan in ((1, "red", red), (2, "blue", blue))
    )
    return Battle(size, (armies[0], armies[1]), attacker, seed, rules or PocketRules())


def start(b: Battle) -> tuple[PocketBattles, PocketState]:
    game = PocketBattles(b)
    return game, game.start()


def play(game: PocketBattles, state: PocketState, *texts: str) -> None:
    for text in texts:
        game.push(state, game.parse_play(text))


def decision(game: PocketBattles, state: PocketState) -> Decision:
    return game.decision(state)


def listed(game: PocketBattles, state: PocketState) -> list[str]:
    return [game.play_text(p) for p, _ in game.decision(state).plays]


def costs(game: PocketBattles, state: PocketState) -> dict[str, int]:
    return {game.play_text(p): c for p, c in game.decision(state).plays}


def after_first_turn(game: PocketBattles, state: PocketState) -> None:
    """Both players pass once, so that the attacker's first turn is over (player 1 again)."""
    play(game, state, "pass", "pass")
