"""Plain STRtree legality script: the baseline of ``tabletop check`` (``python benchmarks/strtree_check.py SCENE.json``).

What a user writes with shapely alone for the X-Wing 2.0 setup rules on a JSON scene of
outline obstacles and ships (benchmarks.scaling's tables): obstacles more than 100 mm
apart and 200 mm from every edge (one STRtree ``dwithin`` query), ships within 100 mm of
their edge, no two bases overlapping (an STRtree ``intersects`` query), everything on
the table. Prints ``legal`` or the count of broken rules; exit code 0 or 1.
"""

import json
import sys

import numpy as np
import shapely

SPACING, EDGE, DEPLOY, HALF = 100.0, 200.0, 100.0, 20.0  # mm; small bases, 40 mm square
scene = json.load(open(sys.argv[1], encoding="utf-8"))
width, height = scene["area"]["width"], scene["area"]["height"]
obstacles, ships = scene.get("obstacles", []), scene.get("ships", [])
rocks = shapely.polygons(
    [np.asarray(o["outline"], dtype=float) + np.asarray(o["at"], dtype=float) for o in obstacles]
)
corners = np.array([[-HALF, -HALF], [HALF, -HALF], [HALF, HALF], [-HALF, HALF]])
bases = []
for s in ships:
    t = np.radians(s.get("heading", 90.0))
    turn = np.array([[np.sin(t), -np.cos(t)], [np.cos(t), np.sin(t)]])
    bases.append(corners @ turn + np.asarray(s["at"], dtype=float))
bases = shapely.polygons(np.asarray(bases).reshape(-1, 4, 2))
broken = 0
i, j = shapely.STRtree(rocks).query(rocks, predicate="dwithin", distance=SPACING)
broken += int(np.sum(i < j))
x0, y0, x1, y1 = shapely.bounds(rocks).T
broken += int(np.sum(np.minimum.reduce([x0, y0, width - x1, height - y1]) <= EDGE))
ys = shapely.bounds(bases)
mine = np.array([s.get("player", 1) == 1 for s in ships], dtype=bool)
broken += int(np.sum(np.where(mine, ys[:, 3] > DEPLOY, height - ys[:, 1] > DEPLOY)))
i, j = shapely.STRtree(bases).query(bases, predicate="intersects")
pairs = i < j
broken += int(np.sum(shapely.area(shapely.intersection(bases[i[pairs]], bases[j[pairs]])) > 0))
box = np.concatenate([shapely.bounds(rocks), ys]) if len(ships) else shapely.bounds(rocks)
broken += int(np.sum((box[:, :2] < 0).any(1) | (box[:, 2] > width) | (box[:, 3] > height)))
print("legal" if broken == 0 else f"{broken} broken")
sys.exit(1 if broken else 0)
