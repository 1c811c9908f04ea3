"""The query oracle's throughput (``python -m benchmarks.query``).

Measure requests through :func:`tabletop.cmd_query.serve` in one process: each with a new
10-object inline scene (3 obstacles, 7 ships; no scene is seen twice, so each is parsed
and built), the same scene on every request (parsed once, then answered from the cache),
and one ``measure_many`` request of the same pairs on one scene. Beside each, the plain
alternative in the same run: :func:`obstacles.measuring.measure` called directly on
scenes parsed beforehand.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from obstacles.measuring import measure
from tabletop.cmd_query import serve
from tabletop.scenefile import parse_scene

#: The target: measure requests per second with a new scene on each.
TARGET_PER_S = 2000


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


#: Requests per second by CPU time (``time.process_time``) of the last :func:`rate` call:
#: on a shared machine, wall time also counts waiting for a core.
_CPU_RATE: list[float] = [0.0]


def rate(lines: list[str]) -> float:
    """Return requests per second of wall time (the CPU-time rate goes to ``_CPU_RATE``)."""
    start, cpu = time.perf_counter(), time.process_time()
    serve(lines, io.StringIO())
    _CPU_RATE[0] = len(lines) / max(time.process_time() - cpu, 1e-9)
    return len(lines) / (time.perf_counter() - start)


def report(n: int) -> str:
    serve([json.dumps({"op": "measure", "scene": scene(-1), **pair(0)})], io.StringIO())
    out = []
    for arc in (None, "front"):
        extra = {} if arc is None else {"arc": arc}
        fresh = [
            json.dumps({"op": "measure", "scene": scene(k), **pair(k), **extra}) for k in range(n)
        ]
        same = [
            json.dumps({"op": "measure", "scene": scene(n), **pair(k), **extra}) for k in range(n)
        ]
        many = [
            json.dumps(
                {
                    "op": "measure_many",
                    "scene": scene(n + 1),
                    "pairs": [pair(k) | extra for k in range(n)],
                }
            )
        ]
        scenes = [parse_scene(scene(n + 2 + k), "scene") for k in range(n)]
        start = time.perf_counter()
        for k, s in enumerate(scenes):
            measure(s, **{"a": pair(k)["from"], "b": pair(k)["to"], "arc": arc}).to_json()
        direct = n / (time.perf_counter() - start)
        new_rate = rate(fresh)
        new_cpu = _CPU_RATE[0]
        same_rate = rate(same)
        many_rate = n * rate(many)
        label = "with --arc front" if arc else "no arc"
        met = "yes" if new_rate >= TARGET_PER_S else "NO"
        out.append(
            f"tabletop query, measure {label}: new 10-object scene per request "
            f"{new_rate:,.0f}/s ({new_cpu:,.0f}/s of CPU time; target >= {TARGET_PER_S:,}/s: "
            f"{met}); same scene every request {same_rate:,.0f}/s; one measure_many of {n} pairs {many_rate:,.0f} pairs/s; "
            f"measure() on scenes parsed beforehand {direct:,.0f}/s"
        )
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.query", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="10x fewer requests")
    args = parser.parse_args(argv)
    print(report(200 if args.quick else 2000))
    return 0


if __name__ == "__main__":
    sys.exit(main())
