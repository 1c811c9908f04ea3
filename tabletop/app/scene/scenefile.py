"""Scene files: read a ``.toml`` or ``.json`` scene and name the file in every error.

The format itself (its limits and every check) is :mod:`tabletop.obstacles.sceneformat`; this
module reads the file (:func:`tabletop.app.common.datafile.read_data`) and turns a format error
into a :class:`SceneError` naming the file, the entry and the key.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tabletop.app.common.datafile import (
    MAX_FILE_BYTES,
    FileError,
    loads_json,
    read_data,
    source_name,
)
from tabletop.obstacles.plainscene import plain_scene
from tabletop.obstacles.scene import Scene
from tabletop.obstacles.sceneformat import (
    MAX_COORDINATE_MM,
    MAX_OBJECTS,
    MAX_OUTLINE_VERTICES,
    SceneFormatError,
    scene_from_dict,
)

__all__ = [
    "MAX_COORDINATE_MM",
    "MAX_FILE_BYTES",
    "MAX_OBJECTS",
    "MAX_OUTLINE_VERTICES",
    "SceneError",
    "load_scene",
    "loads_json",
    "parse_scene",
    "read_scene_data",
]


class SceneError(FileError):
    """A scene that cannot be used, with where the problem is (file, entry, key)."""


def parse_scene(data: Any, source: str = "<scene>") -> Scene:
    """Build a :class:`Scene` from the scene-file structure (parsed TOML or JSON).

    Parameters
    ----------
    data : mapping
        The scene as nested dicts and lists.
    source : str
        The file name (or another label) used in error messages.

    Raises
    ------
    SceneError
        For anything that does not fit ``scene-format.md``.
    """
    try:
        return scene_from_dict(data)
    except SceneFormatError as error:
        raise SceneError(error.message, file=source, entry=error.entry, key=error.key) from None


def read_scene_data(path: str | Path) -> Any:
    """Read a scene file's structure (TOML or JSON, by suffix) without building the scene.

    Raises
    ------
    SceneError
        For a missing or unreadable file, an unknown suffix, a file over
        :data:`MAX_FILE_BYTES`, text that is not UTF-8, or text that does not parse
        (a JSON object with a repeated key included). JSON's ``NaN`` and ``Infinity``
        are read as floats, as TOML's ``nan`` and ``inf`` are: :func:`parse_scene`
        rejects them naming the entry and the key.
    """
    return read_data(path, "scene", SceneError)


def load_scene(path: str | Path) -> Scene:
    """Load a scene file (``.toml`` or ``.json``).

    Raises
    ------
    SceneError
        For any problem with the file or its contents (see ``scene-format.md``).
    """
    data = read_scene_data(path)
    # A scene in the plain form a program writes is read in one pass; any other, and
    # every faulty one, by the general reader, whose messages name the fault.
    return plain_scene(data) or parse_scene(data, source_name(path))
