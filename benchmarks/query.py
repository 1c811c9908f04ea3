"""The query oracle's throughput (``python -m benchmarks.query``).

Measure requests through :func:`tabletop.app.query.answers.serve_stream` (the command's path:
request lines as bytes on a stream) in one process, one thread
(shapely and numpy here run no threads of their own): each request with a new 10-object
inline scene (3 obstacles, 7 ships; no scene is seen twice, so each is parsed and built),
the same scene on every request (parsed once, then answered from the cache), and one
``measure_many`` request of the same pairs on one scene.

Beside each, the plain alternative a caller of the Python API writes, timed in the same
run in alternating rounds (each side on scenes of its own, made alike):
``json.loads`` of the request, :func:`parse_scene` of its
scene (for the repeated scene, once), :func:`measure` and ``json.dumps`` of the record.
Each figure is the median of the rounds, by CPU time (``time.process_time``: on a shared
machine wall time also counts waiting for a core) with wall time beside it, and every
answer of the oracle is compared with the alternative's.
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from tabletop.app.query.answers import serve_stream
from tabletop.app.scene.scenefile import parse_scene
from tabletop.obstacles.measuring import measure

#: The targets: measure requests per second of CPU with a new scene on each (without an
#: arc, and with one), and the oracle's speed over a naive loop over the library.
TARGET_PER_S = {None: 2000, "front": 1500}
TARGET_OVER_API = 1.5
#: Alternating rounds of each figure; the median is reported.
ROUNDS = 5


def scene(seed: int) -> dict[str, Any]:
    """Return a legal 10-object X-Wing scene in the play phase: 3 asteroids, 7 ships."""
    rng = random.Random(seed)
    obstacles = [
        {
            "id": f"o{i}",
            "token": f"coreasteroid{i}",
            "at": [150.0 + 250.0 * i + rng.uniform(0.0, 5.0), 450.0],
            "angle": rng.uniform(0.0, 360.0),
        }
        for i in range(3)
    ]
    ships = [
        {
            "id": f"s{i}",
            "base": "small",
            "at": [100.0 + 110.0 * i + rng.uniform(0.0, 5.0), 150.0 + 500.0 * (i % 2)],
            "heading": rng.uniform(0.0, 360.0),
            "player": 1 + i % 2,
        }
        for i in range(7)
    ]
    return {"ruleset": "xwing2", "phase": "play", "obstacles": obstacles, "ships": ships}


def pair(k: int) -> dict[str, str]:
    return {"from": f"s{k % 7}", "to": f"s{(k + 1) % 7}"}


def _oracle(lines: list[str]) -> list[Any]:
    # The command's own path: the request lines as bytes on a stream, read a chunk at a time.
    out = io.StringIO()
    serve_stream(io.BytesIO("".join(line + "\n" for line in lines).encode()), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _api(lines: list[str], *, parse_once: bool = False) -> list[Any]:
    """Answer the request lines with the Python API, as a caller without the oracle would."""
    answers: list[Any] = []
    parsed: Any = None
    for line in lines:
        request = json.loads(line)
        if parsed is None or not parse_once:
            parsed = parse_scene(request["scene"])
        pairs = request["pairs"] if request["op"] == "measure_many" else [request]
        records = [measure(parsed, p["from"], p["to"], arc=p.get("arc")).to_json() for p in pairs]
        text = json.dumps(
            {"measurements": records} if request["op"] == "measure_many" else records[0]
        )
        answers.append(json.loads(text))
    return answers


def _timed(run: Callable[[], list[Any]]) -> tuple[float, float, list[Any]]:
    start, cpu = time.perf_counter(), time.process_time()
    answers = run()
    return time.process_time() - cpu, time.perf_counter() - start, answers


class Figure:
    """Paired rounds of the oracle and the API on the same requests."""

    def __init__(self, make: Callable[[int], list[str]], items: int, parse_once: bool) -> None:
        self.cpu: list[float] = []
        self.wall: list[float] = []
        self.api_cpu: list[float] = []
        self.agree = True
        self.items = items
        for index in range(ROUNDS):
            # Each side its own scenes of the same make: placed outlines are cached by
            # pose, so the second to answer the very same scenes would find them built.
            lines, other = make(2 * index), make(2 * index + 1)
            pair_of_runs: list[tuple[str, Callable[[], list[Any]]]] = [
                ("oracle", functools.partial(_oracle, lines)),
                ("api", functools.partial(_api, other, parse_once=parse_once)),
            ]
            if index % 2:
                pair_of_runs.reverse()
            answers = {}
            for name, run in pair_of_runs:
                cpu, wall, answers[name] = _timed(run)
                if name == "oracle":
                    self.cpu.append(cpu)
                    self.wall.append(wall)
                else:
                    self.api_cpu.append(cpu)
            # The agreement check, untimed: the API on the oracle's own requests.
            self.agree &= answers["oracle"] == _api(lines, parse_once=parse_once)

    def rate(self) -> float:
        """Return items per second of CPU time (median round)."""
        return self.items / statistics.median(self.cpu)

    def wall_rate(self) -> float:
        """Return items per second of wall time (median round)."""
        return self.items / statistics.median(self.wall)

    def api_rate(self) -> float:
        """Return the API's items per second of CPU time (median round)."""
        return self.items / statistics.median(self.api_cpu)

    def ratio(self) -> float:
        """Return the median over rounds of the API's CPU time over the oracle's."""
        return statistics.median(a / o for a, o in zip(self.api_cpu, self.cpu, strict=True))

    def text(self, unit: str) -> str:
        per = 1e6 / self.rate()
        return (
            f"{self.rate():,.0f} {unit}/s of CPU ({per:,.0f} us each; wall {self.wall_rate():,.0f}/s)"
            f" vs the API {self.api_rate():,.0f}/s: x{self.ratio():.2f} paired;"
            f" answers {'agree' if self.agree else 'DIFFER'}"
        )


