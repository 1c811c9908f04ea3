"""The TO at the venue: names for ids, unpair, standings that never move, round times,
printables read back from their PDFs, the final without a cut and the CSV export.

Every refusal below leaves the event file byte-identical.
"""

from __future__ import annotations

import csv
import io
import json
import re
import zlib
from pathlib import Path

import pytest

from tabletop.app.cli import main
from tabletop.app.event.command import WHY_WIDTH

PLAYERS = (
    "id,name,faction\n"
    "dodonna,Jan Dodonna,rebel\nors,Jan Ors,rebel\nmotti,Conan Motti,imperial\n"
    "tarkin,Wilhuff Tarkin,imperial\nhan,Han Solo,rebel\nleia,Leia Organa,rebel\n"
)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def ok(*argv: str) -> str:
    code, out, err = run(*argv)
    assert code == 0, err
    return out


def refused(path: Path, *argv: str) -> str:
    """Run a command that must be refused (exit 2) and change nothing; return stderr."""
    before = path.read_bytes()
    code, out, err = run(*argv)
    assert (code, out) == (2, ""), err
    assert path.read_bytes() == before
    return err


def new(tmp_path: Path, *extra: str, players: str = PLAYERS) -> Path:
    roster = tmp_path / "players.csv"
    roster.write_text(players)
    path = tmp_path / "event.toml"
    ok("event", "new", "--game", "armada", "--players", str(roster), "-o", str(path), *extra)
    return path


def tables(path: Path) -> list[list[str]]:
    pairing = json.loads(ok("event", "pending", str(path), "--json"))
    return [t["players"] for t in pairing["pending"]]


def pdf_text(pdf: bytes) -> str:
    """Return the text a PDF of this project draws, one string per drawn text.

    Matplotlib writes each text as a TJ (or Tj) of two-byte codes that are the
    characters' code points (Identity-H with a CID-to-glyph map): decoded here as
    UTF-16-BE after undoing the PDF string escapes. Characters matplotlib draws with
    another glyph table (ligatures, arrows, dashes) do not come back as themselves.
    """
    drawn = []
    for stream in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", pdf, re.S):
        try:
            content = zlib.decompress(stream)
        except zlib.error:
            continue
        for array in re.findall(rb"\[(.*?)\]\s*TJ|(\(.*?\))\s*Tj", content, re.S):
            body = array[0] or array[1]
            raw = b"".join(re.findall(rb"\(((?:\\.|[^\\)])*)\)", body, re.S))
            raw = re.sub(rb"\\([()\\])", rb"\1", raw)
            drawn.append(raw.decode("utf-16-be", "replace"))
    return "\n".join(drawn)


# -- names wherever ids go ---------------------------------------------------------------


def test_results_drops_and_returns_take_names_and_prefixes(tmp_path: Path) -> None:
    path = new(tmp_path, "--regulation", "armada-2018", "--seed", "3")
    ok("event", "pair", str(path))
    (a, b), *_ = tables(path)
    names = {
        "dodonna": "Jan Dodonna", "ors": "Jan Ors", "motti": "Conan Motti",
        "tarkin": "Wilhuff Tarkin", "han": "Han Solo", "leia": "Leia Organa",
    }  # fmt: skip
    # the full name in any case, and a unique prefix of the other's id
    said = ok(
        "event", "result", str(path), "1", "1",
        "--score", f"{names[a].upper()}=150", "--score", f"{b[:3]}=98",
    )  # fmt: skip
    # 150 - 98 = 52 → 6 / 5 under armada-2018
    assert said == f"round 1 table 1: {a} beats {b} 150–98: 6 / 5\n"
    # "jan" is ambiguous: both candidates listed, nothing written
    err = refused(path, "event", "drop", str(path), "jan")
    assert "'jan' names more than one player: Jan Dodonna (dodonna), Jan Ors (ors)" in err
    err = refused(path, "event", "drop", str(path), "luke")
    assert "no player has the id or name 'luke'" in err
    assert ok("event", "drop", str(path), "jan o", "--after", "1") == (
        "Jan Ors (ors) dropped after round 1\n"
    )
    assert ok("event", "return", str(path), "JAN ORS").startswith("Jan Ors (ors) returns")


