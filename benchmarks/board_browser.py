"""Drive the board page (``tabletop serve``) in headless Chromium, for tests and scripts.

``python -m benchmarks.board_browser`` times the page: from the drop to the verdict on
screen, and while a piece is dragged, from each move to its live verdict on screen.

The browser is Debian's ``chromium`` driven by Playwright (``executable_path``): the
browser download sites of Playwright are not used. :func:`missing` says in one line why
the browser cannot run here, or returns None.

The server is the real one: ``python -m tabletop serve SCENE --port 0`` in a child
process, its address read from the line it prints, stopped with Ctrl-C (SIGINT) and
waited for, killed only if it does not stop.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from benchmarks.child import interrupt, start

#: The browser: Debian's chromium (TABLETOP_CHROMIUM names another binary).
CHROMIUM = Path(os.environ.get("TABLETOP_CHROMIUM", "/usr/bin/chromium"))
#: Headless, no sandbox (containers), nothing fetched from the network by the browser.
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
#: The window the page is drawn in, pixels.
VIEWPORT = {"width": 1400, "height": 900}
_ADDRESS = re.compile(r"on (http://[^\s,/]+)/")


def missing() -> str | None:
    """Return why the browser cannot run here (one line), or None when it can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e .[test])"
    if not CHROMIUM.is_file() or not os.access(CHROMIUM, os.X_OK):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium, or make browser as root)"
    return None


class BoardServer:
    """``tabletop serve SCENE`` on a free local port, for as long as the ``with`` lasts.

    Parameters
    ----------
    scene : Path or None
        The file the board starts on (it may be written by a save: pass a copy).
    options : sequence of str
        More words of the command: ``--read-only``, a save's ``--table T`` or ``--step N``.
    """

    def __init__(self, scene: Path | None, options: Sequence[str] = ()) -> None:
        self.start_file = scene
        self.options = tuple(options)
        self.url = ""
        self.process: subprocess.Popen[str] | None = None

    def __enter__(self) -> BoardServer:
        command = [sys.executable, "-m", "tabletop", "serve", "--port", "0", *self.options]
        if self.start_file is not None:
            command.append(str(self.start_file))
        self.process = start(command)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = _ADDRESS.search(line)
        if found is None:
            self.stop()
            raise RuntimeError(f"tabletop serve did not print its address: {line!r}")
        self.url = found.group(1) + "/"
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()

    def stop(self) -> None:
        """Stop the server as Ctrl-C does; kill it only when it does not stop."""
        if self.process is not None:
            interrupt(self.process)

    def request(self, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes]:
        """Send one request; return (status, body), waiting out a 429."""
        for attempt in range(20):
            request = urllib.request.Request(self.url + path.lstrip("/"), data=body, method=method)
            if body is not None:
                request.add_header("Content-Type", "application/json")
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    return response.status, response.read()
            except urllib.error.HTTPError as error:
                if error.code != 429:
                    return error.code, error.read()
            time.sleep(0.05 * (attempt + 1))
        raise RuntimeError(f"{method} {path}: refused (429) every time")

    def scene_text(self) -> bytes:
        """Return the body of ``GET /api/scene``, exactly."""
        status, body = self.request("GET", "/api/scene")
        assert status == 200, body
        return body

    def scene(self) -> dict[str, Any]:
        """Return the working scene."""
        scene: dict[str, Any] = json.loads(self.scene_text())["scene"]
        return scene

    def put_scene(self, scene: dict[str, Any]) -> int:
        """Make `scene` the board; return the new version."""
        version = json.loads(self.scene_text())["version"]
        body = json.dumps({"version": version, "scene": scene}).encode()
        status, answer = self.request("PUT", "/api/scene", body)
        assert status == 200, answer
        new: int = json.loads(answer)["version"]
        return new


