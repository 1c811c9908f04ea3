"""tabletop: measure, check and move on X-Wing and Armada tables, to the millimetre.

usage: tabletop COMMAND [ARGS] [--json]

Commands:
  measure SCENE A B [--arc ARC]      distance, band and attack range from A to B
  report SCENE                       every ship pair measured, as a table
  check SCENE                        setup legality (exit 1 when anything is illegal)
  fix SCENE -o OUT [--shortest]      apply check's fixes; write the scene (exit 1 if
                                     anything remains illegal)
  import SAVE [-o SCENE]             a TTS or VASSAL save as a scene, with a report
  move SCENE SHIP MANEUVER           one maneuver against the scene
  render SCENE -o OUT [--force]      draw the scene (a picture)
  setup --ruleset R --seed N -o OUT  write a random legal obstacle setup
  query [--strict]                   JSON-lines requests on stdin, answers on stdout
  serve [SCENE | SAVE] [--port N]    the board in a browser: move pieces, see the verdict
  list WHAT [--ruleset R]            the names a scene may use: tokens, bases, hulls,
                                     maneuvers, areas
  help COMMAND [ACTION]              what a command takes (as COMMAND [ACTION] --help)
  pocket check|actions|replay|play|render FILE   Pocket Battles: judge, simulate, draw
  dogfight check|moves|replay|play|render   the Star Wars Dogfight board game
  event ACTION EVENT ...             organized play: new, pair, result, drop, return,
                                     standings, check (exit 1 on findings), render

SCENE may also be a client save (TTS, VASSAL) with --table, --step and --phase; see
docs/import.md. SCENE may be - to read the scene from stdin (JSON when it begins with {, else TOML).
No command writes over an existing file without --force, nor ever over its input.
Exit codes: 0 done (and, for check, legal); 1 check found violations; 2 the input could not
be used; 130 interrupted (Ctrl-C); 141 the reader of the output went away (a closed pipe).
Bulk work (pocket/dogfight play --games, setup --count, query) takes --jobs N processes
or --scheduler ADDRESS, a Dask cluster; the output is the same either way (docs/bulk.md).
Options may come anywhere after the command; after -- every word is an argument.
`tabletop --version` prints the version.
"""

from __future__ import annotations

import argparse
import errno
import gc
import importlib
import importlib.util
import io
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, Protocol, TextIO, cast

from tabletop.app.common.text import clip, printable_lines
from tabletop.geom.errors import InvalidInputError

__all__ = [
    "COMMANDS",
    "EXIT_BAD_INPUT",
    "EXIT_BROKEN_PIPE",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_VIOLATIONS",
    "UsageError",
    "add_action",
    "add_actions",
    "emit_json",
    "main",
    "program",
]

EXIT_OK, EXIT_VIOLATIONS, EXIT_BAD_INPUT = 0, 1, 2
#: Exit codes of a shell for a process ended by SIGINT (Ctrl-C) and by SIGPIPE.
EXIT_INTERRUPTED, EXIT_BROKEN_PIPE = 130, 141

#: Command name -> the module that implements it (imported only when that command runs,
#: so that `check` never pays for matplotlib).
COMMANDS: dict[str, str] = {
    "measure": "tabletop.app.scene.measure",
    "report": "tabletop.app.scene.report",
    "check": "tabletop.app.scene.check",
    "fix": "tabletop.app.scene.fix",
    "import": "tabletop.app.scene.import_save",
    "move": "tabletop.app.scene.move",
    "render": "tabletop.app.scene.render",
    "setup": "tabletop.app.scene.setup",
    "query": "tabletop.app.query.command",
    "serve": "tabletop.app.board.server",
    "list": "tabletop.app.scene.listing",
    "pocket": "tabletop.app.pocket.command",
    "dogfight": "tabletop.app.dogfight.command",
    "event": "tabletop.app.event.command",
}


class UsageError(InvalidInputError):
    """A command line that does not fit the command's usage."""


