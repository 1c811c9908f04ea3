"""The bundled event examples: finished, legal, and the planted faults found."""

from __future__ import annotations

from tabletop.app.event.eventfile import load_event
from tabletop.tournament import audit, is_complete, standings, structure_of

EVENTS = "examples/events/"


def test_the_store_championship_is_finished_and_legal() -> None:
    event = load_event(EVENTS + "armada-store-championship.toml")
    assert (len(event.players), len(event.rounds)) == (12, 3)
    assert [len(r.byes) for r in event.rounds] == [0, 0, 1]
    assert is_complete(event)
    assert audit(event).legal


def test_the_destiny_regional_has_a_top_eight() -> None:
    event = load_event(EVENTS + "destiny-regional-top8.json")
    assert len(event.players) == 40
    assert structure_of(event).cut == 8
    assert [r.kind for r in event.rounds] == ["swiss"] * 6 + ["playoff"] * 3
    assert [len(r.matches) for r in event.rounds[6:]] == [4, 2, 1]
    assert is_complete(event)
    assert audit(event).legal
    assert sum(s.dropped for s in standings(event)) == 2


def test_the_planted_faults_are_found() -> None:
    event = load_event(EVENTS + "armada-planted-fault.toml")
    findings = audit(event).findings
    rules = {(f.round, f.table, f.rule) for f in findings}
    assert (1, 1, "tp") in rules
    luca = next(m.table for m in event.rounds[1].matches if "luca" in m.players)
    assert (2, luca, "dropped-result") in rules
    assert (3, None, "bye-order") in rules
    # round 3's swapped second players: each rematch found is at a table that met before
    met = {frozenset(m.players) for r in event.rounds[:2] for m in r.matches}
    rematches = {r for r in rules if r[2] == "avoidable-rematch"}
    assert rematches
    assert rematches == {
        (3, m.table, "avoidable-rematch")
        for m in event.rounds[2].matches
        if frozenset(m.players) in met
    }
