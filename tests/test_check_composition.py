"""``tabletop check``: the tournament composition of the obstacle set (X-Wing and Armada).

Counts, families, devices and duplicates are checked against the formats' lists in
``rules.md``; the placements themselves are tested in ``test_check_rules.py``.
"""

from __future__ import annotations

from typing import Any

import pytest
from check_support import (
    ARMADA_STANDARD,
    XWING_TOURNAMENT,
    rules_of,
    run_check,
    scene,
    tournament,
)

from tabletop.obstacles.legality import CheckReport

# -- obstacle-composition ---------------------------------------------------------------


def composition(report: CheckReport) -> list[tuple[tuple[str, ...], str]]:
    return [(v.objects, v.message) for v in rules_of(report, "obstacle-composition")]


def test_xwing_tournament_legal() -> None:
    report = run_check(tournament())
    assert report.legal, [v.message for v in report.violations]
    assert report.checked["obstacle-composition"] == 6


def test_xwing_standard_format_has_no_composition_rule() -> None:
    data = tournament(changes={"rock-b": {"token": "loosecargo"}})
    data["format"] = "standard"
    report = run_check(data)
    assert "obstacle-composition" not in report.checked
    assert not rules_of(report, "obstacle-composition")


def test_xwing_tournament_duplicate_token() -> None:
    report = run_check(tournament(changes={"rock-b": {"token": "coreasteroid0"}}))
    found = composition(report)
    assert len(found) == 1
    objects, message = found[0]
    assert objects == ("rock-a", "rock-b")
    assert "coreasteroid0" in message


def test_xwing_tournament_same_token_for_both_players_is_allowed() -> None:
    # "each player exactly 3 unique tokens": uniqueness is per player.
    report = run_check(tournament(changes={"rock-d": {"token": "coreasteroid0"}}))
    assert composition(report) == []


@pytest.mark.parametrize("device", ["loosecargo", "spareparts", "electrochaffcloud"])
def test_xwing_tournament_no_devices(device: str) -> None:
    report = run_check(tournament(changes={"gas-f": {"token": device}}))
    found = composition(report)
    assert [objects for objects, _ in found] == [("gas-f",)]
    assert device in found[0][1]


@pytest.mark.parametrize(
    ("ruleset", "token", "allowed"),
    [
        ("xwing1", "gascloud2", False),  # gas clouds are 2.0 only
        ("xwing1", "pomasteroid1", False),
        ("xwing1", "pomdebris2", False),
        ("xwing1", "core2asteroid1", True),
        ("xwing1", "vt49decimatordebris2", True),
        ("xwing2", "pomasteroid1", True),
        ("xwing2", "gascloud5", True),
        ("xwing2", "yt2400debris0", True),
    ],
)
def test_xwing_tournament_families(ruleset: str, token: str, allowed: bool) -> None:
    # gas-f is swapped for the token under test; in xwing1 gas-f's own gascloud2 would
    # be refused too, so the swap leaves only the token under test in question.
    report = run_check(tournament(ruleset, {"gas-f": {"token": token}}))
    found = composition(report)
    assert [objects for objects, _ in found] == ([] if allowed else [("gas-f",)])


def test_xwing_tournament_player_counts() -> None:
    # gas-f is player 1's: 4 against 2. Both players' tokens are listed.
    report = run_check(tournament(changes={"gas-f": {"player": 1}}))
    found = composition(report)
    assert sorted(objects for objects, _ in found) == [
        ("rock-a", "rock-b", "debris-c", "gas-f"),
        ("rock-d", "debris-e"),
    ]
    for objects, message in found:
        assert f"brought {len(objects)} obstacles" in message


def test_xwing_tournament_missing_player_and_custom_outline() -> None:
    obstacles = [dict(o) for o in XWING_TOURNAMENT]
    del obstacles[5]["player"]
    obstacles[2] = {
        "id": "homemade",
        "outline": [[-20.0, -10.0], [20.0, -10.0], [0.0, 25.0]],
        "kind": "asteroid",
        "at": [655.0, 310.0],
        "player": 1,
    }
    report = run_check(scene("xwing2", "3x3ft", format="tournament", obstacles=obstacles))
    found = composition(report)
    ids = sorted(objects for objects, _ in found)
    assert ("homemade",) in ids
    assert ("gas-f",) in ids
    assert ("rock-d", "debris-e") in ids  # player 2 now has only two
    messages = " ".join(m for _, m in found)
    assert "custom outline" in messages
    assert "no player" in messages


def armada_set(**changes: dict[str, Any]) -> dict[str, Any]:
    obstacles = [dict(o) | changes.get(o["id"], {}) for o in ARMADA_STANDARD]
    return scene("armada", "6x3ft", format="tournament", obstacles=obstacles)


def test_armada_standard_set_legal() -> None:
    report = run_check(armada_set())
    assert report.legal, [v.message for v in report.violations]
    assert report.checked["obstacle-composition"] == 6


def test_armada_wrong_counts() -> None:
    # A debris field swapped for a fourth asteroid field: 4 asteroids, 1 debris.
    report = run_check(armada_set(muffin={"token": "asteroid-1"}))
    found = dict(composition(report))
    assert set(found) == {
        ("eclair", "sharktooth", "tornado", "muffin"),
        ("chicken-leg",),
        ("eclair", "muffin"),  # and the same asteroid twice
    }
    assert "4 asteroid" in found[("eclair", "sharktooth", "tornado", "muffin")]
    assert "1 debris" in found[("chicken-leg",)]


def test_armada_no_station() -> None:
    obstacles = [dict(o) for o in ARMADA_STANDARD[1:]]
    report = run_check(scene("armada", "6x3ft", format="tournament", obstacles=obstacles))
    found = composition(report)
    assert [objects for objects, _ in found] == [()]
    assert "0 station" in found[0][1]


def test_armada_foreign_kind() -> None:
    obstacles = [dict(o) for o in ARMADA_STANDARD]
    obstacles.append(
        {
            "id": "cloud",
            "outline": [[-10.0, -10.0], [10.0, -10.0], [0.0, 10.0]],
            "kind": "gas",
            "at": [914.4, 700.0],
        }
    )
    report = run_check(scene("armada", "6x3ft", format="tournament", obstacles=obstacles))
    assert [objects for objects, _ in composition(report)] == [("cloud",)]
