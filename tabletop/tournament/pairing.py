"""Swiss pairing by maximum-weight matching, with an explanation for every pair and bye.

Each candidate pair (and each player with the virtual bye node) gets one integer weight
built from tiers, each tier's unit larger than everything below it can add up to, so
that no lower criterion can outweigh a higher one:

1. legality: a rematch, then a second bye, costs the most;
2. the bye rule: the bye costs its player's place in the regulation's bye order;
3. round 1 in informal Armada events: two players of one club;
4. TP-group purity: the square of the TP-group distance of the pair;
5. the regulation's in-group convention: the square of the rank distance (Armada, so
   that 1 v 2, 3 v 4 wins whenever it is legal) or a seeded random number (Destiny,
   round 1).

The best perfect matching under these weights has the fewest rematches possible, then
the fewest second byes, then the right bye, then the purest groups. Armada's top-down
rule is then made exact by a pass from the top: each player meets the highest-ranked
player below them for whom the rest can still be paired as well on tiers 1-4.

Fields over :data:`DENSE_LIMIT` players use, for each player, only the
:func:`window` nearest places in the pairing order as candidates; with at least
4(r + 1) places per window a rematch-free pairing of every block of 2(r + 1)
neighbours exists (Dirac's theorem: each has met at most r of them), so the window
never forces a rematch the full graph would avoid. Fields over :data:`BLOCK_LIMIT`
players are paired in blocks of consecutive places, the bye given first
(:func:`_solve_in_blocks`); Armada's top-down rule is then exact within each block.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tabletop.tournament.errors import PairingError
from tabletop.tournament.explain import bye_reason, pair_reason, refuse_reason, skipped_text
from tabletop.tournament.matching import max_weight_perfect_matching
from tabletop.tournament.records import Bye, Event, Match, Round
from tabletop.tournament.regulations import bye_key
from tabletop.tournament.standings import standings, swiss_round_count

__all__ = [
    "BLOCK_LIMIT",
    "BLOCK_PLAYERS",
    "DENSE_LIMIT",
    "Matcher",
    "PairedBye",
    "PairedMatch",
    "Pairing",
    "SwissState",
    "pair_swiss",
    "swiss_state",
    "window",
]

#: Fields up to this many players are paired on the complete graph.
DENSE_LIMIT = 160
#: Fields over this many players are paired in blocks of :data:`BLOCK_PLAYERS`
#: consecutive places (see :func:`_solve_in_blocks`): the matcher's time grows faster
#: than the field.
BLOCK_LIMIT = 2048
#: Players in one block of a field over :data:`BLOCK_LIMIT` (even).
BLOCK_PLAYERS = 512

#: A matcher: (node count, weighted edges) -> perfect matching of greatest weight.
Matcher = Callable[[int, Sequence[tuple[int, int, int]]], list[tuple[int, int]]]


def window(round_number: int) -> int:
    """Return how many following places each player is a candidate against (large fields).

    Examples
    --------
    >>> window(1), window(9)
    (48, 48)
    """
    return max(48, 4 * (round_number + 1))


@dataclass(frozen=True, slots=True)
class PairedMatch:
    """A pair of a new round, with the reason for it."""

    table: int
    players: tuple[str, str]
    ranks: tuple[int, int]
    tp: tuple[int, int]
    explanation: str
    rematch: bool
    mirror: bool


@dataclass(frozen=True, slots=True)
class PairedBye:
    """A bye of a new round and its reason (playoff byes keep a bracket table)."""

    player: str
    reason: str
    table: int | None = None


@dataclass(frozen=True, slots=True)
class Pairing:
    """A new round: pairs, byes and warnings."""

    round: int
    kind: str
    pairs: tuple[PairedMatch, ...]
    byes: tuple[PairedBye, ...]
    warnings: tuple[str, ...]

    def to_round(self) -> Round:
        """Return the round as it is stored in the event (no results yet)."""
        return Round(
            self.kind,
            tuple(Match(p.table, p.players) for p in self.pairs),
            tuple(Bye(b.player, b.table) for b in self.byes),
        )

    def to_json(self) -> dict[str, Any]:
        """Return the JSON object of ``tabletop event pair --json``."""
        return {
            "round": self.round,
            "kind": self.kind,
            "pairs": [
                {
                    "table": p.table,
                    "players": list(p.players),
                    "ranks": list(p.ranks),
                    "tp": list(p.tp),
                    "explanation": p.explanation,
                    "rematch": p.rematch,
                    "mirror": p.mirror,
                }
                for p in self.pairs
            ],
            "byes": [
                {"player": b.player, "reason": b.reason}
                | ({"table": b.table} if b.table is not None else {})
                for b in self.byes
            ],
            "warnings": list(self.warnings),
        }


@dataclass(frozen=True, slots=True)
class SwissState:
    """What pairing Swiss round `round` needs to know, from the rounds before it."""

    round: int
    ranked: tuple[str, ...]
    ranks: dict[str, int]
    tp: dict[str, int]
    mov: dict[str, int]
    met: dict[frozenset[str], int]
    had_bye: frozenset[str]
    active: frozenset[str]


def swiss_state(event: Event, round_number: int | None = None) -> SwissState:
    """Return the state before Swiss round `round_number` (default: the next one)."""
    number = swiss_round_count(event) + 1 if round_number is None else round_number
    table = standings(event, number - 1)
    met: dict[frozenset[str], int] = {}
    had_bye: set[str] = set()
    swiss = 0
    for round_ in event.rounds:
        if round_.kind != "swiss":
            continue
        swiss += 1
        if swiss >= number:
            break
        for m in round_.matches:
            met.setdefault(frozenset(m.players), swiss)
        had_bye.update(b.player for b in round_.byes)
    active = frozenset(p.id for p in event.players if p.active_in(number))
    return SwissState(
        number,
        tuple(s.player.id for s in table),
        {s.player.id: s.rank for s in table},
        {s.player.id: s.tp for s in table},
        {s.player.id: s.mov for s in table},
        met,
        frozenset(had_bye),
        active,
    )


@dataclass(slots=True)
class _Tiers:
    """The integer weights of one pairing problem (see the module docstring)."""

    order: list[str]  # the pool, in pairing order
    index: dict[str, int]
    bye_place: dict[str, int]
    group: dict[str, int]
    club: dict[str, str | None]
    state: SwissState
    in_group: Callable[[str, str], int]
    bye_noise: dict[str, int]
    w_purity: int
    w_club: int
    w_bye: int
    w_second: int
    w_rematch: int
    base: int

    def high(self, a: str, b: str | None) -> int:
        """Tiers 1-4 of a pair, or of a bye when `b` is None."""
        if b is None:
            second = self.w_second if a in self.state.had_bye else 0
            return second + self.bye_place[a] * self.w_bye
        cost = (self.group[a] - self.group[b]) ** 2 * self.w_purity
        if frozenset((a, b)) in self.state.met:
            cost += self.w_rematch
        if self.club[a] is not None and self.club[a] == self.club[b]:
            cost += self.w_club
        return cost

    def vector(self, pairs: Sequence[tuple[str, str | None]]) -> tuple[int, int, int, int, int]:
        """(rematches, second byes, bye place, club pairs, purity) of a set of pairs."""
        rematches = seconds = place = clubs = purity = 0
        for a, b in pairs:
            if b is None:
                seconds += a in self.state.had_bye
                place += self.bye_place[a]
                continue
            rematches += frozenset((a, b)) in self.state.met
            clubs += self.club[a] is not None and self.club[a] == self.club[b]
            purity += (self.group[a] - self.group[b]) ** 2
        return rematches, seconds, place, clubs, purity


def _tiers(
    event: Event, state: SwissState, pool: list[str], rng: random.Random, random_in_group: bool
) -> _Tiers:
    regulation = event.regulation
    m = len(pool) + 1
    values = sorted({state.tp[p] for p in pool}, reverse=True)
    group = {p: values.index(state.tp[p]) for p in pool}
    lottery = list(pool)
    rng.shuffle(lottery)
    luck = {p: i for i, p in enumerate(lottery)}
    if state.round == 1:
        key: Callable[[str], tuple[int, ...]] = lambda p: (luck[p],)  # noqa: E731
    else:
        keys = regulation.bye_order
        key = lambda p: (  # noqa: E731
            *bye_key(keys, state.tp[p], state.mov[p], state.ranks[p]),
            luck[p],
        )
    bye_place = {p: i for i, p in enumerate(sorted(pool, key=key))}
    avoid_clubs = state.round == 1 and event.tier in regulation.round1_club_avoidance_tiers
    bye_noise: dict[str, int] = {}
    if avoid_clubs:
        # Round 1's bye is random: drawn in the lowest tier, so that the club tier above
        # it may choose a bye that keeps club-mates apart.
        bye_noise, bye_place = bye_place, dict.fromkeys(pool, 0)
    club = {p: (event.player(p).club if avoid_clubs else None) for p in pool}
    if random_in_group:
        noise: dict[frozenset[str], int] = {}

        def in_group(a: str, b: str) -> int:
            k = frozenset((a, b))
            if k not in noise:
                noise[k] = rng.randrange(m * m)
            return noise[k]
    else:
        index_of = {p: i for i, p in enumerate(pool)}

        def in_group(a: str, b: str) -> int:
            return (index_of[a] - index_of[b]) ** 2

    half = m // 2 + 2
    w_purity = half * (m * m + 1)
    w_club = w_purity * (half * len(values) ** 2 + 1)
    w_bye = w_club * (half + 1)
    w_second = w_bye * (m + 1)
    w_rematch = w_second * 2
    base = w_rematch * (half + 1)
    if 2 * base >= 2**127:
        # the compiled matcher adds weights in 128-bit integers
        raise PairingError(f"{len(pool)} players in {len(values)} TP groups is too large to pair")
    return _Tiers(
        pool,
        {p: i for i, p in enumerate(pool)},
        bye_place,
        group,
        club,
        state,
        in_group,
        bye_noise,
        w_purity,
        w_club,
        w_bye,
        w_second,
        w_rematch,
        base,
    )


def _solve(
    tiers: _Tiers, players: list[str], with_bye: bool, matcher: Matcher, dense: bool
) -> list[tuple[str, str | None]]:
    """Return the best matching of `players` (in pairing order), with the bye node if asked."""
    n = len(players)
    edges: list[tuple[int, int, int]] = []
    reach = n if dense else window(tiers.state.round)
    for i, a in enumerate(players):
        for j in range(i + 1, min(n, i + 1 + reach)):
            b = players[j]
            edges.append((i, j, tiers.base - tiers.high(a, b) - tiers.in_group(a, b)))
        if with_bye:
            edges.append((i, n, tiers.base - tiers.high(a, None) - tiers.bye_noise.get(a, 0)))
    found = matcher(n + int(with_bye), edges)
    pairs: list[tuple[str, str | None]] = []
    for u, v in found:
        if v == n and with_bye:
            pairs.append((players[u], None))
        else:
            pairs.append((players[u], players[v]))
    return pairs


def _blocks(
    tiers: _Tiers, players: list[str], with_bye: bool
) -> tuple[str | None, list[list[str]]]:
    """Return the bye (or None) and the blocks a large field is paired in (see below)."""
    rest = list(players)
    bye = None
    if with_bye:
        bye = min(rest, key=lambda p: tiers.high(p, None))
        rest.remove(bye)
    size = max(BLOCK_PLAYERS, 4 * (tiers.state.round + 1))
    starts = list(range(0, len(rest), size))
    if len(starts) > 1 and len(rest) - starts[-1] < size // 2:
        starts.pop()  # a short tail joins the block before it
    ends = [*starts[1:], len(rest)]
    return bye, [rest[start:end] for start, end in zip(starts, ends, strict=True)]


def _solve_in_blocks(
    tiers: _Tiers, players: list[str], with_bye: bool, matcher: Matcher
) -> list[tuple[str, str | None]]:
    """Return a best matching of a large field found block by block, in pairing order.

    The bye goes first to the player the bye tiers choose (no second bye, then the bye
    order), as the whole-field matching gives it whenever that forces no rematch. The
    rest is cut into blocks of :data:`BLOCK_PLAYERS` consecutive places (the last takes
    up to half a block more), each paired on its own windowed graph. Nothing is lost
    by the cuts: every block has an even count, so the matching that pairs each
    place with its neighbour, which has the least TP-group cost possible (squared
    distances along a sorted line), never crosses a cut; and a block of at least
    2(r + 1) players has a pairing without rematches (Dirac's theorem, as for the
    window), so no cut forces a rematch. Only the random in-group choice, random
    anyway, differs from the whole-field matching.
    """
    bye, blocks = _blocks(tiers, players, with_bye)
    pairs: list[tuple[str, str | None]] = [] if bye is None else [(bye, None)]
    for block in blocks:
        pairs.extend(_solve(tiers, block, False, matcher, False))
    return pairs


def _top_down_in_blocks(
    tiers: _Tiers, pool: list[str], with_bye: bool, matcher: Matcher
) -> tuple[str | None, list[tuple[str, str]], dict[frozenset[str], str]]:
    """Pair a large field by Armada's top-down rule block by block (see _solve_in_blocks).

    The pool is in rank order, so each block is a run of consecutive ranks, and the
    rule's trials (can the rest still be paired as well?) are asked of the block.
    """
    bye, blocks = _blocks(tiers, pool, with_bye)
    chosen: list[tuple[str, str]] = []
    reasons: dict[frozenset[str], str] = {}
    for block in blocks:
        found = [(a, b) for a, b in _solve(tiers, block, False, matcher, False) if b is not None]
        pairs, why = _top_down(tiers, block, None, found, matcher, False)
        chosen.extend(pairs)
        reasons.update(why)
    return bye, chosen, reasons


def _match(
    tiers: _Tiers,
    pool: list[str],
    odd: bool,
    matcher: Matcher,
    dense: bool,
    random_in_group: bool,
) -> tuple[str | None, list[tuple[str, str]], dict[frozenset[str], str]]:
    """Return the bye, the pairs and the top-down reasons of a pool (in pairing order)."""
    if len(pool) > BLOCK_LIMIT and not random_in_group:
        return _top_down_in_blocks(tiers, pool, odd, matcher)
    if len(pool) > BLOCK_LIMIT:
        result = _solve_in_blocks(tiers, pool, odd, matcher)
    else:
        result = _solve(tiers, pool, odd, matcher, dense) if pool else []
    bye_player = next((a for a, b in result if b is None), None)
    players_only = [(a, b) for a, b in result if b is not None]
    if random_in_group:
        return bye_player, players_only, {}
    pairs, reasons = _top_down(tiers, pool, bye_player, players_only, matcher, dense)
    return bye_player, pairs, reasons


def _pool(
    event: Event, state: SwissState, rng: random.Random, random_in_group: bool
) -> tuple[list[str], list[PairedBye]]:
    """Return the players to pair, in the order the pairing reads them, and the earned byes.

    Round 1 gives the earned first-round byes and shuffles the rest; later rounds keep the
    ranking, shuffled within each TP group where the regulation pairs at random in groups.
    """
    byes: list[PairedBye] = []
    pool = [p for p in state.ranked if p in state.active]
    if state.round == 1:
        for pid in list(pool):
            if event.player(pid).first_round_bye:
                byes.append(PairedBye(pid, "first-round bye (earned by a previous event)"))
                pool.remove(pid)
        rng.shuffle(pool)
    elif random_in_group:
        # Within each TP group the order is random, so that large fields' windows
        # reach random group-mates.
        shuffled: list[str] = []
        for value in sorted({state.tp[p] for p in pool}, reverse=True):
            members = [p for p in pool if state.tp[p] == value]
            rng.shuffle(members)
            shuffled.extend(members)
        pool = shuffled
    return pool, byes


def pair_swiss(
    event: Event,
    matcher: Matcher = max_weight_perfect_matching,
    dense_limit: int = DENSE_LIMIT,
    state: SwissState | None = None,
) -> Pairing:
    """Pair the next Swiss round of `event`.

    Parameters
    ----------
    event : Event
        The event; every match of its last round must have a result (the caller checks).
    matcher : Matcher
        The maximum-weight perfect matcher (the compiled one by default).
    dense_limit : int
        Fields up to this size are paired on the complete graph.
    state : SwissState or None
        The standings and history to pair from (default: the event's own).
    """
    state = swiss_state(event) if state is None else state
    r = state.round
    regulation = event.regulation
    rng = random.Random(f"{event.seed}/swiss/{r}")
    random_in_group = r == 1 or regulation.later_pairing == "random-in-group"
    pool, byes = _pool(event, state, rng, random_in_group)
    warnings: list[str] = []
    tiers = _tiers(event, state, pool, rng, random_in_group)
    dense = len(pool) <= dense_limit
    odd = len(pool) % 2 == 1
    bye_player, players_only, reasons = _match(tiers, pool, odd, matcher, dense, random_in_group)
    if bye_player is not None:
        figures = (state.tp[bye_player], state.mov[bye_player], state.ranks[bye_player])
        place = tiers.bye_place[bye_player]
        why = bye_reason(r, regulation.bye_order, figures, place)
        byes.append(PairedBye(bye_player, why))
        if bye_player in state.had_bye:
            warnings.append(f"second bye for {bye_player}: every pairing gives one")
    pairs = []
    ordered = sorted(
        ((a, b) if state.ranks[a] < state.ranks[b] else (b, a) for a, b in players_only),
        key=lambda pair: state.ranks[pair[0]],
    )
    for table, (a, b) in enumerate(ordered, 1):
        key = frozenset((a, b))
        rematch = key in state.met
        fa, fb = event.player(a).faction, event.player(b).faction
        mirror = regulation.mirror_factions and fa is not None and fa == fb
        clubs = (tiers.club[a], tiers.club[b])
        text = reasons.get(key) or pair_reason(r, (state.tp[a], state.tp[b]), clubs)
        if rematch:
            text += f"; REMATCH of round {state.met[key]}: no pairing avoids it"
            warnings.append(
                f"unavoidable rematch at table {table}: {a} v {b} (met in round {state.met[key]})"
            )
        if mirror:
            text += f"; mirror match ({fa}): assign ID tokens, white and black"
        pairs.append(
            PairedMatch(
                table,
                (a, b),
                (state.ranks[a], state.ranks[b]),
                (state.tp[a], state.tp[b]),
                text,
                rematch,
                mirror,
            )
        )
    return Pairing(r, "swiss", tuple(pairs), tuple(byes), tuple(warnings))


def _top_down(
    tiers: _Tiers,
    pool: list[str],
    bye_player: str | None,
    pairs: list[tuple[str, str]],
    matcher: Matcher,
    dense: bool,
) -> tuple[list[tuple[str, str]], dict[frozenset[str], str]]:
    """Armada's rule: the top unpaired player meets the highest legal one below."""
    state = tiers.state
    partner = {}
    for a, b in pairs:
        partner[a], partner[b] = b, a
    unpaired = [p for p in pool if p != bye_player]
    unpaired.sort(key=lambda p: state.ranks[p])
    chosen: list[tuple[str, str]] = []
    reasons: dict[frozenset[str], str] = {}
    while unpaired:
        a = unpaired[0]
        rest_pairs = [(x, partner[x]) for x in unpaired if state.ranks[x] < state.ranks[partner[x]]]
        current = tiers.vector(rest_pairs)
        current_high = sum(tiers.high(x, y) for x, y in rest_pairs)
        skipped: list[tuple[int, str]] = []
        for b in unpaired[1:]:
            if partner[a] == b:
                break
            cost = tiers.high(a, b)
            if cost > current_high:
                why = (
                    "is a rematch"
                    if frozenset((a, b)) in state.met
                    else refuse_reason(tiers.vector([(a, b)]), current)
                )
                skipped.append((state.ranks[b], why))
                continue
            others = [p for p in unpaired if p not in (a, b)]
            trial = [
                (x, y) for x, y in _solve(tiers, others, False, matcher, dense) if y is not None
            ]
            trial_high = cost + sum(tiers.high(x, y) for x, y in trial)
            if trial_high == current_high:
                for x, y in trial:
                    assert y is not None
                    partner[x], partner[y] = y, x
                partner[a], partner[b] = b, a
                break
            why = refuse_reason(tiers.vector([(a, b), *trial]), current)
            skipped.append((state.ranks[b], why))
        b = partner[a]
        chosen.append((a, b))
        text = f"rank {state.ranks[a]} v rank {state.ranks[b]}"
        if skipped:
            text += ": " + skipped_text(skipped)
        elif state.round > 1:
            text += ": the highest-ranked unpaired player below"
        if state.tp[a] != state.tp[b]:
            text += f" (float from {state.tp[a]} TP to {state.tp[b]} TP)"
        reasons[frozenset((a, b))] = text
        unpaired = [p for p in unpaired if p not in (a, b)]
    return chosen, reasons
