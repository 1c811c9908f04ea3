"""Setup legality of a whole scene under its ruleset; exit 1 when any rule is broken.

Rules: obstacle-edge, obstacle-spacing, obstacle-setup-area (Armada), obstacle-composition
(tournament format), ship-deployment (setup phase), ship-overlap, outside-play-area. Each
placement violation carries the shortest move that makes that obstacle legal (``--no-fix``
leaves it null and skips the work); ``--margins`` lists every measurement the rules made,
smallest margin first.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any, TextIO

from tabletop.app.cli import EXIT_OK, EXIT_VIOLATIONS, emit_json
from tabletop.app.common.datafile import source_name
from tabletop.app.common.text import name_ids, printable_report
from tabletop.app.scene.sources import (
    add_client_options,
    mark_within_resolution,
    scene_from_args,
)
from tabletop.geom.errors import InvalidInputError
from tabletop.obstacles.legality import CheckReport, Violation, check
from tabletop.obstacles.placeable import check_clearance
from tabletop.obstacles.verdicts import Margin

__all__ = ["register", "report_text", "run", "violation_text"]


def violation_text(number: int, v: Violation) -> str:
    """Return the human lines of one violation (:meth:`Violation.describe`)."""
    return v.describe(number)


def report_text(source: str, report: CheckReport) -> str:
    """Return the human report of a check (:meth:`CheckReport.describe`)."""
    return report.describe(source)


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's arguments."""
    parser.add_argument(
        "scene", help="scene file (.toml or .json), or a client save (docs/import.md)"
    )
    add_client_options(parser)
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
    parser.add_argument(
        "--clearance",
        type=float,
        metavar="MM",
        default=None,
        help="each fix also gives a move a hand can place, landing MM past every line",
    )
    parser.add_argument(
        "--placed",
        metavar="ID",
        default=None,
        help="the obstacle being placed: the one a spacing fix moves",
    )
    parser.add_argument(
        "--printed-names",
        action="store_true",
        help="give each catalog token's printed name beside its id (rock1 (Asteroid 5)); "
        "a scene's printed_names = true asks the same",
    )
    parser.add_argument(
        "--all-steps",
        action="store_true",
        help="a VASSAL log: check every step; name the first at which the setup is illegal",
    )


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the command.

    Everything loaded before it (the modules, numpy's and shapely's) is frozen out of the
    cyclic collector's passes, which a large scene's thousands of objects set off, until
    the command is done (:func:`tabletop.app.cli.main` sees to it).
    """
    # --- XWS lists: `check LIST` judges the list's obstacle choice (xws_list.py) ---
    from tabletop.app.clients import is_client_file

    # is_client_file first: it stats before it opens, so a FIFO is refused, never waited on.
    if not args.all_steps and is_client_file(args.scene) and _is_list_file(args.scene):
        from tabletop.app.scene.xws_list import check_list

        return check_list(args.scene, args.json, out)
    # --- end of XWS lists ---
    if args.all_steps:
        return _all_steps(args, out)
    scene = scene_from_args(args)
    clearance = None if args.clearance is None else check_clearance(args.clearance)
    report = check(
        scene, fixes=args.fix, margins=args.margins, clearance=clearance, placed=args.placed
    )
    names = scene.token_names() if args.printed_names or scene.printed_names else {}
    if args.json:
        answer = report.to_json()
        mark_within_resolution(answer["violations"], scene.resolution_mm)
        mark_within_resolution(answer.get("margins", []), scene.resolution_mm)
        mark_within_resolution(answer.get("contested", []), scene.resolution_mm)
        if args.printed_names or scene.printed_names:
            _name_json(answer, names)
        emit_json(answer, out)
    else:
        head, _, body = report_text(source_name(args.scene), report).partition("\n")
        text = head + "\n" + name_ids(body, names)
        text += resolution_note(report, scene.resolution_mm)
        out.write(printable_report(text, [*scene.ids, args.scene]) + "\n")
    return EXIT_OK if report.legal else EXIT_VIOLATIONS


def _is_list_file(path: str) -> bool:
    # The XWS reader loads only for a client file (a plain scene never needs it).
    from tabletop.app.clients.xws import is_list_file

    return is_list_file(path)


def _name_json(answer: dict[str, Any], names: Mapping[str, str]) -> None:
    """Name the catalog tokens in each message, and list every printed name by id."""
    for violation in answer["violations"]:
        violation["message"] = name_ids(violation["message"], names)
    answer["printed_names"] = dict(names)


def resolution_note(report: CheckReport, resolution_mm: float | None) -> str:
    """Return the line that names the margins below an imported scene's resolution."""
    if resolution_mm is None:
        return ""
    below: set[str] = set()
    measured: list[Violation | Margin] = [*report.violations, *(report.margins or ())]
    for entry in measured:
        if entry.margin is not None and abs(entry.margin) < resolution_mm:
            below.add(" ".join(entry.objects))
    if not below:
        return ""
    return (
        f"\n  within resolution ({resolution_mm:g} mm, what the client could represent): "
        + ", ".join(sorted(below))
    )


def _all_steps(args: argparse.Namespace, out: TextIO) -> int:
    from tabletop.app.clients import read_steps
    from tabletop.app.scene.scenefile import parse_scene

    if args.step is not None:
        raise InvalidInputError("--all-steps checks every step; give it without --step")
    steps = read_steps(args.scene, table=args.table)
    first: int | None = None
    violations: list[dict[str, object]] = []
    for step in steps:
        scene = parse_scene(step.position.scene_data(args.phase or "play"), args.scene)
        report = check(scene, fixes=args.fix)
        if not report.legal:
            first = step.step
            answer = report.to_json()
            mark_within_resolution(answer["violations"], scene.resolution_mm)
            violations = answer["violations"]
            break
    result = {"steps_checked": len(steps), "first_illegal_step": first, "violations": violations}
    if args.json:
        emit_json(result, out)
    else:
        verdict = "every step legal" if first is None else f"first illegal at step {first}"
        lines = [f"{source_name(args.scene)}: {len(steps)} steps checked, {verdict}"]
        lines += [f"  {v['rule']}: {v['message']}" for v in violations]
        out.write(printable_report("\n".join(lines), [args.scene]) + "\n")
    return EXIT_OK if first is None else EXIT_VIOLATIONS
