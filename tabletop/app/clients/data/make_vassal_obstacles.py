r"""Build ``vassal-obstacles.json``: each VASSAL X-Wing obstacle piece -> catalog token.

Run once, by hand, on the module's ``buildFile.xml`` (Mu0n/XWVassal,
``mic/swxwmg.vmod-unpacked/buildFile.xml``)::

    python tabletop/app/clients/data/make_vassal_obstacles.py BUILDFILE COMMIT > \\
        tabletop/app/clients/data/vassal-obstacles.json

(the piece images are read from ``images/`` beside BUILDFILE; Pillow reads them).

For each obstacle piece (a ``PieceSlot`` whose name is in :data:`XWS_IDS`, the table of
``mic/Obstacles.java``, or the ``label`` of a catalog token) it reads the piece's
``nonRect`` mask: a pixel path relative to the piece's position, y down. In mm with y
up (2.825 px per mm), the mask's centroid is where the catalog token's reference point
(the centroid of its outline) lies relative to the piece's position, at rotation 0.
The script records that offset, and the Hausdorff distance between the mask and the
catalog outline moved by it: how well the two agree (the catalog outline was traced from
the same mask and simplified to 0.6 mm).

A piece that shows either face has an image layer of two images, the front and the back
(``Asteroid_5b.png,Asteroid_5fb.png``; VASSAL draws a layer's image centred on the
piece's position). The back image is the front mirrored in x, shifted sideways for the
debris fields; the script measures that mirror (the intersection over union of the
mirrored front's and the back's opaque pixels, after the shift between their centroids)
and records where the flipped token's reference point lies: the mask centroid mirrored
in x, moved by that shift.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import shapely
from PIL import Image

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
#: The rock's layer: its two images, the front and the back (an ``f`` before the suffix).
_FACES = re.compile(r";([\w ]+?)(b?)\.png,\1f\2\.png;")


def _opaque(path: Path) -> Any:
    """Return the image's opaque pixels as a boolean array (rows down)."""
    with Image.open(path) as image:
        return np.asarray(image.convert("RGBA"))[:, :, 3] > 128


def _centre_px(opaque: Any) -> tuple[float, float]:
    """Centroid of the opaque pixels, px from the piece's position (x right, y down).

    VASSAL draws an image with its top-left corner at (-width // 2, -height // 2).
    """
    rows, columns = np.nonzero(opaque)
    height, width = opaque.shape
    return (
        float(columns.mean()) + 0.5 - width // 2,
        float(rows.mean()) + 0.5 - height // 2,
    )


def _flip(images: Path, front_name: str, back_name: str) -> dict[str, Any]:
    """Measure the back image against the mirrored front: its shift (mm) and agreement."""
    front, back = _opaque(images / front_name), _opaque(images / back_name)
    fx, fy = _centre_px(front)
    bx, by = _centre_px(back)
    mirrored = front[:, ::-1]
    # Place both on one canvas, each centred as VASSAL draws it, the mirror moved by the
    # shift between the centroids (the mirror's centroid is at -fx, fy).
    shift_x, shift_y = round(bx + fx), round(by - fy)
    size_y = max(front.shape[0], back.shape[0]) + 2 * abs(shift_y) + 4
    size_x = max(front.shape[1], back.shape[1]) + 2 * abs(shift_x) + 4

    def placed(pixels: Any, dx: int, dy: int) -> Any:
        canvas = np.zeros((size_y, size_x), dtype=bool)
        top = size_y // 2 - pixels.shape[0] // 2 + dy
        left = size_x // 2 - pixels.shape[1] // 2 + dx
        canvas[top : top + pixels.shape[0], left : left + pixels.shape[1]] = pixels
        return canvas

    a, b = placed(mirrored, shift_x, shift_y), placed(back, 0, 0)
    iou = float((a & b).sum() / (a | b).sum())
    return {
        "images": [front_name, back_name],
        "shift_mm": [round((bx + fx) / _PX_PER_MM, 3), round(-(by - fy) / _PX_PER_MM, 3)],
        "mirror_iou": round(iou, 3),
    }


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
    images = Path(buildfile).parent / "images"
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
        entry: dict[str, Any] = {
            "token": token,
            "named_by": named_by,
            "centroid_mm": [round(centroid.x, 3), round(centroid.y, 3)],
            "hausdorff_mm": round(float(mask.hausdorff_distance(moved)), 2),
        }
        faces = _FACES.search(body)
        if faces is not None:
            stem, suffix = faces.group(1), faces.group(2)
            flip = _flip(images, f"{stem}{suffix}.png", f"{stem}f{suffix}.png")
            shift_x, shift_y = flip.pop("shift_mm")
            entry["flipped_centroid_mm"] = [
                round(-centroid.x + shift_x, 3),
                round(centroid.y + shift_y, 3),
            ]
            entry["flip"] = flip
        pieces[name] = entry
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
        "hausdorff_mm: the mask against the catalog outline so placed; "
        "flipped_centroid_mm: the reference point of the token turned over (the catalog "
        "outline mirrored in x), from the piece's two face images (flip: those images and "
        "the agreement of the back with the mirrored front)",
        "pieces": dict(sorted(pieces.items())),
    }


if __name__ == "__main__":
    json.dump(build(sys.argv[1], sys.argv[2]), sys.stdout, indent=1)
    sys.stdout.write("\n")
