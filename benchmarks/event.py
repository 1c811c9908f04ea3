"""Organized play: pairing, standings and the audit at scale, beside a plain greedy pairer.

``python -m benchmarks.event [--quick]``. Each event is simulated (seeded random
results) up to the round before the one timed. The plain pairer is the usual greedy one:
from the top, each player meets the highest-ranked unpaired player below whom they have
not met (the lowest when they have met all), with no look-ahead; the bye goes to the
lowest-ranked player without one. It is timed on the same state, and its rematches are
counted beside the project's.

The rematch figure: over many small simulated events (4 to 64 players, odd and even,
drops), every Swiss round is re-paired by both pairers from the same state, and each
pairing's rematches are compared with the fewest possible (a maximum matching on the
non-rematch graph, with the bye node when the field is odd).
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import rustworkx

from tabletop.app.event.eventfile import event_text
from tabletop.tournament import (
    Event,
    SwissState,
    audit,
    pair_next,
    pair_swiss,
    simulate_event,
    standings,
    swiss_state,
)

#: Each game's format that takes any number of Swiss rounds, as simulations need.
OPEN_FORMAT: dict[str, dict[str, Any]] = {
    "armada": {"tier": "informal"},
    "destiny": {"structure": "custom"},
}


def seconds(run: Callable[[], Any], repeat: int = 1) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def greedy(state: SwissState) -> tuple[list[tuple[str, str]], str | None]:
    """Pair by the plain rule: 1 v 2, 3 v 4, ..., the next one down on a rematch."""
    left = [p for p in state.ranked if p in state.active]
    bye = None
    if len(left) % 2:
        bye = next((p for p in reversed(left) if p not in state.had_bye), left[-1])
        left.remove(bye)
    pairs = []
    while left:
        a = left.pop(0)
        b = next((x for x in left if frozenset((a, x)) not in state.met), left[0])
        left.remove(b)
        pairs.append((a, b))
    return pairs, bye


def fewest_rematches(players: list[str], met: set[frozenset[str]]) -> int:
    """Rematches no pairing of `players` avoids (the bye node joins an odd field)."""
    graph = rustworkx.PyGraph()
    nodes = list(players) + (["<bye>"] if len(players) % 2 else [])
    graph.add_nodes_from(nodes)
    for i, a in enumerate(nodes):
        for j in range(i + 1, len(nodes)):
            b = nodes[j]
            if "<bye>" in (a, b) or frozenset((a, b)) not in met:
                graph.add_edge(i, j, 1)
    matched = len(rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w))
    return len(nodes) // 2 - matched


def row(name: str, ours: float, plain: float | None, target: float | None, note: str = "") -> None:
    plain_text = f"{plain:8.3f} s" if plain is not None else "         -"
    target_text = f"< {target:g} s" if target is not None else ""
    verdict = "" if target is None else ("ok" if ours < target else "SLOW")
    print(f"{name:<46} {ours:8.3f} s  {plain_text}  {target_text:<8} {verdict:<4} {note}")


def big_event(game: str, players: int, rounds: int, **options: Any) -> Event:
    return simulate_event(game, players, 20260601, rounds=rounds, drop_rate=0.01, **options)


def check_command_cpu(players: int) -> float:
    """Return the CPU seconds of ``tabletop event check`` on a simulated `players` event file."""
    event = big_event("armada", players, 5, tier="premier")
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "big.toml")
        with open(path, "w", encoding="utf-8") as out:
            out.write(event_text(event, path))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        command = [sys.executable, "-m", "tabletop", "event", "check", path]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.event", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    args = parser.parse_args(argv)
    scale = 8 if args.quick else 1
    print(f"{'tabletop event':<46} {'ours':>10}  {'greedy':>10}  target")
    cases: list[tuple[str, int, int, dict[str, Any], float, str]] = [
        ("destiny", 565, 8, {"structure": "advanced"}, 2.0, "advanced Destiny, round 9"),
        ("armada", 565, 4, {"tier": "premier"}, 2.0, "Armada, round 5"),
        ("destiny", 2048, 8, {"structure": "advanced"}, 10.0, "advanced Destiny, round 9"),
        ("armada", 2048, 4, {"tier": "premier"}, 10.0, "Armada, round 5"),
    ]
    for game, players, rounds, options, target, label in cases:
        n = max(16, players // scale)
        event = big_event(game, n, rounds, **options)
        state = swiss_state(event)
        pairing = pair_swiss(event, state=state)
        ours_seconds = seconds(functools.partial(pair_next, event))
        plain_seconds = seconds(functools.partial(greedy, state))
        pairs, _ = greedy(state)
        greedy_rematches = sum(frozenset(p) in state.met for p in pairs)
        row(
            f"pair {n} players, {label}",
            ours_seconds,
            plain_seconds,
            target,
            f"rematches: ours {sum(p.rematch for p in pairing.pairs)}, greedy {greedy_rematches}",
        )
        played = f"{n} players, {len(event.rounds)} rounds"
        row(f"standings {played}", seconds(functools.partial(standings, event), 2), None, 1.0)
        findings = len(audit(event).findings)
        row(
            f"check {played}",
            seconds(functools.partial(audit, event)),
            None,
            1.0,
            f"findings {findings}",
        )
    field = 10_000 // scale
    note = "CPU of the whole command: reading the file and the audit of 5 rounds"
    row(f"tabletop event check, {field} players", check_command_cpu(field), None, 5.0, note)
    count = 10_000 // (10 * scale if args.quick else 1)
    rng = random.Random(7)
    ours_avoidable = greedy_avoidable = rounds_seen = 0
    simulate_time = greedy_time = 0.0
    start = time.perf_counter()
    for seed in range(count):
        game = "armada" if seed % 2 else "destiny"
        n = rng.choice([4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17, 24, 32, 33, 48, 64])
        extra: dict[str, Any] = OPEN_FORMAT[game]
        t0 = time.perf_counter()
        event = simulate_event(
            game,
            n,
            seed,
            drop_rate=rng.choice([0.0, 0.05, 0.15]),
            swiss_rounds=min(n - 1, rng.choice([3, 4, 5, 6])),
            **extra,
        )
        simulate_time += time.perf_counter() - t0
        for number in range(2, sum(r.kind == "swiss" for r in event.rounds) + 1):
            prefix = event.with_rounds(event.rounds[: number - 1])
            state = swiss_state(prefix, number)
            pool = [p for p in state.ranked if p in state.active]
            least = fewest_rematches(pool, set(state.met))
            recorded = event.rounds[number - 1]  # as tabletop event pair paired it
            t1 = time.perf_counter()
            plain, _ = greedy(state)
            greedy_time += time.perf_counter() - t1
            ours_avoidable += (
                sum(frozenset(m.players) in state.met for m in recorded.matches) - least
            )
            greedy_avoidable += sum(frozenset(p) in state.met for p in plain) - least
            rounds_seen += 1
    elapsed = time.perf_counter() - start
    print(
        f"avoidable rematches over {count} simulated events ({rounds_seen} rounds after round 1): "
        f"ours {ours_avoidable} (must be 0), greedy {greedy_avoidable}; "
        f"simulating and pairing {simulate_time:.0f} s, greedy pairing {greedy_time:.2f} s; "
        f"run {elapsed:.0f} s"
    )
    return 1 if ours_avoidable else 0


if __name__ == "__main__":
    raise SystemExit(main())
