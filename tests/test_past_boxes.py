"""The vectorised play-area pass gives what the per-outline one gives, vertex for vertex.

:func:`_past_boxes` must pick, for every outline, the same extreme vertex (the first of
equally far ones), the same worst side (the first of equally bad ones) and the same
inward distance as :func:`_past_box`, the side exactly and the distance and vertex within
``AGREEMENT_MM`` (``tests/agreement.py``: the two passes do their own arithmetic):
outlines of one vertex count (a row each) and of many counts alike.
"""

from __future__ import annotations

import random

import shapely
from agreement import agree, arrays_agree

from tabletop.obstacles._margins import _past_box, _past_boxes


def random_outlines(rng: random.Random, count: int) -> list[shapely.Geometry]:
    shapes = []
    for _ in range(count):
        x, y = rng.uniform(-50.0, 950.0), rng.uniform(-50.0, 950.0)
        kind = rng.random()
        if kind < 0.3:  # axis-aligned: two vertices tie on every side
            w, h = rng.choice([20.0, 40.0, 30.5]), rng.choice([20.0, 40.0, 80.0])
            shapes.append(shapely.box(x, y, x + w, y + h))
        elif kind < 0.5:  # a square centred on the box's corner region: sides tie too
            shapes.append(shapely.box(-10.0, -10.0, 10.0, 10.0))
        else:
            turn = shapely.affinity.rotate(
                shapely.box(-20.0, -15.0, 20.0, 15.0),
                rng.choice([0.0, 45.0, 90.0, rng.uniform(0, 360)]),
            )
            shapes.append(shapely.affinity.translate(turn, x, y))
    return shapes


def test_every_outline_as_one_at_a_time() -> None:
    rng = random.Random("past boxes")
    for box in [(0.0, 0.0, 914.4, 914.4), (0.0, 0.0, 0.0, 0.0), (-10.0, -10.0, 10.0, 10.0)]:
        shapes = random_outlines(rng, 500)
        together = _past_boxes(shapes, box)
        for shape, (side, inward, points) in zip(shapes, together, strict=True):
            one_side, one_inward, one_points = _past_box(shape, box)
            assert side == one_side
            assert agree(inward, one_inward)
            assert arrays_agree(points, one_points)
            assert points.dtype == one_points.dtype


def test_outlines_of_many_vertex_counts_as_one_at_a_time() -> None:
    rng = random.Random("past boxes, mixed")
    for box in [(0.0, 0.0, 914.4, 914.4), (-10.0, -10.0, 10.0, 10.0)]:
        shapes = random_outlines(rng, 300)
        for k in range(0, 300, 7):  # disks of 4 to 64 segments per quarter, ties included
            shapes[k] = shapely.Point(rng.uniform(0, 900), rng.uniform(0, 900)).buffer(
                rng.choice([5.0, 20.0]), quad_segs=rng.choice([1, 4, 16])
            )
        together = _past_boxes(shapes, box)
        for shape, (side, inward, points) in zip(shapes, together, strict=True):
            one_side, one_inward, one_points = _past_box(shape, box)
            assert side == one_side
            assert agree(inward, one_inward)
            assert arrays_agree(points, one_points)


def test_no_outlines() -> None:
    assert _past_boxes([], (0.0, 0.0, 1.0, 1.0)) == []
