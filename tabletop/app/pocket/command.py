"""Pocket Battles: check a battle file, list the legal plays, replay, simulate, draw.

  check FILE      army and deployment legality (exit 1 when illegal)
  actions FILE    every legal play of the current decision, with its token cost
  replay FILE     play the log, validating each play; the winner and the final state
  play FILE       simulate --games K battles from the file's position (--seed N,
                  --policy random|greedy for both players, --policy2 for player 2;
                  --jobs N processes or --scheduler ADDRESS, a Dask cluster);
                  win rates with 95 % Wilson intervals, rounds per battle; -o LOG
                  writes the first battle's full, replayable log as a battle file
  render FILE     draw the 15 zones as player 1 sees them to -o OUT (a picture)
  push FILE PLAY  append one play after checking it (--bot random|greedy: the engine
                  answers for the other player); what each roll did, the state (the
                  hits left to assign, what each player needs to win) and the plays next
  pop FILE        remove the file's last play (--player N: player N's last play and
                  every play after it, a bot's answer)

Every command but check refuses an illegal battle (exit 2); a play that cannot be read
or breaks a rule is exit 2 naming its number and the rule. A progress bar goes to
stderr for long play runs when stderr is a terminal, or with --progress.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from tabletop.app.cli import EXIT_OK, EXIT_VIOLATIONS, add_action, add_actions, emit_json
from tabletop.app.common.datafile import parse_text
from tabletop.app.common.datatext import file_text
from tabletop.app.common.files import picture_output
from tabletop.app.common.jobs import add_job_options, in_order, open_runner, slices
from tabletop.app.common.locking import FileUpdate, report_then_publish
from tabletop.app.common.paths import output_target
from tabletop.app.pocket.battlefile import (
    BattleFile,
    BattleFileError,
    battle_data,
    load_battle,
    parse_battle,
    read_plays,
    replay_battle,
)
from tabletop.boards import (
    Outcome,
    Policy,
    Rng,
    SimulationResult,
    derive_seed,
    play_games,
    random_policy,
    simulate,
    summarise,
)
from tabletop.boards.pocket import (
    PocketBattles,
    PocketState,
    check_battle,
    greedy_policy,
    zone_words,
)
from tabletop.boards.pocket.plays import Play
from tabletop.boards.pocket.telling import hits_words, to_win_words
from tabletop.boards.pocket.zones import ZONES
from tabletop.geom.errors import InvalidInputError
from tabletop.plots.formats import PICTURE_OUTPUTS, PICTURE_SUFFIXES

__all__ = [
    "MAX_GAMES",
    "POLICIES",
    "SUBCOMMANDS",
    "play_log",
    "play_outcomes",
    "refuse_illegal",
    "register",
    "replay_json",
    "run",
    "simulation_json",
    "state_text",
]

#: The sub-commands, in the order the help lists them.
SUBCOMMANDS: tuple[str, ...] = ("check", "actions", "replay", "play", "render", "push", "pop")
#: The policies ``play`` knows, by name.
POLICIES: dict[str, Policy[PocketState, Play]] = {"random": random_policy, "greedy": greedy_policy}
#: The most battles one ``play`` simulates (some 400 a second at the advised sizes: about
#: a minute); the 95 % interval of a rate is then within ±0.7 %.
MAX_GAMES = 20_000
_SIMULATION_SALT = 0x5DEECE66D


def _battle_operand(action: argparse.ArgumentParser) -> None:
    action.add_argument("file", metavar="FILE", help="battle file (.toml or .json)")


def _force(action: argparse.ArgumentParser) -> None:
    action.add_argument(
        "--force", action="store_true", help="replace an existing -o file (never the input)"
    )


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's actions and their arguments."""
    actions = add_actions(parser)
    summaries = {
        "check": "army and deployment legality (exit 1 when illegal)",
        "actions": "every legal play of the current decision, with its token cost",
        "replay": "play the log, validating each play; the winner and the final state",
        "play": "simulate battles from the file's position",
        "render": "draw the 15 zones as player 1 sees them",
        "push": "append one checked play (and the bot's answer)",
        "pop": "remove the file's last play",
    }
    parsers = {name: add_action(actions, name, summaries[name]) for name in SUBCOMMANDS}
    for action in parsers.values():
        _battle_operand(action)
    play = parsers["play"]
    play.add_argument("--seed", type=int, default=0, help="the simulation's seed (default 0)")
    play.add_argument(
        "--games",
        type=int,
        default=100,
        help=f"battles to simulate (default 100, at most {MAX_GAMES})",
    )
    play.add_argument(
        "--policy", choices=tuple(POLICIES), default="random", help="both players' policy"
    )
    play.add_argument("--policy2", choices=tuple(POLICIES), help="player 2's policy, if other")
    play.add_argument("-o", "--output", help="write the first battle's full log (.toml or .json)")
    play.add_argument("--progress", action="store_true", help="a progress bar on stderr")
    add_job_options(play)
    _force(play)
    push = parsers["push"]
    push.add_argument("play", metavar="PLAY", help="the play's text, like 'order spears charge'")
    push.add_argument(
        "--bot", choices=tuple(POLICIES), help="the engine answers for the other player"
    )
    parsers["pop"].add_argument(
        "--player",
        type=int,
        choices=(1, 2),
        help="take back this player's last play and every play after it (a bot's answer)",
    )
    render = parsers["render"]
    render.add_argument("-o", "--output", help=f"the picture to write: {PICTURE_SUFFIXES}")
    _force(render)


