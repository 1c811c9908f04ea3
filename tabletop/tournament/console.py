"""What a TO asks of a running event: late arrivals, open tables, seeds and final placings.

Examples
--------
>>> from tabletop.tournament.records import Event, Match, Player, Round
>>> ps = tuple(Player(i, i.title()) for i in ("ann", "bob", "cat", "dan"))
>>> r1 = Round("swiss", (Match(1, ("ann", "bob"), winner="ann"), Match(2, ("cat", "dan"))))
>>> event = Event("destiny", "destiny", "E", 1, ps, (r1,), swiss_rounds=3)
>>> pending_tables(event)
(1, [Match(table=2, players=('cat', 'dan'), scores=None, second_player=None, winner=None, games=None, concession=None, by_time=False, tp=None, tp_override=None, defeated=None)])
>>> late = add_player(event, Player("eve", "Eve"))
>>> late.player("eve").arrived_for, late.player("eve").missed(1)
(2, True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tabletop.tournament.errors import PairingError, RosterError
from tabletop.tournament.records import Event, Match, Player, Round
from tabletop.tournament.rounds import is_complete, match_winner, playoff_seeds, structure_of
from tabletop.tournament.standings import Standing, standings, swiss_round_count

__all__ = [
    "Placing",
    "add_player",
    "final_placings",
    "pending_tables",
    "round_is_open",
    "stage_name",
    "stage_title",
    "unpair",
]


def pending_tables(event: Event) -> tuple[int, list[Match]]:
    """Return the current round's number and its matches still waiting for a result.

    A table where a player has dropped needs no result (the other goes through), so it
    is not pending. An event with no round yet is round 0 with nothing pending.
    """
    if not event.rounds:
        return 0, []
    number = len(event.rounds)
    last = event.rounds[-1]
    waiting = [
        m
        for m in last.matches
        if not m.has_result and all(event.player(p).active_in(number) for p in m.players)
    ]
    return number, waiting


def round_is_open(event: Event) -> bool:
    """Whether the current round is paired and none of its results is recorded."""
    return bool(event.rounds) and not any(m.has_result for m in event.rounds[-1].matches)


def unpair(event: Event) -> tuple[Event, list[str]]:
    """Remove the current round's pairing; return the event and who now arrives for it.

    A player registered after the round was paired (``arrived_for`` the round after it)
    arrives for the round again being paired, so that pairing it again seats them.

    Raises
    ------
    PairingError
        When no round is paired, or the round has results (naming their tables).
    """
    if not event.rounds:
        raise PairingError("no round has been paired; there is nothing to unpair")
    number = len(event.rounds)
    recorded = [m.table for m in event.rounds[-1].matches if m.has_result]
    if recorded:
        tables = ", ".join(str(t) for t in recorded)
        raise PairingError(
            f"results are recorded at table(s) {tables}; clear them first "
            "(result --clear) to unpair the round",
            round=number,
        )
    seated: list[str] = []
    players = []
    for p in event.players:
        if p.arrived_for == number + 1:
            p = replace(p, arrived_for=number if number > 1 else None)
            seated.append(p.id)
        players.append(p)
    rounds: tuple[Round, ...] = event.rounds[:-1]
    return replace(event, players=tuple(players), rounds=rounds, _index={}), seated


def stage_name(event: Event, number: int) -> str:
    """Return what round `number` is called: "Round 3", "Quarter-final", "Final", ...

    A playoff round is named by the players it leaves: its matches and byes.
    """
    round_ = event.rounds[number - 1]
    return stage_title(round_.kind, number, len(round_.matches) + len(round_.byes))


def stage_title(kind: str, number: int, slots: int) -> str:
    """Return the name of round `number` of `kind` with `slots` matches and byes.

    Examples
    --------
    >>> stage_title("swiss", 3, 6), stage_title("playoff", 8, 4), stage_title("playoff", 9, 8)
    ('Round 3', 'Quarter-final', 'Top 16')
    """
    if kind != "playoff":
        return f"Round {number}"
    names = {1: "Final", 2: "Semi-final", 4: "Quarter-final"}
    return names.get(slots, f"Top {2 * slots}")


def add_player(event: Event, player: Player) -> Event:
    """Return the event with a player registered, late if rounds have been paired.

    Before round 1 the player is like any other. After round k the player arrives for
    round k + 1 (``arrived_for``): every round before it is a loss with no opponent (0 TP,
    0 MoV) and not a round played, as for a return after a drop.

    Raises
    ------
    RosterError
        For an id already registered, or an event whose Swiss rounds are over.
    """
    if any(p.id == player.id for p in event.players):
        raise RosterError("is already registered", player=player.id)
    if any(r.kind == "playoff" for r in event.rounds):
        raise RosterError("the playoff has started; a late arrival joins Swiss rounds only")
    played = swiss_round_count(event)
    if event.rounds and played >= structure_of(event).swiss_rounds:
        raise RosterError(f"all {played} Swiss rounds have been paired; nobody can join now")
    arrived = replace(player, arrived_for=len(event.rounds) + 1) if event.rounds else player
    return replace(event, players=(*event.players, arrived), _index={})


@dataclass(frozen=True, slots=True)
class Placing:
    """A final place, how far the player went, the playoff seed and the Swiss standing.

    `reached` is ``"winner"``, ``"finalist"``, ``"semi-finalist"``, ``"quarter-finalist"``,
    ``"top N"``, or ``"swiss"``; `seed` is None outside the playoff.
    """

    place: int
    reached: str
    seed: int | None
    standing: Standing


def _stage(rounds_from_final: int) -> str:
    names = {0: "finalist", 1: "semi-finalist", 2: "quarter-finalist"}
    return names.get(rounds_from_final, f"top {2 ** (rounds_from_final + 1)}")


def final_placings(event: Event) -> list[Placing]:
    """Return every player's final place once the event is complete.

    The playoff's winner is 1st and the finalist 2nd; players out in earlier playoff
    rounds follow, the later the round the higher, and within one round by Swiss rank;
    then everyone else by Swiss rank. An event without a cut places by Swiss rank.

    Raises
    ------
    RosterError
        When the event is not complete.
    """
    if not is_complete(event):
        raise RosterError("the event is not complete; final placings come after the last round")
    rows = standings(event)
    seeds = playoff_seeds(event)
    playoff = [(n, r) for n, r in enumerate(event.rounds, 1) if r.kind == "playoff"]
    reached: dict[str, int] = {}  # the last playoff round each player reached, from 0
    for index, (number, round_) in enumerate(playoff):
        for pid in round_.seated():
            reached[pid] = index
        for m in round_.matches:
            # a winner who drops before the next round still reached it
            through = match_winner(event, m, number)
            if through is not None and index + 1 < len(playoff):
                reached[through] = index + 1
    champion: str | None = None
    if playoff:
        number, final = playoff[-1]
        if final.matches:
            champion = match_winner(event, final.matches[0], number)
        elif final.byes:
            champion = final.byes[0].player
    last = len(playoff) - 1
    swiss_rank = {s.player.id: s.rank for s in rows}

    def order(row: Standing) -> tuple[int, int, int]:
        pid = row.player.id
        if pid == champion:
            return (0, 0, 0)
        if pid in reached:
            return (1, last - reached[pid], swiss_rank[pid])
        return (2, 0, swiss_rank[pid])

    placings = []
    for place, row in enumerate(sorted(rows, key=order), 1):
        pid = row.player.id
        if pid == champion:
            stage = "winner"
        elif pid in reached:
            stage = _stage(last - reached[pid])
        else:
            stage = "swiss"
        placings.append(Placing(place, stage, seeds.get(pid), row))
    return placings
