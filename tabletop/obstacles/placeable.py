"""Fixes a hand can place: a move that lands clear of the contested zone, and which way.

The shortest fix lands :data:`~tabletop.obstacles.fixing.FIX_CLEARANCE_MM` past the line,
which no hand can place and every judge would call contested. A placeable fix lands a
chosen clearance past every line (``tabletop check --clearance MM``); its answer says the
move in words, along the table's axes (x toward the right edge, y toward the top edge).

Examples
--------
>>> way_words(-25.237345, 4.80001)
'25.237345 mm left, 4.80001 mm up'
>>> way_words(0.0, -3.0)
'3.0 mm down'
>>> placeable_entry([1.5, 0.0], 1.1)
{'move': [1.5, 0.0], 'clearance': 1.1, 'way': '1.5 mm right'}
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from tabletop.geom.errors import InvalidInputError
from tabletop.geom.measure import json_mm
from tabletop.obstacles.fixing import FIX_CLEARANCE_MM
from tabletop.obstacles.verdicts import mm

__all__ = [
    "PLACEABLE_BEYOND_CONTESTED_MM",
    "check_clearance",
    "default_clearance",
    "placeable_entry",
    "way_words",
]

#: How far past the contested zone a default placeable fix lands, mm: a fix that lands
#: exactly ``contested_within`` past the line is still contested (the zone is closed), so
#: the default lands a tenth of a millimetre beyond it (1.1 mm past the line for the
#: 1.0 mm contested distance).
PLACEABLE_BEYOND_CONTESTED_MM = 0.1


def way_words(dx: float, dy: float) -> str:
    """Return a move in words: how far left or right, then up or down, mm."""
    parts = []
    if json_mm(dx) != 0.0:
        parts.append(f"{mm(abs(dx))} mm {'right' if dx > 0 else 'left'}")
    if json_mm(dy) != 0.0:
        parts.append(f"{mm(abs(dy))} mm {'up' if dy > 0 else 'down'}")
    return ", ".join(parts) or "no move"


def placeable_entry(move: Sequence[float], clearance: float) -> dict[str, Any]:
    """Return the ``placeable`` entry of a fix: the move, its clearance, and which way."""
    dx, dy = (json_mm(float(v)) for v in move)
    return {"move": [dx, dy], "clearance": json_mm(clearance), "way": way_words(dx, dy)}


def default_clearance(contested_within: float) -> float:
    """Return how far past every line a placeable fix lands by default, mm.

    Clear of the contested zone: ``contested_within`` and
    :data:`PLACEABLE_BEYOND_CONTESTED_MM` beyond it.

    Examples
    --------
    >>> default_clearance(1.0)
    1.1
    """
    return json_mm(contested_within + PLACEABLE_BEYOND_CONTESTED_MM)


def check_clearance(clearance: float) -> float:
    """Return a clearance a fix may be asked to keep, mm, or raise for one it may not.

    Raises
    ------
    InvalidInputError
        For a clearance that is not a finite number of at least the shortest fix's.
    """
    if not math.isfinite(clearance) or clearance < FIX_CLEARANCE_MM or clearance > 100.0:
        raise InvalidInputError(
            f"expected a length in mm from {FIX_CLEARANCE_MM:g} to 100 (how far past the "
            f"line a placeable fix lands), got {clearance!r}",
            where="--clearance",
        )
    return clearance
