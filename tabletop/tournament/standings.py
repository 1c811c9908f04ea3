"""Standings: TP, every tiebreaker as an exact fraction, and the rank they give.

Only Swiss rounds count. A bye is a win worth the regulation's bye TP (and MoV) but not a
game against an opponent; a round missed between a drop and a return is a loss with no
opponent and is not a round played. Ties left after every tiebreaker are broken by a
number drawn for each player from the event's seed and the player's id alone (a keyed
hash), so that adding, dropping or returning a player never reorders the others.

Examples
--------
>>> from tabletop.tournament.records import Bye, Event, Match, Player, Round
>>> ps = tuple(Player(i, i.title()) for i in ("ann", "bob", "cat"))
>>> r1 = Round("swiss", (Match(1, ("ann", "bob"), winner="ann"),), (Bye("cat"),))
>>> table = standings(Event("destiny", "destiny", "E", 1, ps, (r1,)))
>>> [(s.rank, s.player.id, s.tp, str(s.sos)) for s in table]
[(1, 'ann', 1, '0'), (2, 'cat', 1, '0'), (3, 'bob', 0, '1')]
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from tabletop.tournament.errors import ResultError
from tabletop.tournament.records import Event, Player
from tabletop.tournament.scoring import counted_tp, score_match
from tabletop.tournament.tiebreakers import Tiebreaker, sos_is_average, tiebreakers

__all__ = [
    "Standing",
    "Tally",
    "random_order",
    "standing_headings",
    "standings",
    "swiss_round_count",
    "tally",
]


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings.

    `sos` is the regulation's SoS: the sum of opponents' TP (``"sos"``) or the average of
    their TP per round played (``"sos-average"``); `esos` the average of the opponents'
    SoS. `wins` counts games won (byes not counted); `losses` includes rounds missed.
    """

    rank: int
    player: Player
    tp: int
    mov: int
    sos: Fraction
    esos: Fraction
    wins: int
    losses: int
    byes: int
    rounds_played: int
    opponents: tuple[str, ...]
    dropped: bool

    def value(self, key: str) -> Fraction:
        """Return a ranking key's value: ``"tp"``, or a tiebreaker's name.

        Raises
        ------
        RegulationError
            For a name that is neither.
        """
        if key == "tp":
            return Fraction(self.tp)
        return tiebreakers((key,))[0].value(self)

    def cells(self, keys: Sequence[str], decimals: int) -> list[str]:
        """Return the texts under :func:`standing_headings` of the regulation's `keys`.

        Each tiebreaker writes its own (a summed SoS is a whole number; an average SoS
        and ESoS are shown to `decimals`).
        """
        cells = [self.player.name + (" (dropped)" if self.dropped else ""), str(self.tp)]
        cells += [t.text(self, decimals) for t in tiebreakers(_tiebreak_keys(keys))]
        return [*cells, f"{self.wins}-{self.losses}-{self.byes}"]


def _tiebreak_keys(keys: Sequence[str]) -> list[str]:
    # "tp" may lead the keys (ranking keys) or not (a regulation's tiebreakers).
    return [key for key in keys if key != "tp"]


def standing_headings(keys: Sequence[str]) -> list[str]:
    """Return the headings of :meth:`Standing.cells`: player, TP, the tiebreakers, W-L-B.

    Examples
    --------
    >>> standing_headings(("tp", "mov", "sos"))
    ['player', 'TP', 'MoV', 'SoS', 'W-L-B']
    """
    return ["player", "TP", *(t.heading for t in tiebreakers(_tiebreak_keys(keys))), "W-L-B"]


@dataclass(frozen=True, slots=True)
class Tally:
    """What a player has so far, before ranking (see :func:`tally`)."""

    tp: int
    mov: int
    wins: int
    losses: int
    byes: int
    rounds_played: int
    opponents: tuple[str, ...]


def swiss_round_count(event: Event) -> int:
    """Return the number of Swiss rounds the event has so far."""
    return sum(1 for r in event.rounds if r.kind == "swiss")


def random_order(seed: int, ids: list[str]) -> dict[str, int]:
    """Return each id's draw for the last tiebreak (lower ranks first): a keyed hash.

    A player's draw depends on the event's seed and the player's id only, never on who
    else is registered, so a late arrival, a drop or a return moves nobody else.

    Examples
    --------
    >>> random_order(7, ["a", "b", "c"])["b"] == random_order(7, ["b", "zed"])["b"]
    True
    >>> random_order(7, ["a"]) != random_order(8, ["a"])
    True
    """
    return {pid: _draw(seed, pid) for pid in ids}


def _draw(seed: int, pid: str) -> int:
    # The seed's digits end at the first "/", so no two (seed, id) give one message.
    message = f"{seed}/".encode("ascii") + pid.encode("utf-8", "surrogatepass")
    digest = hashlib.blake2b(message, digest_size=8, person=b"tabletop-rank").digest()
    return int.from_bytes(digest, "big")


