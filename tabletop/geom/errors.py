"""The error taxonomy shared by every package.

Every error a user can cause subclasses :class:`TabletopError` and a builtin
(:class:`ValueError`), so callers may catch either.
"""

from __future__ import annotations

import reprlib as _reprlib
from typing import Any

__all__ = [
    "IllegalManeuverError",
    "InvalidConstantError",
    "InvalidInputError",
    "InvalidManeuverError",
    "TabletopError",
    "UnknownObjectError",
    "show",
]


class TabletopError(Exception):
    """Base class of every error this project raises on purpose."""


class InvalidInputError(TabletopError, ValueError):
    """Input that cannot be used: a bad name, value, maneuver word or file.

    Parameters
    ----------
    message : str
        What was wrong and what was expected.
    where : str, optional
        Where it was found (a file, an entry, a key), for reports.
    """

    def __init__(self, message: str, where: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.where = where

    def __str__(self) -> str:
        """Return the message, prefixed by where the problem is."""
        return f"{self.where}: {self.message}" if self.where else self.message


class InvalidConstantError(InvalidInputError):
    """A ``[constants]`` override with an unknown name or a value of the wrong shape."""


class UnknownObjectError(InvalidInputError):
    """An id that names no object of the scene, or an obstacle where a ship is needed.

    Parameters
    ----------
    message : str
        What was wrong and which ids the scene has.
    id : str
        The id asked for.
    where : str, optional
        ``"ship 'ID'"`` where the role is known (the moving ship); None for a plain lookup.
    """

    def __init__(self, message: str, id: str, where: str | None = None) -> None:
        super().__init__(message, where)
        self.id = id


class InvalidManeuverError(InvalidInputError):
    """Maneuver words that cannot be read for the ruleset.

    ``where`` is ``"maneuver 'TEXT'"``, the words as given.

    Parameters
    ----------
    message : str
        The problem and the words the ruleset accepts.
    text : str
        The maneuver words as given.
    """

    def __init__(self, message: str, text: str) -> None:
        super().__init__(message, f"maneuver {text!r}")
        self.text = text


class IllegalManeuverError(InvalidInputError):
    """A readable maneuver that the ship's base cannot do (a huge ship's turn, a squadron's course).

    ``where`` is ``"maneuver 'TEXT'"``, the words as given.

    Parameters
    ----------
    message : str
        Why the base cannot do it, and what it can do.
    text : str
        The maneuver words as given.
    """

    def __init__(self, message: str, text: str) -> None:
        super().__init__(message, f"maneuver {text!r}")
        self.text = text


class _ShortRepr(_reprlib.Repr):
    # Values come from TOML and JSON: show null, true and false as those files write them.
    def repr1(self, x: Any, level: int) -> str:
        if x is None:
            return "null"
        if isinstance(x, bool):
            return "true" if x else "false"
        return super().repr1(x, level)

    def repr_str(self, x: str, level: int) -> str:
        shown = super().repr_str(x, level)
        # A cut string says how long it was, so "..." never hides a megabyte.
        whole = len(x) <= 4 * self.maxstring and shown == repr(x)
        return shown if whole else f"{shown} ({len(x)} characters)"


_SHORT = _ShortRepr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxdict = 3, 6, 4
_SHORT.maxstring, _SHORT.maxlong, _SHORT.maxother = 80, 40, 80


def show(value: Any) -> str:
    """Return a short repr of a user value for a message (a huge value is abridged).

    Examples
    --------
    >>> show(None), show(True), show("x" * 100)[-16:]
    ('null', 'true', '(100 characters)')
    """
    if type(value) is str:
        shown = repr(value)
        if len(shown) <= _SHORT.maxstring:  # what the abridging repr gives, at C speed
            return shown
    return _SHORT.repr(value)
