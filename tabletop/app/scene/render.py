"""Draw a scene to a picture (its format by OUT's suffix), every violation marked.

The picture shows the play area to scale with its edges named, the setup area and the
hatched no-obstacle margins, the deployment zones, obstacles (true outlines, coloured by
kind) and ships (bases with guides, arc lines, heading marks; coloured by player), each
with its id, every violation `tabletop check` finds in vermillion with its distance,
limit and margin, a legend and a millimetre scale bar that is also the game's ruler.

  --measure A B [--arc ARC]   the measurement as the ruler lies (closest points), with
                              its band and, with --arc, the arc and any obstruction
  --around A B [--zoom MM]    a close-up of a dispute: A and B, the distance between them
                              as a dimension line, the line of the rule in question and
                              its contested band shaded, on a millimetre grid; MM is the
                              half-width of the view (1 to 150 mm; by default the whole
                              distance while it fits, otherwise the part at the line)
  --printed-names             each catalog token's printed name beside its id
  --move SHIP MANEUVER...     a maneuver: template, start ghost, final base, bump point
                              (repeat --move for several, executed in turn); a later
                              --measure measures after the moves

Size: --size WIDTHxHEIGHT in pixels, 100 to 20000 each way and at most 40,000,000 in
all (a larger picture is refused before anything is read or drawn); by default 1000 px
high at 100 dpi and as wide as the table needs (about 1390 x 1000 for 3'x3', 2140 x 1000
for 6'x3'); --dpi (10 to 1200) scales the default. The default keeps to the same bounds:
a table too wide for 20000 px is drawn to scale inside that width, and a default over
40,000,000 pixels (a high --dpi) is scaled down, keeping its shape. The file is written atomically, never over SCENE, and over an existing OUT
only with --force. The same scene gives the
same SVG text.
"""

from __future__ import annotations

import argparse
import re
from typing import Any, TextIO

from tabletop.app.cli import EXIT_OK, emit_json
from tabletop.app.common.files import picture_output
from tabletop.app.common.locking import FileUpdate, report_then_publish
from tabletop.app.common.text import printable_report
from tabletop.app.scene.sources import add_client_options, scene_from_args
from tabletop.geom.errors import InvalidInputError
from tabletop.plots.formats import PICTURE_SUFFIXES

__all__ = ["parse_size", "register", "run"]

_SIZE = re.compile(r"^\s*(\d{1,6})\s*[xX×]\s*(\d{1,6})\s*$")


