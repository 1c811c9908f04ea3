"""tabletop: measure, check and move on X-Wing and Armada tables, to the millimetre.

usage: tabletop COMMAND [ARGS] [--json]

Commands:
  measure SCENE A B [--arc ARC]      distance, band and attack range from A to B
  report SCENE                       every ship pair measured, as a table
  check SCENE                        setup legality (exit 1 when anything is illegal)
  move SCENE SHIP MANEUVER           one maneuver against the scene
  render SCENE -o OUT                draw the scene (PNG, SVG or PDF)
  setup --ruleset R --seed N -o OUT  write a random legal obstacle setup
  query                              JSON-lines requests on stdin, answers on stdout
  event ACTION EVENT ...             organized play: new, pair, result, drop, return,
                                     standings, check (exit 1 on findings), render

Exit codes: 0 done (and, for check, legal); 1 check found violations; 2 the input could not
be used. Options may come anywhere after the command; `tabletop COMMAND --help` says more.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, Protocol, TextIO

from geom.errors import InvalidInputError

__all__ = [
    "COMMANDS",
    "EXIT_BAD_INPUT",
    "EXIT_OK",
    "EXIT_VIOLATIONS",
    "UsageError",
    "emit_json",
    "main",
]

EXIT_OK, EXIT_VIOLATIONS, EXIT_BAD_INPUT = 0, 1, 2

#: Command name -> the module that implements it (imported only when that command runs,
#: so that `check` never pays for matplotlib).
COMMANDS: dict[str, str] = {
    "measure": "tabletop.cmd_measure",
    "report": "tabletop.cmd_report",
    "check": "tabletop.cmd_check",
    "move": "tabletop.cmd_move",
    "render": "tabletop.cmd_render",
    "setup": "tabletop.cmd_setup",
    "query": "tabletop.cmd_query",
    "event": "tabletop.cmd_event",
}


class UsageError(InvalidInputError):
    """A command line that does not fit the command's usage."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        usage = self.format_usage().strip().removeprefix("usage: ")
        raise UsageError(f"{message}\nusage: {usage}")


class CommandModule(Protocol):
    """What a command module provides."""

    def register(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace, out: TextIO) -> int: ...


def emit_json(data: Any, out: TextIO) -> None:
    """Write one JSON object on one line."""
    out.write(json.dumps(data, ensure_ascii=False, allow_nan=False) + "\n")


def _available() -> dict[str, str]:
    found = {}
    for name, path in COMMANDS.items():
        if importlib.util.find_spec(path) is not None:
            found[name] = path
    return found


def main(
    argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Run the command line; return the exit code (never raises for bad input)."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    if not args_list or args_list[0] in ("-h", "--help", "help"):
        (out if args_list else err).write(__doc__ or "")
        return EXIT_OK if args_list else EXIT_BAD_INPUT
    name, rest = args_list[0], args_list[1:]
    want_json = "--json" in rest
    commands = _available()
    try:
        if name not in commands:
            raise UsageError(f"unknown command {name!r}; expected one of: " + ", ".join(commands))
        module: CommandModule = importlib.import_module(commands[name])
        parser = _Parser(
            prog=f"tabletop {name}",
            allow_abbrev=False,
            description=(importlib.import_module(commands[name]).__doc__ or "").strip(),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.register(parser)
        if any(a in ("-h", "--help") for a in rest):
            out.write(parser.format_help())
            return EXIT_OK
        # After "--" every word is positional (an id may start with "-"); the intermixed
        # parser mishandles "--", and with it the plain parser needs no intermixing.
        args = parser.parse_args(rest) if "--" in rest else parser.parse_intermixed_args(rest)
        return module.run(args, out)
    except InvalidInputError as error:
        if want_json:
            emit_json({"error": {"message": error.message, "where": error.where}}, out)
        prefix = f"{error.where}: " if error.where else ""
        err.write(f"tabletop {name}: error: {prefix}{error.message}\n")
        return EXIT_BAD_INPUT