def launch(playwright: Any) -> Any:
    """Start headless Chromium (Debian's) through Playwright."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS))


def open_page(browser: Any, url: str, errors: list[str]) -> Any:
    """Open the board in a new page, collecting what goes wrong in `errors`.

    Uncaught errors, console errors, and any request to another address than the server's.
    """
    page = browser.new_page(viewport=VIEWPORT, accept_downloads=True)
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))

    def console(message: Any) -> None:
        if message.type == "error":
            errors.append(f"console error: {message.text}")

    page.on("console", console)

    def request(sent: Any) -> None:
        # the page fetches from its own server only: nothing from the internet
        if not sent.url.startswith((url, "blob:", "data:")):
            errors.append(f"a request outside the server: {sent.url}")

    page.on("request", request)
    page.goto(url)
    wait_idle(page)
    return page


def wait_idle(page: Any, timeout_ms: float = 20000) -> None:
    """Wait until every change is stored and its verdict drawn (body[data-busy=false])."""
    page.wait_for_timeout(30)
    # a selector, not a script: the page's Content-Security-Policy forbids eval
    page.wait_for_selector("body[data-busy='false']", state="attached", timeout=timeout_ms)


def client_point(page: Any, x: float, y: float) -> tuple[float, float]:
    """Return the page pixel of the table point (x, y) mm."""
    point = page.evaluate("([x, y]) => boardApp.mat.clientPoint(x, y)", [x, y])
    return float(point[0]), float(point[1])


def pose(page: Any, object_id: str) -> tuple[float, float, float]:
    """Return an object's pose as the page marks it (data-x, data-y, data-angle)."""
    piece = page.locator(f'#mat [data-id="{object_id}"]')
    return (
        float(piece.get_attribute("data-x")),
        float(piece.get_attribute("data-y")),
        float(piece.get_attribute("data-angle")),
    )


def drag(page: Any, object_id: str, dx_mm: float, dy_mm: float, steps: int = 8) -> None:
    """Drag a piece by (dx, dy) mm with real mouse events: press, move, release."""
    x, y, _ = pose(page, object_id)
    start = client_point(page, x, y)
    end = client_point(page, x + dx_mm, y + dy_mm)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=steps)
    page.mouse.up()


def verdict_of(page: Any) -> dict[str, Any]:
    """Return the verdict the page shows: legal, each violation's rule, objects, margin."""
    result: dict[str, Any] = page.evaluate(
        """() => {
          const list = document.getElementById('verdict');
          return {legal: list.dataset.legal === 'true',
                  violations: [...list.querySelectorAll('[data-rule]')].map(e => ({
                    rule: e.dataset.rule, objects: e.dataset.objects,
                    margin: e.dataset.margin === undefined ? null : Number(e.dataset.margin)}))};
        }"""
    )
    return result


def cli_verdict(report: dict[str, Any]) -> dict[str, Any]:
    """Return the same fields of a ``check --json`` answer."""
    return {
        "legal": report["legal"],
        "violations": [
            {"rule": v["rule"], "objects": ",".join(v["objects"]), "margin": v["margin"]}
            for v in report["violations"]
        ],
    }


# -- the page at speed: python -m benchmarks.board_browser ------------------------------


def _percentiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


def drag_timings(browser: Any, server: BoardServer, scene: dict[str, Any], drags: int) -> Any:
    """Drag the first obstacle `drags` times (10 mm right, then back); return the timings.

    Each is the page's: ms from the drop to the verdict in the page (``ms``) and on
    screen (``painted``, the next frame).
    """
    server.put_scene(scene)
    errors: list[str] = []
    page = open_page(browser, server.url, errors)
    target = scene["obstacles"][0]["id"]
    for number in range(drags):
        drag(page, target, 10.0 if number % 2 == 0 else -10.0, 0.0, steps=3)
        wait_idle(page, timeout_ms=60000)
    timings = [t for t in page.evaluate("() => window.boardTimings || []") if t["why"] != "live"]
    page.close()
    if errors:
        raise RuntimeError("the page logged errors: " + "; ".join(errors))
    if len(timings) != drags:
        raise RuntimeError(f"{len(timings)} verdicts timed for {drags} drags")
    return timings