def fresh_lines(index: int, n: int, arc: str | None) -> list[str]:
    """Return round `index`'s `n` measure requests, each with a scene never seen before."""
    extra = {} if arc is None else {"arc": arc}
    base = (index + 1) * 1_000_000 + (0 if arc is None else 500_000)
    return [
        json.dumps({"op": "measure", "scene": scene(base + k), **pair(k), **extra})
        for k in range(n)
    ]


def same_lines(index: int, n: int, arc: str | None) -> list[str]:
    """Return round `index`'s `n` measure requests, all on one scene."""
    extra = {} if arc is None else {"arc": arc}
    repeated = scene(-2 - index - (0 if arc is None else 100))
    return [json.dumps({"op": "measure", "scene": repeated, **pair(k), **extra}) for k in range(n)]


def many_lines(index: int, n: int, arc: str | None) -> list[str]:
    """Return round `index`'s one measure_many request of `n` pairs."""
    extra = {} if arc is None else {"arc": arc}
    pairs = [pair(k) | extra for k in range(n)]
    one = scene(-200 - index - (0 if arc is None else 100))
    return [json.dumps({"op": "measure_many", "scene": one, "pairs": pairs})]


def report(n: int) -> str:
    """Return the figures for `n` requests (and `n` pairs of measure_many) over the rounds."""
    n = max(n // ROUNDS, 20)  # a round's share
    _oracle([json.dumps({"op": "measure", "scene": scene(-1), **pair(0)})])  # imports, caches
    out = []
    for arc in (None, "front"):
        fresh = functools.partial(fresh_lines, n=n, arc=arc)
        same = functools.partial(same_lines, n=n, arc=arc)
        many = functools.partial(many_lines, n=n, arc=arc)
        new_figure = Figure(fresh, n, parse_once=False)
        same_figure = Figure(same, n, parse_once=True)
        many_figure = Figure(many, n, parse_once=True)
        label = "no arc" if arc is None else "--arc front"
        target = TARGET_PER_S[arc]
        met = "yes" if new_figure.rate() >= target else "NO"
        over = "yes" if new_figure.ratio() >= TARGET_OVER_API else "NO"
        out += [
            f"tabletop query, measure {label}, 1 thread, median of {ROUNDS} paired rounds:",
            f"  new 10-object scene per request: {new_figure.text('requests')};"
            f" target >= {target:,}/s: {met}; >= {TARGET_OVER_API}x the API: {over}",
            f"  same scene every request:        {same_figure.text('requests')}",
            f"  one measure_many of {n} pairs:  {many_figure.text('pairs')}",
        ]
    return "\n".join([*out, f"(request lines decoded by {_decoder()})"])


def _decoder() -> str:
    """Return which decoder reads the oracle's plain request lines (orjson: the fast extra)."""
    from tabletop.app.query import decode as query_decode

    loads = query_decode._LOADS
    return "orjson" if loads.__module__ == "orjson" else "the standard decoder (no orjson)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.query", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="10x fewer requests")
    args = parser.parse_args(argv)
    print(report(1000 if args.quick else 10000))
    return 0


if __name__ == "__main__":
    sys.exit(main())
