"""The error taxonomy shared by every package.

Every error a user can cause subclasses :class:`TabletopError` and a builtin
(:class:`ValueError`), so callers may catch either.
"""

from __future__ import annotations

__all__ = [
    "IllegalManeuverError",
    "InvalidConstantError",
    "InvalidInputError",
    "TabletopError",
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


class IllegalManeuverError(TabletopError, ValueError):
    """A maneuver that is well formed but cannot be executed in this position."""