def live_drag_timings(
    browser: Any, server: BoardServer, scene: dict[str, Any], drags: int, moves: int = 60
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Drag the first obstacle `drags` times in `moves` moves of 1 mm, one a frame (16 ms).

    Return the live answers (``why: "live"``: ms from the move to the verdict in the page
    and on screen) and the drops' timings.
    """
    server.put_scene(scene)
    errors: list[str] = []
    page = open_page(browser, server.url, errors)
    target = scene["obstacles"][0]["id"]
    for number in range(drags):
        x, y, _ = pose(page, target)
        sign = 1.0 if number % 2 == 0 else -1.0
        page.mouse.move(*client_point(page, x, y))
        page.mouse.down()
        for step in range(1, moves + 1):
            page.mouse.move(*client_point(page, x + sign * step, y))
            page.wait_for_timeout(16)
        page.evaluate("() => boardApp.live.idle()")
        page.mouse.up()
        wait_idle(page, timeout_ms=60000)
    timings = page.evaluate("() => window.boardTimings || []")
    page.close()
    if errors:
        raise RuntimeError("the page logged errors: " + "; ".join(errors))
    live = [t for t in timings if t["why"] == "live" and t["painted"] is not None]
    return live, [t for t in timings if t["why"] != "live"]


def _live_figures(browser: Any, server: BoardServer, scene: dict[str, Any], drags: int) -> None:
    """Print the live answers of `drags` drags of 60 moves beside those drags' drops."""
    live, drops = live_drag_timings(browser, server, scene, drags)
    if not live:
        print(f"no live answers in {drags} drags")
        return
    dom, painted = _percentiles([t["ms"] for t in live]), _percentiles([t["painted"] for t in live])
    drop = _percentiles([t["painted"] for t in drops])
    print(f"While dragging, the tournament table: {drags} drags of 60 moves of 1 mm, one a frame;")
    print(
        f"{len(live) / drags:.1f} live answers a drag. From the move to the verdict, ms, median / p95:"
    )
    print(f"  in DOM {dom[0]:.1f} / {dom[1]:.1f}; on screen {painted[0]:.1f} / {painted[1]:.1f}")
    print(f"  (the same drags' drops, on screen: {drop[0]:.1f} / {drop[1]:.1f})")
    print("target: on screen within 16 ms (p95), one frame at 60 Hz")


def main(argv: list[str] | None = None) -> int:
    """Print the page's drag-to-verdict times beside ``tabletop query``'s for the same check."""
    from playwright.sync_api import sync_playwright

    from benchmarks.board import requests, summary, through_command, tournament_table
    from benchmarks.scaling import crammed_tokens

    parser = argparse.ArgumentParser(prog="python -m benchmarks.board_browser")
    parser.add_argument("--drags", type=int, default=100)
    parser.add_argument("--live-drags", type=int, default=100, help="drags of 60 moves, live")
    args = parser.parse_args(argv)
    reason = missing()
    if reason is not None:
        print(f"board page benchmark skipped: {reason}")
        return 0
    tables = {
        "tournament (6 obstacles, 8 ships)": tournament_table(),
        "crammed (60 tokens)": crammed_tokens(),
    }
    print(f"The board page: from the end of a drag to the verdict drawn, {args.drags} drags each,")
    print("headless Chromium against tabletop serve; beside it the same check through")
    print("tabletop query (one process, a line in and its answer out). Milliseconds, median / p95.")
    print(f"{'table':<36}{'page: in DOM':>16}{'page: on screen':>18}{'tabletop query':>17}")
    with sync_playwright() as playwright, BoardServer(None) as server:
        browser = launch(playwright)
        for name, scene in tables.items():
            timings = drag_timings(browser, server, scene, args.drags)
            dom = _percentiles([t["ms"] for t in timings])
            painted = _percentiles([t["painted"] for t in timings])
            lines = list(requests(scene, min(args.drags, 30)))
            query = summary(through_command(lines, lines[:2]))
            cells = [f"{a:.1f} / {b:.1f}" for a, b in (dom, painted, query)]
            print(f"{name:<36}{cells[0]:>16}{cells[1]:>18}{cells[2]:>17}")
        print("target: the tournament table's median on screen within 50 ms")
        print()
        _live_figures(browser, server, tables["tournament (6 obstacles, 8 ships)"], args.live_drags)
        browser.close()
    print(f"load average while measured: {os.getloadavg()[0]:.2f} (2 cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
