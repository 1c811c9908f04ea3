"""Colours, fonts and the matplotlib settings every picture uses.

The palette is Okabe and Ito's (2008) colour-blind-safe set. Each colour has one job:
players are blue and reddish purple, obstacles are coloured by kind, every rule
violation is vermillion (the one alarm colour), measurements are black and maneuver
templates yellow. This module does not import matplotlib, so it costs nothing to read.

Examples
--------
>>> OKABE_ITO["vermillion"] == ALARM
True
>>> kind_colour("gas") == OKABE_ITO["sky blue"]
True
>>> kind_colour("something new") == KIND_COLOURS["other"]
True
>>> player_colour(2) == OKABE_ITO["reddish purple"]
True
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

__all__ = [
    "ALARM",
    "FONT",
    "INK",
    "KIND_COLOURS",
    "MEASURE",
    "MOST_DRAWN_CHARS",
    "OKABE_ITO",
    "PLAYER_COLOURS",
    "RC_PARAMS",
    "SVG_HASH_SALT",
    "TEMPLATE",
    "drawn_text",
    "kind_colour",
    "plain_text",
    "player_colour",
]

#: The Okabe-Ito palette, by name.
OKABE_ITO: Mapping[str, str] = MappingProxyType(
    {
        "black": "#000000",
        "orange": "#E69F00",
        "sky blue": "#56B4E9",
        "bluish green": "#009E73",
        "yellow": "#F0E442",
        "blue": "#0072B2",
        "vermillion": "#D55E00",
        "reddish purple": "#CC79A7",
        "grey": "#999999",
    }
)

#: The one colour of every rule violation (and of a bump).
ALARM = OKABE_ITO["vermillion"]
#: Measurement lines and their labels.
MEASURE = OKABE_ITO["black"]
#: Maneuver templates.
TEMPLATE = OKABE_ITO["yellow"]
#: Table outline, edge names, the scale bar and the hatching of the no-obstacle margins.
INK = "#404040"

#: Ship colours by player (players beyond 2 reuse the last).
PLAYER_COLOURS: Mapping[int, str] = MappingProxyType(
    {1: OKABE_ITO["blue"], 2: OKABE_ITO["reddish purple"]}
)

#: Obstacle colours by kind (``tabletop.obstacles.catalog.KINDS``).
KIND_COLOURS: Mapping[str, str] = MappingProxyType(
    {
        "asteroid": "#6E6E6E",
        "debris": OKABE_ITO["orange"],
        "gas": OKABE_ITO["sky blue"],
        "station": OKABE_ITO["bluish green"],
        "dust": "#B8A800",
        "huge-ship": OKABE_ITO["black"],
        "other": OKABE_ITO["grey"],
    }
)

#: The font of every label: bundled with matplotlib, so pictures are the same everywhere.
FONT = "DejaVu Sans"

#: Fixed salt for the ids of SVG clip paths and hatches: the same scene gives the same SVG.
SVG_HASH_SALT = "tabletop"

#: Settings applied (in an ``rc_context``) while a picture is built and saved.
RC_PARAMS: Mapping[str, Any] = MappingProxyType(
    {
        "font.family": "sans-serif",
        "font.sans-serif": [FONT],
        "font.size": 9.0,
        "mathtext.fontset": "dejavusans",
        "axes.unicode_minus": False,
        "svg.hashsalt": SVG_HASH_SALT,
        "svg.fonttype": "none",
        "hatch.linewidth": 0.6,
        "path.simplify": False,
        "text.antialiased": True,
        "pdf.fonttype": 42,
        # Ids, titles and file names are the user's: "$x^2$" is drawn as typed, not as
        # mathtext (which would also fail on an unbalanced "$").
        "text.parse_math": False,
        "text.usetex": False,
    }
)


#: Longest text drawn whole in a picture, characters; a longer one (a 1 MB id, a
#: 100,000-character title) is drawn as its head, an ellipsis and its tail, so that
#: drawing it takes bounded time (each glyph is rendered, seen or not).
MOST_DRAWN_CHARS = 120


def drawn_text(text: str, limit: int = MOST_DRAWN_CHARS) -> str:
    """Return `text` whole, or over `limit` characters its head, its length and its tail.

    Examples
    --------
    >>> drawn_text("short")
    'short'
    >>> drawn_text("a" * 50 + "b" * 50, limit=40)
    'aaaaaaaaaaa…[100 characters]…bbbbbbbbbbb'
    """
    if len(text) <= limit:
        return text
    note = f"…[{len(text)} characters]…"
    keep = max(limit - len(note), 2)
    return text[: (keep + 1) // 2] + note + text[len(text) - keep // 2 :]


def plain_text(fig: Any) -> None:
    """Draw every text of a figure as typed: no mathtext, whatever settings made it.

    Labels hold the user's ids, titles and file names, where ``$``, ``^`` and ``_`` are
    ordinary characters. A text over :data:`MOST_DRAWN_CHARS` characters is cut
    (:func:`drawn_text`), line by line.
    """
    from matplotlib.text import Text

    for text in fig.findobj(Text):
        text.set_parse_math(False)
        text.set_usetex(False)
        shown = text.get_text()
        if len(shown) > MOST_DRAWN_CHARS:
            text.set_text("\n".join(drawn_text(line) for line in shown.split("\n")))


def kind_colour(kind: str) -> str:
    """Return the colour of an obstacle kind (``other`` for a kind without its own)."""
    return KIND_COLOURS.get(kind, KIND_COLOURS["other"])


def player_colour(player: int | None) -> str:
    """Return the colour of a player's ships (player 2's for any player beyond 2)."""
    if player is None or player < 1:
        return PLAYER_COLOURS[1]
    return PLAYER_COLOURS[min(player, max(PLAYER_COLOURS))]