def _terminal_columns() -> int:
    """Return ``shutil.get_terminal_size().columns``, without importing shutil.

    argparse asks shutil for the width each time it makes a formatter (every
    ``add_argument`` makes one), and shutil's import (bz2, lzma, zlib) costs a command's
    start-up more than its parser; the width is found the same way: ``COLUMNS`` when it
    is a positive number, else the terminal of ``sys.__stdout__``, else 80.
    """
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """The help formatter of every command: its description as written, wrapped text else."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        # argparse's own default width, found without shutil (see _terminal_columns).
        width = _terminal_columns() - 2 if width is None else width
        super().__init__(prog, indent_increment, max_help_position, width)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        usage = self.format_usage().strip().removeprefix("usage: ")
        raise UsageError(f"{message}\nusage: {usage}")


def add_actions(parser: argparse.ArgumentParser) -> argparse._SubParsersAction[Any]:
    """Give a command its actions (``tabletop event pair ...``), each a sub-parser.

    The action is the first word that names one; options may come before or after it
    and anywhere among its operands, as for every command. ``ACTION --help`` is the
    action's own help, and an option of another action is a usage error naming the
    action it goes with.
    """
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser.add_subparsers(
        title="actions", dest="action", metavar="ACTION", required=True, prog=parser.prog
    )


def add_action(
    actions: argparse._SubParsersAction[Any], name: str, summary: str, description: str = ""
) -> argparse.ArgumentParser:
    """Add the action `name` (with ``--json``) and return its parser, to add its arguments to.

    `summary` is its line in the command's help; `description` (default: the summary)
    heads its own help.
    """
    parser: argparse.ArgumentParser = actions.add_parser(
        name,
        help=summary,
        description=description or f"{summary[:1].upper()}{summary[1:]}.",
        allow_abbrev=False,
        formatter_class=_Formatter,
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def _actions_of(parser: argparse.ArgumentParser) -> argparse._SubParsersAction[Any] | None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    return None


def _action_index(parser: argparse.ArgumentParser, words: Sequence[str]) -> int | None:
    """Return where the action's name is among `words` (None for a command without actions)."""
    actions = _actions_of(parser)
    if actions is None:
        return None
    return next((i for i, word in enumerate(words) if word in actions.choices), None)


def _help_text(parser: argparse.ArgumentParser, words: Sequence[str]) -> str:
    """Return the help of the command, or of its action when `words` name one."""
    actions, index = _actions_of(parser), _action_index(parser, words)
    if actions is None or index is None:
        return parser.format_help()
    return str(actions.choices[words[index]].format_help())


def _parse_action(parser: argparse.ArgumentParser, words: list[str]) -> argparse.Namespace:
    actions = _actions_of(parser)
    index = _action_index(parser, words)
    if actions is None:
        return parser.parse_intermixed_args(words)
    if index is None:
        parser.parse_args(words)  # says that the ACTION is missing, or not one of them
        raise UsageError(f"expected one of: {', '.join(actions.choices)}")
    name = words[index]
    child: argparse.ArgumentParser = actions.choices[name]
    args, extras = child.parse_known_intermixed_args(words[:index] + words[index + 1 :])
    for word in extras:
        flag = word.split("=", 1)[0]
        owners = [
            other
            for other, sibling in actions.choices.items()
            if flag.startswith("-") and flag in sibling._option_string_actions
        ]
        if owners:
            command = parser.prog.removeprefix("tabletop ")
            child.error(f"{flag} goes with {command} {' or '.join(owners)}, not {name}")
    if extras:
        child.error(f"unrecognized arguments: {' '.join(extras)}")
    setattr(args, actions.dest, name)
    return args


class CommandModule(Protocol):
    """What a command module provides."""

    def register(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace, out: TextIO) -> int: ...


#: json.dumps with these options builds an encoder per call; a query answers thousands.
_JSON_UTF8 = json.JSONEncoder(ensure_ascii=False, allow_nan=False)
_JSON_ASCII = json.JSONEncoder(ensure_ascii=True, allow_nan=False)


def emit_json(data: Any, out: TextIO) -> None:
    """Write one JSON object on one line."""
    text = _JSON_UTF8.encode(data)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate (from an argument not in UTF-8): escape it
            text = _JSON_ASCII.encode(data)
    out.write(text + "\n")


def _installed(name: str) -> bool:
    # Only the command asked for is looked up: finding a module imports its package, and
    # the board's package is no business of `measure`.
    return name in COMMANDS and importlib.util.find_spec(COMMANDS[name]) is not None


def _available() -> dict[str, str]:
    return {name: path for name, path in COMMANDS.items() if _installed(name)}


def _version() -> str:
    # The package's own string, not importlib.metadata: that import alone (email, zipfile,
    # csv and the search of every distribution on the path) costs more than the command.
    from tabletop import __version__

    return __version__


