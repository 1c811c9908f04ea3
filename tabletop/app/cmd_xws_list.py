"""XWS lists at the table: ``check LIST`` and ``setup --from LIST``.

``check LIST`` judges the tournament obstacle composition of the obstacles the list
brings, with the project's composition rule
(:func:`tabletop.obstacles.composition.composition_violations`): the list's obstacles are
player 1's, and player 2's half holds a legal set, so only the list is judged. A list
with other than three different obstacles of the tournament families is a violation
(exit 1); a list without ``obstacles`` brings none, which is one too.

``setup --from LIST`` lays out a legal random table (:func:`random_setup` with the
list's three obstacles for player 1 and three drawn for player 2, placed alternately)
and the list's ships at player 1's edge: in a row across the table, the centres
:data:`SHIP_ROW_MM` from the edge, facing player 2, evenly spaced.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

import numpy as np

from tabletop.app.cli import EXIT_OK, EXIT_VIOLATIONS, emit_json
from tabletop.app.clients import read_bytes
from tabletop.app.clients.model import ClientFileError, unique_ids
from tabletop.app.clients.xws import XwsList, parse_list
from tabletop.app.datatext import file_text
from tabletop.app.locking import publish_after_report
from tabletop.app.paths import output_target
from tabletop.app.text import printable
from tabletop.geom.areas import play_area
from tabletop.geom.objects import Ship
from tabletop.geom.rulesets import get_ruleset
from tabletop.obstacles.composition import composition_violations
from tabletop.obstacles.scene import Obstacle, Scene
from tabletop.obstacles.setup import random_setup, setup_tokens

__all__ = ["SHIP_ROW_MM", "check_list", "list_scene", "setup_from_list"]

#: Distance of the ships' centres from player 1's edge, mm (a large base, 80 mm deep,
#: then lies 10 to 90 mm from the edge: inside the 100 mm deployment limit).
SHIP_ROW_MM = 50.0
#: Sides of each base, mm (scene-format.md).
_BASE_MM = {"small": 40.0, "medium": 60.0, "large": 80.0}
_RULESET = "xwing2"


def _opponent_tokens(squad_tokens: tuple[str, ...], seed: int) -> list[str]:
    """Three tournament tokens for player 2, drawn as a setup draws them."""
    ruleset = get_ruleset(_RULESET)
    drawn = setup_tokens(ruleset, np.random.default_rng(seed))
    others = [t.name for t in drawn if t.name not in squad_tokens]
    per_player = ruleset.obstacle_set.per_player or 3
    return others[:per_player]


def list_scene(squad: XwsList) -> Scene:
    """Return the scene ``check LIST`` judges.

    The list's obstacles are player 1's and a legal set player 2's; positions do not
    matter, as composition measures nothing.
    """
    ruleset = get_ruleset(_RULESET)
    mine = squad.obstacles or ()
    obstacles = [
        Obstacle.from_token(ruleset, f"{token}#{i + 1}", token, 0.0, 0.0, player=1)
        for i, token in enumerate(mine)
    ]
    obstacles += [
        Obstacle.from_token(ruleset, f"opponent-{token}", token, 0.0, 0.0, player=2)
        for token in _opponent_tokens(tuple(mine), 0)
    ]
    return Scene(
        ruleset, play_area(ruleset.default_area), format="tournament", obstacles=tuple(obstacles)
    )


def check_list(path: str, as_json: bool, out: TextIO) -> int:
    """Run ``check LIST``; return the exit code (1 when the composition is illegal)."""
    squad = parse_list(read_bytes(path), path)
    violations = [v.to_json() for v in composition_violations(list_scene(squad))]
    answer: dict[str, Any] = {
        "list": path,
        "name": squad.name,
        "faction": squad.faction,
        "obstacles": list(squad.obstacles or ()),
        "legal": not violations,
        "violations": violations,
    }
    if as_json:
        emit_json(answer, out)
    else:
        verdict = "legal" if not violations else f"{len(violations)} violation(s)"
        lines = [f"{path}: tournament obstacle composition {verdict}"]
        lines += [f"  {v['rule']}: {v['message']}" for v in violations]
        out.write(printable("\n".join(lines)) + "\n")
    return EXIT_OK if not violations else EXIT_VIOLATIONS


def _ships(squad: XwsList, width: float) -> list[Ship]:
    bases = [pilot.base for pilot in squad.pilots]
    unplaced = [p.id for p in squad.pilots if p.base not in _BASE_MM]
    if unplaced:
        raise ClientFileError(
            f"{', '.join(unplaced)}: huge ships are not laid out by setup --from",
            file=squad.file,
            entry="pilots",
            key="ship",
        )
    spacing = width / (len(bases) + 1)
    widest = max(_BASE_MM[b] for b in bases)
    if spacing <= widest:
        raise ClientFileError(
            f"{len(bases)} ships do not fit in one row along the edge ({spacing:.1f} mm "
            f"apart for a {widest:g} mm base)",
            file=squad.file,
            entry="pilots",
        )
    ids = unique_ids([(p.id, f"ship-{i + 1}") for i, p in enumerate(squad.pilots)])
    return [
        Ship(ident, base, round(spacing * (i + 1), 2), SHIP_ROW_MM, 90.0, 1)
        for i, (ident, base) in enumerate(zip(ids, bases, strict=True))
    ]


def setup_from_list(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``setup --from LIST``: write a legal random table with the list's ships."""
    output_target(args.output, force=args.force)
    squad = parse_list(read_bytes(args.from_list), args.from_list)
    if args.ruleset not in (None, _RULESET):
        raise ClientFileError(
            f"an XWS list is an X-Wing 2.0 list; --ruleset {args.ruleset} does not apply",
            file=args.from_list,
        )
    problems = composition_violations(list_scene(squad)) if squad.obstacles else []
    if squad.obstacles is None or problems:
        raise ClientFileError(
            "the list's obstacles are not a legal tournament choice"
            + (f" ({problems[0].message})" if problems else " (it names none)")
            + f"; see `tabletop check {args.from_list}`",
            file=args.from_list,
            key="obstacles",
        )
    ruleset = get_ruleset(_RULESET)
    area = play_area(args.area or ruleset.default_area)
    theirs = _opponent_tokens(squad.obstacles, args.seed)
    order = [t for pair in zip(squad.obstacles, theirs, strict=True) for t in pair]
    table = random_setup(ruleset, area, seed=args.seed, format="tournament", tokens=order)
    data = Scene(
        ruleset,
        area,
        format="tournament",
        obstacles=table.obstacles,
        ships=tuple(_ships(squad, area.width)),
    ).to_dict()
    text = file_text(data, args.output, kind="scene")

    def report(stream: TextIO) -> None:
        if args.json:
            emit_json(
                {
                    "written": args.output,
                    "ruleset": ruleset.name,
                    "seed": args.seed,
                    "obstacles": [o.id for o in table.obstacles],
                    "ships": [s["id"] for s in data["ships"]],
                },
                stream,
            )
            return
        stream.write(
            printable(
                f"wrote {args.output}: a legal {ruleset.name} table with {len(squad.pilots)} "
                f"ships of {args.from_list} and {len(table.obstacles)} obstacles "
                f"(seed {args.seed})"
            )
            + "\n"
        )

    # The file takes its name only once the report is out: a failed command writes nothing.
    publish_after_report([(args.output, text)], out, report, force=args.force)
    return EXIT_OK
