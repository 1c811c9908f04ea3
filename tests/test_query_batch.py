"""The oracle's chunked stream gives, line for line, what one request at a time gives.

:func:`request_batches` must split a stream as :func:`request_lines` does however the
reads fall, and must not wait for input while a line read is unanswered;
:func:`answer_batch` must answer every line as :func:`answer_bytes` does alone, measured
together or not (random scenes, repeated poses, faults, arcs, ids), and a chunk's arc
shots ranged together as each alone: every line the same answer, its lengths within
``AGREEMENT_MM`` (``tests/agreement.py``: measured together is another code path, GEOS
and numpy over many pairs at once).
"""

from __future__ import annotations

import copy
import io
import json
import random
from typing import Any

import pytest
import shapely
from agreement import agree, arrays_agree, assert_lines_agree
from test_query_fast import NOT_PLAIN, random_scene

from tabletop.app.cli import emit_json
from tabletop.app.query import answers as cmd_query
from tabletop.app.query import batch as query_batch
from tabletop.app.query import fast as query_fast
from tabletop.app.query.answers import (
    TooLong,
    answer_batch,
    answer_bytes,
    request_batches,
    request_lines,
    serve_stream,
)
from tabletop.app.query.batch import measure_jobs
from tabletop.app.query.fast import _line_report
from tabletop.geom.arcs import XWING_ARCS
from tabletop.geom.objects import Ship
from tabletop.geom.rulesets import RULESETS
from tabletop.obstacles.rulings import line_report


class Pieces(io.RawIOBase):
    """A stream whose reads return the given pieces, one a read (a pipe's writes)."""

    def __init__(self, pieces: list[bytes], out: io.StringIO | None = None) -> None:
        self.pieces = list(pieces)
        self.out = out
        self.written_at_read: list[int] = []

    def read1(self, size: int = -1) -> bytes:
        if self.out is not None:
            self.written_at_read.append(self.out.getvalue().count("\n"))
        return self.pieces.pop(0) if self.pieces else b""


def cut(data: bytes, rng: random.Random) -> list[bytes]:
    pieces, start = [], 0
    while start < len(data):
        size = rng.choice([1, 2, 3, 7, 10, 11, 64, 1000])
        pieces.append(data[start : start + size])
        start += size
    return pieces


def flat(batches: Any) -> list[bytes | TooLong]:
    return [line for batch in batches for line in batch]


def test_lines_are_split_as_one_at_a_time_however_the_reads_fall() -> None:
    rng = random.Random("batches")
    limit = 10
    for _ in range(400):
        lines = [
            bytes(rng.choice(b"ab\r {}\xff") for _ in range(rng.choice([0, 1, 5, 9, 10, 11, 30])))
            for _ in range(rng.randint(0, 8))
        ]
        data = b"\n".join(lines) + rng.choice([b"", b"\n"])
        expected = list(request_lines(io.BytesIO(data), limit))
        assert flat(request_batches(io.BytesIO(data), limit)) == expected, data
        assert flat(request_batches(Pieces(cut(data, rng)), limit)) == expected, data  # type: ignore[arg-type]


def test_each_line_read_is_answered_before_the_next_read() -> None:
    requests = [
        json.dumps({"op": "measure", "scene": {"ships": []}, "from": "a", "to": "b"}).encode()
        for _ in range(3)
    ]
    out = io.StringIO()
    stream = Pieces([requests[0] + b"\n", requests[1] + b"\n" + requests[2], b"\n"], out)
    assert serve_stream(stream, out) == 3  # type: ignore[arg-type]
    # Before each read, every whole line read so far has its answer written.
    assert stream.written_at_read == [0, 1, 2, 3]


def one_at_a_time(raws: list[bytes | TooLong], *, strict: bool) -> str:
    out = io.StringIO()
    for number, raw in enumerate(raws, 1):
        emit_json(answer_bytes(raw, number, strict=strict), out)
    return out.getvalue()


