"""The plays of Dogfight as typed values, read from and printed to their canonical text.

Every decision of the game is one play (a ply): ``discard CARD ...``, ``move FROM TO
CARD``, ``advance CARD``, ``fire FROM TO CARD``, ``defend CARD``, ``take``, ``tactics``
and ``pass``, ``use [SQUARE ...] CARD`` for a card with an effect of its own
(:mod:`~tabletop.boards.dogfight.effects`), and with a physical deck ``draw CARD`` (the card a real draw turned up). Texts are read with any run of spaces as one; a card
name is read without regard to case (``draw pursuit`` is ``draw Pursuit``) and printed as
the table spells it; names may have two words, so a ``discard`` list is read by the
longest card name at each word.

Examples
--------
>>> parse_play("move   b1 b4 Pursuit")
Move(origin=1, target=25, card='Pursuit')
>>> play_text(parse_play("discard Tactics Break Away Evasion"))
'discard Break Away Evasion Tactics'
>>> play_text(parse_play("discard tactics BREAK away evasion")), parse_play("draw pursuit")
('discard Break Away Evasion Tactics', Draw(card='Pursuit'))
>>> parse_play("fire a1 z9 Blasters")
Traceback (most recent call last):
...
tabletop.boards.errors.InvalidPlayError: cannot read play 'fire a1 z9 Blasters': 'z9' is not a square; expected a file a-h and a rank 1-8, like e4
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tabletop.boards.dogfight.rules import STANDARD, parse_square, square_name
from tabletop.boards.errors import InvalidPlayError

__all__ = [
    "PLAY_WORDS",
    "Advance",
    "Defend",
    "Discard",
    "Draw",
    "Fire",
    "Move",
    "Pass",
    "Play",
    "Tactics",
    "Take",
    "Use",
    "parse_play",
    "play_text",
]

#: The first word of each kind of play.
PLAY_WORDS: tuple[str, ...] = (
    "discard",
    "move",
    "advance",
    "fire",
    "defend",
    "take",
    "tactics",
    "pass",
    "draw",
    "use",
)


@dataclass(frozen=True, slots=True)
class Discard:
    """Throw cards away in the vector phase (sorted by code point)."""

    cards: tuple[str, ...]

    def __str__(self) -> str:
        """Return the canonical text."""
        return "discard " + " ".join(self.cards)


@dataclass(frozen=True, slots=True)
class Move:
    """Move one fighter from `origin` to `target` with a move card."""

    origin: int
    target: int
    card: str

    def __str__(self) -> str:
        """Return the canonical text."""
        return f"move {square_name(self.origin)} {square_name(self.target)} {self.card}"


@dataclass(frozen=True, slots=True)
class Advance:
    """Move the whole side straight forward with a move card (the group advance)."""

    card: str

    def __str__(self) -> str:
        """Return the canonical text."""
        return f"advance {self.card}"


@dataclass(frozen=True, slots=True)
class Fire:
    """Fire from the fighter on `origin` at the enemy on `target` with an attack card."""

    origin: int
    target: int
    card: str

    def __str__(self) -> str:
        """Return the canonical text."""
        return f"fire {square_name(self.origin)} {square_name(self.target)} {self.card}"


@dataclass(frozen=True, slots=True)
class Defend:
    """Cancel the shot with a defence card."""

    card: str

    def __str__(self) -> str:
        """Return the canonical text."""
        return f"defend {self.card}"


@dataclass(frozen=True, slots=True)
class Take:
    """Accept the shot: the target is destroyed."""

    def __str__(self) -> str:
        """Return the canonical text."""
        return "take"


@dataclass(frozen=True, slots=True)
class Tactics:
    """Discard Tactics and draw 2."""

    def __str__(self) -> str:
        """Return the canonical text."""
        return "tactics"


@dataclass(frozen=True, slots=True)
class Pass:
    """Play nothing in this phase."""

    def __str__(self) -> str:
        """Return the canonical text."""
        return "pass"


@dataclass(frozen=True, slots=True)
class Draw:
    """Name the card drawn from a physical deck."""

    card: str

    def __str__(self) -> str:
        """Return the canonical text."""
        return f"draw {self.card}"


@dataclass(frozen=True, slots=True)
class Use:
    """Play a card with an effect of its own on the squares it names (maybe none)."""

    squares: tuple[int, ...]
    card: str

    def __str__(self) -> str:
        """Return the canonical text."""
        return " ".join(["use", *(square_name(sq) for sq in self.squares), self.card])


#: Any play.
Play = Discard | Move | Advance | Fire | Defend | Take | Tactics | Pass | Draw | Use


def play_text(play: Play) -> str:
    """Return a play's canonical text."""
    return str(play)


