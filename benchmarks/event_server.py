"""``tabletop event serve`` under load on the loopback address, bounded in count and time.

``python -m benchmarks.event_server [--clients 200] [--tables 50] [--seconds 60]``: an
Armada event of ``2 * tables`` players is paired by the CLI and served by
``tabletop event serve`` (a process of its own, the shared guard on). Each spectator
holds ``/api/stream`` open and polls ``/api/event`` every 2 s (``If-None-Match``); at
the same time one player of every table reports a result and the opponent confirms it,
the tables starting spread over the first third of the time allowed. Every client
speaks from an address of its own in 127.0.0.0/8 (as phones at a venue do), so the
per-address rate limit applies to each as it would there.

It checks what the contract asks: every result recorded once and as reported, no
answer 5xx, ``event check`` legal; it prints the latencies (p50, p99, max) of the
reports and confirmations. Everything stops by itself: the run is bounded by
``--seconds`` plus a margin, and the server is stopped with Ctrl-C's signal.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from benchmarks.child import interrupt, start
from tabletop.app.cli import main as cli_main

__all__ = ["EventServer", "LoadResult", "make_event", "run_load"]

_ADDRESS = re.compile(r"on (http://\S+?)/?(?: |$)")
_TOKEN = re.compile(r"TO console: \S+/to#(\S+)")


def _cli(*words: str) -> Any:
    out, err = io.StringIO(), io.StringIO()
    code = cli_main([*words, "--json"], out, err)
    if code not in (0, 1):
        raise RuntimeError(f"tabletop {' '.join(words)}: {err.getvalue()}")
    return json.loads(out.getvalue()) if out.getvalue().strip() else None


def make_event(folder: Path, players: int, seed: int = 11) -> Path:
    """Write a paired Armada event (round 1) of `players` players by the CLI."""
    rows = ["id,name,faction"] + [
        f"p{i:03d},Player {i:03d},{'rebel' if i % 2 else 'imperial'}" for i in range(players)
    ]
    (folder / "players.csv").write_text("\n".join(rows) + "\n")
    path = folder / "event.toml"
    _cli("event", "new", "--game", "armada", "--players", str(folder / "players.csv"),
         "--seed", str(seed), "--tier", "premier", "-o", str(path))  # fmt: skip
    _cli("event", "pair", str(path))
    return path


class EventServer:
    """``tabletop event serve EVENT`` on a free loopback port, for as long as the ``with`` lasts."""

    def __init__(self, event: Path, options: tuple[str, ...] = ()) -> None:
        self.event = event
        self.options = options
        self.url = ""
        self.token = ""
        self.lines: list[str] = []
        self.process: subprocess.Popen[str] | None = None

    def __enter__(self) -> EventServer:
        command = [sys.executable, "-m", "tabletop", "event", "serve", str(self.event),
                   "--port", "0", *self.options]  # fmt: skip
        self.process = start(command)
        assert self.process.stdout is not None
        for _ in range(6):
            line = self.process.stdout.readline()
            self.lines.append(line)
            if line.strip().startswith("secrets:"):
                break
        head = "".join(self.lines)
        address, token = _ADDRESS.search(self.lines[0]), _TOKEN.search(head)
        if address is None or token is None:
            self.stop()
            raise RuntimeError(f"tabletop event serve did not start: {head!r}")
        self.url, self.token = address.group(1), token.group(1)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()

    def cpu_seconds(self) -> float:
        """Return the processor time the server has used so far, seconds (Linux)."""
        if self.process is None:
            return float("nan")
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> str:
        """Stop it as Ctrl-C does (kill it only if it does not stop); return its errors."""
        process = self.process
        if process is None:
            return ""
        interrupt(process)
        errors = process.stderr.read() if process.stderr else ""
        self.process = None
        return errors


@dataclass
class LoadResult:
    """What a load run saw."""

    statuses: dict[int, int] = field(default_factory=dict)
    report_ms: list[float] = field(default_factory=list)
    report_server_ms: list[float] = field(default_factory=list)
    confirm_server_ms: list[float] = field(default_factory=list)
    confirm_ms: list[float] = field(default_factory=list)
    poll_ms: list[float] = field(default_factory=list)
    stream_events: int = 0
    recorded: dict[int, Any] = field(default_factory=dict)
    expected: dict[int, list[int]] = field(default_factory=dict)
    legal: bool = False
    seconds: float = 0.0
    late: int = 0
    transport_errors: int = 0
    server_cpu: float = 0.0
    load_average: tuple[float, float] = (0.0, 0.0)
    failed: list[str] = field(default_factory=list)

    def count(self, status: int) -> None:
        """Count an answer's status."""
        self.statuses[status] = self.statuses.get(status, 0) + 1

    @property
    def server_errors(self) -> int:
        """Answers 5xx."""
        return sum(n for s, n in self.statuses.items() if s >= 500)


