"""Two whole events run from the TO's console, as a TO would run them.

A 23-player Armada event with a late arrival after round 1, a drop, a swapped slip entered
by name, a result cleared and re-entered, and ``pending`` between results, audited clean
at the end and printed; a 40-player advanced Destiny event to the final, with a drop
before the cut and one in the playoff, placed by ``standings --final``.

The Armada TP are recounted here from the results with the seed's MoV table, apart from
the project's scoring.
"""

from __future__ import annotations

import io
import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tabletop.app.cli import main

#: tournament.md's MoV table: (highest MoV of the band, winner TP, loser TP).
MOV_BANDS = ((20, 5, 5), (50, 6, 4), (90, 7, 3), (150, 8, 2), (220, 9, 1), (10**9, 10, 0))


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def ok(*argv: str) -> Any:
    code, out, err = run(*argv, "--json")
    assert code == 0, err
    return json.loads(out)


def score(pid: str, number: int) -> int:
    """A player's final score in a round: any fixed rule will do."""
    return 60 + (int(pid[1:]) * 37 + number * 53) % 180


def band_tp(margin: int) -> tuple[int, int]:
    return next((w, lo) for top, w, lo in MOV_BANDS if margin <= top)


def enter_armada(path: Path, number: int, table: int, pair: list[str], swapped: bool) -> None:
    a, b = pair
    first, second = (b, a) if swapped else (a, b)  # the slip's order, not the table's
    argv = ["--score", f"{first}={score(first, number)}", "--score", f"{second}={score(second, number)}"]  # fmt: skip
    said = ok("event", "result", str(path), str(number), str(table), *argv, "--second", b)
    sa, sb = score(a, number), score(b, number)
    winner = a if sa > sb else b  # equal scores: the second player, b
    assert said["winner"] == winner
    win_tp, lose_tp = band_tp(abs(sa - sb))
    assert said["tp"] == ([win_tp, lose_tp] if winner == a else [lose_tp, win_tp])
    high, low = max(sa, sb), min(sa, sb)
    loser = b if winner == a else a
    assert (
        said["text"]
        == f"{winner} beats {loser} {high}–{low}"
        + (" as second player" if sa == sb else "")
        + f": {win_tp} / {lose_tp}"
    )


def play_armada_round(path: Path, number: int, pairs: list[dict[str, Any]]) -> None:
    waiting = [p["table"] for p in pairs]
    for k, pair in enumerate(pairs):
        assert ok("event", "pending", str(path))["pending"] == [
            {"table": p["table"], "players": p["players"]} for p in pairs if p["table"] in waiting
        ]
        if number == 1 and k == 0:
            # typed at the wrong table: table 1 gets table 2's slip, is cleared, re-entered
            other = pairs[1]["players"]
            code, _, err = run("event", "result", str(path), "1", "1", "--score",
                               f"{other[0]}=100", "--score", f"{other[1]}=90")  # fmt: skip
            assert code == 2
            assert "who is not at this table" in err
            ok("event", "result", str(path), "1", "1", "--scores", "100", "90")
            assert ok("event", "result", str(path), "1", "1", "--clear")["cleared"] is True
        enter_armada(path, number, pair["table"], pair["players"], swapped=number == 2 and k == 0)
        waiting.remove(pair["table"])
    assert ok("event", "pending", str(path)) == {"round": number, "pending": []}


def recount(event: dict[str, Any]) -> dict[str, int]:
    """Each player's TP from the file's results alone (a bye: 9 TP)."""
    tp = {p["id"]: 0 for p in event["players"]}
    for round_ in event["rounds"]:
        for m in round_.get("matches", []):
            (a, b), (sa, sb) = m["players"], m["scores"]
            winner = a if sa > sb else b if sb > sa else m["second_player"]
            win_tp, lose_tp = band_tp(abs(sa - sb))
            tp[winner] += win_tp
            tp[b if winner == a else a] += lose_tp
        for bye in round_.get("byes", []):
            tp[bye["player"]] += 9
    return tp


