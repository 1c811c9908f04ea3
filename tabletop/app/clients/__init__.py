"""Client files in: Tabletop Simulator and VASSAL saves, XWS lists (``import.md``).

A reader is a module of this package with ``recognises(data: bytes) -> bool`` and
``read(data: bytes, name: str, *, table: str | None, step: int | None) -> ClientImport``;
a reader of logs also has ``read_steps(data: bytes, name: str, *, table: str | None) ->
tuple[Step, ...]``. :data:`READERS` lists them; :func:`sniff` picks one by content,
never by the suffix alone. Every command that reads a scene reads a client file through
:func:`tabletop.app.scene.sources.load_scene_or_save`, imported on the fly with the ids
``import`` assigns.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import stat
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Protocol, cast

from tabletop.app.clients.recognise import RECOGNISERS
from tabletop.app.common.datafile import STDIN_NAME
from tabletop.geom.lazy import lazy_attributes

if TYPE_CHECKING:
    from tabletop.app.clients.model import (
        ClientFileError,
        ClientImport,
        Imported,
        Match,
        Resolution,
        Skipped,
        SourceInfo,
        Step,
    )

__all__ = [
    "MAX_CLIENT_FILE_BYTES",
    "READERS",
    "ClientFileError",
    "ClientImport",
    "Imported",
    "Match",
    "Resolution",
    "Skipped",
    "SourceInfo",
    "Step",
    "is_client_file",
    "read_bytes",
    "read_client",
    "read_steps",
    "sniff",
]

# The import records load on first use (PEP 562): a command reading a plain scene file
# passes through this package without building a client's record types.
_MODEL_NAMES = (
    "ClientFileError",
    "ClientImport",
    "Imported",
    "Match",
    "Resolution",
    "Skipped",
    "SourceInfo",
    "Step",
)
__getattr__, __dir__ = lazy_attributes(
    __name__, dict.fromkeys(_MODEL_NAMES, "tabletop.app.clients.model"), __all__
)

#: Largest client file read, bytes (a plain file; archives have their own bounds).
MAX_CLIENT_FILE_BYTES = 64 * 1024 * 1024

#: Reader name -> module, asked in this order (the first that recognises a file reads it).
READERS: dict[str, str] = {
    "tts": "tabletop.app.clients.tts",
    "vassal": "tabletop.app.clients.vassal",
    "xws": "tabletop.app.clients.xws",
}


class Reader(Protocol):
    """What a reader module provides."""

    def recognises(self, data: bytes) -> bool: ...

    def read(
        self, data: bytes, name: str, *, table: str | None, step: int | None
    ) -> ClientImport: ...


def _module(key: str) -> ModuleType | None:
    path = READERS[key]
    if importlib.util.find_spec(path) is None:
        return None
    return importlib.import_module(path)


def sniff(data: bytes, name: str) -> str | None:
    """Return the key of the reader (of :data:`READERS`) that recognises `data`, or None.

    `name` is the file's name, for messages only: the content decides.

    Examples
    --------
    >>> sniff(b'{"ObjectStates": [], "GameMode": "X-Wing 2.0"}', "x.json")
    'tts'
    >>> sniff(b'ruleset = "xwing2"', "scene.toml") is None
    True
    """
    del name
    for key in READERS:
        # The readers' own tests, without importing a reader: a plain scene file is told
        # apart at the cost of these few byte tests.
        test = RECOGNISERS.get(key)
        if test is not None:
            if test(data):
                return key
            continue
        module = _module(key)
        if module is not None and cast(Reader, module).recognises(data):
            return key
    return None


def read_bytes(path: str | Path) -> bytes:
    """Read a client file, bounded by :data:`MAX_CLIENT_FILE_BYTES`.

    Raises
    ------
    ClientFileError
        For a missing or unreadable file, anything but a regular file, or a file over
        the bound (with its size).
    """
    from tabletop.app.clients.model import ClientFileError

    name = str(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise ClientFileError("no such file", file=name) from None
    except OSError as problem:
        raise ClientFileError(f"cannot read the file: {problem.strerror}", file=name) from None
    if not stat.S_ISREG(info.st_mode):
        raise ClientFileError("is not a regular file", file=name)
    if info.st_size > MAX_CLIENT_FILE_BYTES:
        raise ClientFileError(
            f"the file is {info.st_size} bytes; a client file may be at most "
            f"{MAX_CLIENT_FILE_BYTES} bytes (64 MiB)",
            file=name,
        )
    try:
        with open(path, "rb") as stream:
            raw = stream.read(MAX_CLIENT_FILE_BYTES + 1)  # bounded: the file may be growing
    except OSError as problem:
        raise ClientFileError(f"cannot read the file: {problem.strerror}", file=name) from None
    if len(raw) > MAX_CLIENT_FILE_BYTES:
        raise ClientFileError(
            f"the file is over {MAX_CLIENT_FILE_BYTES} bytes (64 MiB), the most a client "
            "file may be",
            file=name,
        )
    return raw


def _data_and_name(path_or_bytes: str | Path | bytes, name: str | None) -> tuple[bytes, str]:
    if isinstance(path_or_bytes, bytes):
        return path_or_bytes, name or "<client file>"
    return read_bytes(path_or_bytes), name or str(path_or_bytes)


def _reader_for(data: bytes, name: str) -> ModuleType:
    from tabletop.app.clients.model import ClientFileError

    key = sniff(data, name)
    if key is None:
        raise ClientFileError(
            "not a file of a known client: expected a Tabletop Simulator save or saved "
            "object (JSON with ObjectStates), a VASSAL save or log, or an XWS list",
            file=name,
        )
    module = _module(key)
    assert module is not None  # sniff found it
    return module


def read_client(
    path_or_bytes: str | Path | bytes,
    *,
    table: str | None = None,
    step: int | None = None,
    name: str | None = None,
) -> ClientImport:
    """Read one position of a client file (a log's `step`, or its last).

    Raises
    ------
    ClientFileError
        For a file no reader recognises, or anything its reader refuses.
    """
    data, label = _data_and_name(path_or_bytes, name)
    module = _reader_for(data, label)
    return cast(Reader, module).read(data, label, table=table, step=step)


def read_steps(
    path_or_bytes: str | Path | bytes, *, table: str | None = None, name: str | None = None
) -> tuple[Step, ...]:
    """Read every step of a log (step 0 is the position it starts from).

    Raises
    ------
    ClientFileError
        For a file that is not a log, or anything its reader refuses.
    """
    from tabletop.app.clients.model import ClientFileError

    data, label = _data_and_name(path_or_bytes, name)
    module = _reader_for(data, label)
    steps = getattr(module, "read_steps", None)
    if steps is None:
        raise ClientFileError(
            "holds one position, not a log: --steps, --step and --all-steps take a VASSAL "
            "log (.vlog)",
            file=label,
        )
    return cast("tuple[Step, ...]", steps(data, label, table=table))


def is_client_file(path: str | Path) -> bool:
    """Tell whether `path` is a regular file that a client reader recognises.

    A missing file, standard input (``-``) or a file too large to be a client file is
    not (the scene reader then reports it as it always has).
    """
    if str(path) == STDIN_NAME:
        return False
    try:
        info = os.stat(path)
    except OSError:
        return False
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_CLIENT_FILE_BYTES:
        return False
    if Path(path).suffix.lower() == ".toml":
        return False
    try:
        with open(path, "rb") as stream:
            head = stream.read(MAX_CLIENT_FILE_BYTES + 1)
    except OSError:
        return False
    return sniff(head, str(path)) is not None
