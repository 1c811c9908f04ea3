"""Which compiled path serves a batch call: kernels compiled ahead of time, numba's JIT, or numpy.

Three paths compute the same answers (bit for bit on the kernels' paths):

* ``aot``: the kernels compiled ahead of time into an extension module beside their
  sources (``python -m tabletop.geom.aot_build``, run by ``make``). It runs on one thread and
  imports nothing but itself: a new process pays about a millisecond to load it, where
  numba pays 0.5-1 s. It serves only while *fresh*: it carries a digest of the kernel
  sources it was built from, compared once per process with the digest of the files on
  disk; a stale or missing module is passed over, silently.
* ``numba``: the same kernels compiled by numba on first use (``cache=True``), run on
  every core. Chosen for a batch whose single-thread time repays numba's start-up
  (:func:`choose`), or when the compiled module is missing or stale.
* ``numpy``: the same formulas on whole arrays, without compiled code.

The environment variable ``TABLETOP_BACKEND`` forces a path (``aot``, ``numba`` or
``numpy``; unset or ``auto``: the rule above); a forced path that is unavailable gives
way to the next in that order. ``TABLETOP_NO_NUMBA=1`` selects numpy, as it always has.

Examples
--------
>>> source_digest([]) == source_digest([])
True
>>> GEOM_KERNELS.jit_module
'tabletop.geom._kernels'
"""

from __future__ import annotations

import dataclasses as _dc
import functools as _functools
import importlib as _importlib
import importlib.util as _importlib_util
import os as _os
import re
import sys as _sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, Literal, TypeAlias

import numpy as _np

from tabletop.geom.errors import InvalidInputError

try:  # the BLAKE2 module alone: ``hashlib`` also loads OpenSSL, 4 ms of every start-up
    from _blake2 import blake2b as _blake2b
except ImportError:  # another Python implementation
    from hashlib import blake2b as _blake2b

__all__ = [
    "BACKEND_ENV",
    "GEOM_KERNELS",
    "NO_NUMBA_ENV",
    "NUMBA_LOAD_S",
    "PARALLEL_MIN_S",
    "PATHS",
    "Backend",
    "CompiledKernels",
    "check_arguments",
    "choose",
    "source_digest",
]

#: A path a batch call takes.
Backend: TypeAlias = Literal["aot", "numba", "numpy"]
#: The paths, in the order a forced but unavailable one gives way.
PATHS: tuple[Backend, ...] = ("aot", "numba", "numpy")

#: Set to ``aot``, ``numba`` or ``numpy`` to force a path (``auto`` or unset: the rule).
BACKEND_ENV = "TABLETOP_BACKEND"
#: Set this environment variable to ``1`` to take the numpy path instead of numba.
NO_NUMBA_ENV = "TABLETOP_NO_NUMBA"

#: What a new process pays before numba's first parallel kernel runs, seconds: ``import
#: numba`` and loading the cached machine code (``python -m benchmarks.startup``).
NUMBA_LOAD_S = 0.6
#: Single-thread work below which waking numba's threads does not pay, seconds.
PARALLEL_MIN_S = 0.001

#: The directory holding the packages (``geom/``, ``obstacles/``).
_ROOT = Path(__file__).resolve().parents[1]


def source_digest(paths: Sequence[Path]) -> int:
    """Return a signed 64-bit digest of the files' bytes, in order (BLAKE2b).

    Examples
    --------
    >>> -(2**63) <= source_digest([Path(__file__)]) < 2**63
    True
    """
    digest = _blake2b(digest_size=8)
    for path in paths:
        data = path.read_bytes()
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return int.from_bytes(digest.digest(), "little", signed=True)


