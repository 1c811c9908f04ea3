"""Read a client's save (Tabletop Simulator, VASSAL) into a scene, with a report.

SOURCE is recognised by its content: a TTS save or saved-objects file of the X-Wing 2.0,
1st-edition or Armada mod, or a VASSAL X-Wing save or log (docs/import.md). With -o the
scene is written (TOML or JSON by the suffix; never over an existing file without
--force); without it the scene is printed as TOML. The report lists what was imported
(id, source id, pose, what it became), what was skipped and why, the mat used, the
client's resolution and every conversion fact relied on that is not confirmed.
--steps lists a VASSAL log's steps; --step N imports the position after its N-th entry.
"""

from __future__ import annotations

import argparse
import os
from typing import Any, TextIO

from tabletop.app.cli import EXIT_OK, emit_json
from tabletop.app.clients import read_client, read_steps
from tabletop.app.clients.model import ClientImport
from tabletop.app.common.datafile import source_name
from tabletop.app.common.datatext import file_text, toml_text
from tabletop.app.common.locking import publish_after_report
from tabletop.app.common.paths import output_target
from tabletop.app.common.text import printable_report
from tabletop.app.scene.scenefile import parse_scene
from tabletop.app.scene.sources import add_client_options
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.mmtext import mm_text

__all__ = ["register", "report_text", "run"]


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's arguments."""
    parser.add_argument("source", help="a TTS save or saved object, or a VASSAL save or log")
    parser.add_argument("-o", "--output", help="scene file to write (.toml or .json)")
    add_client_options(parser)
    parser.add_argument("--steps", action="store_true", help="a VASSAL log: list its steps")
    parser.add_argument(
        "--force", action="store_true", help="replace OUTPUT if it exists (never SOURCE)"
    )
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")


def report_text(source: str, position: ClientImport, phase: str) -> str:
    """Return the human report of an import."""
    where = position.table["name"] if position.table else "(no mat)"
    lines = [
        f"{source}: {position.source.client} {position.source.format}"
        + (f" of {position.source.module!r}" if position.source.module else "")
        + (f" {position.source.version}" if position.source.version else "")
        + f", {position.ruleset}, {phase} phase, table {where}",
        f"  imported {len(position.imported)}, skipped {len(position.skipped)}; resolution "
        f"{position.resolution.position_mm:g} mm",
    ]
    for item in position.imported:
        pose = "heading" if item.kind == "ship" else "angle"
        extra = f", player {item.player}" if item.player is not None else ""
        extra += ", flipped" if item.flipped else ""
        extra += f", hull {item.hull}" if item.hull is not None else ""
        lines.append(
            f"  + {item.id} ({item.source_id}): {item.kind} {item.became} at "
            f"({mm_text(item.x_mm)}, {mm_text(item.y_mm)}), {pose} {mm_text(item.angle_deg)}"
            f"{extra}"
        )
    lines += [f"  - {s.id} {s.name!r}: {s.reason}" for s in position.skipped]
    lines += [
        f"  matched {m.source_name} -> {m.token} (residual {mm_text(m.residual_mm)} mm)"
        for m in position.matches
    ]
    lines += [f"  unconfirmed: {text}" for text in position.unconfirmed]
    return "\n".join(lines)


def _steps(args: argparse.Namespace, out: TextIO) -> int:
    if args.step is not None or args.output is not None:
        raise InvalidInputError("--steps lists the steps; give it without --step or -o")
    steps = read_steps(args.source, table=args.table)
    listed = {"steps": [step.to_json() for step in steps]}
    if args.json:
        emit_json(listed, out)
    else:
        text = "\n".join(
            f"{s.step}: {s.description}" + (f" (moved {', '.join(s.moved)})" if s.moved else "")
            for s in steps
        )
        out.write(printable_report(text, [args.source]) + "\n")
    return EXIT_OK


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the command."""
    if args.steps:
        return _steps(args, out)
    if args.output is not None:
        file_text({}, args.output, kind="scene")  # an unknown suffix is refused before any reading
        output_target(args.output, inputs=[args.source], force=True)  # a name it cannot have
        if os.path.lexists(args.output) and not args.force:
            raise InvalidInputError("exists; give --force to replace it", where=args.output)
    phase = args.phase or "play"
    position = read_client(args.source, table=args.table, step=args.step)
    data: dict[str, Any] = position.scene_data(phase)
    parse_scene(data, source_name(args.source))  # what is written always loads

    def report(stream: TextIO) -> None:
        if args.json:
            emit_json(position.report(phase), stream)
            return
        text = report_text(source_name(args.source), position, phase)
        if args.output is None:
            comment = "\n".join("# " + line for line in text.splitlines())
            stream.write(printable_report(comment, [args.source]) + "\n" + toml_text(data))
        else:
            stream.write(printable_report(text, [args.source, args.output]) + "\n")

    if args.output is None:
        report(out)
        return EXIT_OK
    # The scene takes its name only once the report is out: a failed command writes nothing.
    files = [(args.output, file_text(data, args.output, kind="scene"))]
    publish_after_report(files, out, report, inputs=[args.source], force=args.force)
    return EXIT_OK
    text = report_text(source_name(args.source), position, phase)
    if args.output is None:
        comment = "\n".join("# " + line for line in text.splitlines())
        out.write(printable_report(comment, [args.source]) + "\n" + toml_text(data))
    else:
        out.write(printable_report(text, [args.source, args.output]) + "\n")
    return EXIT_OK
