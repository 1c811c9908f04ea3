"""The served event: the file as last read, its version, the players' reports, the writes.

The event file stays the database. :class:`EventHub` reads it when it changes (its own
writes, or a ``tabletop event`` command in a terminal beside the server) and gives each
state a :class:`Snapshot` with a version: a number that changes with the file's bytes
and with the reports awaiting confirmation (kept here until confirmed; a restart forgets
them and the players report again). Every write runs :meth:`EventHub.write`: one at a
time, under the event's lock (:func:`tabletop.app.common.locking.locked_update`), the
version the request was based on checked against the file read under that lock, and the
change staged and published whole, or nothing changed.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletop.app.common.datafile import FileError, parse_text
from tabletop.app.common.locking import FileUpdate, locked_update
from tabletop.app.event.eventfile import EventFileError, parse_event, tournament_error
from tabletop.app.event.server.secretsfile import Secrets, ensure_secrets
from tabletop.app.web.errors import RequestError
from tabletop.geom.errors import InvalidInputError
from tabletop.tournament import Event, TournamentError

__all__ = [
    "EventHub",
    "PlayerReport",
    "Snapshot",
    "TableReports",
    "api_error",
    "conflict",
]

_log = logging.getLogger("tabletop.web")
#: Seconds between two looks at the event file for a change made elsewhere.
WATCH_SECONDS = 0.25
#: Seconds a write waits for the event's lock (a command in a terminal holding it).
LOCK_WAIT_SECONDS = 10.0


@dataclass(frozen=True)
class PlayerReport:
    """A result as one player reported it: the result (scores in the match's order)."""

    by: str
    result: dict[str, Any]
    text: str

    def as_json(self) -> dict[str, Any]:
        """Return it for the API: who reported what."""
        return {"by": self.by, **self.result, "text": self.text}


@dataclass(frozen=True)
class TableReports:
    """The reports of one table: the first, and the opponent's other one when they differ."""

    round: int
    table: int
    first: PlayerReport
    other: PlayerReport | None = None

    @property
    def state(self) -> str:
        """``"awaiting-confirmation"`` or ``"disputed"``."""
        return "awaiting-confirmation" if self.other is None else "disputed"

    def public(self) -> dict[str, Any]:
        """Return what a spectator sees: the state (and who reported), never the numbers."""
        if self.other is None:
            return {"state": self.state, "by": self.first.by}
        return {"state": self.state}

    def full(self) -> dict[str, Any]:
        """Return what the players of the table and the TO see: every report's numbers."""
        entry = {"state": self.state, "by": self.first.by}
        reports = [self.first] + ([self.other] if self.other else [])
        return entry | {"reports": [r.as_json() for r in reports]}


@dataclass
class Snapshot:
    """The event as served at one version (the views of it are made once and kept)."""

    version: int
    event: Event
    reports: dict[tuple[int, int], TableReports]
    secrets: Secrets
    views: dict[str, Any] = field(default_factory=dict)


def api_error(error: Exception, path: Path) -> InvalidInputError:
    """Return an error of the event's commands as the API's: where, without the local file."""
    if isinstance(error, TournamentError):
        error = tournament_error(error, str(path))
    if isinstance(error, FileError):
        parts = [p for p in (error.entry, f"key {error.key!r}" if error.key else None) if p]
        return RequestError(error.message, where=": ".join(parts) or None)
    assert isinstance(error, InvalidInputError)
    return error


def conflict(message: str, where: str | None = None) -> RequestError:
    """Return a 409 refusal: the event is not in the state the request expects."""
    error = RequestError(message, where=where)
    error.status = 409
    return error


def _version_of(text: bytes, reports: dict[tuple[int, int], TableReports]) -> int:
    digest = hashlib.sha256(text)
    shown = sorted((k, v.full()) for k, v in reports.items())
    digest.update(json.dumps(shown, sort_keys=True).encode())
    return int.from_bytes(digest.digest()[:6], "big")  # 48 bits: exact in JavaScript


class EventHub:
    """The event file served, as snapshots; the one way the server changes it.

    Parameters
    ----------
    path : Path
        The event file.
    read_only : bool
        Whether every write is refused (403).
    """

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        #: The public page's address (for the QR code of the printables), once served.
        self.public_url: str | None = None
        self._write_lock = threading.Lock()  # one file write at a time
        self._state_lock = threading.Lock()  # the snapshot; taken before the reports' lock
        self._reports_lock = threading.Lock()  # the reports awaiting confirmation
        self._reports: dict[tuple[int, int], TableReports] = {}
        self._seen: tuple[int, int, int] | None = None
        self._text = b""
        self._parsed: tuple[bytes, Event] | None = None
        self._listeners: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None
        self._checked = 0.0
        self.snapshot = self._read(self.path.read_bytes())

    # -- reading --------------------------------------------------------------------------

    def _parse(self, text: bytes) -> Event:
        """Return the event of the file's bytes (the last bytes read are not read again)."""
        if self._parsed is not None and self._parsed[0] == text:
            return self._parsed[1]
        try:
            data = parse_text(text.decode("utf-8"), self.path, "event", EventFileError)
            event = parse_event(data, str(self.path))
        except UnicodeDecodeError as error:
            raise EventFileError(f"not UTF-8 (byte {error.start})", file=str(self.path)) from None
        self._parsed = (text, event)
        return event

    def _secrets_for(self, event: Event) -> Secrets:
        """Return the secrets, with a code for every player (a new one gets one at once)."""
        known: Snapshot | None = getattr(self, "snapshot", None)
        if known is not None and all(p.id in known.secrets.codes for p in event.players):
            return known.secrets
        return ensure_secrets(self.path, (p.id for p in event.players))

    def _read(self, text: bytes) -> Snapshot:
        event = self._parse(text)
        secret = self._secrets_for(event)
        self._text = text
        with self._reports_lock:
            self._forget_settled(event)
            reports = dict(self._reports)
        return Snapshot(_version_of(text, reports), event, reports, secret)

    def _forget_settled(self, event: Event) -> None:
        """Drop reports of tables that have a result or are no longer the current round."""
        current = len(event.rounds)
        for key in list(self._reports):
            number, table = key
            match = event.rounds[number - 1].match(table) if number == current else None
            if match is None or match.has_result:
                del self._reports[key]

    def _stat(self) -> tuple[int, int, int]:
        info = os.stat(self.path)
        return (info.st_mtime_ns, info.st_size, info.st_ino)

    def refresh(self, *, force: bool = False) -> Snapshot:
        """Read the file again when it changed (or `force`); publish and announce a new version.

        The file is read and parsed outside the snapshot's lock (the slow part), and its
        snapshot published only if the file is still the one read: a newer file is
        published by whoever reads it (at the latest the watcher, a quarter second on).
        """
        try:
            seen = self._stat()
            if seen == self._seen and not force:
                self._checked = time.monotonic()
                return self.snapshot
            text = self.path.read_bytes()
            event = self._parse(text)
            secret = self._secrets_for(event)
        except (OSError, InvalidInputError) as error:  # a file being edited by hand
            _log.warning("the event file cannot be read now (%s); serving the last one", error)
            return self.snapshot
        with self._state_lock:
            try:
                if self._stat() != seen:
                    return self.snapshot
            except OSError:
                return self.snapshot
            self._seen, self._text = seen, text
            with self._reports_lock:
                self._forget_settled(event)
                reports = dict(self._reports)
            version = _version_of(text, reports)
            if version != self.snapshot.version:
                self.snapshot = Snapshot(version, event, reports, secret)
                self._announce()
            self._checked = time.monotonic()
            return self.snapshot

    def refresh_if_due(self) -> Snapshot:
        """Look at the file if it was not looked at in the last :data:`WATCH_SECONDS`."""
        if time.monotonic() - self._checked >= WATCH_SECONDS:
            return self.refresh()
        return self.snapshot

    # -- who is told of a change ----------------------------------------------------------

    def listen(self, loop: asyncio.AbstractEventLoop, flag: asyncio.Event) -> None:
        """Set `flag` (in `loop`) at every new version."""
        self._listeners.add((loop, flag))

    def unlisten(self, loop: asyncio.AbstractEventLoop, flag: asyncio.Event) -> None:
        """Stop setting `flag`."""
        self._listeners.discard((loop, flag))

    def _announce(self) -> None:
        for loop, flag in list(self._listeners):
            try:
                loop.call_soon_threadsafe(flag.set)
            except RuntimeError:  # its loop has closed
                self._listeners.discard((loop, flag))

    def watch(self) -> None:
        """Look for changes made elsewhere every :data:`WATCH_SECONDS`, in a thread, until stopped."""
        if self._watcher is not None:
            return

        def run() -> None:
            while not self._stop.wait(WATCH_SECONDS):
                self.refresh()

        self._watcher = threading.Thread(target=run, name="event-watch", daemon=True)
        self._watcher.start()

    def stop(self) -> None:
        """Stop watching."""
        self._stop.set()
        if self._watcher is not None:
            self._watcher.join(timeout=2)

    # -- writing --------------------------------------------------------------------------

    def _refuse_read_only(self) -> None:
        if self.read_only:
            error = RequestError("the server is read-only (--read-only): nothing is changed")
            error.status = 403
            raise error

    def write(
        self,
        command: str,
        change: Callable[[FileUpdate, Event], str],
        *,
        version: int | None = None,
    ) -> str:
        """Change the event under its lock; return the change's report.

        `change` gets the locked update and the event read under the lock; it stages the
        new file and returns its report. With `version`, the write is refused (409) when
        the event is no longer at that version. Any error leaves the file as it was.
        """
        self._refuse_read_only()
        with self._write_lock:
            try:
                with locked_update(self.path, command=command, wait_s=LOCK_WAIT_SECONDS) as update:
                    text = self.path.read_bytes()
                    with self._reports_lock:
                        now = _version_of(text, self._reports)
                    if version is not None and version != now:
                        raise conflict(
                            "the event has changed since the version this request was based "
                            f"on ({version}); reload and try again",
                            "version",
                        )
                    report = change(update, self._parse(text))
                    update.finish("", io.StringIO())
            except (TournamentError, InvalidInputError) as error:
                raise api_error(error, self.path) from None
            self.refresh(force=True)
            return report

    def change_reports(self, change: Callable[[dict[tuple[int, int], TableReports]], Any]) -> Any:
        """Change the reports awaiting confirmation (not waiting for a file write); publish them.

        `change` gets the reports themselves, under their lock; its answer is returned.
        """
        self._refuse_read_only()
        with self._reports_lock:
            answer = change(self._reports)
        self._republish()
        return answer

    def report_of(self, key: tuple[int, int]) -> TableReports | None:
        """Return the reports of a table (round, table) as they are now."""
        with self._reports_lock:
            return self._reports.get(key)

    def _republish(self) -> None:
        """Publish the reports as they are now, with the event last read."""
        with self._state_lock, self._reports_lock:
            known = self.snapshot
            self._forget_settled(known.event)  # a report that lost a race with a result
            reports = dict(self._reports)
            version = _version_of(self._text, reports)
            if version != known.version:
                self.snapshot = Snapshot(version, known.event, reports, known.secrets)
                self._announce()

    def ensure_codes(self, players: Iterable[str]) -> Secrets:
        """Give every player in `players` a code (a player added here gets one at once)."""
        return ensure_secrets(self.path, players)
