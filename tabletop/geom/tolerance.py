"""The one length tolerance: lengths within :data:`EPSILON_MM` of each other are equal.

Every rule line (band lines, edge and spacing limits, deployment, arcs) is decided with
these predicates, in the shapely, numpy and numba paths alike: the numba kernels compile
these very functions (``tabletop.geom.numba_support.jit``), so the three paths cannot drift apart.
They take floats or numpy arrays.

Examples
--------
>>> beyond(200.000002, 200.0), beyond(200.0000005, 200.0)
(True, False)
>>> within(200.0000005, 200.0), same_length(100.0, 100.0000009)
(True, True)
"""

from __future__ import annotations

from typing import Any

__all__ = ["EPSILON_MM", "beyond", "same_length", "within"]

#: Lengths within this many mm of each other are equal (``rules.md``, floating point).
EPSILON_MM = 1e-6


def beyond(length: Any, limit: Any) -> Any:
    """Return whether `length` is more than `limit` by more than the tolerance."""
    return length - limit > EPSILON_MM


def within(length: Any, limit: Any) -> Any:
    """Return whether `length` is at most `limit`, a length within the tolerance counting as on it."""
    return length - limit <= EPSILON_MM


def same_length(a: Any, b: Any) -> Any:
    """Return whether two lengths are equal within the tolerance."""
    return abs(a - b) <= EPSILON_MM
