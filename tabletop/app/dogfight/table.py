"""The Dogfight players' table: ``push`` one checked play onto a game file, ``pop`` the last.

A play is judged against the position the file's plays lead to; an illegal or unreadable
play is bad input naming the play's number and the rule, and the file is left as it was.
With a bot, the engine answers for the other side (until the pushing side decides again,
the game ends, or a real card must be named in a game with a physical deck). The report
is the position, the hands and the legal plays next (``--json``: the contract's fields).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, TextIO

from tabletop.app.cli import EXIT_OK, emit_json
from tabletop.app.common.playlog import change_plays
from tabletop.app.dogfight.gamefile import DogfightFileError, parse_game_file
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

__all__ = ["BOTS", "pop", "push", "table_json", "table_report"]

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


def table_report(game: Dogfight, position: Position) -> str:
    """Return the board, the hands and every legal play of the decision next."""
    lines = [position_report(game, position)]
    legal = sorted(str(p) for p in game.legal_plays(position))
    if legal:
        lines.append(f"legal plays next ({len(legal)}):")
        lines += [f"  {text}" for text in legal]
    return "\n".join(lines)


def _writer(
    args: argparse.Namespace, game: Dogfight, position: Position, plays: int, said: str
) -> Callable[[TextIO], None]:
    def write(report: TextIO) -> None:
        if args.json:
            emit_json(table_json(game, position, plays), report)
        else:
            report.write(f"{args.file}: {said}\n{table_report(game, position)}\n")

    return write


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
        return new, _writer(args, game, position, len(new), said)

    change_plays(args.file, change, out, command="dogfight push", error=DogfightFileError)
    return EXIT_OK


def pop(args: argparse.Namespace, out: TextIO) -> int:
    """Remove the file's last play."""
    path = str(args.file)

    def change(data: dict[str, Any], plays: list[str]) -> tuple[list[str], Any]:
        if not plays:
            raise DogfightFileError("no play to pop; the file is unchanged", file=path, key="plays")
        game = Dogfight()
        new = plays[:-1]
        position = parse_game_file({**data, "plays": new}, path).final(game)
        said = f"play {len(plays)} {plays[-1]!r} popped"
        return new, _writer(args, game, position, len(new), said)

    change_plays(args.file, change, out, command="dogfight pop", error=DogfightFileError)
    return EXIT_OK
