"""The audit of a whole event against its regulation (``tabletop event check``).

Every round is re-derived from the rounds before it: the pairing is compared with the
best one the regulation allows (rematches, second byes, the bye's player, TP groups,
Armada's top-down order, the cut and the bracket), every recorded TP with the
regulation's, every result with the drops, and every fleet with the caps. Each finding
names its round and table.

Examples
--------
>>> from tabletop.tournament.simulate import simulate_event
>>> audit(simulate_event("destiny", 9, seed=2, structure="custom", swiss_rounds=3)).findings
()
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tabletop.tournament.errors import TournamentError
from tabletop.tournament.pairing import Pairing, SwissState, pair_swiss, swiss_state
from tabletop.tournament.records import Event, Match, Round
from tabletop.tournament.regulations import Regulation, bye_key, bye_key_text
from tabletop.tournament.rounds import pair_next, structure_of
from tabletop.tournament.scoring import counted_tp, score_match
from tabletop.tournament.standings import standings

__all__ = ["AuditReport", "Finding", "audit"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One departure from the regulation: where (round, table; None: the event) and what."""

    round: int | None
    table: int | None
    rule: str
    message: str

    def to_json(self) -> dict[str, Any]:
        """Return the finding as ``check --json`` writes it."""
        return {
            "round": self.round,
            "table": self.table,
            "rule": self.rule,
            "message": self.message,
        }


@dataclass(frozen=True, slots=True)
class AuditReport:
    """Every finding of an audit, in round and table order, and what is only a warning.

    A warning (a cap the regulation's text is not known to give) does not make the event
    illegal.
    """

    findings: tuple[Finding, ...]
    warnings: tuple[Finding, ...] = ()

    @property
    def legal(self) -> bool:
        """Whether the audit found nothing."""
        return not self.findings

    def to_json(self) -> dict[str, Any]:
        """Return the report as ``check --json`` writes it."""
        said: dict[str, Any] = {
            "legal": self.legal,
            "findings": [f.to_json() for f in self.findings],
        }
        if self.warnings:
            said["warnings"] = [w.to_json() for w in self.warnings]
        return said


def _tables_of(round_: Round) -> dict[str, int | None]:
    seat: dict[str, int | None] = {}
    for m in round_.matches:
        for p in m.players:
            seat[p] = m.table
    for b in round_.byes:
        seat[b.player] = b.table
    return seat


def _cap_findings(event: Event) -> tuple[list[Finding], list[Finding]]:
    """Find each fleet or squadron total over the regulation's cap (points).

    Returns the findings and the warnings (a squadron cap the regulation marks advisory).
    """
    regulation = event.regulation
    findings: list[Finding] = []
    warnings: list[Finding] = []
    for player in event.players:
        for label, value, cap, advisory in (
            ("fleet", player.fleet_points, regulation.fleet_cap, False),
            (
                "squadron",
                player.squadron_points,
                regulation.squadron_cap,
                regulation.squadron_cap_advisory,
            ),
        ):
            if value is not None and cap is not None and value > cap:
                said = f"{player.id}: {label} of {value} points; the cap is {cap}"
                if advisory:
                    said += " (one third of the fleet, rounded down: not confirmed)"
                (warnings if advisory else findings).append(
                    Finding(None, None, f"{label}-points", said)
                )
    return findings, warnings


def _result_findings(event: Event, round_: Round, number: int, games: int) -> list[Finding]:
    """Find results of dropped players, missing results and TP other than the regulation's."""
    regulation = event.regulation
    findings: list[Finding] = []
    for m in round_.matches:
        inactive = [p for p in m.players if not event.player(p).active_in(number)]
        if inactive and m.has_result:
            findings.append(
                Finding(
                    number,
                    m.table,
                    "dropped-result",
                    f"a result for {', '.join(inactive)}, who had dropped",
                )
            )
        outcome = score_match(regulation, m, games)
        if outcome is None and not inactive and number < len(event.rounds):
            findings.append(
                Finding(
                    number,
                    m.table,
                    "missing-result",
                    f"{m.players[0]} v {m.players[1]} has no result",
                )
            )
        if outcome is not None and m.tp is not None and m.tp != outcome.tp:
            overridden = m.tp_override is not None
            loser = m.players.index(outcome.loser)
            beyond = ""
            if m.tp[loser] > outcome.tp[loser]:
                beyond = (
                    f"; the loser's {m.tp[loser]} TP are more than the table allows "
                    f"({outcome.tp[loser]})"
                )
            findings.append(
                Finding(
                    number,
                    m.table,
                    "tp-override" if overridden else "tp",
                    f"TP entered {list(m.tp)}; {regulation.id} gives {list(outcome.tp)} "
                    f"(MoV {outcome.margin}, {outcome.winner} wins){beyond}"
                    + (f"; the TO's reason: {m.tp_override}" if overridden else ""),
                )
            )
        findings += _cap_finding(regulation, m, number)
    return findings


