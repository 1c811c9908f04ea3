"""Regulations as frozen data: each field of a tournament regulation, selected by id.

A regulation says how a result is entered, how it turns into tournament points (TP),
how players are ranked, paired and given the bye, and how many Swiss rounds and how
large a cut a field gets. The code reads these fields; it never asks which game it is,
so a third regulation is one more :class:`Regulation` in :data:`REGULATIONS`.

Examples
--------
>>> armada = get_regulation("armada-2015")
>>> armada.tp_for_margin(33)
(6, 4)
>>> armada.swiss_rounds_for(32, "competitive"), armada.swiss_rounds_for(33, "premier")
(3, 5)
>>> get_regulation("destiny").structure_row("advanced", 565)
StructureRow(low=513, high=None, swiss_rounds=9, cut=32)
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.tournament.errors import RegulationError, StructureError
from tabletop.tournament.tiebreakers import tiebreakers

__all__ = [
    "ARMADA_2015",
    "ARMADA_2018",
    "BYE_KEYS",
    "DESTINY",
    "REGULATIONS",
    "MarginBand",
    "Regulation",
    "StructureRow",
    "bye_key",
    "get_regulation",
]


#: The keys a bye may be given by (lowest first): a player's TP and MoV, or ``"rank"``
#: (the lowest-ranked player first).
BYE_KEYS = ("tp", "mov", "rank")


def bye_key(keys: tuple[str, ...], tp: int, mov: int, rank: int) -> tuple[int, ...]:
    """Return a player's place in a bye order of `keys` (lower: the bye first).

    Examples
    --------
    >>> bye_key(("tp", "mov"), 12, 80, 3), bye_key(("rank",), 12, 80, 3)
    ((12, 80), (-3,))
    """
    values = {"tp": tp, "mov": mov, "rank": -rank}
    return tuple(values[key] for key in keys)


def bye_key_text(keys: tuple[str, ...], tp: int, mov: int, rank: int) -> str:
    """Return what a bye order reads of a player: ``"TP 1, MoV 0"`` or ``"rank 13"``."""
    values = {"tp": f"TP {tp}", "mov": f"MoV {mov}", "rank": f"rank {rank}"}
    return ", ".join(values[key] for key in keys)


@dataclass(frozen=True, slots=True)
class MarginBand:
    """One column of a margin-of-victory table: MoV from `low` to `high` (None: no top)."""

    low: int
    high: int | None
    winner_tp: int
    loser_tp: int


@dataclass(frozen=True, slots=True)
class StructureRow:
    """One row of a structure table: `low`..`high` registered players (None: and more)."""

    low: int
    high: int | None
    swiss_rounds: int
    cut: int

    def holds(self, players: int) -> bool:
        """Whether `players` registrations fall in this row."""
        return self.low <= players and (self.high is None or players <= self.high)


@dataclass(frozen=True, slots=True)
class Regulation:
    """A tournament regulation, as data.

    Attributes
    ----------
    id, game, title : str
        ``"armada-2015"``, ``"armada"``, and a title for reports.
    result_entry : str
        ``"scores"`` (both final scores, and the second player) or ``"winner"``.
    margin_bands : tuple of MarginBand
        The MoV → TP table (empty when TP are win/loss only).
    win_tp, loss_tp : int
        TP of a win and a loss when there is no margin table.
    concession_tp : int
        TP of the player who concedes.
    tabling_points : int or None
        What a destroyed fleet is worth whatever it cost (Armada's 300), for messages.
    bye_tp, bye_mov : int
        What a bye is worth.
    tiebreakers : tuple of str
        After TP, in order, names from :data:`~tabletop.tournament.tiebreakers.TIEBREAKERS`:
        ``"mov"``, ``"sos"`` (sum of opponents' TP), ``"sos-average"`` (Destiny SoS),
        ``"esos"``; the last tie is broken at random from the seed.
    later_pairing : str
        ``"top-down"`` (1 v 2, 3 v 4, ... without rematches) or ``"random-in-group"``.
    bye_order : tuple of str
        Who gets the bye after round 1: lowest of each key in turn (of :data:`BYE_KEYS`:
        ``"tp"``, ``"mov"``), then random.
    round1_club_avoidance_tiers : tuple of str
        Tiers in which round 1 avoids pairing players of the same club.
    swiss_rounds_by_tier : dict of str to tuple of StructureRow
        Swiss rounds by event tier (a tier missing here needs ``swiss_rounds``).
    structures : dict of str to tuple of StructureRow
        Swiss rounds and cut by structure (a structure missing here needs ``swiss_rounds``).
    playoff_games_by_structure : dict of str to int
        Games per playoff match (1 or 3) by structure; 1 when missing.
    default_structure : str or None
        The structure when the event names none.
    round_minutes : int or None
        Round length (None: as the event says).
    fleet_cap, squadron_cap : int or None
        Fleet and squadron point caps (None: not checked).
    mirror_factions : bool
        Whether two players of one faction are told to assign ID tokens.
    factions : tuple of str
        The factions a player may give (empty: any, or none).
    mov_cap : int or None
        The most MoV one game gives (None: no cap).
    concession_mov : int or None
        The least MoV a concession gives the winner (None: the game's MoV).
    defeat_win : bool
        Whether a result may say a player was defeated ("One Player Defeated": all of
        that player's ships that are not flotillas destroyed), which wins the game for
        the other player whatever the scores.
    squadron_cap_advisory : bool
        Whether the squadron cap is uncertain and only warned about (``new`` accepts it).
    playoff_round_minutes : int or None
        Round length of a best-of-three playoff round (None: as a Swiss round).
    sources : tuple of str
        Where the numbers come from.
    status : str
        How far the numbers have been checked against the regulation's own text.
    """

    id: str
    game: str
    title: str
    result_entry: str
    margin_bands: tuple[MarginBand, ...]
    win_tp: int
    loss_tp: int
    concession_tp: int
    tabling_points: int | None
    bye_tp: int
    bye_mov: int
    tiebreakers: tuple[str, ...]
    later_pairing: str
    bye_order: tuple[str, ...]
    round1_club_avoidance_tiers: tuple[str, ...]
    swiss_rounds_by_tier: dict[str, tuple[StructureRow, ...]]
    structures: dict[str, tuple[StructureRow, ...]]
    playoff_games_by_structure: dict[str, int]
    default_structure: str | None
    round_minutes: int | None
    fleet_cap: int | None
    squadron_cap: int | None
    mirror_factions: bool
    factions: tuple[str, ...]
    mov_cap: int | None = None
    concession_mov: int | None = None
    defeat_win: bool = False
    squadron_cap_advisory: bool = False
    playoff_round_minutes: int | None = None
    sources: tuple[str, ...] = ()
    status: str = ""

    def __post_init__(self) -> None:
        """Refuse tiebreakers and bye keys the engine does not know.

        Raises
        ------
        RegulationError
            For a name not in :data:`~tabletop.tournament.tiebreakers.TIEBREAKERS` (or
            one given twice), or a bye key not in :data:`BYE_KEYS`.
        """
        try:
            tiebreakers(self.tiebreakers)
        except RegulationError as error:
            raise RegulationError(f"regulation {self.id!r}: {error.message}") from None
        for key in self.bye_order:
            if key not in BYE_KEYS:
                raise RegulationError(
                    f"regulation {self.id!r}: unknown bye_order key {key!r}; "
                    f"expected some of: {', '.join(BYE_KEYS)}"
                )

    def __hash__(self) -> int:
        """Hash by id (the tables are dicts)."""
        return hash(self.id)

    @property
    def uses_margin(self) -> bool:
        """Whether results carry scores and TP come from a margin table."""
        return bool(self.margin_bands)

    def tp_for_margin(self, margin: int) -> tuple[int, int]:
        """Return (winner TP, loser TP) for a margin of victory.

        Raises
        ------
        ResultError
            For a negative margin, or a regulation without a margin table.
        """
        from tabletop.tournament.errors import ResultError

        if margin < 0:
            raise ResultError(f"a margin of victory is not negative, got {margin}")
        for band in self.margin_bands:
            if band.low <= margin and (band.high is None or margin <= band.high):
                return band.winner_tp, band.loser_tp
        raise ResultError(f"{self.id} has no margin table row for {margin}")

    def counted_margin(self, margin: int, conceded: bool = False) -> int:
        """Return the MoV a game counts: at least 0, a concession's floor, the cap.

        Examples
        --------
        >>> ARMADA_2018.counted_margin(450), ARMADA_2018.counted_margin(30, conceded=True)
        (400, 140)
        """
        counted = max(0, margin)
        if conceded and self.concession_mov is not None:
            counted = max(counted, self.concession_mov)
        if self.mov_cap is not None:
            counted = min(counted, self.mov_cap)
        return counted

    def margin_table_text(self) -> str:
        """Return the MoV → TP table in one line (empty without a margin table).

        Examples
        --------
        >>> ARMADA_2018.margin_table_text()
        'MoV → TP (winner/loser): 0–59 6/5, 60–139 7/4, 140–219 8/3, 220–299 9/2, 300–400 10/1'
        """
        if not self.margin_bands:
            return ""
        cells = [
            f"{b.low}–{b.high}" if b.high is not None else f"{b.low}+" for b in self.margin_bands
        ]
        said = ", ".join(
            f"{cell} {b.winner_tp}/{b.loser_tp}"
            for cell, b in zip(cells, self.margin_bands, strict=True)
        )
        return f"MoV → TP (winner/loser): {said}"

    def swiss_rounds_for(self, players: int, tier: str) -> int:
        """Return the Swiss rounds a tier gives `players` registrations.

        Raises
        ------
        StructureError
            For a tier without a table (the event must give ``swiss_rounds``) or a count
            outside it.
        """
        rows = self.swiss_rounds_by_tier.get(tier)
        if rows is None:
            raise StructureError(
                f"{self.id}: the {tier!r} tier has no round table; give swiss_rounds"
            )
        for row in rows:
            if row.holds(players):
                return row.swiss_rounds
        raise StructureError(f"{self.id}: {players} players is outside the {tier!r} round table")

    def structure_row(self, structure: str, players: int) -> StructureRow:
        """Return the row of a structure table for `players` registrations.

        Raises
        ------
        StructureError
            For a structure without a table, or a count outside it (naming the table).
        """
        rows = self.structures.get(structure)
        if rows is None:
            raise StructureError(
                f"{self.id}: the {structure!r} structure has no table; give swiss_rounds"
            )
        for row in rows:
            if row.holds(players):
                return row
        spans = ", ".join(f"{r.low}-{r.high}" if r.high else f"{r.low}+" for r in rows)
        raise StructureError(
            f"{players} registered players is outside the {self.id} {structure!r} table ({spans})"
        )


def _rows(*rows: tuple[int, int | None, int, int]) -> tuple[StructureRow, ...]:
    return tuple(StructureRow(*row) for row in rows)


#: Star Wars: Armada tournament rules 1.0 (11 March 2015), seed 000.
ARMADA_2015 = Regulation(
    id="armada-2015",
    game="armada",
    title="Star Wars: Armada tournament rules 1.0 (2015)",
    result_entry="scores",
    margin_bands=(
        MarginBand(0, 20, 5, 5),
        MarginBand(21, 50, 6, 4),
        MarginBand(51, 90, 7, 3),
        MarginBand(91, 150, 8, 2),
        MarginBand(151, 220, 9, 1),
        MarginBand(221, None, 10, 0),
    ),
    win_tp=0,
    loss_tp=0,
    concession_tp=0,
    tabling_points=300,
    bye_tp=9,
    bye_mov=150,
    tiebreakers=("mov", "sos"),
    later_pairing="top-down",
    bye_order=("tp", "mov"),
    round1_club_avoidance_tiers=("informal",),
    swiss_rounds_by_tier={
        "competitive": _rows((1, 32, 3, 0), (33, None, 5, 0)),
        "premier": _rows((1, 32, 3, 0), (33, None, 5, 0)),
    },
    structures={},
    playoff_games_by_structure={},
    default_structure=None,
    round_minutes=120,
    fleet_cap=300,
    squadron_cap=100,
    mirror_factions=True,
    factions=("rebel", "imperial"),
    sources=("seed 000: Star Wars: Armada tournament rules 1.0, 11 March 2015 (Italian)",),
    status="read in the seed",
)

#: FFG's Star Wars: Armada Tournament Regulations 3.0 / 3.1.1 (effective 15 April 2018),
#: Standard Play at 400 points: the numbers as Cryodex's Armada module encodes them.
ARMADA_2018 = Regulation(
    id="armada-2018",
    game="armada",
    title="Star Wars: Armada Tournament Regulations 3.1.1 (2018)",
    result_entry="scores",
    margin_bands=(
        MarginBand(0, 59, 6, 5),
        MarginBand(60, 139, 7, 4),
        MarginBand(140, 219, 8, 3),
        MarginBand(220, 299, 9, 2),
        MarginBand(300, 400, 10, 1),
    ),
    win_tp=0,
    loss_tp=0,
    concession_tp=0,
    tabling_points=None,
    bye_tp=8,
    bye_mov=140,
    tiebreakers=("mov", "sos-average"),
    later_pairing="random-in-group",
    bye_order=("rank",),
    round1_club_avoidance_tiers=(),
    swiss_rounds_by_tier=ARMADA_2015.swiss_rounds_by_tier,
    structures={},
    playoff_games_by_structure={},
    default_structure=None,
    round_minutes=135,
    fleet_cap=400,
    squadron_cap=134,
    mirror_factions=True,
    factions=("rebel", "imperial"),
    mov_cap=400,
    concession_mov=140,
    defeat_win=True,
    squadron_cap_advisory=True,
    sources=(
        "FFG, Star Wars: Armada Tournament Regulations 3.0 / 3.1.1, effective 04.15.2018",
        "Cryodex (CryodexSource), its Armada module's player and comparator classes",
    ),
    status=(
        "[C] as Cryodex encodes them and as the regulation's quoted sentences say; "
        "not yet checked against the regulation's PDF (the squadron cap 134 is [U])"
    ),
)

#: Star Wars: Destiny tournament rules, seed 002.
DESTINY = Regulation(
    id="destiny",
    game="destiny",
    title="Star Wars: Destiny tournament rules",
    result_entry="winner",
    margin_bands=(),
    win_tp=1,
    loss_tp=0,
    concession_tp=0,
    tabling_points=None,
    bye_tp=1,
    bye_mov=0,
    tiebreakers=("sos-average", "esos"),
    later_pairing="random-in-group",
    bye_order=("tp",),
    round1_club_avoidance_tiers=(),
    swiss_rounds_by_tier={},
    structures={
        "basic": _rows(
            (4, 8, 3, 0),
            (9, 16, 4, 0),
            (17, 24, 4, 4),
            (25, 40, 5, 4),
            (41, 44, 5, 8),
            (45, 76, 6, 8),
            (77, 148, 6, 16),
            (149, None, 7, 16),
        ),
        "advanced": _rows(
            (9, 12, 4, 4),
            (13, 24, 5, 4),
            (25, 40, 6, 8),
            (41, 76, 7, 8),
            (77, 148, 8, 8),
            (149, 288, 8, 16),
            (289, 512, 9, 16),
            (513, None, 9, 32),
        ),
    },
    playoff_games_by_structure={"basic": 1, "advanced": 3},
    default_structure="basic",
    round_minutes=35,
    fleet_cap=None,
    squadron_cap=None,
    mirror_factions=False,
    factions=(),
    playoff_round_minutes=90,
    sources=(
        "seed 002: Star Wars: Destiny tournament rules (Russian)",
        "FFG, Star Wars: Destiny Tournament Regulations 1.0 (round times)",
    ),
    status="read in the seed",
)

#: Every regulation by id.
REGULATIONS: dict[str, Regulation] = {r.id: r for r in (ARMADA_2015, ARMADA_2018, DESTINY)}

#: The default regulation of each game.
_DEFAULT_FOR_GAME = {"armada": "armada-2015", "destiny": "destiny"}


def get_regulation(name: str) -> Regulation:
    """Return a regulation by id, or a game's default regulation by the game's name.

    Raises
    ------
    StructureError
        For an unknown name.
    """
    key = _DEFAULT_FOR_GAME.get(name, name)
    if key not in REGULATIONS:
        known = ", ".join(sorted(REGULATIONS))
        raise StructureError(f"unknown regulation {name!r}; expected one of: {known}")
    return REGULATIONS[key]
