r"""One writer at a time: an exclusive lock beside a file, and an update that loses nothing.

A file that several commands change (an event file, kept by a tournament organizer and
updated from several terminals at once) is changed only under an exclusive advisory lock
(:func:`fcntl.flock`) on a lock file beside it, ``NAME.lock``. A command waits for the
lock at most :data:`DEFAULT_LOCK_WAIT_S` seconds (the environment variable
:data:`LOCK_WAIT_ENV` sets another bound), then gives up naming the holder: the holder
writes its process id and command line into the lock file. The kernel releases the lock
when its holder ends, however it ends (``kill -9`` included), so a lock is never stale;
the lock file itself stays (removing it would let two writers lock two different files).

Under the lock a command reads the file afresh, changes it and stages the new text with
:meth:`FileUpdate.stage`: checked, written to a temporary file in the same folder and
synced to disk. :meth:`FileUpdate.finish` then writes the command's report, flushes it and
only then renames the temporary file over the old one, so a report that cannot be written
(standard output full or closed) leaves the old file, and every failure before the
rename leaves it too: a command that fails has changed nothing.

Examples
--------
>>> import io, tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> event = folder / "event.toml"
>>> _ = event.write_text("seed = 1\n")
>>> report = io.StringIO()
>>> with locked_update(event, command="example") as update:
...     update.stage("seed = 2\n")
...     update.finish("seed changed\n", report)
>>> event.read_text(), report.getvalue()
('seed = 2\n', 'seed changed\n')
>>> lock_path(event).name
'event.toml.lock'
"""

from __future__ import annotations

import errno
import fcntl
import io
import os
import stat
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO, TypeVar

from tabletop.app.common.files import refuse_read_only as _refuse_read_only
from tabletop.app.common.files import stage_file
from tabletop.app.common.paths import (
    OutputTarget,
    output_target,
    publish,
)
from tabletop.app.common.text import clip, printable
from tabletop.geom.errors import InvalidInputError

__all__ = [
    "DEFAULT_LOCK_WAIT_S",
    "LOCK_SUFFIX",
    "LOCK_WAIT_ENV",
    "FileUpdate",
    "LockNotObtainedError",
    "exclusive_lock",
    "lock_path",
    "lock_wait_s",
    "locked_update",
    "publish_after_report",
    "report_then_publish",
]

_T = TypeVar("_T")

#: Seconds a command waits for another command's lock before it gives up (exit 2).
DEFAULT_LOCK_WAIT_S = 10.0
#: The environment variable that sets another wait, in seconds (0: do not wait).
LOCK_WAIT_ENV = "TABLETOP_LOCK_WAIT"
#: What is added to a file's name to name its lock file.
LOCK_SUFFIX = ".lock"
#: Longest wait that may be asked for, in seconds (a day): a bound, not a hang.
_MOST_WAIT_S = 86_400.0
#: Seconds between two tries of a lock held by another command.
_POLL_S = 0.01
#: Most bytes of the holder's line read back from a lock file.
_HOLDER_BYTES = 4096


class LockNotObtainedError(InvalidInputError):
    """Another command held the file's lock for longer than this command would wait."""


def lock_path(path: str | Path) -> Path:
    """Return the lock file of `path`: beside it, its name and :data:`LOCK_SUFFIX`.

    The folder is resolved, so that two spellings of one file share one lock.
    """
    target = Path(path)
    try:
        folder = target.parent.resolve()
    except (OSError, RuntimeError):
        folder = target.parent
    return folder / (target.name + LOCK_SUFFIX)


def lock_wait_s(environ: dict[str, str] | None = None) -> float:
    """Return the seconds to wait for a lock: :data:`LOCK_WAIT_ENV`, or the default.

    Raises
    ------
    InvalidInputError
        For a value that is not a number of seconds from 0 to a day.

    Examples
    --------
    >>> lock_wait_s({}), lock_wait_s({"TABLETOP_LOCK_WAIT": "0.5"})
    (10.0, 0.5)
    """
    given = (os.environ if environ is None else environ).get(LOCK_WAIT_ENV)
    if given is None or not given.strip():
        return DEFAULT_LOCK_WAIT_S
    try:
        seconds = float(given)
    except ValueError:
        seconds = float("nan")
    if not 0.0 <= seconds <= _MOST_WAIT_S:
        raise InvalidInputError(
            f"{LOCK_WAIT_ENV} is the seconds to wait for a file's lock, from 0 to "
            f"{_MOST_WAIT_S:.0f}; got {clip(printable(given), 80)!r}"
        )
    return seconds


