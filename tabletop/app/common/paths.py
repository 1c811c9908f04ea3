"""Output paths: what a command may write to, and how a finished file takes its place.

A command writes only to a new path in an existing folder, or, with ``--force``, over an
existing regular file; never over one of its own inputs, a folder, a device node, a FIFO,
a socket or a symbolic link. The file is written under a short hidden temporary name in
the target's folder (``.tabletop-`` and 16 hex digits, so that a legal target name of
up to ``NAME_MAX`` bytes never makes the temporary name too long) and then takes the
target's name in one step. Temporary files of that naming left by a killed process are
removed by the next write in the folder once they are :data:`STALE_TEMPORARY_SECONDS`
old.

Examples
--------
>>> is_temporary_name(".tabletop-0123456789abcdef.tmp"), is_temporary_name("table.png")
(True, False)
"""

from __future__ import annotations

import dataclasses as _dc
import errno
import os
import re
import stat
import time
from collections.abc import Iterable
from pathlib import Path

from tabletop.app.common.datafile import STDIN_NAME
from tabletop.geom.errors import InvalidInputError

__all__ = [
    "STALE_TEMPORARY_SECONDS",
    "STDIN_NAME",
    "TEMPORARY_PREFIX",
    "OutputTarget",
    "is_temporary_name",
    "output_target",
    "publish",
    "same_file",
    "sweep_stale_temporaries",
    "temporary_path",
]

#: How every temporary file this package writes begins (hidden, and ours by name).
TEMPORARY_PREFIX = ".tabletop-"
#: A temporary file of our naming this old (by its modification time) is a leftover.
STALE_TEMPORARY_SECONDS = 15 * 60

# Ours: ".tabletop-<16 hex>.tmp" (every file, pictures included, is written by
# tabletop.app.common.files.atomic_write under such a name).
_TEMPORARY = re.compile(r"\.tabletop-[0-9a-f]{16}\.tmp")
_NAME_MAX_FALLBACK = 255


def is_temporary_name(name: str) -> bool:
    """Return whether `name` is the name of one of our temporary files."""
    return _TEMPORARY.fullmatch(name) is not None


@_dc.dataclass(frozen=True, slots=True)
class OutputTarget:
    """A checked output path.

    Attributes
    ----------
    path : Path
        The file to write.
    folder : Path
        Its folder (``.`` for a bare name).
    replaces : os.stat_result or None
        The regular file it replaces (with ``--force``), or None for a new path.
    force : bool
        Whether a file that appears at the path meanwhile may be replaced too.
    """

    path: Path
    folder: Path
    replaces: os.stat_result | None
    force: bool = False


def _name_max(folder: Path) -> int:
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError):
        return _NAME_MAX_FALLBACK