def tally(event: Event, through: int | None = None) -> dict[str, Tally]:
    """Return each player's TP, MoV, record and opponents after Swiss round `through`.

    Raises
    ------
    ResultError
        For a result that cannot be scored (naming round and table).
    """
    regulation = event.regulation
    last = swiss_round_count(event) if through is None else through
    tp = dict.fromkeys(event._index, 0)
    mov = dict.fromkeys(event._index, 0)
    wins = dict.fromkeys(event._index, 0)
    losses = dict.fromkeys(event._index, 0)
    byes = dict.fromkeys(event._index, 0)
    played = dict.fromkeys(event._index, 0)
    opponents: dict[str, list[str]] = {pid: [] for pid in event._index}
    number = 0
    for round_ in event.rounds:
        if round_.kind != "swiss":
            continue
        number += 1
        if number > last:
            break
        for match in round_.matches:
            try:
                outcome = score_match(regulation, match)
            except ResultError as error:
                error.round = number
                raise
            if outcome is None:
                continue  # not played yet: neither a game nor an opponent
            a, b = match.players
            opponents[a].append(b)
            opponents[b].append(a)
            played[a] += 1
            played[b] += 1
            for pid, points, margin in zip(
                match.players, counted_tp(match, outcome), outcome.mov, strict=True
            ):
                tp[pid] += points
                mov[pid] += margin
            wins[outcome.winner] += 1
            losses[outcome.loser] += 1
        for bye in round_.byes:
            tp[bye.player] += regulation.bye_tp
            mov[bye.player] += regulation.bye_mov
            byes[bye.player] += 1
            played[bye.player] += 1
        for player in event.players:
            if player.missed(number):
                losses[player.id] += 1
    return {
        pid: Tally(
            tp[pid],
            mov[pid],
            wins[pid],
            losses[pid],
            byes[pid],
            played[pid],
            tuple(opponents[pid]),
        )
        for pid in event._index
    }


def standings(
    event: Event, through: int | None = None, *, arrived_only: bool = False
) -> list[Standing]:
    """Return the ranked standings after Swiss round `through` (default: every round).

    With `arrived_only`, a player who arrived after round `through` is left out (the
    standings as they were printed then); pairing ranks every registered player.

    Raises
    ------
    ResultError
        For a result that cannot be scored.
    """
    regulation = event.regulation
    last = swiss_round_count(event) if through is None else through
    counts = tally(event, last)
    sos: dict[str, Fraction] = {}
    averaged = sos_is_average(regulation.tiebreakers)
    for pid, t in counts.items():
        if not t.opponents:
            sos[pid] = Fraction(0)
        elif averaged:
            total = sum(
                (
                    Fraction(counts[o].tp, counts[o].rounds_played)
                    for o in t.opponents
                    if counts[o].rounds_played
                ),
                Fraction(0),
            )
            sos[pid] = total / len(t.opponents)
        else:
            sos[pid] = Fraction(sum(counts[o].tp for o in t.opponents))
    esos = {
        pid: (
            sum((sos[o] for o in t.opponents), Fraction(0)) / len(t.opponents)
            if t.opponents
            else Fraction(0)
        )
        for pid, t in counts.items()
    }
    lottery = random_order(event.seed, list(counts))
    ranking = tiebreakers(regulation.tiebreakers)
    rows = []
    for player in event.players:
        if arrived_only and player.arrived_for is not None and player.arrived_for > last:
            continue
        t = counts[player.id]
        rows.append(
            (
                player,
                t.tp,
                t.mov,
                sos[player.id],
                esos[player.id],
                t.wins,
                t.losses,
                t.byes,
                t.rounds_played,
                t.opponents,
                player.dropped_after is not None and not player.active_in(last + 1),
            )
        )
    order = _ranking_order([Standing(0, *row) for row in rows], ranking, lottery)
    return [Standing(rank, *rows[index]) for rank, index in enumerate(order, 1)]


def _ranking_order(
    unranked: list[Standing], ranking: Sequence[Tiebreaker], lottery: dict[str, int]
) -> list[int]:
    """Return the indices of `unranked` best first: TP, each tiebreaker, then the draw.

    Each column's values are replaced by their place among the column's distinct values
    (the highest first) before the rows are sorted, so the sort compares small integers,
    not fractions: the same order, ten times sooner on a field of thousands.
    """
    columns = [
        [Fraction(row.tp) for row in unranked],
        *([t.value(row) for row in unranked] for t in ranking),
    ]
    places = []
    for column in columns:
        place = {value: i for i, value in enumerate(sorted(set(column), reverse=True))}
        places.append([place[value] for value in column])
    draws = [lottery[row.player.id] for row in unranked]
    keys = list(zip(*places, draws, strict=True))
    return sorted(range(len(unranked)), key=keys.__getitem__)
