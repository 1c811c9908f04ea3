"""Troops, units, armies: the legality ``check`` reports, at each limit and just past it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pocket_common import battle, troop

from tabletop.boards.pocket import Battle, Troop, check_battle, formation_limit, unit_traits


def rules_of(b: Battle) -> list[tuple[str, str | None, int | None]]:
    report = check_battle(b)
    return [(v.rule, v.unit, v.player) for v in report.violations]


ONE = [("a", "B2", [troop("a1")])]
TWO = [("b", "B4", [troop("b1")])]


@pytest.mark.parametrize(
    ("size", "legal"), [(10, True), (60, True), (65, False), (0, False), (5, False), (100, True)]
)
def test_the_battle_size_is_a_multiple_of_10_from_10_up(size: int, legal: bool) -> None:
    report = check_battle(battle(ONE, TWO, size=size))
    assert report.legal is legal
    if not legal:
        assert report.violations[0].to_json()["rule"] == "battle-size"
        assert "unit" not in report.violations[0].to_json()
        assert "player" not in report.violations[0].to_json()


@pytest.mark.parametrize(("size", "warned"), [(50, True), (60, False), (100, False), (110, True)])
def test_sizes_outside_60_to_100_are_legal_with_a_warning(size: int, warned: bool) -> None:
    report = check_battle(battle(ONE, TWO, size=size))
    assert report.legal
    assert bool(report.warnings) is warned


def test_an_army_totals_at_most_the_battle_size() -> None:
    at_the_line = [("a", "B2", [troop("a1", points=30), troop("a2", points=30)])]
    assert check_battle(battle(at_the_line, TWO, size=60)).legal
    over = [("a", "B2", [troop("a1", points=30), troop("a2", points=31)])]
    assert rules_of(battle(over, TWO, size=60)) == [("army-points", None, 1)]


def test_a_unit_holds_at_most_its_lowest_formation_value() -> None:
    three = [("a", "B2", [troop(f"a{k}", formation=3) for k in range(3)])]
    assert check_battle(battle(three, TWO)).legal
    four = [("a", "B2", [troop(f"a{k}", formation=3) for k in range(4)])]
    assert rules_of(battle(four, TWO)) == [("formation", "a", None)]
    mixed = [
        ("a", "B2", [troop("a0", formation=3), troop("a1", formation=2), troop("a2", formation=3)])
    ]
    assert rules_of(battle(mixed, TWO)) == [("formation", "a", None)]
    assert formation_limit([troop("x", formation=3), troop("y", formation=2)]) == 2


def test_a_troop_with_formation_1_stands_alone() -> None:
    alone = [("a", "B2", [troop("a0", formation=1)])]
    assert check_battle(battle(alone, TWO)).legal
    pair = [("a", "B2", [troop("a0", formation=1), troop("a1", formation=3)])]
    assert rules_of(battle(pair, TWO)) == [("formation", "a", None)]


def test_a_unit_has_at_least_one_wound_point_in_all() -> None:
    one = [("a", "B2", [troop("a0", wounds=0), troop("a1", wounds=1)])]
    assert check_battle(battle(one, TWO)).legal
    none = [("a", "B2", [troop("a0", wounds=0), troop("a1", wounds=0)])]
    assert rules_of(battle(none, TWO)) == [("unit-wounds", "a", None)]


def test_a_unit_with_no_troop_is_unit_empty_only() -> None:
    empty: list[tuple[str, str, list[Troop]]] = [("a", "B2", [])]
    assert rules_of(battle(empty + ONE[:0] + [("c", "B2", [troop("c1")])], TWO)) == [
        ("unit-empty", "a", None)
    ]


def test_units_deploy_into_their_own_six_zones() -> None:
    wrong = [("a", "B4", [troop("a1")])]
    assert rules_of(battle(wrong, TWO)) == [("deployment-zone", "a", None)]
    engaged = [("a", "B3", [troop("a1")])]
    assert rules_of(battle(engaged, TWO)) == [("deployment-zone", "a", None)]


def test_check_reports_every_violation_at_once() -> None:
    bad = [("a", "B4", [troop(f"a{k}", formation=2, points=40) for k in range(3)])]
    assert rules_of(battle(bad, TWO, size=60)) == [
        ("army-points", None, 1),
        ("formation", "a", None),
        ("deployment-zone", "a", None),
    ]


def test_a_unit_has_a_trait_when_any_troop_has_it_and_the_largest_n_counts() -> None:
    traits = unit_traits(
        [
            troop("a", traits=["slow", "+1 engagement"]),
            troop("b", traits=["+3 engagement", "+2 wounds"]),
            troop("c"),
        ]
    )
    assert traits.has("slow")
    assert not traits.has("leader")
    assert (traits.engagement, traits.wounds, traits.shoot) == (3, 2, 0)


@given(
    st.lists(
        st.tuples(st.integers(1, 4), st.integers(0, 2), st.integers(0, 12)), min_size=1, max_size=5
    )
)
def test_formation_and_wounds_are_judged_as_the_rulebook_counts(
    tiles: list[tuple[int, int, int]],
) -> None:
    troops = [troop(f"t{k}", points=p, formation=f, wounds=w) for k, (f, w, p) in enumerate(tiles)]
    report = check_battle(battle([("u", "B2", troops)], TWO, size=100))
    rules = {v.rule for v in report.violations}
    # Counted by hand: no more troops than the lowest formation, at least one wound point.
    assert ("formation" in rules) == (len(tiles) > min(f for f, _, _ in tiles))
    assert ("unit-wounds" in rules) == (sum(w for _, w, _ in tiles) == 0)
    assert ("army-points" in rules) == (sum(p for _, _, p in tiles) > 100)
