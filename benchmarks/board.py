"""The board's server at speed: ``check --margins`` through ``POST /api/query`` and ``/api/live``.

``python -m benchmarks.board [--requests N]``. Starts the real server (``python -m
tabletop serve --port 0``, uvicorn, the guard and all) and sends, over one kept-alive
connection as a browser does, N check requests (``{"op": "check", "margins": true}``,
fixes on, as the page asks after a drag) of two tables:

- the tournament table: the bundled ``examples/xwing-tournament.toml`` (6 obstacles,
  5 ships) with 3 more ships, 8 in all;
- the crammed table: 60 catalog tokens on a 70 mm grid (``benchmarks.scaling``), every
  one illegal, each with its fix searched.

Each request moves one obstacle by a fraction of a millimetre, as a drag leaves the
table, so no answer comes from the query's scene cache. Requests start at least 25 ms
apart: the server refuses more than 50 requests a second from one client, and a page
sends one per drag. Beside it the same requests through ``tabletop query`` in one
process (a line written to its standard input, its answer read back, timed per line),
through the live verdict's WebSocket (``/api/live``, one message and its answer, as the
page asks while a piece is dragged: the same request with ``"fix": false``, the page's
while the piece moves), and through the query's answer function in this
process (the floor: no HTTP, no pipe).
Figures are wall-clock milliseconds, median and 95th percentile.

The page's own figure, from the end of a drag to the verdict drawn, is
``benchmarks.board_browser``'s; the budget for the tournament table is 50 ms there.
The live answer's target: the tournament table within :data:`LIVE_TARGET_MS` (p95).
"""

from __future__ import annotations

import argparse
import copy
import http.client
import json
import re
import signal
import statistics
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from benchmarks.scaling import crammed_tokens
from tabletop.app.query.answers import answer

ROOT = Path(__file__).resolve().parent.parent
TOURNAMENT = ROOT / "examples" / "xwing-tournament.toml"
#: Least time between the starts of two requests to the server, s (under 50 a second).
PACE_S = 0.025
#: The page's budget for the tournament table, drag end to verdict drawn, ms.
BUDGET_MS = 50.0
#: The target of the server's live answer for the tournament table, ms (p95).
LIVE_TARGET_MS = 5.0
_ADDRESS = re.compile(r"http://127\.0\.0\.1:(\d+)/")


def tournament_table() -> dict[str, Any]:
    """Return the bundled tournament example with three more ships (6 obstacles, 8 ships)."""
    scene: dict[str, Any] = tomllib.loads(TOURNAMENT.read_text("utf-8"))
    scene["ships"] += [
        {"id": "howl", "base": "small", "at": [760.0, 50.0], "heading": 90.0, "player": 1},
        {"id": "soontir", "base": "small", "at": [140.0, 864.4], "heading": 270.0, "player": 2},
        {"id": "whisper", "base": "small", "at": [800.0, 864.4], "heading": 270.0, "player": 2},
    ]
    return scene


def requests(scene: dict[str, Any], count: int) -> Iterator[bytes]:
    """Yield `count` check lines, each with the first obstacle moved a little further."""
    for number in range(count):
        moved = copy.deepcopy(scene)
        x, y = moved["obstacles"][0]["at"]
        moved["obstacles"][0]["at"] = [round(x + 0.013 * (number + 1), 6), y]
        yield json.dumps({"op": "check", "scene": moved, "margins": True}).encode("utf-8")


def summary(times_s: list[float]) -> tuple[float, float]:
    """Return the median and the 95th percentile, in ms."""
    ms = sorted(t * 1000.0 for t in times_s)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return statistics.median(ms), p95


class Server:
    """``tabletop serve`` in a child process, on a free port; stopped with Ctrl-C."""

    def __enter__(self) -> Server:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tabletop", "serve", "--port", "0"],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        assert self.process.stdout is not None
        match = _ADDRESS.search(self.process.stdout.readline())
        assert match, "the server printed no address"
        self.port = int(match.group(1))
        return self

    def __exit__(self, *exc: object) -> None:
        self.process.send_signal(signal.SIGINT)
        self.process.wait(timeout=20)
        if self.process.stdout is not None:
            self.process.stdout.close()


