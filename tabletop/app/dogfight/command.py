"""Star Wars Dogfight on the 8 × 8 board: judge, move lists, replays, simulation, pictures.

  check FILE                   setup or position legality (exit 1 when illegal)
  moves FILE [--depth N]       every legal play after the file's plays, or a perft count
  replay FILE [--upto N]       apply the file's plays (the first N), each checked; the
                               final position
  push FILE 'PLAY' [--bot B]   append one play after checking it (B, random or greedy,
                               answers for the other side); the position, what each side
                               needs to win, the hands' sizes (--show-hands: the cards,
                               never the bot's) and the plays next
  pop FILE [--side SIDE]       remove the file's last play, or SIDE's last play and every
                               play after it (a bot's answer)
  play [--games K] [--seed N] [--policy P] [--rebels P] [--empire P] [-o LOG]
       [--jobs N | --scheduler ADDRESS]
                               simulate K games from the standard setup (P: random or
                               greedy; --policy for both sides, --rebels/--empire for one),
                               here, on N processes or on a Dask cluster: the same result
  render FILE -o OUT [--fighter SQUARE]
                               draw the board (a picture), the last play, and with
                               --fighter its reachable squares and lines of fire

A progress bar goes to stderr during `play` when stderr is a terminal (or with
--progress). Files are TOML or JSON (``dogfight.md``); bad input is exit 2 naming the
file, the play's number and what was expected.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from tabletop.app.cli import (
    EXIT_OK,
    EXIT_VIOLATIONS,
    UsageError,
    add_action,
    add_actions,
    emit_json,
)
from tabletop.app.common.datafile import parse_text
from tabletop.app.common.files import picture_output
from tabletop.app.common.jobs import Runner, add_job_options, in_order, open_runner, slices
from tabletop.app.common.locking import FileUpdate, report_then_publish
from tabletop.app.common.paths import output_target
from tabletop.app.dogfight.gamefile import (
    DogfightFileError,
    game_log_text,
    load_game_file,
    parse_game_file,
)
from tabletop.app.dogfight.table import BOTS, pop, push
from tabletop.boards import Outcome, random_policy, summarise
from tabletop.boards.dogfight import (
    SIDES,
    Dogfight,
    Position,
    dogfight_outcomes,
    greedy_policy,
    parse_square,
    simulate_dogfight,
)
from tabletop.boards.dogfight.diagram import position_report
from tabletop.boards.dogfight.policies import GameLog
from tabletop.boards.errors import WorkLimitError
from tabletop.boards.game import Policy, SimulationResult
from tabletop.boards.words import counted
from tabletop.geom.errors import InvalidInputError
from tabletop.plots.formats import PICTURE_OUTPUTS, PICTURE_SUFFIXES

__all__ = ["MAX_PERFT_POSITIONS", "POLICIES", "play_outcomes", "play_report", "register", "run"]

#: The policies ``play`` knows, by name.
POLICIES: dict[str, Policy[Position, Any]] = {"random": random_policy, "greedy": greedy_policy}
_MAX_DEPTH = 8
#: The most positions one ``moves --depth`` count expands (about 15,000-60,000 a second):
#: depth 8 from the standard setup takes 157,032; depth 6 from a crowded midgame more.
MAX_PERFT_POSITIONS = 500_000
#: The most games one ``play`` simulates (some 300 a second: about a minute); the 95 %
#: interval of a rate is then within ±0.7 %.
_MAX_GAMES = 20_000


def _game_operand(action: argparse.ArgumentParser) -> None:
    action.add_argument("file", metavar="FILE", help="game file (.toml or .json)")


def _writes(action: argparse.ArgumentParser, what: str) -> None:
    action.add_argument("-o", "--output", help=what)
    action.add_argument(
        "--force", action="store_true", help="replace an existing -o file (never the input)"
    )


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's actions and their arguments."""
    actions = add_actions(parser)
    check = add_action(actions, "check", "setup or position legality (exit 1 when illegal)")
    _game_operand(check)
    moves = add_action(
        actions, "moves", "every legal play after the file's plays, or a perft count"
    )
    _game_operand(moves)
    moves.add_argument("--depth", type=int, help="count play sequences N plies deep")
    replay = add_action(
        actions, "replay", "apply the file's plays, each checked; the final position"
    )
    _game_operand(replay)
    replay.add_argument("--upto", type=int, metavar="N", help="stop after play N")
    push = add_action(actions, "push", "append one checked play (and the bot's answer)")
    _game_operand(push)
    push.add_argument("play", metavar="PLAY", help="the play's text, like 'move b1 b4 Pursuit'")
    push.add_argument("--bot", choices=BOTS, help="the engine answers for the other side")
    pop = add_action(actions, "pop", "remove the file's last play")
    _game_operand(pop)
    pop.add_argument(
        "--side",
        choices=SIDES,
        help="take back this side's last play and every play after it (a bot's answer)",
    )
    for table in (push, pop):
        table.add_argument(
            "--show-hands",
            action="store_true",
            help="print the hands card by card (a bot's never); otherwise only their sizes",
        )
    play = add_action(actions, "play", "simulate games from the standard setup")
    play.add_argument(
        "--games", type=int, default=1000, help=f"games (default 1000, at most {_MAX_GAMES})"
    )
    play.add_argument("--seed", type=int, default=0, help="the simulation's seed (default 0)")
    play.add_argument(
        "--policy", choices=POLICIES, default="random", help="both sides (default random)"
    )
    play.add_argument("--rebels", choices=POLICIES, help="the rebels' policy")
    play.add_argument("--empire", choices=POLICIES, help="the empire's policy")
    play.add_argument("--progress", action="store_true", help="always show progress")
    add_job_options(play)
    _writes(play, "write the first game's log (.toml or .json)")
    render = add_action(actions, "render", "draw the board, the last play and a fighter's reach")
    _game_operand(render)
    _writes(render, f"the picture to write: {PICTURE_SUFFIXES}")
    render.add_argument("--fighter", help="show this square's fighter's reach")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the command."""
    if args.action == "play":
        return report_then_publish(
            args.output, out, lambda update, report: _play(args, report, update)
        )
    path = str(args.file)
    if args.action == "check":
        return _check(path, args, out)
    if args.action == "moves":
        return _moves(path, args, out)
    if args.action == "replay":
        return _replay(path, args, out)
    if args.action == "push":
        return push(args, out)
    if args.action == "pop":
        return pop(args, out)
    return _render(path, args, out)


def _check(path: str, args: argparse.Namespace, out: TextIO) -> int:
    parsed = load_game_file(path)
    violations = parsed.violations()
    if violations:
        parsed.check_settings(Dogfight())  # the cards and the rest must still be usable
    else:
        parsed.final(Dogfight())  # the plays are applied: an illegal one is bad input
    legal = not violations
    if args.json:
        emit_json(
            {"legal": legal, "kind": parsed.kind, "violations": [v.to_json() for v in violations]},
            out,
        )
    else:
        verdict = "legal" if legal else f"ILLEGAL: {len(violations)} violation(s)"
        lines = [f"{path}: {parsed.kind}, {verdict}"]
        lines += [f"  {i}. {v.rule}: {v.message}" for i, v in enumerate(violations, 1)]
        out.write("\n".join(lines) + "\n")
    return EXIT_OK if legal else EXIT_VIOLATIONS


def _moves(path: str, args: argparse.Namespace, out: TextIO) -> int:
    game = Dogfight()
    position = load_game_file(path).final(game)
    if args.depth is not None:
        if not 0 <= args.depth <= _MAX_DEPTH:
            raise InvalidInputError(f"--depth {args.depth}: expected 0 to {_MAX_DEPTH}")
        try:
            nodes = game.perft(position, args.depth, most_positions=MAX_PERFT_POSITIONS)
        except WorkLimitError as error:
            raise InvalidInputError(
                f"--depth {args.depth}: {error.reason}; count a smaller depth, "
                "or from a later position",
                where=path,
            ) from None
        if args.json:
            emit_json({"depth": args.depth, "nodes": nodes}, out)
        else:
            out.write(f"{path}: perft {args.depth} = {nodes} nodes\n")
        return EXIT_OK
    winner = game.winner(position)
    texts = sorted(str(p) for p in game.legal_plays(position))
    side = game.side_to_play(position)
    phase = game.describe(position)["phase"]
    if args.json:
        data: dict[str, Any] = {"to_play": side, "phase": phase}
        if winner is not None:
            data["winner"] = winner
        data["plays"] = texts
        emit_json(data, out)
    elif winner is not None:
        out.write(f"{path}: the game is over ({winner}); no plays\n")
    else:
        out.write(f"{path}: {side} to play, {phase} phase: {counted(len(texts), 'play')}\n")
        out.write("".join(f"  {text}\n" for text in texts))
    return EXIT_OK


def _replay(path: str, args: argparse.Namespace, out: TextIO) -> int:
    game = Dogfight()
    parsed = load_game_file(path)
    if args.upto is not None:
        if not 0 <= args.upto <= len(parsed.plays):
            raise InvalidInputError(
                f"--upto {args.upto}: expected 0 to {len(parsed.plays)}, the file's plays",
                where=path,
            )
        parsed = dataclasses.replace(parsed, plays=parsed.plays[: args.upto])
    position = parsed.final(game)
    data = {
        "plays": len(parsed.plays),
        "winner": game.winner(position),
        "kills": dict(zip(SIDES, position.kills, strict=True)),
        "to_play": game.side_to_play(position),
        "phase": game.describe(position)["phase"],
    }
    if args.json:
        emit_json(data, out)
    else:
        out.write(f"{path}: {counted(len(parsed.plays), 'play')} applied, each legal\n")
        out.write(position_report(game, position) + "\n")
    return EXIT_OK


class _ProgressBar:
    """A one-line bar on a stream, redrawn at each whole percent."""

    def __init__(self, stream: TextIO) -> None:
        self.stream, self.shown = stream, -1

    def __call__(self, done: int, total: int) -> None:
        percent = done * 100 // total
        if percent == self.shown:
            return
        self.shown = percent
        filled = percent * 30 // 100
        self.stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} games")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


def play_report(result: SimulationResult, unit: str) -> str:
    """Return the human table of a simulation: win rates with 95 % intervals, lengths."""
    lines = [
        f"{result.games} games from the standard setup, seed {result.seed}; "
        + ", ".join(f"{side} {name}" for side, name in result.policies.items()),
        f"  {'side':<8} {'wins':>7} {'rate':>7}   95 % interval",
    ]
    for side in SIDES:
        low, high = result.interval(side)
        lines.append(
            f"  {side:<8} {result.wins.get(side, 0):>7} {result.rate(side):>7.1%}   "
            f"{low:.1%} - {high:.1%}"
        )
    lines.append(f"  {'draw':<8} {result.draws:>7} {result.draws / max(result.games, 1):>7.1%}")
    n = result.lengths
    lines.append(
        f"  length in {unit}: mean {n.mean:.1f}, median {n.median:g}, "
        f"shortest {n.shortest}, longest {n.longest}"
    )
    return "\n".join(lines)


def play_outcomes(policies: dict[str, str], seed: int, indices: range) -> list[Outcome]:
    """Return the outcomes of games `indices` of ``play`` (policies by name): one slice.

    A module-level function of plain arguments, so that a worker process or a Dask
    worker runs it; game ``i`` is the same game in any slice.
    """
    chosen = {side: POLICIES[name] for side, name in policies.items()}
    return dogfight_outcomes(Dogfight(), chosen, seed=seed, indices=indices)


def _play_shared(
    runner: Runner,
    game: Dogfight,
    names: dict[str, str],
    args: argparse.Namespace,
    progress: Callable[[int, int], None] | None,
) -> tuple[SimulationResult, GameLog]:
    """Play the games in slices on the runner's workers; the same result as in one process."""
    outcomes: list[Outcome] = []
    calls = [(names, args.seed, part) for part in slices(args.games, runner.workers)]
    for part in in_order(runner, play_outcomes, calls):
        outcomes.extend(part)
        if progress is not None:
            progress(len(outcomes), args.games)
    result = summarise(outcomes, names, args.seed, names)
    log = GameLog(0, ())
    if args.output is not None:  # the first game again, here, for its plays
        chosen = {side: POLICIES[name] for side, name in names.items()}
        _, log = simulate_dogfight(game, chosen, games=1, seed=args.seed)
    return result, log