@_dc.dataclass(frozen=True, slots=True)
class CompiledKernels:
    """One package's kernels: the numba module, the module compiled ahead of time, sources.

    Attributes
    ----------
    jit_module : str
        The module of numba kernels, e.g. ``"tabletop.geom._kernels"``.
    aot_module : str
        The extension module the build writes beside it, e.g. ``"tabletop.geom._kernels_aot"``.
    sources : tuple of str
        The files its machine code comes from, relative to the directory of the packages
        (this module among them: it holds the signatures).
    signatures : tuple of (str, str)
        Each exported kernel and its numba signature, exactly as the batch modules call
        it. The compiled wrappers do not check their arguments (a wrong array crashes the
        process), so :meth:`call` checks them against these first.
    """

    jit_module: str
    aot_module: str
    sources: tuple[str, ...]
    signatures: tuple[tuple[str, str], ...]

    def digest(self) -> int:
        """Return :func:`source_digest` of the source files as they are on disk now."""
        return source_digest([_ROOT / name for name in self.sources])

    def compiled(self) -> ModuleType | None:
        """Return the compiled module if it is present and fresh, else None (cached)."""
        return _fresh_module(self)

    def available(self) -> tuple[Backend, ...]:
        """Return the paths that can serve now, in :data:`PATHS` order."""
        paths: list[Backend] = []
        if self.compiled() is not None:
            paths.append("aot")
        if _numba_installed():
            paths.append("numba")
        paths.append("numpy")
        return tuple(paths)

    def call(self, path: Backend, kernel: str, *args: Any) -> None:
        """Run `kernel` on a compiled path: ``aot`` directly, ``numba`` under its lock."""
        if path == "aot":
            module = self.compiled()
            assert module is not None, "choose() offers aot only when it is fresh"
            check_arguments(kernel, _signature(self, kernel), args)
            getattr(module, kernel)(*args)
            return
        jit = _importlib.import_module(self.jit_module)
        with jit.LAUNCH_LOCK:
            getattr(jit, kernel)(*args)


@_functools.cache
def _fresh_module(kernels: CompiledKernels) -> ModuleType | None:
    if _importlib_util.find_spec(kernels.aot_module) is None:
        return None
    try:
        module = _importlib.import_module(kernels.aot_module)
        built_from = int(module.source_digest())
        on_disk = kernels.digest()
    except (ImportError, OSError, AttributeError):
        return None  # unloadable (another interpreter's build) or sources unreadable
    return module if built_from == on_disk else None


@_functools.cache
def _signature(kernels: CompiledKernels, kernel: str) -> str:
    return dict(kernels.signatures)[kernel]


@_functools.cache
def _numba_installed() -> bool:
    return _importlib_util.find_spec("numba") is not None


