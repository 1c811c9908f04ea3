"""What a pairing says about each pair and bye: short reasons a TO can read aloud.

A top-down pair lists the candidates it passed over; consecutive ranks passed over for
one reason are said once ("ranks 12-14 are rematches"), so a line stays short.

Examples
--------
>>> skipped_text([(12, "is a rematch"), (13, "is a rematch"), (15, "would move the bye")])
'ranks 12-13 are rematches; rank 15 would move the bye'
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletop.tournament.regulations import bye_key_text

__all__ = ["bye_reason", "pair_reason", "refuse_reason", "skipped_text"]

_LABELS = (
    "would force a rematch elsewhere",
    "would force a second bye",
    "would move the bye",
    "would pair club-mates",
    "would break the TP groups",
)


def refuse_reason(worse: tuple[int, ...], best: tuple[int, ...]) -> str:
    """Return why a candidate pairing is worse: the first tier where it loses."""
    for label, mine, theirs in zip(_LABELS, worse, best, strict=True):
        if mine != theirs:
            return label
    return "would leave the rest worse paired"


def _plural(why: str) -> str:
    if why == "is a rematch":
        return "are rematches"
    return why


def skipped_text(skipped: Sequence[tuple[int, str]]) -> str:
    """Return the candidates passed over, runs of consecutive ranks with one reason joined."""
    runs: list[list[tuple[int, str]]] = []
    for rank, why in skipped:
        if runs and runs[-1][-1][1] == why and runs[-1][-1][0] + 1 == rank:
            runs[-1].append((rank, why))
        else:
            runs.append([(rank, why)])
    said = []
    for run in runs:
        first, why = run[0]
        if len(run) == 1:
            said.append(f"rank {first} {why}")
        else:
            said.append(f"ranks {first}-{run[-1][0]} {_plural(why)}")
    return "; ".join(said)


def pair_reason(
    round_number: int, tp: tuple[int, int], clubs: tuple[str | None, str | None]
) -> str:
    """Return why a pair made at random is what it is (round 1, or within a TP group)."""
    if round_number == 1:
        text = "round 1: random"
        if clubs[0] is not None:
            text += f" (players of one club kept apart where possible; {clubs[0]} v {clubs[1]})"
        return text
    ta, tb = tp
    if ta == tb:
        return f"random within the {ta}-TP group"
    return f"float: the {ta}-TP group has an odd one out, paired at random in the {tb}-TP group"


def bye_reason(
    round_number: int, keys: tuple[str, ...], figures: tuple[int, int, int], place: int
) -> str:
    """Return why a player has the bye: round 1's draw, or the bye order.

    `figures` are the player's TP, MoV and rank; `place` how many eligible players come
    before them in the bye order (each would have left the rest unpairable).
    """
    if round_number == 1:
        return "round 1: random"
    names = {"tp": "TP", "mov": "MoV", "rank": "lowest rank"}
    order = ", ".join(names[k] for k in keys)
    text = f"lowest in the bye order ({order}, then random) without a bye: "
    text += bye_key_text(keys, *figures)
    if place:
        text += f"; the {place} before in that order would leave the rest unpairable"
    return text
