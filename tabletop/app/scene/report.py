"""Every ship pair of a scene measured base to base, as a table (the demo's main job)."""

from __future__ import annotations

import argparse
import itertools
from typing import TextIO

from tabletop.app.cli import EXIT_OK, emit_json
from tabletop.app.common.datafile import source_name
from tabletop.app.common.text import printable, printable_report
from tabletop.app.scene.measure import band_words
from tabletop.app.scene.sources import add_client_options, scene_from_args
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.mmtext import mm_text, mm_with_margin
from tabletop.obstacles.measuring import Measurement, measure
from tabletop.obstacles.scene import Scene

__all__ = ["MOST_REPORTED_SHIPS", "pair_measurements", "register", "run"]

#: The most ships a report measures pairwise: 499,500 pairs, some 25 s of work (the
#: pairs grow as the square of the ships; 10,000 ships would take hours).
MOST_REPORTED_SHIPS = 1000


def pair_measurements(scene: Scene) -> list[Measurement]:
    """Measure every pair of ships of a scene (base to base), in file order."""
    return [measure(scene, a.id, b.id) for a, b in itertools.combinations(scene.ships, 2)]


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's arguments."""
    parser.add_argument(
        "scene", help="scene file (.toml or .json), or a client save (docs/import.md)"
    )
    add_client_options(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the command."""
    scene = scene_from_args(args)
    if len(scene.ships) > MOST_REPORTED_SHIPS:
        count = len(scene.ships)
        raise InvalidInputError(
            f"the scene has {count} ships, {count * (count - 1) // 2:,} pairs: a report "
            f"measures at most {MOST_REPORTED_SHIPS} ships "
            f"({MOST_REPORTED_SHIPS * (MOST_REPORTED_SHIPS - 1) // 2:,} pairs); "
            "measure the pairs wanted with measure or query",
            where=source_name(args.scene),
        )
    rows = pair_measurements(scene)
    if args.json:
        emit_json({"scene": args.scene, "pairs": [m.to_json() for m in rows]}, out)
        return EXIT_OK
    # Only the names that print differently need replacing in each row: found once, not
    # once a row (a row per ship pair).
    names = [n for n in (*scene.ids, args.scene) if printable(n) != n]
    out.write(
        printable_report(
            f"{source_name(args.scene)}: {scene.ruleset.name}, {len(scene.ships)} ships, "
            f"{len(scene.obstacles)} obstacles",
            names,
        )
        + "\n"
    )
    head = ", ".join(scene.ruleset.band_kinds)
    out.write(f"  {'from':<12}{'to':<12}{'mm':>8}  {head:<36}{'line':>7}{'margin':>9}  contested\n")
    for m in rows:
        # The distance and its margin at the same precision, however fine the call.
        distance, margin = mm_with_margin(m.distance, m.margin, line=m.nearest_line)
        out.write(
            printable_report(
                f"  {m.from_id:<12}{m.to_id:<12}"
                f"{distance:>8}  {band_words(m):<36}"
                f"{mm_text(m.nearest_line):>7}{margin:>9}"
                f"  {'YES' if m.contested else '-'}",
                names,
            )
            + "\n"
        )
    return EXIT_OK
