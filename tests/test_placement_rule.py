"""The obstacle placement rule is stated once, and every path follows it.

:class:`tabletop.geom.rules.PlacementRule` (a ruleset's ``obstacle_placement``) states the
edge and spacing limits, that both are strict ("more than"), and whether obstacles must
lie inside the setup area. The legality check, the legal region, the fix and the batch
paths (numpy, numba and compiled ahead of time) must all derive from it: each test here
replaces the stated rule (the game constants stay as printed) and sees every path
follow. A path that read a limit of its own would keep the printed one and fail.

The tokens are ``hugeship-short``: an 80 x 195 mm rectangle about its reference point,
so every distance below is worked out by hand from its half sizes (40 and 97.5 mm).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from typing import Any
from unittest import mock

import numpy as np
import pytest
import shapely

from tabletop.geom.areas import play_area
from tabletop.geom.batch import BACKEND_ENV, backend
from tabletop.geom.rules import PlacementRule
from tabletop.geom.rulesets import ArmadaRuleset, Ruleset, XWingRuleset, get_ruleset
from tabletop.obstacles import batch
from tabletop.obstacles.catalog import catalog
from tabletop.obstacles.fixing import FIX_CLEARANCE_MM, shortest_fix
from tabletop.obstacles.legality import check
from tabletop.obstacles.placement import legal_region, placement_limits
from tabletop.obstacles.scene import Obstacle, Scene

PATHS = ("aot", "numba", "numpy")
TOKEN = "hugeship-short"
HALF_WIDTH, HALF_LENGTH = 40.0, 97.5
#: The X-Wing rule replaced: 150 mm from the edges (printed: 200), 60 mm apart (printed: 100).
XWING_REPLACED = PlacementRule(edge=150.0, spacing=60.0, inside_setup_area=False)
#: Armada's rule without its setup area (printed limits: distance 3 and distance 1).
ARMADA_REPLACED = PlacementRule(edge=185.0, spacing=76.5, inside_setup_area=False)


@contextlib.contextmanager
def path(name: str) -> Iterator[None]:
    """Select one batch path for the block; the numba path skips without numba."""
    if name == "numba":
        pytest.importorskip("numba")
    with mock.patch.dict(os.environ, {BACKEND_ENV: name}):
        assert backend() == name
        yield


@contextlib.contextmanager
def stated(
    monkeypatch: pytest.MonkeyPatch, game: type[Ruleset], rule: PlacementRule
) -> Iterator[None]:
    """Replace the placement rule a game's rules object states, for the block."""
    with monkeypatch.context() as patch:
        patch.setattr(game, "obstacle_placement", property(lambda self: rule))
        yield


def obstacles(ruleset: Ruleset, places: Sequence[tuple[str, float, float]]) -> tuple[Obstacle, ...]:
    return tuple(
        Obstacle.from_token(ruleset, f"o{k}", name, x, y, 0.0, False)
        for k, (name, x, y) in enumerate(places)
    )


def every_path(ruleset: Ruleset, places: Sequence[tuple[str, float, float]]) -> dict[str, Any]:
    """What each path says of a setup whose last obstacle is the one placed.

    ``check``: the scene's legality; the batch paths by name; ``region``: whether the
    legal region of the last obstacle holds its reference point; ``fix``: the shortest
    move of the last obstacle (None: nowhere at this rotation); ``setup``: whether the
    random setup's test (:meth:`PlacementLimits.allows`) accepts the last obstacle.
    """
    area = play_area(ruleset.default_area)
    placed = obstacles(ruleset, places)
    found: dict[str, Any] = {
        "check": check(Scene(ruleset, area, obstacles=placed), fixes=False).legal
    }
    rows = np.array([[[x, y, 0.0, 0.0] for _, x, y in places]])
    for name in PATHS:
        with path(name):
            found[name] = bool(
                batch.setups_legal([n for n, _, _ in places], rows, ruleset=ruleset)[0]
            )
    limits = placement_limits(ruleset, area)
    *others, last = placed
    outline = catalog(ruleset)[places[-1][0]].outline
    region = legal_region(outline, 0.0, False, [o.polygon() for o in others], limits)
    found["region"] = bool(shapely.contains_xy(region, places[-1][1], places[-1][2]))
    found["fix"] = shortest_fix(last.polygon(), [o.polygon() for o in others], limits)
    gaps = [float(shapely.distance(last.polygon(), o.polygon())) for o in others]
    found["setup"] = limits.allows(last.polygon().bounds, min(gaps) if gaps else None)
    return found


