"""Reading structured input files (TOML or JSON): scenes, events, game and battle files.

One reader for every file kind, so that each reports a problem the same way: a
:class:`FileError` naming the file, the entry, the key, and what was expected. JSON is
read strictly (a repeated key is an error; ``NaN`` and ``Infinity`` read as floats so the
kind's own checks can name the entry and key that holds them).

Examples
--------
>>> loads_json('{"a": 1}')
{'a': 1}
>>> str(FileError("expected a number, got 'x'", file="e.toml", entry="players[2]", key="id"))
"e.toml: players[2]: key 'id': expected a number, got 'x'"
"""

from __future__ import annotations

import json as _json
import os as _os
import stat as _stat
import sys as _sys
from pathlib import Path
from typing import Any

from tabletop.geom.errors import InvalidInputError, show

__all__ = [
    "MAX_FILE_BYTES",
    "STDIN_LABEL",
    "STDIN_NAME",
    "FileError",
    "loads_json",
    "parse_text",
    "read_data",
    "refuse_lone_surrogates",
    "show",
    "source_name",
]

#: Largest input file read, bytes (standard input too).
MAX_FILE_BYTES = 10 * 1024 * 1024
#: The argument that names standard input instead of a file.
STDIN_NAME = "-"
#: How messages name standard input (given as ``-``).
STDIN_LABEL = "<stdin>"
_BOM = "\ufeff"


class FileError(InvalidInputError):
    """An input file that cannot be used, with where the problem is.

    Attributes
    ----------
    file : str
        The file (or ``<scene>``-style name for inline data).
    entry : str or None
        ``obstacles[2] 'rock-a'`` or ``play 7`` style, or None for a file-level key.
    key : str or None
        The key at fault.
    """

    def __init__(
        self, message: str, *, file: str, entry: str | None = None, key: str | None = None
    ) -> None:
        parts = [file]
        if entry:
            parts.append(entry)
        if key:
            parts.append(f"key {show(key)}")
        super().__init__(message, where=": ".join(parts))
        self.file, self.entry, self.key = file, entry, key


def _json_constant(token: str) -> float:
    # NaN, Infinity and -Infinity are read as floats so that the kind's checks reject
    # them naming the entry and the key, as they do TOML's nan and inf.
    return float(token)


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # A repeated key would otherwise silently drop the earlier value (TOML rejects it too).
    table: dict[str, Any] = dict(pairs)
    if len(table) == len(pairs):  # no repeat: the common case, built at C speed
        return table
    table = {}
    for key, value in pairs:
        if key in table:
            raise ValueError(f"duplicate key {show(key)} in one object")
        table[key] = value
    return table


def loads_json(text: str) -> Any:
    """Parse JSON strictly: repeated keys are an error, NaN reads as a float.

    Raises
    ------
    ValueError
        For text that is not JSON, or an object with a repeated key.
    RecursionError
        For nesting deeper than the interpreter allows.
    """
    if isinstance(text, str) and not text.startswith("\ufeff"):
        # json.loads builds this decoder anew on every call; a request stream parses
        # thousands of lines.
        return _DECODER.decode(text)
    return _json.loads(text, parse_constant=_json_constant, object_pairs_hook=_json_object)


_DECODER = _json.JSONDecoder(parse_constant=_json_constant, object_pairs_hook=_json_object)


def source_name(path: str | Path) -> str:
    """Return how messages name an input: its path, or ``<stdin>`` for ``-``.

    Examples
    --------
    >>> source_name("-"), source_name("scene.toml")
    ('<stdin>', 'scene.toml')
    """
    name = str(path)
    return STDIN_LABEL if name == STDIN_NAME else name


#: Standard input streams already read (kept alive, so that no new stream shares an id).
_STDIN_READ: list[object] = []


