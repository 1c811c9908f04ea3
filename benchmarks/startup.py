"""numba start-up: the first batch call of a new process (``python -m benchmarks.startup``).

Cold: a process whose numba cache is an empty temporary directory (``NUMBA_CACHE_DIR``),
so the kernel compiles. Warm: the next processes on the same cache, which load the
machine code. Each child times ``import numba`` and the first ``geom.batch.distance_band``
call apart; the figures are medians over the warm processes.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import json, time
t0 = time.perf_counter()
import numpy as np
from geom import batch
t1 = time.perf_counter()
import numba
t2 = time.perf_counter()
a = np.zeros((4, 3))
batch.distance_band(a, "small", a, "large")
t3 = time.perf_counter()
print(json.dumps({"geom": t1 - t0, "numba": t2 - t1, "first_call": t3 - t2}))
"""

#: The target for a warm first batch call, seconds.
WARM_TARGET_S = 0.2


def child(cache: str) -> dict[str, float]:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    env.pop("TABLETOP_NO_NUMBA", None)
    done = subprocess.run(
        [sys.executable, "-c", CHILD], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def report(warm_runs: int = 3) -> str:
    with tempfile.TemporaryDirectory(prefix="tabletop-numba-") as cache:
        cold = child(cache)
        warm = [child(cache) for _ in range(warm_runs)]
    numba_import = statistics.median(w["numba"] for w in warm)
    first = statistics.median(w["first_call"] for w in warm)
    met = "yes" if first <= WARM_TARGET_S else "NO"
    return (
        f"numba start-up, first distance_band call of a new process: cold (empty cache) "
        f"{cold['first_call']:.2f} s compiling, after import numba {cold['numba']:.2f} s; "
        f"warm (cached, median of {warm_runs}) {first:.2f} s loading, after import numba "
        f"{numba_import:.2f} s (target first call <= {WARM_TARGET_S} s: {met})"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.startup", description=__doc__)
    parser.parse_args(argv)
    print(report())
    return 0


if __name__ == "__main__":
    sys.exit(main())
