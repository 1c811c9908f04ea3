"""Plots: matplotlib drawing of scenes, measurements and moves.

The drawing API draws onto an :class:`~matplotlib.axes.Axes` the caller passes and
returns the artists it added (:func:`draw_scene`, :func:`draw_violations`,
:func:`draw_measurement`, :func:`draw_move`, ...); :func:`render` makes the whole
picture and returns it as PNG, SVG or PDF bytes (:data:`PICTURE_FORMATS`); this package
writes no file. Only this package imports matplotlib, and only when a drawing name is
first used (PEP 562): :mod:`tabletop.plots.formats` loads without it, so the commands'
help can name the picture formats and ``tabletop check`` never pays for matplotlib.

Examples
--------
>>> from matplotlib.figure import Figure
>>> from tabletop.plots import draw_obstacle
>>> from tabletop.geom.areas import play_area
>>> from tabletop.geom.rulesets import get_ruleset
>>> from tabletop.obstacles.scene import Obstacle, Scene
>>> xw = get_ruleset("xwing2")
>>> rock = Obstacle.from_token(xw, "rock", "coreasteroid0", 457.2, 457.2)
>>> ax = Figure().add_subplot()
>>> [a.get_gid() for a in draw_obstacle(ax, Scene(xw, play_area("3x3ft")), rock)]
['rock', None, 'rock-label']
"""

import typing as _typing

from tabletop.geom.lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from tabletop.plots._common import geometry_path, scene_limits
    from tabletop.plots.area import draw_area, draw_scale_bar
    from tabletop.plots.draw import draw_scene
    from tabletop.plots.formats import PICTURE_FORMATS, PictureFormat, picture_bytes, picture_format
    from tabletop.plots.legend import legend_handles
    from tabletop.plots.measurement import band_text, draw_measurement
    from tabletop.plots.move import MoveLike, draw_move, move_text
    from tabletop.plots.picture import (
        DEFAULT_DPI,
        DEFAULT_HEIGHT_IN,
        RenderResult,
        default_size,
        render,
        scene_figure,
    )
    from tabletop.plots.ships import draw_obstacle, draw_ship
    from tabletop.plots.style import (
        ALARM,
        KIND_COLOURS,
        OKABE_ITO,
        PLAYER_COLOURS,
        RC_PARAMS,
        kind_colour,
        player_colour,
    )
    from tabletop.plots.violations import draw_violations, violation_label

__all__: list[str] = [
    "ALARM",
    "DEFAULT_DPI",
    "DEFAULT_HEIGHT_IN",
    "KIND_COLOURS",
    "OKABE_ITO",
    "PICTURE_FORMATS",
    "PLAYER_COLOURS",
    "RC_PARAMS",
    "MoveLike",
    "PictureFormat",
    "RenderResult",
    "band_text",
    "default_size",
    "draw_area",
    "draw_measurement",
    "draw_move",
    "draw_obstacle",
    "draw_scale_bar",
    "draw_scene",
    "draw_ship",
    "draw_violations",
    "geometry_path",
    "kind_colour",
    "legend_handles",
    "move_text",
    "picture_bytes",
    "picture_format",
    "player_colour",
    "render",
    "scene_figure",
    "scene_limits",
    "violation_label",
]

# Names load on first use (PEP 562), so that importing tabletop.plots.formats (the
# picture-format table) does not import matplotlib.
_SOURCES: dict[str, str] = {
    "ALARM": "tabletop.plots.style",
    "DEFAULT_DPI": "tabletop.plots.picture",
    "DEFAULT_HEIGHT_IN": "tabletop.plots.picture",
    "KIND_COLOURS": "tabletop.plots.style",
    "MoveLike": "tabletop.plots.move",
    "OKABE_ITO": "tabletop.plots.style",
    "PICTURE_FORMATS": "tabletop.plots.formats",
    "PLAYER_COLOURS": "tabletop.plots.style",
    "PictureFormat": "tabletop.plots.formats",
    "RC_PARAMS": "tabletop.plots.style",
    "RenderResult": "tabletop.plots.picture",
    "band_text": "tabletop.plots.measurement",
    "default_size": "tabletop.plots.picture",
    "draw_area": "tabletop.plots.area",
    "draw_measurement": "tabletop.plots.measurement",
    "draw_move": "tabletop.plots.move",
    "draw_obstacle": "tabletop.plots.ships",
    "draw_scale_bar": "tabletop.plots.area",
    "draw_scene": "tabletop.plots.draw",
    "draw_ship": "tabletop.plots.ships",
    "draw_violations": "tabletop.plots.violations",
    "geometry_path": "tabletop.plots._common",
    "kind_colour": "tabletop.plots.style",
    "legend_handles": "tabletop.plots.legend",
    "move_text": "tabletop.plots.move",
    "picture_bytes": "tabletop.plots.formats",
    "picture_format": "tabletop.plots.formats",
    "player_colour": "tabletop.plots.style",
    "render": "tabletop.plots.picture",
    "scene_figure": "tabletop.plots.picture",
    "scene_limits": "tabletop.plots._common",
    "violation_label": "tabletop.plots.violations",
}

__getattr__, __dir__ = _lazy_attributes(__name__, _SOURCES, __all__)
