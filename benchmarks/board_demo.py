"""The board in a browser, shown: ``python -m benchmarks.board_demo [OUT]`` (``make demo``).

Starts ``tabletop serve`` on the bundled tournament example, opens the page in headless
Chromium, drags one rock into range 1 of another with the mouse, and writes a screenshot
of the page with the verdict (``out/board.png``); then presses "Nudge to legal" and
writes ``out/board-nudged.png``. The server is stopped before it returns, whatever
happens. Nothing is saved: the example file is never written.
"""

from __future__ import annotations

import sys
from pathlib import Path

from benchmarks.board_browser import BoardServer, drag, launch, missing, open_page, wait_idle

ROOT = Path(__file__).resolve().parent.parent
TOURNAMENT = ROOT / "examples" / "xwing-tournament.toml"


def main(argv: list[str] | None = None) -> int:
    """Write the screenshots; return 0, or 1 when the page logged an error."""
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else ROOT / "out" / "board.png"
    reason = missing()
    if reason is not None:
        print(f"board demo skipped: {reason}")
        return 0
    from playwright.sync_api import sync_playwright

    out.parent.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_playwright() as playwright, BoardServer(TOURNAMENT) as server:
        browser = launch(playwright)
        page = open_page(browser, server.url, errors)
        print(f"board: {TOURNAMENT.name} on {server.url}")
        drag(page, "rock-a", 120.0, 0.0)
        wait_idle(page)
        page.mouse.move(5, 5)  # the pointer off the mat: no hover marks in the picture
        print("after dragging rock-a 120 mm right:")
        for item in page.locator("#verdict [data-rule]").all_inner_texts():
            print("  " + " | ".join(line.strip() for line in item.splitlines() if line.strip()))
        page.screenshot(path=str(out))
        print(f"wrote {out}")
        page.locator("#mat-nudge").click()
        wait_idle(page)
        nudged = out.with_name(out.stem + "-nudged" + out.suffix)
        print("after the nudge: " + " ".join(page.locator("#verdict-banner").inner_text().split()))
        page.screenshot(path=str(nudged))
        print(f"wrote {nudged}")
        browser.close()
    for error in errors:
        print(f"page error: {error}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
