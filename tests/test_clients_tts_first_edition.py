"""1st-edition mod obstacles: known by name as the mod knows them, matched by collider.

Facts (tabletop/app/clients/facts.py): 0.036125 TTS units per mm, the Green-Red mat at
x = -20.5142, an obstacle is an object whose name holds 'Asteroid' or 'Debris'
(MoveModule.SelectObstacles), and a collider file of the outline table is that table's
token (unconfirmed: the 1st-edition mod's own collider files were not available).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tts_saves import OUTLINES, RED_BLUE_X, mat, outlined_obstacle, save

from tabletop.app.clients import ClientImport, read_client

UNITS_PER_MM = 0.036125


def _first_edition(objects: list[dict[str, Any]]) -> ClientImport:
    document = save([mat("gr", "Green-Red Playmat", RED_BLUE_X, marked=False), *objects], mode="")
    document["LuaScript"] = "mm_igu_ratio = 0.036125\n"
    return read_client(json.dumps(document).encode(), name="first.json")


def test_obstacles_by_collider_at_the_first_edition_ratio() -> None:
    rock = outlined_obstacle(
        "a3", "Asteroid 3", "Core3-col.obj", 300.0, 400.0, 30.0, False,
        units_per_mm=UNITS_PER_MM,
    )  # fmt: skip
    tfa = outlined_obstacle(
        "t5", "TFA Asteroid 5", "TFA5-col.obj", 600.0, 500.0, 200.0, True,
        units_per_mm=UNITS_PER_MM,
    )  # fmt: skip
    position = _first_edition([rock, tfa])
    assert (position.source.client, position.ruleset) == ("tts-xwing1", "xwing1")
    got = [(i.id, i.became, i.flipped) for i in position.imported]
    assert got == [
        ("Asteroid 3", OUTLINES["Core3-col.obj"]["token"], False),
        ("TFA Asteroid 5", OUTLINES["TFA5-col.obj"]["token"], True),
    ]
    for placed, (x, y, angle) in zip(
        position.imported, [(300.0, 400.0, 30.0), (600.0, 500.0, 200.0)], strict=True
    ):
        assert (placed.x_mm, placed.y_mm) == pytest.approx((x, y), abs=1e-3)
        assert (placed.angle_deg - angle + 180.0) % 360.0 - 180.0 == pytest.approx(0.0, abs=1e-3)
    # Written at the catalog's size: the residual is the table's fit (under 5 mm).
    assert [m.token for m in position.matches] == [i.became for i in position.imported]
    assert all(m.residual_mm < 5.0 for m in position.matches)
    assert any("1st-edition mod: an obstacle whose collider" in t for t in position.unconfirmed)


def test_other_colliders_and_other_names_are_skipped_with_their_reason() -> None:
    unknown = outlined_obstacle(
        "d2", "Debris 2", "Debris2-col.obj", 300.0, 400.0, 0.0, False, units_per_mm=UNITS_PER_MM
    )
    unknown["CustomMesh"]["ColliderURL"] = "http://pastebin.com/raw/abcdEFGH"
    chute = {**unknown, "GUID": "c1", "Nickname": "Rigged Cargo Chute debris"}
    position = _first_edition([unknown, chute])
    assert position.imported == ()
    reasons = {s.id: s.reason for s in position.skipped}
    assert "a 1st-edition obstacle whose collider (abcdEFGH)" in reasons["d2"]
    assert "meshes were not available" in reasons["d2"]
    assert "not a ship or an obstacle of the mod" in reasons["c1"]