def together(raws: list[bytes | TooLong], *, strict: bool, size: int) -> str:
    out = io.StringIO()
    for start in range(0, len(raws), size):
        answer_batch(raws[start : start + size], out, start + 1, strict=strict)
    return out.getvalue()


def corpus(rng: random.Random, count: int) -> list[bytes | TooLong]:
    raws: list[bytes | TooLong] = []
    for k in range(count):
        data: Any = random_scene(rng, rng.choice(sorted(RULESETS)))
        if k % 6 == 0:  # a scene the general reader must refuse or read
            change = rng.choice(NOT_PLAIN)
            data = copy.deepcopy(change if not isinstance(change, dict) else {**data, **change})
        ships = data.get("ships", []) if isinstance(data, dict) else []
        if k % 7 == 3 and ships and isinstance(ships[0], dict):  # read by the general reader
            ships[0]["id"] = rng.choice(["é", "\ud801", 'a"b\\'])
        real = [str(s["id"]) for s in ships if isinstance(s, dict) and "id" in s]
        if k % 4 == 1 and raws:  # a pose seen before in the chunk: the same ship again
            real = real[:1] + real[:1] if len(real) == 1 else real
        odd = ["s0", "o0", "edge:left", "nobody", *real]
        request: dict[str, Any] = {"op": "measure", "scene": data}
        if len(real) > 1 and rng.random() < 0.85:
            request["from"], request["to"] = rng.sample(real, 2)
        else:
            request["from"], request["to"] = rng.choice(odd), rng.choice(odd)
        if k % 9 == 0:
            request["arc"] = "front"
        if k % 5 == 0:
            request["id"] = rng.choice([k, f"r{k}", None, 1.5, True, "é", "\ud800", 'q"\\'])
        if k % 17 == 0:
            request["to"] = 3
        if k % 19 == 0:
            request["extra"] = 1
        if k % 23 == 0:
            request = {"op": "check", "scene": data, "fix": False}
        raws.append(json.dumps(request).encode())
        if k % 3 == 0:  # the same scene asked again, the other way round
            swapped = {**request, "from": request.get("to"), "to": request.get("from")}
            raws.append(json.dumps(swapped).encode())
        if k % 29 == 0:
            raws += [b"", b"\xff{}", b"[1]", b'{"op": "measure"', TooLong(99)]
    return raws


def fresh_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cmd_query, "_SCENES", type(cmd_query._SCENES)())
    monkeypatch.setattr(query_fast, "_OUTLINES", type(query_fast._OUTLINES)())


