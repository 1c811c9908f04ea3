"""How closely two code paths over the same geometry must agree: :data:`AGREEMENT_MM`.

Where two code paths compute the same number (a batch function and its scalar one, the
compiled kernels and the plain numpy ones, the fix search's stages and a whole-region
search, the board's page and the command line), they may differ by floating-point
rounding: GEOS and numpy releases change the order of their operations, their sums and
their square roots, and a path of its own does its own arithmetic. On table coordinates
of a few hundred millimetres that rounding is about 1e-13 mm; an answer rounded to
1e-6 mm, as every answer is printed, then differs by one step of its last digit at
most. So two paths agree when their lengths are within 1e-6 mm: the rules' own length
tolerance (``tabletop.geom.tolerance.EPSILON_MM``: two lengths within it are equal,
``rules.md``), a thousand times below the 1e-3 mm that fixes are promised to
(``check.md``). Tests stated to the bit keep ``==``: only where one code path produces
both sides (golden answers, replays, ``--jobs`` against a serial run, a call repeated).

Verdicts (legal or not, a band, in the arc or not) stay exact: a rule decides at its
line plus the length tolerance, and two paths that differ by the rounding above can
only disagree on a length within that rounding of the decision point. Tests at a line
put the length on the line or some tolerances either side of it, never at that point,
and a random length of a few hundred millimetres lands within 1e-13 mm of it with a
probability of about 1e-15. Where a test holds
the lengths of its verdicts it can say so: :func:`off_the_lines` keeps the rows whose
lengths are at least :data:`AGREEMENT_MM` from every decision point.

A number inside a text (``"112.250022 mm up"``, a message, a JSON line as written) is
the printed form of a number, and agrees when within :data:`AGREEMENT_MM` or one unit
of its last printed digit, whichever is larger; whole numbers in a text (a range band,
an id, a count) are compared exactly, as is all the text around the numbers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

import numpy as np
import shapely
from numpy.typing import ArrayLike, NDArray

from tabletop.geom.tolerance import EPSILON_MM

__all__ = [
    "AGREEMENT_MM",
    "agree",
    "arrays_agree",
    "assert_agree",
    "assert_lines_agree",
    "geometries_agree",
    "off_the_lines",
    "texts_agree",
]

#: Two code paths' lengths (mm) within this of each other agree; see the module's text.
AGREEMENT_MM = EPSILON_MM

_NUMBER = re.compile(r"-?\d+(?:\.(\d+))?(?:[eE][-+]?\d+)?")


def agree(a: float, b: float, tolerance: float = AGREEMENT_MM) -> bool:
    """Return whether two numbers are within `tolerance`, the difference taken in floats.

    The difference of two floats near 1000 mm is itself rounded by up to a few 1e-13 mm:
    a pair printed one step of 1e-6 apart must not read as further apart than that.
    """
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= tolerance + 4.0 * math.ulp(max(abs(a), abs(b), 1.0))


def arrays_agree(a: ArrayLike, b: ArrayLike) -> bool:
    """Return whether two arrays have one shape and agree element by element.

    NaN agrees with NaN and infinities with themselves only; integer and boolean arrays
    (indices, bands, verdicts) are compared exactly.
    """
    x, y = np.asarray(a), np.asarray(b)
    if x.shape != y.shape:
        return False
    if not (np.issubdtype(x.dtype, np.floating) or np.issubdtype(y.dtype, np.floating)):
        return bool(np.array_equal(x, y))
    x, y = x.astype(np.float64), y.astype(np.float64)
    nan = np.isnan(x)
    if not np.array_equal(nan, np.isnan(y)):
        return False
    x, y = x[~nan], y[~nan]
    infinite = np.isinf(x) | np.isinf(y)
    if not np.array_equal(x[infinite], y[infinite]):
        return False
    x, y = x[~infinite], y[~infinite]
    slack = 4.0 * np.spacing(np.maximum(np.maximum(np.abs(x), np.abs(y)), 1.0))
    return bool(np.all(np.abs(x - y) <= AGREEMENT_MM + slack))


def geometries_agree(a: shapely.Geometry, b: shapely.Geometry) -> bool:
    """Return whether two geometries have one type and structure and agree vertex by vertex."""
    if shapely.get_type_id(a) != shapely.get_type_id(b):
        return False
    if shapely.get_num_geometries(a) != shapely.get_num_geometries(b):
        return False
    return arrays_agree(shapely.get_coordinates(a), shapely.get_coordinates(b))


def off_the_lines(lengths: ArrayLike, lines: ArrayLike) -> NDArray[np.bool_]:
    """Return which `lengths` no other path within the agreement can decide otherwise.

    A rule decides a length at ``line - EPSILON_MM`` and ``line + EPSILON_MM`` (within the
    length tolerance is on the line, and on it is within): a length nearer than the
    agreement to either may be decided either way by two paths that agree on it. A length
    on the line itself is not: the other path's length is within the tolerance of the line.

    Examples
    --------
    >>> off_the_lines([100.0, 100.0000005, 100.000002, 50.0], [100.0]).tolist()
    [True, False, True, True]
    """
    d = np.asarray(lengths, dtype=np.float64)[..., None]
    at = np.asarray(lines, dtype=np.float64).reshape(-1)
    points = np.concatenate([at - EPSILON_MM, at + EPSILON_MM])
    rounding = 4.0 * np.spacing(np.maximum(np.abs(d), 1.0))
    return np.asarray(np.all(np.abs(d - points) >= AGREEMENT_MM - rounding, axis=-1))


def texts_agree(a: str, b: str) -> bool:
    """Return whether two texts agree: the same text around their numbers, as the module says.

    A number with an exponent is compared within :data:`AGREEMENT_MM`; JSON lines compared
    this way must be laid out alike (keys, order, spacing), their numbers agreeing.

    Examples
    --------
    >>> texts_agree('{"distance": 99.9996, "band": 1}', '{"distance": 99.999601, "band": 1}')
    True
    >>> texts_agree('{"band": 1}', '{"band": 2}'), texts_agree("5e-06 mm", "6e-06 mm")
    (False, True)
    """
    if _NUMBER.split(a)[::2] != _NUMBER.split(b)[::2]:
        return False
    for x, y in zip(_NUMBER.finditer(a), _NUMBER.finditer(b), strict=True):
        shown = x.group(0) + y.group(0)
        digits = max(len(x.group(1) or ""), len(y.group(1) or ""))
        if "e" in shown.lower():
            tolerance = AGREEMENT_MM
        elif digits == 0:
            tolerance = 0.0
        else:
            tolerance = max(AGREEMENT_MM, 10.0**-digits)
        if not agree(float(x.group(0)), float(y.group(0)), tolerance):
            return False
    return True


def _differences(got: Any, expected: Any, where: str) -> list[str]:
    """Return where two JSON-like answers disagree, one line each."""
    if isinstance(got, np.ndarray):
        got = got.tolist()
    if isinstance(expected, np.ndarray):
        expected = expected.tolist()
    if isinstance(got, Mapping) and isinstance(expected, Mapping):
        if list(got) != list(expected):
            return [f"{where}: keys {list(got)} != {list(expected)}"]
        found = []
        for key in got:
            found += _differences(got[key], expected[key], f"{where}/{key}")
        return found
    if isinstance(got, list | tuple) and isinstance(expected, list | tuple):
        if len(got) != len(expected):
            return [f"{where}: {len(got)} items != {len(expected)}"]
        found = []
        for k, (x, y) in enumerate(zip(got, expected, strict=True)):
            found += _differences(x, y, f"{where}/{k}")
        return found
    if isinstance(got, str) and isinstance(expected, str):
        return [] if texts_agree(got, expected) else [f"{where}: {got!r} != {expected!r}"]
    if isinstance(got, bool | np.bool_) or isinstance(expected, bool | np.bool_):
        same = isinstance(got, bool | np.bool_) and isinstance(expected, bool | np.bool_)
        return [] if same and bool(got) == bool(expected) else [f"{where}: {got!r} != {expected!r}"]
    whole, numbers = (int, np.integer), (int, float, np.integer, np.floating)
    if isinstance(got, numbers) and isinstance(expected, numbers):
        if isinstance(got, whole) and isinstance(expected, whole):
            same = int(got) == int(expected)
        else:
            same = agree(float(got), float(expected))
        return [] if same else [f"{where}: {got!r} != {expected!r}"]
    same = type(got) is type(expected) and got == expected
    return [] if same else [f"{where}: {got!r} != {expected!r}"]


def assert_agree(got: Any, expected: Any) -> None:
    """Assert that two JSON-like answers agree, every non-integer number within the agreement.

    Keys, lengths of lists, texts (their numbers aside), whole numbers and verdicts are
    compared exactly.

    Examples
    --------
    >>> assert_agree({"move": [0.0, 112.250022], "way": "112.250022 mm up"},
    ...              {"move": [0.0, 112.250023], "way": "112.250023 mm up"})
    >>> assert_agree({"band": 1, "legal": True}, {"band": 2, "legal": True})
    Traceback (most recent call last):
    ...
    AssertionError: /band: 1 != 2
    """
    found = _differences(got, expected, "")
    if found:
        raise AssertionError("\n".join(found[:20]))


def assert_lines_agree(got: str, expected: str) -> None:
    """Assert that two streams of lines agree line by line, as :func:`texts_agree` says."""
    got_lines, expected_lines = got.splitlines(), expected.splitlines()
    assert len(got_lines) == len(expected_lines), (len(got_lines), len(expected_lines))
    for number, (x, y) in enumerate(zip(got_lines, expected_lines, strict=True), 1):
        if not texts_agree(x, y):
            raise AssertionError(f"line {number}:\n{x}\n!=\n{y}")
