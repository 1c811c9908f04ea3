"""1st-edition huge ships: the template at the rear edge of the front base, each line tested.

rules.md, Huge ships, 1e, citing the 1e Huge Ship Rules ("Straight Maneuver Example"):
"sets it so that the bottom line of the template aligns with the rear edge of the GR-75's
front base … moves the GR-75 so that the rear edge of the GR-75's front base aligns with
the 2 speed line"; banks use the notch at that same edge. The front base is the fore half,
so its rear edge is the centre line: the centre moves exactly as the template's far end.

Worked out by hand. ``raider`` is a huge base (80 x 225, h = 112.5) at (457.2, 200) facing
+y. Straight s ends at y = 200 + 40 s (straight 2: 280.0; 2.0 would give 505.0). A right
bank s (R = 80, 130, 180) ends at (457.2 + R(1 - cos 45°), 200 + R sin 45°), heading 45°:
bank 2 right (495.276, 291.924). At straight 2 the front guides (x = 457.2 +- [10, 13.6])
reach 280 + 112.5 + 1.6 = 394.1; another ship on the centre line with half-length h' has
rear guides down to y_c - h' - 1.6: a small ship (h' = 20) overlaps when y_c < 415.7, a
large one (h' = 40) when y_c < 435.7, a huge one when y_c < 508.2. The slow shapely model
of test_huge_ships confirms each line.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from common import run, run_json, scene_file, ships
from test_huge_ships import X, base_with_guides, detail, fly, rock, scene_of, shares_area

from tabletop.geom.objects import Ship

MOVE_SENTENCE = (
    "sets it so that the bottom line of the template aligns with the rear edge of the "
    "GR-75's front base … moves the GR-75 so that the rear edge of the GR-75's front base "
    "aligns with the 2 speed line"
)
S45 = math.sqrt(0.5)


@pytest.mark.parametrize(("base", "line"), [("small", 415.7), ("large", 435.7), ("huge", 508.2)])
def test_the_1e_lines_worked_out_by_hand_agree_with_a_slow_model(base: str, line: float) -> None:
    mover = base_with_guides("huge", 280.0)
    assert not shares_area(mover, base_with_guides(base, line))
    assert shares_area(mover, base_with_guides(base, line - 0.01))
    assert not shares_area(mover, base_with_guides(base, line + 0.01))


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ("straight 1", (X, 240.0, 90.0)),
        ("straight 2", (X, 280.0, 90.0)),
        ("straight 5", (X, 400.0, 90.0)),
        ("bank 1 right", (X + 80.0 * (1 - S45), 200.0 + 80.0 * S45, 45.0)),
        ("bank 2 right", (X + 130.0 * (1 - S45), 200.0 + 130.0 * S45, 45.0)),
        ("bank 3 left", (X - 180.0 * (1 - S45), 200.0 + 180.0 * S45, 135.0)),
        ("stationary", (X, 200.0, 90.0)),
    ],
)
def test_1e_huge_maneuvers_move_the_front_base_s_rear_edge_to_the_speed_line(
    words: str, expected: tuple[float, float, float]
) -> None:
    """1e Huge Ship Rules, "Straight Maneuver Example" (rules.md, Huge ships, 1e): the
    rear edge of the front base, the centre line, goes from the template's bottom line to
    its speed line; banks use the notch at that same edge."""
    result = fly(scene_of("xwing1"), words)
    assert result.final.tolist() == pytest.approx(list(expected), abs=1e-9)
    if words != "stationary":
        assert result.to_json()["maneuver_rule"] == {
            "source": '1e Huge Ship Rules, "Straight Maneuver Example"',
            "text": MOVE_SENTENCE,
        }


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ("straight 2", (X, 505.0, 90.0)),
        ("bank 2 right", (X + 130.0 * (1 - S45) + 112.5 * S45, 312.5 + (130 + 112.5) * S45, 45.0)),
    ],
)
def test_2e_huge_maneuvers_move_as_every_base(
    words: str, expected: tuple[float, float, float]
) -> None:
    """rules.md, Final poses: straight s (0, 2h + 40s); bank s (R(1 - cos45°) + h sin45°,
    h + R sin45° + h cos45°): 2.0 has no huge-ship exception to how the template is set."""
    result = fly(scene_of("xwing2"), words)
    assert result.final.tolist() == pytest.approx(list(expected), abs=1e-9)
    assert result.to_json()["maneuver_rule"]["source"] == "rules.md, Final poses (every base)"


@pytest.mark.parametrize(
    ("base", "y", "destroyed", "dice"),
    [
        ("small", 415.7, False, 0),
        ("small", 415.69, True, 1),
        ("small", 415.71, False, 0),
        ("large", 435.7, False, 0),
        ("large", 435.69, True, 2),
        ("large", 435.71, False, 0),
    ],
)
def test_1e_small_and_large_ships_overlapped_are_destroyed(
    base: str, y: float, destroyed: bool, dice: int
) -> None:
    """rules.md, Huge ships, 1e: "A final position overlapping small or large ships
    destroys them (the move completes; the huge ship's player rolls one attack die per
    small and two per large ship overlapped, and suffers the hits)"."""
    result = fly(scene_of("xwing1", Ship("other", base, X, y)))
    assert result.final.tolist() == pytest.approx([X, 280.0, 90.0])
    assert result.complete
    data = result.to_json()
    assert data["destroyed"] == (["other"] if destroyed else [])
    damage = [(d["ship"], d["amount"], d["kind"], d["source"]) for d in data["damage"]]
    assert damage == ([("raider", dice, "attack-dice", "1e Huge Ship Rules")] if destroyed else [])
    if destroyed:
        assert data["damage"][0]["rule"].startswith("A final position overlapping small")


