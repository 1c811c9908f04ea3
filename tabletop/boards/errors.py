"""The errors of the board-game engines, in python-chess's taxonomy.

Every error subclasses :class:`BoardGameError` and :class:`ValueError`. A play that
cannot be read is an :class:`InvalidPlayError`; a play that reads but breaks a rule in
this position is an :class:`IllegalPlayError`, naming the rule; a position or army that
cannot be used is an :class:`InvalidPositionError`. Replaying a log wraps the first bad
play in a :class:`ReplayError` carrying its number.

Examples
--------
>>> error = IllegalPlayError("move b1 b9 Loop", "board-edge", "b9 is off the board")
>>> str(error)
"illegal play 'move b1 b9 Loop': b9 is off the board (rule: board-edge)"
>>> str(ReplayError(3, error))
"play 3 'move b1 b9 Loop': b9 is off the board (rule: board-edge)"
"""

from __future__ import annotations

__all__ = [
    "BoardGameError",
    "IllegalPlayError",
    "InvalidPlayError",
    "InvalidPositionError",
    "ReplayError",
    "WorkLimitError",
]


class BoardGameError(ValueError):
    """Base class of every error the board-game engines raise on purpose."""


class InvalidPlayError(BoardGameError):
    """A play text that cannot be read: an unknown word, card, square or unit.

    Attributes
    ----------
    play : str
        The text as given.
    reason : str
        What was wrong and what was expected.
    """

    def __init__(self, play: str, reason: str) -> None:
        super().__init__(f"cannot read play {play!r}: {reason}")
        self.play, self.reason = play, reason


class IllegalPlayError(BoardGameError):
    """A well-formed play that the rules forbid in this position.

    Attributes
    ----------
    play : str
        The play's canonical text (or the text as given).
    rule : str
        A short name of the rule broken (``board-edge``, ``blocked``, ``wrong-phase`` …).
    reason : str
        The rule in words, applied to this play.
    """

    def __init__(self, play: str, rule: str, reason: str) -> None:
        super().__init__(f"illegal play {play!r}: {reason} (rule: {rule})")
        self.play, self.rule, self.reason = play, rule, reason


class InvalidPositionError(BoardGameError):
    """A position, setup or army that cannot be used at all.

    Attributes
    ----------
    reason : str
        What was wrong.
    entry : str or None
        Where (a square, a unit id, a key), when known.
    """

    def __init__(self, reason: str, entry: str | None = None) -> None:
        super().__init__(f"{entry}: {reason}" if entry else reason)
        self.reason, self.entry = reason, entry


class ReplayError(BoardGameError):
    """The first play of a log that could not be applied, with its number (from 1).

    Attributes
    ----------
    number : int
        The play's number in the log, counting from 1.
    cause : InvalidPlayError or IllegalPlayError
        Why it could not be applied; ``rule`` is None for an unreadable play.
    """

    def __init__(self, number: int, cause: InvalidPlayError | IllegalPlayError) -> None:
        self.number, self.cause = number, cause
        self.rule: str | None = cause.rule if isinstance(cause, IllegalPlayError) else None
        tail = f" (rule: {self.rule})" if self.rule else ""
        super().__init__(f"play {number} {cause.play!r}: {cause.reason}{tail}")


class WorkLimitError(BoardGameError):
    """A search that would take more work than its documented bound.

    Attributes
    ----------
    done : int
        The work done when it stopped (positions expanded).
    limit : int
        The bound.
    """

    def __init__(self, reason: str, done: int, limit: int) -> None:
        super().__init__(reason)
        self.reason, self.done, self.limit = reason, done, limit