def _cap_finding(regulation: Regulation, match: Match, number: int) -> list[Finding]:
    """Find scores whose difference is over the regulation's MoV cap (counted at the cap)."""
    if regulation.mov_cap is None or match.scores is None:
        return []
    difference = abs(match.scores[0] - match.scores[1])
    if difference <= regulation.mov_cap:
        return []
    return [
        Finding(
            number,
            match.table,
            "mov-cap",
            f"scores {match.scores[0]} and {match.scores[1]} differ by {difference}; "
            f"{regulation.id} caps MoV at {regulation.mov_cap} (counted as {regulation.mov_cap})",
        )
    ]


def _dropped_paired_findings(event: Event, round_: Round, number: int) -> list[Finding]:
    """Find byes for dropped players, and dropped players paired in an unplayed Swiss round."""
    findings: list[Finding] = []
    for b in round_.byes:
        if not event.player(b.player).active_in(number):
            findings.append(
                Finding(
                    number,
                    b.table,
                    "dropped-player-paired",
                    f"a bye for {b.player}, who had dropped",
                )
            )
    for m in round_.matches:
        for p in m.players:
            if (
                not event.player(p).active_in(number)
                and not m.has_result
                and round_.kind == "swiss"
            ):
                findings.append(
                    Finding(
                        number,
                        m.table,
                        "dropped-player-paired",
                        f"{p} is paired after dropping",
                    )
                )
    return findings


def audit(event: Event) -> AuditReport:
    """Audit the whole event; return every finding (none: legal)."""
    findings, warnings = _cap_findings(event)
    structure = structure_of(event)
    swiss = 0
    running = _Running(event)
    for number, round_ in enumerate(event.rounds, 1):
        prefix = event.with_rounds(event.rounds[: number - 1])
        seat = _tables_of(round_)
        games = structure.playoff_games if round_.kind == "playoff" else 1
        findings += _result_findings(event, round_, number, games)
        findings += _dropped_paired_findings(event, round_, number)
        if round_.kind != "swiss":
            findings.extend(_audit_playoff(prefix, round_, number))
            continue
        swiss += 1
        if swiss > structure.swiss_rounds:
            findings.append(
                Finding(
                    number,
                    None,
                    "structure",
                    f"Swiss round {swiss} of a structure of {structure.swiss_rounds}",
                )
            )
            continue
        if running.clean(round_, number, seat):
            running.add(round_)
            continue
        running.add(round_)
        findings.extend(_audit_swiss(prefix, round_, number, seat))
    findings.sort(key=lambda f: (f.round or 0, f.table or 0, f.rule))
    return AuditReport(tuple(findings), tuple(warnings))


