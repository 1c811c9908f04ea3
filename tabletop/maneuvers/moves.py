"""The entry points: :func:`execute` against a scene, :func:`final_pose` without one.

Examples
--------
>>> import numpy as np
>>> from tabletop.geom.rulesets import get_ruleset
>>> xw = get_ruleset("xwing2")
>>> final_pose([300.0, 40.0, 90.0], "small", "straight 3", ruleset=xw).round(6).tolist()
[300.0, 200.0, 90.0]
>>> starts = np.array([[0.0, 0.0, 0.0], [0.0, 0.0, 90.0]])
>>> final_pose(starts, "small", "turn 1 right").round(6).tolist()
[[55.0, -55.0, 270.0], [55.0, 55.0, 0.0]]
>>> final_pose(np.empty((0, 3)), "small", "stationary").shape
(0, 3)
>>> final_pose([0.0, 0.0, 90.0], "small", "loop 2")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tabletop.geom.errors.InvalidManeuverError: maneuver 'loop 2': cannot read maneuver 'loop 2': unknown word 'loop'; accepted for xwing2: ...
"""

from __future__ import annotations

import dataclasses as _dc
from collections.abc import Iterable
from typing import Protocol

import numpy as np
import shapely
from numpy.typing import ArrayLike

from tabletop.geom.batch import RulesetLike, as_ruleset, backend, pose_rows
from tabletop.geom.compiled import GEOM_KERNELS
from tabletop.geom.measure import overlaps
from tabletop.geom.objects import Ship
from tabletop.geom.poses import FloatArray, compose
from tabletop.geom.rulesets import Ruleset
from tabletop.maneuvers.armada import armada_local_move, execute_armada
from tabletop.maneuvers.contacts import close_calls
from tabletop.maneuvers.notation import ArmadaCourse, Maneuver, parse_maneuver
from tabletop.maneuvers.result import MoveResult
from tabletop.maneuvers.xwing import execute_xwing, xwing_local_move
from tabletop.obstacles.scene import Scene

__all__ = ["Moved", "apply_moves", "execute", "final_pose", "local_move"]


class Moved(Protocol):
    """What :func:`apply_moves` reads from a move (a :class:`MoveResult` is one)."""

    @property
    def ship(self) -> object:
        """The moving ship's id (or the ship, whose ``id`` is read)."""

    @property
    def final(self) -> ArrayLike:
        """The final pose ``(x, y, heading)``."""


def apply_moves(scene: Scene, moves: Iterable[Moved]) -> Scene:
    """Return the scene with every moved ship at its final pose (moves in order).

    Examples
    --------
    >>> from tabletop.geom.areas import play_area
    >>> from tabletop.geom.objects import Ship
    >>> from tabletop.geom.rulesets import get_ruleset
    >>> scene = Scene(get_ruleset("xwing2"), play_area("3x3ft"), ships=(Ship("a", "small", 300, 100),))
    >>> after = apply_moves(scene, [execute(scene, "a", "straight 2")])
    >>> after.ship("a").y
    220.0
    """
    for move in moves:
        ship = scene.ship(str(getattr(move.ship, "id", move.ship)))
        x, y, heading = (float(v) for v in np.asarray(move.final, dtype=np.float64)[:3])
        scene = scene.with_ship(ship.moved(x, y, heading))
    return scene


def local_move(
    maneuver: Maneuver, base: str, ruleset: Ruleset, *, text: str | None = None
) -> FloatArray:
    """Return the ship-frame move ``(dx, dy, dheading)`` of a complete maneuver.

    Without a scene nothing can bump: this is the full maneuver (a roll without a position
    word: its centre position; an Armada course without a side: :func:`choose_side`).

    Examples
    --------
    >>> from tabletop.geom.rulesets import get_ruleset
    >>> from tabletop.maneuvers.notation import XWingManeuver
    >>> local_move(XWingManeuver("segnor", 1, "left"), "small", get_ruleset("xwing2")).round(3).tolist()
    [-37.574, 90.711, -135.0]
    """
    if isinstance(maneuver, ArmadaCourse):
        return armada_local_move(maneuver, base, ruleset, text=text)
    return xwing_local_move(maneuver, base, ruleset, text=text)


#: Single-thread seconds per pose of the compose kernel (``python -m benchmarks.kernels``).
_SECONDS_PER_POSE = 35e-9


