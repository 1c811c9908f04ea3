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
import tomllib as _tomllib
from pathlib import Path
from typing import Any

from geom.errors import InvalidInputError, show

__all__ = ["MAX_FILE_BYTES", "FileError", "loads_json", "read_data", "show"]

#: Largest input file read, bytes.
MAX_FILE_BYTES = 10 * 1024 * 1024


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
            parts.append(f"key {key!r}")
        super().__init__(message, where=": ".join(parts))
        self.file, self.entry, self.key = file, entry, key


def _json_constant(token: str) -> float:
    # NaN, Infinity and -Infinity are read as floats so that the kind's checks reject
    # them naming the entry and the key, as they do TOML's nan and inf.
    return float(token)


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # A repeated key would otherwise silently drop the earlier value (TOML rejects it too).
    table: dict[str, Any] = {}
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
    return _json.loads(text, parse_constant=_json_constant, object_pairs_hook=_json_object)


def read_data(path: str | Path, kind: str = "scene", error: type[FileError] = FileError) -> Any:
    """Read a TOML or JSON file's structure (by suffix), without interpreting it.

    Parameters
    ----------
    path : str or Path
        The file.
    kind : str
        What the file is ("scene", "event", "game", "battle"), for messages.
    error : type of FileError
        The error class raised (a kind's own subclass, such as ``SceneError``).

    Raises
    ------
    FileError
        For a missing or unreadable file, an unknown suffix, a file over
        :data:`MAX_FILE_BYTES`, text that is not UTF-8, or text that does not parse
        (a JSON object with a repeated key included).
    """
    file = Path(path)
    name = str(path)
    if file.suffix.lower() not in (".toml", ".json"):
        raise error(
            f"unknown {kind} file type {file.suffix or '(none)'!r}; expected .toml or .json",
            file=name,
        )
    try:
        size = file.stat().st_size
        if size > MAX_FILE_BYTES:
            raise error(
                f"the file is {size} bytes; a {kind} may be at most {MAX_FILE_BYTES} bytes",
                file=name,
            )
        with file.open("rb") as handle:  # bounded: a pipe or a growing file has no fixed size
            raw = handle.read(MAX_FILE_BYTES + 1)
        if len(raw) > MAX_FILE_BYTES:
            raise error(
                f"the file is over {MAX_FILE_BYTES} bytes, the most a {kind} may be",
                file=name,
            )
    except FileNotFoundError:
        raise error("no such file", file=name) from None
    except IsADirectoryError:
        raise error(f"is a directory, not a {kind} file", file=name) from None
    except OSError as problem:
        raise error(f"cannot read the file: {problem.strerror}", file=name) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as problem:
        raise error(f"not UTF-8 text (byte {problem.start})", file=name) from None
    if file.suffix.lower() == ".toml":
        try:
            return _tomllib.loads(text)
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
