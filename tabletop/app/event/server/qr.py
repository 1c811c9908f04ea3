"""The QR code of the public page, in the terminal and on the printables (``segno``).

The QR code is drawn only where the optional ``segno`` package (pure Python, in the
``serve`` extra) is installed; without it the address is printed alone.
"""

from __future__ import annotations

import io

__all__ = ["qr_modules", "qr_svg", "qr_text", "with_qr"]


def qr_modules(url: str) -> tuple[tuple[bool, ...], ...] | None:
    """Return the QR code of `url` as rows of modules, dark ones True (None: no segno)."""
    try:
        import segno
    except ImportError:
        return None
    return tuple(tuple(bool(c) for c in row) for row in segno.make(url, error="m").matrix)


def qr_text(url: str) -> str | None:
    """Return the QR code of `url` drawn in the terminal's block characters (None: no segno)."""
    try:
        import segno
    except ImportError:
        return None
    code = segno.make(url, error="m")
    rows = [[bool(c) for c in row] for row in code.matrix]
    size = len(rows)
    quiet = 4  # the code's own margin, as scanners expect it
    grid = [[False] * (size + 2 * quiet) for _ in range(quiet)]
    grid += [[False] * quiet + row + [False] * quiet for row in rows]
    grid += [[False] * (size + 2 * quiet) for _ in range(quiet)]
    if len(grid) % 2:
        grid.append([False] * (size + 2 * quiet))
    lines = []
    for top, bottom in zip(grid[::2], grid[1::2], strict=True):
        # dark modules as spaces on light blocks: reads on dark and light terminals alike
        chars = []
        for a, b in zip(top, bottom, strict=True):
            chars.append(
                {(False, False): "█", (True, False): "▄", (False, True): "▀"}.get((a, b), " ")
            )
        lines.append("".join(chars))
    return "\n".join(lines)


def qr_svg(url: str) -> str | None:
    """Return the QR code of `url` as an inline SVG element (None: no segno)."""
    try:
        import segno
    except ImportError:
        return None
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, xmldecl=False, svgns=True)
    return out.getvalue().decode("utf-8")


def with_qr(page: str, url: str | None) -> str:
    """Return an HTML printable with the QR code of the public page `url` at its end."""
    if not url:
        return page
    import html

    picture = qr_svg(url)
    if picture is None:
        return page
    said = f'<section class="qr"><p>Pairings, clock and standings: {html.escape(url)}</p>'
    said += f"{picture}</section>"
    return page.replace("</body>", said + "</body>") if "</body>" in page else page + said
