"""Start-up: the first batch call of a new process, on each path (``python -m benchmarks.startup``).

* Compiled ahead of time (the default path): for each batch function, new processes
  time its imports (numpy, the batch module) and its first call, and report whether
  numba was imported (it must not be). The target is 0.2 s for imports and call, judged
  on the median CPU time of the main thread (``time.thread_time``: what the process
  computed, which on an idle machine is its wall time; on a shared one the wall time
  adds the waits for a core). The wall time is beside it, fastest and median, and
  ``import numpy`` alone for comparison.
* numba's JIT (``TABLETOP_BACKEND=numba``): a process whose numba cache is an empty
  temporary directory (``NUMBA_CACHE_DIR``), so the kernel compiles (cold), then the
  next processes on that cache, which load the machine code (warm); ``import numba`` and
  the first ``distance_band`` call are timed apart.
* The packages are byte-compiled first, as a regular install does.
* The build: ``tabletop.geom.aot_build`` and ``tabletop.obstacles._aot_build`` into a temporary directory,
  in one process with an empty numba cache (what ``make`` pays on a fresh clone).

Other figures over several processes are medians.
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

#: The packages a first call may import.
PACKAGES = ("tabletop.geom", "tabletop.obstacles", "tabletop.maneuvers")

#: The target for the first batch call of a new process (imports included), seconds.
WARM_TARGET_S = 0.2

JIT_CHILD = """
import json, time
t0 = time.perf_counter()
import numpy as np
from tabletop.geom import batch
t1 = time.perf_counter()
import numba
t2 = time.perf_counter()
a = np.zeros((4, 3))
batch.distance_band(a, "small", a, "large")
t3 = time.perf_counter()
assert batch.backend() == "numba", batch.backend()
print(json.dumps({"geom": t1 - t0, "numba": t2 - t1, "first_call": t3 - t2}))
"""

#: Each batch function's imports and first call, on the default path.
FIRST_CALLS = {
    "distance_band": (
        "import numpy as np\nfrom tabletop.geom import batch",
        "batch.distance_band(np.zeros((4, 3)), 'small', np.zeros((4, 3)), 'large')",
    ),
    "in_arc": (
        "import numpy as np\nfrom tabletop.geom import batch",
        "batch.in_arc(np.zeros((4, 3)), 'small', np.ones((4, 3)), 'small', 'front')",
    ),
    "setups_legal": (
        "import numpy as np\nfrom tabletop.obstacles.batch import setups_legal",
        "setups_legal(['coreasteroid0', 'gascloud2'], "
        "np.array([[[300.0, 450.0, 0.0, 0.0], [600.0, 450.0, 0.0, 1.0]]]))",
    ),
    "obstructed": (
        "import numpy as np\nfrom tabletop.obstacles.batch import obstructed",
        "obstructed(np.zeros((4, 2)), np.full((4, 2), 900.0), ['coreasteroid0'], "
        "np.array([[457.2, 457.2, 0.0, 0.0]]))",
    ),
    "final_poses": (
        "import numpy as np\nfrom tabletop.maneuvers.batch import final_poses",
        "final_poses(np.zeros((4, 3)), 'small', 'bank 2 left')",
    ),
}

FIRST_CALL_CHILD = """
import json, sys, time
t0, c0 = time.perf_counter(), time.thread_time()
{imports}
t1 = time.perf_counter()
{call}
t2, c2 = time.perf_counter(), time.thread_time()
from tabletop.geom.compiled import GEOM_KERNELS, choose
from tabletop.obstacles._compiled import OBSTACLE_KERNELS
paths = sorted({{choose(GEOM_KERNELS), choose(OBSTACLE_KERNELS)}})
print(json.dumps({{"imports": t1 - t0, "call": t2 - t1, "cpu": c2 - c0,
                   "numba": "numba" in sys.modules, "paths": paths}}))
"""

BUILD_CHILD = """
import json, pathlib, sys, time
from tabletop.geom import aot_build
from tabletop.obstacles._compiled import OBSTACLE_KERNELS
from tabletop.geom.compiled import GEOM_KERNELS
import importlib
out = pathlib.Path(sys.argv[1])
times = {}
for kernels in (GEOM_KERNELS, OBSTACLE_KERNELS):
    t0 = time.perf_counter()
    aot_build.build(kernels, importlib.import_module(kernels.jit_module), output_dir=out)
    times[kernels.aot_module] = time.perf_counter() - t0