def same_file(a: str | Path, b: str | Path) -> bool:
    """Return whether two paths name one file (hard links and ``./`` spellings included)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        pass
    try:
        return Path(a).resolve() == Path(b).resolve()
    except (OSError, RuntimeError, ValueError):
        return False


def output_target(
    path: str | Path,
    *,
    inputs: Iterable[str | Path] = (),
    force: bool = False,
    input_kind: str = "file",
) -> OutputTarget:
    """Check that `path` may be written, and return it with what it would replace.

    Parameters
    ----------
    path : str or Path
        The output the user named.
    inputs : iterable of str or Path
        The command's input files (``-``, standard input, is skipped): never written.
    force : bool
        Whether an existing regular file may be replaced.
    input_kind : str
        What the inputs are, for the message (``"scene"``).

    Raises
    ------
    InvalidInputError
        For an empty path, a path ending in ``/``, a name longer than the folder allows,
        a folder that does not exist, one of `inputs`, an existing folder, device, FIFO,
        socket or symbolic link, and an existing file without `force`.
    """
    text = os.fspath(path)
    target = _file_name(text)
    folder = target.parent
    _check_folder(folder, target.name, text)
    for source in inputs:
        if os.fspath(source) != STDIN_NAME and same_file(source, target):
            raise InvalidInputError(
                f"refusing to write over the input {input_kind} {os.fspath(source)!r}, "
                "even with --force; choose another output",
                where=text,
            )
    try:
        existing = os.lstat(target)
    except FileNotFoundError:
        return OutputTarget(target, folder, None, force)
    except OSError as error:
        raise InvalidInputError(f"cannot write there: {error.strerror}", where=text) from None
    _check_replaceable(existing.st_mode, force, text)
    return OutputTarget(target, folder, existing, force)


def _file_name(text: str) -> Path:
    """Return the output path, refusing an empty one and one that names a folder."""
    if not text:
        raise InvalidInputError("an empty output path; expected a file name")
    if text.endswith(("/", os.sep)):
        raise InvalidInputError(
            "ends in '/', which names a folder; expected a file name", where=text
        )
    target = Path(text)
    if target.name in ("", ".", ".."):
        raise InvalidInputError("names a folder; expected a file name", where=text)
    return target


def _check_folder(folder: Path, name: str, text: str) -> None:
    """Refuse a folder that is missing or unusable, or too short a name limit for `name`."""
    try:
        folder_mode = os.stat(folder).st_mode
    except FileNotFoundError:
        raise InvalidInputError(f"no folder {str(folder)!r} to write in", where=text) from None
    except OSError as error:
        raise InvalidInputError(
            f"cannot use the folder {str(folder)!r}: {error.strerror}", where=text
        ) from None
    if not stat.S_ISDIR(folder_mode):
        raise InvalidInputError(f"{str(folder)!r} is not a folder", where=text)
    size, most = len(os.fsencode(name)), _name_max(folder)
    if size > most:
        raise InvalidInputError(
            f"the file name is {size} bytes long; this folder allows at most {most}", where=text
        )


def _check_replaceable(mode: int, force: bool, text: str) -> None:
    """Refuse to replace a link, folder, device, FIFO or socket, or a file without `force`."""
    if stat.S_ISLNK(mode):
        raise InvalidInputError(
            "is a symbolic link; refusing to replace it (name the file it points to)", where=text
        )
    if stat.S_ISDIR(mode):
        raise InvalidInputError("is a folder; expected a file name", where=text)
    if not stat.S_ISREG(mode):
        raise InvalidInputError(
            "is not a regular file (a device, FIFO or socket); refusing to replace it",
            where=text,
        )
    if not force:
        raise InvalidInputError(
            "the file exists; refusing to write over it (--force replaces it)", where=text
        )


def temporary_path(folder: Path) -> Path:
    """Return a new temporary file name in `folder` (the file is not created)."""
    import secrets  # here: its imports (hmac, hashlib, random) are for writing commands only

    return folder / f"{TEMPORARY_PREFIX}{secrets.token_hex(8)}.tmp"


def sweep_stale_temporaries(folder: Path, *, now: float | None = None) -> list[str]:
    """Remove our temporary files in `folder` older than :data:`STALE_TEMPORARY_SECONDS`.

    Returns the names removed. A file another writer is still writing is younger than
    that and stays; a name not of our making is never touched.
    """
    now = time.time() if now is None else now
    removed: list[str] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if not is_temporary_name(entry.name):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime > STALE_TEMPORARY_SECONDS:
                os.unlink(entry.path)
                removed.append(entry.name)
        except OSError:
            continue  # gone already, or not ours to remove
    return removed


def publish(temporary: Path, target: OutputTarget) -> None:
    """Give the finished `temporary` file the target's name, in one step.

    Without ``force`` a new path is taken with a hard link, which fails rather than
    replace a file that appeared meanwhile; a replaced file's permission bits are kept.

    Raises
    ------
    InvalidInputError
        When a file appeared at a new path meanwhile, or the rename fails.
    """
    where = os.fspath(target.path)
    try:
        if target.replaces is not None or target.force:
            if target.replaces is not None:
                os.chmod(temporary, stat.S_IMODE(target.replaces.st_mode))
            os.replace(temporary, target.path)
            return
        try:
            os.link(temporary, target.path)
        except FileExistsError:
            raise InvalidInputError(
                "a file appeared there while writing; refusing to write over it "
                "(--force replaces it)",
                where=where,
            ) from None
        except OSError as error:
            if error.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
                raise
            # A file system without hard links: a plain rename, checked just before.
            if os.path.lexists(target.path):
                raise InvalidInputError(
                    "a file appeared there while writing; refusing to write over it", where=where
                ) from None
            os.replace(temporary, target.path)
            return
        os.unlink(temporary)
    except OSError as error:
        raise InvalidInputError(f"cannot write there: {error.strerror}", where=where) from None
    finally:
        try:
            os.unlink(temporary)
        except OSError:
            pass
