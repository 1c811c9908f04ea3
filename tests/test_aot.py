"""The kernels compiled ahead of time: present and fresh, checked, and equal to the JIT's.

``make`` builds ``geom/_kernels_aot`` and ``obstacles/_kernels_aot`` before the tests run
(the ``test`` target depends on the build), and this project's CI has a C compiler: so
the modules are asserted present and fresh here, not skipped when missing. A module
whose embedded digest differs from the sources' is passed over (the numba JIT path
serves); the three paths agree on random inputs, their lengths within ``AGREEMENT_MM``
(``tests/agreement.py``: the compiled code and numpy's do their own arithmetic, and a
compiler or numpy release may round differently), their verdicts exactly; and a call
served by the compiled-ahead path imports no numba.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from agreement import arrays_agree, off_the_lines
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.geom import batch
from tabletop.geom import compiled as _aot
from tabletop.geom.errors import InvalidInputError
from tabletop.maneuvers.batch import final_poses
from tabletop.obstacles import batch as obstacle_batch
from tabletop.obstacles._compiled import OBSTACLE_KERNELS

ROOT = Path(__file__).resolve().parents[1]
KERNELS = (_aot.GEOM_KERNELS, OBSTACLE_KERNELS)
PATHS = ("aot", "numba", "numpy")


@pytest.fixture
def fresh_cache() -> Iterator[None]:
    """Forget the per-process freshness answers before and after the test."""
    _aot._fresh_module.cache_clear()
    yield
    _aot._fresh_module.cache_clear()


def on(path: str) -> dict[str, str]:
    return {_aot.BACKEND_ENV: path}


@pytest.mark.parametrize("kernels", KERNELS, ids=lambda k: k.aot_module)
def test_the_compiled_module_is_present_and_fresh(kernels: _aot.CompiledKernels) -> None:
    module = kernels.compiled()
    assert module is not None, f"{kernels.aot_module} missing or stale: run make"
    assert module.source_digest() == kernels.digest()
    for name, _ in kernels.signatures:
        assert callable(getattr(module, name))


@pytest.mark.parametrize("kernels", KERNELS, ids=lambda k: k.aot_module)
def test_a_stale_digest_falls_back_to_the_jit(
    kernels: _aot.CompiledKernels, fresh_cache: None
) -> None:
    pytest.importorskip("numba")  # falls back to the numba JIT path: needs the `fast` extra
    with mock.patch.object(_aot, "source_digest", return_value=12345):
        assert kernels.compiled() is None
        assert kernels.available() == ("numba", "numpy")
        with mock.patch.dict(os.environ, on("")):
            assert _aot.choose(kernels) == "numba"
        with mock.patch.dict(os.environ, on("aot")):
            assert _aot.choose(kernels) == "numba"  # forced, unavailable: the next path
    _aot._fresh_module.cache_clear()
    assert kernels.compiled() is not None


def test_a_stale_module_is_not_used_by_the_batch_functions(fresh_cache: None) -> None:
    pytest.importorskip("numba")  # falls back to the numba JIT path: needs the `fast` extra
    with (
        mock.patch.object(_aot, "source_digest", return_value=12345),
        mock.patch.dict(os.environ, on("")),
    ):
        assert batch.backend() == "numba"
        assert batch.distance([0.0, 0.0, 0.0], "small", [100.0, 0.0, 0.0], "small").tolist() == [
            60.0
        ]


def test_a_missing_module_falls_back(fresh_cache: None) -> None:
    pytest.importorskip("numba")  # falls back to the numba JIT path: needs the `fast` extra
    missing = _aot.CompiledKernels(
        "tabletop.geom._kernels", "tabletop.geom._no_such_module", (), ()
    )
    assert missing.compiled() is None
    assert missing.available() == ("numba", "numpy")


def test_a_module_of_sources_changed_on_disk_reads_stale(tmp_path: Path, fresh_cache: None) -> None:
    """The digest covers the bytes of every source: one byte more and it differs."""
    source = tmp_path / "kernel.py"
    source.write_text("x = 1\n")
    before = _aot.source_digest([source])
    source.write_text("x = 1\n\n")
    assert _aot.source_digest([source]) != before
    assert _aot.source_digest([source, source]) != _aot.source_digest([source])


@pytest.mark.parametrize(
    ("value", "expected"),
    [("aot", "aot"), ("numba", "numba"), ("numpy", "numpy"), ("auto", "aot"), (" AOT ", "aot")],
)
def test_the_backend_variable_forces_a_path(value: str, expected: str) -> None:
    if expected == "numba":
        pytest.importorskip("numba")  # the numba path needs the `fast` extra
    with mock.patch.dict(os.environ, {_aot.BACKEND_ENV: value, _aot.NO_NUMBA_ENV: ""}):
        assert batch.backend() == expected


def test_the_backend_variable_wins_over_no_numba() -> None:
    with mock.patch.dict(os.environ, {_aot.BACKEND_ENV: "aot", _aot.NO_NUMBA_ENV: "1"}):
        assert batch.backend() == "aot"
    with mock.patch.dict(os.environ, {_aot.BACKEND_ENV: "", _aot.NO_NUMBA_ENV: "1"}):
        assert batch.backend() == "numpy"


def test_an_unknown_backend_is_refused_by_name() -> None:
    with (
        mock.patch.dict(os.environ, on("gpu")),
        pytest.raises(InvalidInputError, match="TABLETOP_BACKEND='gpu': expected one of auto"),
    ):
        batch.backend()


@pytest.mark.parametrize(("cores", "loaded"), [(2, False), (2, True), (1, False), (1, True)])
def test_threads_for_batches_that_repay_numba_start_up(
    cores: int, loaded: bool, fresh_cache: None
) -> None:
    """``cost * (1 - 1/cores)`` against 0.6 s (numba not loaded) or 1 ms (loaded)."""
    if cores > 1:
        pytest.importorskip("numba")  # more than one core may choose numba: the `fast` extra
    modules = dict(sys.modules)
    if loaded:
        name = "tabletop.geom._kernels"
        modules.setdefault(name, sys.modules.get(name, object()))  # type: ignore[arg-type]
    else:
        modules.pop("tabletop.geom._kernels", None)
    limit = (_aot.PARALLEL_MIN_S if loaded else _aot.NUMBA_LOAD_S) * cores / (cores - 1 or 1)
    with (
        mock.patch.object(_aot, "_cores", return_value=cores),
        mock.patch.dict(sys.modules, modules, clear=True),
        mock.patch.dict(os.environ, on("")),
    ):
        assert _aot.choose(_aot.GEOM_KERNELS, 0.0) == "aot"
        if cores == 1:
            assert _aot.choose(_aot.GEOM_KERNELS, 1e6) == "aot"
        else:
            assert _aot.choose(_aot.GEOM_KERNELS, limit * 0.999) == "aot"
            assert _aot.choose(_aot.GEOM_KERNELS, limit * 1.001) == "numba"


def test_wrong_arguments_are_refused_before_they_reach_the_machine_code() -> None:
    """The compiled wrappers do not check types; :meth:`call` does, so nothing crashes."""
    a = np.zeros((4, 3))
    dims = np.array([[20.0, 20.0, 0.0]])
    for bad in (np.zeros(8)[::2], np.zeros(4, dtype=np.float32), np.zeros((4, 1))):
        with pytest.raises(TypeError, match="distances argument 4"):
            _aot.GEOM_KERNELS.call("aot", "distances", a, a, dims, dims, bad)
    with pytest.raises(TypeError, match="distances argument 0"):
        _aot.GEOM_KERNELS.call(
            "aot", "distances", np.asfortranarray(np.zeros((4, 3))), a, dims, dims, np.zeros(4)
        )
    with pytest.raises(TypeError, match="expected 5 arguments"):
        _aot.GEOM_KERNELS.call("aot", "distances", a, a, dims, dims)
    with pytest.raises(TypeError, match="expected a bool scalar"):
        _aot.check_arguments("k", "void(b1)", [1])
    with pytest.raises(TypeError, match="expected a int64 scalar"):
        _aot.check_arguments("k", "void(i8)", [True])
    _aot.check_arguments("k", "void(b1, i8, f8)", [np.bool_(True), np.int64(3), 2])


# -- the three paths agree ----------------------------------------------------------------


def each_path(call: object) -> list[object]:
    """The answers of `call` on every path; the numba path needs numba (the `fast` extra)."""
    pytest.importorskip("numba")
    answers = []
    for path in PATHS:
        with mock.patch.dict(os.environ, on(path)):
            assert batch.backend() == path
            answers.append(call())  # type: ignore[operator]
    return answers


def poses(rng: np.random.Generator, n: int) -> np.ndarray:
    return np.column_stack(
        [rng.uniform(0, 900, n), rng.uniform(0, 900, n), rng.uniform(-720, 720, n)]
    )


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 1200))
def test_distances_bands_and_arcs_agree_on_the_compiled_paths(seed: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    a, b = poses(rng, n), poses(rng, n)
    bases = list(rng.choice(["small", "medium", "large"], n))
    ruleset = str(rng.choice(["xwing2", "xwing1"]))
    arc = str(rng.choice(["front", "rear", "left", "right", "full-front", "full-rear", "bullseye"]))
    runs = {
        "distance": lambda: batch.distance(a, bases, b, "large", ruleset=ruleset),
        "distance_band": lambda: batch.distance_band(a, "small", b, bases, ruleset=ruleset),
        "in_arc": lambda: batch.in_arc(a, bases, b, "small", arc, ruleset=ruleset),
    }
    lines = (0.0, *batch.as_ruleset(ruleset).band_lines_of("range"))
    for name, run in runs.items():
        aot, jit, plain = each_path(run)
        if name == "distance_band":
            for other in (jit, plain):
                assert arrays_agree(aot[0], other[0]), name  # type: ignore[index]
                off = off_the_lines(aot[0], lines)  # type: ignore[index]
                assert np.array_equal(aot[1][off], other[1][off]), name  # type: ignore[index]
        elif name == "distance":
            assert arrays_agree(aot, jit), name  # type: ignore[arg-type]
            assert arrays_agree(aot, plain), name  # type: ignore[arg-type]
        else:  # in the arc or not, at random: exact (see tests/agreement.py)
            assert np.array_equal(aot, jit), name  # type: ignore[arg-type]
            assert np.array_equal(aot, plain), name  # type: ignore[arg-type]


def test_armada_disks_agree_on_the_compiled_paths() -> None:
    rng = np.random.default_rng(11)
    a, b = poses(rng, 3000), poses(rng, 3000)
    bases = list(rng.choice(["small", "medium", "large", "squadron"], 3000))
    aot, jit, _ = each_path(
        lambda: batch.distance_band(a, bases, b, "squadron", ruleset="armada", kind="distance")
    )
    assert arrays_agree(aot[0], jit[0])  # type: ignore[index]
    off = off_the_lines(aot[0], (0.0, *batch.as_ruleset("armada").band_lines_of("distance")))  # type: ignore[index]
    assert off.sum() > 2900
    assert np.array_equal(aot[1][off], jit[1][off])  # type: ignore[index]


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    words=st.sampled_from(["straight 1", "bank 2 left", "turn 3 right", "koiogran 4", "roll left"]),
)
def test_final_poses_agree_also_just_below_0_and_360(seed: int, words: str) -> None:
    """The three paths agree, a heading just below 360° and one of 0° alike (1e-6° apart)."""
    rng = np.random.default_rng(seed)
    rows = poses(rng, 400)
    # Headings a few units in the last place below 0° and 360°.
    rows[:100, 2] = -np.abs(rng.integers(1, 8, 100)) * np.spacing(1.0) * 1e-14
    rows[100:200, 2] = np.nextafter(360.0, 0.0) - rng.integers(0, 4, 100) * np.spacing(360.0)
    aot, jit, plain = each_path(lambda: final_poses(rows, "small", words))
    for answer in (aot, jit, plain):
        assert ((answer[:, 2] >= 0.0) & (answer[:, 2] < 360.0)).all()  # type: ignore[index]
    for other in (jit, plain):
        assert arrays_agree(aot[:, :2], other[:, :2])  # type: ignore[index]
        turn = (aot[:, 2] - other[:, 2] + 180.0) % 360.0 - 180.0  # type: ignore[index]
        assert arrays_agree(turn, np.zeros_like(turn))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_setups_and_obstruction_agree_on_the_compiled_paths(seed: int) -> None:
    rng = np.random.default_rng(seed)
    tokens = ["coreasteroid0", "coreasteroid1", "yt2400debris0", "hugeship-short"]
    place = np.zeros((300, len(tokens), 4))
    place[:, :, 0] = rng.uniform(0, 914.4, (300, len(tokens)))
    place[:, :, 1] = rng.uniform(0, 914.4, (300, len(tokens)))
    place[:, :, 2] = rng.uniform(0, 360, (300, len(tokens)))
    place[:, :, 3] = rng.integers(0, 2, (300, len(tokens)))
    p = rng.uniform(0, 914.4, (500, 2))
    q = rng.uniform(0, 914.4, (500, 2))
    legal = each_path(lambda: obstacle_batch.setups_legal(tokens, place))
    blocked = each_path(lambda: obstacle_batch.obstructed(p, q, tokens, place[0]))
    for answers in (legal, blocked):  # verdicts at random: exact (see tests/agreement.py)
        assert np.array_equal(answers[0], answers[1])  # type: ignore[arg-type]
        assert np.array_equal(answers[0], answers[2])  # type: ignore[arg-type]


# -- start-up ---------------------------------------------------------------------------


def test_the_compiled_ahead_path_imports_no_numba() -> None:
    code = textwrap.dedent(
        """
        import sys
        from tabletop.geom import batch
        from tabletop.maneuvers.batch import final_poses
        from tabletop.obstacles.batch import obstructed, setups_legal
        d, k = batch.distance_band([0.0, 0.0, 0.0], "small", [100.0, 0.0, 0.0], "small")
        hit = batch.in_arc([0.0, 0.0, 90.0], "small", [0.0, 200.0, 0.0], "small", "front")
        legal = setups_legal(["coreasteroid0"], [[[457.2, 457.2, 0.0, 0.0]]])
        blocked = obstructed([[0.0, 0.0]], [[914.4, 914.4]], ["coreasteroid0"], [[457.2, 457.2, 0.0, 0.0]])
        moved = final_poses([0.0, 0.0, 0.0], "small", "straight 1")
        print(batch.backend(), d.tolist(), k.tolist(), hit.tolist(), legal.tolist(),
              blocked.tolist(), moved.round(6).tolist(), "numba" in sys.modules)
        """
    )
    env = {k: v for k, v in os.environ.items() if k not in (_aot.BACKEND_ENV, _aot.NO_NUMBA_ENV)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    # 100 mm between centres of two 40 mm squares: 60 mm, range 1; 200 mm ahead is in the
    # front arc; the board's centre is on the asteroid and the diagonal crosses it;
    # straight 1 is 40 mm of template plus the 40 mm base.
    assert done.stdout.split(" ", 1)[0] == "aot"
    assert done.stdout.strip().endswith("False")
    assert "[60.0] [1] [True] [True] [True] [[80.0, 0.0, 0.0]]" in done.stdout


def test_without_numba_pycc_the_build_warns_in_one_line_and_carries_on() -> None:
    """pycc is deprecated upstream: where it is gone the build says so and exits 0."""
    pytest.importorskip("numba")  # the build compiles numba kernels: the `fast` extra
    compiled = _aot.GEOM_KERNELS.compiled()
    assert compiled is not None
    before = Path(str(compiled.__file__)).stat().st_mtime_ns
    code = textwrap.dedent(
        """
        import importlib.abc, sys
        class _NoPycc(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name == "numba.pycc" or name.startswith("numba.pycc."):
                    raise ModuleNotFoundError(f"No module named {name!r}")
                return None
        sys.meta_path.insert(0, _NoPycc())
        from tabletop.geom.aot_build import main
        sys.exit(main())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(warnings) == 1, done.stderr
    assert warnings[0].startswith("warning: tabletop.geom._kernels_aot not compiled ahead of time")
    assert "No module named 'numba.pycc'" in warnings[0]
    assert warnings[0].endswith("the numba JIT path serves instead")
    assert Path(str(compiled.__file__)).stat().st_mtime_ns == before