@pytest.mark.parametrize("strict", [False, True])
def test_a_chunk_is_answered_as_each_line_alone(
    strict: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    raws = corpus(random.Random(f"chunks {strict}"), 500)
    with monkeypatch.context() as patch:
        fresh_caches(patch)
        alone = one_at_a_time(raws, strict=strict)
    for size in (1, 7, 64, len(raws)):
        with monkeypatch.context() as patch:
            fresh_caches(patch)
            assert_lines_agree(together(raws, strict=strict, size=size), alone)
    answers = [json.loads(line) for line in alone.splitlines()]
    assert len(answers) == len(raws)
    assert sum("distance" in a for a in answers) > len(raws) // 3  # many were measured


def test_many_random_measures_together_are_the_one_request_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random("many measures")
    raws: list[bytes | TooLong] = []
    for _ in range(3000):
        data = random_scene(rng, rng.choice(sorted(RULESETS)))
        a, b = rng.sample([s["id"] for s in data["ships"]], 2)
        raws.append(json.dumps({"op": "measure", "scene": data, "from": a, "to": b}).encode())
    with monkeypatch.context() as patch:
        fresh_caches(patch)
        alone = one_at_a_time(raws, strict=False)
    sizes: list[int] = []

    def counted(jobs: list[Any]) -> list[Any]:
        sizes.append(len(jobs))
        return measure_jobs(jobs)

    with monkeypatch.context() as patch:
        fresh_caches(patch)
        patch.setattr(cmd_query, "measure_jobs", counted)
        assert_lines_agree(together(raws, strict=False, size=100), alone)
    assert sum(sizes) > 2500  # nearly all measured together (disk bases alone)
    assert max(sizes) > 80


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_the_line_report_on_plain_floats_is_line_report(ruleset: str) -> None:
    rules = RULESETS[ruleset]
    lines, zero_band = tuple(rules.band_lines), rules.zero_band(rules.band_kinds[0])
    within = rules.contested_within
    rng = random.Random(f"lines {ruleset}")
    marks = [0.0, *lines, *((a + b) / 2 for a, b in zip((0.0, *lines), lines, strict=False))]
    distances = [rng.uniform(0.0, 1.2 * max(lines)) for _ in range(5000)]
    for mark in marks:
        for step in (0.0, 1e-9, 1e-7, 1e-6, 2e-6, 0.5, within, 1.0, 3.0):
            for offset in (step, -step, within + step, -within - step):
                distances.append(max(mark + offset, 0.0))
    for d in distances:
        found = line_report(rules, d)
        line, margin, contested = _line_report(d, lines, zero_band, within)
        # The same float decided by the same predicates: the line and the call exactly.
        assert (line, contested) == (found.line, found.contested), d
        assert agree(margin, found.margin), d


def test_outlines_placed_together_are_the_one_pose_corners(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random("placed together")
    missing: dict[Any, Any] = {}
    for name, rules in sorted(RULESETS.items()):
        for base in rules.base_sizes:
            for k in range(400):
                heading = rng.uniform(0.0, 360.0) if k % 2 else float(rng.randint(0, 359))
                x = rng.uniform(-1e6, 1e6) if k % 5 == 0 else rng.uniform(-10.0, 1000.0)
                ship = Ship(f"s{k}", base, x, rng.uniform(-10.0, 1000.0), heading, 1, None)
                missing[(name, base, ship.x, ship.y, ship.heading)] = (rules, ship)
    with monkeypatch.context() as patch:
        patch.setattr(query_fast, "_OUTLINES", type(query_fast._OUTLINES)())
        patch.setattr(query_batch, "_OUTLINES", query_fast._OUTLINES)
        placed = query_batch._place(missing)
    assert len(placed) == len(missing)
    disks = 0
    for key, (rules, ship) in missing.items():
        corners = query_fast._corners(rules, ship)
        if corners is None:
            assert placed[key] is None
            disks += 1
            continue
        ring = shapely.get_coordinates(placed[key])
        assert arrays_agree(ring[:-1], corners), key
    assert disks < len(missing) // 2


def test_arc_shots_together_are_the_one_request_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every arc of both X-Wing rulesets (in and out of arc, parallel bases with tied
    # segments, obstacles in the way), repeated attackers, request ids, and the shots the
    # batch leaves alone (Armada hull zones, unknown arcs, a hull zone, a bad type).
    rng = random.Random("arc shots")
    raws: list[bytes | TooLong] = []
    for k in range(2400):
        ruleset = rng.choice(
            ["xwing1", "xwing2", "xwing2", "armada"] if k % 10 == 0 else ["xwing1", "xwing2"]
        )
        data = random_scene(rng, ruleset)
        a, b = rng.sample([s["id"] for s in data["ships"]], 2)
        zones = ["front", "left", "right", "rear"]
        arc: Any = rng.choice(zones if ruleset == "armada" else XWING_ARCS)
        if k % 37 == 0:
            arc = rng.choice(["side", "Front", 3, None, ["front"]])
        request: dict[str, Any] = {"op": "measure", "scene": data, "from": a, "to": b, "arc": arc}
        if k % 41 == 0:
            request["defending_zone"] = "front"
        if k % 5 == 0:
            request["id"] = rng.choice([k, f"r{k}", None, "é"])
        raws.append(json.dumps(request).encode())
        if k % 4 == 0:  # the same attacker from another arc
            other = {**request, "arc": rng.choice(XWING_ARCS)}
            raws.append(json.dumps(other).encode())
    with monkeypatch.context() as patch:
        fresh_caches(patch)
        alone = one_at_a_time(raws, strict=False)
    shots: list[int] = []

    def counted(jobs: list[Any]) -> list[Any]:
        shots.append(sum(job[5] is not None for job in jobs))
        return measure_jobs(jobs)

    with monkeypatch.context() as patch:
        fresh_caches(patch)
        patch.setattr(cmd_query, "measure_jobs", counted)
        assert_lines_agree(together(raws, strict=False, size=100), alone)
    assert sum(shots) > 2300  # nearly all ranged together
    answers = [json.loads(line) for line in alone.splitlines()]
    kinds = {(a.get("in_arc"), a.get("obstructed"), "tied_segments" in a) for a in answers}
    assert {(True, False, False), (True, True, False), (False, None, False)} <= kinds
    assert any(a.get("tied_segments") for a in answers)
    assert any("clearances" in a for a in answers)
    assert sum("error" in a for a in answers) > 50


def test_measure_many_pairs_together_are_each_pair_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # Pairs of every kind in one request (ships, obstacles, lines of the table, unknown
    # ids, arcs good and bad, hull zones, Armada squadrons, faults at random places):
    # the answer is the one each pair measured in turn gives, the first fault included.
    rng = random.Random("measure many")
    raws: list[bytes | TooLong] = []
    for k in range(300):
        ruleset = rng.choice(sorted(RULESETS))
        data = random_scene(rng, ruleset)
        ships = [s["id"] for s in data["ships"]]
        ids = ships + [o["id"] for o in data["obstacles"]]
        arcs = ["front", "left", "rear"] if ruleset == "armada" else list(XWING_ARCS)
        pairs: list[Any] = []
        for _ in range(rng.randint(0, 12)):
            a, b = rng.sample(ships, 2)
            pair: dict[str, Any] = {"from": a, "to": b}
            if rng.random() < 0.6:
                pair["arc"] = rng.choice(arcs)
            if rng.random() < 0.05:  # to an obstacle or a line; with an arc, a fault
                pair["to"] = rng.choice([*ids, "edge:left"])
            if rng.random() < 0.03:  # a fault
                faults: list[Any] = [
                    [1],
                    {"from": a, "to": b, "x": 1},
                    {"from": a, "to": a},
                    {"from": a, "to": "nobody"},
                    {"from": a, "to": 3},
                    {"from": a, "to": b, "arc": "side"},
                    {"from": a, "to": b, "arc": "front", "defending_zone": "rear"},
                ]
                pair = rng.choice(faults)
            pairs.append(pair)
        request: dict[str, Any] = {"op": "measure_many", "scene": data, "pairs": pairs}
        if k % 3 == 0:
            request["id"] = f"m{k}"
        raws.append(json.dumps(request).encode())
    with monkeypatch.context() as patch:
        fresh_caches(patch)
        patch.setattr(cmd_query, "measure_pair", lambda *args, **kwargs: None)
        alone = one_at_a_time(raws, strict=False)
    sizes: list[int] = []

    def counted(jobs: list[Any]) -> list[Any]:
        sizes.append(len(jobs))
        return query_batch.measure_objects(jobs)

    with monkeypatch.context() as patch:
        fresh_caches(patch)
        patch.setattr(cmd_query, "measure_objects", counted)
        assert_lines_agree(one_at_a_time(raws, strict=False), alone)
    assert sum(sizes) > 800  # the X-Wing pairs before any fault, measured together
    with monkeypatch.context() as patch:
        fresh_caches(patch)
        assert_lines_agree(together(raws, strict=False, size=50), alone)
    answers = [json.loads(line) for line in alone.splitlines()]
    measured = [a for a in answers if "measurements" in a]
    assert len(measured) > 150
    assert sum("error" in a for a in answers) > 20
    assert any(m.get("in_arc") for a in measured for m in a["measurements"])
