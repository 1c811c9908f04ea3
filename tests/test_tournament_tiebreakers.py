"""The tiebreaker registry: one entry per tiebreaker, checked when a regulation is made.

A tiebreaker's heading, table text, JSON field and ranking value come from its entry in
:data:`tabletop.tournament.TIEBREAKERS`; a regulation naming an unknown one (or one
twice, or both SoS kinds) is refused at construction, as is an unknown bye key.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from tabletop.app.event.command import standings_json
from tabletop.app.event.eventfile import load_event
from tabletop.tournament import (
    ARMADA_2015,
    DESTINY,
    REGULATIONS,
    TIEBREAKERS,
    Event,
    Match,
    Player,
    RegulationError,
    Round,
    Standing,
    standing_headings,
    standings,
    tiebreakers,
)

EVENTS = Path(__file__).resolve().parents[1] / "examples" / "events"


def row(**figures: object) -> Standing:
    values: dict[str, object] = {
        "rank": 1,
        "player": Player("ann", "Ann"),
        "tp": 7,
        "mov": 120,
        "sos": Fraction(31, 2),
        "esos": Fraction(7, 3),
        "wins": 2,
        "losses": 1,
        "byes": 0,
        "rounds_played": 3,
        "opponents": ("bob", "cat", "dan"),
        "dropped": False,
    }
    values.update(figures)
    return Standing(**values)  # type: ignore[arg-type]


def test_the_registry_holds_the_four_tiebreakers_by_name() -> None:
    assert list(TIEBREAKERS) == ["mov", "sos", "sos-average", "esos"]
    assert all(name == t.name for name, t in TIEBREAKERS.items())
    assert {name: (t.heading, t.field) for name, t in TIEBREAKERS.items()} == {
        "mov": ("MoV", "mov"),
        "sos": ("SoS", "sos"),
        "sos-average": ("SoS", "sos"),
        "esos": ("ESoS", "esos"),
    }
    assert [name for name, t in TIEBREAKERS.items() if t.averages_sos] == ["sos-average"]


def test_every_bundled_regulation_names_registered_tiebreakers() -> None:
    for regulation in REGULATIONS.values():
        assert [t.name for t in tiebreakers(regulation.tiebreakers)] == list(regulation.tiebreakers)


def test_values_texts_and_json_of_a_row_worked_by_hand() -> None:
    s = row()
    assert [s.value(k) for k in ("tp", "mov", "sos", "sos-average", "esos")] == [
        7,
        120,
        Fraction(31, 2),
        Fraction(31, 2),
        Fraction(7, 3),
    ]
    # A summed SoS is whole: 31/2 cannot be one, and its text is its whole part.
    assert s.cells(("mov", "sos"), decimals=3) == ["Ann", "7", "120", "15", "2-1-0"]
    assert s.cells(("sos-average", "esos"), decimals=3) == ["Ann", "7", "15.500", "2.333", "2-1-0"]
    assert s.cells(("tp", "esos", "mov"), decimals=1) == ["Ann", "7", "2.3", "120", "2-1-0"]
    assert [t.json(s) for t in tiebreakers(("mov", "sos"))] == [120, 15]
    assert [t.json(s) for t in tiebreakers(("sos-average", "esos"))] == [
        {"value": 15.5, "exact": "31/2"},
        {"value": 7 / 3, "exact": "7/3"},
    ]


def test_headings_follow_the_regulations_order() -> None:
    assert standing_headings(("tp", "mov", "sos")) == ["player", "TP", "MoV", "SoS", "W-L-B"]
    assert standing_headings(("esos", "mov")) == ["player", "TP", "ESoS", "MoV", "W-L-B"]
    assert standing_headings(()) == ["player", "TP", "W-L-B"]


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("tiebreakers", ("mov", "coin"), "unknown tiebreaker 'coin'; expected one of: mov, sos, sos-average, esos"),
        ("tiebreakers", ("mov", "mov"), "tiebreaker 'mov' is given twice"),
        ("tiebreakers", ("sos", "sos-average"), "tiebreaker 'sos-average' is the same figure as 'sos'"),
        ("bye_order", ("tp", "sos"), "unknown bye_order key 'sos'; expected some of: tp, mov, rank"),
    ],
)  # fmt: skip
def test_a_regulation_is_checked_when_it_is_made(field: str, value: object, said: str) -> None:
    with pytest.raises(RegulationError) as caught:
        replace(ARMADA_2015, **{field: value})  # type: ignore[arg-type]
    assert str(caught.value) == f"regulation 'armada-2015': {said}"
    assert isinstance(caught.value, ValueError)


def test_an_unknown_ranking_key_is_refused_by_name() -> None:
    with pytest.raises(RegulationError, match="unknown tiebreaker 'elo'"):
        row().value("elo")


def armada_event(regulation_id: str) -> Event:
    # Round 1: ann beats bob by 30 (TP 6-4, MoV 30), cat beats dan by 30 (TP 6-4, MoV 30).
    # Round 2: cat beats ann by 10 (TP 5-5, MoV 10), bob beats dan by 200 (TP 9-1, MoV 200).
    players = tuple(Player(i, i.title()) for i in ("ann", "bob", "cat", "dan"))
    r1 = Round(
        "swiss",
        (
            Match(1, ("ann", "bob"), scores=(150, 120)),
            Match(2, ("cat", "dan"), scores=(160, 130)),
        ),
    )
    r2 = Round(
        "swiss",
        (
            Match(1, ("ann", "cat"), scores=(100, 110)),
            Match(2, ("bob", "dan"), scores=(260, 60)),
        ),
    )
    return Event("armada", regulation_id, "Cup", 1, players, (r1, r2))


@pytest.mark.parametrize(
    ("order", "ranked"),
    [
        (("mov", "sos"), ["bob", "cat", "ann", "dan"]),
        (("sos", "mov"), ["bob", "ann", "cat", "dan"]),
        (("esos",), ["bob", "cat", "ann", "dan"]),
    ],
)
def test_standings_rank_by_the_regulations_tiebreakers_in_its_order(
    monkeypatch: pytest.MonkeyPatch, order: tuple[str, ...], ranked: list[str]
) -> None:
    # By hand: TP bob 4+9 = 13, ann 6+5 = 11, cat 6+5 = 11, dan 4+1 = 5.
    # MoV: bob 200, ann 30, cat 30+10 = 40, dan 0.
    # SoS (sum of opponents' TP): ann bob+cat = 24, cat dan+ann = 16, bob ann+dan = 16,
    # dan cat+bob = 24. ESoS (average of the opponents' SoS): ann (16+16)/2 = 16,
    # cat (24+24)/2 = 24, bob (24+24)/2 = 24, dan (16+16)/2 = 16. So ann and cat, tied on TP, part by MoV (cat), SoS (ann) or
    # ESoS (cat) as the regulation orders them.
    regulation = replace(ARMADA_2015, id="armada-test", tiebreakers=order)
    monkeypatch.setitem(REGULATIONS, regulation.id, regulation)
    table = standings(armada_event(regulation.id))
    assert [s.player.id for s in table] == ranked
    figures = {s.player.id: (s.tp, s.mov, s.sos, s.esos) for s in table}
    f = Fraction
    assert figures == {"bob": (13, 200, f(16), f(24)), "ann": (11, 30, f(24), f(16)),
                       "cat": (11, 40, f(16), f(24)), "dan": (5, 0, f(24), f(16))}  # fmt: skip


def test_the_standings_json_has_each_tiebreakers_field() -> None:
    armada = load_event(EVENTS / "armada-store-championship.toml")
    destiny = load_event(EVENTS / "destiny-regional-top8.json")
    for event, fields in ((armada, ["mov", "sos"]), (destiny, ["sos", "esos"])):
        entry = standings_json(event, standings(event), 1)["players"][0]
        assert list(entry)[:6] == ["rank", "id", "name", "tp", *fields]
    assert DESTINY.tiebreakers == ("sos-average", "esos")
