"""The rules objects: each game answers the Rules protocol from its own data.

The numbers are those of ``rules.md``; the words of a limit are the band whose outer
line the limit is, so an override never reads as a band it is not.
"""

from __future__ import annotations

import pytest

from tabletop.geom.rules import BaseSpec, Rules
from tabletop.geom.rulesets import ArmadaRuleset, Ruleset, XWingRuleset, get_ruleset


def _as_rules(ruleset: Ruleset) -> Rules:
    return ruleset  # mypy checks that a Ruleset satisfies the protocol


@pytest.mark.parametrize(
    ("name", "cls"), [("xwing2", XWingRuleset), ("xwing1", XWingRuleset), ("armada", ArmadaRuleset)]
)
def test_each_ruleset_is_its_games_rules_object(name: str, cls: type[Ruleset]) -> None:
    rules = _as_rules(get_ruleset(name))
    assert isinstance(rules, cls)
    # Overrides keep the class (dataclasses.replace).
    assert isinstance(get_ruleset(name, {"contested_within": 2}), cls)


@pytest.mark.parametrize(
    ("name", "base", "spec"),
    [
        ("xwing2", "small", BaseSpec(40.0, 40.0, False, False, 40.62, False)),
        ("xwing2", "huge-short", BaseSpec(80.0, 195.0, False, True, 41.45, True)),
        ("xwing1", "large", BaseSpec(80.0, 80.0, False, False, 41.76, False)),
        ("armada", "small", BaseSpec(43.0, 71.0, False, False, None, True)),
        ("armada", "huge", BaseSpec(77.5, 351.4, False, True, None, True)),
        ("armada", "squadron", BaseSpec(31.0, 31.0, True, False, None, False)),
    ],
)
def test_base_specs(name: str, base: str, spec: BaseSpec) -> None:
    assert get_ruleset(name).base_spec(base) == spec


def test_a_squadron_override_changes_its_spec() -> None:
    rules = get_ruleset("armada", {"armada_squadron_diameter": 40})
    assert rules.base_spec("squadron") == BaseSpec(40.0, 40.0, True, False, None, False)


@pytest.mark.parametrize(
    ("name", "limits", "words"),
    [
        (
            "xwing2",
            ("obstacle_edge_limit", "obstacle_spacing_limit", "deployment_limit"),
            ("range 2", "range 1", "range 1"),
        ),
        (
            "armada",
            ("obstacle_edge_limit", "obstacle_spacing_limit", "deployment_limit"),
            ("distance 3", "distance 1", "distance 3"),
        ),
    ],
)
def test_the_words_of_each_limit(
    name: str, limits: tuple[str, ...], words: tuple[str, ...]
) -> None:
    rules = get_ruleset(name)
    assert tuple(rules.limit_words(getattr(rules, limit)) for limit in limits) == words


def test_a_limit_on_no_line_has_no_words_and_one_on_the_line_within_tolerance_does() -> None:
    rules = get_ruleset("xwing2")
    assert rules.limit_words(150.0) is None
    assert rules.limit_words(200.0000005) == "range 2"
    assert rules.limit_words(200.00001) is None


def test_the_obstacle_sets() -> None:
    xwing, armada = get_ruleset("xwing2").obstacle_set, get_ruleset("armada").obstacle_set
    assert (xwing.per_player, xwing.size, dict(xwing.kinds)) == (3, 6, {})
    assert (armada.per_player, armada.size) == (None, 6)
    assert dict(armada.kinds) == {"asteroid": 3, "debris": 2, "station": 1}
    assert get_ruleset("xwing1").obstacle_set.families == frozenset(
        {"core", "core2", "yt2400", "vt49"}
    )


def test_band_scales_and_grammar() -> None:
    xwing, armada = get_ruleset("xwing2"), get_ruleset("armada")
    assert (xwing.band_kinds, xwing.maneuver_grammar, xwing.zero_band("range")) == (
        ("range",),
        "templates",
        True,
    )
    assert get_ruleset("xwing1").zero_band("range") is False
    assert (armada.band_kinds, armada.maneuver_grammar) == (("distance", "range"), "tool")
    assert armada.band_lines == (76.5, 123.5, 124.5, 185.0, 187.0, 245.0, 304.8)
    assert (xwing.setup_area_boxed, armada.setup_area_boxed) == (False, True)
    assert (xwing.ship_guides, armada.ship_guides) == (True, False)
    assert xwing.ruler == ("range", (100.0, 200.0, 300.0))