def parse_size(text: str) -> tuple[int, int]:
    """Return ``(width, height)`` from ``"1600x1000"``.

    Raises
    ------
    InvalidInputError
        For anything else.

    Examples
    --------
    >>> parse_size("1600x1000")
    (1600, 1000)
    >>> parse_size("big")
    Traceback (most recent call last):
    ...
    tabletop.geom.errors.InvalidInputError: --size 'big': expected WIDTHxHEIGHT in pixels, like 1600x1000
    """
    match = _SIZE.match(text)
    if match is None:
        raise InvalidInputError(f"--size {text!r}: expected WIDTHxHEIGHT in pixels, like 1600x1000")
    return int(match.group(1)), int(match.group(2))


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's arguments."""
    parser.add_argument(
        "scene", help="scene file (.toml or .json), or a client save (docs/import.md)"
    )
    add_client_options(parser)
    parser.add_argument(
        "-o", "--output", required=True, help=f"picture to write: {PICTURE_SUFFIXES}"
    )
    parser.add_argument(
        "--measure", nargs=2, metavar=("A", "B"), help="draw the measurement from A to B"
    )
    parser.add_argument(
        "--around",
        nargs=2,
        metavar=("A", "B"),
        help="draw a close-up of the dispute between A and B on a millimetre grid",
    )
    parser.add_argument(
        "--zoom", type=float, metavar="MM", help="with --around: half-width of the view, mm"
    )
    parser.add_argument("--arc", help="with --measure: an X-Wing arc or Armada hull zone of A")
    parser.add_argument(
        "--move",
        nargs="+",
        action="append",
        metavar="SHIP MANEUVER",
        help='draw a maneuver: --move wedge bank 2 left (or --move wedge "bank 2 left")',
    )
    parser.add_argument("--size", help="WIDTHxHEIGHT in pixels (default: 1000 high, fit width)")
    parser.add_argument("--dpi", type=float, default=100.0, help="dots per inch (default 100)")
    parser.add_argument("--title", help="title line (default: the scene file's name)")
    parser.add_argument(
        "--no-check", action="store_true", help="do not run check or mark violations"
    )
    parser.add_argument(
        "--force", action="store_true", help="replace OUT if it exists (never SCENE)"
    )
    parser.add_argument(
        "--printed-names",
        action="store_true",
        help="write each catalog token's printed name beside its id (rock1 (Asteroid 5))",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the command."""
    # Checked before the scene is read or drawn: a refused output costs nothing.
    fmt = picture_output(args.output, inputs=[args.scene], force=args.force, input_kind="scene")
    if args.arc is not None and args.measure is None:
        raise InvalidInputError("--arc needs --measure A B")
    if args.zoom is not None and args.around is None:
        raise InvalidInputError("--zoom needs --around A B")
    if args.around is not None and (args.measure is not None or args.move):
        raise InvalidInputError("--around draws one dispute: it takes no --measure or --move")
    size = None if args.size is None else parse_size(args.size)
    from tabletop.plots.picture import check_size

    # A picture too large for bounded memory is refused before the scene is read.
    check_size(size, args.dpi)
    scene = scene_from_args(args)
    from tabletop.plots.picture import check_drawable

    check_drawable(scene)
    if args.around is not None:
        return _run_around(args, scene, fmt, size, out)
    from tabletop import plots
    from tabletop.obstacles.measuring import measure

    moves: list[Any] = []
    moved = scene
    for words in args.move or []:
        if len(words) < 2:
            raise InvalidInputError(
                f"--move {' '.join(words)}: expected a ship id and a maneuver, "
                "like --move wedge bank 2 left"
            )
        from tabletop.maneuvers import apply_moves, execute

        result = execute(moved, words[0], " ".join(words[1:]))
        moves.append(result)
        moved = apply_moves(moved, [result])
    measurement = None
    if args.measure is not None:
        measurement = measure(moved, args.measure[0], args.measure[1], arc=args.arc)
    result_info = plots.render(
        scene,
        fmt,
        measurement=measurement,
        moves=moves,
        violations=not args.no_check,
        size=size,
        dpi=args.dpi,
        title=args.title if args.title is not None else args.scene,
        printed_names=args.printed_names or scene.printed_names,
    )

    return _publish(
        args, result_info.picture, _summary_line(args, result_info), result_info.to_json(), out
    )


def _summary_line(args: argparse.Namespace, result_info: Any) -> str:
    w, h = result_info.size
    if result_info.violations is None:
        checked = "not checked"
    else:
        n = result_info.violations
        checked = "legal" if n == 0 else f"{n} violation{'s' if n != 1 else ''} marked"
    return f"wrote {args.output} ({result_info.format}, {w} x {h} px, {checked})"


def _run_around(
    args: argparse.Namespace, scene: Any, fmt: str, size: tuple[int, int] | None, out: TextIO
) -> int:
    """Draw the close-up of a dispute (``--around A B``)."""
    from tabletop.obstacles.legality import check
    from tabletop.obstacles.measuring import measure
    from tabletop.plots.dispute import check_zoom, dispute_text, printed_names, render_dispute

    if args.zoom is not None:
        check_zoom(args.zoom)
    a, b = args.around
    measurement = measure(scene, a, b)
    # With every rule's measurement: a legal pair is still ruled by its own rule's line.
    report = None if args.no_check else check(scene, fixes=False, margins=True)
    drawn = render_dispute(
        scene,
        measurement,
        fmt,
        report=report,
        zoom_mm=args.zoom,
        size=size,
        dpi=args.dpi,
        title=args.title if args.title is not None else args.scene,
        names=printed_names(scene),
    )
    w, h = drawn.size
    x0, x1, y0, y1 = drawn.window
    line = drawn.line
    summary = (
        f"wrote {args.output} ({drawn.format}, {w} x {h} px, {a} to {b}: "
        f"{dispute_text(measurement.distance)} mm, {line.what} {line.at_mm:g} mm, "
        f"view x {x0:g} to {x1:g}, y {y0:g} to {y1:g} mm)"
    )
    return _publish(args, drawn.picture, summary, drawn.to_json(), out)


def _publish(
    args: argparse.Namespace, picture: bytes, summary: str, info: dict[str, Any], out: TextIO
) -> int:
    def publish(update: FileUpdate | None, report: TextIO) -> int:
        # The picture gets its name after the report is written: a report that cannot
        # be written leaves no picture.
        assert update is not None
        update.stage(picture, inputs=[args.scene], force=args.force, refuse_read_only=False)
        if args.json:
            data = {"scene": args.scene, "output": args.output, **info}
            emit_json(data, report)
            return EXIT_OK
        report.write(printable_report(summary, [args.output]) + "\n")
        return EXIT_OK

    return report_then_publish(args.output, out, publish)
