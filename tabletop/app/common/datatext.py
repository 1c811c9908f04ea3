r"""The text of every structured file the project writes: TOML (through ``tomli-w``) or JSON.

Scenes, event files, Pocket Battles battle files and logs, and Dogfight game logs are all
written by :func:`file_text`, which picks the format by the file's suffix. Every TOML key
and value is spelled by the ``tomli-w`` library, so that whatever a string holds (quotes,
backslashes, newlines, U+0000 and U+007F) it is escaped as TOML wants and the file reads
back equal; this module only lays the values out (short arrays on one line, long ones an
item a line; lists of tables as ``[[name]]`` sections at any depth, after the plain
keys). What no
file can hold (a lone surrogate, a number TOML cannot store, a value that is not data) is
refused before anything is written, naming the file, the entry and the key.

Examples
--------
>>> text = file_text({"game": "dogfight", "seed": 3, "plays": ["pass", 'say "hi"']}, "g.toml")
>>> print(text, end="")
game = "dogfight"
seed = 3
plays = ["pass", "say \"hi\""]
>>> file_text({"name": chr(0xD800)}, "e.toml", kind="event")
Traceback (most recent call last):
...
tabletop.app.common.datafile.FileError: e.toml: key 'name': a lone surrogate '\ud800' at character 1 is not Unicode text; expected text without one
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tabletop.app.common.datafile import FileError

__all__ = ["FILE_SUFFIXES", "INT64_MAX", "INT64_MIN", "file_text", "json_text", "toml_text"]

#: The suffixes of the structured files, and their formats.
FILE_SUFFIXES = (".toml", ".json")
#: The integers a TOML file holds (64-bit signed, as the TOML specification says).
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
#: An array longer than this on its line is written an item a line.
_LINE_LIMIT = 100
_INDENT = "  "


def file_text(
    data: Mapping[str, Any],
    path: str | Path,
    *,
    kind: str = "scene",
    error: type[FileError] = FileError,
    table_sections: bool = False,
) -> str:
    """Return `data` as the text of the file `path`: TOML or JSON by its suffix.

    Parameters
    ----------
    data : mapping
        The file's structure: tables (``str`` keys), lists, strings, booleans, integers
        and finite floats.
    path : str or Path
        The file it is for (its suffix chooses the format; its name is in messages).
    kind : str
        What the file is ("scene", "event", "battle", "game"), for messages.
    error : type of FileError
        The error class raised (a kind's own subclass).
    table_sections : bool
        In TOML, write each non-empty table as a ``[name]`` section after the plain keys
        (as people write game files by hand) rather than inline on its key's line.

    Raises
    ------
    FileError
        For a suffix other than ``.toml`` or ``.json``, and for a value no file can hold:
        a string with a lone surrogate, a non-finite float, an integer outside 64 bits (in
        TOML), or anything but the types above.
    """
    suffix = Path(path).suffix.lower()
    if suffix not in FILE_SUFFIXES:
        raise error(
            f"unknown {kind} file type {suffix or '(none)'!r}; expected .toml or .json",
            file=str(path),
        )
    if suffix == ".json":
        return json_text(data, file=str(path), error=error)
    return toml_text(data, file=str(path), error=error, table_sections=table_sections)


def json_text(
    data: Mapping[str, Any], *, file: str = "<data>", error: type[FileError] = FileError
) -> str:
    """Return `data` as JSON text (two-space indent, UTF-8 characters as they are).

    Raises
    ------
    FileError
        As :func:`file_text` does (64-bit integers are not required in JSON).
    """
    _check_table(data, _Where(file, error, toml=False), "")
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def toml_text(
    data: Mapping[str, Any],
    *,
    file: str = "<data>",
    error: type[FileError] = FileError,
    table_sections: bool = False,
) -> str:
    """Return `data` as a TOML document whose keys and values ``tomli-w`` spells.

    Plain keys come first, each on its line; a non-empty list of tables follows as
    ``[[name]]`` sections (nested lists of tables as ``[[name.inner]]``). An empty list
    is ``[]``: TOML has no empty array of tables. With `table_sections`, a non-empty
    table is a ``[name]`` section too, after the plain keys.

    Examples
    --------
    >>> data = {"game": "g", "fighters": {"rebels": {"a1": "X-Wing"}, "empire": {}}}
    >>> print(toml_text(data, table_sections=True), end="")
    game = "g"
    <BLANKLINE>
    [fighters]
    empire = {}
    <BLANKLINE>
    [fighters.rebels]
    a1 = "X-Wing"

    Raises
    ------
    FileError
        As :func:`file_text` does.
    """
    _check_table(data, _Where(file, error, toml=True), "")
    lines = _table_lines(data, "", table_sections)
    return "\n".join(lines) + "\n"


# -- checking ----------------------------------------------------------------------------


class _Where:
    """The file being written and how to refuse a value in it."""

    def __init__(self, file: str, error: type[FileError], *, toml: bool) -> None:
        self.file, self.error, self.toml = file, error, toml

    def refuse(self, message: str, entry: str, key: str | None) -> FileError:
        return self.error(message, file=self.file, entry=entry or None, key=key)


def _check_text(text: str, where: _Where, entry: str, key: str | None) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as problem:
        bad = text[problem.start]
        raise where.refuse(
            f"a lone surrogate {bad!r} at character {problem.start + 1} is not Unicode "
            "text; expected text without one",
            entry,
            key,
        ) from None


def _check_table(table: Mapping[Any, Any], where: _Where, entry: str) -> None:
    for key, value in table.items():
        if not isinstance(key, str):
            raise where.refuse(f"a key must be text, got {key!r}", entry, None)
        _check_text(key, where, entry, None)
        _check_value(value, where, entry, key)


def _check_value(value: Any, where: _Where, entry: str, key: str) -> None:
    if isinstance(value, str):
        _check_text(value, where, entry, key)
    elif isinstance(value, bool):
        return
    elif isinstance(value, int):
        if where.toml and not INT64_MIN <= value <= INT64_MAX:
            raise where.refuse(
                f"{value} does not fit in 64 bits, the integers TOML holds; "
                f"expected {INT64_MIN} to {INT64_MAX}",
                entry,
                key,
            )
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise where.refuse(f"{value!r} is not a finite number", entry, key)
    elif isinstance(value, Mapping):
        _check_table(value, where, _item(entry, key))
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):  # counted from 0, as the readers count
            if isinstance(item, Mapping):
                _check_table(item, where, _item(entry, f"{key}[{index}]"))
            else:
                _check_value(item, where, entry, f"{key}[{index}]")
    else:
        raise where.refuse(f"cannot write a {type(value).__name__} in a file", entry, key)


def _item(entry: str, key: str) -> str:
    return f"{entry}.{key}" if entry else key


# -- laying out --------------------------------------------------------------------------


def _key(name: str) -> str:
    # tomli-w spells the key (bare, or quoted and escaped).
    import tomli_w  # a small pure-Python library, imported only when a file is written

    return tomli_w.dumps({name: 0})[: -len(" = 0\n")]


def _scalar(value: Any) -> str:
    import tomli_w

    return tomli_w.dumps({"v": value})[len("v = ") : -1]


def _inline(value: Any) -> str:
    """Return a value on one line (arrays and tables inline, as TOML requires inside them)."""
    if isinstance(value, Mapping):
        inner = ", ".join(f"{_key(k)} = {_inline(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    return _scalar(value)


def _is_sections(value: Any) -> bool:
    """Return whether a value is a non-empty list of tables: ``[[...]]`` sections."""
    return (
        isinstance(value, list | tuple)
        and bool(value)
        and all(isinstance(item, Mapping) for item in value)
    )


def _is_table_section(value: Any, table_sections: bool) -> bool:
    return table_sections and isinstance(value, Mapping) and bool(value)


def _table_lines(table: Mapping[str, Any], name: str, table_sections: bool = False) -> list[str]:
    sections = [key for key, value in table.items() if _is_sections(value)]
    tables = [key for key, value in table.items() if _is_table_section(value, table_sections)]
    lines = []
    for key, value in table.items():
        if key in sections or key in tables:
            continue
        line = f"{_key(key)} = {_inline(value)}"
        if len(line) > _LINE_LIMIT and isinstance(value, list | tuple) and value:
            line = "\n".join([f"{_key(key)} = [", *(f"{_INDENT}{_inline(v)}," for v in value), "]"])
        lines.append(line)
    for key in sections:
        header = f"{name}.{_key(key)}" if name else _key(key)
        for entry in table[key]:
            if not name:
                lines.append("")
            lines.append(f"[[{header}]]")
            lines.extend(_table_lines(entry, header, table_sections))
    for key in tables:
        header = f"{name}.{_key(key)}" if name else _key(key)
        inner = _table_lines(table[key], header, table_sections)
        # A section with only sub-sections needs no header line of its own.
        lines += ["", f"[{header}]", *inner] if inner and inner[0] != "" else inner
    return lines