def _open_lock(lock: Path, where: str) -> int:
    """Open (or create) the lock file itself, never a file a link at its name points to.

    ``O_NOFOLLOW``: a symbolic link at the lock's name is refused, not followed, and
    :func:`_check_lock_file` refuses anything but a regular file with one name.
    """
    flags = os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK
    try:
        handle = os.open(lock, os.O_RDWR | os.O_CREAT | flags, 0o666)
    except PermissionError:
        handle = -1  # another user's lock file: locking needs only a descriptor, not writing
    except OSError as error:
        raise _lock_error(lock, error, where, "create") from None
    if handle < 0:
        try:
            handle = os.open(lock, os.O_RDONLY | flags)
        except OSError as error:
            raise _lock_error(lock, error, where, "open") from None
    try:
        _check_lock_file(lock, os.fstat(handle), where)
    except BaseException:
        os.close(handle)
        raise
    return handle


def _lock_error(lock: Path, error: OSError, where: str, doing: str) -> InvalidInputError:
    if error.errno == errno.ELOOP:
        return InvalidInputError(
            f"the lock file {str(lock)!r} is a symbolic link; refusing to follow it "
            "(remove the link: the lock file is made anew)",
            where=where,
        )
    return InvalidInputError(
        f"cannot {doing} the lock file {str(lock)!r}: {error.strerror}", where=where
    )


def _check_lock_file(lock: Path, info: os.stat_result, where: str) -> None:
    """Refuse a lock path that is not a plain file of its own (a FIFO, a hard link)."""
    if not stat.S_ISREG(info.st_mode):
        raise InvalidInputError(
            f"the lock file {str(lock)!r} is not a regular file; refusing to use it",
            where=where,
        )
    if info.st_nlink != 1:
        raise InvalidInputError(
            f"the lock file {str(lock)!r} has {info.st_nlink} names (a hard link to "
            "another file); refusing to use it (remove it: the lock file is made anew)",
            where=where,
        )
    if info.st_size > _HOLDER_BYTES:
        raise InvalidInputError(
            f"the lock file {str(lock)!r} holds {info.st_size} bytes, more than a lock "
            "file's one line; refusing to use it (remove it if it is not needed)",
            where=where,
        )


