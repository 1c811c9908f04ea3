"""Plays: every decision of a battle as a small immutable value with a canonical text.

Examples
--------
>>> parse_play("order spears  charge")
Order(unit='spears', kind='charge', arg=None)
>>> play_text(parse_play("order legion trait double order"))
'order legion trait double order'
>>> play_text(parse_play("roll 4 6")), play_text(parse_play("react wait"))
('roll 4 6', 'react wait')
>>> parse_play("deploy spears D7")
Traceback (most recent call last):
...
tabletop.boards.errors.InvalidPlayError: cannot read play 'deploy spears D7': 'D7' is not a zone; expected A1-C5 (sector A, B or C, row 1 to 5)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

from tabletop.boards.errors import InvalidPlayError
from tabletop.boards.pocket.zones import Zone, is_zone

__all__ = [
    "ORDER_KINDS",
    "Deploy",
    "End",
    "Kill",
    "NoSpur",
    "Order",
    "Pass",
    "Play",
    "React",
    "Remove",
    "Reposition",
    "Roll",
    "Surrender",
    "Target",
    "Wound",
    "parse_play",
    "play_text",
]

#: The orders a unit can be given, by their word in ``order UNIT WORD ...``.
ORDER_KINDS: tuple[str, ...] = ("move", "charge", "join", "leave", "shoot", "trait")


@dataclass(frozen=True, slots=True)
class Deploy:
    """``deploy UNIT ZONE``: place a unit in one of its player's six zones."""

    unit: str
    zone: Zone


@dataclass(frozen=True, slots=True)
class Reposition:
    """``reposition UNIT ZONE``: the turn's free move to an adjacent zone."""

    unit: str
    zone: Zone


@dataclass(frozen=True, slots=True)
class Order:
    """``order UNIT KIND [ARG]``: move ZONE, charge, join UNIT, leave, shoot UNIT, trait NAME."""

    unit: str
    kind: str
    arg: str | None = None


@dataclass(frozen=True, slots=True)
class React:
    """``react intercept UNIT`` / ``react shoot UNIT`` / ``react wait``: a charge's answer."""

    kind: str
    unit: str | None = None


@dataclass(frozen=True, slots=True)
class Target:
    """``target UNIT``: the enemy unit a charge goes into."""

    unit: str


@dataclass(frozen=True, slots=True)
class Roll:
    """``roll N ...``: the dice of the roll the rules call for next."""

    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Wound:
    """``wound TROOP``: one hit taken as a wound."""

    troop: str


@dataclass(frozen=True, slots=True)
class Kill:
    """``kill TROOP``: one hit taken by removing the troop outright."""

    troop: str


@dataclass(frozen=True, slots=True)
class Remove:
    """``remove TROOP``: at the end of a round, remove an own troop carrying a wound token."""

    troop: str


@dataclass(frozen=True, slots=True)
class NoSpur:
    """``no spur``: decline the Spur trait for this order."""


@dataclass(frozen=True, slots=True)
class End:
    """``end``: done with the end-of-round removals."""


@dataclass(frozen=True, slots=True)
class Pass:
    """``pass``: set one token aside as the turn's action."""


@dataclass(frozen=True, slots=True)
class Surrender:
    """``surrender``: give up the battle."""


#: Any play of the game.
Play: TypeAlias = (
    Deploy
    | Reposition
    | Order
    | React
    | Target
    | Roll
    | Wound
    | Kill
    | Remove
    | NoSpur
    | End
    | Pass
    | Surrender
)

_SINGLE: dict[str, Play] = {
    "end": End(),
    "pass": Pass(),
    "surrender": Surrender(),
    "no spur": NoSpur(),
}


def _zone(text: str, word: str) -> Zone:
    if not is_zone(word):
        raise InvalidPlayError(
            text, f"{word!r} is not a zone; expected A1-C5 (sector A, B or C, row 1 to 5)"
        )
    return word


def parse_play(text: str) -> Play:
    """Read a play's text (words separated by any whitespace).

    Raises
    ------
    InvalidPlayError
        For text that is no play of the game, naming what was expected.
    """
    words = text.split()
    joined = " ".join(words)
    if joined in _SINGLE:
        return _SINGLE[joined]
    if not words:
        raise InvalidPlayError(text, "empty play")
    head, rest = words[0], words[1:]
    read = _READERS.get(head)
    if read is None:
        raise InvalidPlayError(
            text,
            "expected deploy, reposition, order, react, target, roll, wound, kill, remove, "
            "no spur, end, pass or surrender",
        )
    return read(text, head, rest)


