"""Maneuver notation: the words of ``cli.md`` read into frozen maneuver values.

X-Wing: ``straight 3``, ``bank 2 left``, ``turn 1 right``, ``koiogran 4``,
``segnor 2 left``, ``tallon 1 right``, ``reverse straight 1``, ``reverse bank 1 left``,
``stationary``, ``roll left [forward|centre|back]``, ``boost straight``,
``boost bank left``. Armada: ``speed 3 yaw 0 -1 1 [side left|right]``, one yaw value per
joint in clicks (positive: counter-clockwise, to the ship's left).

:func:`parse_maneuver` reads the words (case and spacing do not matter) and
:func:`maneuver_name` writes the canonical form back, so that
``maneuver_name(parse_maneuver(text, r))`` is a fixed point.

Examples
--------
>>> from tabletop.geom.rulesets import get_ruleset
>>> xw = get_ruleset("xwing2")
>>> parse_maneuver("bank 2 left", xw)
XWingManeuver(bearing='bank', speed=2, direction='left', reverse=False)
>>> maneuver_name(parse_maneuver("  Reverse  BANK 1 left ", xw))
'reverse bank 1 left'
>>> maneuver_name(parse_maneuver("roll right center", xw))
'roll right centre'
>>> parse_maneuver("speed 2 yaw 0 -1", get_ruleset("armada"))
ArmadaCourse(speed=2, yaws=(0, -1), side=None, navigate=False)
>>> parse_maneuver("bnak 2 left", xw)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tabletop.geom.errors.InvalidManeuverError: maneuver 'bnak 2 left': cannot read maneuver 'bnak 2 left': unknown word 'bnak' (did you mean 'bank'?); accepted for xwing2: straight 1-5, bank 1-3 left|right, ...
"""

from __future__ import annotations

import dataclasses as _dc
import difflib as _difflib
import functools
from collections.abc import Callable
from typing import Literal, TypeAlias, cast

from tabletop.geom.errors import InvalidManeuverError
from tabletop.geom.rulesets import RULESETS, ArmadaRuleset, Ruleset

__all__ = [
    "ADVANCED_BEARINGS",
    "ARMADA_MAX_CLICKS",
    "ARMADA_MAX_SPEED",
    "XWING_SPEEDS",
    "ArmadaCourse",
    "BarrelRoll",
    "Bearing",
    "Boost",
    "Direction",
    "Maneuver",
    "RollPosition",
    "XWingManeuver",
    "accepted_maneuvers",
    "maneuver_listing",
    "maneuver_name",
    "maneuver_words",
    "parse_maneuver",
]

#: Which way a bank, turn, roll or advanced maneuver goes.
Direction = Literal["left", "right"]
#: The X-Wing maneuver families (the template or move a dial names).
Bearing = Literal["straight", "bank", "turn", "koiogran", "segnor", "tallon", "stationary"]
#: Where the ship lands along the template in a 2.0 barrel roll.
RollPosition = Literal["forward", "centre", "back"]

#: Speeds of each X-Wing bearing: the template lengths that exist (straight 1-5 and so on).
XWING_SPEEDS: dict[str, tuple[int, int]] = {
    "straight": (1, 5),
    "bank": (1, 3),
    "turn": (1, 3),
    "koiogran": (1, 5),
    "segnor": (1, 3),
    "tallon": (1, 3),
}
#: Bearings that turn the ship after a complete move (only a bump cancels the turn).
ADVANCED_BEARINGS = frozenset({"koiogran", "segnor", "tallon"})
_NEEDS_DIRECTION = frozenset({"bank", "turn", "segnor", "tallon"})
_REVERSIBLE = frozenset({"straight", "bank"})
_ROLL_POSITIONS: tuple[RollPosition, ...] = ("forward", "centre", "back")
#: Highest Armada speed (joints of the maneuver tool).
ARMADA_MAX_SPEED = 4
#: Most yaw clicks a joint may take, either way.
ARMADA_MAX_CLICKS = 2


@_dc.dataclass(frozen=True)
class XWingManeuver:
    """An X-Wing maneuver from the dial.

    Attributes
    ----------
    bearing : str
        ``straight``, ``bank``, ``turn``, ``koiogran``, ``segnor``, ``tallon`` or
        ``stationary``.
    speed : int
        The template length (0 for stationary).
    direction : {"left", "right"} or None
        For banks, turns, Segnor's loops and Tallon rolls.
    reverse : bool
        A reverse straight or bank (the template at the rear guides).
    """

    bearing: Bearing
    speed: int
    direction: Direction | None = None
    reverse: bool = False