class _Running:
    """TP, MoV, meetings and byes so far, kept round by round (the audit's fast path)."""

    def __init__(self, event: Event) -> None:
        self.event = event
        self.tp = dict.fromkeys(event._index, 0)
        self.mov = dict.fromkeys(event._index, 0)
        self.met: set[frozenset[str]] = set()
        self.had_bye: set[str] = set()
        self.swiss = 0

    def add(self, round_: Round) -> None:
        """Count a Swiss round."""
        regulation = self.event.regulation
        self.swiss += 1
        for m in round_.matches:
            self.met.add(frozenset(m.players))
            outcome = score_match(regulation, m)
            if outcome is not None:
                for pid, points, margin in zip(
                    m.players, counted_tp(m, outcome), outcome.mov, strict=True
                ):
                    self.tp[pid] += points
                    self.mov[pid] += margin
        for b in round_.byes:
            self.tp[b.player] += regulation.bye_tp
            self.mov[b.player] += regulation.bye_mov
            self.had_bye.add(b.player)

    def clean(self, round_: Round, number: int, seat: dict[str, int | None]) -> bool:
        """Whether the round passes every check that needs no re-pairing.

        No rematch, the right number of byes, a first bye to the lowest in the bye order,
        TP groups at the least mixing any pairing can have (each boundary with an odd
        number of players above it is crossed once), and for top-down regulations each
        player's partner the highest unpaired one below but for rematches. A round that
        passes is what the regulation's pairing gives (up to its random choices); any
        other is re-paired.
        """
        event = self.event
        active = [p.id for p in event.players if p.active_in(number)]
        if sorted(active) != sorted(seat):
            return False
        if any(frozenset(m.players) in self.met for m in round_.matches):
            return False
        earned = {
            b.player for b in round_.byes if number == 1 and event.player(b.player).first_round_bye
        }
        pool = [p for p in active if p not in earned]
        byes = [b.player for b in round_.byes if b.player not in earned]
        if len(byes) != len(pool) % 2:
            return False
        if number == 1:
            return True
        if byes and not self._bye_is_lowest(byes[0], pool):
            return False
        paired = [p for p in pool if p not in byes]
        if not self._groups_least_mixed(round_, paired):
            return False
        if event.regulation.later_pairing != "top-down":
            return True
        return self._top_down_kept(round_, number, paired)

    def _bye_is_lowest(self, bye: str, pool: list[str]) -> bool:
        """Whether the bye went to the lowest in the bye order among those without one."""
        eligible = [p for p in pool if p not in self.had_bye] or pool
        if bye not in eligible:
            return False
        order = self.event.regulation.bye_order
        if "rank" in order:
            return False  # ranks need the standings: the round is re-paired

        def key(p: str) -> tuple[int, ...]:
            return bye_key(order, self.tp[p], self.mov[p], 0)

        return key(bye) == min(key(p) for p in eligible)

    def _groups_least_mixed(self, round_: Round, paired: list[str]) -> bool:
        """Whether the TP groups are crossed only as often as the group sizes force."""
        values = sorted({self.tp[p] for p in paired}, reverse=True)
        group = {p: values.index(self.tp[p]) for p in paired}
        above = 0
        bound = 0
        for value in values[:-1]:
            above += sum(1 for p in paired if self.tp[p] == value)
            bound += above % 2
        cost = sum((group[a] - group[b]) ** 2 for a, b in (m.players for m in round_.matches))
        return cost == bound

    def _top_down_kept(self, round_: Round, number: int, paired: list[str]) -> bool:
        """Whether each partner is the highest unpaired player below but for rematches."""
        event = self.event
        order = [
            s.player.id
            for s in standings(event.with_rounds(event.rounds[: number - 1]), self.swiss)
        ]
        in_round = set(paired)  # once: a set made per player made the audit quadratic
        ranked = [p for p in order if p in in_round]
        partner = {}
        for m in round_.matches:
            a, b = m.players
            partner[a], partner[b] = b, a
        # From the top: every unpaired player ranked between a player and their partner
        # must be a rematch for them; the round itself shows the partner completes it.
        taken: set[str] = set()
        for place, a in enumerate(ranked):
            if a in taken:
                continue
            b = partner[a]
            taken.update((a, b))
            for later in range(place + 1, len(ranked)):
                c = ranked[later]
                if c == b:
                    break
                if c not in taken and frozenset((a, c)) not in self.met:
                    return False
        return True


def _missing_players(state: SwissState, number: int, seat: dict[str, int | None]) -> list[Finding]:
    """Find each active player neither paired nor given the bye."""
    return [
        Finding(number, None, "missing-player", f"{pid} is neither paired nor given the bye")
        for pid in sorted(state.active)
        if pid not in seat
    ]


def _rematch_findings(
    state: SwissState, best: Pairing, round_: Round, number: int
) -> list[Finding]:
    """Find each rematch when the best pairing has fewer rematches than the round."""
    rematches = [m for m in round_.matches if frozenset(m.players) in state.met]
    best_rematches = sum(p.rematch for p in best.pairs)
    if len(rematches) <= best_rematches:
        return []
    return [
        Finding(
            number,
            m.table,
            "avoidable-rematch",
            f"{m.players[0]} v {m.players[1]} met in round {state.met[frozenset(m.players)]}; "
            f"a pairing with {best_rematches} rematch(es) exists",
        )
        for m in rematches
    ]


def _bye_order_finding(
    prefix: Event, state: SwissState, number: int, mine: str, theirs: str
) -> list[Finding]:
    """Say why the bye went to ``mine`` when the regulation's pairing gives it to ``theirs``."""
    if mine in state.had_bye and theirs not in state.had_bye:
        return [
            Finding(
                number,
                None,
                "avoidable-second-bye",
                f"a second bye for {mine}; {theirs} could have had a first one",
            )
        ]
    keys = prefix.regulation.bye_order

    def key(p: str) -> tuple[int, ...]:
        return bye_key(keys, state.tp[p], state.mov[p], state.ranks[p])

    if key(mine) == key(theirs):
        return []

    def said(p: str) -> str:
        return bye_key_text(keys, state.tp[p], state.mov[p], state.ranks[p])

    return [
        Finding(
            number,
            None,
            "bye-order",
            f"the bye went to {mine} ({said(mine)}); by the regulation it goes to "
            f"{theirs} ({said(theirs)})",
        )
    ]