def test_a_23_player_armada_event_from_the_console(tmp_path: Path) -> None:
    roster = tmp_path / "players.csv"
    factions = ("rebel", "imperial")
    roster.write_text(
        "id,name,faction\n"
        + "".join(f"p{k:02},Player {k},{factions[k % 2]}\n" for k in range(1, 24))
    )
    path = tmp_path / "event.json"
    ok(
        "event",
        "new",
        "--game",
        "armada",
        "--players",
        str(roster),
        "--seed",
        "11",
        "-o",
        str(path),
    )
    said = ok("event", "announce", str(path))
    assert (said["players"], said["swiss_rounds"], said["cut"]) == (23, 3, 0)  # 32 or fewer: 3
    assert said["round_minutes"] == 120
    pairing = ok("event", "pair", str(path))
    assert len(pairing["pairs"]) == 11
    assert len(pairing["byes"]) == 1
    play_armada_round(path, 1, pairing["pairs"])
    # a late arrival after round 1, and a drop
    added = ok("event", "add", str(path), "p24", "--name", "Late", "--faction", "rebel")
    assert (added["arrived_for"], added["rounds_missed"], added["players"]) == (2, 1, 24)
    dropper = pairing["pairs"][3]["players"][0]
    assert ok("event", "drop", str(path), dropper) == {"player": dropper, "dropped_after": 1}
    late = next(r for r in ok("event", "standings", str(path))["players"] if r["id"] == "p24")
    assert (late["tp"], late["mov"], late["wins"], late["losses"], late["opponents"]) == (
        0, 0, 0, 1, []
    )  # fmt: skip
    for number in (2, 3):
        pairing = ok("event", "pair", str(path))
        seated = [p for pair in pairing["pairs"] for p in pair["players"]]
        seated += [b["player"] for b in pairing["byes"]]
        assert dropper not in seated
        assert "p24" in seated
        assert len(seated) == 23
        play_armada_round(path, number, pairing["pairs"])
    code, _, err = run("event", "pair", str(path))
    assert code == 2
    assert "the event is complete" in err
    code, out, err = run("event", "check", str(path), "--json")
    assert (code, json.loads(out)) == (0, {"legal": True, "findings": []}), err
    table = ok("event", "standings", str(path))
    assert table["round"] == 3
    assert len(table["players"]) == 24
    expected = recount(json.loads(path.read_text()))
    assert {r["id"]: r["tp"] for r in table["players"]} == expected
    assert [r["dropped"] for r in table["players"]].count(True) == 1
    printed = _print_all(path, tmp_path)
    assert set(printed) == {"pairings", "standings", "slips"}


def _print_all(path: Path, folder: Path) -> dict[str, Path]:
    printed = {}
    for what in ("pairings", "standings", "slips"):
        target = folder / f"{what}.pdf"
        assert ok("event", "print", str(path), "--what", what, "-o", str(target))["format"] == "pdf"
        assert target.read_bytes()[:5] == b"%PDF-"
        if shutil.which("pdftoppm") is not None:
            subprocess.run(
                [
                    "pdftoppm",
                    "-r",
                    "30",
                    "-png",
                    "-f",
                    "1",
                    "-l",
                    "1",
                    str(target),
                    str(folder / what),
                ],
                check=True,
            )
            assert any(folder.glob(f"{what}*.png"))
        printed[what] = target
    return printed


# -- Destiny, 40 players, advanced: 6 rounds, top 8, best of three --------------------------


def enter_destiny(path: Path, number: int, pairs: list[dict[str, Any]], rng: random.Random) -> dict[int, str]:  # fmt: skip
    winners = {}
    for pair in pairs:
        a, b = pair["players"]
        winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
        games = [winner, winner] if rng.random() < 0.5 else [winner, loser, winner]
        argv = ["--games", *games] if number > 6 else ["--winner", winner]
        said = ok("event", "result", str(path), str(number), str(pair["table"]), *argv)
        assert said["winner"] == winner
        winners[pair["table"]] = winner
    return winners