def _play(args: argparse.Namespace, out: TextIO, update: FileUpdate | None) -> int:
    # The log is published after the report is written (report_then_publish): a report
    # that cannot be written leaves no log.
    if not 1 <= args.games <= _MAX_GAMES:
        raise InvalidInputError(f"--games {args.games}: expected 1 to {_MAX_GAMES}")
    if args.output is not None and Path(args.output).suffix.lower() not in (".toml", ".json"):
        raise InvalidInputError(
            "the log is a game file: expected a name ending .toml or .json", where=args.output
        )
    if args.output is not None:  # a path no log can have is refused before any game
        output_target(args.output, force=args.force)
    names = {"rebels": args.rebels or args.policy, "empire": args.empire or args.policy}
    game = Dogfight()
    show = args.progress or sys.stderr.isatty()
    progress = _ProgressBar(sys.stderr) if show else None
    with open_runner(args.jobs, args.scheduler) as runner:
        if runner.in_process:
            result, log = simulate_dogfight(
                game,
                {side: POLICIES[name] for side, name in names.items()},
                games=args.games,
                seed=args.seed,
                progress=progress,
            )
        else:
            result, log = _play_shared(runner, game, names, args, progress)
    result = SimulationResult(
        result.games, result.wins, result.draws, result.lengths, result.seed, names
    )
    if args.output is not None:
        text = game_log_text(log.seed, log.plays, args.output)
        # Read back as a game file is read: the command never writes one it would refuse.
        parse_game_file(parse_text(text, args.output, "game", DogfightFileError), args.output)
        assert update is not None
        update.stage(text, force=args.force, refuse_read_only=False)
    if args.json:
        rates = {}
        for side in SIDES:
            low, high = result.interval(side)
            rates[side] = {"rate": result.rate(side), "low": low, "high": high}
        n = result.lengths
        emit_json(
            {
                "games": result.games,
                "seed": result.seed,
                "policies": names,
                "wins": dict(result.wins),
                "draws": result.draws,
                "rates": rates,
                "lengths": {
                    "unit": game.length_unit,
                    "mean": n.mean,
                    "median": n.median,
                    "shortest": n.shortest,
                    "longest": n.longest,
                },
                "log": args.output,
            },
            out,
        )
    else:
        out.write(play_report(result, game.length_unit) + "\n")
        if args.output is not None:
            out.write(f"wrote game 1 ({len(log.plays)} plays, seed {log.seed}) to {args.output}\n")
    return EXIT_OK


