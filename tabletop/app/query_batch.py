"""Measure requests between two ships answered together, as each alone would be answered.

A stream's requests come in chunks (all the lines already read): the oracle gathers the
chunk's measure requests that :func:`tabletop.app.query_fast.measure_pair` takes, places
every outline they need and the cache lacks in one matrix product and one
``shapely.polygons`` call, and finds every shortest line in one ``shapely.shortest_line``
call. Each of these is the one-request call's arithmetic run over an array: numpy's
stacked matrix product multiplies each pose's matrix as the single product does, and
GEOS measures each pair alone; the tests compare the answers with the one-request path
to the last bit.
"""

from __future__ import annotations

import json
import math
from json.encoder import encode_basestring
from typing import Any

import numpy as np
import shapely

from tabletop.app.query_fast import _OUTLINES, _OUTLINES_SIZE, measured_fields
from tabletop.geom.objects import Ship
from tabletop.geom.rulesets import Ruleset
from tabletop.geom.shapes import base_footprint

__all__ = ["MeasureJob", "measure_jobs", "measurement_text"]

#: One measure between two ships: the ruleset, the ships, and the request's from and to.
MeasureJob = tuple[Ruleset, Ship, Ship, str, str]

_OutlineKey = tuple[str, str, float, float, float]

#: Each rectangular base's outline in its own frame by ``(ruleset, base)``; None for a disk.
_LOCAL: dict[tuple[str, str], np.ndarray[Any, np.dtype[np.float64]] | None] = {}


def _local(ruleset: Ruleset, base: str) -> np.ndarray[Any, np.dtype[np.float64]] | None:
    key = (ruleset.name, base)
    if key not in _LOCAL:
        footprint = base_footprint(ruleset, base)
        _LOCAL[key] = None if footprint.is_disk else np.asarray(footprint.outline, np.float64)
    return _LOCAL[key]


def _place(missing: dict[_OutlineKey, tuple[Ruleset, Ship]]) -> dict[_OutlineKey, Any]:
    """Return the placed outline of each pose (None for a disk base), a base at a time.

    The poses of one base are placed by one matrix product of its outline with their
    stacked rotations: each pose's rotation and sum as
    :func:`tabletop.app.query_fast._corners` computes them (numpy multiplies each matrix
    of a stack as it multiplies one).
    """
    placed: dict[_OutlineKey, Any] = {}
    groups: dict[tuple[str, str], list[tuple[_OutlineKey, Ship]]] = {}
    locals_: dict[tuple[str, str], np.ndarray[Any, np.dtype[np.float64]]] = {}
    for key, (ruleset, ship) in missing.items():
        local = _local(ruleset, ship.base)
        if local is None:
            placed[key] = None
        else:
            locals_[key[:2]] = local
            groups.setdefault(key[:2], []).append((key, ship))
    for base, group in groups.items():
        rotations = []
        offsets = []
        for _, ship in group:
            theta = math.radians(ship.heading)
            c, s = math.cos(theta), math.sin(theta)
            rotations.append([[s, -c], [c, s]])
            offsets.append([[ship.x, ship.y]])
        corners = locals_[base] @ np.array(rotations) + np.array(offsets, dtype=np.float64)
        for (key, _), polygon in zip(group, shapely.polygons(corners), strict=True):
            placed[key] = _OUTLINES[key] = polygon
    while len(_OUTLINES) > _OUTLINES_SIZE:
        _OUTLINES.popitem(last=False)
    return placed


#: The answer's encoder (as ``tabletop.app.cli.emit_json``'s): its fields' text, by value.
_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False)
_BAND_TEXTS: dict[tuple[tuple[str, Any], ...], str] = {}
_NOT_CONTESTED = '"contested_line": null, "contested_margin": null, "ruling": null}'


def measurement_text(ruleset: Ruleset, a: str, b: str, ends: list[list[float]]) -> str:
    """Return the JSON text of :func:`tabletop.app.query_fast.measurement_json`'s answer.

    Written field by field as ``json`` writes the object (floats by ``repr``, strings by
    its own escaping, ``", "`` and ``": "`` between them), the band fields' text kept by
    value: the bands of a ruleset are few.

    Examples
    --------
    >>> from tabletop.geom.rulesets import RULESETS
    >>> measurement_text(RULESETS["xwing2"], "a", "b", [[0.0, 0.0], [3.0, 4.0]])[:61]
    '{"from": "a", "to": "b", "distance": 5.0, "band": 1, "contest'
    """
    distance, band_fields, contested, points, line, margin, ruling = measured_fields(ruleset, ends)
    band_key = tuple(band_fields.items())
    band_text = _BAND_TEXTS.get(band_key)
    if band_text is None:
        band_text = _BAND_TEXTS[band_key] = _ENCODER.encode(band_fields)[1:-1]
    (x0, y0), (x1, y1) = points
    return (
        f'{{"from": {encode_basestring(a)}, "to": {encode_basestring(b)},'
        f' "distance": {distance!r}, {band_text},'
        f' "contested": {"true" if contested else "false"},'
        f' "points": [[{x0!r}, {y0!r}], [{x1!r}, {y1!r}]],'
        f' "nearest_line": {line!r}, "margin": {margin!r}, '
        + (_NOT_CONTESTED if ruling is None else _ENCODER.encode(ruling)[1:])
    )


def measure_jobs(jobs: list[MeasureJob]) -> list[str | None]:
    """Return each job's answer as JSON text (:func:`measurement_text`); None for a disk base.

    Examples
    --------
    >>> from tabletop.geom.rulesets import RULESETS
    >>> rules = RULESETS["xwing2"]
    >>> a = Ship("a", "small", 100.0, 100.0, 90.0, 1, None)
    >>> b = Ship("b", "small", 100.0, 200.0, 270.0, 2, None)
    >>> measure_jobs([(rules, a, b, "a", "b")])[0][:41]
    '{"from": "a", "to": "b", "distance": 60.0'

    """
    found: dict[_OutlineKey, Any] = {}
    missing: dict[_OutlineKey, tuple[Ruleset, Ship]] = {}
    pairs = []
    for ruleset, first, second, _, _ in jobs:
        keys = []
        for ship in (first, second):
            key = (ruleset.name, ship.base, ship.x, ship.y, ship.heading)
            keys.append(key)
            if key not in found and key not in missing:
                polygon = _OUTLINES.get(key)
                if polygon is None:
                    missing[key] = (ruleset, ship)
                else:
                    found[key] = polygon
        pairs.append(keys)
    if missing:
        found.update(_place(missing))
    measured = [
        k for k, (a, b) in enumerate(pairs) if found[a] is not None and found[b] is not None
    ]
    answers: list[str | None] = [None] * len(jobs)
    if not measured:
        return answers
    firsts = np.array([found[pairs[k][0]] for k in measured], dtype=object)
    seconds = np.array([found[pairs[k][1]] for k in measured], dtype=object)
    lines = shapely.shortest_line(firsts, seconds)
    if shapely.is_missing(lines).any():
        return answers
    ends = np.asarray(shapely.get_coordinates(lines), dtype=np.float64).reshape(-1, 2, 2)
    for k, pair_ends in zip(measured, ends.tolist(), strict=True):
        ruleset, _, _, a, b = jobs[k]
        answers[k] = measurement_text(ruleset, a, b, pair_ends)
    return answers
