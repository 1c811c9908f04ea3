"""What an Armada measurement adds to the common core: :class:`ArmadaDetail`.

Re-exported by :mod:`tabletop.obstacles.measurement` (the X-Wing detail's module),
imported with the first Armada measurement: an X-Wing measurement never builds one.

Examples
--------
>>> ArmadaDetail(distance_band=3, range_band="medium").band_words()
'distance 3, medium range'
"""

from __future__ import annotations

import dataclasses as _dc
from typing import TYPE_CHECKING, Any, TypeAlias

from tabletop.obstacles.measurement import XWingDetail, _points_json

if TYPE_CHECKING:
    from tabletop.obstacles.measurement import Clearance, Segment
    from tabletop.obstacles.obstruction import Obstructed

__all__ = ["ArmadaDetail", "MeasurementDetail"]


@_dc.dataclass(frozen=True, slots=True)
class ArmadaDetail:
    """What an Armada measurement adds: distance and range bands, hull zones, sight.

    Attributes
    ----------
    distance_band : int or None
        Distance 1-5, None beyond.
    range_band : str or None
        ``close``, ``medium`` or ``long``; None beyond.
    defending_zone : str or None
        With an arc: the defending hull zone measured to (None for a squadron).
    obstructed : bool or None
        With an arc: whether an obstacle or another ship's base crosses the sight line.
    obstructed_by : tuple of str
        What crosses it, sorted.
    line_of_sight : bool or None
        With an arc: False where the sight line passes through another hull zone.
    sight_line : Segment or None
        With an arc: the sight line traced, from attacker to defender.
    clearances : tuple of Clearance
        With an arc: each blocker the traced sight line (outside the two tokens) crosses,
        touches or clears by no more than ``contested_within``, smallest margin first.
    """

    distance_band: int | None
    range_band: str | None
    defending_zone: str | None = None
    obstructed: Obstructed | None = None
    obstructed_by: tuple[str, ...] = ()
    line_of_sight: bool | None = None
    sight_line: Segment | None = None
    clearances: tuple[Clearance, ...] = ()

    @property
    def contested_clearance(self) -> bool:
        """Whether the sight line passes within ``contested_within`` of a blocker's edge."""
        return any(c.contested for c in self.clearances)

    #: What a measurement from part of a base is called in this game.
    arc_word = "hull zone"

    @property
    def tied_segments(self) -> tuple[Segment, ...] | None:
        """Armada reports no tied segments: always None."""
        return None

    def out_of_arc(self) -> ArmadaDetail:
        """Return the detail of a defender out of arc: no attack, so no obstruction or sight."""
        return _dc.replace(
            self,
            obstructed=None,
            obstructed_by=(),
            line_of_sight=None,
            sight_line=None,
            clearances=(),
        )

    def unasked_json(self) -> dict[str, Any]:
        """Return the obstruction and sight fields of a defender out of arc: null."""
        return {"obstructed": None, "obstructed_by": [], "line_of_sight": None, "sight_line": None}

    def band_words(self) -> str:
        """Return the bands in words (``distance 3, medium range``)."""
        distance = (
            "beyond distance 5" if self.distance_band is None else f"distance {self.distance_band}"
        )
        rng = "beyond long range" if self.range_band is None else f"{self.range_band} range"
        return f"{distance}, {rng}"

    def band_json(self) -> dict[str, Any]:
        """Return the band fields of the JSON answer."""
        return {"distance_band": self.distance_band, "range_band": self.range_band}

    def arc_json(self) -> dict[str, Any]:
        """Return the fields an arc adds after ``in_arc``."""
        out: dict[str, Any] = {"defending_zone": self.defending_zone}
        if self.obstructed is not None:
            out["obstructed"] = self.obstructed
            out["obstructed_by"] = list(self.obstructed_by)
            out["line_of_sight"] = self.line_of_sight
            out["sight_line"] = None if self.sight_line is None else _points_json(self.sight_line)
            if self.contested_clearance:
                out["clearances"] = [c.to_json() for c in self.clearances]
        return out


#: The per-game part of a measurement.
MeasurementDetail: TypeAlias = XWingDetail | ArmadaDetail
