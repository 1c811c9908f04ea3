"""Simulated events: random results, drops and whole events, for tests and benchmarks.

Examples
--------
>>> event = simulate_event("destiny", 10, seed=3, structure="custom", swiss_rounds=3)
>>> [len(r.matches) for r in event.rounds], is_complete(event)
([5, 5, 5], True)
"""

from __future__ import annotations

import random
from dataclasses import replace

from tabletop.tournament.records import Event, Match, Player, Round
from tabletop.tournament.regulations import get_regulation
from tabletop.tournament.rounds import is_complete, pair_next, structure_of

__all__ = ["random_result", "simulate_event", "with_result"]


def random_result(event: Event, match: Match, rng: random.Random, games: int = 1) -> Match:
    """Return `match` with a random result of the event's kind."""
    a, b = match.players
    if event.regulation.result_entry == "scores":
        first = rng.randrange(0, 400)
        second = rng.randrange(0, 400)
        concession = None
        if rng.random() < 0.03:
            concession = a if first <= second else b
        return replace(
            match, scores=(first, second), second_player=rng.choice((a, b)), concession=concession
        )
    if games == 3:
        winner = rng.choice((a, b))
        loser = b if winner == a else a
        sequence = rng.choice(((winner, winner), (winner, loser, winner), (loser, winner, winner)))
        return replace(match, games=sequence)
    return replace(match, winner=rng.choice((a, b)))


def with_result(event: Event, round_number: int, match: Match) -> Event:
    """Return the event with the match at the same table of a round replaced."""
    rounds = list(event.rounds)
    old = rounds[round_number - 1]
    matches = tuple(match if m.table == match.table else m for m in old.matches)
    rounds[round_number - 1] = Round(old.kind, matches, old.byes)
    return event.with_rounds(tuple(rounds))


def simulate_event(
    game: str,
    players: int,
    seed: int,
    *,
    drop_rate: float = 0.0,
    rounds: int | None = None,
    **options: object,
) -> Event:
    """Return an event of `players` players paired and played with random results.

    Parameters
    ----------
    game : str
        ``"armada"`` or ``"destiny"`` (the game's default regulation), or a regulation id
        (``"armada-2018"``).
    players : int
        Registered players.
    seed : int
        The event's seed (pairing) and the results' seed.
    drop_rate : float
        The chance that a player drops after each Swiss round (four always stay).
    rounds : int or None
        Stop after this many rounds (default: until the event is complete).
    **options
        Event fields (``structure``, ``swiss_rounds``, ``cut``, ``tier``, ...).
    """
    regulation = get_regulation(game)
    field = tuple(Player(f"p{k:04}", f"Player {k}", faction=None) for k in range(1, players + 1))
    event = Event(regulation.game, regulation.id, "Simulated", seed, field, **options)  # type: ignore[arg-type]
    rng = random.Random(f"{seed}/results")
    while not is_complete(event) and (rounds is None or len(event.rounds) < rounds):
        pairing = pair_next(event)
        event = event.with_rounds((*event.rounds, pairing.to_round()))
        number = len(event.rounds)
        games = structure_of(event).playoff_games if pairing.kind == "playoff" else 1
        played = tuple(random_result(event, m, rng, games) for m in event.rounds[-1].matches)
        last = event.rounds[-1]
        event = event.with_rounds((*event.rounds[:-1], Round(last.kind, played, last.byes)))
        if drop_rate and pairing.kind == "swiss":
            for player in event.players:
                active = sum(p.active_in(number + 1) for p in event.players)
                # at least four players stay, so that every round can still be paired
                if player.dropped_after is None and active > 4 and rng.random() < drop_rate:
                    event = event.with_player(replace(player, dropped_after=number))
    return event
