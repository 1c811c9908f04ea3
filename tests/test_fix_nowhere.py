"""A fix proven null cheaply is null, and never where a legal place exists.

:func:`tabletop.obstacles.fixing.shortest_fix` first tries to prove that no move is legal (stage 0:
every other obstacle grown by a hair less than the spacing limit, shifted back by points
of the outline, covering the box of moves the edge rules allow). These tests hold it at
the line (a legal corridor half a millimetre wide, one shut by 0.01 mm, and one closed
exactly on the line), on a
table where nothing has a legal place, and against the stages without it: on crammed
random tables the fix is the same to the last bit whether stage 0 ran or not.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.app.scene.scenefile import parse_scene
from tabletop.geom.areas import play_area
from tabletop.geom.rulesets import get_ruleset
from tabletop.obstacles.catalog import catalog
from tabletop.obstacles.fixing import grown_by_spacing, shortest_fix
from tabletop.obstacles.legality import check
from tabletop.obstacles.placement import fix_move, legal_region, placement_limits

SQUARE = [[-10.0, -10.0], [10.0, -10.0], [10.0, 10.0], [-10.0, 10.0]]
TOKENS = [name for name in catalog(get_ruleset("xwing2")) if not name.startswith("hugeship")]


def corridor(gap: float) -> dict[str, Any]:
    """M (a 20 mm square) between A and B, where only a corridor `gap` mm wide is legal.

    X-Wing, edge limit 200 and spacing 100. The table is 422 mm high, so M's centre may
    only be at y in (210, 212). A's right side is at x = 310, so M's centre must be past
    x = 420; B's left side is at 530 + gap, so M's centre must be short of 420 + gap.
    Past B there is no room (M's centre past 660, short of 860 - 210 = 650), nor before A.
    M starts at x = 380, 70 mm from A: its fix is 40 mm (and the clearance) to the right
    when the corridor is open, and null when it is shut.
    """
    return {
        "ruleset": "xwing2",
        "area": {"width": 860.0, "height": 422.0},
        "obstacles": [
            {"id": "m", "outline": SQUARE, "at": [380.0, 211.0]},
            {"id": "a", "outline": SQUARE, "at": [300.0, 211.0]},
            {"id": "b", "outline": SQUARE, "at": [540.0 + gap, 211.0]},
        ],
    }


def fix_of(data: dict[str, Any], ident: str) -> Any:
    fixes = {v.objects[0]: v.fix for v in check(parse_scene(data)).violations if v.fixable}
    return fixes[ident]


def test_a_corridor_just_open_is_found() -> None:
    # Half a millimetre: stage 1 builds its regions a little larger than the true ones
    # (up to 0.12 mm on a round corner), so a corridor narrower than a quarter of a
    # millimetre reads as shut, with or without stage 0.
    fix = fix_of(corridor(0.5), "m")
    assert fix is not None
    dx, dy = fix["move"]
    assert dx == pytest.approx(40.0 + 1e-5, abs=1e-6)
    assert dy == pytest.approx(0.0, abs=1e-6)


@pytest.mark.parametrize("gap", [0.0, -0.01])
def test_a_corridor_shut_or_on_the_line_has_no_fix(gap: float) -> None:
    # On the line (gap 0) M would be exactly 100 mm from both: not "more than", so null.
    assert fix_of(corridor(gap), "m") is None


def crammed(pitch: float) -> dict[str, Any]:
    """Sixty catalog tokens on an 8 x 8 grid (corners left out) round the table's middle."""
    cells = [(r, c) for r in range(8) for c in range(8) if r in (1, 2, 3, 4, 5, 6) or 0 < c < 7]
    obstacles = [
        {
            "id": f"t{i}",
            "token": TOKENS[i % len(TOKENS)],
            "at": [round(457.2 + (c - 3.5) * pitch, 3), round(457.2 + (r - 3.5) * pitch, 3)],
            "angle": (37.0 * i) % 360,
        }
        for i, (r, c) in enumerate(cells)
    ]
    return {"ruleset": "xwing2", "area": "3x3ft", "obstacles": obstacles}


def test_sixty_crammed_tokens_have_no_legal_place() -> None:
    data = crammed(70.0)
    assert len(data["obstacles"]) == 60
    scene = parse_scene(data)
    fixable = [v for v in check(scene).violations if v.fixable]
    assert {v.objects[0] for v in fixable} == {o["id"] for o in data["obstacles"]}
    assert all(v.fix is None for v in fixable)
    # The plain model, the whole polygonal legal region, agrees for a corner token and a
    # middle one: it is empty.
    limits = placement_limits(scene.ruleset, scene.area)
    for ident in ("t0", "t27"):
        (me,) = [o for o in scene.obstacles if o.id == ident]
        others = [o.polygon() for o in scene.obstacles if o.id != ident]
        region = legal_region(me.outline, me.angle, me.flipped, others, limits)
        assert fix_move(region, (me.x, me.y)) is None


def without_stage_zero(
    polygon: shapely.Geometry, others: list[shapely.Geometry], limits: Any
) -> Any:
    # Nothing grown covers nothing: stage 0 proves no fix null, the other stages decide.
    return shortest_fix(polygon, others, limits, grown=[shapely.Polygon()] * len(others))


@settings(max_examples=6, deadline=None)
@given(
    count=st.integers(min_value=6, max_value=14),
    spread=st.floats(min_value=120.0, max_value=360.0),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_stage_zero_changes_no_fix(count: int, spread: float, seed: int) -> None:
    rng = np.random.default_rng(seed)
    ruleset, area = get_ruleset("xwing2"), play_area("3x3ft")
    limits = placement_limits(ruleset, area)
    entries = [
        {
            "id": f"t{i}",
            "token": TOKENS[int(rng.integers(len(TOKENS)))],
            "at": [float(457.2 + rng.uniform(-spread, spread) / 2) for _ in range(2)],
            "angle": float(rng.uniform(0.0, 360.0)),
        }
        for i in range(count)
    ]
    scene = parse_scene({"ruleset": "xwing2", "area": "3x3ft", "obstacles": entries})
    shapes = [o.polygon() for o in scene.obstacles]
    for k in range(min(count, 4)):
        others = shapes[:k] + shapes[k + 1 :]
        ours = shortest_fix(shapes[k], others, limits)
        theirs = without_stage_zero(shapes[k], others, limits)
        if theirs is None:
            assert ours is None
        else:
            assert ours is not None
            assert ours.tolist() == theirs.tolist()


def test_grown_regions_lie_inside_the_spacing_line() -> None:
    # A token's grown outline: every vertex within a hair less than the spacing limit
    # (those of a round corner on it, those where two offsets meet inside it).
    token = parse_scene(crammed(70.0)).obstacles[5].polygon()
    (grown,) = grown_by_spacing([token], 100.0)
    corners = shapely.points(shapely.get_coordinates(grown))
    gaps = np.asarray(shapely.distance(corners, token))
    assert float(np.max(gaps)) <= 100.0 - 1e-6 + 1e-9
    assert math.isclose(float(np.median(gaps)), 100.0 - 1e-6, abs_tol=1e-9)