def refuse_illegal(file: BattleFile) -> None:
    """Refuse an illegal battle: every command but ``check`` needs a legal one."""
    report = check_battle(file.battle)
    if not report.legal:
        first = report.violations[0]
        raise InvalidInputError(
            f"the battle is illegal ({len(report.violations)} violation(s); first: "
            f"{first.rule}: {first.message}); see 'tabletop pocket check'",
            where=file.path,
        )


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def replay_json(game: PocketBattles, state: PocketState) -> dict[str, Any]:
    """Return the contract's JSON of ``replay``: winner, round, points destroyed."""
    return {
        "winner": state.winner,
        "round": state.round,
        "destroyed": {"1": state.destroyed[1], "2": state.destroyed[2]},
    }


def state_text(game: PocketBattles, state: PocketState) -> str:
    """Return the human report of a position: round, tokens, units, contacts, decision."""
    battle = game.battle
    lines = [f"round {state.round}" + (f", won by player {state.winner}" if state.winner else "")]
    for army in battle.armies:
        p = army.player
        lines.append(
            f"player {p} ({army.name}, {army.points} points): {_count(state.pool[p], 'token')} unspent, "
            f"destroyed {state.destroyed[p]} points of the enemy"
        )
        if state.winner is None:
            lines.append(f"  {to_win_words(game, state, p)}")
        for spec in army.units:
            unit = state.units[spec.id]
            if not unit.alive:
                lines.append(f"  {unit.id}: destroyed")
                continue
            where = f"{unit.zone} ({zone_words(unit.zone, p)})" if unit.zone else "not deployed"
            troops = ", ".join(
                t.id + (f" [{t.wounds} wound]" if t.wounds else "") for t in unit.troops
            )
            lines.append(
                f"  {unit.id} at {where}: {_count(len(unit.troops), 'troop')} ({troops}), "
                f"{_count(unit.orders, 'order token')}"
            )
    for c in state.contacts:
        lines.append(f"contact: {c.first} with {c.second}")
    if state.last_play:
        lines.append(f"last play: {state.last_play}")
    decision = game.decision(state)
    if decision.kind != "over":
        extra = (
            f" ({decision.dice} {'die' if decision.dice == 1 else 'dice'})"
            if decision.kind == "roll"
            else ""
        )
        hits = hits_words(state) if decision.kind == "hits" else ""
        extra += f": {hits}" if hits else ""
        lines.append(f"to decide: player {decision.player}, {decision.kind}{extra}")
    return "\n".join(lines)


def play_log(
    game: PocketBattles,
    start: PocketState,
    policies: dict[str, Policy[PocketState, Play]],
    seed: int,
) -> list[str]:
    """Return the plays of the first battle a simulation with `seed` plays (as ``simulate`` does)."""
    game_seed = derive_seed(seed, 0)
    state = _reseeded(start, game_seed)
    rng = Rng(game_seed ^ _SIMULATION_SALT)
    texts: list[str] = []
    while game.outcome(state) is None:
        side = game.side_to_play(state) or ""
        play = policies[side](game, state, game.legal_plays(state), rng)
        texts.append(game.play_text(play))
        game.push(state, play)
    return texts


