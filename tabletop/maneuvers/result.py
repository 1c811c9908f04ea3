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

from tabletop.geom.mmtext import mm_text
from tabletop.geom.poses import FloatArray, normalize_heading
from tabletop.maneuvers.contacts import Contact
from tabletop.maneuvers.overlaps import ShipOverlaps

__all__ = [
    "ActionPosition",
    "MoveDetail",
    "MoveResult",
    "ObstacleHit",
    "TemplateMove",
    "ToolMove",
    "json_pose",
]

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


@_dc.dataclass(frozen=True, slots=True, eq=False)
class TemplateMove:
    """What an X-Wing move adds: how far along the template, roll positions, huge ships.

    Attributes
    ----------
    progress : float or None
        Template moves: how far the rear-guide point ran along the guide path, mm.
    positions : tuple of ActionPosition
        Barrel rolls: every position considered.
    intervals : tuple of (low, high)
        1st-edition barrel rolls: the legal forward offsets, mm.
    sections : tuple of (section, obstacle ids)
        Huge ships: the obstacles overlapping the ``fore`` and ``aft`` halves.
    removed : tuple of str
        Huge ships: the obstacles removed from the play area.
    skips_action : bool or None
        Template maneuvers of standard ships: whether the ship skips its Perform Action
        step (it bumped); None where the move does not say (rolls, boosts, huge ships).
    guides_only : tuple of str
        The ships the full maneuver's final base overlapped only through a guide (the
        bases without guides do not overlap): the guides alone made the bump.
    maneuver_rule : (source, sentence) or None
        Huge ships: where the edition's rule for setting the template is, and its
        sentence.
    """

    progress: float | None = None
    positions: tuple[ActionPosition, ...] = ()
    intervals: tuple[tuple[float, float], ...] = ()
    sections: tuple[tuple[str, tuple[str, ...]], ...] = ()
    removed: tuple[str, ...] = ()
    skips_action: bool | None = None
    guides_only: tuple[str, ...] = ()
    maneuver_rule: tuple[str, str] | None = None

    def json_fields(self) -> dict[str, Any]:
        """Return the fields this detail adds to the JSON answer, in ``cli.md`` order."""
        data: dict[str, Any] = {}
        if self.positions:
            data["positions"] = [p.to_json() for p in self.positions]
        if self.intervals:
            data["intervals"] = [[_mm(low), _mm(high)] for low, high in self.intervals]
        if self.progress is not None:
            data["progress"] = _mm(self.progress)
        if self.sections:
            data["sections"] = {name: list(ids) for name, ids in self.sections}
            data["removed"] = list(self.removed)
        if self.skips_action is not None:
            data["skip_action"] = self.skips_action
            data["bump_guides_only"] = list(self.guides_only)
        if self.maneuver_rule is not None:
            source, text = self.maneuver_rule
            data["maneuver_rule"] = {"source": source, "text": text}
        return data

    def head_lines(self) -> list[str]:
        """Return the report lines that come before legality (none for X-Wing)."""
        return []

    def bump_lines(self) -> list[str]:
        """Return what a bump means for the ship: its action step, and guide-only overlaps."""
        lines = []
        if self.guides_only:
            lines.append(
                f"  guides:     only a guide overlapped {', '.join(self.guides_only)} "
                "at the full maneuver (guides count: it is a bump)"
            )
        if self.skips_action:
            lines.append("  action:     skip the Perform Action step (the ship bumped)")
        return lines

    def tail_lines(self) -> list[str]:
        """Return the report lines after the obstacles: sections, removed, positions."""
        lines = [
            f"  {name + ':':11} {', '.join(ids) or 'no obstacle'}" for name, ids in self.sections
        ]
        if self.removed:
            lines.append(f"  removed:    {', '.join(self.removed)}")
        if self.maneuver_rule is not None:
            source, text = self.maneuver_rule
            lines.append(f'  template:   {source}: "{text}"')
        for position in self.positions:
            state = "legal" if position.legal else f"fails: {position.reason}"
            lines.append(f"  {position.name + ':':11} {_pose(position.pose)}, {state}")
        if self.intervals:
            spans = ", ".join(
                f"{mm_text(low, digits=2, signed=True)} to "
                f"{mm_text(high, line=low, digits=2, signed=True)}"
                for low, high in self.intervals
            )
            lines.append(f"  legal offsets: {spans} mm")
        return lines


