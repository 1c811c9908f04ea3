"""The obstruction kernels skip an outline whose holding disk a segment passes well clear
of: the outline's farthest vertex, turned and flipped, grazed at the tolerance.

The disk is centred on the token's reference point with the radius of its farthest
vertex; turning and flipping keep every vertex's distance from that point. A segment
square to the radius through the farthest vertex, nudged outward by less than the
tolerance, touches the token; nudged by more, it is clear, on every path, as the scalar
`obstructed_segment` has it.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_batch_obstacles import PATHS, RULESETS, obstacles_of, path

from tabletop.obstacles import batch
from tabletop.obstacles.obstruction import obstructed_segment

#: Outward nudges of the segment from the farthest vertex, mm, and whether it touches.
NUDGES = [
    (0.0, True),
    (5e-7, True),
    (1e-6 - 1e-9, True),
    (1e-6 + 1e-9, False),
    (2e-6, False),
    (2e-3, False),
]


@pytest.mark.parametrize("name", PATHS)
@pytest.mark.parametrize("flipped", [0.0, 1.0])
@pytest.mark.parametrize("angle", [0.0, 37.5, 90.0, 211.0])
def test_farthest_vertex_grazed_at_the_tolerance(name: str, flipped: float, angle: float) -> None:
    ruleset = RULESETS["xwing2"]
    token = "core2asteroid5"
    placement = np.array([[450.0, 450.0, angle, flipped]])
    obstacle = obstacles_of(ruleset, [token], placement)[0]
    ring = obstacle.world_outline()
    offsets = ring - placement[0, :2]
    far = int(np.argmax(np.hypot(offsets[:, 0], offsets[:, 1])))
    outward = offsets[far] / np.hypot(*offsets[far])
    along = np.array([-outward[1], outward[0]])
    p = np.array([ring[far] + nudge * outward - 40.0 * along for nudge, _ in NUDGES])
    q = np.array([ring[far] + nudge * outward + 40.0 * along for nudge, _ in NUDGES])
    expected = [touching for _, touching in NUDGES]
    scalar = [
        obstructed_segment(np.array([a, b]), [obstacle.polygon()])[0]
        for a, b in zip(p, q, strict=True)
    ]
    assert scalar == expected
    with path(name):
        assert batch.obstructed(p, q, [token], placement).tolist() == expected