@_dc.dataclass(frozen=True)
class BarrelRoll:
    """An X-Wing barrel roll to one side, optionally at a named position.

    Attributes
    ----------
    direction : {"left", "right"}
        The side the ship rolls to.
    position : {"forward", "centre", "back"} or None
        None: report every position and end at the centre if legal, else the first legal.
    """

    direction: Direction
    position: RollPosition | None = None


@_dc.dataclass(frozen=True)
class Boost:
    """An X-Wing boost: the 1-straight or a 1-bank template from the front guides.

    Attributes
    ----------
    bearing : {"straight", "bank"}
        Which template.
    direction : {"left", "right"} or None
        For a bank boost.
    """

    bearing: Literal["straight", "bank"]
    direction: Direction | None = None


@_dc.dataclass(frozen=True)
class ArmadaCourse:
    """An Armada course set on the maneuver tool.

    Attributes
    ----------
    speed : int
        0-4: the joint whose guides the ship is placed at.
    yaws : tuple of int
        Clicks per joint (one per joint up to `speed`), each within ±2, positive
        counter-clockwise (to the ship's left).
    side : {"left", "right"} or None
        The side of the ship the tool is laid on; None lets the move choose.
    navigate : bool
        A navigate command is spent: one joint may take one click more than the hull's
        speed chart allows.
    """

    speed: int
    yaws: tuple[int, ...] = ()
    side: Direction | None = None
    navigate: bool = False


#: Any maneuver this package executes.
Maneuver: TypeAlias = XWingManeuver | BarrelRoll | Boost | ArmadaCourse

_XWING_ACCEPTED = (
    "straight 1-5, bank 1-3 left|right, turn 1-3 left|right, koiogran 1-5, "
    "segnor 1-3 left|right, tallon 1-3 left|right, reverse straight 1-5, "
    "reverse bank 1-3 left|right, stationary, roll left|right [forward|centre|back], "
    "boost straight, boost bank left|right"
)
_ARMADA_ACCEPTED = (
    "speed 0-4 [yaw C1 ... Cn] [side left|right] [navigate], with one yaw value per joint "
    "up to the speed, each a whole number of clicks from -2 to 2 (positive turns to the "
    "ship's left); navigate allows one joint one click more than the hull's speed chart"
)
_XWING_WORDS = (
    *XWING_SPEEDS,
    "stationary",
    "reverse",
    "roll",
    "boost",
    "left",
    "right",
    *_ROLL_POSITIONS,
)
_ARMADA_WORDS = ("speed", "yaw", "side", "left", "right", "navigate")


def accepted_maneuvers(ruleset: Ruleset) -> str:
    """Return the maneuver words a ruleset accepts, as one line for messages.

    Examples
    --------
    >>> from tabletop.geom.rulesets import get_ruleset
    >>> accepted_maneuvers(get_ruleset("armada"))[:24]
    'speed 0-4 [yaw C1 ... Cn'
    """
    return _grammar(ruleset).accepted


def maneuver_words(ruleset: Ruleset) -> tuple[str, ...]:
    """Return every word the ruleset's maneuvers use (numbers aside).

    Examples
    --------
    >>> from tabletop.geom.rulesets import get_ruleset
    >>> maneuver_words(get_ruleset("armada"))
    ('speed', 'yaw', 'side', 'left', 'right', 'navigate')
    """
    return _grammar(ruleset).words