def test_a_40_player_destiny_event_to_the_final(tmp_path: Path) -> None:
    path = tmp_path / "destiny.toml"
    roster = tmp_path / "players.csv"
    roster.write_text("id,name\n" + "".join(f"d{k:02},Duelist {k}\n" for k in range(1, 41)))
    ok("event", "new", "--game", "destiny", "--structure", "advanced", "--players", str(roster),
       "--seed", "5", "-o", str(path))  # fmt: skip
    said = ok("event", "announce", str(path))
    assert (said["swiss_rounds"], said["cut"], said["playoff_games"]) == (6, 8, 3)
    rng = random.Random(40)
    for number in range(1, 7):
        enter_destiny(path, number, ok("event", "pair", str(path))["pairs"], rng)
    swiss = ok("event", "standings", str(path))["players"]
    rank = {r["id"]: r["rank"] for r in swiss}
    # the Swiss leader drops before the cut: the next eight are seeded 1 to 8
    ok("event", "drop", str(path), swiss[0]["id"])
    quarter = ok("event", "pair", str(path))
    top8 = [r["id"] for r in swiss[1:9]]
    assert [(p["players"], p["ranks"]) for p in quarter["pairs"]] == [
        ([top8[k], top8[7 - k]], [k + 1, 8 - k]) for k in range(4)
    ]
    seed = {top8[k]: k + 1 for k in range(8)}
    qf = enter_destiny(path, 7, quarter["pairs"], rng)
    # the winner of table 2 drops before the semi-finals: table 2's opponent goes through
    ok("event", "drop", str(path), qf[2])
    semi = ok("event", "pair", str(path))
    assert [(p["table"], p["players"], p["ranks"]) for p in semi["pairs"]] == [
        (1, [qf[1], qf[4]], [seed[qf[1]], seed[qf[4]]])
    ]
    assert [(b["player"], b["table"]) for b in semi["byes"]] == [(qf[3], 2)]
    sf = enter_destiny(path, 8, semi["pairs"], rng)
    final = ok("event", "pair", str(path))
    assert [(p["players"], p["ranks"]) for p in final["pairs"]] == [
        ([sf[1], qf[3]], [seed[sf[1]], seed[qf[3]]])
    ]
    champion = enter_destiny(path, 9, final["pairs"], rng)[1]
    placed = ok("event", "standings", str(path), "--final")
    assert placed["final"] is True
    assert len(placed["players"]) == 40
    finalist = qf[3] if champion == sf[1] else sf[1]
    semi_out = sorted([qf[1] if sf[1] == qf[4] else qf[4], qf[2]], key=rank.__getitem__)
    quarter_out = sorted(
        [p for pair in quarter["pairs"] for p in pair["players"] if p not in qf.values()],
        key=rank.__getitem__,
    )
    rest = sorted(set(rank) - {champion, finalist, *semi_out, *quarter_out}, key=rank.__getitem__)
    expected = [champion, finalist, *semi_out, *quarter_out, *rest]
    assert [r["id"] for r in placed["players"]] == expected
    assert [r["place"] for r in placed["players"]] == list(range(1, 41))
    assert [r["reached"] for r in placed["players"][:8]] == [
        "winner", "finalist", "semi-finalist", "semi-finalist",
        "quarter-finalist", "quarter-finalist", "quarter-finalist", "quarter-finalist",
    ]  # fmt: skip
    assert {r["id"]: r["seed"] for r in placed["players"][:8]} == {p: seed[p] for p in expected[:8]}
    assert placed["players"][8]["id"] == swiss[0]["id"]  # the leader who dropped: 9th
    code, out, err = run("event", "check", str(path), "--json")
    assert (code, json.loads(out)["findings"]) == (0, []), err


@pytest.mark.parametrize("what", ["pairings", "standings", "slips"])
def test_destiny_printables_of_a_playoff_round(tmp_path: Path, what: str) -> None:
    path = tmp_path / "e.toml"
    players = "".join(f'[[players]]\nid = "d{k}"\nname = "D{k}"\n' for k in range(1, 5))
    path.write_text(
        'game = "destiny"\nseed = 1\nstructure = "custom"\nswiss_rounds = 0\ncut = 4\n'
        "playoff_games = 3\n" + players
    )
    ok("event", "pair", str(path))
    target = tmp_path / f"{what}.html"
    ok("event", "print", str(path), "--what", what, "-o", str(target))
    if what == "slips":
        assert target.read_text().count("won game 3 (tick)") == 4  # 2 tables, 2 players each
