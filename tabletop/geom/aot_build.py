"""Compile the geometry kernels ahead of time: ``python -m tabletop.geom.aot_build`` (``make`` runs it).

Writes the extension module ``geom/_kernels_aot`` (:data:`tabletop.geom.compiled.GEOM_KERNELS`) with
numba's ahead-of-time compiler, ``numba.pycc``: every kernel :mod:`tabletop.geom.batch` and
:mod:`tabletop.maneuvers.moves` call, with the argument types of those calls, plus
``source_digest()``, the digest of the sources it was built from (the freshness rule of
:mod:`tabletop.geom.compiled`). Nothing imports this module at run time: it imports ``numba.pycc``.

``numba.pycc`` is deprecated upstream. Where it is missing, or there is no C compiler,
the build prints one warning line and exits 0: the numba JIT path serves instead.
:func:`build` is also the helper of ``tabletop.obstacles._aot_build``.
"""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tabletop.geom.compiled import GEOM_KERNELS, CompiledKernels

__all__ = ["build", "main"]


def _numpy_error_flags() -> Any:
    """Return numba's compile flags with numpy's error model, as :func:`tabletop.geom.numba_support.jit` has.

    ``numba.pycc`` compiles with Python's error model, where a float division by zero
    raises; the JIT kernels give inf or nan, and the compiled-ahead ones must agree.
    """
    flags = importlib.import_module("numba.core.compiler").Flags()
    flags.error_model = "numpy"
    return flags


def _digest_function(value: int) -> Callable[[], int]:
    def source_digest() -> int:
        return value

    return source_digest


def build(kernels: CompiledKernels, module: Any, *, output_dir: Path) -> Path:
    """Compile the kernels of `module` named in ``kernels.signatures`` into ``kernels.aot_module``.

    The extension is written to a temporary directory and moved into `output_dir` in one
    step, so that a process never loads half a file. Returns its path.

    Raises
    ------
    ImportError
        Without ``numba.pycc``.
    Exception
        Whatever the compiler or the linker raise (no C compiler, for one).
    """
    # Untyped third-party modules, held as Any: this module only drives them.
    pycc: Any = importlib.import_module("numba.pycc")
    compiler: Any = importlib.import_module("numba.pycc.compiler")
    digest = kernels.digest()  # before compiling: a source edited meanwhile reads stale
    name = kernels.aot_module.rpartition(".")[2]
    cc = pycc.CC(name, source_module=module)
    cc.target_cpu = "host"  # built where it runs, as the JIT compiles for its own CPU
    cc.verbose = False
    for kernel, signature in kernels.signatures:
        cc.export(kernel, signature)(getattr(module, kernel).py_func)
    cc.export("source_digest", "i8()")(_digest_function(digest))
    with tempfile.TemporaryDirectory(prefix=f"{name}-", dir=output_dir) as scratch:
        cc.output_dir = scratch
        patched = compiler.Flags
        compiler.Flags = _numpy_error_flags
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # pycc's own deprecation notice
                cc.compile()
        finally:
            compiler.Flags = patched
        target = output_dir / str(cc.output_file)
        os.replace(Path(scratch) / str(cc.output_file), target)
    return target


def main(argv: Sequence[str] | None = None, *, kernels: CompiledKernels = GEOM_KERNELS) -> int:
    """Build one package's extension; on failure print one warning line. Always 0."""
    del argv
    jit = importlib.import_module(kernels.jit_module)
    output_dir = Path(str(jit.__file__)).resolve().parent
    try:
        target = build(kernels, jit, output_dir=output_dir)
    except Exception as error:  # any failure leaves the JIT path serving; say it once
        reason = " ".join(str(error).split()) or type(error).__name__
        print(
            f"warning: {kernels.aot_module} not compiled ahead of time "
            f"({type(error).__name__}: {reason[:200]}); the numba JIT path serves instead",
            file=sys.stderr,
        )
        return 0
    print(f"compiled {kernels.aot_module}: {target.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
