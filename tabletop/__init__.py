"""The application: scene files, the ``tabletop`` command and its JSON."""

import importlib as _importlib
import typing as _typing

if _typing.TYPE_CHECKING:
    from tabletop.cli import main
    from tabletop.scenefile import SceneError, load_scene, parse_scene, read_scene_data

__all__ = ["SceneError", "load_scene", "main", "parse_scene", "read_scene_data"]

# Names load on first use (PEP 562), so that a command pays only for what it uses.
_SOURCES: dict[str, str] = {
    "SceneError": "tabletop.scenefile",
    "load_scene": "tabletop.scenefile",
    "main": "tabletop.cli",
    "parse_scene": "tabletop.scenefile",
    "read_scene_data": "tabletop.scenefile",
}


def __getattr__(name: str) -> object:
    source = _SOURCES.get(name)
    if source is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_importlib.import_module(source), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
