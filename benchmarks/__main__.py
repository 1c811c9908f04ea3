"""Run the batch, start-up and query benchmarks and print their figures (``python -m benchmarks [--quick]``).

The batch figures are :mod:`benchmarks.workloads`, timed by :mod:`benchmarks.paired`
(alternating rounds against the strongest baseline, one thread on both sides, answers
compared); numba's cold and warm start-up is :mod:`benchmarks.startup`; the query
oracle's throughput is :mod:`benchmarks.query`. Each also runs alone as
``python -m benchmarks.NAME``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import numpy as np
import shapely

from tabletop.geom import batch

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = "examples/xwing-tournament.toml"


def wall_times(command: Sequence[str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, cwd=ROOT, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return times


def machine() -> str:
    model = "unknown"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    import numba

    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    return (
        f"machine: {cores} cores (nproc), {model}; load average {load}\n"
        f"python {platform.python_version()}, numpy {np.__version__}, shapely {shapely.__version__}, "
        f"numba {numba.__version__} ({numba.get_num_threads()} threads, "
        f"{cast(Any, numba).threading_layer()} layer), path {batch.backend()}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="10x smaller sizes (a smoke run)")
    args = parser.parse_args(argv)
    from benchmarks import query, startup, workloads
    from benchmarks.paired import numba_threads

    started = time.perf_counter()
    tiny = np.zeros((4, 3))
    batch.distance_band(tiny, "small", tiny, "large")  # the default path's kernels load here
    numba_threads(None)  # numba's thread pool starts here, on the project's threading layer
    print(machine())
    print(startup.report(2 if args.quick else 3))
    print()
    print(workloads.report(quick=args.quick))
    print()
    runs = 3 if args.quick else 7
    bin_dir = Path(sys.executable).parent
    script = bin_dir / "tabletop"
    check = [str(script)] if script.exists() else [sys.executable, "-m", "tabletop"]
    check = [*check, "check", EXAMPLE]
    bare = [sys.executable, "-c", "import numpy, shapely"]
    check_times, bare_times = [], []
    for _ in range(runs):  # alternating, paired
        check_times += wall_times(check, 1)
        bare_times += wall_times(bare, 1)
    check_median, bare_median = statistics.median(check_times), statistics.median(bare_times)
    ratio = check_median / bare_median
    print(
        f"tabletop check {EXAMPLE}: median {check_median * 1e3:.0f} ms of {runs} runs; "
        f"python -c 'import numpy, shapely': median {bare_median * 1e3:.0f} ms; "
        f"ratio {ratio:.2f}x (target <= 1.5x: {'yes' if ratio <= 1.5 else 'NO'})"
    )
    print(query.report(100 if args.quick else 1000))
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"load average at the end: {load}; whole benchmark {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