def test_1e_a_bank_s_line_along_its_final_heading() -> None:
    """Bank 2 right ends heading 45° at P = (495.276, 291.924); a small ship facing the
    same way on that heading's line at distance d overlaps when d < 114.1 + 21.6 = 135.7."""
    end = (X + 130.0 * (1 - S45), 200.0 + 130.0 * S45)
    for d, overlapped in ((135.7 + 1e-3, False), (135.7 - 0.01, True), (135.7 + 0.01, False)):
        other = Ship("x1", "small", end[0] + d * S45, end[1] + d * S45, 45.0)
        data = fly(scene_of("xwing1", other), "bank 2 right").to_json()
        assert data["destroyed"] == (["x1"] if overlapped else []), d


@pytest.mark.parametrize(
    ("y", "final_y"),
    [(508.2, 280.0), (508.21, 280.0), (508.19, 280.0 - 0.01), (450.0, 221.8)],
)
def test_1e_huge_over_a_huge_ship_bumps_and_both_take_a_faceup_card(
    y: float, final_y: float
) -> None:
    """rules.md, Huge ships, 1e: "Overlapping another huge ship uses the standard bump
    below, without skipping the action step, and both are dealt one faceup damage card".
    Bumped, the raider's front guides end touching lambda's rear guides: y = y_L - 2 x
    114.1 (450 - 228.2 = 221.8)."""
    result = fly(scene_of("xwing1", Ship("lambda", "huge", X, y)))
    assert result.final[1] == pytest.approx(final_y, abs=1e-6)
    data = result.to_json()
    if y >= 508.2:
        assert result.complete
        assert data["damage"] == []
        return
    assert not result.complete
    assert result.bumped == "lambda"
    assert data["skip_action"] is False
    assert [(d["ship"], d["amount"], d["kind"]) for d in data["damage"]] == [
        ("raider", 1, "faceup-card"),
        ("lambda", 1, "faceup-card"),
    ]


@pytest.mark.parametrize(
    ("y", "fore"), [(402.5, False), (402.49, True), (402.51, False), (350.0, True)]
)
def test_1e_only_the_final_position_counts_and_its_obstacles_are_removed(
    y: float, fore: bool
) -> None:
    """rules.md, Huge ships, 1e: "each section that overlaps obstacles is reported with
    them, and every obstacle the final base overlaps is removed from the play area; the
    template overlapping an obstacle has no effect". The final base's front edge is at
    392.5; a 20 mm rock centred on the line touches it at y = 402.5. A rock at y 150,
    under the start's aft half only (the final aft half reaches down to 167.5; 160 is
    clear), is not hit at all."""
    obstacles = (rock("ahead", X, y), rock("behind", X, 150.0))
    result = fly(scene_of("xwing1", obstacles=obstacles))
    hit = ("ahead",) if fore else ()
    assert result.obstacles == tuple((i, "ends-on") for i in hit)
    assert detail(result).removed == hit
    assert dict(detail(result).sections) == {"fore": hit, "aft": ()}


def test_the_move_command_cites_the_1e_sentence(tmp_path: Path) -> None:
    text = ships("xwing1", ("raider", "huge", X, 200.0, 90.0), ("xwing", "small", X, 400.0, 90.0))
    path = scene_file(tmp_path, text)
    data = run_json("move", path, "raider", "straight", "2", "--json")
    assert data["final"]["at"] == [457.2, 280.0]
    assert data["destroyed"] == ["xwing"]
    code, out, _ = run("move", path, "raider", "straight 2")
    assert code == 0
    assert (
        f'  template:   1e Huge Ship Rules, "Straight Maneuver Example": "{MOVE_SENTENCE}"\n' in out
    )
    assert '  rule:       1e Huge Ship Rules: "A final position overlapping small' in out