def final_pose(
    poses: ArrayLike, base: str, maneuver: str, *, ruleset: RulesetLike = "xwing2"
) -> FloatArray:
    """Return where a complete maneuver takes start poses ``(3,)`` or ``(N, 3)``.

    The one final-pose function: a single pose is a one-row call and keeps its shape
    (``(3,)`` in, ``(3,)`` out). The maneuver's ship-frame move is worked out once
    (:func:`local_move`); applying it to many poses runs in a compiled kernel unless
    ``TABLETOP_NO_NUMBA=1`` selects numpy (:func:`tabletop.geom.batch.backend`).

    Parameters
    ----------
    poses : array_like of shape (3,) or (N, 3)
        Start poses ``(x, y, heading)``: mm and degrees counter-clockwise from +x.
    base : str
        A base name of the ruleset.
    maneuver : str
        Maneuver words (``cli.md``).
    ruleset : str or Ruleset, default "xwing2"
        The game edition, by name or as a ruleset (the convention of every array
        function: the last parameter, by keyword).

    Returns
    -------
    ndarray of the shape of `poses`
        Final poses, headings in ``[0, 360)``.

    Raises
    ------
    InvalidManeuverError
        For unreadable words.
    IllegalManeuverError
        For a maneuver the base cannot do.
    InvalidInputError
        For an unknown base or ruleset, or poses of the wrong shape.
    """
    rules = as_ruleset(ruleset)
    parsed = parse_maneuver(maneuver, rules)
    rules.base_size(base)
    move = np.asarray(local_move(parsed, base, rules, text=maneuver), dtype=np.float64)
    start = np.asarray(poses, dtype=np.float64)
    if start.ndim == 1:
        return np.asarray(compose(pose_rows(start), move)[0], dtype=np.float64)
    rows = pose_rows(start)
    path = backend(len(rows) * _SECONDS_PER_POSE)
    if path != "numpy":
        out = np.empty_like(rows)
        GEOM_KERNELS.call(path, "compose_moves", rows, move, out)
        return out
    return compose(rows, move)


def execute(scene: Scene, ship_id: str, maneuver_text: str) -> MoveResult:
    """Execute one maneuver of one ship against everything else in the scene.

    Parameters
    ----------
    scene : Scene
        The table.
    ship_id : str
        The moving ship.
    maneuver_text : str
        Maneuver words (``cli.md``) of the scene's game.

    Returns
    -------
    MoveResult

    Raises
    ------
    UnknownObjectError
        For an id that is no ship of the scene (``where`` is ``"ship 'ID'"``).
    InvalidManeuverError
        For unreadable words (``where`` is ``"maneuver 'TEXT'"``).
    IllegalManeuverError
        For a maneuver the ship's base cannot do (``where`` is ``"maneuver 'TEXT'"``).

    Examples
    --------
    >>> from tabletop.geom.areas import play_area
    >>> from tabletop.geom.objects import Ship
    >>> from tabletop.geom.rulesets import get_ruleset
    >>> xw = get_ruleset("xwing2")
    >>> scene = Scene(xw, play_area("3x3ft"), ships=(Ship("a", "small", 300, 100), Ship("b", "small", 300, 270)))
    >>> result = execute(scene, "a", "straight 3")
    >>> result.bumped, result.complete, result.final.round(6).tolist()
    ('b', False, [300.0, 226.8, 90.0])
    """
    ship = scene.ship(ship_id)
    maneuver = parse_maneuver(maneuver_text, scene.ruleset)
    if isinstance(maneuver, ArmadaCourse):
        result = execute_armada(scene, ship, maneuver, text=maneuver_text)
    else:
        result = execute_xwing(scene, ship, maneuver, text=maneuver_text)
    return _with_close_calls(scene, ship, _with_resolve_order(scene, ship, result))


def _with_resolve_order(scene: Scene, ship: Ship, result: MoveResult) -> MoveResult:
    """Add each obstacle's distance from the starting base, and those ended on by a guide.

    rules.md: effects resolve nearest first, by distance from the ship's starting base
    (without guides) to the obstacle, ties by id; the obstacles are in that order already.
    """
    if not result.obstacles:
        return result
    ruleset = scene.ruleset
    start = ship.polygon(ruleset)
    final = ship.moved(*(float(v) for v in result.final)).polygon(ruleset)
    polygons = {o.id: o.polygon() for o in scene.obstacles}
    distances = tuple(float(shapely.distance(start, polygons[i])) for i, _ in result.obstacles)
    guides_only: tuple[str, ...] = ()
    if ruleset.ship_guides:
        # Ending on an obstacle counts the guides: say when nothing but a guide is on it.
        guides_only = tuple(
            ident
            for ident, how in result.obstacles
            if how == "ends-on" and not overlaps(final, polygons[ident])
        )
    return _dc.replace(result, resolve_distances=distances, obstacle_guides_only=guides_only)


def _with_close_calls(scene: Scene, ship: Ship, result: MoveResult) -> MoveResult:
    """Add the move's close calls: obstacles and ships within the contested distance.

    Rolls, boosts and refused courses (``legal`` is not None) answer with their positions
    instead, and a ship that did not move is where it was; a ship the move bumped into or
    overlapped by the rules is said already.
    """
    if result.legal is not None or np.array_equal(result.final, result.start):
        return result
    ruleset = scene.ruleset
    final = ship.moved(*(float(v) for v in result.final))
    base = final.polygon(ruleset, guides=ruleset.ship_guides)
    said = {result.bumped}
    if result.overlaps is not None:
        said |= {s.ship for s in result.overlaps.ships}
    obstacles = [(o.id, o.polygon()) for o in scene.obstacles]
    ships = [
        (s.id, s.polygon(ruleset, guides=ruleset.ship_guides))
        for s in scene.ships
        if s.id != ship.id and s.id not in said and not s.is_squadron
    ]
    within_mm = ruleset.contested_within
    found = close_calls(
        (("base", base), ("template", result.counted_template)), obstacles, within_mm
    )
    found += close_calls((("base", base),), ships, within_mm)
    if not found:
        return result
    ordered = tuple(sorted(found, key=lambda c: (c.margin, c.id, c.part)))
    return _dc.replace(result, contacts=ordered)
