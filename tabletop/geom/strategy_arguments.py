"""What the Hypothesis strategies of every layer share: their arguments checked, ids and bounds.

:mod:`tabletop.geom.strategies` and :mod:`tabletop.obstacles.strategies` check their
options the same way, raising :class:`~hypothesis.errors.InvalidArgument` when a strategy
is built with an impossible one (a minimum above its maximum, an unknown ruleset, a
negative size, a non-strategy where a strategy is expected), and draw ids and bounded
numbers the same way. Import it only where hypothesis is installed.

Examples
--------
>>> check_count("max_ships", 3)
3
>>> check_count("max_ships", -1)
Traceback (most recent call last):
...
hypothesis.errors.InvalidArgument: max_ships=-1 must be at least 0
"""

from __future__ import annotations

import math as _math
from collections.abc import Mapping
from typing import Any

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from tabletop.geom.areas import AREA_PRESETS, PlayArea, play_area
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.poses import MAX_COORDINATE_MM
from tabletop.geom.rulesets import CONSTANT_NAMES, RULESET_NAMES, RULESETS, Ruleset, get_ruleset

__all__ = [
    "area_argument",
    "bounded_floats",
    "check_count",
    "check_number",
    "check_order",
    "check_strategy",
    "default_ids",
    "drawn_id",
    "drawn_player",
    "ruleset_argument",
    "scene_constants",
    "unique_ids",
]


def check_number(name: str, value: Any, *, min_value: float | None = None) -> float:
    """Return `value` as a float: a finite number within the coordinate bound, at least `min_value`."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidArgument(f"{name}={value!r} must be a number")
    if not _math.isfinite(value):
        raise InvalidArgument(f"{name}={value!r} must be finite")
    if abs(value) > MAX_COORDINATE_MM:
        raise InvalidArgument(f"{name}={value!r} must be within ±{MAX_COORDINATE_MM:g}")
    if min_value is not None and value < min_value:
        raise InvalidArgument(f"{name}={value!r} must be at least {min_value:g}")
    return float(value)


def check_count(name: str, value: Any, *, min_value: int = 0) -> int:
    """Return `value`: an integer (not a bool) of at least `min_value`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgument(f"{name}={value!r} must be an integer")
    if value < min_value:
        raise InvalidArgument(f"{name}={value!r} must be at least {min_value}")
    return value


def check_order(low_name: str, low: float, high_name: str, high: float) -> None:
    """Refuse a minimum `low` above its maximum `high`."""
    if low > high:
        raise InvalidArgument(f"{low_name}={low!r} must be at most {high_name}={high!r}")


def check_strategy(name: str, value: Any) -> st.SearchStrategy[Any]:
    """Return `value`, which must be a strategy (not a fixed value)."""
    if not isinstance(value, st.SearchStrategy):
        raise InvalidArgument(
            f"{name}={value!r} must be a strategy (for a fixed value, pass st.just(value))"
        )
    return value


def ruleset_argument(value: Any) -> Ruleset:
    """Return the ruleset a ``ruleset`` option names (a name of the stock rulesets, or one)."""
    if isinstance(value, Ruleset):
        return value
    if not isinstance(value, str):
        raise InvalidArgument(f"ruleset={value!r} must be a ruleset name or a Ruleset")
    if value not in RULESET_NAMES:
        raise InvalidArgument(
            f"unknown ruleset={value!r}; expected one of: {', '.join(RULESET_NAMES)}"
        )
    return get_ruleset(value)


def area_argument(value: Any, ruleset: Ruleset | None = None) -> PlayArea:
    """Return the play area an ``area`` option names (None: the ruleset's default area)."""
    if value is None:
        return play_area(ruleset.default_area if ruleset is not None else "3x3ft")
    if isinstance(value, PlayArea):
        for key in ("width", "height"):
            check_number(f"area.{key}", getattr(value, key))
        if value.width <= 0 or value.height <= 0:
            raise InvalidArgument(f"area={value!r} must have a positive width and height")
        if value.name is not None and AREA_PRESETS.get(value.name) != (value.width, value.height):
            raise InvalidArgument(
                f"area={value!r} is named {value.name!r}, which is not the preset of that size"
            )
        return value
    if not isinstance(value, str | Mapping):
        raise InvalidArgument(
            f"area={value!r} must be a PlayArea, a preset name or a {{width, height}} mapping"
        )
    try:
        return play_area(value)
    except InvalidInputError as error:
        raise InvalidArgument(f"area={value!r}: {error}") from None


def scene_constants(ruleset: Ruleset) -> dict[str, Any]:
    """Return the ``[constants]`` that turn the stock ruleset into `ruleset`."""
    if ruleset.name not in RULESETS:
        raise InvalidArgument(
            f"ruleset named {ruleset.name!r} cannot be written in a scene; expected one of: "
            + ", ".join(RULESET_NAMES)
        )
    stock = RULESETS[ruleset.name]
    constants: dict[str, Any] = {}
    for name in CONSTANT_NAMES:
        value = getattr(ruleset, name)
        if value != getattr(stock, name):
            if isinstance(value, tuple):
                constants[name] = list(value)
            elif isinstance(value, Mapping):
                constants[name] = dict(value)
            else:
                constants[name] = value
    if get_ruleset(ruleset.name, constants) != ruleset:
        raise InvalidArgument(
            f"ruleset {ruleset.name!r} differs from the stock one in more than its "
            "[constants], so scenes of it cannot be written as scene files"
        )
    return constants


def drawn_id(value: Any) -> str:
    """Return an id drawn from a user's strategy, which must be a non-blank string."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidArgument(f"ids must generate non-blank strings, got {value!r}")
    return value


def drawn_player(value: Any, *, optional: bool) -> int | None:
    """Return a player drawn from a user's strategy: 1 or 2 (or None where `optional`)."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in (1, 2):
        allowed = "1, 2 or None" if optional else "1 or 2"
        raise InvalidArgument(f"players must generate {allowed}, got {value!r}")
    return value


def unique_ids(names: list[str]) -> list[str]:
    """Make repeated ids unique by a suffix: ``a``, ``a`` → ``a``, ``a~2``."""
    seen: set[str] = set()
    unique = []
    for name in names:
        candidate, number = name, 1
        while candidate in seen:
            number += 1
            candidate = f"{name}~{number}"
        seen.add(candidate)
        unique.append(candidate)
    return unique


def default_ids() -> st.SearchStrategy[str]:
    """Non-blank text by construction: a first character that is not whitespace."""
    first = st.characters(exclude_categories=("Cs", "Zs", "Zl", "Zp", "Cc")).filter(
        lambda c: not c.isspace()
    )
    tail = st.text(st.characters(codec="utf-8"), max_size=15)
    return st.builds(lambda head, tail: head + tail, first, tail)


def bounded_floats(low: float, high: float) -> st.SearchStrategy[float]:
    """Floats in ``[low, high]``, each bound drawn a tenth of the time; shrinks to `low`."""

    def pick(choice: tuple[int, float]) -> float:
        which, value = choice
        return low if which == 0 else high if which == 1 else value

    return st.tuples(st.integers(0, 9), st.floats(low, high)).map(pick)
