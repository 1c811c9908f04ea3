r"""Build ``tts-xwing-outlines.json``: which catalog token each TTS X-Wing collider mesh is.

Run once from a checkout of the X-Wing 2.0 mod (JohnnyCheese/TTS_X-Wing2.0)::

    python tabletop/app/clients/data/build_tts_outlines.py \\
        PATH/TO/TTS_X-Wing2.0/assets/models/obstacles/*-col.obj

For each collider mesh, its footprint is the union of the convex hulls of its objects
(the mod's colliders are convex, one per object) projected on the table (mesh x, mesh z),
each object with the vertices its faces use.
Each catalog token is fitted to it: the mesh footprint about its centroid, mirrored or
not, turned by an angle found on a 1-degree grid and refined to 0.01 degree, scaled to the
token's area; the residual is the Hausdorff distance in mm between the fitted footprint
and the catalog outline. The token with the smallest residual is the match; the runner-up
and its residual are kept, to show that the match is not a near tie.

The table records, per mesh file name: ``token``, ``mirrored``, ``angle_deg`` (the token's
angle in the mesh frame), ``centroid`` (the token's reference point in the mesh frame,
mesh units), ``scale`` (the TTS object scale at which the mesh has the token's size, at
the mod's 0.03637 units per mm), ``residual_mm``, ``runner_up``, ``runner_up_mm`` and
``outline`` (the footprint about the centroid, mesh units, simplified by 0.002 units) from
which a reader measures the residual at the scale an object actually has.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import MultiPoint, Polygon
from shapely.ops import unary_union

from tabletop.geom.rulesets import get_ruleset
from tabletop.obstacles.catalog import catalog

UNITS_PER_MM = 0.03637
OUT = Path(__file__).with_name("tts-xwing-outlines.json")


def footprint(path: Path) -> Polygon:
    """Return the footprint of a collider mesh (mesh units, x and z).

    Each object counts with the vertices its faces use (a vertex only on a line is not
    part of a collider); an object without faces counts with all its vertices.
    """
    objects: list[tuple[list[tuple[float, float]], set[int]]] = [([], set())]
    points: list[tuple[float, float]] = []
    for line in path.read_text("utf-8").splitlines():
        if line.startswith("o ") and (objects[-1][0] or objects[-1][1]):
            objects.append(([], set()))
        elif line.startswith("v "):
            x, _, z = (float(v) for v in line.split()[1:4])
            points.append((x, z))
            objects[-1][0].append((x, z))
        elif line.startswith("f "):
            objects[-1][1].update(int(word.split("/")[0]) - 1 for word in line.split()[1:])
    hulls = []
    for own, used in objects:
        chosen = [points[i] for i in sorted(used)] if used else own
        if len(chosen) >= 3:
            hulls.append(MultiPoint(chosen).convex_hull)
    union = unary_union(hulls)
    if isinstance(union, Polygon):
        return Polygon(union.exterior)
    largest = max(union.geoms, key=lambda p: p.area)
    return Polygon(largest.exterior)


def _posed(points: np.ndarray, angle: float, mirrored: bool) -> Polygon:
    pts = points * np.array([-1.0, 1.0]) if mirrored else points
    r = math.radians(angle)
    rot = np.array([[math.cos(r), -math.sin(r)], [math.sin(r), math.cos(r)]])
    return Polygon(pts @ rot.T)


def fit(mesh: Polygon, token: np.ndarray) -> tuple[float, bool, float, float]:
    """Return (residual mm, mirrored, angle, scale factor mm per mesh unit) of the best fit."""
    target = Polygon(token)
    k = math.sqrt(target.area / mesh.area)
    c = mesh.centroid
    points = (np.asarray(mesh.exterior.coords)[:-1] - [c.x, c.y]) * k
    residual, mirrored, angle = math.inf, False, 0.0
    for side in (False, True):
        for degrees in range(360):
            d = shapely.hausdorff_distance(_posed(points, float(degrees), side), target)
            if d < residual:
                residual, mirrored, angle = d, side, float(degrees)
    for step in (0.1, 0.01):
        centre = angle
        for offset in range(-10, 11):
            a = centre + offset * step
            d = shapely.hausdorff_distance(_posed(points, a, mirrored), target)
            if d < residual:
                residual, angle = d, a
    return residual, mirrored, angle % 360.0, k


def main(paths: list[str]) -> None:
    """Match every collider file given and write the table beside this script."""
    tokens = {
        name: t.outline
        for name, t in catalog(get_ruleset("xwing2")).items()
        if t.kind != "huge-ship"
    }
    meshes = {}
    for path in map(Path, sorted(paths)):
        mesh = footprint(path)
        fits = sorted((fit(mesh, outline), name) for name, outline in tokens.items())
        (residual, mirrored, angle, k), token = fits[0]
        (runner_mm, *_), runner = fits[1]
        c = mesh.centroid
        simple = mesh.simplify(0.002)  # 0.002 units: 0.06 mm, below every residual
        outline = np.asarray(simple.exterior.coords)[:-1] - [c.x, c.y]
        meshes[path.name] = {
            "token": token,
            "mirrored": mirrored,
            "angle_deg": round(angle, 2),
            "centroid": [round(c.x, 6), round(c.y, 6)],
            "scale": round(k * UNITS_PER_MM, 4),
            "residual_mm": round(residual, 2),
            "runner_up": runner,
            "runner_up_mm": round(runner_mm, 2),
            "outline": [[round(x, 5), round(z, 5)] for x, z in outline],
        }
        print(f"{path.name}: {token} residual {residual:.2f} mm (next {runner} {runner_mm:.2f})")
    table = {
        "source": "JohnnyCheese/TTS_X-Wing2.0: assets/models/obstacles/<name> (the files of "
        "commits a2869c75, a6daf504, d8345082, 1b81ca6a, 3886b9f3, 667c27b6, 4c7f1d8c and "
        "8b947773), matched against "
        "tabletop/obstacles/data/xwing-obstacles.json by build_tts_outlines.py (beside "
        "this file)",
        "method": " ".join((__doc__ or "").strip().split("\n\n")[3].split()),
        "meshes": meshes,
    }
    OUT.write_text(json.dumps(table, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
