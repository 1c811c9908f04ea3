"""Distance and band from object A to object B; with --arc, attack range (and obstruction).

X-Wing arcs: front, rear, left, right, full-front, full-rear, bullseye.
Armada hull zones: front, left, right, rear.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TextIO

from obstacles.measuring import Measurement, measure
from tabletop.cli import EXIT_OK, emit_json
from tabletop.scenefile import load_scene
from tabletop.text import printable_report

__all__ = ["band_words", "measurement_text", "register", "run"]


def _point(p: Sequence[float]) -> str:
    return f"({p[0]:.1f}, {p[1]:.1f})"


def band_words(m: Measurement) -> str:
    """Return the band of a measurement in words (``range 2``, ``distance 3, medium range``)."""
    if m.game == "xwing":
        return "beyond range 5" if m.band is None else f"range {m.band}"
    distance = "beyond distance 5" if m.distance_band is None else f"distance {m.distance_band}"
    rng = "beyond long range" if m.range_band is None else f"{m.range_band} range"
    return f"{distance}, {rng}"


def measurement_text(m: Measurement) -> str:
    """Return the human report of one measurement."""
    head = f"{m.from_id} to {m.to_id}"
    lines = []
    if m.arc is not None:
        zone = " hull zone" if m.game == "armada" else " arc"
        head += f", from the {m.arc}{zone}"
        where = "in arc" if m.in_arc else "NOT in arc (the plain distance follows)"
        if m.defending_zone:
            where += f", to the {m.defending_zone} hull zone"
        lines.append(f"  arc:        {where}")
    lines.insert(0, head)
    lines.append(f"  distance:   {m.distance:.1f} mm")
    lines.append(f"  band:       {band_words(m)}")
    side = "inside" if m.margin >= 0 else "beyond"
    lines.append(f"  margin:     {abs(m.margin):.1f} mm {side} the {m.nearest_line:.1f} mm line")
    contested = "YES: within the contested distance of a line" if m.contested else "no"
    lines.append(f"  contested:  {contested}")
    lines.append(f"  closest:    {_point(m.points[0])} to {_point(m.points[1])}")
    if "obstructed" in m.extra:
        by = ", ".join(m.extra.get("obstructed_by", []))
        verdict = {True: "YES", False: "no", "attacker-chooses": "the attacker chooses"}[
            m.extra["obstructed"]
        ]
        tied = " (tied shortest segments)" if "tied_segments" in m.extra else ""
        lines.append(f"  obstructed: {verdict}{tied}" + (f", crossing {by}" if by else ""))
    if "line_of_sight" in m.extra:
        sight = "yes" if m.extra["line_of_sight"] else "NO: traced through another hull zone"
        lines.append(f"  sight:      {sight}")
    lines.extend(f"  note:       {note}" for note in m.notes)
    return "\n".join(lines)


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
