"""Scene texts and error checks shared by the scene loader tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from common import write_scene

from tabletop.app.scene.scenefile import (
    SceneError,
    load_scene,
)
from tabletop.geom.errors import InvalidInputError
from tabletop.obstacles.scene import Scene

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.toml"))

SHIP_A = """
[[ships]]
id = "a"
base = "small"
at = [100, 40]
"""

ROCK = """
[[obstacles]]
id = "rock"
token = "coreasteroid0"
at = [457.2, 457.2]
"""


# -- helpers ---------------------------------------------------------------------------


def load_toml(tmp_path: Path, text: str) -> Scene:
    return load_scene(write_scene(tmp_path, text))


def toml_error(tmp_path: Path, text: str) -> tuple[SceneError, str]:
    """Load TOML text that must fail; return the error and the file name it must name."""
    path = write_scene(tmp_path, text)
    with pytest.raises(SceneError) as info:
        load_scene(path)
    return info.value, str(path)


def json_error(tmp_path: Path, text: str) -> tuple[SceneError, str]:
    path = write_scene(tmp_path, text, "scene.json")
    with pytest.raises(SceneError) as info:
        load_scene(path)
    return info.value, str(path)


def check_where(
    error: SceneError, file: str, entry: str | None, key: str | None, *expected: str
) -> None:
    """The error names the file, the entry and the key, and says each expected phrase."""
    assert error.file == file
    assert error.entry == entry
    assert error.key == key
    text = str(error)
    assert text.startswith(file + ": ")
    if entry is not None:
        assert f": {entry}: " in text
    if key is not None:
        assert f"key {key!r}" in text
    for phrase in expected:
        assert phrase in error.message, (phrase, error.message)
    assert isinstance(error, InvalidInputError)
    assert isinstance(error, ValueError)
