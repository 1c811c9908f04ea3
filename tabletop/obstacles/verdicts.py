"""What ``tabletop check`` found: each measurement a rule made, each broken rule, the report.

Every rule with a line measures a number for each object (or pair) it looks at: a
:class:`Margin` (the measured distance, the rule's limit, the signed margin, positive is
legal, and whether it is contested). A :class:`Violation` is a broken rule with the same
numbers, a sentence a judge can read out and, for placement rules, the shortest move that
makes that obstacle legal. :class:`CheckReport` holds both.

Examples
--------
>>> m = Margin("obstacle-edge", ("rock",), 200.8, 200.0, 0.8, True, None)
>>> m.describe()
'obstacle-edge rock: measured 200.8 mm, limit 200.0 mm, margin +0.8 mm, contested'
>>> mm(0.001412), mm(195.2), mm(-0.0)
('0.001412', '195.2', '0.0')
"""

from __future__ import annotations

import dataclasses as _dc
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tabletop.geom.measure import json_mm
from tabletop.geom.mmtext import mm
from tabletop.geom.poses import FloatArray

__all__ = ["PLACEMENT_RULES", "CheckReport", "Margin", "Violation", "mm"]

#: The rules that place a token against a measured line (an edge band, the spacing, the
#: setup area, the deployment zone): a legal placement within ``contested_within`` of
#: its line is listed as "legal, contested".
PLACEMENT_RULES = ("obstacle-edge", "obstacle-spacing", "obstacle-setup-area", "ship-deployment")


def _points_json(points: FloatArray | None) -> list[list[float]] | None:
    if points is None:
        return None
    # As Python floats first: rounding a float is several times quicker than a numpy one.
    return [[json_mm(x), json_mm(y)] for x, y in np.asarray(points).tolist()]


@_dc.dataclass(frozen=True, slots=True, eq=False)
class Margin:
    """One measurement a rule made, legal or not.

    Attributes
    ----------
    rule : str
        The rule id.
    objects : tuple of str
        The ids measured.
    distance, limit, margin : float
        The measured distance, the rule's line and the signed margin (positive is legal),
        mm.
    contested : bool
        ``|margin| <= contested_within``.
    points : ndarray of shape (2, 2) or None
        The two points that gave `distance` (None where the rule has no such pair).
    ruling : str or None
        When contested, how a judge rules it at the line
        (:func:`tabletop.obstacles.rulings.rule_ruling`); else None.
    """

    rule: str
    objects: tuple[str, ...]
    distance: float
    limit: float
    margin: float
    contested: bool
    points: FloatArray | None
    ruling: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the entry of ``margins`` in ``tabletop check --margins --json``."""
        return {
            "rule": self.rule,
            "objects": list(self.objects),
            "distance": json_mm(self.distance),
            "limit": json_mm(self.limit),
            "margin": json_mm(self.margin),
            "contested": self.contested,
            "points": _points_json(self.points),
            "ruling": self.ruling,
        }

    def describe(self, *, flag: bool = True) -> str:
        """Return the one line ``tabletop check --margins`` prints for it.

        `flag` False leaves out the ``contested`` word (the line says it already).
        """
        mark = ", contested" if self.contested and flag else ""
        return (
            f"{self.rule} {' '.join(self.objects)}: measured {mm(self.distance)} mm, "
            f"limit {mm(self.limit)} mm, margin {mm(self.margin, sign=True)} mm{mark}"
        )


@_dc.dataclass(frozen=True, eq=False)
class Violation:
    """One broken rule.

    Attributes
    ----------
    rule : str
        One of :data:`tabletop.obstacles.legality.RULES`.
    objects : tuple of str
        The ids involved.
    distance, limit, margin : float or None
        The measured distance (how close, how far over the line, how far off the table,
        how deep the overlap), the rule's line and the margin, signed so that positive
        is legal. None only for rules without a line (composition, a squadron with no
        friendly ship).
    contested : bool
        ``|margin| <= contested_within``.
    points : ndarray of shape (2, 2) or None
        The two points that gave `distance`.
    message : str
        A sentence a judge can read out.
    fix : mapping or None
        For placement rules: ``{"object": id, "move": [dx, dy], "way": words,
        "placeable": {...}}``, the shortest move of the object being placed (else the
        first object) that makes it legal with everything else held still, which way it
        goes in words, and a move a hand can place (clear of the contested zone), or None
        when no position at this rotation is legal (or fixes were not asked for).
    fixable : bool
        Whether the rule carries a ``fix`` key at all.
    ruling : str or None
        When contested, how a judge rules it at the rule's line; else None.
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
    ruling: str | None = None

    @classmethod
    def plain(
        cls,
        rule: str,
        objects: Sequence[str],
        message: str,
        fix: Mapping[str, Any] | None = None,
        *,
        fixable: bool = False,
    ) -> Violation:
        """Return a violation of a rule without a line (null distance, limit, margin)."""
        return cls(rule, tuple(objects), None, None, None, False, None, message, fix, fixable)

    @classmethod
    def measured(
        cls,
        found: Margin,
        message: str,
        fix: Mapping[str, Any] | None = None,
        *,
        fixable: bool = False,
    ) -> Violation:
        """Return the violation of a measurement that broke its rule."""
        return cls(
            found.rule,
            found.objects,
            found.distance,
            found.limit,
            found.margin,
            found.contested,
            found.points,
            message,
            fix,
            fixable,
            found.ruling,
        )

    def to_json(self) -> dict[str, Any]:
        """Return the violation object of ``tabletop check --json``."""
        out: dict[str, Any] = {
            "rule": self.rule,
            "objects": list(self.objects),
            "distance": None if self.distance is None else json_mm(self.distance),
            "limit": None if self.limit is None else json_mm(self.limit),
            "margin": None if self.margin is None else json_mm(self.margin),
            "contested": self.contested,
            "points": _points_json(self.points),
            "ruling": self.ruling,
            "message": self.message,
        }
        if self.fixable:
            out["fix"] = None if self.fix is None else dict(self.fix)
        return out

    def describe(self, number: int, *, fixes: bool = True) -> str:
        """Return the lines ``tabletop check`` prints for this violation, numbered `number`."""
        lines = [f"  {number}. {self.rule}: {self.message}"]
        if self.distance is not None and self.limit is not None and self.margin is not None:
            contested = (
                "  CONTESTED (within the contested distance of the line)" if self.contested else ""
            )
            lines.append(
                f"     measured {mm(self.distance)} mm, limit {mm(self.limit)} mm, "
                f"margin {mm(self.margin, sign=True)} mm{contested}"
            )
        if self.ruling:
            lines.append(f"     ruling: {self.ruling}")
        if self.points is not None:
            (x0, y0), (x1, y1) = np.asarray(self.points)
            lines.append(f"     closest points ({mm(x0)}, {mm(y0)}) to ({mm(x1)}, {mm(y1)})")
        if self.fixable and fixes:
            if self.fix is None:
                lines.append(f"     fix: no legal position for {self.objects[0]} at this rotation")
            else:
                dx, dy = self.fix["move"]
                way = f" ({self.fix['way']})" if "way" in self.fix else ""
                lines.append(
                    f"     fix: move {self.fix['object']} by ({mm(dx, sign=True)}, "
                    f"{mm(dy, sign=True)}) mm{way}, the shortest (just past the line)"
                )
                if "placeable" in self.fix:
                    lines.append(_placeable_line(self.fix["object"], self.fix["placeable"]))
        return "\n".join(lines)


