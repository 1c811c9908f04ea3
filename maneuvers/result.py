"""What a move did: :class:`MoveResult`, and :class:`ActionPosition` for each roll position.

Both are frozen. Poses are ``(x, y, heading)`` arrays in world coordinates (mm, degrees
counter-clockwise from +x); geometries are shapely objects in world coordinates.
:meth:`MoveResult.to_json` gives the ``tabletop move --json`` object of ``cli.md``.

Examples
--------
>>> import numpy as np
>>> result = MoveResult(
...     ship="wedge", maneuver="stationary", start=np.array([100.0, 40.0, 90.0]),
...     final=np.array([100.0, 40.0, 90.0]), template=None, complete=True, bumped=None,
...     fled=False, obstacles=())
>>> result.to_json()["final"]
{'at': [100.0, 40.0], 'heading': 90.0}
>>> result.complete = False
Traceback (most recent call last):
...
dataclasses.FrozenInstanceError: cannot assign to field 'complete'
"""

from __future__ import annotations

import dataclasses as _dc
from typing import Any, Literal, TypeAlias

import shapely

from geom.poses import FloatArray, normalize_heading

__all__ = ["ActionPosition", "MoveResult", "ObstacleHit", "json_pose"]

#: ``(obstacle id, how)``, how being ``moves-through`` or ``ends-on``.
ObstacleHit: TypeAlias = tuple[str, Literal["moves-through", "ends-on"]]


def _mm(value: float) -> float:
    # Rounded to the project's equality tolerance (1e-6 mm), never -0.0.
    return round(float(value), 6) + 0.0


def json_pose(pose: FloatArray) -> dict[str, Any]:
    """Return ``{"at": [x, y], "heading": h}`` for JSON, heading in ``[0, 360)``.

    Examples
    --------
    >>> import numpy as np
    >>> json_pose(np.array([1.0, -0.0, 359.99999999]))
    {'at': [1.0, 0.0], 'heading': 0.0}
    """
    heading = _mm(normalize_heading(float(pose[2])))
    return {"at": [_mm(pose[0]), _mm(pose[1])], "heading": 0.0 if heading >= 360.0 else heading}


@_dc.dataclass(frozen=True, eq=False)
class ActionPosition:
    """One position of a barrel roll, with its legality.

    Attributes
    ----------
    name : str
        ``forward``, ``centre`` or ``back``.
    offset : float
        How far forward of the centre position the ship ends, mm (negative: back).
    pose : ndarray of shape (3,)
        The world pose the ship would take.
    template : shapely geometry
        The 1-straight template against the ship's side, world coordinates.
    legal : bool
        Whether the ship may end there.
    reason : str or None
        Why not, when not legal.
    """

    name: str
    offset: float
    pose: FloatArray
    template: shapely.Geometry
    legal: bool
    reason: str | None

    def to_json(self) -> dict[str, Any]:
        """Return the JSON object of this position."""
        return {
            "position": self.name,
            "offset": _mm(self.offset),
            **json_pose(self.pose),
            "legal": self.legal,
            "reason": self.reason,
        }


@_dc.dataclass(frozen=True, eq=False)
class MoveResult:
    """The outcome of one maneuver, roll, boost or Armada course.

    Attributes
    ----------
    ship : str
        The moving ship's id.
    maneuver : str
        The canonical maneuver words.
    start, final : ndarray of shape (3,)
        World poses before and after.
    template : shapely geometry or None
        The template laid on the table (Armada: the maneuver tool as set for the course),
        world coordinates; None for a stationary maneuver or speed 0.
    complete : bool
        False when the ship bumped (Armada: moved at a lower speed), or when an action
        could not be done.
    bumped : str or None
        The ship it ends touching (Armada: the closest ship it would have overlapped).
    fled : bool
        Part of the final base (without guides) is outside the play area.
    obstacles : tuple of (id, how)
        In resolve order, nearest to the starting base first (ties by id); how is
        ``moves-through`` or ``ends-on``.
    legal : bool or None
        Rolls, boosts and Armada courses: whether the move can be done; None otherwise.
    reason : str or None
        Why not, when not legal.
    positions : tuple of ActionPosition
        Barrel rolls: every position considered.
    bump_point : ndarray of shape (2,) or None
        Where the bumped ships touch (the midpoint of their closest points).
    counted_template : shapely geometry or None
        The part of the template that counted for obstacles: the whole template on a
        complete move, the part between the start and the final position after a bump,
        None when the template has no effect (huge ships, Armada).
    progress : float or None
        X-Wing template moves: how far the rear-guide point ran along the guide path, mm.
    sections : tuple of (section, obstacle ids)
        X-Wing huge ships: the obstacles overlapping the ``fore`` and ``aft`` halves.
    removed : tuple of str
        X-Wing huge ships: the obstacles removed from the play area.
    intervals : tuple of (low, high)
        1st-edition barrel rolls: the legal forward offsets, mm.
    speed : int or None
        Armada: the speed the ship moved at.
    side : str or None
        Armada: the side of the ship the tool was laid on.
    tool_overlap : bool or None
        Armada: whether the final base overlaps the tool.
    squadrons : tuple of str
        Armada: squadrons under the final base (moved aside by the opponent).
    """

    ship: str
    maneuver: str
    start: FloatArray
    final: FloatArray
    template: shapely.Geometry | None
    complete: bool
    bumped: str | None
    fled: bool
    obstacles: tuple[ObstacleHit, ...]
    legal: bool | None = None
    reason: str | None = None
    positions: tuple[ActionPosition, ...] = ()
    bump_point: FloatArray | None = None
    counted_template: shapely.Geometry | None = None
    progress: float | None = None
    sections: tuple[tuple[str, tuple[str, ...]], ...] = ()
    removed: tuple[str, ...] = ()
    intervals: tuple[tuple[float, float], ...] = ()
    speed: int | None = None
    side: str | None = None
    tool_overlap: bool | None = None
    squadrons: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Return the ``tabletop move --json`` object (``cli.md``)."""
        in_section = {
            ident: [name for name, ids in self.sections if ident in ids]
            for ident, _ in self.obstacles
        }
        obstacles: list[dict[str, Any]] = []
        for ident, how in self.obstacles:
            entry: dict[str, Any] = {"id": ident, "how": how}
            if self.sections:
                entry["sections"] = in_section[ident]
            obstacles.append(entry)
        data: dict[str, Any] = {
            "ship": self.ship,
            "maneuver": self.maneuver,
            "start": json_pose(self.start),
            "final": json_pose(self.final),
            "complete": self.complete,
            "bumped": self.bumped,
            "fled": self.fled,
            "obstacles": obstacles,
            "bump_point": None
            if self.bump_point is None
            else [_mm(self.bump_point[0]), _mm(self.bump_point[1])],
        }
        if self.legal is not None:
            data["legal"] = self.legal
            data["reason"] = self.reason
        if self.positions:
            data["positions"] = [p.to_json() for p in self.positions]
        if self.intervals:
            data["intervals"] = [[_mm(low), _mm(high)] for low, high in self.intervals]
        if self.progress is not None:
            data["progress"] = _mm(self.progress)
        if self.sections:
            data["sections"] = {name: list(ids) for name, ids in self.sections}
            data["removed"] = list(self.removed)
        if self.speed is not None:
            data["speed"] = self.speed
            data["side"] = self.side
            data["tool_overlap"] = self.tool_overlap
            data["squadrons"] = list(self.squadrons)
        return data
