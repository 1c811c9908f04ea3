"""Apply the fixes ``check`` gives until the scene is legal, or say what remains.

Each round checks the scene and moves the obstacle of the first violation that carries a
fix (its ``placeable`` move, or with ``shortest`` its shortest one). A fix makes its
obstacle legal against every rule at once, so moving one obstacle may also settle a
spacing violation it shared with another, which then stays where it is; the next check
says what is left. The rounds end when the scene is legal, when no violation left carries
a fix (a ship overlap, a composition, an obstacle with no legal position at its
rotation), or after one round per obstacle and one more.

Examples
--------
>>> from tabletop.geom.areas import play_area
>>> from tabletop.geom.rulesets import get_ruleset
>>> from tabletop.obstacles.catalog import get_token
>>> xw = get_ruleset("xwing2")
>>> rock = get_token(xw, "coreasteroid0")  # its lowest point is 16.03 mm below its centroid
>>> near = Obstacle("rock", rock.outline, rock.kind, 300.0, 190.0, token=rock.name)
>>> scene = Scene(xw, play_area("3x3ft"), obstacles=(near,))
>>> fixed = apply_fixes(scene, shortest=True)
>>> fixed.legal, [(m.object, m.rules) for m in fixed.moves]
(True, [('rock', ('obstacle-edge',))])

At y 190 its lowest point is 173.97 mm from the bottom edge; more than 200 is legal, so the
shortest fix lifts it 26.03 mm (and 0.00001 mm more):

>>> fixed.moves[0].move, fixed.moves[0].way
((0.0, 26.03001), '26.03001 mm up')
"""

from __future__ import annotations

import dataclasses as _dc
from typing import Any

from tabletop.geom.measure import json_mm
from tabletop.obstacles.legality import CheckReport, Violation, check
from tabletop.obstacles.placeable import way_words
from tabletop.obstacles.scene import Obstacle, Scene

__all__ = ["AppliedFix", "FixOutcome", "apply_fixes"]


@_dc.dataclass(frozen=True, slots=True)
class AppliedFix:
    """One obstacle moved by a fix.

    Attributes
    ----------
    object : str
        The obstacle's id.
    move : (float, float)
        The move along the table's axes, mm.
    start, end : (float, float)
        Its reference point before and after, mm.
    rules : tuple of str
        The rules it broke that the move settles.
    way : str
        The move in words (``25.237345 mm left, 4.80001 mm up``).
    fix : {"placeable", "shortest"}
        Which of the fix's moves it is: the shortest when asked for, or when no
        placeable move exists at the obstacle's rotation.
    """

    object: str
    move: tuple[float, float]
    start: tuple[float, float]
    end: tuple[float, float]
    rules: tuple[str, ...]
    way: str
    fix: str = "placeable"

    def to_json(self) -> dict[str, Any]:
        """Return ``{"object", "move", "from", "to", "rules", "way", "fix"}``."""
        return {
            "object": self.object,
            "move": list(self.move),
            "from": list(self.start),
            "to": list(self.end),
            "rules": list(self.rules),
            "way": self.way,
            "fix": self.fix,
        }


@_dc.dataclass(frozen=True, slots=True)
class FixOutcome:
    """What applying the fixes did.

    Attributes
    ----------
    scene : Scene
        The scene with every move made.
    moves : tuple of AppliedFix
        The moves, in the order made (an obstacle may move twice).
    before : CheckReport
        The check of the scene as given.
    after : CheckReport
        The check of the scene with the moves made; ``after.violations`` is what remains.
    """

    scene: Scene
    moves: tuple[AppliedFix, ...]
    before: CheckReport
    after: CheckReport

    @property
    def legal(self) -> bool:
        """Whether the scene is legal once the moves are made."""
        return self.after.legal


def _chosen(violation: Violation, shortest: bool) -> tuple[str, Any, str] | None:
    """Return the obstacle, the move and which move of a violation's fix, or None."""
    fix = violation.fix
    if fix is None:
        return None
    if shortest or fix.get("placeable") is None:
        return str(fix["object"]), fix["move"], "shortest"
    return str(fix["object"]), fix["placeable"]["move"], "placeable"


def apply_fixes(
    scene: Scene,
    *,
    shortest: bool = False,
    placed: str | None = None,
    clearance: float | None = None,
) -> FixOutcome:
    """Move obstacles by the fixes of :func:`~tabletop.obstacles.legality.check` until legal.

    Parameters
    ----------
    scene : Scene
    shortest : bool, default False
        Apply the shortest fixes (just past the line) rather than the placeable ones.
    placed : str, optional
        The obstacle being placed: the one a spacing fix moves (as ``check --placed``).
    clearance : float, optional
        How far past every line a placeable fix lands, mm (as ``check --clearance``).

    Returns
    -------
    FixOutcome
    """
    before = report = check(scene, clearance=clearance, placed=placed)
    moves: list[AppliedFix] = []
    for _ in range(len(scene.obstacles) + 1):
        if report.legal:
            break
        chosen = next(
            (c for v in report.violations if (c := _chosen(v, shortest)) is not None), None
        )
        if chosen is None:
            break
        ident, (dx, dy), which = chosen
        obstacle = scene.get(ident)
        assert isinstance(obstacle, Obstacle)
        end = (json_mm(obstacle.x + float(dx)), json_mm(obstacle.y + float(dy)))
        rules = tuple(dict.fromkeys(v.rule for v in report.violations if ident in v.objects))
        moves.append(
            AppliedFix(
                ident,
                (json_mm(float(dx)), json_mm(float(dy))),
                (json_mm(obstacle.x), json_mm(obstacle.y)),
                end,
                rules,
                way_words(float(dx), float(dy)),
                which,
            )
        )
        scene = scene.replace(
            obstacles=tuple(o.moved(*end) if o.id == ident else o for o in scene.obstacles)
        )
        report = check(scene, clearance=clearance, placed=placed)
    return FixOutcome(scene, tuple(moves), before, report)