def _holder(handle: int) -> str:
    try:
        text = os.pread(handle, _HOLDER_BYTES, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return clip(printable(text), 300) if text else "a process that did not say which"


def _say_holder(handle: int, command: str | None) -> None:
    line = (
        b""
        if command is None
        else f"pid {os.getpid()}: {command}\n".encode("utf-8", "backslashreplace")
    )[:_HOLDER_BYTES]
    try:
        # Only ever the lock file itself: opened without following a link, and checked
        # to be a regular file with one name (_open_lock).
        os.ftruncate(handle, 0)
        os.pwrite(handle, line, 0)
    except OSError:
        pass  # a read-only lock file (another user's): the lock holds all the same


@contextmanager
def exclusive_lock(
    path: str | Path, *, command: str, wait_s: float | None = None
) -> Iterator[Path]:
    """Hold the exclusive lock of `path` for the block; yield the lock file's path.

    Parameters
    ----------
    path : str or Path
        The file to be changed (it need not exist yet).
    command : str
        What holds the lock, written into the lock file for whoever waits.
    wait_s : float or None
        Seconds to wait for another holder (None: :func:`lock_wait_s`).

    Raises
    ------
    LockNotObtainedError
        When another command still holds the lock after `wait_s` seconds, naming it.
    InvalidInputError
        When the lock file cannot be created (no such folder, a read-only folder).
    """
    where = os.fspath(path)
    wait_s = lock_wait_s() if wait_s is None else wait_s
    lock = lock_path(path)
    handle = _open_lock(lock, where)
    try:
        deadline = time.monotonic() + wait_s
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as error:
                if error.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise InvalidInputError(
                        f"cannot lock {str(lock)!r}: {error.strerror}", where=where
                    ) from None
            if time.monotonic() >= deadline:
                raise LockNotObtainedError(
                    f"another command is changing this file; waited {wait_s:g} s for its "
                    f"lock {lock.name!r}, held by {_holder(handle)}; nothing was changed: "
                    f"try again when it has finished ({LOCK_WAIT_ENV} sets the seconds "
                    "to wait)",
                    where=where,
                )
            time.sleep(_POLL_S)
        _say_holder(handle, command)
        try:
            yield lock
        finally:
            _say_holder(handle, None)  # whoever locks it next without a word is not us
    finally:
        os.close(handle)  # closing the last descriptor releases the lock


class FileUpdate:
    """The one new version of a locked file: staged, then published after the report."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        # As given: Path() drops a trailing "/", which names a folder and is refused.
        self._given = os.fspath(path)
        self._target: OutputTarget | None = None
        self._temporary: Path | None = None

    def stage(
        self,
        data: str | bytes,
        *,
        path: str | Path | None = None,
        inputs: Iterable[str | Path] = (),
        force: bool = True,
        refuse_read_only: bool = True,
    ) -> None:
        """Write the new contents to a synced temporary file beside the target.

        Parameters
        ----------
        data : str or bytes
            The whole new file (text is written as UTF-8).
        path : str or Path or None
            The file written (None: the locked file).
        inputs : iterable of str or Path
            Files never written over (the command's inputs).
        force : bool
            Whether an existing file may be replaced (the locked file updated in place is).
        refuse_read_only : bool
            Whether a read-only file is refused rather than replaced: an event file is the
            organizer's database; a picture or log replaced with --force is not.

        Raises
        ------
        InvalidInputError
            As :func:`tabletop.app.common.paths.output_target` does, for a read-only file to be
            replaced, or when the temporary file cannot be written (a full disk).
        """
        if self._temporary is not None:
            raise RuntimeError("one update stages one file")
        target = output_target(self._given if path is None else path, inputs=inputs, force=force)
        if refuse_read_only:
            _refuse_read_only(target)
        temporary = stage_file(target, data)
        self._target, self._temporary = target, temporary

    def finish(self, report: str, out: TextIO) -> None:
        """Write and flush `report`, then give the staged file its name.

        The order is the point: the staged file is whole and synced before the report is
        written, and the report is flushed before the rename, so an output that cannot be
        written (``> /dev/full``, a closed pipe) raises here and the old file stays. The
        one step left after the report, a rename within one folder, fails only when the
        folder itself changed meanwhile, and then the command still fails saying so.
        """
        out.write(report)
        out.flush()
        self.publish()

    def publish(self) -> None:
        """Give the staged file its name (after the report is out: :meth:`finish`)."""
        if self._temporary is not None and self._target is not None:
            publish(self._temporary, self._target)
            self._temporary = None
            _sync_folder(self._target.folder)

    def discard(self) -> None:
        """Remove a staged file that was not published (the old file stays)."""
        if self._temporary is not None:
            self._temporary.unlink(missing_ok=True)
            self._temporary = None


def _sync_folder(folder: Path) -> None:
    # The rename is durable once the folder's entry is on disk, not before.
    try:
        handle = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass  # a file system that cannot sync folders: the rename is still atomic
    finally:
        os.close(handle)


@contextmanager
def locked_update(
    path: str | Path, *, command: str, wait_s: float | None = None
) -> Iterator[FileUpdate]:
    """Lock `path`, and yield the update to stage and finish under the lock.

    Whatever the block raises, a staged file that was not published is removed and the
    lock released: the file is the old one or the new one, never anything between.

    Raises
    ------
    LockNotObtainedError
        As :func:`exclusive_lock` does.
    InvalidInputError
        For a path no file can be written at (no such folder, a folder, a device).
    """
    output_target(path, force=True)  # a path no file can have is said so, before any lock
    with exclusive_lock(path, command=command, wait_s=wait_s):
        update = FileUpdate(path)
        try:
            yield update
        finally:
            update.discard()


def report_then_publish(
    path: str | Path | None, out: TextIO, work: Callable[[FileUpdate | None, TextIO], int]
) -> int:
    """Run `work` on an update of `path` and a buffer, then write its report and publish.

    For a command that writes one file besides its report (``play -o LOG``): `work`
    stages the file and writes its report to the buffer; the report reaches `out`, and
    only then is the file given its name (:meth:`FileUpdate.finish`). With `path` None
    there is no file and `work` gets None.
    """
    update = None if path is None else FileUpdate(path)
    report = io.StringIO()
    try:
        code = work(update, report)
        if update is None:
            out.write(report.getvalue())
        else:
            update.finish(report.getvalue(), out)
        return code
    finally:
        if update is not None:
            update.discard()


def publish_after_report(
    files: Iterable[tuple[str | Path, str | bytes]],
    out: TextIO,
    report: Callable[[TextIO], None],
    *,
    inputs: Iterable[str | Path] = (),
    force: bool = False,
) -> None:
    """Stage `files`, write the command's report to `out`, and only then publish them.

    For a command that writes files besides its report (``import -o``, ``setup -o``):
    every file is written whole to a temporary name first, `report` writes to a buffer,
    the buffer reaches `out` and is flushed, and only then does each file take its name.
    A report that cannot be written (standard output closed, full or gone) raises before
    any file is published, and every staged file is removed: a failed command leaves no
    output file.

    Raises
    ------
    InvalidInputError
        As :meth:`FileUpdate.stage` does, before anything is written to `out`.
    """
    sources = list(inputs)
    updates: list[FileUpdate] = []
    try:
        for path, data in files:
            update = FileUpdate(path)
            updates.append(update)
            update.stage(data, inputs=sources, force=force, refuse_read_only=False)
        buffer = io.StringIO()
        report(buffer)
        out.write(buffer.getvalue())
        out.flush()
        for update in updates:
            update.publish()
    finally:
        for update in updates:
            update.discard()
