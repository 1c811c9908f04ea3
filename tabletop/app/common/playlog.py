r"""Push and pop: one play appended to (or removed from) a game file's ``plays``, under its lock.

The Dogfight and Pocket Battles tables are played one play at a time, as python-chess's
``Board.push`` and ``Board.pop`` do: ``push`` checks the play against the position the
file's plays lead to and only then appends it; ``pop`` removes the last play. Two players
may push at once, so the file is read, changed and written under its exclusive lock
(:func:`tabletop.app.common.locking.locked_update`); the new text is written by the one writer
(:func:`tabletop.app.common.datatext.file_text`, tables as ``[name]`` sections), read back and
compared with what was meant, staged, and given its name only after the report is
written. A play that cannot be read or is
illegal raises before anything is staged, so the file stays byte for byte as it was.

The file is written in the project's layout: its keys and values stay, comments and
spacing do not.

Examples
--------
>>> import io, tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "g.toml"
>>> _ = path.write_text('game = "nim"\nplays = ["2"]\n')
>>> def take_one(data, plays):
...     plays = [*plays, "1"]
...     if not all(p in ("1", "2") for p in plays):
...         raise ValueError("take 1 or 2")
...     return plays, lambda report: report.write(f"{len(plays)} plays\n")
>>> report = io.StringIO()
>>> change_plays(path, take_one, report, command="push")
>>> path.read_text(), report.getvalue()
('game = "nim"\nplays = ["2", "1"]\n', '2 plays\n')
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from tabletop.app.common.datafile import (
    FileError,
    parse_text,
    read_data,
    refuse_lone_surrogates,
    show,
)
from tabletop.app.common.datatext import file_text
from tabletop.app.common.locking import locked_update

__all__ = ["change_plays", "plays_of"]

#: From the file's data and its plays, the new plays (checked) and what writes the report.
Change = Callable[[dict[str, Any], list[str]], tuple[list[str], Callable[[TextIO], None]]]


def plays_of(data: Any, path: str, error: type[FileError]) -> list[str]:
    """Return the ``plays`` list of a file's data (empty when absent).

    Raises
    ------
    FileError
        When the top of the file is not a table or ``plays`` is not a list of texts.
    """
    if not isinstance(data, dict):
        raise error("expected a table of keys at the top of the file", file=path)
    plays = data.get("plays", [])
    if not isinstance(plays, list) or not all(isinstance(p, str) for p in plays):
        raise error(f"expected a list of play texts, got {show(plays)}", file=path, key="plays")
    return list(plays)


def change_plays(
    path: str | Path,
    change: Change,
    out: TextIO,
    *,
    command: str,
    kind: str = "game",
    error: type[FileError] = FileError,
) -> None:
    """Under the file's lock, replace its plays by those `change` returns.

    Parameters
    ----------
    change : callable
        Called with the file's data and its play texts; checks the file and the new
        plays as the game reads them, raising for anything the game refuses, and
        returns the new play texts and a function that writes the report to a stream.
    command : str
        What holds the lock, for a command that waits for it.

    Raises
    ------
    FileError
        As `change` raises, or for a file that cannot be read or written; nothing is then
        written.
    """
    name = str(path)
    with locked_update(path, command=command) as update:
        data = read_data(path, kind, error=error)
        refuse_lone_surrogates(data, name, error)
        plays, write_report = change(data, plays_of(data, name, error))
        new_data = {**data, "plays": plays}
        text = file_text(new_data, path, kind=kind, error=error, table_sections=True)
        if parse_text(text, path, kind, error) != new_data:
            raise error("the file written would not read back as it was meant", file=name)
        update.stage(text)
        report = io.StringIO()
        write_report(report)
        update.finish(report.getvalue(), out)
