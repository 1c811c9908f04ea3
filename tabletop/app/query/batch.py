"""Measure requests between two ships answered together, as each alone would be answered.

A stream's requests come in chunks (all the lines already read): the oracle gathers the
chunk's measure requests that :func:`tabletop.app.query.fast.measure_pair` takes, places
every outline they need and the cache lacks in one matrix product and one
``shapely.polygons`` call, and finds every shortest line in one ``shapely.shortest_line``
call. Each of these is the one-request call's arithmetic run over an array: numpy's
stacked matrix product multiplies each pose's matrix as the single product does, and
GEOS measures each pair alone; the tests compare the answers with the one-request path
to the last bit.

A chunk's measures from an arc of an X-Wing ship (:func:`tabletop.geom.arcs.attack_ranges`)
are ranged together the same way; a target out of the arc between bases that cannot have
tied segments is answered with its fields written directly (out of arc, the answer
carries no obstruction, and none is measured); any other shot has its obstruction, tied
segments and clearances measured by :func:`tabletop.obstacles.measuring.xwing_shot_fields`
on its range. X-Wing has one band scale, so an attack's band, line, margin and ruling
are those of the measure without an arc to the same points.
"""

from __future__ import annotations

import json
import math
from json.encoder import encode_basestring
from typing import Any

import numpy as np
import shapely

from tabletop.app.query.fast import _OUTLINES, _OUTLINES_SIZE, measured_fields
from tabletop.geom.arcs import Shot, attack_ranges
from tabletop.geom.objects import Ship
from tabletop.geom.rulesets import Ruleset
from tabletop.geom.shapes import base_footprint
from tabletop.obstacles.measuring import edges_may_be_parallel, xwing_shot_fields
from tabletop.obstacles.scene import Scene

__all__ = ["MeasureJob", "measure_jobs", "measure_objects", "measurement_text"]

#: One measure between two ships: the scene, the ships, the request's from and to, and
#: its arc (None without one; with one, an X-Wing arc of an X-Wing scene).
MeasureJob = tuple[Scene, Ship, Ship, str, str, str | None]

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
    :func:`tabletop.app.query.fast._corners` computes them (numpy multiplies each matrix
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
    """Return the JSON text of :func:`tabletop.app.query.fast.measurement_json`'s answer.

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

    None: the job is answered alone.

    Examples
    --------
    >>> from tabletop.geom.areas import play_area
    >>> from tabletop.geom.rulesets import RULESETS
    >>> a = Ship("a", "small", 100.0, 100.0, 90.0, 1, None)
    >>> b = Ship("b", "small", 100.0, 200.0, 270.0, 2, None)
    >>> scene = Scene(RULESETS["xwing2"], play_area("3x3ft"), ships=(a, b))
    >>> measure_jobs([(scene, a, b, "a", "b", None)])[0][:41]
    '{"from": "a", "to": "b", "distance": 60.0'
    >>> c = Ship("c", "small", 100.0, 200.0, 225.0, 2, None)
    >>> measure_jobs([(scene, a, c, "a", "c", "front")])[0][-73:]
    '"arc": "front", "in_arc": true, "obstructed": false, "obstructed_by": []}'
    >>> measure_jobs([(scene, a, c, "a", "c", "rear")])[0][-72:]
    '"arc": "rear", "in_arc": false, "obstructed": null, "obstructed_by": []}'
    """
    found: dict[_OutlineKey, Any] = {}
    missing: dict[_OutlineKey, tuple[Ruleset, Ship]] = {}
    pairs = []
    for scene, first, second, _, _, _ in jobs:
        ruleset = scene.ruleset
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
    answers: list[str | None] = [None] * len(jobs)
    placed = [(found[a], found[b]) for a, b in pairs]
    plain: list[int] = []
    shots: list[int] = []
    for k, (first, second) in enumerate(placed):
        if first is not None and second is not None:
            (plain if jobs[k][5] is None else shots).append(k)
    if plain:
        _measure_plain(jobs, plain, placed, answers)
    if shots:
        _measure_shots(jobs, shots, placed, answers)
    return answers


#: The standard decoder (an answer's text read back: its floats are written by repr).
_DECODER = json.JSONDecoder()


def measure_objects(jobs: list[MeasureJob]) -> list[dict[str, Any] | None]:
    """Return each job's answer object (:meth:`Measurement.to_json`'s); None: measured alone.

    The text :func:`measure_jobs` writes, read back: floats written by ``repr`` read as
    the same floats, so the object is the one the measure alone gives, key for key.

    Examples
    --------
    >>> from tabletop.geom.areas import play_area
    >>> from tabletop.geom.rulesets import RULESETS
    >>> a = Ship("a", "small", 100.0, 100.0, 90.0, 1, None)
    >>> b = Ship("b", "small", 100.0, 200.0, 270.0, 2, None)
    >>> scene = Scene(RULESETS["xwing2"], play_area("3x3ft"), ships=(a, b))
    >>> found = measure_objects([(scene, a, b, "a", "b", None)])[0]
    >>> found["distance"], found["band"], found["points"]
    (60.0, 1, [[120.0, 120.0], [120.0, 180.0]])
    """
    return [None if text is None else _DECODER.decode(text) for text in measure_jobs(jobs)]


def _measure_plain(
    jobs: list[MeasureJob],
    measured: list[int],
    placed: list[tuple[Any, Any]],
    answers: list[str | None],
) -> None:
    """Fill in the answers of measures without an arc: one shortest line call for all."""
    firsts = np.array([placed[k][0] for k in measured], dtype=object)
    seconds = np.array([placed[k][1] for k in measured], dtype=object)
    lines = shapely.shortest_line(firsts, seconds)
    if shapely.is_missing(lines).any():
        return
    ends = np.asarray(shapely.get_coordinates(lines), dtype=np.float64).reshape(-1, 2, 2)
    for k, pair_ends in zip(measured, ends.tolist(), strict=True):
        scene, _, _, a, b, _ = jobs[k]
        answers[k] = measurement_text(scene.ruleset, a, b, pair_ends)


def _measure_shots(
    jobs: list[MeasureJob],
    measured: list[int],
    placed: list[tuple[Any, Any]],
    answers: list[str | None],
) -> None:
    """Fill in the answers of measures from an arc: their attack ranges ranged together."""
    shots: list[Shot] = []
    for k in measured:
        scene, attacker, _, _, _, arc = jobs[k]
        pose = (attacker.x, attacker.y, attacker.heading)
        assert arc is not None
        shots.append((scene.ruleset, pose, attacker.base, placed[k][1], arc, placed[k][0]))
    for k, shot in zip(measured, attack_ranges(shots), strict=True):
        scene, attacker, defender, a, b, arc = jobs[k]
        assert arc is not None
        text = measurement_text(scene.ruleset, a, b, shot.points.tolist())[:-1]
        text += f', "arc": {encode_basestring(arc)}, "in_arc": '
        if not shot.in_arc and not edges_may_be_parallel(attacker.heading, defender.heading):
            # Out of arc without tied segments: no obstruction is answered, none measured.
            answers[k] = text + 'false, "obstructed": null, "obstructed_by": []}'
        else:
            fields = xwing_shot_fields(scene, attacker, defender, shot, placed[k])
            answers[k] = (
                text + ("true, " if shot.in_arc else "false, ") + _ENCODER.encode(fields)[1:]
            )
