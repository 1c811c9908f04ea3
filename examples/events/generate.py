"""Make the bundled event examples with the project's own commands, from a seed.

``python examples/events/generate.py`` writes, next to this file:

- ``armada-store-championship.toml``: 12 players, 3 Swiss rounds; one player drops after
  round 2, so round 3 has one bye;
- ``destiny-regional-top8.json``: 40 players, the advanced structure (6 Swiss rounds and a
  top 8 of best-of-three matches); two players drop along the way;
- ``armada-planted-fault.toml``: the store championship with faults planted for
  ``tabletop event check`` to find (a rematch, a wrong TP, a bye to the wrong player, a
  result for a dropped player).

Every pairing comes from ``tabletop event pair``; results are drawn from a seeded
generator and entered with ``tabletop event result``.
"""

from __future__ import annotations

import io
import json
import random
from dataclasses import replace
from pathlib import Path

from tabletop.app.cli import main
from tabletop.app.event.eventfile import event_text, load_event
from tabletop.tournament import Bye, Round, score_match

HERE = Path(__file__).resolve().parent


def tabletop(*argv: str) -> dict[str, object]:
    """Run one command with --json and return its answer (stop on any error)."""
    out, err = io.StringIO(), io.StringIO()
    code = main([*argv, "--json"], out, err)
    if code not in (0, 1):
        raise SystemExit(f"tabletop {' '.join(argv)}: {err.getvalue()}")
    answer: dict[str, object] = json.loads(out.getvalue())
    return answer


def armada(path: Path) -> None:
    """Write the 12-player store championship."""
    path.unlink(missing_ok=True)
    rng = random.Random(2015)
    tabletop(
        "event", "new", "--game", "armada", "--players", str(HERE / "armada-players.csv"),
        "--seed", "7", "--name", "Torino Store Championship", "-o", str(path),
    )  # fmt: skip
    for number in (1, 2, 3):
        pairing = tabletop("event", "pair", str(path))
        for pair in pairing["pairs"]:  # type: ignore[attr-defined]
            table, (a, b) = str(pair["table"]), pair["players"]
            winner, loser = sorted((rng.randrange(60, 330), rng.randrange(0, 250)), reverse=True)
            scores = [winner, loser] if rng.random() < 0.5 else [loser, winner]
            extra = ["--second", rng.choice((a, b))] if scores[0] == scores[1] else []
            tabletop(
                "event",
                "result",
                str(path),
                str(number),
                table,
                "--scores",
                *map(str, scores),
                *extra,
            )
        if number == 2:
            tabletop("event", "drop", str(path), "luca")


def destiny(path: Path) -> None:
    """Write the 40-player advanced event with a top 8."""
    path.unlink(missing_ok=True)
    rng = random.Random(2017)
    tabletop(
        "event", "new", "--game", "destiny", "--players", str(HERE / "destiny-players.csv"),
        "--seed", "17", "--structure", "advanced", "--name", "Moscow Regional", "-o", str(path),
    )  # fmt: skip
    number = 0
    while True:
        out, err = io.StringIO(), io.StringIO()
        if main(["event", "pair", str(path), "--json"], out, err) == 2:
            if "the event is complete" in err.getvalue():
                return
            raise SystemExit(err.getvalue())
        pairing = json.loads(out.getvalue())
        number += 1
        for pair in pairing["pairs"]:
            a, b = pair["players"]
            if pairing["kind"] == "swiss":
                tabletop(
                    "event",
                    "result",
                    str(path),
                    str(number),
                    str(pair["table"]),
                    "--winner",
                    rng.choice((a, b)),
                )
            else:
                w = rng.choice((a, b))
                lose = b if w == a else a
                games = rng.choice(((w, w), (w, lose, w), (lose, w, w)))
                tabletop(
                    "event", "result", str(path), str(number), str(pair["table"]), "--games", *games
                )
        if number in (2, 4):
            tabletop("event", "drop", str(path), ("oleg", "nina")[number // 2 - 1])


def planted(source: Path, path: Path) -> None:
    """Write the store championship with four faults planted in its records."""
    event = load_event(source)
    r1, r2, r3 = event.rounds
    # round 1, table 1: the TO wrote down the wrong TP
    first = r1.matches[0]
    outcome = score_match(event.regulation, first)
    assert outcome is not None
    r1 = Round(
        "swiss",
        (replace(first, tp=(outcome.tp[0] + 1, outcome.tp[1] - 1)), *r1.matches[1:]),
        r1.byes,
    )
    # round 3: swap the second players of two tables so that one table is a rematch
    met = {frozenset(m.players) for r in (event.rounds[0], r2) for m in r.matches}
    matches = list(r3.matches)
    i, j = next(
        (i, j)
        for i in range(len(matches))
        for j in range(len(matches))
        if i != j and frozenset((matches[i].players[0], matches[j].players[1])) in met
    )
    (a, b), (c, d) = matches[i].players, matches[j].players
    matches[i] = replace(matches[i], players=(a, d), second_player=d)
    matches[j] = replace(matches[j], players=(c, b), second_player=b)
    # round 3: the bye goes to a player of the top table instead
    (bye,) = r3.byes
    top = next(k for k in range(len(matches)) if k not in (i, j))
    e, f = matches[top].players
    matches[top] = replace(matches[top], players=(e, bye.player), second_player=bye.player)
    event = event.with_rounds((r1, r2, Round("swiss", tuple(matches), (Bye(f),))))
    # round 2: a result entered for luca, now recorded as dropped after round 1
    event = event.with_player(replace(event.player("luca"), dropped_after=1))
    path.write_text(event_text(event, path), encoding="utf-8")


if __name__ == "__main__":
    store = HERE / "armada-store-championship.toml"
    armada(store)
    destiny(HERE / "destiny-regional-top8.json")
    planted(store, HERE / "armada-planted-fault.toml")
