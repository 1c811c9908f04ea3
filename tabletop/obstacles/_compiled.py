"""The obstacle kernels compiled ahead of time: their sources and signatures (:mod:`tabletop.geom.compiled`).

:mod:`tabletop.obstacles.batch` runs them through :data:`OBSTACLE_KERNELS`; ``python -m
tabletop.obstacles._aot_build`` compiles them into ``obstacles/_kernels_aot``. The signatures are
exactly the argument types of the calls in :mod:`tabletop.obstacles.batch`.

Examples
--------
>>> [name for name, _ in OBSTACLE_KERNELS.signatures]
['setups', 'segments_blocked']
"""

from __future__ import annotations

from tabletop.geom.compiled import CompiledKernels

__all__ = ["OBSTACLE_KERNELS"]

#: Setup legality and obstruction: ``tabletop.obstacles.batch.setups_legal`` and ``obstructed``.
OBSTACLE_KERNELS = CompiledKernels(
    "tabletop.obstacles._kernels",
    "tabletop.obstacles._kernels_aot",
    (
        "obstacles/_kernels.py",
        "obstacles/_compiled.py",
        "obstacles/_aot_build.py",
        "geom/numba_support.py",
        "geom/tolerance.py",
        "geom/compiled.py",
        "geom/aot_build.py",
    ),
    (
        # setups(local, mirrored, offsets, inv, inv_mirrored, half, half_mirrored, radii,
        #        placements, limits, out): setups_legal
        (
            "setups",
            "void(f8[:, ::1], f8[:, ::1], i8[::1], f8[::1], f8[::1], f8[::1], f8[::1], "
            "f8[::1], f8[:, :, ::1], f8[::1], b1[::1])",
        ),
        # segments_blocked(starts, ends, wv, offsets, boxes, out): obstructed
        (
            "segments_blocked",
            "void(f8[:, ::1], f8[:, ::1], f8[:, ::1], i8[::1], f8[:, ::1], b1[::1])",
        ),
    ),
)
