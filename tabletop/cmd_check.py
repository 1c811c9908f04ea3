"""Setup legality of a whole scene under its ruleset; exit 1 when any rule is broken.

Rules: obstacle-edge, obstacle-spacing, obstacle-setup-area (Armada), obstacle-composition
(tournament format), ship-deployment (setup phase), ship-overlap, outside-play-area. Each
placement violation carries the shortest move that makes that obstacle legal.
"""

from __future__ import annotations

import argparse
from typing import TextIO

from obstacles.legality import CheckReport, Violation, check
from tabletop.cli import EXIT_OK, EXIT_VIOLATIONS, emit_json
from tabletop.datafile import source_name
from tabletop.scenefile import load_scene
from tabletop.text import printable_report

__all__ = ["register", "report_text", "run", "violation_text"]


def violation_text(number: int, v: Violation) -> str:
    """Return the human lines of one violation."""
    lines = [f"  {number}. {v.rule}: {v.message}"]
    if v.distance is not None and v.limit is not None and v.margin is not None:
        contested = "  CONTESTED (within the contested distance of the line)" if v.contested else ""
        lines.append(
            f"     measured {v.distance:.1f} mm, limit {v.limit:.1f} mm, "
            f"margin {v.margin:+.1f} mm{contested}"
        )
    if v.points is not None:
        (x0, y0), (x1, y1) = v.points
        lines.append(f"     closest points ({x0:.1f}, {y0:.1f}) to ({x1:.1f}, {y1:.1f})")
    if v.fixable:
        if v.fix is None:
            lines.append(f"     fix: no legal position for {v.objects[0]} at this rotation")
        else:
            dx, dy = v.fix["move"]
            lines.append(f"     fix: move {v.fix['object']} by ({dx:+.2f}, {dy:+.2f}) mm")
    return "\n".join(lines)


def report_text(source: str, report: CheckReport) -> str:
    """Return the human report of a check."""
    verdict = "legal" if report.legal else f"ILLEGAL: {len(report.violations)} violation(s)"
    lines = [f"{source}: {report.ruleset}, {verdict}"]
    lines.extend(violation_text(i, v) for i, v in enumerate(report.violations, 1))
    counted = ", ".join(f"{rule} {n}" for rule, n in report.checked.items())
    lines.append(f"  checked: {counted}")
    return "\n".join(lines)


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's arguments."""
    parser.add_argument("scene", help="scene file (.toml or .json)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the command."""
    scene = load_scene(args.scene)
    report = check(scene)
    if args.json:
        emit_json(report.to_json(), out)
    else:
        out.write(
            printable_report(report_text(source_name(args.scene), report), [*scene.ids, args.scene])
            + "\n"
        )
    return EXIT_OK if report.legal else EXIT_VIOLATIONS
