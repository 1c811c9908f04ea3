"""Collection for the whole repository: the numba kernel modules only where numba is.

The baseline script ``benchmarks/strtree_check.py`` is never imported: it is a script
that reads its argument at import, as a user's script does.

``--doctest-modules`` imports every module under ``tabletop/`` to look for doctests.
numba is an optional extra (``fast``); the modules below define numba kernels at import
and cannot be imported without it, so without numba they are not collected (the batch
functions then take their numpy path, which the tests cover).
"""

from __future__ import annotations

import importlib.util

collect_ignore: list[str] = ["benchmarks/strtree_check.py"]
if importlib.util.find_spec("numba") is None:
    collect_ignore += [
        "tabletop/geom/numba_support.py",
        "tabletop/geom/_kernels.py",
        "tabletop/geom/_arc_kernel.py",
        "tabletop/obstacles/_kernels.py",
        "benchmarks/kernels.py",
        "benchmarks/plain_kernels.py",
    ]
