"""Compile the obstacle kernels ahead of time: ``python -m tabletop.obstacles._aot_build`` (``make`` runs it).

Writes ``obstacles/_kernels_aot`` (:data:`tabletop.obstacles._compiled.OBSTACLE_KERNELS`) with
:func:`tabletop.geom.aot_build.build`: the kernels :mod:`tabletop.obstacles.batch` calls and the digest of
their sources. Without ``numba.pycc`` or a C compiler it prints one warning line and exits
0: the numba JIT path serves instead. Nothing imports this module at run time.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from tabletop.geom import aot_build
from tabletop.obstacles._compiled import OBSTACLE_KERNELS

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Build ``tabletop.obstacles._kernels_aot``; on failure print one warning line. Always 0."""
    return aot_build.main(argv, kernels=OBSTACLE_KERNELS)


if __name__ == "__main__":
    sys.exit(main())
