"""A battle's position: mutable for speed, with an explicit :meth:`PocketState.copy`.

The token pool of each player is shared with wounds. At every moment of a round::

    pool + spent + order tokens on units + wound tokens on troops == allotment

where the allotment is the round's hand-out (size / 10, +1 for a Leader on the field, at
least the wound tokens already on troops). :meth:`PocketState.token_total` checks it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tabletop.boards.pocket.army import Battle, Traits, Troop, UnitSpec, unit_traits
from tabletop.boards.pocket.zones import (
    ENGAGEMENT_ROW,
    Player,
    Zone,
    front_row,
    zone_row,
    zone_sector,
)
from tabletop.boards.rng import Rng

__all__ = ["Contact", "Frame", "PocketState", "TroopState", "UnitState", "opponent"]

#: One pending step of a resolution (a decision or an automatic step), innermost last.
Frame = tuple[object, ...]


def opponent(player: Player) -> Player:
    """Return the other player."""
    return 3 - player


class TroopState:
    """A troop on the field: its tile and the wound tokens on it."""

    __slots__ = ("spec", "wounds")

    def __init__(self, spec: Troop, wounds: int = 0) -> None:
        self.spec, self.wounds = spec, wounds

    @property
    def id(self) -> str:
        """The troop's id."""
        return self.spec.id

    def __repr__(self) -> str:  # noqa: D105
        return f"TroopState({self.spec.id!r}, wounds={self.wounds})"


class UnitState:
    """A unit on the field: its surviving troops, zone and order tokens."""

    __slots__ = (
        "all_melee",
        "all_shoot",
        "id",
        "index",
        "orders",
        "player",
        "spec",
        "traits",
        "troops",
        "zone",
    )

    def __init__(self, spec: UnitSpec, player: Player, index: int) -> None:
        self.spec, self.id, self.player, self.index = spec, spec.id, player, index
        self.troops = [TroopState(t) for t in spec.troops]
        self.zone: Zone | None = spec.zone
        self.orders = 0
        self.traits: Traits = unit_traits(spec.troops)
        self.all_melee = self.all_have("melee")
        self.all_shoot = self.all_have("shoot")

    def copy(self) -> UnitState:
        """Return an independent copy."""
        twin = UnitState.__new__(UnitState)
        twin.spec, twin.id, twin.player, twin.index = self.spec, self.id, self.player, self.index
        twin.troops = [TroopState(t.spec, t.wounds) for t in self.troops]
        twin.zone, twin.orders, twin.traits = self.zone, self.orders, self.traits
        twin.all_melee, twin.all_shoot = self.all_melee, self.all_shoot
        return twin

    @property
    def alive(self) -> bool:
        """True while a troop of it stands."""
        return bool(self.troops)

    @property
    def on_field(self) -> bool:
        """True when deployed and not destroyed."""
        return self.zone is not None and bool(self.troops)

    @property
    def row(self) -> int:
        """Its zone's row (the unit must be on the field)."""
        return zone_row(self.zone or "")

    @property
    def sector(self) -> str:
        """Its zone's sector (the unit must be on the field)."""
        return zone_sector(self.zone or "")

    @property
    def engaged_row(self) -> bool:
        """True in the engagement zone."""
        return self.zone is not None and zone_row(self.zone) == ENGAGEMENT_ROW

    @property
    def at_front(self) -> bool:
        """True in its own front row."""
        return self.zone is not None and zone_row(self.zone) == front_row(self.player)

    def all_have(self, stat: str) -> bool:
        """Tell whether every surviving troop has a `stat` ("melee" or "shoot") value."""
        return all(getattr(t.spec, stat) is not None for t in self.troops)

    def wound_tokens(self) -> int:
        """Count the wound tokens on its troops."""
        return sum(t.wounds for t in self.troops)

    def refresh_traits(self) -> None:
        """Recompute its traits from the surviving troops."""
        self.traits = unit_traits(t.spec for t in self.troops)
        self.all_melee = self.all_have("melee")
        self.all_shoot = self.all_have("shoot")

    def __repr__(self) -> str:  # noqa: D105
        return f"UnitState({self.id!r}, zone={self.zone}, troops={len(self.troops)}, orders={self.orders})"


@dataclass(slots=True)
class Contact:
    """Two enemy units in contact, and the turn in which they met."""

    first: str
    second: str
    turn: int

    def has(self, unit: str) -> bool:
        """Tell whether `unit` is one of the two."""
        return unit in (self.first, self.second)

    def other(self, unit: str) -> str:
        """Return the unit in contact with `unit`."""
        return self.second if unit == self.first else self.first


