"""Players, matches, byes, rounds and events as typed immutable records.

An :class:`Event` is the whole tournament: its regulation, its structure and every round
played so far. Records check themselves as they are made (a duplicate id, an unknown
player at a table, a negative score, a winner who is not at the table) and raise the
package's errors, so that a record that exists is consistent.

Examples
--------
>>> a, b = Player("michele", "Michele"), Player("carlo", "Carlo")
>>> m = Match(1, ("michele", "carlo"), scores=(138, 105), second_player="carlo")
>>> e = Event("armada", "armada-2015", "Store", 7, (a, b), (Round("swiss", (m,)),))
>>> e.player("carlo").name, e.rounds[0].matches[0].has_result
('Carlo', True)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from tabletop.tournament.clock import Clock
from tabletop.tournament.errors import ResultError, RosterError
from tabletop.tournament.regulations import Regulation, get_regulation

__all__ = ["ROUND_KINDS", "TIERS", "Bye", "Event", "Match", "Player", "Round"]

#: The kinds of round.
ROUND_KINDS = ("swiss", "playoff")
#: Event tiers (Armada's round table; Destiny's tiers do not change the structure).
TIERS = ("informal", "competitive", "premier")


@dataclass(frozen=True, slots=True)
class Player:
    """A registered player.

    ``dropped_after`` is the last round played before dropping (0: before round 1);
    ``returned_for`` the round the player came back for (rounds between are losses);
    ``arrived_for`` the first round of a late arrival (every round before it is a loss).
    """

    id: str
    name: str
    faction: str | None = None
    club: str | None = None
    fleet_points: int | None = None
    squadron_points: int | None = None
    first_round_bye: bool = False
    dropped_after: int | None = None
    returned_for: int | None = None
    arrived_for: int | None = None

    def active_in(self, round_number: int) -> bool:
        """Whether the player takes part in round `round_number` (1-based)."""
        if self.arrived_for is not None and round_number < self.arrived_for:
            return False
        if self.dropped_after is None or round_number <= self.dropped_after:
            return True
        return self.returned_for is not None and round_number >= self.returned_for

    def missed(self, round_number: int) -> bool:
        """Whether round `round_number` is missed: before arriving, or between drop and return."""
        if self.arrived_for is not None and round_number < self.arrived_for:
            return True
        return (
            self.returned_for is not None
            and self.dropped_after is not None
            and self.dropped_after < round_number < self.returned_for
        )


@dataclass(frozen=True, slots=True)
class Match:
    """One table of a round, with its result once entered.

    Armada: `scores` in the order of `players`, `second_player` (needed for equal
    scores), `concession`, and optionally the `tp` a TO wrote down, with `tp_override`
    the TO's reason when they differ from the regulation's, and `defeated` (a regulation
    with "One Player Defeated": the player whose every ship that is not a flotilla was
    destroyed, who loses whatever the scores). Destiny: `winner`
    for one game, `games` (each game's winner) for a best of three, `by_time`.
    """

    table: int
    players: tuple[str, str]
    scores: tuple[int, int] | None = None
    second_player: str | None = None
    winner: str | None = None
    games: tuple[str, ...] | None = None
    concession: str | None = None
    by_time: bool = False
    tp: tuple[int, int] | None = None
    tp_override: str | None = None
    defeated: str | None = None

    def __post_init__(self) -> None:
        """Check the result against the table."""
        a, b = self.players
        if a == b:
            raise ResultError(f"{a!r} is paired against themself", table=self.table, player=a)
        for key, value in (
            ("second_player", self.second_player),
            ("winner", self.winner),
            ("concession", self.concession),
            ("defeated", self.defeated),
        ):
            if value is not None and value not in self.players:
                raise ResultError(
                    f"{key} {value!r} is not at this table ({a} v {b})",
                    table=self.table,
                    player=value,
                )
        for game in self.games or ():
            if game not in self.players:
                raise ResultError(
                    f"game winner {game!r} is not at this table ({a} v {b})",
                    table=self.table,
                    player=game,
                )
        if self.scores is not None and any(s < 0 for s in self.scores):
            raise ResultError(
                f"a score is a non-negative integer, got {list(self.scores)}", table=self.table
            )
        if self.concession is not None and self.defeated is not None:
            raise ResultError(
                "a result is a concession or One Player Defeated, not both", table=self.table
            )
        if self.concession is not None and self.scores is not None:
            conceder = self.players.index(self.concession)
            if self.scores[conceder] > self.scores[1 - conceder]:
                raise ResultError(
                    f"{self.concession!r} conceded with the higher score "
                    f"({self.scores[conceder]} to {self.scores[1 - conceder]})",
                    table=self.table,
                    player=self.concession,
                )

    @property
    def has_result(self) -> bool:
        """Whether a result has been entered."""
        return (
            self.scores is not None
            or self.winner is not None
            or self.games is not None
            or (self.concession is not None)
        )

    def without_result(self) -> Match:
        """Return the match with its result removed."""
        return Match(self.table, self.players)


@dataclass(frozen=True, slots=True)
class Bye:
    """A bye: a Swiss bye has no table; a playoff bye keeps its bracket table."""

    player: str
    table: int | None = None


@dataclass(frozen=True, slots=True)
class Round:
    """A round: its kind, its matches and its byes."""

    kind: str
    matches: tuple[Match, ...] = ()
    byes: tuple[Bye, ...] = ()

    def __post_init__(self) -> None:
        """Check the kind."""
        if self.kind not in ROUND_KINDS:
            raise RosterError(f"a round kind is one of {ROUND_KINDS}, got {self.kind!r}")

    def seated(self) -> list[str]:
        """Every player in the round, at tables then byes."""
        return [p for m in self.matches for p in m.players] + [b.player for b in self.byes]

    def match(self, table: int) -> Match | None:
        """Return the match at `table`, or None."""
        for m in self.matches:
            if m.table == table:
                return m
        return None


@dataclass(frozen=True, slots=True)
class Event:
    """A whole event: regulation, structure, players and rounds.

    Raises
    ------
    RosterError
        For a duplicate player id, a round naming an unknown player or seating one
        twice, or a table number used twice in a round.
    """

    game: str
    regulation_id: str
    name: str
    seed: int
    players: tuple[Player, ...]
    rounds: tuple[Round, ...] = ()
    tier: str = "competitive"
    structure: str | None = None
    swiss_rounds: int | None = None
    cut: int | None = None
    playoff_games: int | None = None
    round_minutes: int | None = None
    clock: Clock | None = None
    _index: dict[str, Player] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        """Index the players and check every round's seats."""
        regulation = get_regulation(self.regulation_id)
        if regulation.game != self.game:
            raise RosterError(
                f"regulation {self.regulation_id!r} is for {regulation.game}, not {self.game}"
            )
        if self.tier not in TIERS:
            raise RosterError(f"a tier is one of {TIERS}, got {self.tier!r}")
        index = self._index
        for player in self.players:
            if player.id in index:
                raise RosterError(f"duplicate player id {player.id!r}", player=player.id)
            index[player.id] = player
        for number, round_ in enumerate(self.rounds, 1):
            seen: set[str] = set()
            tables: set[int] = set()
            for m in round_.matches:
                if m.table in tables:
                    raise RosterError(f"table {m.table} is used twice", round=number, table=m.table)
                tables.add(m.table)
            for pid in round_.seated():
                if pid not in index:
                    raise RosterError(f"unknown player {pid!r}", round=number, player=pid)
                if pid in seen:
                    raise RosterError(
                        f"{pid!r} is seated twice in one round", round=number, player=pid
                    )
                seen.add(pid)

    @property
    def regulation(self) -> Regulation:
        """The event's regulation."""
        return get_regulation(self.regulation_id)

    def player(self, player_id: str) -> Player:
        """Return a player by id.

        Raises
        ------
        RosterError
            For an unknown id.
        """
        try:
            return self._index[player_id]
        except KeyError:
            raise RosterError(f"unknown player {player_id!r}", player=player_id) from None

    def resolve(self, text: str) -> str:
        """Return the id of the player `text` names: an id, a name, or a unique prefix.

        An exact id wins; then an id or a name equal to `text` case-insensitively; then
        a case-insensitive prefix of an id or a name, when only one player has it.

        Raises
        ------
        RosterError
            For text that names nobody, or several players (listing them).

        Examples
        --------
        >>> e = Event("armada", "armada-2015", "E", 1, (Player("dodonna", "Jan Dodonna"),
        ...     Player("ors", "Jan Ors"), Player("motti", "Conan Motti")))
        >>> e.resolve("Jan Dodonna"), e.resolve("MOT"), e.resolve("jan o")
        ('dodonna', 'motti', 'ors')
        >>> e.resolve("jan")
        Traceback (most recent call last):
        ...
        tabletop.tournament.errors.RosterError: 'jan' names more than one player: Jan Dodonna (dodonna), Jan Ors (ors); give more of the name or the id
        """
        if text in self._index:
            return text
        wanted = " ".join(text.split()).casefold()
        if not wanted:
            raise RosterError("a player is named by an id or a name, got an empty text")

        def plain(text: str) -> str:
            return " ".join(text.split()).casefold()

        exact = [p for p in self.players if wanted in (p.id.casefold(), plain(p.name))]
        prefix = [
            p
            for p in self.players
            if p.id.casefold().startswith(wanted) or plain(p.name).startswith(wanted)
        ]
        for found in (exact, prefix):
            if len(found) == 1:
                return found[0].id
            if found:
                names = ", ".join(f"{p.name} ({p.id})" for p in found[:10])
                more = f" and {len(found) - 10} more" if len(found) > 10 else ""
                raise RosterError(
                    f"{text!r} names more than one player: {names}{more}; "
                    "give more of the name or the id",
                    player=text,
                )
        raise RosterError(f"no player has the id or name {text!r}", player=text)

    def with_rounds(self, rounds: tuple[Round, ...]) -> Event:
        """Return the event with other rounds."""
        return replace(self, rounds=rounds, _index={})

    def with_player(self, player: Player) -> Event:
        """Return the event with one player's record replaced (same id)."""
        self.player(player.id)
        players = tuple(player if p.id == player.id else p for p in self.players)
        return replace(self, players=players, _index={})
