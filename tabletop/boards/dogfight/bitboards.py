"""Bitboard tables of the 8 × 8 board: rays, reach by distance, knight jumps, advances.

A bitboard is a Python int whose bit ``n`` stands for square ``n`` (``rank * 8 +
file``). Rays run from a square (excluded) to the board's edge in one of 8 directions;
the first fighter met along a ray is its lowest set bit for a direction that raises the
square number and its highest for one that lowers it, so no square is visited one by one.

Examples
--------
>>> squares(KNIGHT[0])
[10, 17]
>>> squares(WITHIN[0][1])
[1, 8, 9]
>>> squares(free_and_first(27, bit(29) | bit(43))[1])
[29, 43]
"""

from __future__ import annotations

__all__ = [
    "DIRECTIONS",
    "FORWARD",
    "KNIGHT",
    "RAYS",
    "RING",
    "WITHIN",
    "bit",
    "free_and_first",
    "squares",
]

#: The 8 directions as (file step, rank step).
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
)


def bit(square: int) -> int:
    """Return the bitboard of one square."""
    return 1 << square


def squares(board: int) -> list[int]:
    """Return the squares of a bitboard, lowest first."""
    out = []
    while board:
        low = board & -board
        out.append(low.bit_length() - 1)
        board ^= low
    return out


def _walk(square: int, df: int, dr: int) -> list[int]:
    f, r = square % 8 + df, square // 8 + dr
    out = []
    while 0 <= f < 8 and 0 <= r < 8:
        out.append(r * 8 + f)
        f, r = f + df, r + dr
    return out


def _mask(cells: list[int]) -> int:
    board = 0
    for cell in cells:
        board |= 1 << cell
    return board


_PATHS = [[_walk(sq, df, dr) for sq in range(64)] for df, dr in DIRECTIONS]

#: ``RAYS[d][square]``: the squares from `square` to the edge along direction ``d``.
RAYS: tuple[tuple[int, ...], ...] = tuple(tuple(_mask(path) for path in paths) for paths in _PATHS)
# A ray's nearest square is its lowest bit when the direction raises the square number.
_RAISES = tuple(df + 8 * dr > 0 for df, dr in DIRECTIONS)

#: ``WITHIN[square][n]``: the squares 1 to n steps away along the 8 lines (n = 0 … 7).
WITHIN: tuple[tuple[int, ...], ...] = tuple(
    tuple(_mask([c for paths in _PATHS for c in paths[sq][:n]]) for n in range(8))
    for sq in range(64)
)

#: ``RING[square][n]``: the squares exactly n steps away along the 8 lines.
RING: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        _mask([paths[sq][n - 1] for paths in _PATHS if len(paths[sq]) >= n]) if n else 0
        for n in range(8)
    )
    for sq in range(64)
)

#: ``KNIGHT[square]``: the squares a chess knight's jump away.
KNIGHT: tuple[int, ...] = tuple(
    _mask(
        [
            (sq // 8 + dr) * 8 + sq % 8 + df
            for df, dr in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
            if 0 <= sq % 8 + df < 8 and 0 <= sq // 8 + dr < 8
        ]
    )
    for sq in range(64)
)

#: ``FORWARD[side][square][n]``: the n squares straight forward of `square` for side 0
#: (toward rank 8) or 1 (toward rank 1); -1 when they would leave the board.
FORWARD: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            _mask(_PATHS[direction][sq][:n]) if len(_PATHS[direction][sq]) >= n else -1
            for n in range(8)
        )
        for sq in range(64)
    )
    for direction in (2, 6)
)


# Per square, its non-empty rays with whether their direction raises the square number.
_RAYS_OF = tuple(
    tuple((RAYS[d][sq], _RAISES[d]) for d in range(8) if RAYS[d][sq]) for sq in range(64)
)


def free_and_first(square: int, blockers: int) -> tuple[int, int]:
    """Return the squares reachable along the 8 lines and the first blocker of each line.

    Parameters
    ----------
    square : int
        Where the lines start.
    blockers : int
        The bitboard of squares that stop a line.

    Returns
    -------
    free : int
        Every square before the first blocker of its line.
    first : int
        The first blocker of each line that has one.
    """
    free = first = 0
    for ray, raises in _RAYS_OF[square]:
        hit = ray & blockers
        if not hit:
            free |= ray
        elif raises:
            near = hit & -hit  # the lowest blocker; the ray's squares below it are free
            free |= ray & (near - 1)
            first |= near
        else:
            near = 1 << (hit.bit_length() - 1)  # the highest; the squares above it are free
            free |= ray & -(near << 1)
            first |= near
    return free, first
