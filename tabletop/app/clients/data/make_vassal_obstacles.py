r"""Build ``vassal-obstacles.json``: each VASSAL X-Wing obstacle piece -> catalog token.

Run once, by hand, on the module's ``buildFile.xml`` (Mu0n/XWVassal,
``mic/swxwmg.vmod-unpacked/buildFile.xml``)::

    python tabletop/app/clients/data/make_vassal_obstacles.py BUILDFILE COMMIT > \\
        tabletop/app/clients/data/vassal-obstacles.json

For each obstacle piece (a ``PieceSlot`` whose name is in :data:`XWS_IDS`, the table of
``mic/Obstacles.java``, or the ``label`` of a catalog token) it reads the piece's
``nonRect`` mask: a pixel path relative to the piece's position, y down. In mm with y
up (2.825 px per mm), the mask's centroid is where the catalog token's reference point
(the centroid of its outline) lies relative to the piece's position, at rotation 0.
The script records that offset, and the Hausdorff distance between the mask and the
catalog outline moved by it: how well the two agree (the catalog outline was traced from
the same mask and simplified to 0.6 mm).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import shapely

#: ``mic/Obstacles.java`` (Mu0n/XWVassal): XWS obstacle id -> VASSAL piece name.
XWS_IDS: dict[str, str] = {
    "coreasteroid0": "Asteroid 5",
    "coreasteroid1": "Asteroid 1",
    "coreasteroid2": "Asteroid 3",
    "coreasteroid3": "Asteroid 2",
    "coreasteroid4": "Asteroid 6",
    "coreasteroid5": "Asteroid 4",
    "yt2400debris0": "Debris 5",
    "yt2400debris1": "Debris 4",
    "yt2400debris2": "Debris 6",
    "vt49decimatordebris0": "Debris 1",
    "vt49decimatordebris1": "Debris 2",
    "vt49decimatordebris2": "Debris 3",
    "core2asteroid0": "Asteroid 12",
    "core2asteroid1": "Asteroid 11",
    "core2asteroid2": "Asteroid 10",
    "core2asteroid3": "Asteroid 8",
    "core2asteroid4": "Asteroid 7",
    "core2asteroid5": "Asteroid 9",
    "gascloud1": "Gas Cloud 1",
    "gascloud2": "Gas Cloud 2",
    "gascloud3": "Gas Cloud 3",
    "gascloud4": "Gas Cloud 4",
    "gascloud5": "Gas Cloud 5",
    "gascloud6": "Gas Cloud 6",
}

_PX_PER_MM = 2.825
_SLOT = re.compile(
    r'<VASSAL\.build\.widget\.PieceSlot entryName="([^"]*)"[^>]*>(.*?)</VASSAL\.build\.widget\.PieceSlot>',
    re.S,
)
_MASK = re.compile(r"nonRect;([^\\\t]*)")


def _mask(path: str) -> Any:
    """Return the largest polygon of a ``nonRect`` path, in mm with y up."""
    rings: list[list[tuple[float, float]]] = []
    tokens = path.split(",")
    index = 0
    while index < len(tokens):
        op = tokens[index]
        if op in ("m", "l"):
            if op == "m":
                rings.append([])
            x, y = float(tokens[index + 1]), float(tokens[index + 2])
            rings[-1].append((x / _PX_PER_MM, -y / _PX_PER_MM))
            index += 3
        else:
            index += 1
    return max((shapely.Polygon(ring) for ring in rings if len(ring) >= 3), key=lambda p: p.area)


def build(buildfile: str, commit: str) -> dict[str, Any]:
    """Return the table (see the module's docstring)."""
    root = Path(__file__).resolve().parents[4]
    catalog = json.loads((root / "tabletop/obstacles/data/xwing-obstacles.json").read_text())
    outlines = {t["name"]: t["outline"] for t in catalog["tokens"]}
    by_name = {name: (xws, "mic/Obstacles.java") for xws, name in XWS_IDS.items()}
    for token in catalog["tokens"]:
        by_name.setdefault(token["label"], (token["name"], "catalog label"))
    pieces: dict[str, Any] = {}
    for match in _SLOT.finditer(Path(buildfile).read_text(encoding="utf-8")):
        name, body = match.group(1), match.group(2)
        if name not in by_name or name in pieces:
            continue
        found = _MASK.search(body)
        if found is None:
            continue
        mask = _mask(found.group(1))
        centroid = mask.centroid
        token, named_by = by_name[name]
        moved = shapely.affinity.translate(shapely.Polygon(outlines[token]), centroid.x, centroid.y)
        pieces[name] = {
            "token": token,
            "named_by": named_by,
            "centroid_mm": [round(centroid.x, 3), round(centroid.y, 3)],
            "hausdorff_mm": round(float(mask.hausdorff_distance(moved)), 2),
        }
    return {
        "source": {
            "repository": "Mu0n/XWVassal",
            "commit": commit,
            "file": "mic/swxwmg.vmod-unpacked/buildFile.xml (the obstacle PieceSlots' nonRect masks)",
            "names": "mic/src/main/java/mic/Obstacles.java (XWS id <-> piece name); pieces it "
            "does not name are matched to the catalog token whose label is the piece name",
            "script": "tabletop/app/clients/data/make_vassal_obstacles.py",
        },
        "frame": "centroid_mm: the token's reference point relative to the VASSAL piece's "
        "position, mm, x right and y up, the piece unrotated and unflipped; "
        "hausdorff_mm: the mask against the catalog outline so placed",
        "pieces": dict(sorted(pieces.items())),
    }


if __name__ == "__main__":
    json.dump(build(sys.argv[1], sys.argv[2]), sys.stdout, indent=1)
    sys.stdout.write("\n")