class PocketState:
    """The whole position of a battle, the dice stream included.

    ``phase`` is ``deploy``, ``turn`` (start of a turn), ``action`` (after a
    reposition), ``acting`` (resolving the turn's action), ``end`` (end-of-round
    removals) or ``over``; ``stack`` holds the pending steps of the resolution.
    """

    __slots__ = (
        "allotment",
        "battle",
        "contacts",
        "destroyed",
        "destroyed_troops",
        "end_index",
        "first_player",
        "first_turn",
        "last_deployer",
        "last_play",
        "options",
        "phase",
        "plays",
        "pool",
        "repositioned",
        "rng",
        "round",
        "spent",
        "spurred",
        "stack",
        "to_play",
        "turn",
        "units",
        "winner",
    )

    def __init__(self, battle: Battle, seed: int | None = None) -> None:
        self.battle = battle
        self.units: dict[str, UnitState] = {}
        for army in battle.armies:
            for unit in army.units:
                self.units[unit.id] = UnitState(unit, army.player, len(self.units))
        self.contacts: list[Contact] = []
        # Index 0 unused: lists indexed by player number.
        self.pool, self.spent, self.allotment = [0, 0, 0], [0, 0, 0], [0, 0, 0]
        self.destroyed, self.destroyed_troops = [0, 0, 0], [0, 0, 0]
        self.round, self.turn = 0, 0
        self.first_player: Player = battle.attacker
        self.to_play: Player = battle.attacker
        self.first_turn = False
        self.phase = "deploy"
        self.repositioned: str | None = None
        self.spurred: str | None = None
        self.stack: list[Frame] = []
        self.rng = Rng(battle.seed if seed is None else seed)
        self.last_deployer: Player | None = None
        self.last_play: str | None = None
        self.end_index = 0
        self.plays = 0
        self.winner: Player | None = None
        # The current decision's plays and costs, kept by the engine until the next push.
        self.options: list[tuple[Any, int]] | None = None

    def copy(self) -> PocketState:
        """Return an independent copy (the dice stream too)."""
        twin = PocketState.__new__(PocketState)
        twin.battle = self.battle
        twin.units = {k: u.copy() for k, u in self.units.items()}
        twin.contacts = [Contact(c.first, c.second, c.turn) for c in self.contacts]
        twin.pool, twin.spent, twin.allotment = self.pool[:], self.spent[:], self.allotment[:]
        twin.destroyed, twin.destroyed_troops = self.destroyed[:], self.destroyed_troops[:]
        twin.round, twin.turn, twin.first_player = self.round, self.turn, self.first_player
        twin.to_play, twin.first_turn, twin.phase = self.to_play, self.first_turn, self.phase
        twin.repositioned, twin.spurred = self.repositioned, self.spurred
        twin.stack = self.stack[:]
        twin.rng = self.rng.copy()
        twin.last_deployer, twin.last_play = self.last_deployer, self.last_play
        twin.end_index, twin.plays, twin.winner = self.end_index, self.plays, self.winner
        twin.options = None
        return twin

    __copy__ = copy

    def __deepcopy__(self, memo: object) -> PocketState:  # noqa: D105
        return self.copy()

    def player_units(self, player: Player) -> list[UnitState]:
        """Return `player`'s units on the field, in the file's order."""
        return [u for u in self.units.values() if u.player == player and u.on_field]

    def contacts_of(self, unit: str) -> list[str]:
        """Return the units in contact with `unit`, in the order they came into contact."""
        return [c.other(unit) for c in self.contacts if c.has(unit)]

    def token_total(self, player: Player) -> int:
        """Return pool + spent + order tokens + wound tokens of `player` (the allotment)."""
        on_units = sum(
            u.orders + u.wound_tokens()
            for u in self.units.values()
            if u.player == player and u.alive
        )
        return self.pool[player] + self.spent[player] + on_units

    def signature(self) -> tuple[object, ...]:
        """Return a value equal for equal positions (for tests of replay)."""
        units = tuple(
            (u.id, u.zone, u.orders, tuple((t.id, t.wounds) for t in u.troops))
            for u in self.units.values()
        )
        contacts = tuple((c.first, c.second, c.turn) for c in self.contacts)
        return (
            units,
            contacts,
            tuple(self.pool),
            tuple(self.spent),
            tuple(self.destroyed),
            self.round,
            self.turn,
            self.phase,
            self.to_play,
            tuple(self.stack),
            self.rng.state,
            self.winner,
        )