def test_a_name_at_the_wrong_table_and_equal_scores_without_second(tmp_path: Path) -> None:
    path = new(tmp_path, "--seed", "3")
    ok("event", "pair", str(path))
    (a, b), (c, _d), *_ = tables(path)
    err = refused(
        path, "event", "result", str(path), "1", "1", "--score", f"{c}=1", "--score", f"{b}=2"
    )
    assert f"--score names {c!r}, who is not at this table ({a} v {b})" in err
    err = refused(path, "event", "result", str(path), "1", "1", "--scores", "120", "120")
    assert "equal scores: the second player wins; give --second ID (or NAME)" in err
    assert "second_player" not in err
    said = ok("event", "result", str(path), "1", "1", "--scores", "120", "120", "--second", b)
    assert said == f"round 1 table 1: {b} beats {a} 120–120 as second player: 5 / 5\n"


def test_the_2015_regulation_refuses_defeated_and_2018_takes_it(tmp_path: Path) -> None:
    path = new(tmp_path, "--seed", "3")
    ok("event", "pair", str(path))
    (a, b), *_ = tables(path)
    err = refused(
        path, "event", "result", str(path), "1", "1", "--scores", "100", "200", "--defeated", b
    )
    assert "armada-2015 has no 'One Player Defeated' win" in err
    (tmp_path / "2018").mkdir()
    path2 = new(tmp_path / "2018", "--regulation", "armada-2018", "--seed", "3")
    ok("event", "pair", str(path2))
    (a, b), *_ = tables(path2)
    said = ok("event", "result", str(path2), "1", "1", "--scores", "100", "200", "--defeated", b)
    # a keeps a ship and wins with the lower score: MoV max(0, 100 - 200) = 0 → 6 / 5
    assert said == (
        f"round 1 table 1: {a} beats {b} 100–200 ({b} defeated: One Player Defeated): 6 / 5\n"
    )
    assert f'defeated = "{b}"' in path2.read_text()


# -- unpair ------------------------------------------------------------------------------


def test_unpair_a_round_without_results_and_seat_a_late_arrival(tmp_path: Path) -> None:
    path = new(tmp_path, "--seed", "5")
    ok("event", "pair", str(path))
    ok("event", "result", str(path), "1", "2", "--scores", "150", "100")
    err = refused(path, "event", "unpair", str(path))
    assert "round 1: results are recorded at table(s) 2; clear them first" in err
    ok("event", "result", str(path), "1", "2", "--clear")
    said = ok("event", "add", str(path), "luke", "--name", "Luke Skywalker", "--faction", "rebel")
    assert said.splitlines()[1] == (
        "round 1 is paired and has no result: `event unpair`, then `add` and `pair`, "
        "seats them in it"
    )
    said = ok("event", "unpair", str(path))
    assert said == (
        "round 1 unpaired (3 table(s) removed); Luke Skywalker (luke) now play(s) in it; "
        "`event pair` pairs round 1 again\n"
    )
    assert "arrived_for" not in path.read_text()  # a player like any other
    pairing = json.loads(ok("event", "pair", str(path), "--json"))
    seated = {p for pair in pairing["pairs"] for p in pair["players"]}
    assert "luke" in seated | {b["player"] for b in pairing["byes"]}
    empty = tmp_path / "empty.toml"
    empty.write_text('game = "armada"\nseed = 1\nplayers = []\n')
    assert "nothing to unpair" in refused(empty, "event", "unpair", str(empty))


# -- published standings never move -----------------------------------------------------


def test_standings_of_a_past_round_are_byte_identical_after_add_drop_return(
    tmp_path: Path,
) -> None:
    players = "id,name\n" + "".join(f"p{k},P{k}\n" for k in range(1, 9))
    path = new(tmp_path, "--seed", "11", players=players)
    pairing = json.loads(ok("event", "pair", str(path), "--json"))
    for pair in pairing["pairs"]:  # every game 100-100: 5 TP each, MoV 0, SoS 5
        table, (_, second) = str(pair["table"]), pair["players"]
        ok("event", "result", str(path), "1", table, "--scores", "100", "100", "--second", second)
    first = ok("event", "standings", str(path), "--round", "1")
    rows = json.loads(ok("event", "standings", str(path), "--round", "1", "--json"))["players"]
    # the random last tiebreak decides every rank
    assert {(r["tp"], r["mov"], r["sos"]) for r in rows} == {(5, 0, 5)}
    ok("event", "add", str(path), "late", "--name", "Han Solo")
    assert ok("event", "standings", str(path), "--round", "1") == first
    pairing = json.loads(ok("event", "pair", str(path), "--json"))
    for pair in pairing["pairs"]:
        ok("event", "result", str(path), "2", str(pair["table"]), "--scores", "150", "100")
    assert ok("event", "standings", str(path), "--round", "1") == first
    ok("event", "drop", str(path), "p3")
    assert ok("event", "standings", str(path), "--round", "1") == first
    ok("event", "return", str(path), "p3")
    assert ok("event", "standings", str(path), "--round", "1") == first