@_dc.dataclass(frozen=True, slots=True, eq=False)
class ToolMove:
    """What an Armada course adds: the speed moved, the tool's side, squadrons aside.

    Attributes
    ----------
    speed : int
        The speed the ship moved at.
    side : str or None
        The side of the ship the tool was laid on (None when the course was refused).
    tool_overlap : bool or None
        Whether the final base overlaps the tool.
    squadrons : tuple of str
        Squadrons under the final base (moved aside by the opponent).
    """

    speed: int
    side: str | None = None
    tool_overlap: bool | None = None
    squadrons: tuple[str, ...] = ()

    def json_fields(self) -> dict[str, Any]:
        """Return the fields this detail adds to the JSON answer, in ``cli.md`` order."""
        return {
            "speed": self.speed,
            "side": self.side,
            "tool_overlap": self.tool_overlap,
            "squadrons": list(self.squadrons),
        }

    def bump_lines(self) -> list[str]:
        """Return what a bump means for the ship: Armada has no action step to skip."""
        return []

    def head_lines(self) -> list[str]:
        """Return the speed line, which comes before legality."""
        tool = f" (tool on the {self.side} side)" if self.side else ""
        return [f"  speed:      {self.speed}{tool}"]

    def tail_lines(self) -> list[str]:
        """Return the squadrons line, if any were under the final base."""
        if not self.squadrons:
            return []
        return [f"  squadrons:  {', '.join(self.squadrons)} (placed aside)"]


#: The per-game part of a move.
MoveDetail: TypeAlias = TemplateMove | ToolMove


def _pose(pose: FloatArray) -> str:
    x, y, heading = (float(v) for v in pose)
    return f"({x:.1f}, {y:.1f}) heading {heading % 360.0:.1f}°"


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