def _bye_findings(
    prefix: Event, state: SwissState, best: Pairing, round_: Round, number: int
) -> list[Finding]:
    """Check the number of byes, then (after round 1) who had it: second byes, bye order."""
    first_byes = {
        b.player for b in round_.byes if prefix.player(b.player).first_round_bye and number == 1
    }
    recorded = [b.player for b in round_.byes if b.player not in first_byes]
    ours = [
        b.player for b in best.byes if not (number == 1 and prefix.player(b.player).first_round_bye)
    ]
    if len(recorded) != len(ours):
        return [
            Finding(
                number, None, "bye", f"{len(recorded)} bye(s) given; the field needs {len(ours)}"
            )
        ]
    if recorded and ours and number > 1:
        return _bye_order_finding(prefix, state, number, recorded[0], ours[0])
    return []


def _grouping_findings(
    prefix: Event, state: SwissState, best: Pairing, round_: Round, number: int
) -> list[Finding]:
    """Find TP groups mixed more than the best pairing needs, else a top-down order not kept."""
    values = sorted({state.tp[p] for p in state.active}, reverse=True)

    def purity(pairs: list[tuple[str, str]]) -> int:
        return sum((values.index(state.tp[a]) - values.index(state.tp[b])) ** 2 for a, b in pairs)

    recorded_pairs = [
        m.players
        for m in round_.matches
        if all(p in state.tp and p in state.active for p in m.players)
    ]
    best_pairs = [p.players for p in best.pairs]
    findings = []
    if purity(recorded_pairs) > purity(best_pairs):
        for m in round_.matches:
            a, b = m.players
            if state.tp[a] != state.tp[b]:
                findings.append(
                    Finding(
                        number,
                        m.table,
                        "tp-groups",
                        f"{a} ({state.tp[a]} TP) v {b} ({state.tp[b]} TP): the TP groups could be kept purer",
                    )
                )
    elif prefix.regulation.later_pairing == "top-down":
        ours_set = {frozenset(p) for p in best_pairs}
        for m in round_.matches:
            if frozenset(m.players) not in ours_set:
                a, b = m.players
                findings.append(
                    Finding(
                        number,
                        m.table,
                        "pairing-order",
                        f"{a} (rank {state.ranks[a]}) v {b} (rank {state.ranks[b]}) is not the top-down pairing (1 v 2, 3 v 4, the next on a rematch)",
                    )
                )
    return findings


def _audit_swiss(
    prefix: Event, round_: Round, number: int, seat: dict[str, int | None]
) -> list[Finding]:
    """Re-pair a Swiss round from the rounds before it and name every departure."""
    state = swiss_state(prefix, number)
    findings = _missing_players(state, number, seat)
    try:
        best = pair_swiss(prefix)
    except TournamentError:
        return findings
    findings += _rematch_findings(state, best, round_, number)
    findings += _bye_findings(prefix, state, best, round_, number)
    if number == 1 or findings:
        # the tiers below are judged only when the rules above them hold
        return findings
    return _grouping_findings(prefix, state, best, round_, number)


def _audit_playoff(prefix: Event, round_: Round, number: int) -> list[Finding]:
    try:
        expected = pair_next(prefix)
    except TournamentError as error:
        return [
            Finding(
                number, None, "playoff", f"this playoff round should not exist: {error.message}"
            )
        ]
    if expected.kind != "playoff":
        return [
            Finding(
                number,
                None,
                "structure",
                f"a playoff round where Swiss round {expected.round} is due",
            )
        ]
    findings = []
    if structure_of(prefix).swiss_rounds == 0 and not [
        r for r in prefix.rounds if r.kind == "playoff"
    ]:
        if len(round_.byes) != len(expected.byes):
            findings.append(
                Finding(
                    number,
                    None,
                    "bracket",
                    f"{len(round_.byes)} bye(s); the field needs {len(expected.byes)}",
                )
            )
        return findings
    want = {p.table: frozenset(p.players) for p in expected.pairs} | {
        b.table: frozenset((b.player,)) for b in expected.byes
    }
    have = {m.table: frozenset(m.players) for m in round_.matches} | {
        b.table: frozenset((b.player,)) for b in round_.byes
    }
    rule = "cut" if not [r for r in prefix.rounds if r.kind == "playoff"] else "bracket"
    for table in sorted(set(want) | set(have), key=lambda t: t or 0):
        if want.get(table) != have.get(table):
            findings.append(
                Finding(
                    number,
                    table,
                    rule,
                    f"table {table} holds {sorted(have.get(table, ()))}; the {'seeding' if rule == 'cut' else 'bracket'} gives {sorted(want.get(table, ()))}",
                )
            )
    return findings
