"""Distance and band from object A to object B; with --arc, attack range (and obstruction).

X-Wing arcs: front, rear, left, right, full-front, full-rear, bullseye.
Armada hull zones: front, left, right, rear.
Either end may be a line of the table: edge:bottom|top|left|right, and on an Armada long
table setup:left|right|bottom|top (the setup area's lines).
--also tts adds what the Tabletop Simulator X-Wing 2.0 mod's ruler would show (from the
printed arc edge, bands as floor(d/100)+1 with no range 0, a 14 mm bullseye) and why it
differs from the rules' reading.
"""

from __future__ import annotations

import argparse
from typing import TextIO

from tabletop.app.cli import EXIT_OK, emit_json
from tabletop.app.common.text import name_ids, printable_report
from tabletop.app.scene.sources import (
    add_client_options,
    mark_within_resolution,
    scene_from_args,
)
from tabletop.obstacles.measuring import Measurement, measure

__all__ = ["band_words", "measurement_text", "register", "run"]


def band_words(m: Measurement) -> str:
    """Return the band of a measurement in words (``range 2``, ``distance 3, medium range``)."""
    return m.band_words()


def measurement_text(m: Measurement) -> str:
    """Return the human report of one measurement (:meth:`Measurement.describe`)."""
    return m.describe()


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's arguments."""
    parser.add_argument(
        "scene", help="scene file (.toml or .json), or a client save (docs/import.md)"
    )
    add_client_options(parser)
    parser.add_argument("a", help="id of the object measured from")
    parser.add_argument("b", help="id of the object measured to")
    parser.add_argument("--arc", help="an X-Wing arc or an Armada hull zone of A")
    parser.add_argument(
        "--defending-zone",
        help="Armada: the hull zone of B to measure to (default: the closest in arc)",
    )
    parser.add_argument(
        "--also",
        choices=["tts"],
        help="tts: add what the Tabletop Simulator X-Wing 2.0 mod's ruler would show, and why "
        "it differs",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--printed-names",
        action="store_true",
        help="give each catalog token's printed name beside its id (rock1 (Asteroid 5)); "
        "a scene's printed_names = true asks the same",
    )
    parser.add_argument(
        "--ruling",
        action="store_true",
        help="add a ruling: line to the report, 'not contested' too (the contested line "
        "names the line and the ruling without it)",
    )


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the command."""
    scene = scene_from_args(args)
    result = measure(scene, args.a, args.b, arc=args.arc, defending_zone=args.defending_zone)
    # The option's module loads when asked for: most measurements need no TTS reading.
    tts = None
    if args.also == "tts":
        from tabletop.obstacles.tts import tts_reading

        tts = tts_reading(scene, result)
    ruling = result.ruling
    asked = args.printed_names or scene.printed_names
    names = scene.token_names() if asked else {}
    if args.json:
        answer = result.to_json()
        if asked:
            # Beside the ids: every printed name of the scene's catalog tokens, by id.
            answer["printed_names"] = names
        mark_within_resolution([answer], scene.resolution_mm)
        if tts is not None:
            answer["tts"] = tts.to_json()
        emit_json(answer, out)
    else:
        text = name_ids(measurement_text(result), names)
        if args.ruling:
            text += f"\n  ruling:     {'not contested' if ruling is None else ruling.text()}"
        if mark_within_resolution([{"margin": result.margin}], scene.resolution_mm):
            text += (
                f"\nwithin resolution: the margin is below {scene.resolution_mm:g} mm, what the "
                "client could represent"
            )
        if tts is not None:
            text += "\n" + tts.describe()
        out.write(printable_report(text, scene.ids) + "\n")
    return EXIT_OK
