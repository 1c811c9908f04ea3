"""The application layer: scene files, client files, the ``tabletop`` command and its JSON."""

import typing as _typing

from tabletop.geom.lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from tabletop.app.cli import main
    from tabletop.app.scene.scenefile import SceneError, load_scene, parse_scene, read_scene_data

__all__ = ["SceneError", "load_scene", "main", "parse_scene", "read_scene_data"]

# Names load on first use (PEP 562), so that a command pays only for what it uses.
_SOURCES: dict[str, str] = {
    "SceneError": "tabletop.app.scene.scenefile",
    "load_scene": "tabletop.app.scene.scenefile",
    "main": "tabletop.app.cli",
    "parse_scene": "tabletop.app.scene.scenefile",
    "read_scene_data": "tabletop.app.scene.scenefile",
}


__getattr__, __dir__ = _lazy_attributes(__name__, _SOURCES, __all__)
