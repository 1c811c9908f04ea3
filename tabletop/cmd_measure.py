"""Distance and band from object A to object B; with --arc, attack range (and obstruction).

X-Wing arcs: front, rear, left, right, full-front, full-rear, bullseye.
Armada hull zones: front, left, right, rear.
"""

from __future__ import annotations

import argparse
from typing import TextIO

from obstacles.measuring import Measurement, measure
from tabletop.cli import EXIT_OK, emit_json
from tabletop.scenefile import load_scene
from tabletop.text import printable_report

__all__ = ["band_words", "measurement_text", "register", "run"]


def band_words(m: Measurement) -> str:
    """Return the band of a measurement in words (``range 2``, ``distance 3, medium range``)."""
    return m.band_words()


def measurement_text(m: Measurement) -> str:
    """Return the human report of one measurement (:meth:`Measurement.describe`)."""
    return m.describe()


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's arguments."""
    parser.add_argument("scene", help="scene file (.toml or .json)")
    parser.add_argument("a", help="id of the object measured from")
    parser.add_argument("b", help="id of the object measured to")
    parser.add_argument("--arc", help="an X-Wing arc or an Armada hull zone of A")
    parser.add_argument(
        "--defending-zone",
        help="Armada: the hull zone of B to measure to (default: the closest in arc)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the command."""
    scene = load_scene(args.scene)
    result = measure(scene, args.a, args.b, arc=args.arc, defending_zone=args.defending_zone)
    if args.json:
        emit_json(result.to_json(), out)
    else:
        out.write(printable_report(measurement_text(result), scene.ids) + "\n")
    return EXIT_OK
