"""The Dogfight players' table: ``push`` one checked play onto a game file, ``pop`` the last.

A play is judged against the position the file's plays lead to; an illegal or unreadable
play is bad input naming the play's number and the rule, and the file is left as it was.
With a bot, the engine answers for the other side (until the pushing side decides again,
the game ends, or a real card must be named in a game with a physical deck). The report
is the position, what each side still needs to win, the hands (each as its number of
cards unless ``--show-hands``, and the bot's never) and the legal plays next (``--json``:
the contract's fields). ``pop --side SIDE`` takes back that side's last play together
with every play after it (a bot's answer).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, TextIO

from tabletop.app.cli import EXIT_OK, emit_json
from tabletop.app.common.playlog import change_plays
from tabletop.app.dogfight.gamefile import DogfightFileError, GameFile, parse_game_file
from tabletop.boards import (
    IllegalPlayError,
    InvalidPlayError,
    Policy,
    Rng,
    answer,
    derive_seed,
    random_policy,
)
from tabletop.boards.dogfight import SIDES, Dogfight, Position, greedy_policy
from tabletop.boards.dogfight.diagram import position_report

__all__ = ["BOTS", "deciders", "pop", "push", "table_json", "table_report"]

#: The engine's players ``--bot`` names.
BOTS: dict[str, Policy[Position, Any]] = {"random": random_policy, "greedy": greedy_policy}


def table_json(game: Dogfight, position: Position, plays: int) -> dict[str, Any]:
    """Return the position after `plays` plays: whose decision, the hands, the legal plays.

    The deck is its number of cards: its order is hidden from the players at the table.
    """
    info = game.describe(position)
    cards = info["cards"]
    assert isinstance(cards, dict)
    return {
        "plays": plays,
        "winner": game.winner(position),
        "kills": dict(zip(SIDES, position.kills, strict=True)),
        "to_play": game.side_to_play(position),
        "phase": info["phase"],
        "cards": {**cards, "deck": len(cards["deck"])},
        "legal": sorted(str(p) for p in game.legal_plays(position)),
    }


def table_report(game: Dogfight, position: Position, shown: tuple[str, ...] = SIDES) -> str:
    """Return the board, the hands (`shown` card by card) and every legal play next."""
    lines = [position_report(game, position, shown)]
    legal = sorted(str(p) for p in game.legal_plays(position))
    if legal:
        lines.append(f"legal plays next ({len(legal)}):")
        lines += [f"  {text}" for text in legal]
    return "\n".join(lines)


def _shown(args: argparse.Namespace, player: str | None) -> tuple[str, ...]:
    """Return the sides whose hands the report prints: none without ``--show-hands``.

    With a bot, or with ``pop --side``, only the player's (`player`) hand: never a bot's.
    """
    if not args.show_hands:
        return ()
    if player is not None and (getattr(args, "bot", None) or getattr(args, "side", None)):
        return (player,)
    return SIDES


def _writer(
    args: argparse.Namespace,
    game: Dogfight,
    position: Position,
    plays: int,
    said: str,
    player: str | None = None,
) -> Callable[[TextIO], None]:
    def write(report: TextIO) -> None:
        if args.json:
            emit_json(table_json(game, position, plays), report)
        else:
            shown = _shown(args, player)
            report.write(f"{args.file}: {said}\n{table_report(game, position, shown)}\n")

    return write


def deciders(game: Dogfight, file: GameFile) -> list[str | None]:
    """Return the side that made each of the file's plays (the side deciding before it)."""
    position = file.start(game)
    sides: list[str | None] = []
    for text in file.plays:
        sides.append(game.side_to_play(position))
        game.push(position, game.parse_play(text))
    return sides


def _illegal(path: str, number: int, error: InvalidPlayError | IllegalPlayError) -> Exception:
    rule = f" (rule: {error.rule})" if isinstance(error, IllegalPlayError) else ""
    return DogfightFileError(
        f"{error.play!r}: {error.reason}{rule}; the file is unchanged",
        file=path,
        entry=f"play {number}",
        key="plays",
    )


def push(args: argparse.Namespace, out: TextIO) -> int:
    """Append the play `args.play` (and with `args.bot` the engine's answer) to the file."""
    path = str(args.file)

    def change(data: dict[str, Any], plays: list[str]) -> tuple[list[str], Any]:
        game = Dogfight()
        position = parse_game_file(data, path).final(game)
        number = len(plays) + 1
        side = game.side_to_play(position)
        if side is None:
            raise DogfightFileError(
                f"the game is over ({game.winner(position)}); no play follows; the file is "
                "unchanged",
                file=path,
                entry=f"play {number}",
                key="plays",
            )
        try:
            play = game.parse_play(args.play)
            game.push(position, play)
        except (InvalidPlayError, IllegalPlayError) as error:
            raise _illegal(path, number, error) from None
        made = [str(play)]
        if args.bot is not None:
            rng = Rng(derive_seed(int(data.get("seed", 0)), number))
            bot_plays = answer(game, position, BOTS[args.bot], rng, side, stop=game.needs_card)
            made += [str(p) for p in bot_plays]
        new = [*plays, *made]
        parse_game_file({**data, "plays": new}, path)  # the file written reads back
        said = f"play {number} {made[0]!r} pushed" + (
            f"; the {args.bot} bot answered {', '.join(repr(t) for t in made[1:])}"
            if len(made) > 1
            else ""
        )
        return new, _writer(args, game, position, len(new), said, side)

    change_plays(args.file, change, out, command="dogfight push", error=DogfightFileError)
    return EXIT_OK


def _taken_back(path: str, data: dict[str, Any], plays: list[str], side: str | None) -> int:
    """Return how many plays ``pop`` removes: 1, or back to `side`'s last play."""
    if not plays:
        raise DogfightFileError("no play to pop; the file is unchanged", file=path, key="plays")
    if side is None:
        return 1
    game = Dogfight()
    parsed = parse_game_file(data, path)
    parsed.final(game)  # an illegal play is bad input before anything is counted
    made = deciders(game, parsed)
    if side not in made:
        raise DogfightFileError(
            f"the {side} made none of the {len(plays)} plays; the file is unchanged",
            file=path,
            key="plays",
        )
    return len(plays) - max(i for i, s in enumerate(made) if s == side)


def pop(args: argparse.Namespace, out: TextIO) -> int:
    """Remove the file's last play, or (``--side``) that side's last play and all after it."""
    path = str(args.file)
    side = getattr(args, "side", None)

    def change(data: dict[str, Any], plays: list[str]) -> tuple[list[str], Any]:
        count = _taken_back(path, data, plays, side)
        game = Dogfight()
        new = plays[: len(plays) - count]
        position = parse_game_file({**data, "plays": new}, path).final(game)
        gone = plays[len(new) :]
        if count == 1:
            said = f"play {len(plays)} {plays[-1]!r} popped"
        else:
            said = f"plays {len(new) + 1}-{len(plays)} popped: " + ", ".join(map(repr, gone))
        return new, _writer(args, game, position, len(new), said, side)

    change_plays(args.file, change, out, command="dogfight pop", error=DogfightFileError)
    return EXIT_OK
