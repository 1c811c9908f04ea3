r"""User text in reports: control characters escaped, huge values cut.

Ids, titles and file names come from the user's files and may hold anything a string
can: ANSI escape sequences, newlines, Unicode line separators, bidirectional overrides,
or (from an argument that is not UTF-8) lone surrogates. Human reports print them through
:func:`printable`, so that a report is always the lines it seems to be; JSON output
keeps them exact.

Examples
--------
>>> printable("rock\x1b[31m-a")
'rock\\x1b[31m-a'
>>> printable("two\nlines"), printable("plain id")
('two\\nlines', 'plain id')
>>> clip("x" * 100, limit=40)
'xxxxxxx…[100 characters, 87 cut]…xxxxxx'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping

__all__ = [
    "MESSAGE_LIMIT",
    "clip",
    "name_ids",
    "printable",
    "printable_lines",
    "printable_report",
]

#: Longest message or place printed whole, in characters; a longer one is cut.
MESSAGE_LIMIT = 1000

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Bidirectional embeddings, overrides and isolates: they reorder what a terminal shows.
_BIDI = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_ESCAPED_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})


def _escape(char: str) -> str:
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _needs_escape(char: str) -> bool:
    return char in _BIDI or unicodedata.category(char) in _ESCAPED_CATEGORIES


def printable(text: str) -> str:
    r"""Return `text` with every control character escaped (``\n``, ``\x1b``, ``\u2028``).

    Control characters (C0, DELETE, C1), line and paragraph separators, bidirectional
    controls and lone surrogates are escaped; everything else, backslashes included, is
    kept as it is.
    """
    if text.isprintable() and not any(c in _BIDI for c in text):
        return text
    return "".join(_escape(c) if _needs_escape(c) else c for c in text)


def printable_lines(text: str) -> str:
    """Return a report's text with control characters escaped except its line breaks."""
    return "\n".join(printable(line) for line in text.split("\n"))


def printable_report(text: str, names: Iterable[str] = ()) -> str:
    r"""Return a human report safe to print, its own line breaks kept.

    Each of `names` (the scene's ids, the file name) is escaped wherever it appears
    whole, newlines included; then every other control character is.

    Examples
    --------
    >>> print(printable_report("a\nb to c\n  distance: 1 mm", ["a\nb", "c"]))
    a\nb to c
      distance: 1 mm
    """
    for name in sorted({n for n in names if printable(n) != n}, key=len, reverse=True):
        text = text.replace(name, printable(name))
    return printable_lines(text)


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Return `text` whole, or, when over `limit` characters, its head and tail and its length."""
    if len(text) <= limit:
        return text
    note = f"…[{len(text)} characters, {{}} cut]…"
    keep = max(limit - len(note.format(len(text))), 2)
    head, tail = (keep + 1) // 2, keep // 2
    return text[:head] + note.format(len(text) - head - tail) + text[len(text) - tail :]


def name_ids(text: str, names: Mapping[str, str]) -> str:
    """Return `text` with each id of `names` followed by its printed name, in brackets.

    An id is named where it stands whole: not inside a longer word, id or file name
    (letters, digits, ``-``, ``_``, ``.`` and ``/`` on either side keep it as it is).

    Examples
    --------
    >>> name_ids("rock-a is 195.2 mm from rock-ab", {"rock-a": "Asteroid 5"})
    'rock-a (Asteroid 5) is 195.2 mm from rock-ab'
    """
    if not names:
        return text
    ids = sorted(names, key=len, reverse=True)
    pattern = re.compile(
        r"(?<![\w./-])(" + "|".join(re.escape(i) for i in ids) + r")(?![\w/-]|\.\w)"
    )
    return pattern.sub(lambda m: f"{m.group(1)} ({names[m.group(1)]})", text)
