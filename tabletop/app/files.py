"""Writing files safely (atomically, never over an input, over a file only if forced)."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from tabletop.app.paths import output_target, publish, sweep_stale_temporaries, temporary_path
from tabletop.geom.errors import InvalidInputError

__all__ = ["atomic_write", "scene_json", "scene_text", "scene_toml", "write_through"]

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


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"not a finite number: {value!r}")
        return repr(value)
    if isinstance(value, str):
        # JSON escapes the C0 controls as TOML wants; TOML also forbids a raw DELETE.
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, Mapping):
        inner = ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    if isinstance(value, Sequence):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def _toml_key(key: str) -> str:
    bare = key.replace("-", "").replace("_", "").isalnum() and key.isascii()
    return key if bare else json.dumps(key)


def scene_toml(data: Mapping[str, Any]) -> str:
    """Return a scene structure as TOML text (tables of arrays for obstacles and ships)."""
    lines = []
    for key, value in data.items():
        if key not in ("obstacles", "ships") or not value:
            # An empty list is written inline: TOML has no empty array of tables.
            lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    for group in ("obstacles", "ships"):
        for entry in data.get(group, []):
            lines.append("")
            lines.append(f"[[{group}]]")
            lines.extend(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in entry.items())
    return "\n".join(lines) + "\n"


def scene_json(data: Mapping[str, Any]) -> str:
    """Return a scene structure as JSON text."""
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def scene_text(data: Mapping[str, Any], path: str | Path) -> str:
    """Return a scene structure as TOML or JSON, by the suffix of `path`.

    Raises
    ------
    InvalidInputError
        For a suffix other than ``.toml`` or ``.json``.
    """
    suffix = Path(path).suffix.lower()
    if suffix == ".toml":
        return scene_toml(data)
    if suffix == ".json":
        return scene_json(data)
    raise InvalidInputError(
        f"unknown scene file type {suffix or '(none)'!r}; expected .toml or .json", where=str(path)
    )
