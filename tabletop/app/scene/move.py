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

from tabletop.app.cli import EXIT_OK, emit_json
from tabletop.app.common.text import printable_report
from tabletop.app.scene.sources import add_client_options, scene_from_args
from tabletop.maneuvers import MoveResult, execute

__all__ = ["move_text", "register", "run"]


def move_text(result: MoveResult, *, close_calls: bool = False) -> str:
    """Return the human report of a move (:meth:`MoveResult.describe`)."""
    return result.describe(close_calls=close_calls)


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's arguments."""
    parser.add_argument(
        "scene", help="scene file (.toml or .json), or a client save (docs/import.md)"
    )
    add_client_options(parser)
    parser.add_argument("ship", help="id of the ship that moves")
    parser.add_argument("maneuver", nargs="+", help="the maneuver words, e.g. bank 2 left")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--close-calls",
        action="store_true",
        help="list the obstacles and ships the move comes within the contested distance of",
    )


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the command."""
    scene = scene_from_args(args)
    maneuver = " ".join(args.maneuver)
    result = execute(scene, args.ship, maneuver)
    if args.json:
        emit_json(result.to_json(close_calls=args.close_calls), out)
    else:
        text = move_text(result, close_calls=args.close_calls)
        out.write(printable_report(text, scene.ids) + "\n")
    return EXIT_OK
