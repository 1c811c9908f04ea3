"""Bulk jobs: throughput of play, setup --count and query on 1, 2 and 4 workers.

Run ``python -m benchmarks.bulk [--quick]``. Each command runs in this process (the
"1 (here)" row), with ``--jobs 2`` and ``--jobs 4`` (local processes, started by the run
and counted in its time), and with ``--scheduler`` on a dask ``LocalCluster`` of 1, 2 and
4 worker processes of one thread each (started before the timed run; the client's
connection is counted). The figure is items a second of wall time, the median of the
rounds; every run's output is compared with the one-process run's, byte for byte (for
setup, the files written). The machine's cores and its load average before and after are
printed: workers beyond the free cores cannot add throughput.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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


def run_cli(argv: list[str], stdin: bytes | None = None) -> tuple[float, str]:
    """Run the command line here; return (wall seconds, what it printed)."""
    out = io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        started = time.perf_counter()
        code = main(argv, out=out, err=io.StringIO())
        wall = time.perf_counter() - started
    finally:
        sys.stdin = saved
    if code != 0:
        raise SystemExit(f"{' '.join(argv)}: exit {code}: {out.getvalue()[:300]}")
    return wall, out.getvalue()


class Workload:
    """One command: its arguments, its items, and how to read its result for comparing."""

    def __init__(
        self, name: str, items: int, argv: Callable[[str], list[str]], stdin: bytes | None = None
    ) -> None:
        self.name, self.items, self.argv, self.stdin = name, items, argv, stdin

    def once(self, options: list[str], folder: str) -> tuple[float, str]:
        wall, printed = run_cli([*self.argv(folder), *options], self.stdin)
        if self.name.startswith("setup"):
            # The files written, in table order, stand for the result (the names differ).
            files = sorted(Path(folder).iterdir())
            printed = "".join(p.read_text("utf-8") for p in files)
            for p in files:
                p.unlink()
        return wall, printed


def workloads(quick: bool) -> list[Workload]:
    scale = 1 if quick else 5
    games, battles, tables, requests = 400 * scale, 300 * scale, 200 * scale, 1000 * scale
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
def local_cluster(workers: int) -> Iterator[str]:
    from dask.distributed import LocalCluster

    with LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        yield str(cluster.scheduler_address)


def measure(work: Workload, options: list[str], rounds: int, expected: str | None) -> float:
    walls = []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(rounds):
            wall, printed = work.once(options, folder)
            walls.append(wall)
            if expected is not None and printed != expected:
                raise SystemExit(f"{work.name} {' '.join(options)}: a different output")
    return work.items / statistics.median(walls)


def main_bench(quick: bool, rounds: int) -> None:
    print("# Bulk jobs: items a second of wall time (median of rounds), same output checked")
    print(f"cores: {os.cpu_count()}; load average before: {loadavg()}")
    try:
        import dask.distributed  # noqa: F401

        has_dask = True
    except ImportError:
        has_dask = False
        print("dask.distributed is not installed: the LocalCluster rows are skipped")
    rows: list[tuple[str, str, float, float]] = []
    expected: dict[str, str] = {}
    for work in workloads(quick):
        with tempfile.TemporaryDirectory() as folder:
            expected[work.name] = work.once([], folder)[1]
        base = measure(work, [], rounds, expected[work.name])
        rows.append((work.name, "1 (here)", base, 1.0))
        for jobs in (2, 4):
            rate = measure(work, ["--jobs", str(jobs)], rounds, expected[work.name])
            rows.append((work.name, f"--jobs {jobs}", rate, rate / base))
    if has_dask:
        for workers in (1, 2, 4):
            with local_cluster(workers) as address:
                for work in workloads(quick):
                    rate = measure(work, ["--scheduler", address], rounds, expected[work.name])
                    base = next(r[2] for r in rows if r[0] == work.name and r[1] == "1 (here)")
                    rows.append((work.name, f"LocalCluster {workers}", rate, rate / base))
    order = {name: i for i, name in enumerate(expected)}
    rows.sort(key=lambda r: order[r[0]])
    print(f"{'command':<38} {'workers':<16} {'items/s':>9} {'vs here':>8}")
    for name, where, rate, ratio in rows:
        print(f"{name:<38} {where:<16} {rate:>9.0f} {ratio:>7.2f}x")
    print(f"load average after: {loadavg()}")


def cli(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--quick", action="store_true", help="a fifth of the items")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per figure (default 3)")
    args = parser.parse_args(argv)
    main_bench(args.quick, args.rounds)


if __name__ == "__main__":
    cli()
