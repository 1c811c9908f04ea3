"""Bulk jobs: throughput of play, setup --count and query on 1, 2 and 4 workers.

Run ``python -m benchmarks.bulk [--quick] [--rounds N]``. Each command runs in this
process (the "1 (here)" row), with ``--jobs 2`` and ``--jobs 4`` (local processes,
started by the command and counted in its time), and with ``--scheduler`` on a dask
``LocalCluster`` of 1, 2 and 4 worker processes of one thread each (started once before
the rounds; the client's connection is counted). Paired rounds: each round runs every
configuration once, in an order rotated each round; "vs here" is the median of the
rounds' ratios to the one-process run of the same round, lowest and highest beside it,
and items/s is the median round's wall time. The CPU time of each run is counted too
(this process, the ``--jobs`` processes, the cluster's workers): on a machine whose
cores are busy with other work, it is the cost of sharing out that the load does not
blur. Every run's output is compared with the
one-process run's, byte for byte (for setup, the files written). The machine's cores
and its load average before and after are printed: workers beyond the free cores cannot
add throughput.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import statistics
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from tabletop.app.cli import main

ROOT = Path(__file__).resolve().parent.parent
BATTLE = str(ROOT / "examples" / "pocket" / "battle-60.toml")


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text(encoding="ascii").split()[:3])
    except OSError:
        return "(no /proc/loadavg)"


def query_input(count: int) -> bytes:
    """`count` measure requests with an arc, each on a new table (a ship moved 0.01 mm more).

    A new scene on every line is the oracle's heavy case: each is parsed and built anew.
    """
    import json

    scene = tomllib.loads((ROOT / "examples" / "xwing-dogfight.toml").read_text("utf-8"))
    ids = [s["id"] for s in scene["ships"]]
    x0 = scene["ships"][0]["at"][0]
    lines = []
    for n in range(count):
        scene["ships"][0]["at"][0] = round(x0 + 0.01 * (n % 500), 2)
        a, b = ids[n % len(ids)], ids[(n + 1) % len(ids)]
        request = {"op": "measure", "scene": scene, "from": a, "to": b, "arc": "front"}
        lines.append(json.dumps(request))
    return ("\n".join(lines) + "\n").encode("utf-8")


def cpu_seconds() -> float:
    """CPU time of this process, its ended children and its live descendants, in seconds.

    The ``--jobs`` processes are counted once they end (the pool waits for them), the
    local clusters' workers while they live (psutil, which dask.distributed brings).
    """
    ended = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = time.process_time() + ended.ru_utime + ended.ru_stime
    try:
        import psutil
    except ImportError:
        return total
    for process in psutil.Process().children(recursive=True):
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


def run_cli(argv: list[str], stdin: bytes | None = None) -> tuple[float, float, str]:
    """Run the command line here; return (wall seconds, CPU seconds, what it printed)."""
    out = io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        cpu = cpu_seconds()
        started = time.perf_counter()
        code = main(argv, out=out, err=io.StringIO())
        wall = time.perf_counter() - started
        cpu = cpu_seconds() - cpu
    finally:
        sys.stdin = saved
    if code != 0:
        raise SystemExit(f"{' '.join(argv)}: exit {code}: {out.getvalue()[:300]}")
    return wall, cpu, out.getvalue()


class Workload:
    """One command: its arguments, its items, and how to read its result for comparing."""

    def __init__(
        self, name: str, items: int, argv: Callable[[str], list[str]], stdin: bytes | None = None
    ) -> None:
        self.name, self.items, self.argv, self.stdin = name, items, argv, stdin

    def once(self, options: list[str], folder: str) -> tuple[float, float, str]:
        wall, cpu, printed = run_cli([*self.argv(folder), *options], self.stdin)
        if self.name.startswith("setup"):
            # The files written, in table order, stand for the result (the names differ).
            files = sorted(Path(folder).iterdir())
            printed = "".join(p.read_text("utf-8") for p in files)
            for p in files:
                p.unlink()
        return wall, cpu, printed


def workloads(quick: bool) -> list[Workload]:
    scale = 1 if quick else 4
    games, battles, tables, requests = 300 * scale, 250 * scale, 150 * scale, 750 * scale
    return [
        Workload(
            f"dogfight play --games {games}",
            games,
            lambda _: ["dogfight", "play", "--games", str(games), "--seed", "1", "--json"],
        ),
        Workload(
            f"pocket play --games {battles}",
            battles,
            lambda _: ["pocket", "play", BATTLE, "--games", str(battles), "--seed", "1", "--json"],
        ),
        Workload(
            f"setup --count {tables}",
            tables,
            lambda folder: [
                "setup",
                "--ruleset",
                "xwing2",
                "--seed",
                "1",
                "--count",
                str(tables),
                "-o",
                f"{folder}/t.toml",
                "--json",
            ],
        ),
        Workload(
            f"query, {requests} measures with an arc",
            requests,
            lambda _: ["query"],
            stdin=query_input(requests),
        ),
    ]


@contextmanager
def local_clusters(sizes: tuple[int, ...]) -> Iterator[dict[int, str]]:
    """Dask LocalClusters of `sizes` worker processes, one thread each: their addresses."""
    import logging

    from dask.distributed import LocalCluster

    with ExitStack() as stack:
        addresses = {}
        for workers in sizes:
            cluster = stack.enter_context(
                LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address="127.0.0.1:0",
                    silence_logs=logging.CRITICAL,  # the workers' farewells at shutdown
                )
            )
            addresses[workers] = str(cluster.scheduler_address)
        yield addresses


def configurations(addresses: dict[int, str]) -> list[tuple[str, list[str]]]:
    configs: list[tuple[str, list[str]]] = [("1 (here)", [])]
    configs += [(f"--jobs {jobs}", ["--jobs", str(jobs)]) for jobs in (2, 4)]
    configs += [(f"LocalCluster {n}", ["--scheduler", a]) for n, a in addresses.items()]
    return configs


def main_bench(quick: bool, rounds: int) -> None:
    print("# Bulk jobs: items a second of wall time, paired rounds, same output checked")
    print(f"cores: {os.cpu_count()}; load average before: {loadavg()}")
    try:
        import dask.distributed  # noqa: F401

        sizes: tuple[int, ...] = (1, 2, 4)
    except ImportError:
        sizes = ()
        print("dask.distributed is not installed: the LocalCluster rows are skipped")
    works = workloads(quick)
    walls: dict[tuple[str, str], list[float]] = {}
    cpus: dict[tuple[str, str], list[float]] = {}
    with local_clusters(sizes) as addresses, tempfile.TemporaryDirectory() as folder:
        configs = configurations(addresses)
        expected = {work.name: work.once([], folder)[2] for work in works}  # and warm-up
        for turn in range(rounds):
            # Each round runs every configuration once, in an order rotated each round,
            # so that a change in the machine's load falls on all of them alike.
            order = configs[turn % len(configs) :] + configs[: turn % len(configs)]
            for work in works:
                for where, options in order:
                    wall, cpu, printed = work.once(options, folder)
                    if printed != expected[work.name]:
                        raise SystemExit(f"{work.name} {where}: a different output")
                    walls.setdefault((work.name, where), []).append(wall)
                    cpus.setdefault((work.name, where), []).append(cpu)
    print(
        f"{'command':<34} {'workers':<16} {'items/s':>8} {'vs here':>8}  {'rounds':>13}"
        f"  {'CPU ms/item':>11} {'CPU vs here':>11}"
    )
    for work in works:
        here, here_cpu = walls[(work.name, "1 (here)")], cpus[(work.name, "1 (here)")]
        for where, _ in configs:
            mine, mine_cpu = walls[(work.name, where)], cpus[(work.name, where)]
            ratios = sorted(h / m for h, m in zip(here, mine, strict=True))
            cpu_ratio = statistics.median(m / h for h, m in zip(here_cpu, mine_cpu, strict=True))
            rate = work.items / statistics.median(mine)
            print(
                f"{work.name:<34} {where:<16} {rate:>8.0f} {statistics.median(ratios):>7.2f}x"
                f"  {ratios[0]:.2f}x-{ratios[-1]:.2f}x"
                f"  {1000 * statistics.median(mine_cpu) / work.items:>11.2f}"
                f" {cpu_ratio:>10.2f}x"
            )
    print(f"load average after: {loadavg()}")


def cli(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--quick", action="store_true", help="a quarter of the items")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per figure (default 3)")
    args = parser.parse_args(argv)
    main_bench(args.quick, args.rounds)


if __name__ == "__main__":
    cli()
