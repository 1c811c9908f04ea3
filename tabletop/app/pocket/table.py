"""The Pocket Battles players' table: ``push`` one checked play onto a battle file, ``pop`` plays.

A play is judged against the decision the file's plays lead to; an illegal or unreadable
play is bad input naming the play's number and the rule, and the file is left as it was.
With a bot, the engine answers for the other player. The report says what each roll did
(which die hit which troop), then the state (the hits left to assign, what each player
still needs to win) and the legal plays next. ``pop --player N`` takes back player N's
last play together with every play after it (a bot's answer).
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from tabletop.app.cli import EXIT_OK, emit_json
from tabletop.app.common.playlog import change_plays
from tabletop.app.pocket.battlefile import (
    BattleFile,
    BattleFileError,
    parse_battle,
    replay_battle,
)
from tabletop.app.pocket.command import POLICIES, refuse_illegal, replay_json, state_text
from tabletop.boards import IllegalPlayError, InvalidPlayError, Rng, answer, derive_seed
from tabletop.boards.pocket import PocketBattles, PocketState
from tabletop.boards.pocket.plays import Play, Roll
from tabletop.boards.pocket.telling import roll_words

__all__ = ["BOT_SALT", "push_or_pop", "rolls_told", "table_text"]

#: Mixed into the bot's seed (the battle's seed and the play's number), as ``play`` mixes
#: it into each simulated battle's: a bot's answer is reproducible.
BOT_SALT = 0x5DEECE66D


def table_text(game: PocketBattles, state: PocketState) -> str:
    """Return the state and every legal play of the decision next, with its token cost."""
    lines = [state_text(game, state)]
    decision = game.decision(state)
    if decision.plays:
        lines.append(f"legal plays next ({len(decision.plays)}):")
        lines += [f"  {game.play_text(play):<34} cost {cost}" for play, cost in decision.plays]
    return "\n".join(lines)


def _player_of(game: PocketBattles, state: PocketState, play: Play) -> str | None:
    # A play given while a roll is due is for the decision after the roll.
    trial = state.copy()
    if not isinstance(play, Roll):
        while game.decision(trial).kind == "roll":
            game.push(trial, game.legal_plays(trial)[0])
    return game.side_to_play(trial)


def _pushed(
    args: argparse.Namespace, file: BattleFile, game: PocketBattles, state: PocketState
) -> tuple[list[str], list[str]]:
    """Push `args.play` on `state` (and the bot's answer); return the texts and the rolls told."""
    number = len(file.plays) + 1
    if state.winner is not None:
        raise BattleFileError(
            f"the battle is over, won by player {state.winner}; no play follows; "
            "the file is unchanged",
            file=file.path,
            entry=f"play {number}",
        )
    before = state.copy()
    try:
        play = game.parse_play(args.play)
        player = _player_of(game, state, play)
        game.push(state, play)
    except (InvalidPlayError, IllegalPlayError) as error:
        rule = f" (rule: {error.rule})" if isinstance(error, IllegalPlayError) else ""
        raise BattleFileError(
            f"{error.play!r}: {error.reason}{rule}; the file is unchanged",
            file=file.path,
            entry=f"play {number}",
        ) from None
    made = [game.play_text(play)]
    if args.bot is not None and player is not None:
        rng = Rng(derive_seed(file.battle.seed, number) ^ BOT_SALT)
        made += [game.play_text(p) for p in answer(game, state, POLICIES[args.bot], rng, player)]
    return made, rolls_told(game, before, made)


def rolls_told(game: PocketBattles, state: PocketState, texts: list[str]) -> list[str]:
    """Return what each roll does as `texts` are played on a copy of `state`, in words.

    A written ``roll`` and a roll drawn from the seed before another play (said so) alike.
    """
    state = state.copy()
    told: list[str] = []
    for text in texts:
        play = game.parse_play(text)
        if isinstance(play, Roll):
            told.append(roll_words(game, state, play.dice))
        while not isinstance(play, Roll) and game.decision(state).kind == "roll":
            due = game.decision(state).dice
            trial = state.copy()
            dice = tuple(trial.rng.roll() for _ in range(due))
            told.append(f"{roll_words(game, state, dice)} (drawn from the seed)")
            game.push(state, Roll(dice))
        game.push(state, play)
    return told


def _plays_by(game: PocketBattles, file: BattleFile) -> list[int | None]:
    """Return the player who made each of the file's plays (a roll: the player rolling)."""
    state = game.start()
    made: list[int | None] = []
    for text in file.plays:
        play = game.parse_play(text)
        side = _player_of(game, state, play)
        made.append(int(side) if side is not None else None)
        game.push(state, play)
    return made


def _taken_back(game: PocketBattles, file: BattleFile, player: int | None) -> int:
    """Return how many plays ``pop`` removes: 1, or back to `player`'s last play."""
    if not file.plays:
        raise BattleFileError("no play to pop; the file is unchanged", file=file.path)
    if player is None:
        return 1
    made = _plays_by(game, file)
    if player not in made:
        raise BattleFileError(
            f"player {player} made none of the {len(made)} plays; the file is unchanged",
            file=file.path,
        )
    return len(made) - max(i for i, p in enumerate(made) if p == player)


def push_or_pop(args: argparse.Namespace, out: TextIO) -> int:
    """Append one checked play to the battle file (``push``) or remove its last (``pop``)."""
    path = str(args.file)

    def change(data: dict[str, Any], plays: list[str]) -> tuple[list[str], Any]:
        battle, _ = parse_battle(data, path)
        file = BattleFile(path, battle, tuple(plays))
        refuse_illegal(file)
        told: list[str] = []
        if args.action == "pop":
            count = _taken_back(replay_battle(file)[0], file, args.player)
            file = BattleFile(path, battle, tuple(plays[: len(plays) - count]))
            game, state = replay_battle(file)
            new = list(file.plays)
            if count == 1:
                said = f"play {len(plays)} {plays[-1]!r} popped"
            else:
                gone = ", ".join(repr(t) for t in plays[len(new) :])
                said = f"plays {len(new) + 1}-{len(plays)} popped: {gone}"
        else:
            game, state = replay_battle(file)
            made, told = _pushed(args, file, game, state)
            new = [*plays, *made]
            said = f"play {len(plays) + 1} {made[0]!r} pushed" + (
                f"; the {args.bot} bot answered " + ", ".join(repr(t) for t in made[1:])
                if len(made) > 1
                else ""
            )
        said += "".join(f"\n  {line}" for line in told)

        def write(report: TextIO) -> None:
            if args.json:
                emit_json(
                    {
                        "plays": len(new),
                        **replay_json(game, state),
                        "decision": game.decision(state).to_json(),
                    },
                    report,
                )
            else:
                report.write(f"{path}: {said}\n{table_text(game, state)}\n")

        return new, write

    change_plays(
        args.file,
        change,
        out,
        command=f"pocket {args.action}",
        kind="battle",
        error=BattleFileError,
    )
    return EXIT_OK
