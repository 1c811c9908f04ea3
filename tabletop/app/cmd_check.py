"""Setup legality of a whole scene under its ruleset; exit 1 when any rule is broken.

Rules: obstacle-edge, obstacle-spacing, obstacle-setup-area (Armada), obstacle-composition
(tournament format), ship-deployment (setup phase), ship-overlap, outside-play-area. Each
placement violation carries the shortest move that makes that obstacle legal (``--no-fix``
leaves it null and skips the work); ``--margins`` lists every measurement the rules made,
smallest margin first.
"""

from __future__ import annotations

import argparse
from typing import TextIO

from tabletop.app.cli import EXIT_OK, EXIT_VIOLATIONS, emit_json
from tabletop.app.datafile import source_name
from tabletop.app.scenefile import load_scene
from tabletop.app.text import printable_report
from tabletop.obstacles.legality import CheckReport, Violation, check

__all__ = ["register", "report_text", "run", "violation_text"]


def violation_text(number: int, v: Violation) -> str:
    """Return the human lines of one violation (:meth:`Violation.describe`)."""
    return v.describe(number)


def report_text(source: str, report: CheckReport) -> str:
    """Return the human report of a check (:meth:`CheckReport.describe`)."""
    return report.describe(source)


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's arguments."""
    parser.add_argument("scene", help="scene file (.toml or .json)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--no-fix",
        dest="fix",
        action="store_false",
        help="do not compute fixes (each fix is null; much faster on an illegal table)",
    )
    parser.add_argument(
        "--margins",
        action="store_true",
        help="list every measurement each rule made with its margin, smallest first",
    )


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the command."""
    scene = load_scene(args.scene)
    report = check(scene, fixes=args.fix, margins=args.margins)
    if args.json:
        emit_json(report.to_json(), out)
    else:
        out.write(
            printable_report(report_text(source_name(args.scene), report), [*scene.ids, args.scene])
            + "\n"
        )
    return EXIT_OK if report.legal else EXIT_VIOLATIONS
