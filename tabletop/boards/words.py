"""English for the board games' messages: "an A-Wing", "a TIE Fighter", "1 square", "2 squares".

Examples
--------
>>> [with_article(n) for n in ("A-Wing", "B-Wing", "X-Wing", "Y-Wing", "TIE Fighter")]
['an A-Wing', 'a B-Wing', 'an X-Wing', 'a Y-Wing', 'a TIE Fighter']
>>> [with_article(n) for n in ("attack", "move", "unit", "engagement", "hits")]
['an attack', 'a move', 'a unit', 'an engagement', 'a hits']
>>> counted(1, "square"), counted(2, "square"), counted(0, "copy", "copies")
('1 square', '2 squares', '0 copies')
"""

from __future__ import annotations

__all__ = ["counted", "with_article"]

#: Capital letters whose names begin with a vowel sound ("an F-16", "an X-Wing").
_VOWEL_LETTER_NAMES = frozenset("AEFHILMNORSX")
#: Beginnings that are spelt with a vowel and said with a consonant ("a unit", "a one").
_CONSONANT_SOUNDS = ("uni", "use", "usu", "eu", "one", "once")


def with_article(noun: str) -> str:
    """Return `noun` after "a" or "an", as it is said.

    A name that begins with a lone capital letter (``X-Wing``) takes the article of the
    letter's name; otherwise a written vowel takes "an", save for the few beginnings that
    are said with a consonant (``unit``, ``one``).
    """
    if not noun:
        return "a"
    first = noun[0]
    if first.isupper() and (len(noun) == 1 or not noun[1].isalpha()):
        article = "an" if first in _VOWEL_LETTER_NAMES else "a"
    elif first.lower() in "aeiou" and not noun.lower().startswith(_CONSONANT_SOUNDS):
        article = "an"
    else:
        article = "a"
    return f"{article} {noun}"


def counted(count: int, word: str, plural: str | None = None) -> str:
    """Return `count` and `word`, in the plural (`word` + "s" unless given) but for 1."""
    return f"{count} {word if count == 1 else (plural or word + 's')}"
