"""Lengths in human reports: enough decimals that a number never reads as zero or as its line.

A report that prints 0.1 mm steps says "100.0 mm, margin -0.0" for a measurement
0.00004 mm beyond a 100 mm line, and "move A by (+0.00, +0.00)" for a fix of 0.001 mm:
both read as the line itself, or as nothing to do. :func:`mm_text` starts at the usual
number of decimals and adds more, up to the one length tolerance
(:data:`tabletop.geom.tolerance.EPSILON_MM`, six decimals), until

* a length that is not zero within the tolerance does not print as zero, and
* a length that is not on its line within the tolerance does not print as the line (and
  so stays on its own side of it: rounding never carries a number across its line).

A length within the tolerance of zero prints as zero, never ``-0.0``: signed, ``+0.0``
(a margin of zero is on the line, which is inside it).
JSON output keeps its own rounding (:func:`tabletop.geom.measure.json_mm`); this is for people.

Examples
--------
>>> mm_text(150.0), mm_text(99.96, line=100.0), mm_text(100.00004, line=100.0)
('150.0', '99.96', '100.00004')
>>> mm_text(-0.00004, signed=True), mm_text(-0.0000004, signed=True)
('-0.00004', '+0.0')
>>> mm_text(0.0014, digits=2, signed=True), mm_text(-3.25, digits=2, signed=True)
('+0.001', '-3.25')
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletop.geom.tolerance import EPSILON_MM

__all__ = [
    "MOST_DECIMALS",
    "mm",
    "mm_pair_text",
    "mm_same_precision",
    "mm_text",
    "mm_with_margin",
]

#: Most decimals printed: the tolerance's (1e-6 mm); closer than that is equal.
MOST_DECIMALS = 6


def mm(value: float, *, sign: bool = False) -> str:
    """Return a length for people: to 10^-6 mm, trailing zeros cut, at least one decimal.

    A contested number or a fix of a thousandth never reads as zero or as the line itself
    (also :func:`tabletop.obstacles.verdicts.mm`).

    Examples
    --------
    >>> mm(0.001412), mm(195.2), mm(-0.0), mm(0.0, sign=True)
    ('0.001412', '195.2', '0.0', '+0.0')
    """
    text = f"{value:+.6f}" if sign else f"{value:.6f}"
    text = text.rstrip("0")
    if text.endswith("."):
        text += "0"
    if text in ("-0.0", "+0.0") and not sign:
        text = "0.0"
    if text == "-0.0":
        text = "+0.0"
    return text


def _rounded(value: float, places: int) -> float:
    return float(f"{value:.{places}f}")


def mm_text(
    value: float, *, line: float | None = None, digits: int = 1, signed: bool = False
) -> str:
    """Return `value` (mm) with at least `digits` decimals and as many more as it needs.

    Parameters
    ----------
    value : float
        A length, margin or move, mm.
    line : float, optional
        The line `value` is compared with (a band line, a limit): when `value` is not on
        it within the tolerance, it is printed with enough decimals to differ from it.
    digits : int, default 1
        The usual number of decimals.
    signed : bool, default False
        Print a ``+`` before a positive value (a margin, a move).

    Examples
    --------
    >>> mm_text(200.0000005, line=200.0), mm_text(199.9999, line=200.0)
    ('200.0', '199.9999')
    >>> mm_text(2.0, signed=True), mm_text(0.0, signed=True)
    ('+2.0', '+0.0')
    """
    value = float(value)
    if abs(value) <= EPSILON_MM:
        return f"{0.0:{'+' if signed else ''}.{digits}f}"
    off_line = line is not None and abs(value - line) > EPSILON_MM
    places = digits
    while places < MOST_DECIMALS:
        shown = _rounded(value, places)
        if shown == 0.0:
            places += 1
            continue
        if off_line and line is not None and _rounded(line, places) == shown:
            places += 1
            continue
        break
    sign = "+" if signed else ""
    return f"{value:{sign}.{places}f}"


def mm_pair_text(dx: float, dy: float, *, digits: int = 2) -> str:
    """Return a move ``(dx, dy)`` in mm, signed, so that a move never reads as ``(+0.00, +0.00)``.

    Examples
    --------
    >>> mm_pair_text(0.0, -0.0014)
    '(+0.00, -0.001)'
    >>> mm_pair_text(12.5, -3.0)
    '(+12.50, -3.00)'
    """
    return f"({mm_text(dx, digits=digits, signed=True)}, {mm_text(dy, digits=digits, signed=True)})"


def _places(text: str) -> int:
    return len(text.split(".", 1)[1]) if "." in text else 0


def mm_same_precision(
    values: Sequence[float],
    *,
    lines: Sequence[float | None] | None = None,
    signed: Sequence[bool] | None = None,
    beside: str | None = None,
) -> list[str]:
    """Return lengths (mm) all printed at the precision the finest of them needs.

    Each value needs what :func:`mm_text` gives it (kept off its line in `lines`, where
    one is given); every value is then printed with that many decimals, so that a
    distance, its margin and its closest points read as one measurement. `beside`, a
    number as printed next to them (a ruling's margin), needs its own decimals too.

    Examples
    --------
    >>> mm_same_precision([200.0005, -0.0005, 320.0], lines=[200.0, None, None])
    ['200.0005', '-0.0005', '320.0000']
    >>> mm_same_precision([4.0, 0.0004], signed=[False, True])
    ['4.0000', '+0.0004']
    >>> mm_same_precision([100.300029, 0.300029], lines=[100.0, None], beside="0.300029")
    ['100.300029', '0.300029']
    """
    count = len(values)
    line_of = list(lines) if lines is not None else [None] * count
    sign_of = list(signed) if signed is not None else [False] * count
    places = max(
        (
            _places(mm_text(v, line=line, signed=sign))
            for v, line, sign in zip(values, line_of, sign_of, strict=True)
        ),
        default=1,
    )
    if beside is not None:
        places = max(places, _places(beside))
    out = []
    for value, sign in zip(values, sign_of, strict=True):
        value = 0.0 if abs(float(value)) <= EPSILON_MM else float(value) + 0.0
        out.append(f"{value:{'+' if sign else ''}.{places}f}")
    return out


def mm_with_margin(
    value: float, margin: float, *, line: float | None = None, signed: bool = True
) -> tuple[str, str]:
    """Return a measurement and its margin, both at the precision the finer one needs.

    A distance of 200.0005 mm beside a margin printed "0.001" reads as two different
    measurements: both are printed with as many decimals as either needs
    (:func:`mm_same_precision`, `value` kept off `line`).

    Examples
    --------
    >>> mm_with_margin(200.0005, 200.0 - 200.0005, line=200.0)
    ('200.0005', '-0.0005')
    >>> mm_with_margin(191.010205, 8.989795, line=200.0)
    ('191.0', '+9.0')
    >>> mm_with_margin(200.0005, abs(200.0 - 200.0005), line=200.0, signed=False)
    ('200.0005', '0.0005')
    """
    shown, margin_shown = mm_same_precision(
        [value, margin], lines=[line, None], signed=[False, signed]
    )
    return shown, margin_shown
