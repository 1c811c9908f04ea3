"""tabletop: Star Wars tabletop games to the millimetre and to the rule.

One import namespace, in layers that import one way only::

    tabletop.geom        the continuous kernel: poses, shapes, areas, rulesets, distances
    tabletop.obstacles   catalogs, scenes, placement rules, obstruction, random setups
    tabletop.maneuvers   X-Wing templates and moves, bumps; the Armada tool
    tabletop.plots       drawing with matplotlib (draws and returns; writes no file)
    tabletop.boards      the discrete boards: Dogfight and Pocket Battles
    tabletop.tournament  organized play: regulations, pairing, standings, cuts, audit
    tabletop.app         the application: file formats, the ``tabletop`` command

The names below are the application's scene-file entry points, re-exported here because
that is where a user reaches for them first; each loads on first use, so that
``import tabletop.geom`` pays for nothing of the application.

>>> from tabletop import load_scene
>>> scene = load_scene("examples/xwing-tournament.toml")
>>> len(scene.obstacles)
6
"""

import typing as _typing

from tabletop.geom.lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from tabletop.app.cli import main
    from tabletop.app.scene.scenefile import SceneError, load_scene, parse_scene, read_scene_data

__all__ = ["SceneError", "load_scene", "main", "parse_scene", "read_scene_data"]

#: The release, as pyproject.toml's ``[project] version`` says (a test checks they agree):
#: ``tabletop --version`` prints it without reading the installed metadata.
__version__ = "0.1.0"

# Names load on first use (PEP 562): importing a layer never imports the application.
_SOURCES: dict[str, str] = {
    "SceneError": "tabletop.app.scene.scenefile",
    "load_scene": "tabletop.app.scene.scenefile",
    "main": "tabletop.app.cli",
    "parse_scene": "tabletop.app.scene.scenefile",
    "read_scene_data": "tabletop.app.scene.scenefile",
}


__getattr__, __dir__ = _lazy_attributes(__name__, _SOURCES, __all__)
