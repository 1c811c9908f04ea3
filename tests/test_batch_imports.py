"""numba stays out of start-up; kernels are cached on disk and safe to call from threads.

Each start-up check runs in a fresh interpreter and reads ``sys.modules`` at its end: the
batch modules import numba only when a batch function runs on the numba path (forced
here with ``TABLETOP_BACKEND=numba``: by default the kernels compiled ahead of time serve). The
kernels keep their machine code on disk (``cache=True``), run on numba's workqueue
threading layer unless ``NUMBA_THREADING_LAYER`` says otherwise, and are launched one at a
time (that layer cannot run two at once).
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from unittest import mock

import numpy as np
import pytest

from tabletop.geom import batch
from tabletop.geom.batch import BACKEND_ENV, NO_NUMBA_ENV, backend

ROOT = Path(__file__).resolve().parents[1]


def run(code: str, **env: str) -> str:
    """Run `code` in a fresh interpreter at the project root; return its stdout."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_packages_check_and_measure_do_not_import_numba() -> None:
    out = run(
        """
        import io, sys
        from tabletop import geom, obstacles, maneuvers
        import tabletop.geom.batch, tabletop.obstacles.batch, tabletop.maneuvers.batch
        from tabletop.app.cli import main
        codes = [
            main(["check", "examples/xwing-tournament.toml"], out=io.StringIO()),
            main(["measure", "examples/xwing-tournament.toml", "wedge", "vader"], out=io.StringIO()),
            main(["measure", "examples/xwing-tournament.toml", "wedge", "vader", "--arc", "front"],
                 out=io.StringIO()),
        ]
        print(codes, "numba" in sys.modules)
        """
    )
    assert out == "[0, 0, 0] False"


def test_the_numpy_path_does_not_import_numba() -> None:
    out = run(
        """
        import sys
        import numpy as np
        from tabletop.geom import batch
        from tabletop.obstacles.batch import obstructed, setups_legal
        from tabletop.maneuvers.batch import final_poses
        d = batch.distance([0.0, 0.0, 0.0], "small", [100.0, 0.0, 0.0], "small")
        batch.in_arc([0.0, 0.0, 0.0], "small", [100.0, 0.0, 0.0], "small", "front")
        setups_legal(["coreasteroid0"], [[[457.2, 457.2, 0.0, 0.0]]])
        obstructed([[0.0, 0.0]], [[1.0, 1.0]], ["coreasteroid0"], [[457.2, 457.2, 0.0, 0.0]])
        final_poses([0.0, 0.0, 0.0], "small", "straight 1")
        print(batch.backend(), d.tolist(), "numba" in sys.modules)
        """,
        **{NO_NUMBA_ENV: "1"},
    )
    assert out == "numpy [60.0] False"


def test_the_numba_path_imports_numba_on_first_use() -> None:
    pytest.importorskip("numba")
    out = run(
        """
        import sys
        from tabletop.geom import batch
        before = "numba" in sys.modules
        d = batch.distance([0.0, 0.0, 0.0], "small", [100.0, 0.0, 0.0], "small")
        print(batch.backend(), before, d.tolist(), "numba" in sys.modules)
        """,
        **{BACKEND_ENV: "numba"},
    )
    assert out == "numba False [60.0] True"


@pytest.mark.parametrize(
    ("value", "expected"), [("", "aot"), ("0", "aot"), ("1", "numpy"), ("yes", "numpy")]
)
def test_backend_follows_the_environment(value: str, expected: str) -> None:
    with mock.patch.dict(os.environ, {NO_NUMBA_ENV: value, BACKEND_ENV: ""}):
        assert backend() == expected


@pytest.mark.parametrize(
    ("module", "kernel"),
    [
        ("tabletop.geom._kernels", "distances"),
        ("tabletop.geom._kernels", "arcs_hit"),
        ("tabletop.geom._kernels", "compose_moves"),
        ("tabletop.obstacles._kernels", "setups"),
        ("tabletop.obstacles._kernels", "segments_blocked"),
        ("tabletop.geom.numba_support", "orient"),
    ],
)
def test_kernels_keep_their_machine_code_on_disk(module: str, kernel: str) -> None:
    """``cache=True``: numba's dispatcher holds a file cache, not the null cache."""
    pytest.importorskip("numba")
    cache = getattr(importlib.import_module(module), kernel)._cache
    assert type(cache).__name__ == "FunctionCache"


def test_the_workqueue_layer_unless_the_user_chose_one() -> None:
    pytest.importorskip("numba")
    code = """
        import numba
        from tabletop.geom import batch
        batch.distance([0.0, 0.0, 0.0], "small", [100.0, 0.0, 0.0], "small")
        print(numba.threading_layer())
        """
    environment = {k: v for k, v in os.environ.items() if k != "NUMBA_THREADING_LAYER"}
    with mock.patch.dict(os.environ, environment, clear=True):
        assert run(code, **{BACKEND_ENV: "numba"}) == "workqueue"
    assert run(code, **{BACKEND_ENV: "numba", "NUMBA_THREADING_LAYER": "omp"}) == "omp"


@pytest.mark.parametrize("path", ["aot", "numba"])
def test_concurrent_calls_from_threads_give_the_serial_answers(path: str) -> None:
    if path == "numba":
        pytest.importorskip("numba")
    rng = np.random.default_rng(3)
    a = np.column_stack(
        [rng.uniform(0, 900, 5000), rng.uniform(0, 900, 5000), rng.uniform(0, 360, 5000)]
    )
    b = np.column_stack(
        [rng.uniform(0, 900, 5000), rng.uniform(0, 900, 5000), rng.uniform(0, 360, 5000)]
    )
    with mock.patch.dict(os.environ, {BACKEND_ENV: path}):
        assert backend() == path
        expected = batch.distance(a, "small", b, "large")
        with ThreadPoolExecutor(max_workers=4) as pool:
            results = list(pool.map(lambda _: batch.distance(a, "small", b, "large"), range(16)))
    for result in results:
        assert np.array_equal(result, expected)