def _reseeded(state: PocketState, seed: int) -> PocketState:
    twin = state.copy()
    twin.rng = Rng(seed)
    return twin


def simulation_json(result: Any, policies: dict[str, str]) -> dict[str, Any]:
    """Return the JSON of a ``play`` run: games, wins, rates with intervals, rounds."""
    rates = {}
    for side in ("1", "2"):
        low, high = result.interval(side)
        rates[side] = {
            "wins": result.wins.get(side, 0),
            "rate": result.rate(side),
            "low": low,
            "high": high,
        }
    lengths = result.lengths
    return {
        "games": result.games,
        "seed": result.seed,
        "policies": policies,
        "players": rates,
        "rounds": {
            "mean": lengths.mean,
            "median": lengths.median,
            "shortest": lengths.shortest,
            "longest": lengths.longest,
        },
    }


def _progress_bar(stream: TextIO) -> Callable[[int, int], None]:
    def show(done: int, total: int) -> None:
        if done == total or done % max(1, total // 100) == 0:
            filled = 30 * done // total
            stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} battles")
            if done == total:
                stream.write("\n")
            stream.flush()

    return show


def play_outcomes(
    game: PocketBattles, start: PocketState, policies: dict[str, str], seed: int, indices: range
) -> list[Outcome]:
    """Return the outcomes of battles `indices` of ``play`` (policies by name): one slice.

    A module-level function of plain, picklable arguments, so that a worker process or
    a Dask worker runs it; battle ``i`` is the same battle in any slice.
    """
    chosen = {side: POLICIES[name] for side, name in policies.items()}
    return play_games(game, lambda s: _reseeded(start, s), chosen, seed=seed, indices=indices)


def _simulate(
    args: argparse.Namespace,
    game: PocketBattles,
    start: PocketState,
    names: dict[str, str],
    progress: Callable[[int, int], None] | None,
) -> SimulationResult:
    """Simulate here, or in slices on ``--jobs`` processes or a cluster: the same result."""
    policies = {side: POLICIES[name] for side, name in names.items()}
    with open_runner(args.jobs, args.scheduler) as runner:
        if runner.in_process:
            return simulate(
                game,
                lambda s: _reseeded(start, s),
                policies,
                games=args.games,
                seed=args.seed,
                progress=progress,
            )
        outcomes: list[Outcome] = []
        calls = [
            (game, start, names, args.seed, part) for part in slices(args.games, runner.workers)
        ]
        for part in in_order(runner, play_outcomes, calls):
            outcomes.extend(part)
            if progress is not None:
                progress(len(outcomes), args.games)
    # The policies' names as simulate gives them (the command prints its own names).
    functions = {side: getattr(p, "__name__", repr(p)) for side, p in policies.items()}
    return summarise(outcomes, policies, args.seed, functions)