# -- round time and caps -----------------------------------------------------------------


def test_round_minutes_from_new_and_from_the_regulations(tmp_path: Path) -> None:
    path = new(tmp_path, "--round-minutes", "150")
    assert "round_minutes = 150" in path.read_text()
    assert "  round time: 150 minutes" in ok("event", "announce", str(path)).splitlines()
    (tmp_path / "b").mkdir()
    path = new(tmp_path / "b", "--regulation", "armada-2018")
    assert json.loads(ok("event", "announce", str(path), "--json"))["round_minutes"] == 135
    (tmp_path / "c").mkdir()
    path = new(tmp_path / "c")
    assert json.loads(ok("event", "announce", str(path), "--json"))["round_minutes"] == 120
    destiny = tmp_path / "d.toml"
    destiny.write_text(
        'game = "destiny"\nseed = 1\nstructure = "advanced"\n'
        + "".join(f'[[players]]\nid = "d{k}"\nname = "D{k}"\n' for k in range(12))
    )
    said = json.loads(ok("event", "announce", str(destiny), "--json"))
    assert (said["round_minutes"], said["playoff_round_minutes"]) == (35, 90)
    assert "  playoff round time: 90 minutes" in ok("event", "announce", str(destiny))
    code, _, err = run("event", "new", "--game", "armada", "--round-minutes", "0", "-o",
                       str(tmp_path / "z.toml"))  # fmt: skip
    assert code == 2
    assert "--round-minutes is from 1 to 1440" in err
    assert not (tmp_path / "z.toml").exists()


@pytest.mark.parametrize(
    ("regulation", "fleet", "refused_with"),
    [
        ("armada-2015", 300, None),
        ("armada-2015", 301, "301 points; armada-2015 caps the fleet at 300"),
        ("armada-2018", 400, None),
        ("armada-2018", 401, "401 points; armada-2018 caps the fleet at 400"),
    ],
)
def test_new_checks_the_fleet_cap_of_the_regulation(
    tmp_path: Path, regulation: str, fleet: int, refused_with: str | None
) -> None:
    roster = tmp_path / "p.csv"
    roster.write_text(f"id,name,fleet_points,squadron_points\na,A,{fleet},135\nb,B,290,90\n")
    out = tmp_path / "e.toml"
    argv = ("event", "new", "--game", "armada", "--regulation", regulation, "--players",
            str(roster), "-o", str(out))  # fmt: skip
    code, _, err = run(*argv)
    if refused_with is None and regulation == "armada-2015":
        # squadrons 135 are over the 2015 cap of 100: refused too
        assert code == 2
        assert "135 points; armada-2015 caps the squadrons at 100" in err
        return
    if refused_with is not None:
        assert code == 2
        assert refused_with in err
        assert "line 2" in err
        assert not out.exists()
        return
    assert code == 0, err
    # 2018's squadron cap (134) is not confirmed: check warns, the event stays legal
    code, said, _ = run("event", "check", str(out))
    assert code == 0
    assert "warning: squadron-points: a: squadron of 135 points; the cap is 134" in said


# -- printables, read back from the PDFs -------------------------------------------------

pytest_plots = pytest.importorskip  # matplotlib draws the PDFs


def _four_with_a_cut(tmp_path: Path) -> Path:
    """Four armada-2018 players, one Swiss round, a top 4: round 2 is the semi-finals."""
    path = new(
        tmp_path, "--regulation", "armada-2018", "--tier", "informal", "--swiss-rounds", "1",
        "--cut", "4", "--seed", "2",
        players="id,name\ndodonna,Jan Dodonna\nors,Jan Ors\nmotti,Conan Motti\ntarkin,W Tarkin\n",
    )  # fmt: skip
    pairing = json.loads(ok("event", "pair", str(path), "--json"))
    for pair in pairing["pairs"]:
        ok("event", "result", str(path), "1", str(pair["table"]), "--scores", "300", "100")
    return path


