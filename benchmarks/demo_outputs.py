"""The last lines of ``make demo``: what it wrote to ``out/`` and what each file shows.

Run as ``python -m benchmarks.demo_outputs [FOLDER]`` (``out`` by default). Each file of
the folder is listed with what it shows, by the first pattern below that its name matches;
a file no pattern describes is listed as such, so the list never hides one. ``make demo``
touches ``FOLDER/.demo-start`` first: files older than it (left from before) are counted,
not listed.
"""

from __future__ import annotations

import fnmatch
import sys
from pathlib import Path

__all__ = ["DESCRIPTIONS", "START", "describe", "main"]

#: The file ``make demo`` touches before it writes anything.
START = ".demo-start"

#: (name pattern, what the file shows), the first match wins; ``{stem}`` is the name
#: without its suffix.
DESCRIPTIONS: tuple[tuple[str, str], ...] = (
    (
        "xwing-dogfight-move.png",
        "wedge's straight 5 drawn on the dogfight table, with falcon "
        "to vader measured from the front arc",
    ),
    (
        "pocket-full-battle.png",
        "the end of examples/pocket/full-battle.toml: the 15 zones as "
        "player 1 sees them, units, wounds and order tokens",
    ),
    (
        "dogfight-midgame.png",
        "the Dogfight mid-game board with the X-Wing on d4's reach: its "
        "squares, lines of fire, targets ringed, blocked squares crossed",
    ),
    ("destiny-regional-top8.png", "the Destiny regional's top-8 cut drawn as a bracket"),
    (
        "demo-event.toml",
        "a new Armada event from 12 players (seed 7): round 1 paired and scored, round 2 paired",
    ),
    (
        "board.png",
        "the board in headless Chromium after a rock is dragged: the page and its verdict",
    ),
    ("*-json.toml", "the TTS save examples/saves/{save}.json imported as a scene"),
    ("*-vsav.toml", "the VASSAL save examples/saves/{save}.vsav imported as a scene"),
    (
        "*-vlog.toml",
        "the VASSAL log examples/saves/{save}.vlog imported as a scene (its last step)",
    ),
    ("*.png", "examples/{stem}.toml drawn: the table, its ships and obstacles"),
)


def describe(name: str) -> str:
    """Return what the file `name` of ``out/`` shows.

    Examples
    --------
    >>> describe("xwing-tournament.png")
    'examples/xwing-tournament.toml drawn: the table, its ships and obstacles'
    >>> describe("xwing2-first-moves-vlog.toml")
    'the VASSAL log examples/saves/xwing2-first-moves.vlog imported as a scene (its last step)'
    >>> describe("notes.txt")
    '(not one of the demo files)'
    """
    stem = name.rsplit(".", 1)[0]
    save = stem.rsplit("-", 1)[0]
    for pattern, text in DESCRIPTIONS:
        if fnmatch.fnmatchcase(name, pattern):
            return text.format(stem=stem, save=save)
    return "(not one of the demo files)"


def main(argv: list[str] | None = None) -> int:
    """Print every file of the folder with what it shows; return 0."""
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0] if args else "out")
    found = sorted(p for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []
    marker = folder / START
    since = marker.stat().st_mtime if marker.is_file() else float("-inf")
    files = [p for p in found if p.name != START and p.stat().st_mtime >= since]
    width = max((len(str(p)) for p in files), default=0)
    print(f"make demo wrote {len(files)} files to {folder}/:")
    for path in files:
        print(f"  {path!s:<{width}}  {describe(path.name)}")
    older = len(found) - len(files) - marker.is_file()
    if older:
        print(f"  (and {older} older file{'s' * (older != 1)} left there from before)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
