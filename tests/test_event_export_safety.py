"""Event exports that a spreadsheet opens safely, and an audit linear in the players.

A player's name or id that begins like a formula (``=``, ``+``, ``-``, ``@``, a tab or a
carriage return) is written with a leading ``'``; numbers are written as they are. The
audit's top-down check builds its set of paired players once per round, not once per
player.
"""

from __future__ import annotations

import csv
import importlib
import io
from pathlib import Path

import pytest
from common import run

from tabletop.app.common.csvfile import spreadsheet_cell
from tabletop.app.event.eventfile import write_event
from tabletop.tournament.audit import audit
from tabletop.tournament.simulate import simulate_event

#: The module (``tabletop.tournament.audit`` as an attribute is the function).
audit_module = importlib.import_module("tabletop.tournament.audit")
HOSTILE = ["=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-1+cmd|' /C calc'!A0", "@SUM(A1)",
           "\tTabbed", "\rReturned"]  # fmt: skip


@pytest.mark.parametrize("name", HOSTILE)
def test_a_formula_cell_is_text(name: str) -> None:
    assert spreadsheet_cell(name) == "'" + name


@pytest.mark.parametrize(
    "value", ["Ann", "a=b", "", "7", "-3", "+2.5", "1e3", "x-wing", 0, -4, 12.5]
)
def test_other_cells_are_unchanged(value: object) -> None:
    assert spreadsheet_cell(value) == str(value)


def test_the_csv_export_of_hostile_names_holds_no_formula(tmp_path: Path) -> None:
    names = HOSTILE[:4]  # a roster refuses control characters in a name
    roster = tmp_path / "players.csv"
    buffer = io.StringIO()
    rows = [["id", "name"], *[[f"p{k}", name] for k, name in enumerate(names)]]
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    roster.write_text(buffer.getvalue())
    path = tmp_path / "event.toml"
    code, _, err = run("event", "new", "--game", "armada", "--players", roster, "-o", path)
    assert code == 0, err
    assert run("event", "pair", path)[0] == 0
    code, out, err = run("event", "export", path, "--format", "csv")
    assert code == 0, err
    cells = [cell for row in csv.reader(io.StringIO(out)) for cell in row]
    assert all(not cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in cells), cells
    for name in names:
        assert "'" + name in cells


def test_the_top_down_check_builds_its_set_once_per_round(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # 200 players, 4 rounds: a set of the paired players built per player (the quadratic
    # audit of 10,000 players) is 200 sets a round; once a round is a handful.
    event = simulate_event("armada", 200, seed=5, rounds=4)
    built = []

    class CountingSet(set[str]):
        def __init__(self, *args: object) -> None:
            built.append(1)
            super().__init__(*args)

    monkeypatch.setattr(audit_module, "set", CountingSet, raising=False)
    report = audit(event)
    assert report.findings == ()
    assert len(built) < 50, len(built)
    write_event(event, tmp_path / "e.toml")
    assert run("event", "check", tmp_path / "e.toml")[0] == 0