def legal_everywhere(found: dict[str, Any]) -> bool:
    """Whether every path calls the setup legal (the fix: no move needed)."""
    fix = found["fix"]
    assert fix is not None
    flags = [found["check"], found["region"], found["setup"], *(found[name] for name in PATHS)]
    return all(flags) and bool(np.all(np.asarray(fix) == 0.0))


def illegal_everywhere(found: dict[str, Any]) -> bool:
    flags = [found["check"], found["region"], found["setup"], *(found[name] for name in PATHS)]
    return not any(flags)


def test_every_path_follows_a_replaced_edge_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """170 mm from the bottom edge: legal only under the replaced 150 mm limit.

    At 140 mm the fix moves the token up by 150 - 140 mm plus the fix clearance; under
    the printed 200 mm, by 60 mm plus the clearance.
    """
    ruleset = get_ruleset("xwing2")
    at_170 = [(TOKEN, 457.2, HALF_LENGTH + 170.0)]
    at_140 = [(TOKEN, 457.2, HALF_LENGTH + 140.0)]
    assert illegal_everywhere(every_path(ruleset, at_170))
    printed_fix = every_path(ruleset, at_140)["fix"]
    assert printed_fix is not None
    assert np.allclose(printed_fix, [0.0, 60.0 + FIX_CLEARANCE_MM], atol=1e-6)
    with stated(monkeypatch, XWingRuleset, XWING_REPLACED):
        assert legal_everywhere(every_path(ruleset, at_170))
        found = every_path(ruleset, at_140)
        assert illegal_everywhere(found)
        assert found["fix"] is not None
        assert np.allclose(found["fix"], [0.0, 10.0 + FIX_CLEARANCE_MM], atol=1e-6)


def test_every_path_follows_a_replaced_spacing_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two tokens side by side, 80 mm apart: legal only under the replaced 60 mm spacing.

    At 50 mm apart the fix moves the second token right by 60 - 50 mm plus the clearance.
    """
    ruleset = get_ruleset("xwing2")

    def apart(gap: float) -> list[tuple[str, float, float]]:
        return [(TOKEN, 300.0, 457.2), (TOKEN, 300.0 + 2 * HALF_WIDTH + gap, 457.2)]

    assert illegal_everywhere(every_path(ruleset, apart(80.0)))
    with stated(monkeypatch, XWingRuleset, XWING_REPLACED):
        assert legal_everywhere(every_path(ruleset, apart(80.0)))
        found = every_path(ruleset, apart(50.0))
        assert illegal_everywhere(found)
        assert found["fix"] is not None
        assert np.allclose(found["fix"], [10.0 + FIX_CLEARANCE_MM, 0.0], atol=1e-3)


def test_every_path_follows_the_setup_area_part_of_the_rule(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An Armada station 1 mm outside the setup area (x = 304.8) but 303.8 mm from the edge.

    Illegal by the printed rule; legal everywhere once the stated rule drops the setup area.
    """
    ruleset = get_ruleset("armada")
    outline = catalog(ruleset)["station"].outline
    x = 304.8 - 1.0 - float(outline[:, 0].min())
    outside = [("station", x, 457.2)]
    assert illegal_everywhere(every_path(ruleset, outside))
    with stated(monkeypatch, ArmadaRuleset, ARMADA_REPLACED):
        assert legal_everywhere(every_path(ruleset, outside))


@pytest.mark.parametrize("offset", [0.0, 5e-7, -5e-7, 1e-7, -1e-7, 2e-6, -2e-6, 1e-3])
def test_the_replaced_edge_line_is_strict_on_every_exact_path(
    monkeypatch: pytest.MonkeyPatch, offset: float
) -> None:
    """At the replaced edge line and a hair either side, each exact path answers as the rule.

    The rule's own predicate (:meth:`PlacementRule.clears_edge`) is the oracle: on the
    line, within the 1e-6 mm tolerance, is illegal. (The region and the fix stand back
    from the line by the fix clearance, so they are not asked here.)
    """
    ruleset = get_ruleset("xwing2")
    distance = 150.0 + offset
    places = [(TOKEN, 457.2, HALF_LENGTH + distance)]
    with stated(monkeypatch, XWingRuleset, XWING_REPLACED):
        found = every_path(ruleset, places)
    expected = XWING_REPLACED.clears_edge(distance)
    assert expected == (offset > 1e-6)
    exact = [found["check"], found["setup"], *(found[name] for name in PATHS)]
    assert exact == [expected] * (2 + len(PATHS))