def _unknown_command(name: str, commands: dict[str, str]) -> UsageError:
    known = [*commands, "help"]
    import difflib  # only for a mistyped command

    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    listed = ", ".join(known)
    if close:
        return UsageError(
            f"unknown command {name!r}; did you mean {close[0]!r}? (commands: {listed})"
        )
    return UsageError(f"unknown command {name!r}; expected one of: {listed}")


def _import_command(path: str) -> CommandModule:
    """Import a command's module with the cyclic garbage collector paused, then freeze it all.

    Importing makes tens of thousands of objects (classes, functions, the methods of
    dataclasses, numpy's and shapely's), all kept: the collections they would set off
    find nothing to free and cost start-up time. The collector's state is restored
    after, and what the import leaves is frozen (``gc.freeze``) for the command's run:
    otherwise the collector's first passes after it walk every one of those objects
    again (5-12 ms of a command) to free nothing. :func:`main` unfreezes them when the
    command is done; a process that froze objects of its own is left as it was.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        module: CommandModule = importlib.import_module(path)
        if not gc.get_freeze_count():
            gc.freeze()
    finally:
        if paused:
            gc.enable()
    return module


def _parser(name: str, path: str) -> tuple[CommandModule, _Parser]:
    module = _import_command(path)
    parser = _Parser(
        prog=f"tabletop {name}",
        allow_abbrev=False,
        description=(importlib.import_module(path).__doc__ or "").strip(),
        formatter_class=_Formatter,
    )
    module.register(parser)
    return module, parser


def _check_utf8(words: Sequence[str]) -> None:
    # On POSIX an argument that is not UTF-8 arrives with lone surrogates in it.
    for number, word in enumerate(words, 1):
        try:
            word.encode("utf-8")
        except UnicodeEncodeError:
            shown = os.fsencode(word).decode("utf-8", "backslashreplace")
            raise UsageError(
                f"argument {number} ('{shown}') is not valid UTF-8; "
                "file names, ids and words must be UTF-8 text"
            ) from None


def _placeholder(index: int) -> str:
    # Never an argument: no argument can hold a NUL.
    return f"\0{index}\0"


def _parse(parser: _Parser, words: list[str]) -> argparse.Namespace:
    """Parse options anywhere; after the first ``--`` every word is positional."""
    if "--" not in words:
        return _parse_action(parser, words)
    split = words.index("--")
    before, after = words[:split], words[split + 1 :]
    # The words after "--" stand in as placeholders that cannot look like options, so the
    # intermixed parser (which mishandles "--") places them, and they are put back after.
    holders = {_placeholder(i): word for i, word in enumerate(after)}
    try:
        args = _parse_action(parser, before + list(holders))
    except UsageError as error:
        message = error.message
        for holder, word in holders.items():
            message = message.replace(holder, word)
        raise UsageError(message) from None

    def restore(value: Any) -> Any:
        if isinstance(value, str):
            return holders.get(value, value)
        if isinstance(value, list):
            return [restore(v) for v in value]
        return value

    for key, value in vars(args).items():
        setattr(args, key, restore(value))
    return args


def _quiet(stream: TextIO) -> None:
    # The Python documentation's advice for SIGPIPE: point the descriptor at devnull, so
    # that the flush at interpreter exit does not fail ("Exception ignored ...").
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


#: The errors of writing output that the command line reports instead of a traceback
#: (EBADF: standard output closed, ``>&-``, or opened for reading only).
_WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG, errno.EBADF})


class _ClosedStream(io.TextIOBase):
    """Stands in for a standard stream the shell closed (``>&-``): writing it fails.

    Python leaves ``sys.stdout`` None when descriptor 1 is closed; each write here fails
    as a write to a closed descriptor does, so the command ends as for a full disk: one
    line on stderr, exit 2, and no file changed (a command that changes a file publishes
    it only after its report is written).
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self._name = name

    def writable(self) -> bool:
        """Whether the stream takes writes (it does, to fail them)."""
        return True

    def write(self, text: str) -> int:
        """Fail: the stream is closed."""
        raise OSError(errno.EBADF, f"standard {self._name} is closed")


def _reserve_standard_descriptors() -> None:
    """Open the null device on a closed descriptor 0, 1 or 2.

    A closed standard descriptor is the lowest free one: left so, the next file a
    command opens (an event file's lock, a temporary file) would take its number, and
    anything written to the standard stream would land in that file.
    """
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)


