"""What to rule on a contested call: the line that raised the flag, and the ruling.

rules.md (Measuring): a measurement that falls exactly on the line between two bands
counts as the shorter band, and one within ``contested_within`` of a band line is
contested. :func:`contested_ruling` names that line (the nearest band line, range 0's
"touching" included where the game has it) and says how it is ruled, so that the line,
the margin and the flag refer to one and the same line. :func:`rule_ruling` does the
same for a setup rule's line (``check``), its words derived from the rule's comparison
(:class:`~tabletop.geom.rules.RuleLine`); both are written by :meth:`Ruling.text`.

Examples
--------
>>> from tabletop.geom.rulesets import get_ruleset
>>> contested_ruling(get_ruleset("xwing2"), 200.0005).text()
'within 1.0 mm of the 200.0 mm line (0.0005 mm beyond it): on the line counts as range 2'
>>> contested_ruling(get_ruleset("xwing2"), 0.4).text()
'within 1.0 mm of touching (0.4 mm apart): touching counts as range 0'
>>> contested_ruling(get_ruleset("armada"), 123.9).words
'on the line counts as close range'

Between two lines, both are named: Armada's 124.0 mm is 0.5 mm beyond the close-range
line and 0.5 mm inside the distance-2 line.

>>> print(contested_ruling(get_ruleset("armada"), 124.0).text())
within 1.0 mm of the 123.5 mm line (0.5 mm beyond it): on the line counts as close range; also within 1.0 mm of the 124.5 mm line (0.5 mm inside it): on the line counts as distance 2
>>> contested_ruling(get_ruleset("xwing2"), 150.0) is None
True
>>> spacing = get_ruleset("xwing2").obstacle_placement.spacing_line
>>> rule_ruling(spacing, 0.4, 1.0).text()
'within 1.0 mm of the 100.0 mm spacing line (0.4 mm beyond it): legal only beyond it (exactly 100.0 mm is too close)'
"""

from __future__ import annotations

import dataclasses as _dc
import functools
from typing import TYPE_CHECKING, Any

from tabletop.geom.measure import json_mm
from tabletop.geom.mmtext import mm
from tabletop.geom.rules import BandKind
from tabletop.geom.rulesets import ArmadaRuleset, Ruleset
from tabletop.geom.tolerance import EPSILON_MM, same_length, within

if TYPE_CHECKING:
    from tabletop.geom.rulelines import RuleLine

__all__ = [
    "RANGE_BAND_NAMES",
    "LineReport",
    "Ruling",
    "contested_ruling",
    "line_report",
    "question_lines",
    "rule_ruling",
]

#: Armada range bands by index (also :data:`tabletop.obstacles.measurement.RANGE_BAND_NAMES`).
RANGE_BAND_NAMES: tuple[str, ...] = ("close", "medium", "long")


