"""List the names a scene or a command may use, from the package's own catalogs.

  tokens      obstacle tokens of the ruleset (XWS id, kind, family, printed name); a
              scene may name a token by either
  bases       ship bases of the ruleset (width across x length along the heading, mm)
  hulls       Armada hulls (a ship's hull key) with their speed charts
  maneuvers   the maneuver words of the ruleset's game
  areas       play-area presets (width x height, mm); the ruleset's default is marked

--ruleset R chooses the game edition (default xwing2; armada for hulls).
"""

from __future__ import annotations

import argparse
import difflib
from typing import Any, TextIO

from tabletop.app.cli import EXIT_OK, emit_json
from tabletop.geom.areas import AREA_PRESETS
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.rulesets import RULESET_NAMES, Ruleset, get_ruleset

__all__ = ["LISTS", "list_items", "register", "run"]

#: What can be listed.
LISTS: tuple[str, ...] = ("tokens", "bases", "hulls", "maneuvers", "areas")


def _tokens(ruleset: Ruleset) -> list[dict[str, Any]]:
    from tabletop.obstacles.catalog import catalog, printed_name

    return [
        {
            "name": t.name,
            "kind": t.kind,
            "family": t.family,
            "label": t.label,
            "printed_name": printed_name(ruleset, t.name),
        }
        for t in catalog(ruleset).values()
    ]


def _bases(ruleset: Ruleset) -> list[dict[str, Any]]:
    return [
        {"name": name, "width": width, "length": length}
        for name, (width, length) in ruleset.base_sizes.items()
    ]


def _hulls(ruleset: Ruleset) -> list[dict[str, Any]]:
    from tabletop.geom.hulls import speed_chart

    if not ruleset.hull_names:
        raise InvalidInputError(
            f"hulls are Armada's; {ruleset.name} ships have none (use --ruleset armada)",
            where="--ruleset",
        )
    items = []
    for name in ruleset.hull_names:
        chart = speed_chart(name)
        items.append({"name": name, "speed_chart": None if chart is None else list(chart)})
    return items


def _maneuvers(ruleset: Ruleset) -> list[dict[str, Any]]:
    from tabletop.maneuvers import maneuver_listing

    # A grammar of one course (Armada's tool) lists its options as the entry's detail.
    return [
        {"name": name} if detail is None else {"name": name, "detail": detail}
        for name, detail in maneuver_listing(ruleset)
    ]


def _areas(ruleset: Ruleset) -> list[dict[str, Any]]:
    return [
        {"name": name, "width": w, "height": h, "default": name == ruleset.default_area}
        for name, (w, h) in AREA_PRESETS.items()
    ]


_SOURCES = {
    "tokens": _tokens,
    "bases": _bases,
    "hulls": _hulls,
    "maneuvers": _maneuvers,
    "areas": _areas,
}


def list_items(what: str, ruleset: str | None = None) -> dict[str, Any]:
    """Return the JSON answer of ``tabletop list WHAT [--ruleset R]``.

    Raises
    ------
    InvalidInputError
        For an unknown list or ruleset, or hulls of an X-Wing ruleset.

    Examples
    --------
    >>> [a["name"] for a in list_items("areas")["items"]]
    ['3x3ft', '6x3ft', '180x90cm']
    >>> list_items("bases", "xwing2")["items"][0]
    {'name': 'small', 'width': 40.0, 'length': 40.0}
    """
    if what not in LISTS:
        close = difflib.get_close_matches(what, LISTS, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise InvalidInputError(
            f"unknown list {what!r}; {hint}expected one of: {', '.join(LISTS)}", where="WHAT"
        )
    name = ruleset or ("armada" if what == "hulls" else "xwing2")
    if name not in RULESET_NAMES:
        raise InvalidInputError(
            f"unknown ruleset {name!r}; expected one of: {', '.join(RULESET_NAMES)}",
            where="--ruleset",
        )
    rules = get_ruleset(name)
    return {"list": what, "ruleset": rules.name, "items": _SOURCES[what](rules)}


def _line(what: str, item: dict[str, Any]) -> str:
    name = item["name"]
    if what == "tokens":
        return f"  {name:<18} {item['kind']:<9} {item['family']:<9} {item['label']}"
    if what == "bases":
        return f"  {name:<12} {item['width']:g} x {item['length']:g} mm"
    if what == "hulls":
        chart = item["speed_chart"]
        if chart is None:
            return f"  {name}"
        rows = "; ".join(
            f"speed {s}: " + " ".join("-" if c == 0 else "I" * c for c in row)
            for s, row in enumerate(chart, 1)
        )
        return f"  {name:<24} {rows}"
    if what == "areas":
        mark = "  (default)" if item["default"] else ""
        return f"  {name:<10} {item['width']:g} x {item['height']:g} mm{mark}"
    detail = item.get("detail")
    return f"  {name}" + (f"\n    {detail}" if detail else "")


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's arguments."""
    parser.add_argument("what", metavar="WHAT", help="tokens, bases, hulls, maneuvers or areas")
    parser.add_argument("--ruleset", help="xwing2 (default), xwing1 or armada")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the command."""
    answer = list_items(args.what, args.ruleset)
    if args.json:
        emit_json(answer, out)
        return EXIT_OK
    out.write(f"{answer['list']} of {answer['ruleset']}:\n")
    if args.what == "tokens":
        # A scene may name a token by its id or by the name printed on it.
        out.write(f"  {'id':<18} {'kind':<9} {'family':<9} printed name\n")
    for item in answer["items"]:
        out.write(_line(args.what, item) + "\n")
    return EXIT_OK
