"""Pocket Battles: complete random battles per second (``python -m benchmarks.pocket``).

Two 80-point armies (the invented example armies at 80 points, deployed), both players
on the uniform random policy, every play chosen from the legal plays the engine lists and
pushed through the checked ``push``. The goal is 10,000 battles in under a minute on one
core. Beside it, measured in the same run: the same battles replayed from their logs
(each play parsed from its text and checked again), the path ``tabletop pocket replay``
takes.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence

from tabletop.boards import Rng, derive_seed, random_policy, replay, simulate
from tabletop.boards.pocket import PocketBattles, PocketState, example_battle

GOAL_BATTLES, GOAL_SECONDS = 10_000, 60.0


def logs(game: PocketBattles, battles: int, seed: int) -> list[list[str]]:
    """Return the play texts of `battles` random battles (as ``simulate`` plays them)."""
    out = []
    for index in range(battles):
        game_seed = derive_seed(seed, index)
        state = game.start(game_seed)
        rng = Rng(game_seed ^ 0x5DEECE66D)
        texts = []
        while game.outcome(state) is None:
            play = random_policy(game, state, game.legal_plays(state), rng)
            texts.append(game.play_text(play))
            game.push(state, play)
        out.append(texts)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.pocket", description=__doc__)
    parser.add_argument("--battles", type=int, default=GOAL_BATTLES, help="battles to simulate")
    parser.add_argument("--quick", action="store_true", help="1,000 battles (a smoke run)")
    args = parser.parse_args(argv)
    battles = 1_000 if args.quick else args.battles
    game = PocketBattles(example_battle(size=80))

    def start(seed: int) -> PocketState:
        return game.start(seed)

    begin, begin_cpu = time.perf_counter(), time.process_time()
    result = simulate(game, start, {"1": random_policy, "2": random_policy}, games=battles, seed=1)
    seconds, cpu = time.perf_counter() - begin, time.process_time() - begin_cpu
    # The goal is for one core: judged on this process's CPU time, which a machine shared
    # with other work does not inflate as it does the wall time.
    rate = battles / cpu
    projected = GOAL_BATTLES / rate
    low, high = result.interval("1")
    print(
        f"pocket battles, 80 points, random vs random: {battles:,} battles in {cpu:.1f} s of "
        f"CPU ({seconds:.1f} s wall), {rate:,.0f} battles/s; 10,000 battles in {projected:.1f} s "
        f"of one core (goal < {GOAL_SECONDS:.0f} s: {'yes' if projected < GOAL_SECONDS else 'NO'})"
    )
    print(
        f"  rounds per battle: mean {result.lengths.mean:.2f}, {result.lengths.shortest}-"
        f"{result.lengths.longest}; player 1 won {result.rate('1'):.1%} ({low:.1%}-{high:.1%})"
    )
    sample = max(1, battles // 10)
    texts = logs(game, sample, 1)
    plays = sum(len(t) for t in texts)
    begin = time.process_time()
    for log in texts:
        replay(game, game.start(), log)
    replay_seconds = time.process_time() - begin
    print(
        f"  the first {sample:,} battles replayed from their logs (parse + checked push): "
        f"{sample / replay_seconds:,.0f} battles/s, {plays / replay_seconds:,.0f} plays/s "
        f"({plays / sample:.0f} plays per battle)"
    )
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"  times are CPU seconds of one core; load average {load}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
