r"""Answer JSON requests, one a line on stdin, with one JSON answer a line on stdout.

Requests: {"op": "check", "scene": {...}, "fix": true, "margins": false} (both
optional); {"op": "measure", "scene": {...}, "from": A,
"to": B, "arc": ARC (optional)}; {"op": "move", "scene": {...}, "ship": SHIP, "maneuver":
"bank 2 left"}; {"op": "measure_many", "scene": {...}, "pairs": [{"from": A, "to": B,
"arc": ARC (optional), "defending_zone": ZONE (optional)}, ...]}, answered
{"measurements": [...]}, each what the measure request of that pair answers. The scene
is inline, in the scene-file structure; a scene seen before (the same text) is not parsed
again. Each answer is the object
the command prints with --json, in request order; a bad line (an empty one too) answers
{"error": {...}} on its line and the stream goes on. Exit code 0 when the input ends.

A request may carry an "id" (a string, a number or null): the answer carries it back as
its first key, errors included. Keys a request does not take are listed in the answer's
"ignored_keys"; with --strict they are an error. Lines end at "\n" only (a "\r" before
it is white space); a line that is not UTF-8 or is longer than --max-request-bytes
(default 10 MiB, as a scene file) is answered with an error and the stream goes on.
"""

from __future__ import annotations

import argparse
import io
import sys
from typing import TextIO

from tabletop.app.cli import EXIT_OK
from tabletop.app.common.jobs import add_job_options, open_runner
from tabletop.app.query.answers import serve_stream
from tabletop.app.query.jobs import serve_shared
from tabletop.app.query.stream import MAX_REQUEST_BYTES
from tabletop.geom.errors import InvalidInputError

__all__ = ["register", "run"]


def _size(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, got {value}")
    return value


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's arguments (requests come on stdin)."""
    parser.add_argument(
        "--strict", action="store_true", help="a key a request does not take is an error"
    )
    parser.add_argument(
        "--max-request-bytes",
        type=_size,
        default=MAX_REQUEST_BYTES,
        metavar="N",
        help=f"longest request line, bytes (default {MAX_REQUEST_BYTES})",
    )
    parser.add_argument("--json", action="store_true", help="accepted; answers are always JSON")
    add_job_options(parser)  # the batch form: tabletop.app.query.jobs


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the command."""
    if sys.stdin is None:  # closed by the shell (<&-): no request can come
        raise InvalidInputError("standard input is closed; requests come on it, one a line")
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a text stream (a test's StringIO): its characters, as UTF-8
        stream = io.BytesIO(sys.stdin.read().encode("utf-8", "surrogateescape"))
    if args.jobs is not None or args.scheduler is not None:
        with open_runner(args.jobs, args.scheduler) as runner:
            serve_shared(stream, out, runner, strict=args.strict, limit=args.max_request_bytes)
        return EXIT_OK
    serve_stream(stream, out, strict=args.strict, limit=args.max_request_bytes)
    return EXIT_OK