@_functools.cache
def _cores() -> int:
    affinity = getattr(_os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else (_os.cpu_count() or 1)


#: numba's type names of the signatures: dtype, dimensions (0: a scalar).
_TYPES: dict[str, tuple[str, int]] = {
    "f8": ("float64", 0),
    "i8": ("int64", 0),
    "b1": ("bool", 0),
    "f8[::1]": ("float64", 1),
    "i8[::1]": ("int64", 1),
    "b1[::1]": ("bool", 1),
    "f8[:, ::1]": ("float64", 2),
    "f8[:, :, ::1]": ("float64", 3),
}
#: The Python and numpy scalars each scalar type takes (bool is not an integer here).
_SCALARS: dict[str, tuple[type, ...]] = {
    "bool": (bool, _np.bool_),
    "int64": (int, _np.integer),
    "float64": (float, int, _np.floating, _np.integer),
}


@_functools.cache
def _argument_types(signature: str) -> tuple[tuple[str, _np.dtype[Any], int], ...]:
    inside = signature.removeprefix("void(").removesuffix(")")
    names = [name.strip() for name in re.split(r",\s*(?![^\[]*\])", inside) if name.strip()]
    return tuple((_TYPES[n][0], _np.dtype(_TYPES[n][0]), _TYPES[n][1]) for n in names)


def check_arguments(kernel: str, signature: str, args: Sequence[object]) -> None:
    """Raise TypeError unless `args` have exactly the types of `signature`.

    Arrays: the dtype, the number of dimensions and C order (the last stride one item);
    scalars: a Python or numpy bool, integer or float as the signature says.

    Examples
    --------
    >>> import numpy as np
    >>> check_arguments("k", "void(f8[::1], i8)", [np.zeros(2), 3])
    >>> check_arguments("k", "void(f8[::1], i8)", [np.zeros(4)[::2], 3])
    Traceback (most recent call last):
    ...
    TypeError: k argument 0: expected a C-contiguous float64 array of 1 dimension(s), got float64 (2,) not C-contiguous
    """
    types = _argument_types(signature)
    if len(args) != len(types):
        raise TypeError(f"{kernel}: expected {len(types)} arguments, got {len(args)}")
    for k, (arg, (name, dtype, ndim)) in enumerate(zip(args, types, strict=True)):
        if ndim == 0:
            if not isinstance(arg, _SCALARS[name]) or (name != "bool" and isinstance(arg, bool)):
                raise TypeError(f"{kernel} argument {k}: expected a {name} scalar, got {arg!r}")
        elif not (
            isinstance(arg, _np.ndarray)
            and arg.ndim == ndim
            and arg.dtype == dtype
            and arg.flags.c_contiguous
        ):
            got = (
                f"{arg.dtype} {arg.shape}{'' if arg.flags.c_contiguous else ' not C-contiguous'}"
                if isinstance(arg, _np.ndarray)
                else type(arg).__name__
            )
            raise TypeError(
                f"{kernel} argument {k}: expected a C-contiguous {name} array of "
                f"{ndim} dimension(s), got {got}"
            )


#: Pose, dims and position rows: C-contiguous ``(N, 3)`` float arrays.
_ROWS = "f8[:, ::1]"

#: Geometry kernels: distances, bands, arcs (``tabletop.geom.batch``) and poses (``maneuvers``).
GEOM_KERNELS = CompiledKernels(
    "tabletop.geom._kernels",
    "tabletop.geom._kernels_aot",
    (
        "geom/_kernels.py",
        "geom/_arc_kernel.py",
        "geom/numba_support.py",
        "geom/tolerance.py",
        "geom/compiled.py",
        "geom/aot_build.py",
    ),
    (
        # distances(pa, pb, da, db, out): tabletop.geom.batch.distance
        ("distances", f"void({_ROWS}, {_ROWS}, {_ROWS}, {_ROWS}, f8[::1])"),
        # distances_bands(pa, pb, da, db, edges, zero_band, out, bands): distance_band
        (
            "distances_bands",
            f"void({_ROWS}, {_ROWS}, {_ROWS}, {_ROWS}, f8[::1], b1, f8[::1], i8[::1])",
        ),
        # arcs_hit(pa, pb, da, db, halves, code, bull_half, bull_length, out): in_arc
        ("arcs_hit", f"void({_ROWS}, {_ROWS}, {_ROWS}, {_ROWS}, f8[::1], i8, f8, f8, b1[::1])"),
        # compose_moves(rows, move, out): tabletop.maneuvers.moves.final_pose
        ("compose_moves", f"void({_ROWS}, f8[::1], {_ROWS})"),
    ),
)


def _forced() -> Backend | None:
    value = _os.environ.get(BACKEND_ENV, "").strip().lower()
    if value in ("", "auto"):
        return "numpy" if _os.environ.get(NO_NUMBA_ENV, "") not in ("", "0") else None
    if value not in PATHS:
        raise InvalidInputError(
            f"environment variable {BACKEND_ENV}={value!r}: expected one of auto, "
            + ", ".join(PATHS)
        )
    return value


def choose(kernels: CompiledKernels, cost_s: float = 0.0) -> Backend:
    """Return the path for a batch of `kernels` estimated at `cost_s` on one thread.

    Forced by ``TABLETOP_BACKEND`` (or ``TABLETOP_NO_NUMBA=1``): that path, or the next
    available one. Otherwise the compiled-ahead kernels when fresh, except that a batch
    goes to numba's parallel kernels when numba is installed, more than one core is
    available, and the time saved by the other cores repays numba's start-up:
    ``cost_s * (1 - 1 / cores)`` at least :data:`NUMBA_LOAD_S` in a process that has not
    loaded these numba kernels yet, at least :data:`PARALLEL_MIN_S` in one that has.

    Raises
    ------
    InvalidInputError
        For a ``TABLETOP_BACKEND`` value other than ``auto``, ``aot``, ``numba``, ``numpy``.
    """
    forced = _forced()
    available = kernels.available()
    if forced is not None:
        return next(p for p in PATHS[PATHS.index(forced) :] if p in available)
    if "aot" not in available:
        return available[0]
    cores = _cores()
    if "numba" in available and cores > 1:
        saved = cost_s * (1.0 - 1.0 / cores)
        loaded = kernels.jit_module in _sys.modules
        if saved >= (PARALLEL_MIN_S if loaded else NUMBA_LOAD_S):
            return "numba"
    return "aot"