def percentile(values: list[float], share: float) -> float:
    """Return the `share` percentile of `values` (nearest rank)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1))
    return ordered[rank]


def _client(base: str, number: int, keep_alive: bool = True, **headers: str) -> Any:
    import httpx

    # one loopback address per client: 127.0.<1..>.<1..250>
    address = f"127.0.{1 + number // 250}.{1 + number % 250}"
    # a player's phone opens a connection per action (the server closes idle ones)
    limits = httpx.Limits(max_keepalive_connections=None if keep_alive else 0)
    transport = httpx.AsyncHTTPTransport(local_address=address, limits=limits)
    return httpx.AsyncClient(base_url=base, transport=transport, headers=headers, timeout=60.0)


async def _send(client: Any, result: LoadResult, method: str, path: str, **options: Any) -> Any:
    """Send a request as a page does, sending it again after a dropped connection."""
    import httpx

    for _ in range(5):
        try:
            answer = await client.request(method, path, **options)
        except httpx.TransportError:
            result.transport_errors += 1
            await asyncio.sleep(0.5)
            continue
        result.count(answer.status_code)
        return answer
    raise RuntimeError(f"{method} {path}: five dropped connections in a row")


async def _hold_stream(client: Any, result: LoadResult, stop: asyncio.Event) -> None:
    """Hold /api/stream open, opening it again when it drops (as EventSource does)."""
    import httpx

    while not stop.is_set():
        try:
            async with client.stream("GET", "/api/stream") as answer:
                result.count(answer.status_code)
                async for line in answer.aiter_lines():
                    if line.startswith("data:"):
                        result.stream_events += 1
                    if stop.is_set():
                        return
        except httpx.TransportError:
            result.transport_errors += 1
            await asyncio.sleep(1.0)


async def _spectator(base: str, number: int, result: LoadResult, stop: asyncio.Event) -> None:
    async with _client(base, number) as client:
        streaming = asyncio.create_task(_hold_stream(client, result, stop))
        etag = None
        await asyncio.sleep(random.uniform(0, 2))
        while not stop.is_set():
            started = time.perf_counter()
            headers = {"If-None-Match": etag or ""}
            answer = await _send(client, result, "GET", "/api/event", headers=headers)
            result.poll_ms.append((time.perf_counter() - started) * 1000)
            etag = answer.headers.get("etag", etag)
            try:
                await asyncio.wait_for(stop.wait(), 2.0)
            except TimeoutError:
                pass
        streaming.cancel()
        try:
            await streaming
        except (asyncio.CancelledError, Exception):
            pass


def _server_ms(answer: Any) -> float:
    """Return the server's own time of an answer (its ``Server-Timing``), milliseconds."""
    found = re.search(r"dur=([0-9.]+)", answer.headers.get("server-timing", ""))
    return float(found.group(1)) if found else float("nan")


async def _table(base: str, number: int, pair: dict[str, Any], codes: dict[str, str],
                 result: LoadResult, delay: float) -> None:  # fmt: skip
    await asyncio.sleep(delay)
    a, b = pair["players"]
    scores = {a: random.randrange(0, 400), b: random.randrange(0, 400)}
    if scores[a] == scores[b]:
        scores[a] += 1
    result.expected[pair["table"]] = [scores[a], scores[b]]
    body = {"round": 1, "table": pair["table"], "scores": scores}
    async with (
        _client(base, 1000 + 2 * number, False, Authorization=f"Bearer {codes[a]}") as reporter,
        _client(base, 1001 + 2 * number, False, Authorization=f"Bearer {codes[b]}") as opponent,
    ):
        started = time.perf_counter()
        answer = await _send(reporter, result, "POST", "/api/report", json=body)
        result.report_ms.append((time.perf_counter() - started) * 1000)
        result.report_server_ms.append(_server_ms(answer))
        while True:  # the opponent's page sees the report
            me = await _send(opponent, result, "GET", "/api/me")
            if me.status_code == 200 and me.json()["report"] is not None:
                break
            await asyncio.sleep(0.5)
        started = time.perf_counter()
        confirm = {"round": 1, "table": pair["table"]}
        answer = await _send(opponent, result, "POST", "/api/confirm", json=confirm)
        result.confirm_ms.append((time.perf_counter() - started) * 1000)
        result.confirm_server_ms.append(_server_ms(answer))