def _say(err: TextIO, text: str) -> None:
    try:
        err.write(text)
        err.flush()
    except (OSError, ValueError):  # 2>/dev/full or a closed stderr: the exit code still says
        _quiet(err)


def _run(words: list[str], out: TextIO, err: TextIO) -> int:
    if not words:
        _say(err, __doc__ or "")
        return EXIT_BAD_INPUT
    if words[0] in ("-h", "--help"):
        out.write(__doc__ or "")
        return EXIT_OK
    if words[0] in ("-V", "--version"):
        out.write(f"tabletop {_version()}\n")
        return EXIT_OK
    name, rest = words[0], words[1:]
    options = rest[: rest.index("--")] if "--" in rest else rest
    want_json = "--json" in options
    try:
        _check_utf8(words)
        if name == "help":
            if not rest or rest[0] == "help":
                out.write(__doc__ or "")
                return EXIT_OK
            if not _installed(rest[0]):
                raise _unknown_command(rest[0], _available())
            out.write(_help_text(_parser(rest[0], COMMANDS[rest[0]])[1], rest[1:]))
            return EXIT_OK
        if not _installed(name):
            raise _unknown_command(name, _available())
        module, parser = _parser(name, COMMANDS[name])
        if any(a in ("-h", "--help") for a in options):
            out.write(_help_text(parser, options))
            return EXIT_OK
        return module.run(_parse(parser, rest), out)
    except InvalidInputError as error:
        message, where = clip(error.message), None if error.where is None else clip(error.where)
        if want_json:
            emit_json({"error": {"message": message, "where": where}}, out)
        prefix = f"{where}: " if where else ""
        _say(err, printable_lines(f"tabletop {name}: error: {prefix}{message}") + "\n")
        return EXIT_BAD_INPUT


def _one_blas_thread() -> None:
    """Run OpenBLAS on one thread unless the caller chose otherwise.

    numpy's OpenBLAS starts a thread per core when it loads, each reserving its own
    buffers and stack (about 40 MB of address space apiece: 2.5 GB on a 64-core machine),
    while no command multiplies matrices large enough to share out. Set before any
    command imports numpy, so it holds for every command; OPENBLAS_NUM_THREADS set by
    the caller is kept.
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def main(
    argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Run the command line; return the exit code (never raises for bad input).

    A closed output pipe (``tabletop report ... | head``) ends the command quietly with
    :data:`EXIT_BROKEN_PIPE`, and Ctrl-C with :data:`EXIT_INTERRUPTED`, once what was
    answered is flushed.
    """
    _one_blas_thread()
    _reserve_standard_descriptors()
    words = list(sys.argv[1:] if argv is None else argv)
    if out is None:
        out = sys.stdout if sys.stdout is not None else cast(TextIO, _ClosedStream("output"))
    if err is None:
        err = sys.stderr if sys.stderr is not None else cast(TextIO, _ClosedStream("error"))
    thaw = not gc.get_freeze_count()  # the command's import freezes what it loads
    try:
        return _main(words, out, err)
    finally:
        if thaw:
            gc.unfreeze()


def _main(words: list[str], out: TextIO, err: TextIO) -> int:
    """Run `words` as :func:`main` does, with what is frozen left to it."""
    try:
        code = _run(words, out, err)
        out.flush()
        return code
    except BrokenPipeError:
        _quiet(out)
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        try:
            out.flush()
        except (OSError, ValueError):
            _quiet(out)
        return EXIT_INTERRUPTED
    except OSError as error:
        if error.errno not in _WRITE_ERRORS:
            raise  # not the output's: a fault to see whole
        _quiet(out)  # the output cannot be written (a full disk): say so on stderr
        name = words[0] if words else ""
        _say(err, f"tabletop {name}: error: cannot write the output: {error.strerror}\n")
        return EXIT_BAD_INPUT


def program() -> int:
    """Run the ``tabletop`` program (its console script and ``python -m tabletop``).

    :func:`main` on the process's arguments, then everything left is frozen out of the
    cyclic garbage collector (``gc.freeze``) for the interpreter's exit: its last
    collection would walk every object of the modules (numpy's and shapely's among them)
    and the command's, 15-20 ms of a 100-150 ms command, to free memory the process is
    about to give back anyway. Output is already flushed and every file the command
    wrote is closed; exit handlers still run and the modules are still cleared, so only
    that collection is skipped.
    """
    code = main()
    gc.freeze()
    return code