@_dc.dataclass(frozen=True, slots=True, eq=False)
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
    bump_point : ndarray of shape (2,) or None
        Where the bumped ships touch (the midpoint of their closest points).
    counted_template : shapely geometry or None
        The part of the template that counted for obstacles: the whole template on a
        complete move, the part between the start and the final position after a bump,
        None when the template has no effect (huge ships, Armada).
    detail : TemplateMove or ToolMove
        What the game adds: X-Wing progress, roll positions and huge-ship sections, or
        the Armada speed, tool side and squadrons.
    overlaps : ShipOverlaps or None
        X-Wing huge ships and Armada courses that overlapped a ship: the speeds tried,
        the ships overlapped, what happened to them, the damage; None otherwise.
    contacts : tuple of Contact
        The close calls: obstacles the final base or the template that counted, and
        ships the final base, come within ``contested_within`` of (clear, touching or
        overlapping), smallest margin first.
    resolve_distances : tuple of float
        For each of `obstacles`, its distance from the starting base (without guides),
        mm: the key of the resolve order (nearest first, ties by id; rules.md).
    obstacle_guides_only : tuple of str
        The obstacles the ship ends on only through a guide (the base without guides
        does not overlap them; guides count, so it ends on them all the same).
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
    bump_point: FloatArray | None = None
    counted_template: shapely.Geometry | None = None
    detail: MoveDetail = _dc.field(default_factory=TemplateMove)
    overlaps: ShipOverlaps | None = None
    contacts: tuple[Contact, ...] = ()
    resolve_distances: tuple[float, ...] = ()
    obstacle_guides_only: tuple[str, ...] = ()

    def to_json(self, *, close_calls: bool = False) -> dict[str, Any]:
        """Return the ``tabletop move --json`` object (``cli.md``).

        `close_calls` adds ``close_calls`` (``tabletop move --close-calls``).
        """
        sections = self.detail.sections if isinstance(self.detail, TemplateMove) else ()
        in_section = {
            ident: [name for name, ids in sections if ident in ids] for ident, _ in self.obstacles
        }
        obstacles: list[dict[str, Any]] = []
        for order, (ident, how) in enumerate(self.obstacles, 1):
            entry: dict[str, Any] = {"id": ident, "how": how}
            if sections:
                entry["sections"] = in_section[ident]
            entry["resolves"] = order
            if self.resolve_distances:
                entry["from_start"] = _mm(self.resolve_distances[order - 1])
            entry["guides_only"] = ident in self.obstacle_guides_only
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
        data.update(self.detail.json_fields())
        if self.overlaps is not None:
            data.update(self.overlaps.json_fields())
        if close_calls:
            data["close_calls"] = [c.to_json() for c in self.contacts]
        return data

    def _resolve_line(self) -> str:
        """Return the order the obstacle effects resolve in: nearest the starting base first."""
        steps = []
        for order, (ident, _) in enumerate(self.obstacles, 1):
            away = ""
            if self.resolve_distances:
                away = f" ({mm_text(self.resolve_distances[order - 1])} mm from the start)"
            steps.append(f"{order}. {ident}{away}")
        return f"  resolve:    {', '.join(steps)}; nearest the starting base first"

    def describe(self, *, close_calls: bool = False) -> str:
        """Return the report of ``tabletop move`` for people (`close_calls`: their lines).

        Examples
        --------
        >>> import numpy as np
        >>> print(MoveResult("a", "straight 1", np.array([100.0, 40.0, 90.0]),
        ...     np.array([100.0, 120.0, 90.0]), None, True, None, False, (("rock", "ends-on"),)
        ...     ).describe())
        a: straight 1
          start:      (100.0, 40.0) heading 90.0°
          final:      (100.0, 120.0) heading 90.0°
          complete:   yes
          bumped:     no
          fled:       no
          obstacles:  rock (ends on)
          resolve:    1. rock; nearest the starting base first
        """
        lines = [f"{self.ship}: {self.maneuver}"]
        lines.append(f"  start:      {_pose(self.start)}")
        lines.append(f"  final:      {_pose(self.final)}")
        lines += self.detail.head_lines()
        if self.legal is not None:
            lines.append(f"  legal:      {_yes(self.legal)}")
            if self.reason:
                lines.append(f"  reason:     {self.reason}")
        lines.append(f"  complete:   {_yes(self.complete)}")
        bumped = "no"
        if self.bumped is not None:
            bumped = f"yes, {self.bumped}"
            if self.bump_point is not None:
                bumped += f" (touching at ({self.bump_point[0]:.1f}, {self.bump_point[1]:.1f}))"
            elif self.overlaps is not None:
                bumped += " (the closest ship overlapped; the ships do not touch)"
        lines.append(f"  bumped:     {bumped}")
        lines.append(f"  fled:       {_yes(self.fled)}")
        hits = ", ".join(
            f"{ident} ({how.replace('-', ' ')}"
            + (", only a guide overlaps it" if ident in self.obstacle_guides_only else "")
            + ")"
            for ident, how in self.obstacles
        )
        lines.append(f"  obstacles:  {hits or 'none'}")
        if self.obstacles:
            lines.append(self._resolve_line())
        lines += self.detail.bump_lines()
        if self.overlaps is not None:
            lines += self.overlaps.lines()
        if close_calls:
            calls = [f"  close call: {c.words()}" for c in self.contacts]
            lines += calls or ["  close calls: none within the contested distance"]
        lines += self.detail.tail_lines()
        return "\n".join(lines)