print(json.dumps(times))
"""


def run_child(code: str, env: dict[str, str], *args: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    figures: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def clean_env(**extra: str) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if k not in ("TABLETOP_NO_NUMBA", "TABLETOP_BACKEND")
    }
    return {**env, **extra}


NUMPY_CHILD = """
import json, time
t0 = time.perf_counter()
import numpy
print(json.dumps({"imports": time.perf_counter() - t0}))
"""


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:5.1f} ms"


def first_calls(runs: int) -> list[str]:
    """One line per batch function: imports + first call, min and median of `runs`."""
    lines = []
    numpy_alone = [float(run_child(NUMPY_CHILD, clean_env())["imports"]) for _ in range(runs)]  # type: ignore[arg-type]
    for name, (imports, call) in FIRST_CALLS.items():
        code = FIRST_CALL_CHILD.format(imports=imports, call=call)
        figures = [run_child(code, clean_env()) for _ in range(runs)]
        totals = [float(f["imports"]) + float(f["call"]) for f in figures]  # type: ignore[arg-type]
        called = statistics.median(float(f["call"]) for f in figures)  # type: ignore[arg-type]
        cpu = statistics.median(float(f["cpu"]) for f in figures)  # type: ignore[arg-type]
        numba = any(bool(f["numba"]) for f in figures)
        paths = ",".join(sorted({p for f in figures for p in f["paths"]}))  # type: ignore[attr-defined]
        met = "yes" if cpu <= WARM_TARGET_S else "NO"
        lines.append(
            f"  {name:<14} path {paths:<5} imports + first call {ms(cpu)} cpu of the main "
            f"thread (target <= {WARM_TARGET_S * 1e3:.0f} ms: {met}); wall {ms(min(totals))} "
            f"min, {ms(statistics.median(totals))} median; the call alone {ms(called)}; "
            f"numba imported: {'YES' if numba else 'no'}"
        )
    lines.append(
        f"  {'import numpy':<14} alone, for comparison: wall {ms(min(numpy_alone))} min, "
        f"{ms(statistics.median(numpy_alone))} median"
    )
    return lines


def jit_line(warm_runs: int) -> str:
    with tempfile.TemporaryDirectory(prefix="tabletop-numba-") as cache:
        env = clean_env(NUMBA_CACHE_DIR=cache, TABLETOP_BACKEND="numba")
        cold = run_child(JIT_CHILD, env)
        warm = [run_child(JIT_CHILD, env) for _ in range(warm_runs)]
    numba_import = statistics.median(float(w["numba"]) for w in warm)  # type: ignore[arg-type]
    first = statistics.median(float(w["first_call"]) for w in warm)  # type: ignore[arg-type]
    return (
        f"numba JIT (TABLETOP_BACKEND=numba), first distance_band call of a new process: "
        f"cold (empty cache) {float(cold['first_call']):.2f} s compiling, after import numba "  # type: ignore[arg-type]
        f"{float(cold['numba']):.2f} s; warm (cached, median of {warm_runs}) {first:.2f} s "  # type: ignore[arg-type]
        f"loading, after import numba {numba_import:.2f} s"
    )


def build_line() -> str:
    with (
        tempfile.TemporaryDirectory(prefix="tabletop-numba-") as cache,
        tempfile.TemporaryDirectory(prefix="tabletop-aot-") as out,
    ):
        times = run_child(BUILD_CHILD, clean_env(NUMBA_CACHE_DIR=cache), out)
    parts = ", ".join(f"{name} {float(t):.1f} s" for name, t in times.items())  # type: ignore[arg-type]
    total = sum(float(t) for t in times.values())  # type: ignore[arg-type]
    return f"ahead-of-time build (numba.pycc, empty numba cache): {parts}; {total:.1f} s in all"


def report(warm_runs: int = 3, *, build: bool = True) -> str:
    runs = 2 * warm_runs - 1
    lines = [f"compiled ahead of time, first call of a new process ({runs} processes each):"]
    lines += first_calls(runs)
    lines.append(jit_line(warm_runs))
    if build:
        lines.append(build_line())
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.startup", description=__doc__)
    parser.add_argument("--no-build", action="store_true", help="skip timing the build")
    args = parser.parse_args(argv)
    # Byte-compile the packages as a regular install would (and as ``make bench`` does):
    # with PYTHONDONTWRITEBYTECODE set and no compiled files, every start compiles them.
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", *(p.replace(".", "/") for p in PACKAGES)],
        cwd=ROOT,
        check=True,
    )
    print(report(build=not args.no_build))
    return 0


if __name__ == "__main__":
    sys.exit(main())
