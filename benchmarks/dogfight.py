"""Dogfight speed: perft nodes per second and complete random games per second.

Run ``python -m benchmarks.dogfight [--quick]``. Each figure is measured twice in the
same run: with the engine's bitboard generator, and with a plain generator that loops
over the 64 squares and walks each line square by square (the move and fire phases;
both share the engine's code for the vector and defend phases and for executing plays).
The plain generator's perft counts are checked to equal the engine's. The target is
10,000 random games in under a minute on one core, judged on the process's CPU time (on
a shared machine the wall time also counts the other processes' turns).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence

from tabletop.boards import Rng, random_policy
from tabletop.boards.dogfight import Dogfight, Fire, Move, Play, Position
from tabletop.boards.dogfight.movegen import PASS, TACTICS, advance_result, generate
from tabletop.boards.dogfight.plays import Advance
from tabletop.boards.dogfight.policies import TrustedDogfight, simulate_dogfight
from tabletop.boards.dogfight.position import FIRE, MOVE

LINES = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def plain_generate(game: Dogfight, position: Position) -> list[Play]:
    """Return the legal plays, by nested loops over squares, cards, lines and steps."""
    if position.phase not in (MOVE, FIRE):
        return generate(game.tables, position)
    tables = game.tables
    side = position.to_play
    hand = position.hands[side]
    board = position.board
    out: list[Play] = []

    def holder(sq: int) -> int:
        if position.occupied[0] >> sq & 1:
            return 0
        if position.occupied[1] >> sq & 1:
            return 1
        return -1

    wanted = tables.move_cards if position.phase == MOVE else tables.attack_cards
    cards = [c for c in wanted if hand[c]]
    for sq in range(64):
        if holder(sq) != side:
            continue
        f, r = sq % 8, sq // 8
        for c in cards:
            if not tables.playable[c][board[sq]]:
                continue
            if tables.knight[c]:
                for df, dr in JUMPS:
                    g, s = f + df, r + dr
                    if 0 <= g < 8 and 0 <= s < 8:
                        to = s * 8 + g
                        who = holder(to)
                        if position.phase == MOVE and who < 0:
                            out.append(Move(sq, to, tables.names[c]))
                        if position.phase == FIRE and who == 1 - side:
                            out.append(Fire(sq, to, tables.names[c]))
                continue
            for df, dr in LINES:
                for k in range(1, tables.values[c] + 1):
                    g, s = f + k * df, r + k * dr
                    if not (0 <= g < 8 and 0 <= s < 8):
                        break
                    to = s * 8 + g
                    who = holder(to)
                    if position.phase == MOVE:
                        if who >= 0:
                            break
                        out.append(Move(sq, to, tables.names[c]))
                    elif who >= 0:
                        if who != side:
                            out.append(Fire(sq, to, tables.names[c]))
                        break
    if position.phase == MOVE:
        for c in cards:
            if c in tables.advance_cards and advance_result(tables, position, c):
                out.append(Advance(tables.names[c]))
    if any(hand[c] for c in tables.draw_cards):
        out.append(TACTICS)
    out.append(PASS)
    return out


def perft(
    game: Dogfight, gen: Callable[[Dogfight, Position], list[Play]], pos: Position, depth: int
) -> int:
    plays = gen(game, pos)
    if depth == 1:
        return len(plays)
    total = 0
    for play in plays:
        child = pos.copy()
        game.push_unchecked(child, play)
        total += perft(game, gen, child, depth - 1)
    return total


class PlainDogfight(TrustedDogfight):
    """The engine with the plain generator in place of the bitboard one."""

    def generate(self, state: Position) -> list[Play]:
        return plain_generate(self, state)


def random_games(game: TrustedDogfight, games: int, seed: int) -> float:
    """Play `games` random games as ``tabletop dogfight play`` does; return the mean length."""
    policies = {"rebels": random_policy, "empire": random_policy}
    result, _ = simulate_dogfight(game, policies, games=games, seed=seed)
    return result.lengths.mean


def bitboard(game: Dogfight, position: Position) -> list[Play]:
    return generate(game.tables, position)


def positions(game: Dogfight) -> Sequence[tuple[str, Position]]:
    """Return the standard start and a busy mid-game position met in a random game."""
    start = game.standard(11)
    busy = game.standard(5)
    rng = Rng(5)
    for _ in range(60):
        game.push_unchecked(busy, rng.choice(game.legal_plays(busy)))
    return [("standard setup", start), ("mid-game (ply 60)", busy)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.dogfight", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="10x fewer games (a smoke run)")
    args = parser.parse_args(argv)
    game = TrustedDogfight()
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"Dogfight: python {sys.version.split()[0]}; load average {load}")
    print(f"{'workload':<34} {'bitboards':>16} {'plain loops':>16} {'ratio':>7}")
    for name, position in positions(game):
        depth = 4 if name.startswith("standard") else 3
        start = time.perf_counter()
        nodes = perft(game, bitboard, position, depth)
        fast = time.perf_counter() - start
        start = time.perf_counter()
        plain_nodes = perft(game, plain_generate, position, depth)
        slow = time.perf_counter() - start
        assert nodes == plain_nodes, f"{name}: perft {nodes} != plain {plain_nodes}"
        label = f"perft {depth}, {name}: {nodes:,}"
        print(
            f"{label:<34} {nodes / fast:>10,.0f} n/s {nodes / slow:>10,.0f} n/s "
            f"{slow / fast:>6.1f}x"
        )
    games = 1_000 if args.quick else 10_000
    plain_games = games // 10
    start, cpu = time.perf_counter(), time.process_time()
    turns = random_games(game, games, 1)
    fast, fast_cpu = time.perf_counter() - start, time.process_time() - cpu
    start = time.perf_counter()
    random_games(PlainDogfight(), plain_games, 1)
    slow = time.perf_counter() - start
    label = f"random games ({games:,} / {plain_games:,})"
    print(
        f"{label:<34} {games / fast:>10,.0f} g/s {plain_games / slow:>10,.0f} g/s "
        f"{(slow / plain_games) / (fast / games):>6.1f}x"
    )
    per_10k = fast_cpu / games * 10_000
    print(
        f"{games:,} random games: {fast:.1f} s wall, {fast_cpu:.1f} s CPU (one core), "
        f"{turns:.1f} turns a game; 10,000 games in {per_10k:.1f} s of CPU "
        f"(target < 60 s on one core: {'yes' if per_10k < 60 else 'NO'})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