def test_slips_and_pairings_carry_ids_the_tp_table_and_the_stage(tmp_path: Path) -> None:
    pytest_plots("matplotlib")
    path = _four_with_a_cut(tmp_path)
    slips = tmp_path / "r1.pdf"
    ok("event", "print", str(path), "--what", "slips", "-o", str(slips))
    text = pdf_text(slips.read_bytes())
    assert "Jan Dodonna (dodonna)" in text
    assert "W Tarkin (tarkin)" in text
    assert "round 1 - table 1" in text
    assert "round 1 - table 2" in text
    # the MoV → TP table (the arrow and dashes are drawn apart from the Latin text)
    table = ("TP (winner/loser): 0", "59 6/5, 60", "139 7/4, 140", "219 8/3, 220",
             "299 9/2, 300", "400 10/1")  # fmt: skip
    assert all(part in text for part in table)
    assert "otillas destroyed (tick)" in text  # "fl" is a ligature
    said = ok("event", "pair", str(path))
    assert said.splitlines()[0] == "Semi-final"
    ok("event", "print", str(path), "--what", "slips", "-o", str(tmp_path / "sf.pdf"))
    text = pdf_text((tmp_path / "sf.pdf").read_bytes())
    # "Semi-final - table k" ("fi" is a ligature, drawn apart)
    assert text.count("Semi-") == 2
    assert "nal - table 1" in text
    assert "nal - table 2" in text
    assert "round 2" not in text
    ok("event", "print", str(path), "--what", "pairings", "-o", str(tmp_path / "p.pdf"))
    text = pdf_text((tmp_path / "p.pdf").read_bytes())
    assert "nal pairings" in text
    assert "Semi-" in text
    assert "Conan Motti (motti)" in text
    ok("event", "print", str(path), "--what", "standings", "-o", str(tmp_path / "s.pdf"))
    text = pdf_text((tmp_path / "s.pdf").read_bytes())
    assert "Standings after round 1" in text
    assert "tarkin" in text
    assert "W Tarkin" in text


def test_pairing_reasons_wrap_under_their_column(tmp_path: Path) -> None:
    players = "id,name,faction\n" + "".join(
        f"p{k},Player Number {k},{'rebel' if k % 2 else 'imperial'}\n" for k in range(1, 13)
    )
    path = new(tmp_path, "--seed", "4", players=players)
    said = ok("event", "pair", str(path))
    head = said.splitlines()[1]
    why = head.index("why")
    for line in said.splitlines()[2:]:
        assert len(line) <= why + WHY_WIDTH
        if line.startswith(" " * why):  # a continuation: under the column
            assert line[why] != " "


# -- the end of an event -----------------------------------------------------------------


def test_final_without_a_cut_and_csv_one_table_per_file(tmp_path: Path) -> None:
    players = "id,name\na,Ann\nb,Bob\nc,Cat\nd,Dan\n"
    path = new(tmp_path, "--tier", "informal", "--swiss-rounds", "1", "--seed", "1",
               players=players)  # fmt: skip
    pairing = json.loads(ok("event", "pair", str(path), "--json"))
    for pair in pairing["pairs"]:
        ok("event", "result", str(path), "1", str(pair["table"]), "--scores", "200", "100")
    said = ok("event", "standings", str(path), "--final").splitlines()
    assert said[1] == "no cut: the Swiss standings after round 1 are final"
    assert said[2].split() == ["place", "player", "id", "Swiss", "rank", "TP"]
    assert "seed" not in said[2]
    assert "playoff" not in "\n".join(said)
    folder = tmp_path / "export"
    assert ok("event", "export", str(path), "--format", "csv", "-o", str(folder)) == (
        f"wrote {folder / 'standings.csv'} and {folder / 'results.csv'}\n"
    )
    standings_rows = list(csv.reader((folder / "standings.csv").open()))
    results_rows = list(csv.reader((folder / "results.csv").open()))
    assert standings_rows[0][:4] == ["rank", "id", "name", "tp"]
    assert len(standings_rows) == 5
    assert results_rows[0][:4] == ["round", "kind", "table", "player_a"]
    assert len(results_rows) == 3
    assert all(row for row in standings_rows + results_rows)  # one table each, no blank line
    # a second export without --force refuses and leaves both files
    before = (folder / "standings.csv").read_bytes()
    code, _, _err = run("event", "export", str(path), "--format", "csv", "-o", str(folder))
    assert code == 2
    assert (folder / "standings.csv").read_bytes() == before
    assert refused(path, "event", "export", str(path), "--format", "json", "--table", "results")
