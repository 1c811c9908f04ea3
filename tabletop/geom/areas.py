"""Play areas: presets, edges and the Armada setup area.

The frame: origin at the corner on player 1's left, x along player 1's edge (the
*bottom* edge, y = 0), y toward player 2's edge (the *top* edge).

Examples
--------
>>> area = play_area("6x3ft")
>>> area.width, area.height
(1828.8, 914.4)
>>> area.setup_area(armada=True).bounds
(304.8, 0.0, 1524.0, 914.4)
>>> play_area("3x3ft").setup_area(armada=True).bounds
(0.0, 0.0, 914.4, 914.4)
"""

from __future__ import annotations

import dataclasses as _dc
import math as _math
from collections.abc import Mapping
from typing import Any

import shapely

from tabletop.geom.errors import InvalidInputError

__all__ = ["AREA_PRESETS", "EDGES", "PlayArea", "play_area"]

#: Named play areas, width × height in mm (``scene-format.md``).
AREA_PRESETS: Mapping[str, tuple[float, float]] = {
    "3x3ft": (914.4, 914.4),
    "6x3ft": (1828.8, 914.4),
    "180x90cm": (1800.0, 900.0),
}

#: Edge names, in report order: player 1's, player 2's, then the sides.
EDGES: tuple[str, ...] = ("bottom", "top", "left", "right")

#: Where the Armada setup-area markers sit from each short edge: one ruler length, mm.
SETUP_MARKER_MM = 304.8


@_dc.dataclass(frozen=True)
class PlayArea:
    """A rectangular play area, mm.

    Attributes
    ----------
    width, height : float
        Along player 1's edge, and from it toward player 2's edge.
    name : str or None
        The preset name, where the area is one.
    """

    width: float
    height: float
    name: str | None = None

    def polygon(self) -> shapely.Polygon:
        """Return the play area as a polygon."""
        return shapely.box(0.0, 0.0, self.width, self.height)

    def edge_segment(self, edge: str) -> shapely.LineString:
        """Return one edge (``bottom``, ``top``, ``left``, ``right``) as a segment."""
        w, h = self.width, self.height
        ends = {
            "bottom": ((0.0, 0.0), (w, 0.0)),
            "top": ((0.0, h), (w, h)),
            "left": ((0.0, 0.0), (0.0, h)),
            "right": ((w, 0.0), (w, h)),
        }[edge]
        return shapely.LineString(ends)

    def player_edge(self, player: int) -> str:
        """Return the edge a player deploys from: player 1 ``bottom``, player 2 ``top``."""
        return "bottom" if player == 1 else "top"

    def setup_area(self, *, armada: bool) -> shapely.Polygon:
        """Return the setup area: Armada's central strip on a long table, else the whole area."""
        if armada and self.width > self.height + 1e-9:
            return shapely.box(SETUP_MARKER_MM, 0.0, self.width - SETUP_MARKER_MM, self.height)
        return self.polygon()

    def to_json(self) -> Any:
        """Return the scene-file form: the preset name, or ``{width, height}``."""
        if self.name is not None:
            return self.name
        return {"width": self.width, "height": self.height}


def play_area(spec: str | Mapping[str, Any]) -> PlayArea:
    """Return a play area from a preset name or a ``{width, height}`` table.

    Raises
    ------
    InvalidInputError
        For an unknown preset or a table that is not two positive finite numbers.
    """
    if isinstance(spec, str):
        if spec not in AREA_PRESETS:
            raise InvalidInputError(
                f"unknown area preset {spec!r}; expected one of: "
                + ", ".join(AREA_PRESETS)
                + ", or a table {width = ..., height = ...}"
            )
        width, height = AREA_PRESETS[spec]
        return PlayArea(width, height, spec)
    if not isinstance(spec, Mapping) or set(spec) != {"width", "height"}:
        raise InvalidInputError(
            f"expected a preset name or a table with exactly width and height, got {spec!r}"
        )
    sizes = []
    for key in ("width", "height"):
        value = spec[key]
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InvalidInputError(f"{key}: expected a number in mm, got {value!r}")
        try:
            finite = _math.isfinite(value)
        except OverflowError:
            finite = False
        if not finite or not 0 < value <= 1e6:
            raise InvalidInputError(
                f"{key}: expected a positive length up to 10^6 mm, got {value!r}"
            )
        sizes.append(float(value))
    return PlayArea(sizes[0], sizes[1])