@_dc.dataclass(frozen=True, slots=True)
class Ruling:
    """The line a contested measurement is near, and how a judge rules it.

    Attributes
    ----------
    line : float
        The band line that raised the flag, mm (0: touching, range 0).
    margin : float
        ``line - distance``, mm: positive on the shorter side of it (inside).
    words : str
        How the line is ruled: ``"on the line counts as range 2"``.
    within_mm : float
        The contested distance.
    name : str
        What the line is (``"spacing"``; a boundary's ``"setup-area line"``), empty for a
        band line.
    boundary : bool
        The line is a boundary (a table edge, a setup-area line), named without a length.
    also : tuple of Ruling
        Any other line within the contested distance (Armada's two rulers: 124.0 mm is
        0.5 mm from the 123.5 mm range line and the 124.5 mm distance line), nearest first.
    """

    line: float
    margin: float
    words: str
    within_mm: float
    name: str = ""
    boundary: bool = False
    also: tuple[Ruling, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Return ``{"contested_line", "contested_margin", "ruling"}``."""
        return {
            "contested_line": json_mm(self.line),
            "contested_margin": json_mm(self.margin),
            "ruling": self.text(),
        }

    def text(self) -> str:
        """Return the ruling for people, the margin to the micrometre; every line named."""
        return "; also ".join([self._text(), *(other._text() for other in self.also)])

    def _text(self) -> str:
        if self.line == 0.0 and not self.boundary:
            if abs(self.margin) <= EPSILON_MM:
                apart = "touching"
            elif self.margin > 0.0:
                apart = f"{mm(self.margin)} mm overlapping"
            else:
                apart = f"{mm(-self.margin)} mm apart"
            return f"within {mm(self.within_mm)} mm of touching ({apart}): {self.words}"
        side = "inside" if self.margin >= -EPSILON_MM else "beyond"
        where = (
            "on it" if abs(self.margin) <= EPSILON_MM else f"{mm(abs(self.margin))} mm {side} it"
        )
        if self.boundary:
            line = f"the {self.name}"
        else:
            named = f" {self.name}" if self.name else ""
            line = f"the {mm(self.line)} mm{named} line"
        return f"within {mm(self.within_mm)} mm of {line} ({where}): {self.words}"


def _band_names(ruleset: Ruleset, line: float, *, attack: bool = False) -> list[str]:
    names = []
    kinds = ("range",) if attack and "range" in ruleset.band_kinds else ruleset.band_kinds
    for kind in kinds:
        for index, each in enumerate(ruleset.band_lines_of(kind)):
            if same_length(each, line):
                names.append(_band_name(ruleset, kind, index))
    return names


@functools.singledispatch
def _band_name(ruleset: Ruleset, kind: BandKind, index: int) -> str:
    """Return the words for band ``index + 1`` of a scale: numbered (``range 2``)."""
    return f"{kind} {index + 1}"


@_band_name.register(ArmadaRuleset)
def _armada_band_name(ruleset: ArmadaRuleset, kind: BandKind, index: int) -> str:
    """Return Armada's words: its range bands are named (``medium range``)."""
    return f"{RANGE_BAND_NAMES[index]} range" if kind == "range" else f"{kind} {index + 1}"


def question_lines(ruleset: Ruleset, *, attack: bool = False) -> tuple[float, ...]:
    """Return the band lines a measurement's question is asked against, mm.

    An Armada attack asks for a range: its lines are the range ruler's (close, medium,
    long), never the distance ruler's. Every other measurement asks against every band
    line of the game.

    Examples
    --------
    >>> from tabletop.geom.rulesets import get_ruleset
    >>> question_lines(get_ruleset("armada"), attack=True)
    (123.5, 187.0, 304.8)
    >>> question_lines(get_ruleset("xwing2"), attack=True)
    (100.0, 200.0, 300.0, 400.0, 500.0)
    """
    if attack and "range" in ruleset.band_kinds and len(ruleset.band_kinds) > 1:
        return tuple(ruleset.band_lines_of("range"))
    return tuple(ruleset.band_lines)


@_dc.dataclass(frozen=True, slots=True)
class LineReport:
    """The line a measurement is reported against, its margin and the contested flag.

    Attributes
    ----------
    line : float
        The line, mm: touching (0) when it raised the flag, else the nearest band line.
    margin : float
        ``line - distance``, mm.
    contested : bool
        Within ``contested_within`` of `line`.
    """

    line: float
    margin: float
    contested: bool


def line_report(ruleset: Ruleset, distance: float, *, attack: bool = False) -> LineReport:
    """Return the line a distance (mm) is reported against: the flag's line, when flagged.

    The flag, `line` and `margin` always name one line. Touching is that line only where
    it is a band of its own (X-Wing 2.0 range 0) and it raised the flag; otherwise the
    nearest line of :func:`question_lines`.

    Examples
    --------
    >>> from tabletop.geom.rulesets import get_ruleset
    >>> line_report(get_ruleset("xwing2"), 0.4)
    LineReport(line=0.0, margin=-0.4, contested=True)
    >>> line_report(get_ruleset("xwing2"), 30.0)
    LineReport(line=100.0, margin=70.0, contested=False)
    >>> line_report(get_ruleset("armada"), 136.7, attack=True).line
    123.5
    """
    lines = question_lines(ruleset, attack=attack)
    within_mm = ruleset.contested_within
    nearest = min(lines, key=lambda line: (abs(distance - line), line))
    touching = ruleset.zero_band(ruleset.band_kinds[0]) and within(distance, within_mm)
    if touching and not within(abs(distance - nearest), within_mm):
        nearest = 0.0
    margin = nearest - distance
    margin = 0.0 if same_length(margin, 0.0) else round(float(margin), 9)
    return LineReport(float(nearest), margin, bool(within(abs(distance - nearest), within_mm)))


def contested_ruling(ruleset: Ruleset, distance: float, *, attack: bool = False) -> Ruling | None:
    """Return the ruling of a contested distance (mm), or None when it is not contested.

    `attack`: an Armada attack is ruled against the range ruler's lines alone.
    """
    found = line_report(ruleset, distance, attack=attack)
    if not found.contested:
        return None
    if found.line == 0.0:
        words = f"touching counts as {ruleset.band_kinds[0]} 0"
    else:
        words = "on the line counts as " + " and ".join(
            _band_names(ruleset, found.line, attack=attack)
        )
    within_mm = ruleset.contested_within
    others = sorted(
        (
            line
            for line in question_lines(ruleset, attack=attack)
            if not same_length(line, found.line) and within(abs(distance - line), within_mm)
        ),
        key=lambda line: (abs(distance - line), line),
    )
    also = tuple(
        Ruling(
            line,
            line - distance,
            "on the line counts as " + " and ".join(_band_names(ruleset, line, attack=attack)),
            within_mm,
        )
        for line in others
    )
    return Ruling(found.line, found.line - distance, words, within_mm, also=also)


def rule_ruling(rule: RuleLine, margin: float, within_mm: float) -> Ruling:
    """Return the ruling at a setup rule's line, its words from the rule's comparison.

    Parameters
    ----------
    rule : RuleLine
        The rule's line and comparison (asked of the rules object).
    margin : float
        The check's signed margin, mm: positive is legal, 0 on the line.
    within_mm : float
        The contested distance.

    Examples
    --------
    >>> from tabletop.geom.rulesets import get_ruleset
    >>> rules = get_ruleset("xwing2")
    >>> rule_ruling(rules.deployment_line, 0.3, 1.0).text()
    'within 1.0 mm of the 100.0 mm deployment line (0.3 mm inside it): legal on it or inside it (exactly 100.0 mm is legal)'
    >>> rule_ruling(rules.overlap_line, -0.2, 1.0).text()
    'within 1.0 mm of touching (0.2 mm overlapping): legal touching or apart (touching is not overlapping)'
    """
    if rule.boundary:
        on = "touching the line"
    elif rule.line == 0.0:
        on = "touching"
    else:
        on = f"exactly {mm(rule.line)} mm"
    side = rule.legal
    if rule.line == 0.0 and not rule.boundary:
        # Touching: the sides of the line are apart and overlapping.
        words = (
            "legal touching or apart (touching is not overlapping)"
            if rule.closed
            else "legal only apart (touching is too close)"
        )
    elif rule.closed:
        words = f"legal on it or {side} it ({on} is legal)"
    else:
        too = "too close" if side == "beyond" else "too far"
        words = f"legal only {side} it ({on} is {too})"
    # Ruling.margin is line - length, positive on the near side: the check's margin
    # (positive legal) turned to that side.
    toward = margin if side == "inside" else -margin
    return Ruling(rule.line, toward, words, within_mm, rule.name, rule.boundary)