def through_server(port: int, lines: list[bytes]) -> list[float]:
    """Time each line as ``POST /api/query`` over one kept-alive connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json", "Host": f"127.0.0.1:{port}"}
    times = []
    last_start = 0.0
    for line in lines:
        wait = last_start + PACE_S - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        start = last_start = time.perf_counter()
        conn.request("POST", "/api/query", body=line, headers=headers)
        response = conn.getresponse()
        body = response.read()
        times.append(time.perf_counter() - start)
        assert response.status == 200, body[:200]
    conn.close()
    return times


def through_socket(port: int, lines: list[bytes]) -> list[float]:
    """Time each line as one message on the live verdict's WebSocket, and its answer."""
    from benchmarks.live_socket import LiveSocket

    times = []
    last_start = 0.0
    with LiveSocket(port) as live:
        for number, line in enumerate(lines):
            request = json.loads(line)
            text = json.dumps({**request, "fix": False, "id": number})
            wait = last_start + PACE_S - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            start = last_start = time.perf_counter()
            answer_text = live.ask(text)
            times.append(time.perf_counter() - start)
            assert answer_text.startswith(f'{{"id": {number}, '), answer_text[:200]
    return times


def through_command(lines: list[bytes], warm: list[bytes]) -> list[float]:
    """Time each line through one ``tabletop query`` process (write a line, read its answer).

    The `warm` lines go first, untimed: a new process pays for its imports on its first.
    """
    process = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "query"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
    )
    assert process.stdin is not None
    assert process.stdout is not None
    times = []
    for number, line in enumerate([*warm, *lines]):
        start = time.perf_counter()
        process.stdin.write(line + b"\n")
        process.stdin.flush()
        answer_line = process.stdout.readline()
        if number >= len(warm):
            times.append(time.perf_counter() - start)
        assert b'"error"' not in answer_line[:20], answer_line[:200]
    process.stdin.close()
    process.wait(timeout=60)
    process.stdout.close()
    return times


def in_process(lines: list[bytes]) -> list[float]:
    """Time each line through the query's answer function in this process."""
    times = []
    for line in lines:
        start = time.perf_counter()
        answer(line.decode("utf-8"), 1, strict=False)
        times.append(time.perf_counter() - start)
    return times


def _warm(run: Callable[[list[bytes]], list[float]], scene: dict[str, Any]) -> None:
    # The first answers of a process pay for imports and compiled kernels' loading.
    run([json.dumps({"op": "check", "scene": scene, "margins": True}).encode()] * 3)


def main(argv: list[str] | None = None) -> None:
    """Print the table: each table's median and 95th percentile, each way."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100, help="requests per table")
    count = parser.parse_args(argv).requests
    tables = {
        "tournament (6 obstacles, 8 ships)": tournament_table(),
        "crammed (60 tokens)": crammed_tokens(),
    }
    print(f"check --margins, {count} requests per table, each after a small drag; ms")
    print(f"{'table':36} {'way':38} {'median':>8} {'p95':>8}")
    with Server() as server:
        for name, scene in tables.items():
            lines = list(requests(scene, count))
            through_server(server.port, lines[:3])  # the server's first answers warm it
            _warm(in_process, scene)
            ways = {
                "POST /api/query (tabletop serve)": through_server(server.port, lines[3:]),
                "WebSocket /api/live (tabletop serve)": through_socket(server.port, lines[3:]),
                "tabletop query, one process": through_command(lines[3:], lines[:3]),
                "answer() in this process": in_process(lines[3:]),
            }
            for way, times in ways.items():
                median, p95 = summary(times)
                print(f"{name:36} {way:38} {median:8.1f} {p95:8.1f}")
    print(
        f"The page's budget for the tournament table is {BUDGET_MS:g} ms from the end of a "
        "drag to the verdict drawn (benchmarks.board_browser measures it in the page); "
        f"the live answer's, {LIVE_TARGET_MS:g} ms p95 through /api/live."
    )


if __name__ == "__main__":
    main()
