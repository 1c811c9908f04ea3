"""The board's close-up of a dispute, in a real browser: the picture ``render --around``
draws (the two objects, the line, a millimetre grid, the dimension line, the limit and the
contested band), fetched from the server's ``/api/render`` with ``around``.

Worked out by hand: small ships (40 mm squares) ``a`` at (300, 100) and ``b`` at
(300, 340.4), both facing +y: a's top edge is y = 120, b's bottom edge y = 320.4, so they
are 200.4 mm apart, 0.4 mm beyond the 200 mm line of range 2: contested (rules.md, within
1.0 mm of a band line).

Headless Chromium against the real server; a machine without Chromium or Playwright
skips this file with one line saying why.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from benchmarks.board_browser import missing

REASON = missing()
if REASON is not None:
    pytest.skip(REASON, allow_module_level=True)

from board_support import Opener, browser, open_board, server  # noqa: E402

from benchmarks.board_browser import BoardServer, wait_idle  # noqa: E402

__all__ = ["browser", "open_board", "server"]  # fixtures, used by name

SCENE: dict[str, Any] = {
    "ruleset": "xwing2",
    "area": "3x3ft",
    "phase": "play",
    "obstacles": [],
    "ships": [
        {"id": "a", "base": "small", "at": [300.0, 100.0], "heading": 90.0},
        {"id": "b", "base": "small", "at": [300.0, 340.4], "heading": 90.0},
    ],
}
PARTS = ["dispute-view", "mm-grid", "limit-line", "contested-band", "dimension", "dimension-label"]


def test_the_close_up_shows_the_dispute_as_render_around_draws_it(
    open_board: Opener, server: BoardServer
) -> None:
    page = open_board(SCENE)
    close_up = page.locator("[data-action=close-up]")
    assert close_up.is_disabled()  # nothing measured yet
    page.locator('#mat [data-id="a"]').click()
    page.locator("[data-action=measure]").click()
    page.locator('#mat [data-id="b"]').click()
    wait_idle(page)
    answer = json.loads(page.locator("#measurement").get_attribute("data-answer"))
    assert answer["distance"] == pytest.approx(200.4, abs=1e-6)
    assert (answer["nearest_line"], answer["contested"]) == (200.0, True)
    # The contested flag names its line and the ruling on the page too.
    assert (
        "CONTESTED: within 1.0 mm of the 200.0 mm line (0.4 mm beyond it): "
        "on the line counts as range 2"
    ) in page.locator("#measurement").text_content()
    assert not close_up.is_disabled()
    close_up.click()
    wait_idle(page)
    figure = page.locator("#close-up")
    page.wait_for_selector("#close-up:not([hidden])")
    assert figure.get_attribute("data-around") == "a,b"
    assert figure.get_attribute("data-parts") == ",".join(PARTS)
    assert float(figure.get_attribute("data-distance")) == pytest.approx(200.4, abs=1e-3)
    assert "a ↔ b: 200.4 mm" in figure.locator("figcaption").text_content()
    image = figure.locator("img")
    page.wait_for_function("() => document.querySelector('#close-up img').naturalWidth > 0")
    # The server draws it at render --around's default shape, 1300 x 1000 (an SVG in pt).
    width, height = image.evaluate("i => [i.naturalWidth, i.naturalHeight]")
    assert width / height == pytest.approx(1.3, abs=0.01)
    assert "millimetre grid" in image.get_attribute("alt")
    # Moving b follows: the close-up is drawn again for the new distance (1 mm further).
    page.locator('#mat [data-id="b"]').click()
    page.keyboard.press("ArrowUp")
    wait_idle(page)
    page.wait_for_function(
        "() => Math.abs(parseFloat(document.querySelector('#close-up').dataset.distance)"
        " - 201.4) < 1e-3"
    )
    assert server.scene()["ships"][1]["at"] == pytest.approx([300.0, 341.4], abs=1e-6)


def test_the_render_route_refuses_a_bad_around(open_board: Opener, server: BoardServer) -> None:
    page = open_board(SCENE)
    open_board.allow("status of 400")  # the server refuses the requests: that is the test
    status = page.evaluate(
        """async () => {
            const scene = await (await fetch('/api/scene')).json();
            const bad = await fetch('/api/render', {method: 'POST',
                headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({format: 'svg', around: ['a'], scene: scene.scene})});
            const unknown = await fetch('/api/render', {method: 'POST',
                headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({format: 'svg', around: ['a', 'nobody'], scene: scene.scene})});
            return [bad.status, (await bad.json()).error.where,
                    unknown.status, (await unknown.json()).error.message];
        }"""
    )
    assert status[:3] == [400, "key 'around'", 400]
    assert "nobody" in status[3]
