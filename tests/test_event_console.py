"""The TO's console: add, result --clear / --score / --override-tp, pending, announce,
standings --final / --top, export, and the best-of-three error naming ``games``.

Every number below is worked out by hand from tournament.md's tables (see each comment).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from pathlib import Path

import pytest

from tabletop.app.cli import main
from tabletop.app.event.eventfile import load_event, write_event
from tabletop.tournament import Bye, Match, Round, simulate_event, standings

# An Armada event of 8 (informal, 2 Swiss rounds, cut 4) whose standings are all distinct
# TP. Round 1, MoV -> TP by the table: 230 -> 10/0, 160 -> 9/1, 110 -> 8/2, 70 -> 7/3.
ARMADA_8 = """
game = "armada"
seed = 5
tier = "informal"
swiss_rounds = 2
cut = 4
""" + "".join(f'[[players]]\nid = "p{k}"\nname = "P{k}"\n' for k in range(1, 9))
ROUND_1 = """
[[rounds]]
kind = "swiss"
[[rounds.matches]]
table = 1
players = ["p1", "p8"]
scores = [230, 0]
[[rounds.matches]]
table = 2
players = ["p2", "p7"]
scores = [200, 40]
[[rounds.matches]]
table = 3
players = ["p3", "p6"]
scores = [150, 40]
[[rounds.matches]]
table = 4
players = ["p4", "p5"]
scores = [130, 60]
"""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def refused(path: Path, *argv: str) -> str:
    """Run a command that must exit 2 and leave the event byte-identical; return stderr."""
    before = digest(path)
    code, out, err = run(*argv)
    assert code == 2, (out, err)
    assert "Traceback" not in err
    assert digest(path) == before
    return err


@pytest.fixture
def armada(tmp_path: Path) -> Path:
    path = tmp_path / "event.toml"
    path.write_text(ARMADA_8 + ROUND_1)
    return path


# -- 1. add ------------------------------------------------------------------------------


def test_add_before_round_1_is_a_player_like_any_other(tmp_path: Path) -> None:
    path = tmp_path / "event.toml"
    path.write_text(ARMADA_8)
    code, out, err = run("event", "add", str(path), "p9", "--name", "Nina", "--json")
    assert code == 0, err
    assert json.loads(out) == {
        "player": "p9",
        "name": "Nina",
        "arrived_for": 1,
        "rounds_missed": 0,
        "players": 9,
    }
    nina = load_event(path).player("p9")
    assert (nina.arrived_for, nina.active_in(1)) == (None, True)
    assert "arrived_for" not in path.read_text()


def test_a_late_arrival_after_round_1_has_a_loss_and_check_accepts_it(armada: Path) -> None:
    code, out, err = run("event", "add", str(armada), "p9", "--name", "Nina", "--faction", "rebel")
    assert code == 0, err
    assert out == "p9 (Nina) registered for round 2; 1 round(s) missed count as losses; 9 players\n"
    event = load_event(armada)
    assert event.player("p9").arrived_for == 2
    code, out, _ = run("event", "standings", str(armada), "--json")
    row = next(r for r in json.loads(out)["players"] if r["id"] == "p9")
    # a loss for round 1: 0 TP, 0 MoV, no opponent
    assert (row["tp"], row["mov"], row["wins"], row["losses"], row["opponents"]) == (0, 0, 0, 1, [])
    code, out, err = run("event", "pair", str(armada), "--json")
    assert code == 0, err
    seated = [p for pair in json.loads(out)["pairs"] for p in pair["players"]]
    seated += [b["player"] for b in json.loads(out)["byes"]]
    assert sorted(seated) == sorted(f"p{k}" for k in range(1, 10))
    code, out, err = run("event", "check", str(armada))
    assert code == 0, out + err


def test_a_late_destiny_arrival_is_not_a_round_played_for_sos(tmp_path: Path) -> None:
    path = tmp_path / "event.toml"
    players = "".join(f'[[players]]\nid = "{p}"\nname = "{p.upper()}"\n' for p in "abcd")
    path.write_text(
        'game = "destiny"\nseed = 1\nstructure = "custom"\nswiss_rounds = 3\n'
        + players
        + '[[rounds]]\nkind = "swiss"\n'
        + '[[rounds.matches]]\ntable = 1\nplayers = ["a", "b"]\nwinner = "a"\n'
        + '[[rounds.matches]]\ntable = 2\nplayers = ["c", "d"]\nwinner = "c"\n'
    )
    assert run("event", "add", str(path), "e")[0] == 0
    event = load_event(path)
    # round 2 by hand: TP groups {a, c} and {b, d, e}: a v c, b v e, d has the bye
    round_2 = Round(
        "swiss",
        (Match(1, ("a", "c"), winner="a"), Match(2, ("b", "e"), winner="e")),
        (Bye("d"),),
    )
    write_event(event.with_rounds((*event.rounds, round_2)), path, force=True)
    code, out, _ = run("event", "standings", str(path), "--json")
    rows = {r["id"]: r for r in json.loads(out)["players"]}
    # TP a 2, b 0, c 1, d 1 (a bye), e 1; rounds played a, b, c, d 2, e 1 (round 1 missed)
    # SoS(e) = (TP(b)/2) / 1 = 0; SoS(b) = (TP(a)/2 + TP(e)/1) / 2 = (1 + 1) / 2 = 1
    # SoS(a) = (0/2 + 1/2) / 2 = 1/4; ESoS(b) = (SoS(a) + SoS(e)) / 2 = 1/8
    assert rows["e"]["tp"] == 1
    assert rows["e"]["losses"] == 1
    assert rows["e"]["wins"] == 1
    assert rows["e"]["sos"]["exact"] == "0/1"
    assert rows["b"]["sos"]["exact"] == "1/1"
    assert rows["a"]["sos"]["exact"] == "1/4"
    assert rows["b"]["esos"]["exact"] == "1/8"
    code, out, err = run("event", "check", str(path))
    assert code == 0, out + err


def test_add_refuses_a_known_id_a_bad_faction_and_a_finished_swiss(armada: Path) -> None:
    err = refused(armada, "event", "add", str(armada), "p3")
    assert "player 'p3': is already registered" in err
    err = refused(armada, "event", "add", str(armada), "p9", "--faction", "sith")
    assert "faction" in err
    assert "rebel, imperial" in err
    event = load_event(armada)
    write_event(event.with_rounds((*event.rounds, Round("swiss"))), armada, force=True)
    err = refused(armada, "event", "add", str(armada), "p9")
    assert "all 2 Swiss rounds have been paired" in err


# -- 2. result: by name, cleared, TP against the regulation ------------------------------


def _paired_round_2(armada: Path) -> None:
    code, out, err = run("event", "pair", str(armada), "--json")
    assert code == 0, err
    # after round 1: p1 10, p2 9, p3 8, p4 7, p5 3, p6 2, p7 1, p8 0: 1 v 2, 3 v 4, ...
    pairs = [p["players"] for p in json.loads(out)["pairs"]]
    assert pairs == [["p1", "p2"], ["p3", "p4"], ["p5", "p6"], ["p7", "p8"]]


def test_a_swapped_slip_entered_by_name_gives_the_win_to_the_right_player(armada: Path) -> None:
    _paired_round_2(armada)
    # the slip lists p2 first: p2 140, p1 100. MoV 40 -> 6 / 4 to p2
    code, out, err = run("event", "result", str(armada), "2", "1", "--score", "p2=140",
                         "--score", "p1=100")  # fmt: skip
    assert code == 0, err
    assert out == "round 2 table 1: p2 beats p1 140–100: 6 / 4\n"
    match = load_event(armada).rounds[1].match(1)
    assert match is not None
    assert match.scores == (100, 140)
    code, out, err = run("event", "result", str(armada), "2", "2", "--score", "p4=120",
                         "--score", "p3=120", "--second", "p4", "--json")  # fmt: skip
    assert code == 0, err
    said = json.loads(out)
    assert (said["winner"], said["tp"], said["mov"]) == ("p4", [5, 5], 0)
    assert said["text"] == "p4 beats p3 120–120 as second player: 5 / 5"


def test_result_by_name_refuses_a_stranger_a_missing_player_and_both_forms(armada: Path) -> None:
    _paired_round_2(armada)
    err = refused(armada, "event", "result", str(armada), "2", "1", "--score", "p1=100",
                  "--score", "p7=10")  # fmt: skip
    assert "round 2 table 1" in err
    assert "'p7', who is not at this table (p1 v p2)" in err
    err = refused(armada, "event", "result", str(armada), "2", "1", "--score", "p1=100")
    assert "--score p1=N --score p2=N" in err
    err = refused(armada, "event", "result", str(armada), "2", "1", "--score", "p1=1",
                  "--score", "p2=2", "--scores", "1", "2")  # fmt: skip
    assert "give the scores once" in err
    err = refused(armada, "event", "result", str(armada), "2", "1", "--score", "p1=x",
                  "--score", "p2=2")  # fmt: skip
    assert "whole number" in err


def test_clear_removes_a_result_and_refuses_a_table_without_one(armada: Path) -> None:
    _paired_round_2(armada)
    assert run("event", "result", str(armada), "2", "3", "--scores", "200", "10")[0] == 0
    code, out, err = run("event", "result", str(armada), "2", "3", "--clear", "--json")
    assert code == 0, err
    assert json.loads(out) == {"round": 2, "table": 3, "players": ["p5", "p6"], "cleared": True}
    match = load_event(armada).rounds[1].match(3)
    assert match is not None
    assert not match.has_result
    err = refused(armada, "event", "result", str(armada), "2", "3", "--clear")
    assert "round 2 table 3: has no result to clear" in err
    err = refused(armada, "event", "result", str(armada), "2", "3", "--clear", "--scores", "1", "2")
    assert "--clear removes a result and takes no result options" in err


def test_tp_against_the_regulation_is_refused_unless_overridden(armada: Path) -> None:
    _paired_round_2(armada)
    # 150 to 100: MoV 50 -> 6 / 4; the slip says 7 / 3
    err = refused(armada, "event", "result", str(armada), "2", "1", "--scores", "150", "100",
                  "--tp", "7", "3")  # fmt: skip
    assert "--tp 7 3 contradicts armada-2015, which gives 6 4" in err
    assert "p1 beats p2 150–100: 6 / 4" in err
    assert "--override-tp" in err
    err = refused(armada, "event", "result", str(armada), "2", "1", "--scores", "150", "100",
                  "--tp", "6", "4", "--override-tp", "why")  # fmt: skip
    assert "only for TP that differ" in err
    code, out, err = run("event", "result", str(armada), "2", "1", "--scores", "150", "100",
                         "--tp", "7", "3", "--override-tp", "judge's ruling")  # fmt: skip
    assert code == 0, err
    assert out == (
        "round 2 table 1: p1 beats p2 150–100: 7 / 3 "
        "(TP set by the TO: judge's ruling; the regulation gives 6 / 4)\n"
    )
    assert 'tp_override = "judge\'s ruling"' in armada.read_text()
    code, out, _ = run("event", "check", str(armada), "--json")
    findings = json.loads(out)["findings"]
    assert code == 1
    assert [(f["round"], f["table"], f["rule"]) for f in findings] == [(2, 1, "tp-override")]
    assert "the TO's reason: judge's ruling" in findings[0]["message"]
    # the TP kept count: p1 10 + 7 = 17, p2 9 + 3 = 12 (round 2 being played is not yet
    # in the standings: they are after round 1 until every result is in)
    event = load_event(armada)
    rows = {s.player.id: s.tp for s in standings(event, 2)}
    assert (rows["p1"], rows["p2"]) == (17, 12)


# -- 3. pending --------------------------------------------------------------------------


def test_pending_lists_every_table_without_a_result_and_pair_names_them(armada: Path) -> None:
    code, out, _ = run("event", "pending", str(armada), "--json")
    assert json.loads(out) == {"round": 1, "pending": []}
    _paired_round_2(armada)
    assert run("event", "result", str(armada), "2", "2", "--scores", "200", "100")[0] == 0
    code, out, _ = run("event", "pending", str(armada), "--json")
    assert code == 0
    assert json.loads(out) == {
        "round": 2,
        "pending": [
            {"table": 1, "players": ["p1", "p2"]},
            {"table": 3, "players": ["p5", "p6"]},
            {"table": 4, "players": ["p7", "p8"]},
        ],
    }
    code, out, _ = run("event", "pending", str(armada))
    assert out.splitlines()[0] == "round 2: 3 table(s) without a result"
    assert out.splitlines()[2] == "  table 3: P5 (p5) v P6 (p6)"  # names with ids
    err = refused(armada, "event", "pair", str(armada))
    assert (
        "no result yet at 3 tables: table 1 (p1 v p2), table 3 (p5 v p6), table 4 (p7 v p8)" in err
    )


def test_pending_before_round_1(tmp_path: Path) -> None:
    path = tmp_path / "event.toml"
    path.write_text(ARMADA_8)
    code, out, _ = run("event", "pending", str(path), "--json")
    assert (code, json.loads(out)) == (0, {"round": 0, "pending": []})


# -- 4. announce -------------------------------------------------------------------------


def _destiny(tmp_path: Path, count: int, extra: str = "") -> Path:
    path = tmp_path / "destiny.toml"
    players = "".join(f'[[players]]\nid = "d{k:02}"\nname = "D{k}"\n' for k in range(1, count + 1))
    path.write_text(f'game = "destiny"\nseed = 2\n{extra}\n' + players)
    return path


@pytest.mark.parametrize(
    ("count", "extra", "expected"),
    [
        # basic: 25-40 -> 5 rounds, top 4, single games; 41-44 -> 5, top 8; the
        # regulation's round is 35 minutes
        (40, 'structure = "basic"', (5, 4, 1, 35)),
        (41, 'structure = "basic"', (5, 8, 1, 35)),
        # advanced: 25-40 -> 6 rounds, top 8, best of three; 13-24 -> 5, top 4
        (40, 'structure = "advanced"\nround_minutes = 65', (6, 8, 3, 65)),
        (24, 'structure = "advanced"', (5, 4, 3, 35)),
        (16, 'structure = "basic"', (4, 0, None, 35)),  # 9-16: 4 rounds, no cut
    ],
)
def test_announce_destiny(
    tmp_path: Path, count: int, extra: str, expected: tuple[int, int, int | None, int | None]
) -> None:
    path = _destiny(tmp_path, count, extra)
    code, out, err = run("event", "announce", str(path), "--json")
    assert code == 0, err
    said = json.loads(out)
    assert said["players"] == count
    assert (said["swiss_rounds"], said["cut"], said["playoff_games"], said["round_minutes"]) == (
        expected
    )


@pytest.mark.parametrize(("count", "rounds"), [(32, 3), (33, 5)])
def test_announce_armada_by_the_player_count(tmp_path: Path, count: int, rounds: int) -> None:
    path = tmp_path / "armada.toml"
    players = "".join(f'[[players]]\nid = "a{k}"\nname = "A{k}"\n' for k in range(count))
    path.write_text('game = "armada"\nseed = 1\ntier = "competitive"\n' + players)
    code, out, _ = run("event", "announce", str(path))
    assert code == 0
    assert out.splitlines()[1:] == [
        f"  Swiss rounds: {rounds}",
        "  cut: none (the Swiss standings are final)",
        "  round time: 120 minutes",
    ]


def test_announce_outside_the_table_is_exit_2(tmp_path: Path) -> None:
    path = _destiny(tmp_path, 8, 'structure = "advanced"')  # advanced starts at 9
    err = refused(path, "event", "announce", str(path))
    assert "advanced" in err


# -- 5. standings --final and --top; seeds fixed at the cut ------------------------------


def _enter(path: Path, number: int, table: int, *scores: str) -> None:
    code, _, err = run("event", "result", str(path), str(number), str(table), *scores)
    assert code == 0, err


def _to_the_cut(armada: Path) -> None:
    _paired_round_2(armada)
    # round 2: p2 140-100 p1 (MoV 40: 6/4), p3 200-100 p4 (100: 8/2), p5 100-90 p6 (10: 5/5),
    # p7 300-0 p8 (10/0). TP: p3 16, p2 15, p1 14, p7 11, p4 9, p5 8, p6 7, p8 0
    _enter(armada, 2, 1, "--score", "p1=100", "--score", "p2=140")
    _enter(armada, 2, 2, "--scores", "200", "100")
    _enter(armada, 2, 3, "--scores", "100", "90")
    _enter(armada, 2, 4, "--scores", "300", "0")


def test_standings_show_every_player_after_round_n_and_top_cuts(armada: Path) -> None:
    _to_the_cut(armada)
    _, out, _ = run("event", "standings", str(armada))
    lines = out.splitlines()
    assert lines[0] == "Standings after round 2"
    assert [line.split()[1] for line in lines[2:]] == [
        "P3", "P2", "P1", "P7", "P4", "P5", "P6", "P8",
    ]  # fmt: skip
    _code, out, _ = run("event", "standings", str(armada), "--top", "3", "--json")
    assert [(r["rank"], r["id"], r["tp"]) for r in json.loads(out)["players"]] == [
        (1, "p3", 16),
        (2, "p2", 15),
        (3, "p1", 14),
    ]
    refused(armada, "event", "standings", str(armada), "--top", "0")


def test_final_placings_after_the_playoff(armada: Path) -> None:
    _to_the_cut(armada)
    refused(armada, "event", "standings", str(armada), "--final")  # not complete yet
    code, out, err = run("event", "pair", str(armada), "--json")
    assert code == 0, err
    # seeds 1 p3, 2 p2, 3 p1, 4 p7: table 1 is 1 v 4, table 2 is 2 v 3
    assert [(p["players"], p["ranks"]) for p in json.loads(out)["pairs"]] == [
        (["p3", "p7"], [1, 4]),
        (["p2", "p1"], [2, 3]),
    ]
    _enter(armada, 3, 1, "--score", "p7=150", "--score", "p3=100")
    _enter(armada, 3, 2, "--score", "p1=120", "--score", "p2=80")
    code, out, err = run("event", "pair", str(armada), "--json")
    assert code == 0, err
    # the final: winner of table 1 (p7, seed 4) v winner of table 2 (p1, seed 3)
    assert [(p["players"], p["ranks"]) for p in json.loads(out)["pairs"]] == [
        (["p7", "p1"], [4, 3])
    ]
    _enter(armada, 4, 1, "--score", "p1=200", "--score", "p7=100")
    code, out, err = run("event", "standings", str(armada), "--final", "--json")
    assert code == 0, err
    table = json.loads(out)
    assert table["final"] is True
    assert table["round"] == 2
    got = [(r["place"], r["id"], r["reached"], r["seed"], r["rank"]) for r in table["players"]]
    assert got == [
        (1, "p1", "winner", 3, 3),
        (2, "p7", "finalist", 4, 4),
        (3, "p3", "semi-finalist", 1, 1),
        (4, "p2", "semi-finalist", 2, 2),
        (5, "p4", "swiss", None, 5),
        (6, "p5", "swiss", None, 6),
        (7, "p6", "swiss", None, 7),
        (8, "p8", "swiss", None, 8),
    ]
    code, out, _ = run("event", "standings", str(armada), "--final", "--top", "2")
    assert out.splitlines()[0] == "Final placings"
    assert [line.split()[:4] for line in out.splitlines()[3:]] == [
        ["1", "P1", "p1", "winner"],
        ["2", "P7", "p7", "finalist"],
    ]
    assert run("event", "check", str(armada))[0] == 0


def test_a_drop_before_the_cut_and_in_the_playoff_renumbers_no_seed(armada: Path) -> None:
    _to_the_cut(armada)
    # p3 (Swiss rank 1) drops before the cut: seeds 1 p2, 2 p1, 3 p7, 4 p4
    assert run("event", "drop", str(armada), "p3")[0] == 0
    _, out, _ = run("event", "pair", str(armada), "--json")
    assert [(p["players"], p["ranks"]) for p in json.loads(out)["pairs"]] == [
        (["p2", "p4"], [1, 4]),
        (["p1", "p7"], [2, 3]),
    ]
    _enter(armada, 3, 1, "--score", "p4=150", "--score", "p2=100")
    _enter(armada, 3, 2, "--score", "p1=150", "--score", "p7=100")
    _code, out, _ = run("event", "pair", str(armada), "--json")
    # the final keeps the seeds of the cut (4 and 2), not the Swiss ranks (5 and 3)
    assert [(p["players"], p["ranks"]) for p in json.loads(out)["pairs"]] == [
        (["p4", "p1"], [4, 2])
    ]


# -- 6. export ---------------------------------------------------------------------------


def test_export_csv_and_json(armada: Path, tmp_path: Path) -> None:
    _to_the_cut(armada)
    code, head, err = run("event", "export", str(armada), "--format", "csv")
    assert code == 0, err
    code, results, err = run(
        "event", "export", str(armada), "--format", "csv", "--table", "results"
    )
    assert code == 0, err
    standings_rows = list(csv.reader(io.StringIO(head)))
    assert standings_rows[0] == [
        "rank", "id", "name", "tp", "mov", "sos", "wins", "losses", "byes", "dropped",
    ]  # fmt: skip
    # p3: 8 + 8 TP, MoV 110 + 100 = 210, opponents p6 (2 + 5 = 7) and p4 (7 + 2 = 9): SoS 16
    assert standings_rows[1] == ["1", "p3", "P3", "16", "210", "16", "2", "0", "0", ""]
    rows = list(csv.DictReader(io.StringIO(results)))
    assert len(rows) == 8
    first = rows[4]  # round 2 table 1: p1 100, p2 140
    assert (first["round"], first["table"], first["player_a"], first["score_a"]) == (
        "2", "1", "p1", "100"
    )  # fmt: skip
    assert (first["winner"], first["tp_a"], first["tp_b"], first["mov"]) == ("p2", "4", "6", "40")
    target = tmp_path / "export.json"
    code, out, err = run("event", "export", str(armada), "--format", "json", "-o", str(target))
    assert (code, out) == (0, f"wrote {target}\n"), err
    data = json.loads(target.read_text())
    assert [r["id"] for r in data["standings"]][:4] == ["p3", "p2", "p1", "p7"]
    assert (data["results"][0]["player_a"], data["results"][0]["tp_a"]) == ("p1", 10)
    err = refused(armada, "event", "export", str(armada), "--format", "json", "-o", str(armada))
    assert "event" in err


# -- 8. best of three without a winner ---------------------------------------------------


def test_a_best_of_three_without_a_winner_names_the_key_games(tmp_path: Path) -> None:
    path = _destiny(
        tmp_path, 4, 'structure = "custom"\nswiss_rounds = 0\ncut = 4\nplayoff_games = 3'
    )
    text = path.read_text() + (
        '[[rounds]]\nkind = "playoff"\n'
        '[[rounds.matches]]\ntable = 1\nplayers = ["d01", "d02"]\ngames = ["d01", "d02"]\n'
        '[[rounds.matches]]\ntable = 2\nplayers = ["d03", "d04"]\n'
    )
    path.write_text(text)
    err = refused(path, "event", "check", str(path))
    assert "round 1 table 1" in err
    assert "key 'games'" in err
    assert "no game 3 winner" in err


def test_without_a_cut_the_final_placings_are_the_swiss_standings(tmp_path: Path) -> None:
    path = tmp_path / "event.toml"
    write_event(simulate_event("armada", 12, seed=5), path)
    code, out, err = run("event", "standings", str(path), "--final", "--json")
    assert code == 0, err
    placed = json.loads(out)["players"]
    _, out, _ = run("event", "standings", str(path), "--json")
    assert [(r["place"], r["id"], r["reached"]) for r in placed] == [
        (r["rank"], r["id"], "swiss") for r in json.loads(out)["players"]
    ]


def test_a_late_arrival_that_changes_the_destiny_row_is_said(tmp_path: Path) -> None:
    # basic: 17-24 players -> 4 rounds, 25-40 -> 5 rounds (registrations count)
    path = _destiny(tmp_path, 24, 'structure = "basic"')
    event = load_event(path)
    write_event(event.with_rounds((Round("swiss"),)), path, force=True)
    code, out, err = run("event", "add", str(path), "d25", "--json")
    assert code == 0, err
    assert json.loads(out) == {
        "player": "d25",
        "name": "d25",
        "arrived_for": 2,
        "rounds_missed": 1,
        "players": 25,
        "swiss_rounds": 5,
        "note": "round 1 is paired and has no result: `event unpair`, then `add` and `pair`, "
        "seats them in it",
    }
    code, out, _ = run("event", "add", str(path), "d26")
    assert out.splitlines()[0] == (
        "d26 (d26) registered for round 2; 1 round(s) missed count as losses; 26 players"
    )
