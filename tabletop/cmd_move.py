"""Execute one maneuver of one ship against everything else in the scene.

X-Wing: straight 3, bank 2 left, turn 1 right, koiogran 4, segnor 2 left, tallon 1 right,
reverse straight 1, reverse bank 1 left, stationary, roll left [forward|centre|back],
boost bank left, boost straight.
Armada: speed 3 yaw 0 -1 1 [side left|right] (one yaw value per joint, in clicks,
positive = counter-clockwise).

The maneuver is one argument ("bank 2 left") or the remaining words (bank 2 left).
A move that bumps or flees, and a roll or boost that cannot be done, still exit 0.
"""

from __future__ import annotations

import argparse
from typing import TextIO

from geom.poses import FloatArray
from maneuvers import MoveResult, execute
from tabletop.cli import EXIT_OK, emit_json
from tabletop.scenefile import load_scene

__all__ = ["move_text", "register", "run"]


def _pose(pose: FloatArray) -> str:
    x, y, heading = (float(v) for v in pose)
    return f"({x:.1f}, {y:.1f}) heading {heading % 360.0:.1f}°"


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def move_text(result: MoveResult) -> str:
    """Return the human report of a move.

    Examples
    --------
    >>> import numpy as np
    >>> print(move_text(MoveResult("a", "straight 1", np.array([100.0, 40.0, 90.0]),
    ...     np.array([100.0, 120.0, 90.0]), None, True, None, False, (("rock", "ends-on"),))))
    a: straight 1
      start:      (100.0, 40.0) heading 90.0°
      final:      (100.0, 120.0) heading 90.0°
      complete:   yes
      bumped:     no
      fled:       no
      obstacles:  rock (ends on)
    """
    lines = [f"{result.ship}: {result.maneuver}"]
    lines.append(f"  start:      {_pose(result.start)}")
    lines.append(f"  final:      {_pose(result.final)}")
    if result.speed is not None:
        tool = f" (tool on the {result.side} side)" if result.side else ""
        lines.append(f"  speed:      {result.speed}{tool}")
    if result.legal is not None:
        lines.append(f"  legal:      {_yes(result.legal)}")
        if result.reason:
            lines.append(f"  reason:     {result.reason}")
    lines.append(f"  complete:   {_yes(result.complete)}")
    bumped = "no"
    if result.bumped is not None:
        bumped = f"yes, {result.bumped}"
        if result.bump_point is not None:
            bumped += f" (touching at ({result.bump_point[0]:.1f}, {result.bump_point[1]:.1f}))"
    lines.append(f"  bumped:     {bumped}")
    lines.append(f"  fled:       {_yes(result.fled)}")
    hits = ", ".join(f"{ident} ({how.replace('-', ' ')})" for ident, how in result.obstacles)
    lines.append(f"  obstacles:  {hits or 'none'}")
    for name, ids in result.sections:
        lines.append(f"  {name + ':':11} {', '.join(ids) or 'no obstacle'}")
    if result.removed:
        lines.append(f"  removed:    {', '.join(result.removed)}")
    if result.squadrons:
        lines.append(f"  squadrons:  {', '.join(result.squadrons)} (placed aside)")
    for position in result.positions:
        state = "legal" if position.legal else f"fails: {position.reason}"
        lines.append(f"  {position.name + ':':11} {_pose(position.pose)}, {state}")
    if result.intervals:
        spans = ", ".join(f"{low:+.2f} to {high:+.2f}" for low, high in result.intervals)
        lines.append(f"  legal offsets: {spans} mm")
    return "\n".join(lines)


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's arguments."""
    parser.add_argument("scene", help="scene file (.toml or .json)")
    parser.add_argument("ship", help="id of the ship that moves")
    parser.add_argument("maneuver", nargs="+", help="the maneuver words, e.g. bank 2 left")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the command."""
    scene = load_scene(args.scene)
    maneuver = " ".join(args.maneuver)
    result = execute(scene, args.ship, maneuver)
    if args.json:
        emit_json(result.to_json(), out)
    else:
        out.write(move_text(result) + "\n")
    return EXIT_OK
