"""Helpers the X-Wing and Armada moves share: fleeing and the obstacle resolve order."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import shapely
from numpy.typing import ArrayLike

from tabletop.geom.areas import PlayArea
from tabletop.geom.measure import inside
from tabletop.geom.poses import to_world
from tabletop.obstacles.scene import Obstacle

__all__ = ["nearest_first", "outside_play_area", "place"]


def outside_play_area(area: PlayArea, polygon: shapely.Geometry) -> bool:
    """Return whether any part of `polygon` lies outside the play area (touching is inside).

    Examples
    --------
    >>> from tabletop.geom.areas import play_area
    >>> area = play_area("3x3ft")
    >>> outside_play_area(area, shapely.box(0, 0, 40, 40)), outside_play_area(area, shapely.box(-1, 0, 39, 40))
    (False, True)
    """
    return not inside(polygon, area.polygon())


def nearest_first(start: shapely.Geometry, obstacles: Iterable[Obstacle]) -> list[Obstacle]:
    """Return obstacles in resolve order: by distance from the starting base, then by id.

    Examples
    --------
    >>> import numpy as np
    >>> square = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]])
    >>> rocks = [Obstacle(i, square, "asteroid", x, 0.0) for i, x in (("b", 50.0), ("c", 20.0), ("a", 50.0))]
    >>> [o.id for o in nearest_first(shapely.box(0, 0, 10, 10), rocks)]
    ['c', 'a', 'b']
    """
    return sorted(obstacles, key=lambda o: (float(shapely.distance(start, o.polygon())), o.id))


def place(local: shapely.Polygon, pose: ArrayLike) -> shapely.Polygon:
    """Return a ship-frame polygon placed at a world pose (an empty polygon stays empty).

    Examples
    --------
    >>> place(shapely.box(-10, 20, 10, 60), [100.0, 0.0, 90.0]).bounds
    (90.0, 20.0, 110.0, 60.0)
    """
    if local.is_empty:
        return local
    return shapely.Polygon(to_world(np.asarray(local.exterior.coords), pose))
