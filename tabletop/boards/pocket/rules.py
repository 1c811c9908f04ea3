"""The rules record: every ruling of the contract as a named option, defaults as written.

A rules object is data (python-chess's variant classes are the model): the engine reads
its options and never asks which game or variant it plays.

Examples
--------
>>> rules = PocketRules()
>>> rules.engagement_dice, rules.wound_token_source, rules.tie_break
('n-dice', 'most-orders', 'points')
>>> PocketRules(engagement_dice="one-die").bonus_dice(3)
1
>>> PocketRules().bonus_dice(3), PocketRules().bonus_dice(0)
(3, 0)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["RULING_OPTIONS", "PocketRules"]

#: Each ruling's option name and the values it takes (the first is the default).
RULING_OPTIONS: dict[str, tuple[str, ...]] = {
    "engagement_dice": ("n-dice", "one-die"),
    "wound_token_source": ("most-orders", "hit-unit-only"),
    "leave_return": ("free-strikers", "all-strikers"),
    "engagement_split": ("each-rounded-up", "target-only"),
    "tie_break": ("points", "troops"),
    "wide_arc_from_engagement": ("neighbours-only", "own-sector-too"),
}


@dataclass(frozen=True, slots=True)
class PocketRules:
    """The options of the Pocket Battles rules, each a ruling of the contract.

    Attributes
    ----------
    size_step : int
        Battle sizes are multiples of this, from it up (the seed: tokens = size / 10).
    advised_sizes : tuple of int
        Sizes outside this range are legal with a warning (the seed: 60 to 100).
    engagement_dice : str
        ``n-dice``: ``+N engagement``/``+N shoot`` add N dice; ``one-die``: one die
        whatever N (the seed's "+x" wording).
    wound_token_source : str
        Where a wound token comes from when the round's unspent tokens are gone:
        ``most-orders``, the hit unit, else the unit with the most order tokens (first
        in the file on a tie); ``hit-unit-only``, the hit unit or none.
    leave_return : str
        After a unit leaves an engagement: ``free-strikers``, each striker left with no
        contact goes to its front row; ``all-strikers``, every striker goes back, its
        other contacts broken (the seed's wording).
    engagement_split : str
        Hits shot into an engagement: ``each-rounded-up``, every unit linked by contacts
        takes ⌈hits / units⌉, the target first; ``target-only``, all on the target.
    tie_break : str
        Both players past half: ``points`` destroyed decide, then the defender;
        ``troops``, the number of troops destroyed, then points, then the defender.
    wide_arc_from_engagement : str
        A Wide arc unit in the engagement zone shoots ``neighbours-only`` (the
        neighbouring sectors' front rows and engagement zones) or ``own-sector-too``.
    """

    size_step: int = 10
    advised_sizes: tuple[int, int] = (60, 100)
    engagement_dice: str = "n-dice"
    wound_token_source: str = "most-orders"
    leave_return: str = "free-strikers"
    engagement_split: str = "each-rounded-up"
    tie_break: str = "points"
    wide_arc_from_engagement: str = "neighbours-only"

    def __post_init__(self) -> None:
        """Refuse an option value the engine does not know."""
        for name, values in RULING_OPTIONS.items():
            value = getattr(self, name)
            if value not in values:
                raise ValueError(f"{name} must be one of {', '.join(values)}; got {value!r}")

    def bonus_dice(self, n: int) -> int:
        """Return the extra dice of a ``+N engagement`` or ``+N shoot`` trait."""
        if n <= 0:
            return 0
        return n if self.engagement_dice == "n-dice" else 1