class _Reader:
    """Reads words left to right and fails with the accepted list."""

    def __init__(self, text: str, ruleset: Ruleset) -> None:
        self.text = text
        self.ruleset = ruleset
        self.words = text.lower().replace("center", "centre").split()
        self.index = 0

    def fail(self, problem: str) -> InvalidManeuverError:
        return InvalidManeuverError(
            f"cannot read maneuver {self.text!r}: {problem}; accepted for "
            f"{self.ruleset.name}: {accepted_maneuvers(self.ruleset)}",
            self.text,
        )

    def unknown(self, word: str) -> InvalidManeuverError:
        vocabulary = maneuver_words(self.ruleset)
        close = _difflib.get_close_matches(word, vocabulary, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        # A word of the other game's grammar says which game it belongs to.
        for other in RULESETS.values():
            if other.game != self.ruleset.game and word in maneuver_words(other):
                game = {"xwing": "X-Wing", "armada": "Armada"}.get(other.game, other.game)
                hint = f" ({word!r} is an {game} maneuver word; the ruleset is {self.ruleset.name})"
                break
        return self.fail(f"unknown word {word!r}{hint}")

    def peek(self) -> str | None:
        return self.words[self.index] if self.index < len(self.words) else None

    def take(self, what: str) -> str:
        word = self.peek()
        if word is None:
            raise self.fail(f"missing {what}")
        self.index += 1
        return word

    def integer(self, what: str, low: int, high: int) -> int:
        word = self.take(what)
        try:
            value = int(word)
        except ValueError:
            raise self.fail(f"expected {what} as a whole number, got {word!r}") from None
        if not low <= value <= high:
            raise self.fail(f"{what} {value} is out of range ({low} to {high})")
        return value

    def direction(self, what: str) -> Direction:
        word = self.take(f"the direction of {what} (left or right)")
        if word == "left":
            return "left"
        if word == "right":
            return "right"
        raise self.fail(f"expected left or right for {what}, got {word!r}")

    def done(self) -> None:
        if self.index < len(self.words):
            extra = " ".join(self.words[self.index :])
            raise self.fail(f"unexpected words at the end: {extra!r}")


def _xwing(r: _Reader) -> Maneuver:
    first = r.take("a maneuver")
    if first == "stationary":
        r.done()
        return XWingManeuver("stationary", 0)
    if first == "roll":
        roll_direction = r.direction("the roll")
        word = r.peek()
        position: RollPosition | None = None
        if word is not None:
            if word not in _ROLL_POSITIONS:
                raise r.fail(f"expected forward, centre or back, got {word!r}")
            position = _ROLL_POSITIONS[_ROLL_POSITIONS.index(word)]
            r.index += 1
        r.done()
        return BarrelRoll(roll_direction, position)
    if first == "boost":
        word = r.take("the boost template (straight or bank)")
        if word == "straight":
            r.done()
            return Boost("straight")
        if word == "bank":
            boost_direction = r.direction("the bank boost")
            r.done()
            return Boost("bank", boost_direction)
        raise r.fail(f"expected straight or bank after boost, got {word!r}")
    reverse = first == "reverse"
    bearing = r.take("a bearing after reverse (straight or bank)") if reverse else first
    if bearing not in XWING_SPEEDS:
        raise r.unknown(bearing)
    if reverse and bearing not in _REVERSIBLE:
        raise r.fail(f"only straight and bank can be reversed, not {bearing!r}")
    low, high = XWING_SPEEDS[bearing]
    speed = r.integer(f"the speed of {bearing}", low, high)
    direction: Direction | None = None
    if bearing in _NEEDS_DIRECTION:
        direction = r.direction(bearing)
    r.done()
    return XWingManeuver(cast(Bearing, bearing), speed, direction, reverse)


def _armada(r: _Reader) -> ArmadaCourse:
    first = r.take("a course (speed N)")
    if first != "speed":
        raise r.unknown(first)
    speed = r.integer("speed", 0, ARMADA_MAX_SPEED)
    yaws: tuple[int, ...] = (0,) * speed
    if r.peek() == "yaw":
        r.index += 1
        values = []
        while r.peek() not in (None, "side", "navigate"):
            values.append(r.integer("a yaw value", -ARMADA_MAX_CLICKS, ARMADA_MAX_CLICKS))
        if len(values) != speed:
            raise r.fail(
                f"speed {speed} takes {speed} yaw values (one per joint), got {len(values)}"
            )
        yaws = tuple(values)
    side: Direction | None = None
    navigate = False
    while r.peek() in ("side", "navigate"):
        word = r.take("side or navigate")
        if word == "navigate" and not navigate:
            navigate = True
        elif word == "side" and side is None:
            side = r.direction("the tool side")
        else:
            raise r.fail(f"{word!r} is given twice")
    r.done()
    return ArmadaCourse(speed, yaws, side, navigate)


def parse_maneuver(text: str, ruleset: Ruleset) -> Maneuver:
    """Read maneuver words (``cli.md``) for a ruleset.

    Parameters
    ----------
    text : str
        The words, e.g. ``"bank 2 left"`` or ``"speed 3 yaw 0 -1 1"``; case and extra
        spaces do not matter, ``center`` is read as ``centre``.
    ruleset : Ruleset
        X-Wing rulesets read X-Wing words, Armada reads courses.

    Returns
    -------
    XWingManeuver, BarrelRoll, Boost or ArmadaCourse

    Raises
    ------
    InvalidInputError
        For words that are not a maneuver of the ruleset; the message lists what is
        accepted.

    Examples
    --------
    >>> from tabletop.geom.rulesets import get_ruleset
    >>> parse_maneuver("boost bank right", get_ruleset("xwing1"))
    Boost(bearing='bank', direction='right')
    >>> parse_maneuver("speed 2 yaw 3 0", get_ruleset("armada"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tabletop.geom.errors.InvalidManeuverError: maneuver 'speed 2 yaw 3 0': cannot read maneuver 'speed 2 yaw 3 0': a yaw value 3 is out of range (-2 to 2); ...
    """
    return _grammar(ruleset).read(_Reader(text, ruleset))


def maneuver_listing(ruleset: Ruleset) -> tuple[tuple[str, str | None], ...]:
    """Return the maneuvers a ruleset accepts as ``(name, detail)`` entries, for a listing.

    Examples
    --------
    >>> from tabletop.geom.rulesets import get_ruleset
    >>> maneuver_listing(get_ruleset("xwing2"))[:2]
    (('straight 1-5', None), ('bank 1-3 left|right', None))
    >>> maneuver_listing(get_ruleset("armada"))[0][0]
    'speed 0-4 [yaw C1 ... Cn] [side left|right] [navigate]'
    """
    return _grammar(ruleset).listing()


@_dc.dataclass(frozen=True)
class _Grammar:
    """How a game writes its maneuvers: the accepted line, the words, and the reader.

    `one_course`: the grammar is one course with options (Armada's tool), listed as one
    entry with its detail, rather than a list of maneuver words.
    """

    accepted: str
    words: tuple[str, ...]
    read: Callable[[_Reader], Maneuver]
    one_course: bool

    def listing(self) -> tuple[tuple[str, str | None], ...]:
        if self.one_course:
            usage, _, detail = self.accepted.partition(", ")
            return ((usage, detail),)
        return tuple((entry, None) for entry in self.accepted.split(", "))


_TEMPLATES = _Grammar(_XWING_ACCEPTED, _XWING_WORDS, _xwing, one_course=False)
_TOOL = _Grammar(_ARMADA_ACCEPTED, _ARMADA_WORDS, _armada, one_course=True)


@functools.singledispatch
def _grammar(ruleset: Ruleset) -> _Grammar:
    """Return X-Wing's grammar: maneuver templates, rolls and boosts."""
    return _TEMPLATES


@_grammar.register(ArmadaRuleset)
def _armada_grammar(ruleset: ArmadaRuleset) -> _Grammar:
    """Return Armada's grammar: courses set on the maneuver tool."""
    return _TOOL


def maneuver_name(maneuver: Maneuver) -> str:
    """Return the canonical words of a maneuver (the inverse of :func:`parse_maneuver`).

    Examples
    --------
    >>> maneuver_name(XWingManeuver("turn", 1, "right"))
    'turn 1 right'
    >>> maneuver_name(ArmadaCourse(3, (0, -1, 1), "right"))
    'speed 3 yaw 0 -1 1 side right'
    >>> maneuver_name(ArmadaCourse(0))
    'speed 0'
    """
    if isinstance(maneuver, XWingManeuver):
        if maneuver.bearing == "stationary":
            return "stationary"
        words = ["reverse"] if maneuver.reverse else []
        words += [maneuver.bearing, str(maneuver.speed)]
        if maneuver.direction is not None:
            words.append(maneuver.direction)
        return " ".join(words)
    if isinstance(maneuver, BarrelRoll):
        words = ["roll", maneuver.direction]
        if maneuver.position is not None:
            words.append(maneuver.position)
        return " ".join(words)
    if isinstance(maneuver, Boost):
        words = ["boost", maneuver.bearing]
        if maneuver.direction is not None:
            words.append(maneuver.direction)
        return " ".join(words)
    words = ["speed", str(maneuver.speed)]
    if maneuver.speed:
        words += ["yaw", *(str(y) for y in maneuver.yaws)]
    if maneuver.side is not None:
        words += ["side", maneuver.side]
    if maneuver.navigate:
        words.append("navigate")
    return " ".join(words)
