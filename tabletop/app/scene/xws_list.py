"""XWS lists at the table: ``check LIST`` and ``setup --from LIST [--vs LIST2]``.

``check LIST`` judges the tournament obstacle composition of the obstacles the list
brings, with the project's composition rule
(:func:`tabletop.obstacles.composition.composition_violations`): the list's obstacles are
player 1's, and player 2's half holds a legal set, so only the list is judged. A list
with other than three different obstacles of the tournament families is a violation
(exit 1); a list without ``obstacles`` brings none, which is one too. It also lists each
pilot with the ship and base it resolved to, and the edition the list was read as.

``setup --from LIST`` lays out a legal random table (:func:`random_setup` with player 1's
three obstacles and player 2's three, placed alternately) and the list's ships at player
1's edge: in a row across the table, the centres :data:`SHIP_ROW_MM` from the edge,
facing player 2, evenly spaced. Player 1's obstacles are ``--obstacles ID,ID,ID`` when
given, else the list's own, else drawn with ``--seed``; ``--vs LIST2`` puts a second
list's ships on player 2's edge, facing player 1, and its obstacles (or, without them,
three drawn) are player 2's. What was drawn and what was chosen is said.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

import numpy as np

from tabletop.app.cli import EXIT_OK, EXIT_VIOLATIONS, emit_json
from tabletop.app.clients import read_bytes
from tabletop.app.clients.model import ClientFileError, unique_ids
from tabletop.app.clients.xws import XwsList, parse_list
from tabletop.app.common.datatext import file_text
from tabletop.app.common.locking import publish_after_report
from tabletop.app.common.paths import output_target
from tabletop.app.common.text import printable, printable_lines
from tabletop.geom.areas import play_area
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.objects import Ship
from tabletop.geom.rulesets import get_ruleset
from tabletop.obstacles.catalog import catalog
from tabletop.obstacles.composition import composition_violations
from tabletop.obstacles.scene import Obstacle, Scene
from tabletop.obstacles.setup import random_setup, setup_tokens

__all__ = ["SHIP_ROW_MM", "check_list", "list_scene", "setup_from_list"]

#: Distance of the ships' centres from their player's edge, mm (a large base, 80 mm
#: deep, then lies 10 to 90 mm from the edge: inside the 100 mm deployment limit).
SHIP_ROW_MM = 50.0
#: Sides of each base, mm (scene-format.md).
_BASE_MM = {"small": 40.0, "medium": 60.0, "large": 80.0}


def _drawn_tokens(ruleset_name: str, taken: tuple[str, ...], seed: int) -> list[str]:
    """Three tournament tokens other than `taken`, drawn as a setup draws them."""
    ruleset = get_ruleset(ruleset_name)
    drawn = setup_tokens(ruleset, np.random.default_rng(seed))
    others = [t.name for t in drawn if t.name not in taken]
    per_player = ruleset.obstacle_set.per_player or 3
    return others[:per_player]


def _composition_scene(ruleset_name: str, mine: tuple[str, ...], theirs: tuple[str, ...]) -> Scene:
    ruleset = get_ruleset(ruleset_name)
    obstacles = [
        Obstacle.from_token(ruleset, f"{token}#{i + 1}", token, 0.0, 0.0, player=1)
        for i, token in enumerate(mine)
    ]
    obstacles += [
        Obstacle.from_token(ruleset, f"opponent-{token}", token, 0.0, 0.0, player=2)
        for token in theirs
    ]
    return Scene(
        ruleset, play_area(ruleset.default_area), format="tournament", obstacles=tuple(obstacles)
    )


def list_scene(squad: XwsList) -> Scene:
    """Return the scene ``check LIST`` judges.

    The list's obstacles are player 1's and a legal set player 2's; positions do not
    matter, as composition measures nothing.
    """
    mine = squad.obstacles or ()
    return _composition_scene(squad.ruleset, mine, tuple(_drawn_tokens(squad.ruleset, mine, 0)))


def _pilots_json(squad: XwsList) -> list[dict[str, str]]:
    return [{"id": p.id, "ship": p.ship, "base": p.base} for p in squad.pilots]


def check_list(path: str, as_json: bool, out: TextIO) -> int:
    """Run ``check LIST``; return the exit code (1 when the composition is illegal)."""
    squad = parse_list(read_bytes(path), path)
    violations = [v.to_json() for v in composition_violations(list_scene(squad))]
    answer: dict[str, Any] = {
        "list": path,
        "name": squad.name,
        "faction": squad.faction,
        "ruleset": squad.ruleset,
        "edition_reason": squad.edition_reason,
        "pilots": _pilots_json(squad),
        "obstacles": list(squad.obstacles or ()),
        "legal": not violations,
        "violations": violations,
    }
    if as_json:
        emit_json(answer, out)
    else:
        verdict = "legal" if not violations else f"{len(violations)} violation(s)"
        read_as = (
            f" (read as {squad.ruleset}: {squad.edition_reason})" if squad.edition_reason else ""
        )
        lines = [printable(f"{path}: tournament obstacle composition {verdict}{read_as}")]
        lines += [printable(f"  {v['rule']}: {v['message']}") for v in violations]
        lines += [printable(f"  pilot {p.id}: {p.ship}, {p.base} base") for p in squad.pilots]
        # Each line escaped on its own: a message's own line breaks never reach the
        # terminal, and the lines are joined by real ones.
        out.write(printable_lines("\n".join(lines)) + "\n")
    return EXIT_OK if not violations else EXIT_VIOLATIONS


def _ships(squad: XwsList, width: float, height: float, player: int, ids: list[str]) -> list[Ship]:
    """Ships of `squad` in a row at `player`'s edge (player 2's facing player 1)."""
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
    y, heading = (SHIP_ROW_MM, 90.0) if player == 1 else (height - SHIP_ROW_MM, 270.0)
    return [
        Ship(ident, base, round(spacing * (i + 1), 2), y, heading, player)
        for i, (ident, base) in enumerate(zip(ids, bases, strict=True))
    ]


def _given_obstacles(text: str, ruleset_name: str) -> tuple[str, ...]:
    """Parse ``--obstacles ID,ID,ID`` (catalog ids of the list's ruleset)."""
    known = catalog(get_ruleset(ruleset_name))
    ids = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [i for i in ids if i not in known]
    if unknown or not ids:
        problem = f"unknown obstacle {unknown[0]!r}" if unknown else "no obstacle ids"
        raise InvalidInputError(
            f"--obstacles: {problem}: expected three catalog ids of {ruleset_name} separated "
            "by commas, such as core2asteroid5,core2asteroid2,coredebris0"
        )
    return ids


def _check_choice(squad_file: str, key: str, ruleset: str, mine: tuple[str, ...]) -> None:
    """Refuse a player's obstacle choice that is not a legal tournament choice."""
    others = tuple(_drawn_tokens(ruleset, mine, 0))
    problems = composition_violations(_composition_scene(ruleset, mine, others))
    if problems and key == "--obstacles":
        raise InvalidInputError(
            f"--obstacles {','.join(mine)}: not a legal tournament choice ({problems[0].message})"
        )
    if problems:
        raise ClientFileError(
            f"the obstacles {', '.join(mine)} are not a legal tournament choice "
            f"({problems[0].message}); see `tabletop check {squad_file}`",
            file=squad_file,
            key=key,
        )


def _obstacle_choices(
    args: argparse.Namespace, squad: XwsList, rival: XwsList | None
) -> tuple[tuple[str, ...], tuple[str, ...], dict[str, str]]:
    """Return player 1's and player 2's tokens, and where each set came from."""
    ruleset = squad.ruleset
    mine: tuple[str, ...] | None = None
    source = {"player1": "drawn", "player2": "drawn"}
    if args.obstacles is not None:
        mine, source["player1"] = _given_obstacles(args.obstacles, ruleset), "--obstacles"
        _check_choice("--obstacles", "--obstacles", ruleset, mine)
    elif squad.obstacles is not None:
        mine, source["player1"] = squad.obstacles, args.from_list
        _check_choice(squad.file, "obstacles", ruleset, mine)
    theirs: tuple[str, ...] | None = None
    if rival is not None and rival.obstacles is not None:
        theirs, source["player2"] = rival.obstacles, rival.file
        _check_choice(rival.file, "obstacles", ruleset, theirs)
    if mine is not None and theirs is not None and set(mine) & set(theirs):
        raise ClientFileError(
            f"both players bring {', '.join(sorted(set(mine) & set(theirs)))}: a "
            "tournament table holds six different obstacles",
            file=rival.file if rival else squad.file,
            key="obstacles",
        )
    if mine is None:
        mine = tuple(_drawn_tokens(ruleset, theirs or (), args.seed))
    if theirs is None:
        theirs = tuple(_drawn_tokens(ruleset, mine, args.seed))
    return mine, theirs, source


def _lists(args: argparse.Namespace) -> tuple[XwsList, XwsList | None]:
    squad = parse_list(read_bytes(args.from_list), args.from_list)
    rival = None if args.vs is None else parse_list(read_bytes(args.vs), args.vs)
    if rival is not None and rival.ruleset != squad.ruleset:
        raise ClientFileError(
            f"a {rival.ruleset} list against a {squad.ruleset} list: both lists must be of "
            "one edition",
            file=args.vs,
        )
    if args.ruleset not in (None, squad.ruleset):
        raise ClientFileError(
            f"the list is read as a {squad.ruleset} list; --ruleset {args.ruleset} does not apply",
            file=args.from_list,
        )
    return squad, rival


def setup_from_list(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``setup --from LIST``: write a legal random table with the lists' ships."""
    output_target(args.output, force=args.force)
    if args.seed < 0:
        raise InvalidInputError(f"--seed must be 0 or more, got {args.seed}")
    squad, rival = _lists(args)
    ruleset = get_ruleset(squad.ruleset)
    area = play_area(args.area or ruleset.default_area)
    mine, theirs, source = _obstacle_choices(args, squad, rival)
    order = [t for pair in zip(mine, theirs, strict=True) for t in pair]
    table = random_setup(ruleset, area, seed=args.seed, format="tournament", tokens=order)
    pilots = [*squad.pilots, *(rival.pilots if rival else ())]
    ids = unique_ids([(p.id, f"ship-{i + 1}") for i, p in enumerate(pilots)])
    ships = _ships(squad, area.width, area.height, 1, ids[: len(squad.pilots)])
    if rival is not None:
        ships += _ships(rival, area.width, area.height, 2, ids[len(squad.pilots) :])
    data = Scene(
        ruleset, area, format="tournament", obstacles=table.obstacles, ships=tuple(ships)
    ).to_dict()
    said = {
        player: ("drawn with seed " + str(args.seed)) if where == "drawn" else f"from {where}"
        for player, where in source.items()
    }

    def report(stream: TextIO) -> None:
        if args.json:
            choice = {
                "player1": {"tokens": list(mine), "source": said["player1"]},
                "player2": {"tokens": list(theirs), "source": said["player2"]},
            }
            emit_json(
                {
                    "written": args.output,
                    "ruleset": ruleset.name,
                    "seed": args.seed,
                    "obstacles": [o.id for o in table.obstacles],
                    "obstacle_choice": choice,
                    "ships": [s["id"] for s in data["ships"]],
                },
                stream,
            )
            return
        lists = args.from_list + (f" and {args.vs}" if rival else "")
        stream.write(
            printable_lines(
                printable(
                    f"wrote {args.output}: a legal {ruleset.name} table with {len(ships)} "
                    f"ships of {lists} and {len(table.obstacles)} obstacles (seed {args.seed})"
                )
                + "\n"
                + printable(f"  player 1's obstacles {', '.join(mine)}: {said['player1']}")
                + "\n"
                + printable(f"  player 2's obstacles {', '.join(theirs)}: {said['player2']}")
            )
            + "\n"
        )

    # The file takes its name only once the report is out: a failed command writes nothing.
    publish_after_report(
        [(args.output, file_text(data, args.output, kind="scene"))], out, report, force=args.force
    )
    return EXIT_OK
