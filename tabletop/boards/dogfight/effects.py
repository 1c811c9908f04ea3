"""Card effects beyond moving, firing, defending and drawing: a registry of named effects.

The four effects of the contract's deck are the typed plays (``move``, ``advance``,
``fire``, ``defend``, ``tactics``), chosen by a card's ``kind``, ``value``, ``knight`` and
``draws``. A card that does anything else names an :class:`Effect` in its ``effect``
field; the effect says in which phases it is played, where it may be used and what it
does to the position. The generator lists its ``use`` plays from :attr:`Effect.uses`, the
judge refuses any other, and the engine applies :attr:`Effect.apply` — none of them
names a card or an effect.

A use is the phase's card: in the move phase it takes the place of a move (the fire
phase follows), in the fire phase that of a shot (the turn ends without a kill).

Examples
--------
An effect, registered once (here in a doctest, so it is unregistered at the end):

>>> from dataclasses import replace
>>> from tabletop.boards.dogfight.rules import STANDARD, Card
>>> def retreat_squares(tables, position, card):
...     side = position.to_play
...     back = range(0, 8) if side == 0 else range(56, 64)
...     taken = position.occupied[0] | position.occupied[1]
...     empty = [sq for sq in back if not taken >> sq & 1]
...     return [(origin, target) for origin in position.fighters(side) for target in empty]
>>> retreat = register_effect(Effect(
...     "retreat", "moves an own fighter to an empty square of its own back rank",
...     phases=("move",), uses=retreat_squares, apply=relocate))
>>> rules = replace(STANDARD, cards=(*STANDARD.cards, Card("Retreat", 2, "special", effect="retreat")))
>>> from tabletop.boards.dogfight import Dogfight
>>> game = Dogfight(rules)
>>> start = game.position(phase="move", hands={"rebels": ["Retreat"]},
...                       fighters={"rebels": {"d4": "X-Wing"}, "empire": {"a8": "TIE Fighter"}})
>>> [str(p) for p in game.legal_plays(start)][:2]
['use d4 a1 Retreat', 'use d4 b1 Retreat']
>>> game.push(start, game.parse_play("use d4 h1 Retreat"))
>>> game.describe(start)["fighters"]["rebels"], game.describe(start)["phase"]
({'h1': 'X-Wing'}, 'fire')
>>> unregister_effect("retreat")
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tabletop.boards.dogfight.position import Position

if TYPE_CHECKING:
    from tabletop.boards.dogfight.movegen import Tables

__all__ = [
    "EFFECTS",
    "EFFECT_PHASES",
    "Effect",
    "register_effect",
    "relocate",
    "unregister_effect",
]

#: The phases in which a card's effect may be used: those where a side plays one card.
EFFECT_PHASES: tuple[str, ...] = ("move", "fire")

#: Where a card may be used: ``uses(tables, position, card_index)`` lists the legal square
#: tuples (an empty tuple for an effect that names no square), in the order generated.
Uses = Callable[["Tables", Position, int], Iterable[tuple[int, ...]]]
#: What the use does: ``apply(position, side, squares)`` changes the board, kills or hands.
Apply = Callable[[Position, int, tuple[int, ...]], None]


@dataclass(frozen=True, slots=True)
class Effect:
    """A card effect: its name, its rule in words, its phases, where it applies, what it does.

    Attributes
    ----------
    name : str
        What a card's ``effect`` field names.
    text : str
        The effect in words, for the judge's message and the manual.
    phases : tuple of str
        Phases of :data:`EFFECT_PHASES` in which it is played.
    uses : callable
        ``uses(tables, position, card)``: every legal tuple of squares.
    apply : callable
        ``apply(position, side, squares)``: the effect on the position (the card is
        spent and the phase moves on by the engine).
    """

    name: str
    text: str
    phases: tuple[str, ...]
    uses: Uses
    apply: Apply


#: The registered effects by name.
EFFECTS: dict[str, Effect] = {}


def register_effect(effect: Effect) -> Effect:
    """Register `effect` under its name and return it.

    Raises
    ------
    ValueError
        For a name already registered or a phase outside :data:`EFFECT_PHASES`.
    """
    if effect.name in EFFECTS:
        raise ValueError(f"the effect {effect.name!r} is registered already")
    wrong = [phase for phase in effect.phases if phase not in EFFECT_PHASES]
    if wrong or not effect.phases:
        raise ValueError(
            f"effect {effect.name!r}: phases {effect.phases!r}; expected some of "
            + ", ".join(EFFECT_PHASES)
        )
    EFFECTS[effect.name] = effect
    return effect


def unregister_effect(name: str) -> None:
    """Remove the effect called `name` (a test's or a variant's) from the registry."""
    del EFFECTS[name]


def relocate(position: Position, side: int, squares: tuple[int, ...]) -> None:
    """Apply a two-square effect that moves `side`'s fighter from the first to the second."""
    origin, target = squares
    position.board[target], position.board[origin] = position.board[origin], -1
    position.occupied[side] ^= (1 << origin) | (1 << target)