def _placeable_line(ident: str, placeable: Mapping[str, Any] | None) -> str:
    """Return the line of a fix a hand can place (``tabletop check --clearance``)."""
    if placeable is None:
        return f"     placeable: no position of {ident} at this rotation clears every line"
    dx, dy = placeable["move"]
    return (
        f"     placeable: move {ident} by ({mm(dx, sign=True)}, {mm(dy, sign=True)}) mm "
        f"({placeable['way']}), {mm(placeable['clearance'])} mm past every line"
    )


@_dc.dataclass(frozen=True, eq=False)
class CheckReport:
    """Everything :func:`tabletop.obstacles.legality.check` found.

    Attributes
    ----------
    ruleset : str
        The ruleset name.
    violations : tuple of Violation
        In rule order, then object order.
    checked : mapping of str to int
        What each rule looked at (obstacles, pairs, ships).
    margins : tuple of Margin or None
        Every measurement the rules made, smallest margin first (None unless asked for).
    fixes : bool
        Whether fixes were computed.
    contested : tuple of Margin
        Legal placements (:data:`PLACEMENT_RULES`) within ``contested_within`` of their
        line, smallest margin first: where a judge is called although the rule holds.
    """

    ruleset: str
    violations: tuple[Violation, ...]
    checked: Mapping[str, int]
    margins: tuple[Margin, ...] | None = None
    fixes: bool = True
    contested: tuple[Margin, ...] = ()

    @property
    def legal(self) -> bool:
        """Whether no rule is broken."""
        return not self.violations

    def to_json(self) -> dict[str, Any]:
        """Return the object of ``tabletop check --json`` (``margins`` when asked for)."""
        out: dict[str, Any] = {
            "ruleset": self.ruleset,
            "legal": self.legal,
            "violations": [v.to_json() for v in self.violations],
            "checked": dict(self.checked),
        }
        if self.margins is not None:
            out["margins"] = [m.to_json() for m in self.margins]
        if self.contested:
            out["contested"] = [
                {**m.to_json(), "verdict": "legal, contested"} for m in self.contested
            ]
        return out

    def describe(self, source: str) -> str:
        """Return the report ``tabletop check`` prints, headed by `source` (the scene's name)."""
        verdict = "legal" if self.legal else f"ILLEGAL: {len(self.violations)} violation(s)"
        if self.contested:
            verdict += f"; {len(self.contested)} legal placement(s) contested"
        lines = [f"{source}: {self.ruleset}, {verdict}"]
        lines.extend(v.describe(i, fixes=self.fixes) for i, v in enumerate(self.violations, 1))
        for m in self.contested:
            lines.append(f"  legal, contested: {m.describe(flag=False)}")
            if m.ruling:
                lines.append(f"    ruling: {m.ruling}")
        counted = ", ".join(f"{rule} {n}" for rule, n in self.checked.items())
        lines.append(f"  checked: {counted}")
        if self.margins is not None:
            lines.append(f"  margins ({len(self.margins)}, smallest first):")
            lines.extend(f"    {m.describe()}" for m in self.margins)
        return "\n".join(lines)
