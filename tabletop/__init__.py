"""The application: scene files, the ``tabletop`` command and its JSON."""

from tabletop.cli import main
from tabletop.scenefile import SceneError, load_scene, parse_scene, read_scene_data

__all__ = ["SceneError", "load_scene", "main", "parse_scene", "read_scene_data"]
