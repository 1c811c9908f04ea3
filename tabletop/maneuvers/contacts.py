"""Close calls of a move: how near its final base and template come to obstacles and ships.

A ship that ends 0.3 mm clear of a rock, or 0.3 mm on it, is where a judge is called
(``rules.md``: within ``contested_within`` of a line is contested; overlap is a shared
area). Each :class:`Contact` gives the signed margin: positive, the clearance; zero,
touching (not overlapping); negative, how deep the overlap is (the shortest move of the
ship's part that separates them, exact from the Minkowski sum).

Examples
--------
>>> Contact("rock", "base", -0.25, True).words()
'rock: the final base overlaps it by 0.25 mm, contested'
>>> Contact("rock", "template", 0.4, True).to_json()
{'id': 'rock', 'part': 'template', 'margin': 0.4, 'contested': True}
"""

from __future__ import annotations

import dataclasses as _dc
from collections.abc import Iterable
from typing import Any, Literal

import shapely

from tabletop.geom.measure import json_mm
from tabletop.geom.tolerance import EPSILON_MM, within
from tabletop.obstacles.legality import overlap_depth
from tabletop.obstacles.verdicts import mm

__all__ = ["Contact", "close_calls"]

_PART_WORDS = {"base": "the final base", "template": "the template"}


@_dc.dataclass(frozen=True, slots=True)
class Contact:
    """How near one part of the move came to one obstacle or ship.

    Attributes
    ----------
    id : str
        The obstacle or ship.
    part : {"base", "template"}
        The final base (guides included where they count) or the template that counted.
    margin : float
        Signed, mm: the clearance; 0 touching; minus the overlap's depth.
    contested : bool
        ``|margin| <= contested_within``.
    """

    id: str
    part: Literal["base", "template"]
    margin: float
    contested: bool

    def to_json(self) -> dict[str, Any]:
        """Return ``{"id", "part", "margin", "contested"}``."""
        return {
            "id": self.id,
            "part": self.part,
            "margin": json_mm(self.margin),
            "contested": self.contested,
        }

    def words(self) -> str:
        """Return the contact for people."""
        flag = ", contested" if self.contested else ""
        part = _PART_WORDS[self.part]
        if abs(self.margin) <= EPSILON_MM:
            return f"{self.id}: {part} touches it (touching is not overlapping){flag}"
        amount = mm(abs(self.margin))
        if self.margin > 0.0:
            return f"{self.id}: {part} clears it by {amount} mm{flag}"
        return f"{self.id}: {part} overlaps it by {amount} mm{flag}"


def _margin(part: shapely.Geometry, other: shapely.Geometry, reach: float) -> float | None:
    """Return the signed margin of `part` against `other` (None beyond `reach`)."""
    gap = float(shapely.distance(part, other))
    if gap > EPSILON_MM:
        return gap if gap <= reach + EPSILON_MM else None
    shared = shapely.intersection(part, other)
    if shared.area <= EPSILON_MM * EPSILON_MM:
        return 0.0
    # An overlap whose shared area holds a disk wider than `reach` is deeper than it:
    # no move that short separates them (the disk's centre stays covered).
    if not shapely.buffer(shared, -reach - EPSILON_MM).is_empty:
        return None
    return -overlap_depth(part, other)


def close_calls(
    parts: Iterable[tuple[Literal["base", "template"], shapely.Geometry | None]],
    others: Iterable[tuple[str, shapely.Geometry]],
    within_mm: float,
) -> tuple[Contact, ...]:
    """Return every contact of the move's parts within `within_mm`, smallest margin first.

    Parameters
    ----------
    parts : iterable of (part name, geometry or None)
        The final base and the template that counted (None: no template).
    others : iterable of (id, geometry)
        The obstacles and ships to look at.
    within_mm : float
        The contested distance.
    """
    shapes = [(name, geometry) for name, geometry in parts if geometry is not None]
    found = []
    for ident, other in others:
        for name, geometry in shapes:
            if geometry.is_empty:
                continue
            margin = _margin(geometry, other, within_mm)
            if margin is not None and within(abs(margin), within_mm):
                found.append(Contact(ident, name, margin, True))
    return tuple(sorted(found, key=lambda c: (c.margin, c.id, c.part)))
