r"""Reading a CSV file strictly: every problem is an error naming the line.

A spreadsheet's export is not trusted: an unbalanced quote would otherwise swallow the
following rows into one field, a stray NUL or a field of 200 kB would stop the reader
with a traceback. Here each of those is an error naming the file and the line.

Examples
--------
>>> import tempfile, pathlib
>>> roster = pathlib.Path(tempfile.mkdtemp()) / "players.csv"
>>> _ = roster.write_text('id,name\na,"Anna, the first"\n')
>>> read_csv_rows(roster)
[(1, ['id', 'name']), (2, ['a', 'Anna, the first'])]
>>> _ = roster.write_text('id,name\na,"Anna\nb,Bruno\n')
>>> read_csv_rows(roster)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tabletop.app.common.datafile.FileError: ...players.csv: line 2: not valid CSV: a quoted field is never closed (an unbalanced quote?)
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from tabletop.app.common.datafile import MAX_FILE_BYTES, FileError

__all__ = ["FORMULA_STARTS", "MAX_FIELD_CHARS", "read_csv_rows", "spreadsheet_cell"]

#: What makes a spreadsheet read a cell as a formula (OWASP's list): such a text cell
#: is written with a leading ``'``.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value: object) -> str:
    """Return a value as a CSV cell that no spreadsheet runs as a formula.

    Text that begins with one of :data:`FORMULA_STARTS` (a player named
    ``=HYPERLINK(...)``) is written with a leading ``'``, which spreadsheets show as
    text; a number, negative ones included, is written as it is.

    Examples
    --------
    >>> [spreadsheet_cell(v) for v in ["=1+1", "+44 20", "@SUM(A1)", "-x", "Ann", -3, "-2.5"]]
    ["'=1+1", "'+44 20", "'@SUM(A1)", "'-x", 'Ann', '-3', '-2.5']
    """
    if not isinstance(value, str):
        return str(value)
    if value.startswith(FORMULA_STARTS) and not _is_number(value):
        return "'" + value
    return value


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return text.strip() == text and text.lower().lstrip("+-") not in ("inf", "infinity", "nan")


#: Longest field read, in characters: far past any name, id or club.
MAX_FIELD_CHARS = 200


def _read_text(path: str | Path, error: type[FileError]) -> str:
    name = str(path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise error("no such file", file=name) from None
    except OSError as problem:
        raise error(f"cannot read the file: {problem.strerror}", file=name) from None
    if len(raw) > MAX_FILE_BYTES:
        raise error(f"the file is over {MAX_FILE_BYTES} bytes", file=name)
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as problem:
        line = raw[: problem.start].count(b"\n") + 1
        raise error(
            f"not UTF-8 text (byte {problem.start})", file=name, entry=f"line {line}"
        ) from None


def read_csv_rows(
    path: str | Path, error: type[FileError] = FileError
) -> list[tuple[int, list[str]]]:
    """Return the rows of a CSV file with their line numbers (from 1).

    Parameters
    ----------
    path : str or Path
        The CSV file (UTF-8; a leading byte-order mark is skipped).
    error : type of FileError
        The error raised (a file kind's own subclass).

    Raises
    ------
    FileError
        For a missing or unreadable file, one over :data:`MAX_FILE_BYTES`, text that is
        not UTF-8, a quoted field running past its line (an unbalanced quote), a quote
        inside an unquoted field, a NUL, or a field over :data:`MAX_FIELD_CHARS`,
        naming the line.
    """
    name = str(path)
    text = _read_text(path, error)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows: list[tuple[int, list[str]]] = []
    line = 0
    while True:
        first = line + 1
        try:
            row = next(reader)
        except StopIteration:
            return rows
        except csv.Error as problem:
            message = str(problem)
            if "field larger than field limit" in message:
                message = f"a field over {MAX_FIELD_CHARS} characters"
            elif "unexpected end of data" in message:
                message = "a quoted field is never closed (an unbalanced quote?)"
            raise error(f"not valid CSV: {message}", file=name, entry=f"line {first}") from None
        line = reader.line_num
        if line != first:
            raise error(
                "a quoted field runs on past the end of its line (an unbalanced quote?); "
                "a field is one line",
                file=name,
                entry=f"line {first}",
            )
        for column, cell in enumerate(row, 1):
            if len(cell) > MAX_FIELD_CHARS:
                raise error(
                    f"field {column} is {len(cell)} characters long; at most "
                    f"{MAX_FIELD_CHARS} are read",
                    file=name,
                    entry=f"line {first}",
                )
        rows.append((first, row))
