"""Scoring: the MoV table at every band edge, tabling, concessions, equal scores, byes."""

from __future__ import annotations

import pytest

from tabletop.tournament import (
    ARMADA_2015,
    DESTINY,
    Bye,
    Event,
    Match,
    Player,
    ResultError,
    Round,
    get_regulation,
    score_match,
    standings,
    tally,
)


def armada(scores: tuple[int, int], **extra: object) -> Match:
    return Match(1, ("a", "b"), scores=scores, **extra)  # type: ignore[arg-type]


def test_the_seed_example_138_to_105_is_six_and_four() -> None:
    outcome = score_match(ARMADA_2015, Match(1, ("iacopo", "simone"), scores=(138, 105)))
    assert outcome is not None
    assert (outcome.margin, outcome.tp, outcome.winner) == (33, (6, 4), "iacopo")


@pytest.mark.parametrize(
    ("margin", "tp"),
    [
        (0, (5, 5)),
        (20, (5, 5)),
        (21, (6, 4)),
        (50, (6, 4)),
        (51, (7, 3)),
        (90, (7, 3)),
        (91, (8, 2)),
        (150, (8, 2)),
        (151, (9, 1)),
        (220, (9, 1)),
        (221, (10, 0)),
        (400, (10, 0)),
    ],
)
def test_every_margin_band_edge(margin: int, tp: tuple[int, int]) -> None:
    outcome = score_match(ARMADA_2015, armada((margin + 10, 10), second_player="a"))
    assert outcome is not None
    assert outcome.tp == tp
    assert outcome.mov == (margin, 0)
    # the same margin the other way round
    flipped = score_match(ARMADA_2015, armada((10, margin + 10), second_player="a"))
    assert flipped is not None
    assert flipped.tp == (tp[1], tp[0]) or margin == 0


def test_tabling_a_fleet_under_300_scores_300() -> None:
    # b's fleet cost 250; a destroyed all of it, so a scores 300 (plus 15 of objectives)
    outcome = score_match(ARMADA_2015, armada((315, 40)))
    assert outcome is not None
    assert (outcome.margin, outcome.tp) == (275, (10, 0))


def test_equal_scores_the_second_player_wins_with_mov_zero() -> None:
    outcome = score_match(ARMADA_2015, armada((120, 120), second_player="b"))
    assert outcome is not None
    assert (outcome.winner, outcome.tp, outcome.mov) == ("b", (5, 5), (0, 0))
    with pytest.raises(ResultError, match="second_player"):
        score_match(ARMADA_2015, armada((120, 120)))


def test_a_concession_gives_the_conceding_player_zero() -> None:
    outcome = score_match(ARMADA_2015, armada((200, 90), concession="b"))
    assert outcome is not None
    assert (outcome.winner, outcome.tp) == ("a", (8, 0))  # MoV 110: 8 TP; conceded: 0
    level = score_match(ARMADA_2015, armada((90, 90), concession="a"))
    assert level is not None
    assert (level.winner, level.tp) == ("b", (0, 5))


def test_a_conceding_player_with_the_higher_score_is_an_error() -> None:
    with pytest.raises(ResultError, match="conceded with the higher score") as caught:
        Match(4, ("a", "b"), scores=(91, 90), concession="a")
    assert caught.value.table == 4


def test_a_negative_score_and_a_stranger_at_the_table_are_errors() -> None:
    with pytest.raises(ResultError, match="non-negative"):
        armada((-1, 20))
    with pytest.raises(ResultError, match="not at this table"):
        Match(1, ("a", "b"), winner="c")


def test_the_bye_is_nine_tp_and_150_mov() -> None:
    players = tuple(Player(p, p) for p in ("a", "b", "c"))
    r1 = Round("swiss", (armada((100, 60)),), (Bye("c"),))
    counts = tally(Event("armada", "armada-2015", "E", 1, players, (r1,)))
    assert (counts["c"].tp, counts["c"].mov, counts["c"].byes, counts["c"].wins) == (9, 150, 1, 0)
    assert (counts["a"].tp, counts["a"].mov) == (6, 40)
    assert (counts["b"].tp, counts["b"].mov) == (4, 0)  # losses add no MoV


def test_destiny_wins_and_best_of_three() -> None:
    single = score_match(DESTINY, Match(1, ("a", "b"), winner="b"))
    assert single is not None
    assert single.tp == (0, 1)
    cases = {
        ("a", "a"): "a",
        ("a", "b", "b"): "b",
        ("b", "a", "a"): "a",
    }
    for games, winner in cases.items():
        outcome = score_match(DESTINY, Match(1, ("a", "b"), games=games), games=3)
        assert outcome is not None
        assert outcome.winner == winner
    by_time = score_match(DESTINY, Match(1, ("a", "b"), games=("b",), by_time=True), games=3)
    assert by_time is not None
    assert by_time.winner == "b"
    game3 = score_match(DESTINY, Match(1, ("a", "b"), games=("a", "b", "b"), by_time=True), games=3)
    assert game3 is not None
    assert game3.winner == "b"


@pytest.mark.parametrize(
    ("games", "by_time", "message"),
    [
        (("a", "b"), True, "one game win each"),
        (("a", "b"), False, "one game win each"),
        (("a",), False, "nobody has two wins"),
        (("a", "a", "b"), False, "after the match was won"),
    ],
)
def test_best_of_three_without_a_winner_is_an_error(
    games: tuple[str, ...], by_time: bool, message: str
) -> None:
    with pytest.raises(ResultError, match=message):
        score_match(DESTINY, Match(1, ("a", "b"), games=games, by_time=by_time), games=3)


def test_the_wrong_kind_of_result_is_an_error() -> None:
    with pytest.raises(ResultError, match="both final scores"):
        score_match(ARMADA_2015, Match(1, ("a", "b"), winner="a"))
    with pytest.raises(ResultError, match="enters a winner"):
        score_match(DESTINY, Match(1, ("a", "b"), scores=(1, 0)))


def test_regulations_are_selected_by_id_or_game() -> None:
    assert get_regulation("armada") is ARMADA_2015
    assert get_regulation("destiny") is DESTINY
    with pytest.raises(ValueError, match="unknown regulation"):
        get_regulation("xwing-2018")


def test_standings_of_a_scored_event_include_the_margin() -> None:
    players = tuple(Player(p, p) for p in ("a", "b"))
    r1 = Round("swiss", (armada((138, 105)),))
    table = standings(Event("armada", "armada-2015", "E", 1, players, (r1,)))
    assert [(s.player.id, s.tp, s.mov) for s in table] == [("a", 6, 33), ("b", 4, 0)]
