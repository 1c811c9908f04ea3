"""The round clock: when a round started, how long it lasts, and the time it was paused.

A :class:`Clock` is kept in the event file (``[clock]``), so the clock of a round goes on
where it was when a server restarts. Times are whole seconds in UTC, written as ISO 8601
(``2026-05-02T10:00:00Z``); the seconds left are worked out from them and the moment
asked about, never counted by a running timer.

Examples
--------
>>> start = parse_utc("2026-05-02T10:00:00Z")
>>> clock = Clock(round=1, minutes=120, start=start)
>>> clock.remaining(parse_utc("2026-05-02T10:30:00Z"))
5400
>>> paused = clock.pause(parse_utc("2026-05-02T10:30:00Z"))
>>> paused.remaining(parse_utc("2026-05-02T11:30:00Z"))
5400
>>> resumed = paused.resume(parse_utc("2026-05-02T10:40:00Z"))
>>> resumed.paused_seconds, utc_text(resumed.ends_at() or start)
(600, '2026-05-02T12:10:00Z')
>>> resumed.add(-100).remaining(parse_utc("2026-05-02T10:40:00Z"))
0
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from tabletop.tournament.errors import TournamentError

__all__ = ["Clock", "ClockError", "now_utc", "parse_utc", "utc_text"]

_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


class ClockError(TournamentError):
    """A clock action that does not fit the clock's state (pausing a paused clock)."""


def now_utc() -> datetime:
    """Return the current moment in UTC, to the whole second."""
    return datetime.now(UTC).replace(microsecond=0)


def utc_text(moment: datetime) -> str:
    """Return a moment as UTC ISO 8601 to the second: ``2026-05-02T10:00:00Z``."""
    return moment.astimezone(UTC).strftime(_FORMAT)


def parse_utc(text: str) -> datetime:
    """Read a moment written by :func:`utc_text`.

    Raises
    ------
    ValueError
        For any other form.
    """
    return datetime.strptime(text, _FORMAT).replace(tzinfo=UTC)


@dataclass(frozen=True)
class Clock:
    """One round's clock.

    Parameters
    ----------
    round : int
        The round it times.
    minutes : int
        The round's length (the TO may add minutes).
    start : datetime
        When it was started (UTC).
    paused_seconds : int
        The seconds it has been paused, pauses that ended.
    paused_at : datetime or None
        When the pause going on began (None: it is running).
    """

    round: int
    minutes: int
    start: datetime
    paused_seconds: int = 0
    paused_at: datetime | None = None

    @property
    def paused(self) -> bool:
        """Whether it is paused."""
        return self.paused_at is not None

    def ends_at(self) -> datetime | None:
        """Return when time is up if it keeps running (None while paused)."""
        if self.paused_at is not None:
            return None
        return self.start + timedelta(seconds=self.minutes * 60 + self.paused_seconds)

    def remaining(self, now: datetime) -> int:
        """Return the whole seconds left at `now` (0 once time is up)."""
        at = now if self.paused_at is None else self.paused_at
        end = self.start + timedelta(seconds=self.minutes * 60 + self.paused_seconds)
        return max(0, int((end - at).total_seconds()))

    def pause(self, now: datetime) -> Clock:
        """Return the clock paused at `now`.

        Raises
        ------
        ClockError
            When it is paused already.
        """
        if self.paused_at is not None:
            raise ClockError("the clock is paused already", key="clock")
        return replace(self, paused_at=max(now, self.start))

    def resume(self, now: datetime) -> Clock:
        """Return the clock running again from `now`.

        Raises
        ------
        ClockError
            When it is not paused.
        """
        if self.paused_at is None:
            raise ClockError("the clock is running, not paused", key="clock")
        pause = max(0, int((now - self.paused_at).total_seconds()))
        return replace(self, paused_seconds=self.paused_seconds + pause, paused_at=None)

    def add(self, minutes: int) -> Clock:
        """Return the clock with `minutes` more (fewer when negative; never below 0).

        Raises
        ------
        ClockError
            When it would leave the round less than no time at all.
        """
        if self.minutes + minutes < 0:
            raise ClockError(
                f"the round has {self.minutes} minutes; cannot take {-minutes} away", key="clock"
            )
        return replace(self, minutes=self.minutes + minutes)
