"""Organized play: regulations, pairing, scoring, standings, cuts and the audit of an event.

A leaf package like :mod:`geom`: it imports nothing else of the project and reads no
files. Regulations are frozen data (:data:`REGULATIONS`); an :class:`Event` holds
players and rounds as immutable records; :func:`pair_next` pairs the next round by
maximum-weight matching, :func:`standings` ranks the players with exact fractions, and
:func:`audit` checks a whole event against its regulation.

Examples
--------
>>> event = simulate_event("armada", 12, seed=5)
>>> [len(r.matches) for r in event.rounds], audit(event).legal
([6, 6, 6], True)
"""

from tabletop.tournament.audit import AuditReport, Finding, audit
from tabletop.tournament.clock import Clock, ClockError, now_utc, parse_utc, utc_text
from tabletop.tournament.console import (
    Placing,
    add_player,
    final_placings,
    pending_tables,
    round_is_open,
    stage_name,
    stage_title,
    unpair,
)
from tabletop.tournament.errors import (
    EventCompleteError,
    PairingError,
    RegulationError,
    ResultError,
    RosterError,
    StructureError,
    TournamentError,
)
from tabletop.tournament.matching import (
    PLAIN_LIMIT,
    NoPerfectMatchingError,
    max_weight_perfect_matching,
    plain_max_weight_perfect_matching,
)
from tabletop.tournament.pairing import (
    DENSE_LIMIT,
    Matcher,
    PairedBye,
    PairedMatch,
    Pairing,
    SwissState,
    pair_swiss,
    swiss_state,
    window,
)
from tabletop.tournament.records import ROUND_KINDS, TIERS, Bye, Event, Match, Player, Round
from tabletop.tournament.regulations import (
    ARMADA_2015,
    ARMADA_2018,
    BYE_KEYS,
    DESTINY,
    REGULATIONS,
    MarginBand,
    Regulation,
    StructureRow,
    bye_key,
    get_regulation,
)
from tabletop.tournament.rounds import (
    Structure,
    bracket_order,
    check_round_complete,
    is_complete,
    match_winner,
    pair_next,
    playoff_seeds,
    qualifiers,
    structure_of,
)
from tabletop.tournament.scoring import Outcome, counted_tp, score_match
from tabletop.tournament.simulate import random_result, simulate_event, with_result
from tabletop.tournament.standings import (
    Standing,
    Tally,
    random_order,
    standing_headings,
    standings,
    swiss_round_count,
    tally,
)
from tabletop.tournament.tiebreakers import TIEBREAKERS, Tiebreaker, tiebreakers

__all__ = [
    "ARMADA_2015",
    "ARMADA_2018",
    "BYE_KEYS",
    "DENSE_LIMIT",
    "DESTINY",
    "PLAIN_LIMIT",
    "REGULATIONS",
    "ROUND_KINDS",
    "TIEBREAKERS",
    "TIERS",
    "AuditReport",
    "Bye",
    "Clock",
    "ClockError",
    "Event",
    "EventCompleteError",
    "Finding",
    "MarginBand",
    "Match",
    "Matcher",
    "NoPerfectMatchingError",
    "Outcome",
    "PairedBye",
    "PairedMatch",
    "Pairing",
    "PairingError",
    "Placing",
    "Player",
    "Regulation",
    "RegulationError",
    "ResultError",
    "RosterError",
    "Round",
    "Standing",
    "Structure",
    "StructureError",
    "StructureRow",
    "SwissState",
    "Tally",
    "Tiebreaker",
    "TournamentError",
    "add_player",
    "audit",
    "bracket_order",
    "bye_key",
    "check_round_complete",
    "counted_tp",
    "final_placings",
    "get_regulation",
    "is_complete",
    "match_winner",
    "max_weight_perfect_matching",
    "now_utc",
    "pair_next",
    "pair_swiss",
    "parse_utc",
    "pending_tables",
    "plain_max_weight_perfect_matching",
    "playoff_seeds",
    "qualifiers",
    "random_order",
    "random_result",
    "round_is_open",
    "score_match",
    "simulate_event",
    "stage_name",
    "stage_title",
    "standing_headings",
    "standings",
    "structure_of",
    "swiss_round_count",
    "swiss_state",
    "tally",
    "tiebreakers",
    "unpair",
    "utc_text",
    "window",
    "with_result",
]
