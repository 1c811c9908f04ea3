"""The course of an event: its structure, the next round (Swiss or playoff), the bracket.

Examples
--------
>>> from tabletop.tournament.records import Event, Player
>>> field = tuple(Player(f"p{i:02}", f"P{i}") for i in range(1, 41))
>>> structure_of(Event("destiny", "destiny", "E", 1, field, structure="basic"))
Structure(swiss_rounds=5, cut=4, playoff_games=1)
>>> bracket_order(8)
[(1, 8), (2, 7), (3, 6), (4, 5)]
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tabletop.tournament.errors import EventCompleteError, PairingError, StructureError
from tabletop.tournament.matching import max_weight_perfect_matching
from tabletop.tournament.pairing import Matcher, PairedBye, PairedMatch, Pairing, pair_swiss
from tabletop.tournament.records import Event, Match
from tabletop.tournament.scoring import score_match
from tabletop.tournament.standings import standings, swiss_round_count

__all__ = [
    "Structure",
    "bracket_order",
    "check_round_complete",
    "is_complete",
    "match_winner",
    "pair_next",
    "playoff_seeds",
    "qualifiers",
    "structure_of",
]


@dataclass(frozen=True, slots=True)
class Structure:
    """Swiss rounds, cut (0: none) and games per playoff match of an event."""

    swiss_rounds: int
    cut: int
    playoff_games: int


def structure_of(event: Event) -> Structure:
    """Return the event's structure from its regulation's tables and its own numbers.

    The registered players (dropped ones included) pick the row; ``swiss_rounds`` and
    ``cut``, when the event gives them, replace the row's numbers.

    Raises
    ------
    StructureError
        For a count outside the table when the row is needed, or a structure or tier
        with no table and no ``swiss_rounds``.
    """
    regulation = event.regulation
    count = len(event.players)
    structure = event.structure or regulation.default_structure
    games = event.playoff_games or regulation.playoff_games_by_structure.get(structure or "", 1)
    if structure is not None and structure in regulation.structures:
        if event.swiss_rounds is not None:
            try:
                row_cut = regulation.structure_row(structure, count).cut
            except StructureError:
                row_cut = 0
            cut = event.cut if event.cut is not None else row_cut
            return Structure(event.swiss_rounds, cut, games)
        row = regulation.structure_row(structure, count)
        return Structure(row.swiss_rounds, event.cut if event.cut is not None else row.cut, games)
    if event.swiss_rounds is not None:
        return Structure(event.swiss_rounds, event.cut or 0, games)
    if structure is not None and regulation.structures:
        raise StructureError(
            f"the {structure!r} structure has no table in {regulation.id}; give swiss_rounds"
        )
    rounds = regulation.swiss_rounds_for(count, event.tier)
    return Structure(rounds, event.cut or 0, games)


def bracket_order(size: int) -> list[tuple[int, int]]:
    """Seed pairs of a bracket of `size` (a power of two): 1 v size, 2 v size - 1, ..."""
    return [(k, size + 1 - k) for k in range(1, size // 2 + 1)]


def match_winner(event: Event, match: Match, round_number: int) -> str | None:
    """Return who goes through from a playoff match (a dropped player's opponent, too)."""
    a, b = match.players
    active_a = event.player(a).active_in(round_number)
    active_b = event.player(b).active_in(round_number)
    if active_a != active_b:
        return a if active_a else b
    outcome = score_match(event.regulation, match, structure_of(event).playoff_games)
    return None if outcome is None else outcome.winner


def playoff_seeds(event: Event) -> dict[str, int]:
    """Return each playoff player's seed, fixed by the first playoff round's bracket.

    In a bracket of size 2n, table k of the first playoff round seats seed k (first) and
    seed 2n + 1 - k; a bye at table k is seed k. A drop later renumbers nothing.
    """
    first = next((r for r in event.rounds if r.kind == "playoff"), None)
    if first is None:
        return {}
    size = 2 * (len(first.matches) + len(first.byes))
    seeds: dict[str, int] = {}
    for m in first.matches:
        seeds[m.players[0]] = m.table
        seeds[m.players[1]] = size + 1 - m.table
    for b in first.byes:
        seeds[b.player] = b.table or 0
    return seeds


def check_round_complete(event: Event) -> None:
    """Raise unless every match of the last round has a result.

    Raises
    ------
    PairingError
        Naming the round and every table without a result.
    """
    if not event.rounds:
        return
    number = len(event.rounds)
    last = event.rounds[-1]
    games = structure_of(event).playoff_games if last.kind == "playoff" else 1
    missing = []
    for match in last.matches:
        a, b = match.players
        both = event.player(a).active_in(number) and event.player(b).active_in(number)
        if both and score_match(event.regulation, match, games) is None:
            missing.append(match)
    if len(missing) == 1:
        a, b = missing[0].players
        raise PairingError(
            f"no result yet ({a} v {b}); enter it before pairing round {number + 1}",
            round=number,
            table=missing[0].table,
        )
    if missing:
        tables = ", ".join(f"table {m.table} ({m.players[0]} v {m.players[1]})" for m in missing)
        raise PairingError(
            f"no result yet at {len(missing)} tables: {tables}; enter them before pairing "
            f"round {number + 1}",
            round=number,
        )


def qualifiers(event: Event, round_number: int) -> list[str]:
    """Return the players who make the cut, in seed order (drops replaced from below)."""
    cut = structure_of(event).cut
    field = [
        s.player.id
        for s in standings(event, swiss_round_count(event))
        if s.player.active_in(round_number)
    ]
    return field[:cut]


def is_complete(event: Event) -> bool:
    """Whether every round of the structure, and the final, has been played."""
    structure = structure_of(event)
    swiss = swiss_round_count(event)
    playoff = [r for r in event.rounds if r.kind == "playoff"]
    if swiss < structure.swiss_rounds:
        return False
    if structure.cut == 0 and structure.swiss_rounds > 0:
        return True
    if not playoff:
        return False
    last = playoff[-1]
    if len(last.matches) + len(last.byes) != 1:
        return False
    if not last.matches:
        return True
    return match_winner(event, last.matches[0], len(event.rounds)) is not None


def pair_next(event: Event, matcher: Matcher = max_weight_perfect_matching) -> Pairing:
    """Pair the next round of the event (Swiss or playoff, by its structure).

    Raises
    ------
    PairingError
        When a result of the last round is missing, or too few players remain.
    EventCompleteError
        When the event is complete.
    StructureError
        When the structure cannot be read from the regulation's tables.
    """
    structure = structure_of(event)
    check_round_complete(event)
    if is_complete(event):
        raise EventCompleteError("the event is complete")
    number = len(event.rounds) + 1
    active = [p.id for p in event.players if p.active_in(number)]
    if swiss_round_count(event) < structure.swiss_rounds:
        if len(active) < 2:
            raise PairingError(
                f"round {number} needs two active players, found {len(active)}", round=number
            )
        return pair_swiss(event, matcher)
    return _pair_playoff(event, number, structure)


def _pair_playoff(event: Event, number: int, structure: Structure) -> Pairing:
    previous = [r for r in event.rounds if r.kind == "playoff"]
    if not previous:
        if structure.swiss_rounds == 0:
            return _playoff_start(event, number)
        seeds = qualifiers(event, number)
        if len(seeds) < 2:
            raise PairingError(
                f"the cut needs two active players, found {len(seeds)}", round=number
            )
        size = 1
        while size < len(seeds):
            size *= 2
        pairs, byes = [], []
        tp = {s.player.id: s.tp for s in standings(event)}
        for table, (high, low) in enumerate(bracket_order(size), 1):
            a = seeds[high - 1]
            if low > len(seeds):
                byes.append(
                    PairedBye(a, f"seed {high}: the bracket of {size} has no seed {low}", table)
                )
                continue
            b = seeds[low - 1]
            pairs.append(
                PairedMatch(
                    table,
                    (a, b),
                    (high, low),
                    (tp[a], tp[b]),
                    f"seed {high} v seed {low}",
                    False,
                    False,
                )
            )
        return Pairing(number, "playoff", tuple(pairs), tuple(byes), ())
    last = previous[-1]
    last_number = len(event.rounds)
    slots: list[tuple[int, str | None]] = []
    for match in last.matches:
        slots.append((match.table, match_winner(event, match, last_number)))
    slots.extend((bye.table or 0, bye.player) for bye in last.byes)
    slots.sort()
    ranked = standings(event)
    rank = playoff_seeds(event)  # fixed at the cut: a later drop renumbers nothing
    points = {s.player.id: s.tp for s in ranked}
    winners: list[str | None] = [
        w if w is not None and event.player(w).active_in(number) else None for _, w in slots
    ]
    count = len(winners)
    pairs, byes = [], []
    warnings: list[str] = []
    for j in range(count // 2):
        top, bottom = winners[j], winners[count - 1 - j]
        ta, tb = slots[j][0], slots[count - 1 - j][0]
        table = j + 1
        if top is not None and bottom is not None:
            pairs.append(
                PairedMatch(
                    table,
                    (top, bottom),
                    (rank[top], rank[bottom]),
                    (points[top], points[bottom]),
                    f"winner of table {ta} v winner of table {tb}",
                    False,
                    False,
                )
            )
        elif top is not None or bottom is not None:
            present = top if top is not None else bottom
            assert present is not None
            byes.append(PairedBye(present, "the opponent dropped during the playoff", table))
        else:
            warnings.append(f"table {table}: both players dropped; nobody goes through")
    return Pairing(number, "playoff", tuple(pairs), tuple(byes), tuple(warnings))


def _playoff_start(event: Event, number: int) -> Pairing:
    field = [p.id for p in event.players if p.active_in(number)]
    if len(field) < 2:
        raise PairingError(f"a playoff needs two active players, found {len(field)}", round=number)
    rows = standings(event)
    rank = {s.player.id: s.rank for s in rows}
    tp = {s.player.id: s.tp for s in rows}
    rng = random.Random(f"{event.seed}/playoff-start")
    rng.shuffle(field)
    size = 1
    while size < len(field):
        size *= 2
    bye_count = size - len(field)
    byes_players, rest = field[:bye_count], field[bye_count:]
    tables = list(range(1, size // 2 + 1))
    rng.shuffle(tables)
    byes = [
        PairedBye(
            p,
            f"playoff start: {len(field)} players in a bracket of {size}, bye at random",
            tables[k],
        )
        for k, p in enumerate(byes_players)
    ]
    pairs = []
    for k in range(len(rest) // 2):
        table = tables[bye_count + k]
        a, b = rest[2 * k], rest[2 * k + 1]
        pairs.append(
            PairedMatch(
                table,
                (a, b),
                (rank[a], rank[b]),
                (tp[a], tp[b]),
                "playoff start: random",
                False,
                False,
            )
        )
    pairs.sort(key=lambda p: p.table)
    byes.sort(key=lambda b: b.table or 0)
    return Pairing(number, "playoff", tuple(pairs), tuple(byes), ())
