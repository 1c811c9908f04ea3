"""Write a random legal obstacle setup as a scene file (TOML or JSON, by suffix).

X-Wing: six different asteroid, debris or gas tokens, three per player (never devices).
Armada: the standard set, three asteroid fields, two debris fields and one station.
The same seed gives a byte-identical file. An existing OUT is replaced only with --force
(keeping its permission bits); a new file honours the umask.

With --count N it writes N tables, OUT's name with -1 .. -N (zero-padded) before its
suffix; table k is drawn from its own seed, ``derive_seed(seed, k - 1) >> 11`` (the seed
a lone ``setup --seed`` takes to write the same file), so the tables are the same
whether drawn here or shared out with --jobs N or --scheduler ADDRESS.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Literal, TextIO

from tabletop.app.cli import EXIT_OK, emit_json
from tabletop.app.common.datatext import file_text
from tabletop.app.common.jobs import add_job_options, in_order, open_runner, slices
from tabletop.app.common.locking import publish_after_report
from tabletop.app.common.paths import output_target
from tabletop.app.common.text import printable
from tabletop.boards.rng import derive_seed
from tabletop.geom.areas import play_area
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.rulesets import RULESET_NAMES, get_ruleset
from tabletop.obstacles.setup import random_setup

__all__ = ["MAX_COUNT", "register", "run", "table_names", "table_seed", "table_texts"]

#: The most tables one ``setup --count`` writes (about a millisecond each to draw).
MAX_COUNT = 10_000


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's arguments."""
    # --- XWS lists: `setup --from LIST` (xws_list.py); --ruleset is then the list's edition ---
    parser.add_argument("--ruleset", choices=RULESET_NAMES, help="the game (required)")
    parser.add_argument(
        "--from",
        dest="from_list",
        metavar="LIST",
        help="an XWS list: a legal table with its ships at player 1's edge",
    )
    parser.add_argument(
        "--vs", metavar="LIST2", help="with --from: a second XWS list, on player 2's edge"
    )
    parser.add_argument(
        "--obstacles",
        metavar="ID,ID,ID",
        help="with --from: player 1's three obstacles (else the list's, else drawn by --seed)",
    )
    # --- end of XWS lists ---
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--format", choices=("standard", "tournament"), default="standard", help="scene format"
    )
    parser.add_argument("--area", help="play-area preset (default: the ruleset's)")
    parser.add_argument("-o", "--output", required=True, help="the scene file to write")
    parser.add_argument(
        "--force", action="store_true", help="replace OUT if it exists (keeping its mode)"
    )
    parser.add_argument("--json", action="store_true", help="print a JSON summary")
    parser.add_argument(
        "--count",
        type=int,
        metavar="N",
        help=f"write N tables, OUT-1 .. OUT-N, each from its own seed (at most {MAX_COUNT})",
    )
    add_job_options(parser)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the command."""
    if args.from_list is not None and args.count is not None:
        raise InvalidInputError("--count draws random tables; --from LIST places one list's table")
    if args.from_list is None and (args.vs is not None or args.obstacles is not None):
        raise InvalidInputError(
            "--vs and --obstacles lay out XWS lists; give them with --from LIST"
        )
    # --- XWS lists: `setup --from LIST` (xws_list.py) ---
    if args.from_list is not None:
        from tabletop.app.scene.xws_list import setup_from_list

        return setup_from_list(args, out)
    if args.ruleset is None:
        raise InvalidInputError("--ruleset is required (or --from LIST, an XWS list)")
    # --- end of XWS lists ---
    if args.count is not None:
        return _tables(args, out)
    if args.jobs is not None or args.scheduler is not None:
        raise InvalidInputError("--jobs and --scheduler share out the tables of --count N")
    output_target(args.output, force=args.force)  # refuse a bad OUT before drawing a setup
    if args.seed < 0:
        raise InvalidInputError(f"--seed must be 0 or more, got {args.seed}")
    ruleset = get_ruleset(args.ruleset)
    area = play_area(args.area or ruleset.default_area)
    scene = random_setup(ruleset, area, seed=args.seed, format=args.format)
    data = scene.to_dict()
    del data["ships"]
    text = file_text(data, args.output, kind="scene")

    def report(stream: TextIO) -> None:
        if args.json:
            written = {"written": args.output, "ruleset": ruleset.name, "seed": args.seed}
            emit_json({**written, "obstacles": [o.id for o in scene.obstacles]}, stream)
        else:
            stream.write(
                printable(
                    f"wrote {args.output}: a legal {ruleset.name} setup of "
                    f"{len(scene.obstacles)} obstacles (seed {args.seed})"
                )
                + "\n"
            )

    # The file takes its name only once the report is out: a failed command writes nothing.
    publish_after_report([(args.output, text)], out, report, force=args.force)
    return EXIT_OK


def table_seed(seed: int, number: int) -> int:
    """Return the seed of table `number` (from 1) of ``setup --seed SEED --count N``.

    The 64-bit stream seed of item ``number - 1`` cut to 53 bits, as Dogfight's game
    seeds are, so that it is exact in any JSON reader; ``setup --seed`` with it writes
    the same table alone.

    Examples
    --------
    >>> table_seed(3, 1) == table_seed(3, 1) != table_seed(3, 2)
    True
    >>> table_seed(3, 1) < 2**53
    True
    """
    return derive_seed(seed, number - 1) >> 11


def table_names(output: str, count: int) -> list[str]:
    """Return the file names of ``setup --count``: OUT's stem, ``-k`` zero-padded, its suffix.

    Examples
    --------
    >>> table_names("tables/t.toml", 10)[:2], table_names("t.json", 3)[-1]
    (['tables/t-01.toml', 'tables/t-02.toml'], 't-3.json')
    """
    name = Path(output).name
    folder = output[: len(output) - len(name)]  # as the user spelt it
    stem, suffix = Path(name).stem, Path(name).suffix
    width = len(str(count))
    return [f"{folder}{stem}-{k:0{width}d}{suffix}" for k in range(1, count + 1)]


def table_texts(
    ruleset_name: str,
    area_name: str,
    format: Literal["standard", "tournament"],
    seed: int,
    numbers: range,
    names: list[str],
) -> list[tuple[int, str, list[str]]]:
    """Draw tables `numbers` (from 1) of ``setup --count``: their seeds, file texts, obstacles.

    A module-level function of plain arguments, so that a worker process or a Dask
    worker runs it; `names` are the files of `numbers`, whose suffixes choose TOML or JSON.
    """
    ruleset = get_ruleset(ruleset_name)
    area = play_area(area_name)
    drawn = []
    for number, name in zip(numbers, names, strict=True):
        own_seed = table_seed(seed, number)
        scene = random_setup(ruleset, area, seed=own_seed, format=format)
        data = scene.to_dict()
        del data["ships"]
        text = file_text(data, name, kind="scene")
        drawn.append((own_seed, text, [o.id for o in scene.obstacles]))
    return drawn


def _tables(args: argparse.Namespace, out: TextIO) -> int:
    """Write ``--count`` tables, drawn here or shared out; every file checked first."""
    if not 1 <= args.count <= MAX_COUNT:
        raise InvalidInputError(f"--count {args.count}: expected 1 to {MAX_COUNT}")
    if args.seed < 0:
        raise InvalidInputError(f"--seed must be 0 or more, got {args.seed}")
    output_target(args.output, force=True)  # OUT names the files: never a folder ("t.toml/")
    names = table_names(args.output, args.count)
    for name in names:  # refuse a bad or existing OUT-k before drawing a table
        output_target(name, force=args.force)
    ruleset = get_ruleset(args.ruleset)
    area_name = args.area or ruleset.default_area
    play_area(area_name)  # an unknown area is refused here, not in each worker
    drawn: list[tuple[int, str, list[str]]] = []
    with open_runner(args.jobs, args.scheduler) as runner:
        calls = [
            (
                ruleset.name,
                area_name,
                args.format,
                args.seed,
                range(p.start + 1, p.stop + 1),
                names[p.start : p.stop],
            )
            for p in slices(args.count, runner.workers)
        ]
        for part in in_order(runner, table_texts, calls):
            drawn.extend(part)
    files = [(name, text) for name, (_, text, _) in zip(names, drawn, strict=True)]
    publish_after_report(files, out, lambda stream: _tables_report(args, names, drawn, stream))
    return EXIT_OK


def _tables_report(
    args: argparse.Namespace,
    names: list[str],
    drawn: list[tuple[int, str, list[str]]],
    out: TextIO,
) -> None:
    """Write the report of ``setup --count``: every file, its seed and obstacles."""
    ruleset = get_ruleset(args.ruleset)
    if args.json:
        tables = [
            {"written": name, "seed": own_seed, "obstacles": obstacles}
            for name, (own_seed, _, obstacles) in zip(names, drawn, strict=True)
        ]
        data: dict[str, Any] = {
            "ruleset": ruleset.name,
            "seed": args.seed,
            "count": args.count,
            "tables": tables,
        }
        emit_json(data, out)
        return
    for name, (own_seed, _, obstacles) in zip(names, drawn, strict=True):
        out.write(
            printable(
                f"wrote {name}: a legal {ruleset.name} setup of {len(obstacles)} "
                f"obstacles (seed {own_seed})"
            )
            + "\n"
        )
