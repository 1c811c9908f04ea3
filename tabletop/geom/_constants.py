"""Checks of a scene's ``[constants]`` values, for :meth:`tabletop.geom.Ruleset.with_constants`.

A value replaces one of the ruleset's numbers only when it has that number's shape (a
number, a list of increasing band lines, a table with the same keys) and a range a table
could have; each refusal names ``constants.NAME``.
"""

from __future__ import annotations

import itertools
import math as _math
from collections.abc import Mapping
from types import MappingProxyType as _MappingProxyType
from typing import Any

from tabletop.geom.errors import InvalidConstantError


def frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    """Return a read-only copy of `mapping` (the rulesets' tables)."""
    return _MappingProxyType(dict(mapping))


def _number(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidConstantError(f"expected a number, got {value!r}", where=f"constants.{name}")
    try:
        number = float(value)
    except OverflowError:
        number = _math.inf
    if not _math.isfinite(number) or number < 0:
        raise InvalidConstantError(
            f"expected a finite number of at least 0, got {value!r}", where=f"constants.{name}"
        )
    return number


def check_constant(name: str, value: Any, current: Any) -> Any:
    """Return a ``[constants]`` value checked against the shape of the value it replaces."""
    if isinstance(current, tuple):
        if not isinstance(value, list | tuple) or len(value) != len(current):
            raise InvalidConstantError(
                f"expected a list of {len(current)} numbers, got {value!r}",
                where=f"constants.{name}",
            )
        numbers = tuple(_number(name, v) for v in value)
        if any(b <= a for a, b in itertools.pairwise(numbers)):
            raise InvalidConstantError(
                f"expected increasing band lines, got {value!r}", where=f"constants.{name}"
            )
        return numbers
    if isinstance(current, Mapping):
        if not isinstance(value, Mapping) or set(value) != set(current):
            raise InvalidConstantError(
                f"expected a table with exactly the keys {', '.join(current)}, got {value!r}",
                where=f"constants.{name}",
            )
        return frozen({k: _number(f"{name}.{k}", value[k]) for k in current})
    return _number(name, value)


def check_range(name: str, value: Any) -> None:
    """Reject values no table could have: arcs that are not wedges, empty bands or tools."""
    values = (
        list(value.values())
        if isinstance(value, Mapping)
        else (list(value) if isinstance(value, tuple) else [value])
    )
    if name == "xwing_arc_half_angles":
        low, high, what = 1.0, 89.0, "half-angles from 1 to 89 degrees"
    elif (
        name == "contested_within"
        or name.startswith("xwing_obstacle")
        or name == "xwing_deployment"
    ):
        return
    elif name == "armada_tool":
        if not 0 < value["click_degrees"] <= 90:
            raise InvalidConstantError(
                "expected click_degrees above 0 and at most 90", where=f"constants.{name}"
            )
        low, high, what = 1e-3, 1e6, "positive lengths"
        values = [value[k] for k in ("to_pivot", "pivot_to_guides", "half_width")]
    else:
        low, high, what = 1e-3, 1e6, "positive lengths"
    if any(not low <= v <= high for v in values):
        raise InvalidConstantError(f"expected {what}, got {value!r}", where=f"constants.{name}")
