"""Writing files safely (atomically, never over an input, over a file only if forced)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from tabletop.app.common.extras import require_plots
from tabletop.app.common.paths import (
    OutputTarget,
    output_target,
    publish,
    sweep_stale_temporaries,
    temporary_path,
)
from tabletop.geom.errors import InvalidInputError

__all__ = ["atomic_write", "picture_output", "refuse_read_only", "stage_file"]


def atomic_write(
    path: str | Path,
    data: bytes | str,
    *,
    inputs: Iterable[str | Path] = (),
    force: bool = False,
    read_only_kept: bool = False,
) -> None:
    """Write `data` to `path` through a short temporary name in the same folder.

    The new file honours the umask; a file it replaces (only with `force`) keeps its
    permission bits. Stale temporary files of ours in the folder are swept first
    (:func:`tabletop.app.common.paths.sweep_stale_temporaries`).

    Raises
    ------
    InvalidInputError
        When `path` is one of `inputs` (a command never writes over the file it reads,
        even with `force`), exists and `force` is false, is anything but a regular file
        or a new path in an existing folder, or the folder cannot be written; with
        `read_only_kept`, when it is a read-only file (:func:`refuse_read_only`).
    """
    target = output_target(path, inputs=inputs, force=force)
    if read_only_kept:
        refuse_read_only(target)
    publish(stage_file(target, data), target)


def refuse_read_only(target: OutputTarget) -> None:
    """Refuse to replace a file its owner made read-only (a rename would not ask).

    Raises
    ------
    InvalidInputError
        When the file `target` replaces has no write permission bit, or this process
        may not write it.
    """
    existing = target.replaces
    if existing is None:
        return
    no_write_bits = stat.S_IMODE(existing.st_mode) & 0o222 == 0
    if no_write_bits or not os.access(target.path, os.W_OK):
        raise InvalidInputError(
            "is read-only; refusing to replace it (make it writable to change it)",
            where=os.fspath(target.path),
        )


def stage_file(target: OutputTarget, data: bytes | str) -> Path:
    """Write `data` whole to a synced temporary file beside `target`; return its path.

    The one place a file's bytes are written: :func:`atomic_write` then gives it its name
    at once, :class:`tabletop.app.common.locking.FileUpdate` after the command's report. The new
    file honours the umask (0o666 less it, as any program's; mkstemp would force 0600).

    Raises
    ------
    InvalidInputError
        When the temporary file cannot be made or written (no permission, a full disk).
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    where = os.fspath(target.path)
    sweep_stale_temporaries(target.folder)
    temporary = temporary_path(target.folder)
    try:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        handle = os.open(temporary, flags, 0o666)
    except OSError as error:
        raise InvalidInputError(f"cannot write there: {error.strerror}", where=where) from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
            stream.flush()
            os.fsync(stream.fileno())
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise InvalidInputError(f"cannot write there: {error.strerror}", where=where) from None
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return temporary


def picture_output(
    path: str | Path,
    *,
    inputs: Iterable[str | Path] = (),
    force: bool = False,
    input_kind: str = "file",
) -> str:
    """Check a picture's output before anything is read or drawn; return its format.

    Every drawing command takes the formats of :data:`tabletop.plots.PICTURE_FORMATS`
    (by the suffix) and refuses any other with its one message; the
    picture is then written with :func:`atomic_write`.

    Raises
    ------
    InvalidInputError
        When matplotlib is not installed, when `path` may not be written (as
        :func:`atomic_write` says), or for a suffix that is not a picture format.
    """
    require_plots()
    output_target(path, inputs=inputs, force=force, input_kind=input_kind)
    from tabletop.plots.formats import picture_format  # matplotlib only for pictures

    return picture_format(path)
