"""Apply the fixes `check` gives and write the scene that results: exit 0 when it is legal.

Each round moves the obstacle of the first violation that carries a fix (the placeable
move, or with --shortest the shortest one) and checks again, until the scene is legal
(exit 0) or no violation left carries a fix (exit 1: what remains is listed, and OUT
still holds the moves made). OUT is a new .toml or .json file: never the input, never
an existing file (exit 2). --placed and --clearance are `check`'s.
"""

from __future__ import annotations

import argparse
import copy
import os
from pathlib import Path
from typing import Any, TextIO

from tabletop.app.cli import EXIT_OK, EXIT_VIOLATIONS, emit_json
from tabletop.app.common.datafile import source_name
from tabletop.app.common.datatext import file_text
from tabletop.app.common.files import atomic_write
from tabletop.app.common.paths import output_target
from tabletop.app.common.text import printable_report
from tabletop.app.scene.sources import add_client_options, scene_from_args
from tabletop.geom.errors import InvalidInputError
from tabletop.obstacles.fix_apply import FixOutcome, apply_fixes
from tabletop.obstacles.placeable import check_clearance, default_clearance
from tabletop.obstacles.verdicts import mm

__all__ = ["register", "run"]

_SUFFIXES = (".toml", ".json")


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's arguments."""
    parser.add_argument(
        "scene", help="scene file (.toml or .json), or a client save (docs/import.md)"
    )
    parser.add_argument(
        "-o", "--output", required=True, metavar="OUT", help="the fixed scene: a new .toml or .json"
    )
    add_client_options(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--shortest",
        action="store_true",
        help="apply the shortest fixes (just past the line) instead of the placeable ones",
    )
    parser.add_argument(
        "--placed",
        metavar="ID",
        default=None,
        help="the obstacle being placed: the one a spacing fix moves",
    )
    parser.add_argument(
        "--clearance",
        type=float,
        metavar="MM",
        default=None,
        help="placeable fixes land MM past every line (default: clear of the contested zone)",
    )


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the command."""
    if Path(args.output).suffix.lower() not in _SUFFIXES:
        raise InvalidInputError(
            "expected a scene file name ending in .toml or .json", where=args.output
        )
    if args.shortest and args.clearance is not None:
        raise InvalidInputError(
            "--clearance is how far a placeable fix lands; --shortest takes none"
        )
    clearance = None if args.clearance is None else check_clearance(args.clearance)
    # Refuse a bad OUT (the input, an existing file) before any work.
    if args.scene != "-" and Path(args.output).resolve() == Path(args.scene).resolve():
        raise InvalidInputError(
            "that is the input scene; fix never writes over its input: choose another name",
            where=args.output,
        )
    output_target(args.output, inputs=[args.scene], input_kind="scene", force=True)
    if os.path.lexists(args.output):
        raise InvalidInputError(
            "the file exists; fix writes only a new file, never over one: choose another name",
            where=args.output,
        )
    scene = scene_from_args(args)
    outcome = apply_fixes(scene, shortest=args.shortest, placed=args.placed, clearance=clearance)
    atomic_write(args.output, file_text(_data(args, outcome), args.output), inputs=[args.scene])
    kind = "shortest" if args.shortest else "placeable"
    grown = default_clearance(scene.ruleset.contested_within) if clearance is None else clearance
    if args.json:
        answer: dict[str, Any] = {
            "scene": source_name(args.scene),
            "output": args.output,
            "fixes": kind,
            "clearance": None if args.shortest else grown,
            "legal": outcome.legal,
            "violations_before": len(outcome.before.violations),
            "moves": [m.to_json() for m in outcome.moves],
            "remaining": [v.to_json() for v in outcome.after.violations],
        }
        emit_json(answer, out)
    else:
        out.write(printable_report(_text(args, outcome, kind, grown), [args.scene, args.output]))
    return EXIT_OK if outcome.legal else EXIT_VIOLATIONS


def _data(args: argparse.Namespace, outcome: FixOutcome) -> dict[str, Any]:
    """Return the file to write: the input's own structure with the obstacles moved.

    A scene file keeps its keys as written (only each moved obstacle's ``at`` changes); a
    client save or standard input is written as the scene it was read as.
    """
    from tabletop.app.clients import is_client_file
    from tabletop.app.scene.scenefile import read_scene_data

    if args.scene == "-" or is_client_file(args.scene):
        return outcome.scene.to_dict()
    data = copy.deepcopy(read_scene_data(args.scene))
    ends = {m.object: m.end for m in outcome.moves}
    for entry in data.get("obstacles", []):
        if entry.get("id") in ends:
            entry["at"] = list(ends[entry["id"]])
    return dict(data)


def _text(args: argparse.Namespace, outcome: FixOutcome, kind: str, grown: float) -> str:
    before = len(outcome.before.violations)
    count = f"{len(outcome.moves)} move{'' if len(outcome.moves) == 1 else 's'}"
    if not before:
        head = "legal as given; nothing to move"
    elif outcome.legal:
        head = f"{before} violation(s); {count}, now legal"
    else:
        head = f"{before} violation(s); {count}, still illegal"
    lines = [f"{source_name(args.scene)}: {head}"]
    for m in outcome.moves:
        what = (
            f"placeable, {mm(grown)} mm past every line"
            if m.fix == "placeable"
            else "the shortest fix" + ("" if kind == "shortest" else ": no placeable one here")
        )
        lines.append(
            f"  moved {m.object} {m.way} ({what}): ({mm(m.start[0])}, {mm(m.start[1])}) to "
            f"({mm(m.end[0])}, {mm(m.end[1])}); settles {', '.join(m.rules)}"
        )
    for v in outcome.after.violations:
        lines.append(f"  remains: {v.rule}: {v.message}")
    lines.append(f"wrote {args.output}" + ("" if outcome.legal else " (still illegal)"))
    return "\n".join(lines) + "\n"
