"""Setup legality: every rule ``tabletop check`` applies, one commented block per rule.

:func:`check` reports every problem of a scene as a :class:`Violation` (it never raises
for a rule broken); :meth:`CheckReport.legal` is the yes/no on top. Each violation with a
distance carries the measured number, the limit, the margin (positive is legal), the
contested flag, the closest points and a sentence a judge can read out; placement
violations also carry the shortest move that makes that obstacle legal.
"""

from __future__ import annotations

import dataclasses as _dc
from collections.abc import Mapping
from typing import Any

import numpy as np

from geom.poses import FloatArray
from obstacles.measuring import json_mm

__all__ = ["RULES", "CheckReport", "Violation"]

#: Rule ids, in report order.
RULES: tuple[str, ...] = (
    "obstacle-edge",
    "obstacle-spacing",
    "obstacle-setup-area",
    "obstacle-composition",
    "ship-deployment",
    "ship-overlap",
    "outside-play-area",
)


@_dc.dataclass(frozen=True, eq=False)
class Violation:
    """One broken rule.

    Attributes
    ----------
    rule : str
        One of :data:`RULES`.
    objects : tuple of str
        The ids involved.
    distance, limit, margin : float or None
        The measured distance, the rule's limit and ``measured - limit`` signed so that
        positive is legal (None for rules without a distance).
    contested : bool
        ``|measured - limit| <= contested_within``.
    points : ndarray of shape (2, 2) or None
        The closest points that gave `distance`.
    message : str
        A sentence a judge can read out.
    fix : mapping or None
        For placement rules: ``{"move": [dx, dy]}``, the shortest move of the first
        object that makes it legal with everything else held still, or None when no
        position at this rotation is legal.
    fixable : bool
        Whether the rule carries a ``fix`` key at all.
    """

    rule: str
    objects: tuple[str, ...]
    distance: float | None
    limit: float | None
    margin: float | None
    contested: bool
    points: FloatArray | None
    message: str
    fix: Mapping[str, Any] | None = None
    fixable: bool = False

    def to_json(self) -> dict[str, Any]:
        """Return the violation object of ``tabletop check --json``."""
        out: dict[str, Any] = {
            "rule": self.rule,
            "objects": list(self.objects),
            "distance": None if self.distance is None else json_mm(self.distance),
            "limit": None if self.limit is None else json_mm(self.limit),
            "margin": None if self.margin is None else json_mm(self.margin),
            "contested": self.contested,
            "points": None
            if self.points is None
            else [[json_mm(x), json_mm(y)] for x, y in np.asarray(self.points)],
            "message": self.message,
        }
        if self.fixable:
            out["fix"] = None if self.fix is None else dict(self.fix)
        return out


@_dc.dataclass(frozen=True, eq=False)
class CheckReport:
    """Everything :func:`check` found.

    Attributes
    ----------
    ruleset : str
        The ruleset name.
    violations : tuple of Violation
        In rule order, then object order.
    checked : mapping of str to int
        What each rule looked at (obstacles, pairs, ships).
    """

    ruleset: str
    violations: tuple[Violation, ...]
    checked: Mapping[str, int]

    @property
    def legal(self) -> bool:
        """Whether no rule is broken."""
        return not self.violations

    def to_json(self) -> dict[str, Any]:
        """Return the object of ``tabletop check --json``."""
        return {
            "ruleset": self.ruleset,
            "legal": self.legal,
            "violations": [v.to_json() for v in self.violations],
            "checked": dict(self.checked),
        }