def _spelled(name: str, names: frozenset[str]) -> str | None:
    """Return the table's spelling of `name`, read without regard to case (None: no card)."""
    if name in names:
        return name
    folded = name.casefold()
    return next((known for known in names if known.casefold() == folded), None)


def _card(text: str, words: Sequence[str], names: frozenset[str]) -> str:
    if not words:
        raise InvalidPlayError(text, "a card name is missing")
    name = _spelled(" ".join(words), names)
    if name is None:
        raise InvalidPlayError(
            text,
            f"unknown card {' '.join(words)!r}; expected one of: {', '.join(sorted(names))}",
        )
    return name


def _cards(text: str, words: Sequence[str], names: frozenset[str]) -> tuple[str, ...]:
    # Longest name first at each word: no two-word card name is two one-word names.
    longest = max(len(name.split()) for name in names)
    found: list[str] = []
    i = 0
    while i < len(words):
        for size in range(min(longest, len(words) - i), 0, -1):
            name = _spelled(" ".join(words[i : i + size]), names)
            if name is not None:
                found.append(name)
                i += size
                break
        else:
            raise InvalidPlayError(
                text,
                f"unknown card starting at {words[i]!r}; expected card names from: "
                + ", ".join(sorted(names)),
            )
    if not found:
        raise InvalidPlayError(text, "discard names no card; expected discard CARD ...")
    return tuple(sorted(found))


def _square(text: str, word: str) -> int:
    try:
        return parse_square(word)
    except ValueError as error:
        raise InvalidPlayError(text, str(error)) from None


def parse_play(text: str, card_names: frozenset[str] | None = None) -> Play:
    """Read one play's text.

    Parameters
    ----------
    text : str
        The play, words separated by any run of spaces.
    card_names : frozenset of str, optional
        The card names of the rules in use (the standard table's by default).

    Raises
    ------
    InvalidPlayError
        For an unknown word, square or card, or the wrong number of words.
    """
    names = _STANDARD_NAMES if card_names is None else card_names
    if not isinstance(text, str):
        raise InvalidPlayError(repr(text), "a play is a text")
    words = text.split()
    if not words:
        raise InvalidPlayError(text, f"empty play; expected one of: {', '.join(PLAY_WORDS)}")
    head, rest = words[0], words[1:]
    if head in ("move", "fire"):
        if len(rest) < 3:
            raise InvalidPlayError(text, f"expected {head} FROM TO CARD")
        origin, target = _square(text, rest[0]), _square(text, rest[1])
        card = _card(text, rest[2:], names)
        return Move(origin, target, card) if head == "move" else Fire(origin, target, card)
    if head in ("advance", "defend", "draw"):
        card = _card(text, rest, names)
        made: dict[str, type[Advance] | type[Defend] | type[Draw]] = {
            "advance": Advance,
            "defend": Defend,
            "draw": Draw,
        }
        return made[head](card)
    if head == "discard":
        return Discard(_cards(text, rest, names))
    if head == "use":
        return _use(text, rest, names)
    if head in ("take", "tactics", "pass"):
        if rest:
            raise InvalidPlayError(text, f"{head!r} takes no more words")
        simple: dict[str, Play] = {"take": Take(), "tactics": Tactics(), "pass": Pass()}
        return simple[head]
    raise InvalidPlayError(text, f"unknown play {head!r}; expected one of: {', '.join(PLAY_WORDS)}")


def _use(text: str, words: Sequence[str], names: frozenset[str]) -> Use:
    """Read ``use [SQUARE ...] CARD``: the leading words that name squares, then the card."""
    count = 0
    while count < len(words) - 1 and _is_square(words[count]):
        count += 1
    squares = tuple(_square(text, word) for word in words[:count])
    return Use(squares, _card(text, words[count:], names))


def _is_square(word: str) -> bool:
    try:
        parse_square(word)
    except ValueError:
        return False
    return True


_STANDARD_NAMES = frozenset(card.name for card in STANDARD.cards)