async def _load(
    server: EventServer, codes: dict[str, str], clients: int, seconds: float
) -> LoadResult:
    import httpx

    result = LoadResult()
    stop = asyncio.Event()
    async with httpx.AsyncClient(base_url=server.url) as plain:
        pairs = (await plain.get("/api/event")).json()["pairs"]
    spectators = [
        asyncio.create_task(_spectator(server.url, i, result, stop)) for i in range(clients)
    ]
    await asyncio.sleep(1.0)  # the streams are open
    spread = seconds / 3
    started = time.perf_counter()
    tables = [
        _table(server.url, i, pair, codes, result, random.uniform(0, spread))
        for i, pair in enumerate(pairs)
    ]
    running = [asyncio.create_task(t) for t in tables]
    done, late = await asyncio.wait(running, timeout=seconds)
    for task in late:
        task.cancel()
    result.late = len(late)
    result.failed = [repr(t.exception()) for t in done if t.exception() is not None]
    result.seconds = time.perf_counter() - started
    await asyncio.sleep(2.5)  # a last poll of every spectator after the last result
    stop.set()
    if spectators:
        await asyncio.wait(spectators, timeout=20)
    async with httpx.AsyncClient(base_url=server.url) as plain:
        final = (await plain.get("/api/event")).json()
    for pair in final["pairs"]:
        result.recorded[pair["table"]] = pair["result"]
    return result


def run_load(clients: int, tables: int, seconds: float, seed: int = 5) -> LoadResult:
    """Serve an event of ``2 * tables`` players and load it; return what was seen."""
    random.seed(seed)
    with tempfile.TemporaryDirectory() as folder:
        event = make_event(Path(folder), 2 * tables)
        codes = {row["id"]: row["code"] for row in _cli("event", "codes", str(event))["codes"]}
        before = os.getloadavg()[0]
        with EventServer(event) as server:
            result = asyncio.run(
                asyncio.wait_for(_load(server, codes, clients, seconds), seconds + 60)
            )
            result.server_cpu = server.cpu_seconds()
        result.load_average = (before, os.getloadavg()[0])
        check = _cli("event", "check", str(event))
        result.legal = bool(check["legal"])
        text = event.read_text()
        result.statuses[-1] = text.count("scores = ")  # results in the file
    return result


def summary(result: LoadResult, clients: int, tables: int) -> str:
    """Return the figures of a run as the README quotes them."""
    lost = [t for t, r in result.recorded.items() if r is None]
    wrong = [
        t for t, r in result.recorded.items()
        if r is not None and [r["score_a"], r["score_b"]] != result.expected.get(t)
    ]  # fmt: skip
    in_file = result.statuses.get(-1, 0)
    answered = {s: n for s, n in sorted(result.statuses.items()) if s >= 0}
    lines = [
        f"{clients} spectators (stream + poll every 2 s), {tables} tables reported and confirmed "
        f"in {result.seconds:.1f} s",
        f"answers by status: {answered}; 5xx: {result.server_errors}; tables not done in "
        f"time: {result.late}; clients that failed: {len(result.failed)} {result.failed[:3]}; "
        f"connections dropped and tried again: {result.transport_errors}",
        f"results: {len(result.recorded) - len(lost)} recorded of {tables}, lost {len(lost)}, "
        f"differing from the report {len(wrong)}, in the file {in_file} (doubled: "
        f"{max(0, in_file - tables)}); event check legal: {result.legal}",
        f"report latency ms: p50 {percentile(result.report_ms, 0.5):.1f}, "
        f"p99 {percentile(result.report_ms, 0.99):.1f}, max {max(result.report_ms, default=0):.1f}",
        f"  of which in the server (Server-Timing, from the request's headers on): p50 "
        f"{percentile(result.report_server_ms, 0.5):.1f}, p99 "
        f"{percentile(result.report_server_ms, 0.99):.1f}",
        f"confirm latency ms: p50 {percentile(result.confirm_ms, 0.5):.1f}, "
        f"p99 {percentile(result.confirm_ms, 0.99):.1f}, max {max(result.confirm_ms, default=0):.1f}",
        f"  of which in the server: p50 {percentile(result.confirm_server_ms, 0.5):.1f}, "
        f"p99 {percentile(result.confirm_server_ms, 0.99):.1f}",
        f"server processor time {result.server_cpu:.1f} s; load average (1 min) before "
        f"{result.load_average[0]:.1f}, after {result.load_average[1]:.1f} on "
        f"{os.cpu_count()} cores",
        f"poll latency ms: p50 {percentile(result.poll_ms, 0.5):.1f}, "
        f"p99 {percentile(result.poll_ms, 0.99):.1f}; stream events received {result.stream_events}",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the load and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args(argv)
    result = run_load(args.clients, args.tables, args.seconds)
    print(summary(result, args.clients, args.tables))
    ok = result.server_errors == 0 and result.legal and all(result.recorded.values())
    ok = ok and not result.late and not result.failed
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
