"""The battlefield: 3 sectors × 5 rows of zones, named from player 1's side.

Sectors ``A``, ``B``, ``C`` run left to right as player 1 sees them; rows ``1`` (player
1's rear), ``2`` (player 1's front), ``3`` (the engagement zone, shared), ``4`` (player
2's front), ``5`` (player 2's rear). Player 1's left sector is player 2's right, so each
player has their own words for the same zone. Adjacency, for repositioning and tactical
moves, is data: a table from each zone to its neighbours inside its owner's half.

Examples
--------
>>> sorted(ADJACENT["A1"]), sorted(ADJACENT["B2"])
(['A2', 'B1'], ['A2', 'B1', 'C2'])
>>> "C2" in ADJACENT["A2"], "B3" in ADJACENT["B2"]
(False, False)
>>> zone_words("A2", 1), zone_words("A4", 2), zone_words("C3", 2)
('your left front', 'your right front', 'the engagement zone of your left sector')
>>> front_row(2), rear_row(1), own_zones(1)
(4, 1, ('A1', 'A2', 'B1', 'B2', 'C1', 'C2'))
"""

from __future__ import annotations

from typing import TypeAlias

__all__ = [
    "ADJACENT",
    "ENGAGEMENT_ROW",
    "NEIGHBOUR_SECTORS",
    "PLAYERS",
    "ROWS",
    "SECTORS",
    "SECTOR_WORDS",
    "ZONES",
    "Player",
    "Zone",
    "front_row",
    "is_zone",
    "own_zones",
    "rear_row",
    "zone",
    "zone_row",
    "zone_sector",
    "zone_words",
]

#: A zone's absolute name, sector letter then row digit: ``"B2"``.
Zone: TypeAlias = str
#: A player, 1 or 2 (player 1 has rows 1 and 2).
Player: TypeAlias = int

#: The sectors, left to right as player 1 sees them.
SECTORS: tuple[str, ...] = ("A", "B", "C")
#: The rows, from player 1's rear to player 2's rear.
ROWS: tuple[int, ...] = (1, 2, 3, 4, 5)
#: The shared row where units fight.
ENGAGEMENT_ROW = 3
#: The two players.
PLAYERS: tuple[Player, ...] = (1, 2)
#: Every zone, sector by sector.
ZONES: tuple[Zone, ...] = tuple(f"{s}{r}" for s in SECTORS for r in ROWS)
#: The sectors beside each sector: ``A`` and ``C`` are not neighbours.
NEIGHBOUR_SECTORS: dict[str, tuple[str, ...]] = {"A": ("B",), "B": ("A", "C"), "C": ("B",)}
#: Each player's own word for each sector: player 1's left is player 2's right.
SECTOR_WORDS: dict[Player, dict[str, str]] = {
    1: {"A": "left", "B": "centre", "C": "right"},
    2: {"A": "right", "B": "centre", "C": "left"},
}
_FRONT = {1: 2, 2: 4}
_REAR = {1: 1, 2: 5}


def zone(sector: str, row: int) -> Zone:
    """Return the zone of `sector` and `row`."""
    return f"{sector}{row}"


def zone_sector(z: Zone) -> str:
    """Return the sector letter of zone `z`."""
    return z[0]


def zone_row(z: Zone) -> int:
    """Return the row number of zone `z`."""
    return int(z[1])


def is_zone(text: str) -> bool:
    """Tell whether `text` names one of the 15 zones (``D7`` does not)."""
    return text in _ZONE_SET


def front_row(player: Player) -> int:
    """Return `player`'s front row (2 or 4)."""
    return _FRONT[player]


def rear_row(player: Player) -> int:
    """Return `player`'s rear row (1 or 5)."""
    return _REAR[player]


def own_zones(player: Player) -> tuple[Zone, ...]:
    """Return the six zones of `player`'s half, where their units deploy."""
    rows = (_REAR[player], _FRONT[player])
    return tuple(sorted(zone(s, r) for s in SECTORS for r in rows))


def _adjacency() -> dict[Zone, frozenset[Zone]]:
    table: dict[Zone, frozenset[Zone]] = {}
    for player in PLAYERS:
        front, rear = _FRONT[player], _REAR[player]
        for s in SECTORS:
            # Rear to the neighbouring rears and to the front of the same sector.
            table[zone(s, rear)] = frozenset(
                [zone(s, front)] + [zone(n, rear) for n in NEIGHBOUR_SECTORS[s]]
            )
            # Front to the neighbouring fronts and to the rear of the same sector.
            table[zone(s, front)] = frozenset(
                [zone(s, rear)] + [zone(n, front) for n in NEIGHBOUR_SECTORS[s]]
            )
    # The engagement zone is never a reposition's start or end.
    for s in SECTORS:
        table[zone(s, ENGAGEMENT_ROW)] = frozenset()
    return table


#: Zone to the zones a reposition or tactical move may reach from it (own half only).
ADJACENT: dict[Zone, frozenset[Zone]] = _adjacency()
_ZONE_SET = frozenset(ZONES)


def zone_words(z: Zone, player: Player) -> str:
    """Return zone `z` in `player`'s own words ("your left rear", "enemy right front")."""
    side = SECTOR_WORDS[player][zone_sector(z)]
    row = zone_row(z)
    if row == ENGAGEMENT_ROW:
        return f"the engagement zone of your {side} sector"
    other = 2 if player == 1 else 1
    if row in (_FRONT[player], _REAR[player]):
        return f"your {side} {'front' if row == _FRONT[player] else 'rear'}"
    return f"enemy {side} {'front' if row == _FRONT[other] else 'rear'}"
