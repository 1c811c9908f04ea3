"""Each shape's nearest other on a small table (tabletop.obstacles._nearest), by its boxes.

Against the slow model, every pair measured: on random tables of turned polygons the same
nearest for each shape; and the cases at the edge of the box bound: two boxes that touch
round shapes that do not, a tie, shapes that overlap.
"""

from __future__ import annotations

import random

import numpy as np
import shapely

from tabletop.obstacles._nearest import nearest_of_few


def brute(shapes: list[shapely.Geometry]) -> set[tuple[int, int]]:
    found = set()
    for i, a in enumerate(shapes):
        distances = [np.inf if j == i else shapely.distance(a, b) for j, b in enumerate(shapes)]
        j = int(np.argmin(distances))
        found.add((min(i, j), max(i, j)))
    return found


def test_random_tables_agree_with_every_pair_measured() -> None:
    rng = random.Random(37)
    for _ in range(40):
        shapes = []
        for _ in range(rng.randint(2, 30)):
            x, y, turn = rng.uniform(0, 900), rng.uniform(0, 900), rng.uniform(0, 360)
            piece = shapely.box(-rng.uniform(5, 40), -rng.uniform(5, 40), 30, 10)
            piece = shapely.affinity.rotate(piece, turn, origin=(0, 0))
            shapes.append(shapely.affinity.translate(piece, x, y))
        assert nearest_of_few(np.asarray(shapes, dtype=object)) == brute(shapes)


def test_a_box_nearer_than_its_shape_does_not_decide() -> None:
    # a thin diagonal whose box reaches within 1 mm of the square, the line itself 30 mm
    # away; a small square 10 mm off the big one is its nearest
    square = shapely.box(0, 0, 10, 10)
    diagonal = shapely.LineString([(11, 60), (61, 11)]).buffer(0.5)
    near = shapely.box(20, 0, 25, 5)
    shapes = [square, diagonal, near]
    assert shapely.distance(square, diagonal) > 10.0
    assert nearest_of_few(np.asarray(shapes, dtype=object)) == brute(shapes) == {(0, 2), (1, 2)}


def test_a_tie_takes_the_first_and_overlaps_are_nearest() -> None:
    row = [shapely.box(x, 0, x + 10, 10) for x in (0.0, 20.0, 40.0)]
    assert nearest_of_few(np.asarray(row, dtype=object)) == {(0, 1), (1, 2)}
    crossed = [shapely.box(0, 0, 10, 10), shapely.box(5, 5, 15, 15), shapely.box(100, 0, 101, 1)]
    assert nearest_of_few(np.asarray(crossed, dtype=object)) == {(0, 1), (1, 2)}