@pytest.mark.parametrize("offset", [0.0, 5e-7, -5e-7, 2e-6, -2e-6, 1e-3])
def test_the_replaced_spacing_line_is_strict_on_every_exact_path(
    monkeypatch: pytest.MonkeyPatch, offset: float
) -> None:
    """Two tokens 60 mm apart (the replaced spacing line) and a hair either side."""
    ruleset = get_ruleset("xwing2")
    gap = 60.0 + offset
    places = [(TOKEN, 300.0, 457.2), (TOKEN, 300.0 + 2 * HALF_WIDTH + gap, 457.2)]
    with stated(monkeypatch, XWingRuleset, XWING_REPLACED):
        found = every_path(ruleset, places)
    expected = XWING_REPLACED.clears_spacing(gap)
    assert expected == (offset > 1e-6)
    exact = [found["check"], found["setup"], *(found[name] for name in PATHS)]
    assert exact == [expected] * (2 + len(PATHS))


@pytest.mark.parametrize(
    ("name", "area", "rule", "setup_bounds"),
    [
        # rules.md: X-Wing range 2 from the edges, range 1 apart, the whole table.
        ("xwing2", "3x3ft", PlacementRule(200.0, 100.0, False), (0.0, 0.0, 914.4, 914.4)),
        ("xwing1", "3x3ft", PlacementRule(200.0, 100.0, False), (0.0, 0.0, 914.4, 914.4)),
        # Armada: distance 3 from the edges, distance 1 apart, inside the setup markers
        # (1 ft from each short edge of a 6 x 3 ft table); a square table has no strip.
        ("armada", "6x3ft", PlacementRule(185.0, 76.5, True), (304.8, 0.0, 1524.0, 914.4)),
        ("armada", "3x3ft", PlacementRule(185.0, 76.5, True), (0.0, 0.0, 914.4, 914.4)),
    ],
)
def test_each_game_states_its_rule_and_setup_area(
    name: str, area: str, rule: PlacementRule, setup_bounds: tuple[float, ...]
) -> None:
    ruleset = get_ruleset(name)
    assert ruleset.obstacle_placement == rule
    assert ruleset.setup_area(play_area(area)).bounds == pytest.approx(setup_bounds, abs=1e-9)


def test_the_pictures_and_the_board_shade_by_the_stated_rule(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The area left to obstacles, drawn by ``render`` and the board, moves with the rule.

    Printed: 200 mm in from each edge of the 914.4 mm table; replaced: 150 mm.
    """
    from tabletop.app.board.views import _allowed_box

    ruleset = get_ruleset("xwing2")
    area = play_area("3x3ft")
    scene = Scene(ruleset, area)
    assert _allowed_box(scene).bounds == pytest.approx((200.0, 200.0, 714.4, 714.4))
    with stated(monkeypatch, XWingRuleset, XWING_REPLACED):
        assert placement_limits(ruleset, area).allowed_area().bounds == pytest.approx(
            (150.0, 150.0, 764.4, 764.4)
        )
        assert _allowed_box(scene).bounds == pytest.approx((150.0, 150.0, 764.4, 764.4))
        # The random setup draws a token's reference point from the box the edge leaves:
        # 150 mm plus the token's half size from each edge.
        box = placement_limits(ruleset, area).edge_box(
            (-HALF_WIDTH, -HALF_LENGTH, HALF_WIDTH, HALF_LENGTH), 0.0
        )
        assert box == pytest.approx((190.0, 247.5, 914.4 - 190.0, 914.4 - 247.5))


def test_the_picture_shades_where_the_armada_rule_forbids() -> None:
    """Armada 6 x 3 ft: the setup strip (304.8 to 1524 mm) less 185 mm from every edge."""
    limits = placement_limits(get_ruleset("armada"), play_area("6x3ft"))
    assert limits.allowed_area().bounds == pytest.approx((304.8, 185.0, 1524.0, 729.4))
    with pytest.raises(AttributeError):
        limits.edge = 1.0  # type: ignore[misc]  # the rule is stated once, not here