def _read_placement(text: str, head: str, rest: list[str]) -> Play:
    """Read ``deploy UNIT ZONE`` or ``reposition UNIT ZONE``."""
    if len(rest) != 2:
        raise InvalidPlayError(text, f"expected '{head} UNIT ZONE'")
    zone = _zone(text, rest[1])
    return Deploy(rest[0], zone) if head == "deploy" else Reposition(rest[0], zone)


def _read_order(text: str, head: str, rest: list[str]) -> Play:
    """Read ``order UNIT KIND [ARG]``: each kind with the argument it takes."""
    if len(rest) < 2 or rest[1] not in ORDER_KINDS:
        raise InvalidPlayError(
            text,
            "expected 'order UNIT move ZONE|charge|join UNIT|leave|shoot UNIT|trait NAME'",
        )
    unit, kind, args = rest[0], rest[1], rest[2:]
    if kind in ("charge", "leave"):
        if args:
            raise InvalidPlayError(text, f"'order UNIT {kind}' takes nothing after it")
        return Order(unit, kind)
    if kind == "trait":
        if not args:
            raise InvalidPlayError(text, "expected 'order UNIT trait NAME'")
        return Order(unit, kind, " ".join(args))
    if len(args) != 1:
        what = "ZONE" if kind == "move" else "UNIT"
        raise InvalidPlayError(text, f"expected 'order UNIT {kind} {what}'")
    return Order(unit, kind, _zone(text, args[0]) if kind == "move" else args[0])


def _read_react(text: str, head: str, rest: list[str]) -> Play:
    """Read ``react wait``, ``react intercept UNIT`` or ``react shoot UNIT``."""
    if rest == ["wait"]:
        return React("wait")
    if len(rest) == 2 and rest[0] in ("intercept", "shoot"):
        return React(rest[0], rest[1])
    raise InvalidPlayError(
        text, "expected 'react intercept UNIT', 'react shoot UNIT' or 'react wait'"
    )


def _read_pick(text: str, head: str, rest: list[str]) -> Play:
    """Read ``target UNIT``, ``wound TROOP``, ``kill TROOP`` or ``remove TROOP``."""
    if len(rest) != 1:
        raise InvalidPlayError(text, f"expected '{head} {'UNIT' if head == 'target' else 'TROOP'}'")
    picked: dict[str, type[Target | Wound | Kill | Remove]] = {
        "target": Target,
        "wound": Wound,
        "kill": Kill,
        "remove": Remove,
    }
    return picked[head](rest[0])


def _read_roll(text: str, head: str, rest: list[str]) -> Play:
    """Read ``roll`` and one or more die values 1-6."""
    if not rest or not all(w.isdigit() and len(w) == 1 and "1" <= w <= "6" for w in rest):
        raise InvalidPlayError(text, "expected 'roll' and one die value 1-6 or more")
    return Roll(tuple(int(w) for w in rest))


#: The reader of each play's first word (the one-text plays are in _SINGLE).
_READERS: dict[str, Callable[[str, str, list[str]], Play]] = {
    "deploy": _read_placement,
    "reposition": _read_placement,
    "order": _read_order,
    "react": _read_react,
    "target": _read_pick,
    "wound": _read_pick,
    "kill": _read_pick,
    "remove": _read_pick,
    "roll": _read_roll,
}


def play_text(play: Play) -> str:
    """Return a play's canonical text (words separated by one space)."""
    match play:
        case Deploy(unit, zone):
            return f"deploy {unit} {zone}"
        case Reposition(unit, zone):
            return f"reposition {unit} {zone}"
        case Order(unit, kind, arg):
            return f"order {unit} {kind}" + (f" {arg}" if arg is not None else "")
        case React(kind, unit):
            return f"react {kind}" + (f" {unit}" if unit is not None else "")
        case Target(unit):
            return f"target {unit}"
        case Roll(dice):
            return "roll " + " ".join(str(d) for d in dice)
        case Wound(troop):
            return f"wound {troop}"
        case Kill(troop):
            return f"kill {troop}"
        case Remove(troop):
            return f"remove {troop}"
        case NoSpur():
            return "no spur"
        case End():
            return "end"
        case Pass():
            return "pass"
        case Surrender():
            return "surrender"
    raise TypeError(f"not a play: {play!r}")
