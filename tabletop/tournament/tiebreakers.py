"""The tiebreakers a regulation may rank by after TP: one entry each, with all it takes.

Each :class:`Tiebreaker` says how it is named in a regulation, its heading in a standings
table, its value for ranking (higher ranks first), its text in a table and its field in
the standings JSON. :data:`TIEBREAKERS` holds them all; a :class:`~tabletop.tournament.
regulations.Regulation` naming any other is refused when it is made. A new tiebreaker is
one more entry here (and, if it needs a figure no standing has yet, that figure in
:mod:`tabletop.tournament.standings`).

Examples
--------
>>> from fractions import Fraction
>>> from types import SimpleNamespace
>>> row = SimpleNamespace(tp=7, mov=120, sos=Fraction(31, 2), esos=Fraction(7, 3))
>>> [t.heading for t in tiebreakers(("sos-average", "esos"))]
['SoS', 'ESoS']
>>> [t.text(row, 3) for t in tiebreakers(("sos-average", "esos"))]
['15.500', '2.333']
>>> [t.json(row) for t in tiebreakers(("mov",))]
[120]
>>> tiebreakers(("mov", "coin"))
Traceback (most recent call last):
...
tabletop.tournament.errors.RegulationError: unknown tiebreaker 'coin'; expected one of: mov, sos, sos-average, esos
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from tabletop.tournament.errors import RegulationError

__all__ = ["TIEBREAKERS", "Figures", "Tiebreaker", "sos_is_average", "tiebreakers"]


class Figures(Protocol):
    """What a standings row knows of a player: the figures tiebreakers are made of."""

    @property
    def tp(self) -> int:
        """Tournament points."""

    @property
    def mov(self) -> int:
        """Margin of victory, summed."""

    @property
    def sos(self) -> Fraction:
        """Strength of schedule as the regulation computes it (a sum or an average)."""

    @property
    def esos(self) -> Fraction:
        """Extended strength of schedule: the average of the opponents' SoS."""


@dataclass(frozen=True, slots=True)
class Tiebreaker:
    """One tiebreaker.

    Attributes
    ----------
    name : str
        Its name in :attr:`Regulation.tiebreakers <tabletop.tournament.regulations.Regulation.tiebreakers>`.
    heading : str
        Its column heading in a standings table.
    field : str
        Its key in a player's entry of the standings JSON.
    value : callable
        A row's value for ranking (exact; higher ranks first).
    text : callable
        A row's text in a table, given the decimals to show.
    json : callable
        A row's value in the standings JSON.
    averages_sos : bool
        Whether a regulation ranking by it computes SoS as an average per round played
        (otherwise SoS is the sum of the opponents' TP).
    """

    name: str
    heading: str
    field: str
    value: Callable[[Figures], Fraction]
    text: Callable[[Figures, int], str]
    json: Callable[[Figures], Any]
    averages_sos: bool = False


def _decimals(value: Fraction, decimals: int) -> str:
    return f"{float(value):.{decimals}f}"


def _fraction(value: Fraction) -> dict[str, Any]:
    return {"value": float(value), "exact": f"{value.numerator}/{value.denominator}"}


#: Every tiebreaker, by name.
TIEBREAKERS: dict[str, Tiebreaker] = {
    t.name: t
    for t in (
        Tiebreaker(
            "mov",
            "MoV",
            "mov",
            value=lambda row: Fraction(row.mov),
            text=lambda row, decimals: str(row.mov),
            json=lambda row: row.mov,
        ),
        Tiebreaker(
            "sos",
            "SoS",
            "sos",
            value=lambda row: row.sos,
            text=lambda row, decimals: str(int(row.sos)),
            json=lambda row: int(row.sos),
        ),
        Tiebreaker(
            "sos-average",
            "SoS",
            "sos",
            value=lambda row: row.sos,
            text=lambda row, decimals: _decimals(row.sos, decimals),
            json=lambda row: _fraction(row.sos),
            averages_sos=True,
        ),
        Tiebreaker(
            "esos",
            "ESoS",
            "esos",
            value=lambda row: row.esos,
            text=lambda row, decimals: _decimals(row.esos, decimals),
            json=lambda row: _fraction(row.esos),
        ),
    )
}


def tiebreakers(names: Iterable[str]) -> tuple[Tiebreaker, ...]:
    """Return the tiebreakers `names` names, in order.

    Raises
    ------
    RegulationError
        For a name not in :data:`TIEBREAKERS`, a name given twice, or two that give one
        JSON field (``sos`` and ``sos-average``).
    """
    found: list[Tiebreaker] = []
    for name in names:
        if name not in TIEBREAKERS:
            raise RegulationError(
                f"unknown tiebreaker {name!r}; expected one of: {', '.join(TIEBREAKERS)}"
            )
        tiebreaker = TIEBREAKERS[name]
        clash = next((t for t in found if t.field == tiebreaker.field), None)
        if clash is not None:
            again = "given twice" if clash is tiebreaker else f"the same figure as {clash.name!r}"
            raise RegulationError(f"tiebreaker {name!r} is {again}")
        found.append(tiebreaker)
    return tuple(found)


def sos_is_average(names: Iterable[str]) -> bool:
    """Return whether ranking by `names` computes SoS as an average per round played."""
    return any(t.averages_sos for t in tiebreakers(names))
