"""Errors of the organized-play engine: a base error and specific ones carrying the bad input.

Every error is a :class:`ValueError`; the ``tabletop`` command turns each into an input
error naming the file, the round and table, or the player.
"""

from __future__ import annotations

__all__ = [
    "EventCompleteError",
    "PairingError",
    "RegulationError",
    "ResultError",
    "RosterError",
    "StructureError",
    "TournamentError",
]


class TournamentError(ValueError):
    """Base of every error of the tournament package.

    Attributes
    ----------
    round : int or None
        The round at fault (1-based), when there is one.
    table : int or None
        The table at fault, when there is one.
    player : str or None
        The player at fault, when there is one.
    key : str or None
        The event file's key at fault (``"games"``), when there is one.
    """

    def __init__(
        self,
        message: str,
        *,
        round: int | None = None,
        table: int | None = None,
        player: str | None = None,
        key: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.round, self.table, self.player = round, table, player
        self.key = key


class RegulationError(TournamentError):
    """A regulation that names what the engine does not know (a tiebreaker, a bye key)."""


class RosterError(TournamentError):
    """A player list that cannot be used: a duplicate or unknown id, a bad drop."""


class ResultError(TournamentError):
    """A result that contradicts its match or the regulation (a negative score, ...)."""


class StructureError(TournamentError):
    """A player count outside the structure's table, or a structure missing a number."""


class PairingError(TournamentError):
    """A round that cannot be paired (a result is missing, too few players)."""


class EventCompleteError(PairingError):
    """Every round of the structure, and the final, has been played."""
