"""Turning a result into tournament points: margin of victory, concessions, best of three.

Examples
--------
>>> from tabletop.tournament.records import Match
>>> from tabletop.tournament.regulations import ARMADA_2015, DESTINY
>>> score_match(ARMADA_2015, Match(1, ("iacopo", "simone"), scores=(138, 105)))
Outcome(winner='iacopo', loser='simone', tp=(6, 4), mov=(33, 0), margin=33)
>>> score_match(DESTINY, Match(2, ("ivan", "eva"), winner="eva")).tp
(0, 1)
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.tournament.errors import ResultError
from tabletop.tournament.records import Match
from tabletop.tournament.regulations import Regulation

__all__ = ["Outcome", "counted_tp", "score_match"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a played match gives: `tp` and credited `mov` in the match's player order.

    The credited MoV is the margin for the winner and 0 for the loser (losses add
    nothing); `margin` is the winner's score minus the loser's as the regulation counts
    it: at least 0, at least a concession's floor, at most the cap (0 without scores).
    """

    winner: str
    loser: str
    tp: tuple[int, int]
    mov: tuple[int, int]
    margin: int


def _other(match: Match, player: str) -> str:
    a, b = match.players
    return b if player == a else a


def _by_games(match: Match, games: tuple[str, ...], table: int) -> str:
    # Best of three: the first to two game wins; the seed's time rules in the result.
    wins = dict.fromkeys(match.players, 0)
    for number, game in enumerate(games, 1):
        if max(wins.values()) == 2:
            raise ResultError(
                f"game {number} was entered after the match was won",
                table=table,
                player=game,
                key="games",
            )
        wins[game] += 1
    leader = max(wins, key=lambda p: wins[p])
    if wins[leader] == 2:
        return leader
    if match.by_time and len(games) == 1:
        return games[0]  # time ended in game 2 with no second winner: game 1's winner
    if len(games) == 2 and wins[leader] == 1:
        raise ResultError(
            "one game win each and no game 3 winner; enter game 3's winner (by time if time ended)",
            table=table,
            key="games",
        )
    raise ResultError(
        f"{len(games)} game(s) entered and nobody has two wins; a best of three needs "
        "two game wins, or by_time with game 1's winner",
        table=table,
        key="games",
    )


def _most_tp(regulation: Regulation) -> int:
    """Return the most TP one player can have from one match or bye under `regulation`."""
    banded = (max(band.winner_tp, band.loser_tp) for band in regulation.margin_bands)
    return max(regulation.win_tp, regulation.loss_tp, regulation.bye_tp, *banded)


def _check_belongs(regulation: Regulation, match: Match) -> None:
    """Refuse a result key the regulation's games do not have, and TP out of its range."""
    if regulation.result_entry == "scores":
        if match.games is not None:
            raise ResultError(
                f"{regulation.id} enters final scores; 'games' (each game's winner) "
                "belongs to a best-of-three game",
                table=match.table,
            )
        if match.by_time:
            raise ResultError(
                f"{regulation.id} scores a game ended on time as any other; "
                "'by_time' belongs to a best-of-three game",
                table=match.table,
            )
    if match.defeated is not None and not regulation.defeat_win:
        raise ResultError(
            f"{regulation.id} has no 'One Player Defeated' win; 'defeated' belongs to "
            "a regulation that has one (armada-2018)",
            table=match.table,
            key="defeated",
        )
    if match.tp is not None:
        most = _most_tp(regulation)
        if not all(0 <= value <= most for value in match.tp):
            raise ResultError(
                f"TP are from 0 to {most} under {regulation.id}, got {list(match.tp)}",
                table=match.table,
            )


