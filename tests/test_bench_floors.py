"""The kernels' benchmark compares like with like: every C floor, plain numba loop and
shapely form gives the kernel's answers on a small workload (``python -m benchmarks.kernels``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

from benchmarks import kernels

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler: no C floors")


@pytest.mark.parametrize("name", [k[0] for k in kernels.KERNELS])
def test_every_side_agrees_with_the_kernel(name: str, tmp_path: Path) -> None:
    floors = kernels.build_floors(tmp_path)
    assert floors is not None
    _, _, make, count = next(k for k in kernels.KERNELS if k[0] == name)
    n = 300 if name == "setups_legal" else 3000
    sides = make(np.random.default_rng(7), n, floors)
    assert {side.kind for side in sides} >= {"ours", "floor", "numba", "vectorised"}
    result = kernels.run_rounds(name, n, sides, count, rounds=1)
    assert result.mismatches == dict.fromkeys(result.mismatches, 0)
