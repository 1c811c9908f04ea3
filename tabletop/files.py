"""Writing files safely: atomically, never over an input, and scenes as TOML or JSON."""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from geom.errors import InvalidInputError

__all__ = ["atomic_write", "scene_json", "scene_text", "scene_toml"]


def atomic_write(path: str | Path, data: bytes | str, *, inputs: Iterable[str | Path] = ()) -> None:
    """Write `data` to `path` through a temporary file in the same folder and a rename.

    Raises
    ------
    InvalidInputError
        When `path` is one of `inputs` (a command never writes over the file it reads),
        or the folder cannot be written.
    """
    target = Path(path)
    for source in inputs:
        if Path(source).resolve() == target.resolve():
            raise InvalidInputError(
                f"refusing to write over the input file {str(source)!r}; choose another output",
                where=str(path),
            )
    payload = data.encode("utf-8") if isinstance(data, str) else data
    folder = target.parent if str(target.parent) else Path(".")
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=folder)
    except OSError as error:
        raise InvalidInputError(f"cannot write there: {error.strerror}", where=str(path)) from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
        os.replace(temporary, target)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise InvalidInputError(f"cannot write there: {error.strerror}", where=str(path)) from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


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
