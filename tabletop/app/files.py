"""Writing files safely (atomically, never over an input, over a file only if forced)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from tabletop.app.paths import output_target, publish, sweep_stale_temporaries, temporary_path
from tabletop.geom.errors import InvalidInputError

__all__ = ["atomic_write", "write_through"]

_T = TypeVar("_T")


def atomic_write(
    path: str | Path,
    data: bytes | str,
    *,
    inputs: Iterable[str | Path] = (),
    force: bool = False,
) -> None:
    """Write `data` to `path` through a short temporary name in the same folder.

    The new file honours the umask; a file it replaces (only with `force`) keeps its
    permission bits. Stale temporary files of ours in the folder are swept first
    (:func:`tabletop.app.paths.sweep_stale_temporaries`).

    Raises
    ------
    InvalidInputError
        When `path` is one of `inputs` (a command never writes over the file it reads,
        even with `force`), exists and `force` is false, is anything but a regular file
        or a new path in an existing folder, or the folder cannot be written.
    """
    target = output_target(path, inputs=inputs, force=force)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    sweep_stale_temporaries(target.folder)
    temporary = temporary_path(target.folder)
    try:
        # 0o666 and the umask, as any program's new file; mkstemp would force 0600.
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as error:
        raise InvalidInputError(f"cannot write there: {error.strerror}", where=str(path)) from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
            stream.flush()
            os.fsync(stream.fileno())
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise InvalidInputError(f"cannot write there: {error.strerror}", where=str(path)) from None
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    publish(temporary, target)


def write_through(
    path: str | Path,
    draw: Callable[[Path], _T],
    *,
    inputs: Iterable[str | Path] = (),
    force: bool = False,
    input_kind: str = "file",
) -> _T:
    """Let `draw` write a file under a short temporary name, then give it `path`'s name.

    For writers that want a path of their own (matplotlib's ``savefig``): their own
    temporary names grow with the target's, past the folder's name limit for long names.
    The checks are :func:`atomic_write`'s; `draw`'s result is returned.

    Raises
    ------
    InvalidInputError
        As :func:`atomic_write` does, checked before `draw` runs.
    """
    target = output_target(path, inputs=inputs, force=force, input_kind=input_kind)
    sweep_stale_temporaries(target.folder)
    temporary = temporary_path(target.folder, target.path.suffix.lower())
    try:
        result = draw(temporary)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    publish(temporary, target)
    return result