def _render(path: str, args: argparse.Namespace, out: TextIO) -> int:
    if args.output is None:
        raise UsageError(f"dogfight render needs -o {PICTURE_OUTPUTS}")
    fmt = picture_output(args.output, inputs=[path], force=args.force, input_kind="game file")
    game = Dogfight()
    position = load_game_file(path).final(game)
    fighter = None
    if args.fighter is not None:
        try:
            fighter = parse_square(args.fighter)
        except ValueError as error:
            raise InvalidInputError(f"--fighter: {error}") from None
        if position.board[fighter] < 0:
            raise InvalidInputError(f"--fighter {args.fighter}: no fighter on that square")
    from tabletop.plots.dogfight import POSITION_SIZE_PX, render_position

    picture = render_position(game, position, fmt, fighter=fighter, title=path)
    size = POSITION_SIZE_PX

    def publish(update: FileUpdate | None, report: TextIO) -> int:
        # The picture gets its name after the report is written: a report that cannot
        # be written leaves no picture.
        assert update is not None
        update.stage(picture, inputs=[path], force=args.force, refuse_read_only=False)
        if args.json:
            data = {"file": path, "output": args.output, "format": fmt}
            emit_json({**data, "size": list(size)}, report)
        else:
            report.write(f"wrote {args.output} ({fmt}, {size[0]} x {size[1]} px)\n")
        return EXIT_OK

    return report_then_publish(args.output, out, publish)
