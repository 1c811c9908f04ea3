"""Write a random legal obstacle setup as a scene file (TOML or JSON, by suffix).

X-Wing: six different asteroid, debris or gas tokens, three per player (never devices).
Armada: the standard set, three asteroid fields, two debris fields and one station.
The same seed gives a byte-identical file. An existing OUT is replaced only with --force
(keeping its permission bits); a new file honours the umask.
"""

from __future__ import annotations

import argparse
from typing import TextIO

from tabletop.app.cli import EXIT_OK, emit_json
from tabletop.app.datatext import file_text
from tabletop.app.files import atomic_write
from tabletop.app.paths import output_target
from tabletop.app.text import printable
from tabletop.geom.areas import play_area
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.rulesets import RULESET_NAMES, get_ruleset
from tabletop.obstacles.setup import random_setup

__all__ = ["register", "run"]


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's arguments."""
    # --- XWS lists: `setup --from LIST` (cmd_xws_list.py); --ruleset is then xwing2 ---
    parser.add_argument("--ruleset", choices=RULESET_NAMES, help="the game (required)")
    parser.add_argument(
        "--from",
        dest="from_list",
        metavar="LIST",
        help="an XWS list: a legal table with its ships and its three obstacles",
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


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the command."""
    # --- XWS lists: `setup --from LIST` (cmd_xws_list.py) ---
    if args.from_list is not None:
        from tabletop.app.cmd_xws_list import setup_from_list

        return setup_from_list(args, out)
    if args.ruleset is None:
        raise InvalidInputError("--ruleset is required (or --from LIST, an XWS list)")
    # --- end of XWS lists ---
    output_target(args.output, force=args.force)  # refuse a bad OUT before drawing a setup
    if args.seed < 0:
        raise InvalidInputError(f"--seed must be 0 or more, got {args.seed}")
    ruleset = get_ruleset(args.ruleset)
    area = play_area(args.area or ruleset.default_area)
    scene = random_setup(ruleset, area, seed=args.seed, format=args.format)
    data = scene.to_dict()
    del data["ships"]
    text = file_text(data, args.output, kind="scene")
    atomic_write(args.output, text, force=args.force)
    if args.json:
        emit_json(
            {
                "written": args.output,
                "ruleset": ruleset.name,
                "seed": args.seed,
                "obstacles": [o.id for o in scene.obstacles],
            },
            out,
        )
    else:
        out.write(
            printable(
                f"wrote {args.output}: a legal {ruleset.name} setup of {len(scene.obstacles)} "
                f"obstacles (seed {args.seed})"
            )
            + "\n"
        )
    return EXIT_OK
