"""tabletop: measure, check and move on X-Wing and Armada tables, to the millimetre.

Commands:
  measure SCENE A B [--arc ARC] [--json]   distance, band and attack range from A to B
  report SCENE [--json]                    every ship pair measured, as a table
  check SCENE [--json]                     setup legality (exit 1 when anything is illegal)

Exit codes: 0 done (and, for check, legal); 1 check found violations; 2 the input could not
be used. Options may come anywhere after the command.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TextIO

from geom.errors import InvalidInputError
from obstacles.measuring import Measurement, measure
from obstacles.scene import Scene
from tabletop.scenefile import load_scene

__all__ = ["main"]

EXIT_OK, EXIT_VIOLATIONS, EXIT_BAD_INPUT = 0, 1, 2


class UsageError(InvalidInputError):
    """A command line that does not fit the command's usage."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message}\nusage: {self.format_usage().strip().removeprefix('usage: ')}")


def _mm(value: float) -> str:
    return f"{value:.1f}"


def _point(p: Sequence[float]) -> str:
    return f"({p[0]:.1f}, {p[1]:.1f})"


def _band_words(m: Measurement) -> str:
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
    lines.append(f"  distance:   {_mm(m.distance)} mm")
    lines.append(f"  band:       {_band_words(m)}")
    side = "inside" if m.margin >= 0 else "beyond"
    lines.append(f"  margin:     {_mm(abs(m.margin))} mm {side} the {_mm(m.nearest_line)} mm line")
    lines.append(
        f"  contested:  {'YES (within the contested distance of a line)' if m.contested else 'no'}"
    )
    lines.append(f"  closest:    {_point(m.points[0])} to {_point(m.points[1])}")
    extra = m.extra
    if "obstructed" in extra:
        by = ", ".join(extra.get("obstructed_by", [])) or "nothing"
        lines.append(f"  obstructed: {extra['obstructed']} (by {by})")
    lines.extend(f"  note:       {note}" for note in m.notes)
    return "\n".join(lines)


def _emit_json(data: Any, out: TextIO) -> None:
    out.write(json.dumps(data, ensure_ascii=False) + "\n")


# -- commands ------------------------------------------------------------------------


def _cmd_measure(args: argparse.Namespace, out: TextIO) -> int:
    scene = load_scene(args.scene)
    result = measure(scene, args.a, args.b, arc=args.arc)
    if args.json:
        _emit_json(result.to_json(), out)
    else:
        out.write(measurement_text(result) + "\n")
    return EXIT_OK


def pair_measurements(scene: Scene) -> list[Measurement]:
    """Measure every pair of ships of a scene (base to base), in file order."""
    return [measure(scene, a.id, b.id) for a, b in itertools.combinations(scene.ships, 2)]


def _cmd_report(args: argparse.Namespace, out: TextIO) -> int:
    scene = load_scene(args.scene)
    rows = pair_measurements(scene)
    if args.json:
        _emit_json({"scene": args.scene, "pairs": [m.to_json() for m in rows]}, out)
        return EXIT_OK
    out.write(
        f"{args.scene}: {scene.ruleset.name}, {len(scene.ships)} ships, "
        f"{len(scene.obstacles)} obstacles\n"
    )
    band_head = "range" if scene.ruleset.game == "xwing" else "distance, range"
    out.write(f"  {'from':<14}{'to':<14}{'mm':>9}  {band_head:<24}{'margin':>9}  contested\n")
    for m in rows:
        out.write(
            f"  {m.from_id:<14}{m.to_id:<14}{_mm(m.distance):>9}  {_band_words(m):<24}"
            f"{m.margin:>+9.1f}  {'YES' if m.contested else '-'}\n"
        )
    return EXIT_OK


Command = Callable[[argparse.Namespace, TextIO], int]


def _parsers() -> dict[str, tuple[argparse.ArgumentParser, Command]]:
    commands: dict[str, tuple[argparse.ArgumentParser, Command]] = {}

    p = _Parser(prog="tabletop measure", description="Distance and band from object A to object B.")
    p.add_argument("scene", help="scene file (.toml or .json)")
    p.add_argument("a", help="id of the object measured from")
    p.add_argument("b", help="id of the object measured to")
    p.add_argument(
        "--arc", help="measure attack range from this arc (X-Wing) or hull zone (Armada)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    commands["measure"] = (p, _cmd_measure)

    p = _Parser(prog="tabletop report", description="Every ship pair of a scene measured.")
    p.add_argument("scene", help="scene file (.toml or .json)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    commands["report"] = (p, _cmd_report)
    return commands


def main(
    argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Run the command line; return the exit code (never raises for bad input)."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    commands = _parsers()
    want_json = "--json" in args_list
    if not args_list or args_list[0] in ("-h", "--help", "help"):
        out.write(__doc__ or "")
        return EXIT_OK if args_list else EXIT_BAD_INPUT
    name, rest = args_list[0], args_list[1:]
    try:
        if name not in commands:
            raise UsageError(f"unknown command {name!r}; expected one of: " + ", ".join(commands))
        parser, run = commands[name]
        if any(a in ("-h", "--help") for a in rest):
            out.write(parser.format_help())
            return EXIT_OK
        args = parser.parse_intermixed_args(rest)
        return run(args, out)
    except InvalidInputError as error:
        where = error.where
        if want_json:
            _emit_json({"error": {"message": error.message, "where": where}}, out)
        prefix = f"{where}: " if where else ""
        err.write(f"tabletop {name}: error: {prefix}{error.message}\n")
        return EXIT_BAD_INPUT