def _read_stdin(kind: str, error: type[FileError]) -> bytes:
    stream = _sys.stdin
    if any(seen is stream for seen in _STDIN_READ):
        raise error(f"standard input was read already; only one {kind} may be -", file=STDIN_LABEL)
    _STDIN_READ.append(stream)
    if stream is None:
        raise error("there is no standard input to read", file=STDIN_LABEL)
    try:
        buffer = getattr(stream, "buffer", None)
        raw = (
            buffer.read(MAX_FILE_BYTES + 1)
            if buffer is not None
            else stream.read(MAX_FILE_BYTES + 1).encode("utf-8", "surrogateescape")
        )
    except OSError as problem:
        raise error(f"cannot read standard input: {problem.strerror}", file=STDIN_LABEL) from None
    if len(raw) > MAX_FILE_BYTES:
        raise error(
            f"standard input holds over {MAX_FILE_BYTES} bytes, the most a {kind} may be",
            file=STDIN_LABEL,
        )
    return bytes(raw)


def _read_file(file: Path, kind: str, error: type[FileError]) -> bytes:
    name = str(file)
    try:
        # Non-blocking, so that opening a FIFO with no writer returns at once to be refused.
        handle = _os.open(file, _os.O_RDONLY | _os.O_NONBLOCK | getattr(_os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise error("no such file", file=name) from None
    except IsADirectoryError:
        raise error(f"is a directory, not a {kind} file", file=name) from None
    except OSError as problem:
        raise error(f"cannot read the file: {problem.strerror}", file=name) from None
    try:
        info = _os.fstat(handle)
        if _stat.S_ISDIR(info.st_mode):
            raise error(f"is a directory, not a {kind} file", file=name)
        if not _stat.S_ISREG(info.st_mode):
            raise error(
                f"is not a regular file (a FIFO, device or socket); to read a {kind} "
                "from a pipe, give - and send it on standard input",
                file=name,
            )
        if info.st_size > MAX_FILE_BYTES:
            raise error(
                f"the file is {info.st_size} bytes; a {kind} may be at most {MAX_FILE_BYTES} bytes",
                file=name,
            )
        with open(handle, "rb", closefd=False) as stream:
            raw = stream.read(MAX_FILE_BYTES + 1)  # bounded: the file may be growing
    except OSError as problem:
        raise error(f"cannot read the file: {problem.strerror}", file=name) from None
    finally:
        _os.close(handle)
    if len(raw) > MAX_FILE_BYTES:
        raise error(f"the file is over {MAX_FILE_BYTES} bytes, the most a {kind} may be", file=name)
    return raw


def read_data(path: str | Path, kind: str = "scene", error: type[FileError] = FileError) -> Any:
    """Read a TOML or JSON file's structure (by suffix), without interpreting it.

    ``-`` reads standard input, once, bounded as a file is: it is JSON when its first
    character other than white space is ``{`` (no TOML document can begin so), TOML
    otherwise. A leading UTF-8 byte-order mark is skipped.

    Parameters
    ----------
    path : str or Path
        The file, or ``-`` for standard input.
    kind : str
        What the file is ("scene", "event", "game", "battle"), for messages.
    error : type of FileError
        The error class raised (a kind's own subclass, such as ``SceneError``).

    Raises
    ------
    FileError
        For a missing or unreadable file, anything but a regular file (a FIFO, a
        device), an unknown suffix, a file over :data:`MAX_FILE_BYTES`, text that is not
        UTF-8, or text that does not parse (a JSON object with a repeated key included).
    """
    file = Path(path)
    name = source_name(path)
    if str(path) == STDIN_NAME:
        raw = _read_stdin(kind, error)
    else:
        if file.suffix.lower() not in (".toml", ".json"):
            raise error(
                f"unknown {kind} file type {file.suffix or '(none)'!r}; expected .toml or .json",
                file=name,
            )
        raw = _read_file(file, kind, error)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as problem:
        raise error(f"not UTF-8 text (byte {problem.start})", file=name) from None
    text = text.removeprefix(_BOM)
    if str(path) == STDIN_NAME:
        is_toml = not text.lstrip(" \t\r\n").startswith("{")
    else:
        is_toml = file.suffix.lower() == ".toml"
    return _parse(text, is_toml, name, error)


def parse_text(
    text: str, path: str | Path, kind: str = "scene", error: type[FileError] = FileError
) -> Any:
    r"""Parse `text` as :func:`read_data` would read it from the file `path` (by suffix).

    A command reads back what it is about to write with this, so that it never writes a
    file it would then refuse.

    Raises
    ------
    FileError
        For an unknown suffix or text that does not parse.

    Examples
    --------
    >>> parse_text('seed = 3\n', "game.toml"), parse_text('{"seed": 3}', "game.json")
    ({'seed': 3}, {'seed': 3})
    """
    suffix = Path(path).suffix.lower()
    if suffix not in (".toml", ".json"):
        raise error(
            f"unknown {kind} file type {suffix or '(none)'!r}; expected .toml or .json",
            file=source_name(path),
        )
    return _parse(text, suffix == ".toml", source_name(path), error)


def _parse(text: str, is_toml: bool, name: str, error: type[FileError]) -> Any:
    if is_toml:
        import tomllib  # here: a JSON file (most large scenes) never needs it

        try:
            return tomllib.loads(text)
        except ValueError as problem:  # TOMLDecodeError, or an integer too long to convert
            raise error(f"not valid TOML: {problem}", file=name) from None
        except RecursionError:
            raise error("not valid TOML: nested too deeply", file=name) from None
    try:
        return loads_json(text)
    except ValueError as problem:
        raise error(f"not valid JSON: {problem}", file=name) from None
    except RecursionError:
        raise error("not valid JSON: nested too deeply", file=name) from None


def _where(path: list[str | int]) -> tuple[str | None, str | None]:
    """Return (entry, key) for a place in a structure: ``players[2]`` and ``name``."""
    words = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
    keys = [p for p in path if isinstance(p, str)]
    if not keys:
        return words or None, None
    if isinstance(path[-1], str):
        entry = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path[:-1]).lstrip(".")
        return entry or None, keys[-1]
    return words, keys[-1]


def _all_encodable(data: Any) -> bool:
    """Return whether every string (keys included) in `data` can be written as UTF-8."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            for key in value:
                if not key.isascii() and not _encodable(key):
                    return False
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str) and not value.isascii() and not _encodable(value):
            return False
    return True


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def refuse_lone_surrogates(data: Any, file: str, error: type[FileError] = FileError) -> None:
    r"""Refuse text holding a lone surrogate (a JSON ``\ud800`` escape) anywhere in `data`.

    Such a string cannot be written as UTF-8 nor shown, so a file holding one is refused
    as it is read, naming the entry and key, rather than failing a later write.

    Raises
    ------
    FileError
        Naming the first such string's entry and key.

    Examples
    --------
    >>> refuse_lone_surrogates({"players": [{"name": "A"}, {"name": "B\ud800"}]}, "e.json")
    Traceback (most recent call last):
    ...
    tabletop.app.common.datafile.FileError: e.json: players[1]: key 'name': expected Unicode text, got a lone surrogate (\ud800): it can be neither written nor shown
    """
    if _all_encodable(data):  # the common case, walked without paths (a 3 MB event: 0.1 s)
        return
    stack: list[tuple[list[str | int], Any]] = [([], data)]
    while stack:
        path, value = stack.pop()
        texts: list[tuple[list[str | int], str]] = []
        if isinstance(value, str):
            texts.append((path, value))
        elif isinstance(value, dict):
            for key, item in reversed(list(value.items())):
                texts.append(([*path, key], key))
                stack.append(([*path, key], item))
        elif isinstance(value, list):
            stack.extend(([*path, index], item) for index, item in reversed(list(enumerate(value))))
        for place, text in texts:
            if text.isascii():
                continue
            try:
                text.encode("utf-8")
            except UnicodeEncodeError as problem:
                entry, key = _where(place)
                lone = f"\\u{ord(text[problem.start]):04x}"
                raise error(
                    f"expected Unicode text, got a lone surrogate ({lone}): it can be neither "
                    "written nor shown",
                    file=file,
                    entry=entry,
                    key=key,
                ) from None