def _play(
    args: argparse.Namespace, file: BattleFile, out: TextIO, update: FileUpdate | None
) -> int:
    # The log is published after the report is written (report_then_publish): a report
    # that cannot be written leaves no log.
    if not 1 <= args.games <= MAX_GAMES:
        raise InvalidInputError(f"--games {args.games}: expected 1 to {MAX_GAMES}")
    if args.output is not None:  # a path no log can have is refused before any battle
        output_target(args.output, inputs=[file.path], force=args.force)
    game, start = replay_battle(file)
    names = {"1": args.policy, "2": args.policy2 or args.policy}
    policies = {side: POLICIES[name] for side, name in names.items()}
    show = None
    if args.progress or (args.games >= 200 and sys.stderr.isatty()):
        show = _progress_bar(sys.stderr)
    result = _simulate(args, game, start, names, show)
    if args.output:
        log = [*file.plays, *play_log(game, start, policies, args.seed)]
        suffix = Path(args.output).suffix.lower()
        if suffix not in (".toml", ".json"):
            raise InvalidInputError("the log must end in .toml or .json", where=args.output)
        data = battle_data(file.battle, log)
        text = file_text(data, args.output, kind="battle", error=BattleFileError)
        # Read back as a battle file is read: the command never writes one it would refuse.
        parse_battle(parse_text(text, args.output, "battle", BattleFileError), args.output)
        assert update is not None
        update.stage(text, inputs=[file.path], force=args.force, refuse_read_only=False)
    data = simulation_json(result, names)
    if args.json:
        emit_json(data, out)
        return EXIT_OK
    out.write(
        f"{file.path}: {result.games} battles, seed {result.seed}, player 1 {names['1']}, player 2 {names['2']}\n"
    )
    for side in ("1", "2"):
        p = data["players"][side]
        out.write(
            f"  player {side} ({file.battle.army(int(side)).name}): won {p['wins']} "
            f"({p['rate']:.1%}, 95 % interval {p['low']:.1%}-{p['high']:.1%})\n"
        )
    r = data["rounds"]
    out.write(
        f"  rounds per battle: mean {r['mean']:.2f}, median {r['median']:g}, {r['shortest']}-{r['longest']}\n"
    )
    if args.output:
        out.write(f"  wrote the first battle's log to {args.output}\n")
    return EXIT_OK


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the command."""
    if args.action in ("push", "pop"):
        from tabletop.app.pocket.table import push_or_pop

        return push_or_pop(args, out)
    file = load_battle(args.file)
    if args.action == "check":
        read_plays(file)
        report = check_battle(file.battle)
        if args.json:
            emit_json(report.to_json(), out)
        else:
            verdict = "legal" if report.legal else f"ILLEGAL: {len(report.violations)} violation(s)"
            names = " vs ".join(f"{a.name} ({a.points} points)" for a in file.battle.armies)
            out.write(f"{file.path}: {file.battle.size}-point battle, {names}: {verdict}\n")
            for number, v in enumerate(report.violations, 1):
                who = (
                    f"unit {v.unit}" if v.unit else (f"player {v.player}" if v.player else "battle")
                )
                out.write(f"  {number}. {v.rule} ({who}): {v.message}\n")
            for warning in report.warnings:
                out.write(f"  warning: {warning}\n")
        return EXIT_OK if report.legal else EXIT_VIOLATIONS
    refuse_illegal(file)
    if args.action == "play":
        return report_then_publish(
            args.output, out, lambda update, report: _play(args, file, report, update)
        )
    game, state = replay_battle(file)
    if args.action == "actions":
        decision = game.decision(state)
        if args.json:
            emit_json(decision.to_json(), out)
        elif decision.kind == "over":
            out.write(f"{file.path}: the battle is over, won by player {state.winner}\n")
        else:
            extra = (
                f", {decision.dice} {'die' if decision.dice == 1 else 'dice'} due"
                if decision.kind == "roll"
                else ""
            )
            out.write(
                f"{file.path}: round {state.round}, player {decision.player} decides: {decision.kind}{extra}"
                f" ({_count(state.pool[decision.player or 0], 'token')} unspent)\n"
            )
            for play, cost in decision.plays:
                where = getattr(play, "zone", None) or getattr(play, "arg", None)
                words = f"  ({zone_words(where, decision.player or 1)})" if where in ZONES else ""
                out.write(f"  {game.play_text(play):<34} cost {cost}{words}\n")
        return EXIT_OK
    if args.action == "replay":
        if args.json:
            emit_json(replay_json(game, state), out)
        else:
            out.write(
                f"{file.path}: {_count(len(file.plays), 'play')} replayed\n{state_text(game, state)}\n"
            )
        return EXIT_OK
    # render
    if not args.output:
        raise InvalidInputError(f"render needs -o {PICTURE_OUTPUTS}")
    fmt = picture_output(args.output, inputs=[file.path], force=args.force, input_kind="battle")
    from tabletop.plots.pocket import render_battle

    picture = render_battle(game, state, fmt)

    def publish(update: FileUpdate | None, report: TextIO) -> int:
        # The picture gets its name after the report is written: a report that cannot
        # be written leaves no picture.
        assert update is not None
        update.stage(picture, inputs=[file.path], force=args.force, refuse_read_only=False)
        if args.json:
            data = {"output": args.output, "format": fmt, "round": state.round}
            emit_json(data, report)
        else:
            report.write(f"wrote {args.output}\n")
        return EXIT_OK

    return report_then_publish(args.output, out, publish)