def _outcome_from_scores(regulation: Regulation, match: Match) -> Outcome:
    """Score a match entered as both final scores: TP and MoV by the margin."""
    table = match.table
    a, b = match.players
    if match.scores is None:
        raise ResultError("this regulation enters both final scores (scores = [a, b])", table=table)
    sa, sb = match.scores
    if match.concession is not None:
        winner = _other(match, match.concession)
    elif match.defeated is not None:
        winner = _other(match, match.defeated)
    elif sa != sb:
        winner = a if sa > sb else b
    elif match.second_player is None:
        raise ResultError(
            "equal scores: second_player decides the winner and is missing", table=table
        )
    else:
        winner = match.second_player
    if match.winner is not None and match.winner != winner:
        raise ResultError(
            f"winner {match.winner!r} contradicts the scores {sa} to {sb}",
            table=table,
            player=match.winner,
        )
    loser = _other(match, winner)
    scores = dict(zip(match.players, match.scores, strict=True))
    margin = regulation.counted_margin(
        scores[winner] - scores[loser], conceded=match.concession is not None
    )
    win_tp, loss_tp = regulation.tp_for_margin(margin)
    if match.concession is not None:
        loss_tp = regulation.concession_tp
    tp = (win_tp, loss_tp) if winner == a else (loss_tp, win_tp)
    mov = (margin, 0) if winner == a else (0, margin)
    return Outcome(winner, loser, tp, mov, margin)


def _entered_winner(match: Match, games: int) -> str:
    """Return the winner of a match entered by winner: its games, its winner or a concession."""
    table = match.table
    if match.games is not None:
        if games != 3 and len(match.games) != 1:
            raise ResultError(
                "this match is a single game; enter one winner", table=table, key="games"
            )
        winner = match.games[0] if games != 3 else _by_games(match, match.games, table)
        if match.winner is not None and match.winner != winner:
            raise ResultError(
                f"winner {match.winner!r} contradicts the games {list(match.games)}",
                table=table,
                player=match.winner,
            )
        return winner
    if match.winner is not None:
        if games == 3:
            raise ResultError(
                "a best of three enters each game's winner (games = [...])",
                table=table,
                key="games",
            )
        return match.winner
    assert match.concession is not None
    return _other(match, match.concession)


def score_match(regulation: Regulation, match: Match, games: int = 1) -> Outcome | None:
    """Return the outcome of a match under `regulation`, or None when it has no result.

    Parameters
    ----------
    regulation : Regulation
        The event's regulation.
    match : Match
        The match.
    games : int
        Games per match: 1, or 3 for a best of three (playoff rounds of some structures).

    Raises
    ------
    ResultError
        For a result of the wrong kind for the regulation (scores missing, a winner where
        scores are expected, games or by_time where scores are), TP outside the most a
        match gives, an equal score with no second player, a best of
        three that has no winner.
    """
    _check_belongs(regulation, match)
    if not match.has_result:
        return None
    if regulation.result_entry == "scores":
        return _outcome_from_scores(regulation, match)
    if match.scores is not None:
        raise ResultError(f"{regulation.id} enters a winner, not scores", table=match.table)
    winner = _entered_winner(match, games)
    loser = _other(match, winner)
    tp = (
        (regulation.win_tp, regulation.loss_tp)
        if winner == match.players[0]
        else (regulation.loss_tp, regulation.win_tp)
    )
    if match.concession is not None and match.concession != loser:
        raise ResultError(
            f"{match.concession!r} conceded but is entered as the winner", table=match.table
        )
    return Outcome(winner, loser, tp, (0, 0), 0)


def counted_tp(match: Match, outcome: Outcome) -> tuple[int, int]:
    """Return the TP a played match adds to the standings, in the match's player order.

    The regulation's TP, unless the TO kept other TP with a reason (``tp_override``):
    then the TP written down count, and ``check`` shows the override.

    Examples
    --------
    >>> from tabletop.tournament.regulations import ARMADA_2015
    >>> m = Match(1, ("a", "b"), scores=(100, 100), second_player="b", tp=(6, 4))
    >>> counted_tp(m, score_match(ARMADA_2015, m))
    (5, 5)
    >>> kept = Match(1, ("a", "b"), scores=(100, 100), second_player="b", tp=(6, 4),
    ...              tp_override="the slip's TP stand")
    >>> counted_tp(kept, score_match(ARMADA_2015, kept))
    (6, 4)
    """
    if match.tp_override is not None and match.tp is not None:
        return match.tp
    return outcome.tp
