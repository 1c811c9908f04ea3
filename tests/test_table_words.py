"""The table's words (issue 36.5): what a roll did, the hits left, hidden hands, take-backs, needs.

Every expected text is worked out by hand from the example armies
(``tabletop/boards/pocket/examples.py``: rider-1 melee 3, rider-2 melee 5; slinger-1
melee 2 and 6 points) and from the Dogfight table file below.
"""

from __future__ import annotations

import io
import tomllib
from pathlib import Path

import pytest
from common import ROOT

from tabletop.app.cli import main
from tabletop.boards import replay
from tabletop.boards.dogfight import Dogfight
from tabletop.boards.dogfight.diagram import to_win_words as dogfight_to_win
from tabletop.boards.pocket import PocketBattles, example_battle
from tabletop.boards.pocket.telling import hits_words, roll_words, to_win_words

# Rebels hold Pursuit (move 4) and Blasters (attack 1); the empire Evasion.
TABLE = """game = "dogfight"
phase = "move"
seed = 3

[cards]
rebels = ["Pursuit", "Blasters"]
empire = ["Evasion"]
deck = ["Loop", "Maneuver", "Dive", "Tactics"]
"""
CHARGE = ["order riders charge", "react wait", "target scouts"]


def run(*argv: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


def plays_in(path: Path) -> list[str]:
    plays = tomllib.loads(path.read_text(encoding="utf-8")).get("plays", [])
    assert isinstance(plays, list)
    return plays


def battle(tmp_path: Path, plays: list[str]) -> Path:
    path = tmp_path / "t.toml"
    path.write_bytes((ROOT / "examples/pocket/battle-60.toml").read_bytes())
    for play in plays:
        assert run("pocket", "push", path, play)[0] == 0, play
    return path


def table(tmp_path: Path, text: str = TABLE) -> Path:
    path = tmp_path / "g.toml"
    path.write_text(text, encoding="utf-8")
    return path


# -- Pocket Battles: what a roll did, the hits left ------------------------------------


def test_a_written_roll_says_which_die_hit_which_troop_and_the_hits_left(tmp_path: Path) -> None:
    path = battle(tmp_path, CHARGE)
    code, out, _ = run("pocket", "push", path, "roll 3 5 6")
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == (
        "  roll 3 5 6: riders' charge on scouts, melee 3 5: 2 hits (3: rider-1; 5: rider-2; 6 miss)"
    )
    assert (
        "to decide: player 2, hits: 2 hits left to assign on scouts (each one wound or kill)"
        in (lines)
    )
    code, out, _ = run("pocket", "push", path, "kill slinger-1")
    assert "to decide: player 2, hits: 1 hit left to assign on scouts (each one wound or kill)" in (
        out.splitlines()
    )


def test_a_die_shown_twice_hits_twice_and_no_match_is_no_hit() -> None:
    game = PocketBattles(example_battle())
    state = replay(game, game.start(), CHARGE).state
    assert roll_words(game, state, (3, 3, 1)).endswith(": 2 hits (3 ×2: rider-1; 1 miss)")
    assert roll_words(game, state, (1, 2, 4)).endswith("melee 3 5: no hit")
    assert roll_words(game, state, (5, 5, 5)).endswith(": 3 hits (5 ×3: rider-2)")
    game.push(state, game.parse_play("roll 1 2 4"))
    with pytest.raises(ValueError, match="no roll is due"):
        roll_words(game, replay(game, game.start(), []).state, (1,))


def test_a_roll_drawn_from_the_seed_before_a_play_is_told_as_drawn(tmp_path: Path) -> None:
    # The seed's roll here is 3 5 6 (the bot of docs/pocket.md writes it).
    path = battle(tmp_path, CHARGE)
    code, out, _ = run("pocket", "push", path, "kill slinger-1")
    assert code == 0
    assert out.splitlines()[1] == (
        "  roll 3 5 6: riders' charge on scouts, melee 3 5: 2 hits (3: rider-1; 5: rider-2; "
        "6 miss) (drawn from the seed)"
    )
    assert plays_in(path) == [*CHARGE, "kill slinger-1"]


def test_a_wounds_trait_adds_its_hits_when_a_die_hits() -> None:
    # The legion (melee 4, 4, 3; legionary-1 has +1 wounds) striking in the riders' place.
    game = PocketBattles(example_battle())
    state = replay(game, game.start(), CHARGE).state
    state.stack[-1] = ("strike", "legion", "riders", "charge")
    assert roll_words(game, state, (4, 1, 6)) == (
        "roll 4 1 6: legion's charge on riders, melee 4 4 3: 2 hits "
        "(4: legionary-1, legionary-2; 1, 6 miss), +1 (wounds): 3 hits"
    )
    # No die hits: no bonus either.
    assert roll_words(game, state, (1, 2, 6)).endswith("melee 4 4 3: no hit")


def test_hits_split_over_an_engagement_are_told_unit_by_unit() -> None:
    game = PocketBattles(example_battle())
    state = replay(game, game.start(), CHARGE).state
    # The target's frame on top, the linked unit's under it (as a split shot leaves them).
    state.stack[-1:] = [("hits", "riders", 2), ("hits", "scouts", 1)]
    assert hits_words(state) == (
        "1 hit left to assign on scouts (each one wound or kill); then 2 on riders"
    )


def test_hits_words_is_empty_without_hits_to_assign() -> None:
    game = PocketBattles(example_battle())
    state = replay(game, game.start(), CHARGE).state
    assert hits_words(state) == ""


# -- Pocket Battles: the engagement row, named ------------------------------------------


@pytest.mark.parametrize(
    ("play", "said"),
    [
        ("reposition spears B3", "B3 is in the engagement row: moves and repositions stay"),
        ("order spears move B3", "B3 is in the engagement row: moves and repositions stay"),
        ("reposition spears B4", "B4 is in the enemy's half, not player 1's"),
        ("order spears move C1", "C1 is not adjacent to B2 in player 1's half"),
    ],
)
def test_a_move_into_the_engagement_row_is_refused_naming_it(
    tmp_path: Path, play: str, said: str
) -> None:
    path = battle(tmp_path, [])
    before = path.read_bytes()
    code, _, err = run("pocket", "push", path, play)
    assert code == 2
    assert said in err
    assert "(rule: adjacent-zone)" in err
    assert path.read_bytes() == before


def test_the_neighbouring_zones_of_the_own_half_are_still_reached(tmp_path: Path) -> None:
    path = battle(tmp_path, ["reposition spears B1"])
    assert plays_in(path) == ["reposition spears B1"]


# -- Pocket Battles: what each player needs to win ---------------------------------------


@pytest.mark.parametrize(
    ("player", "destroyed", "said"),
    [
        # player 1 against blue's 51 points: 2 × 26 ≥ 51 > 2 × 25
        (1, 0, "to win: destroy 26 more points of the enemy (half of its 51) by a round's end"),
        (1, 25, "to win: destroy 1 more point of the enemy (half of its 51) by a round's end"),
        (1, 26, "to win: half of the enemy's 51 points destroyed: wins at the round's end"),
        # player 2 against red's 54: exactly half counts
        (2, 26, "to win: destroy 1 more point of the enemy (half of its 54) by a round's end"),
        (2, 27, "to win: half of the enemy's 54 points destroyed: wins at the round's end"),
    ],
)
def test_each_player_is_told_the_points_still_needed(
    player: int, destroyed: int, said: str
) -> None:
    game = PocketBattles(example_battle())
    state = game.start()
    state.destroyed[player] = destroyed
    assert to_win_words(game, state, player).startswith(said)
    # The engine's own check agrees at the line.
    state.destroyed[3 - player] = 0
    assert (game.victor(state) == player) is said.startswith("to win: half")


def test_the_report_says_what_each_player_needs(tmp_path: Path) -> None:
    path = battle(tmp_path, [*CHARGE, "roll 3 5 6"])
    code, out, _ = run("pocket", "push", path, "kill slinger-1")
    assert code == 0
    assert "  to win: destroy 20 more points of the enemy (half of its 51) by a round's end" in out
    assert "  to win: destroy 27 more points of the enemy (half of its 54) by a round's end" in out


# -- Pocket Battles: pop --player takes back a play and the bot's answer -------------------


def test_pop_player_takes_back_the_players_play_with_the_bots_answer(tmp_path: Path) -> None:
    path = battle(tmp_path, ["order riders charge"])
    code, out, _ = run("pocket", "push", path, "react wait", "--bot", "greedy")
    assert "the greedy bot answered 'target scouts', 'roll 3 5 6'" in out
    code, out, _ = run("pocket", "pop", path, "--player", "2")
    assert code == 0
    assert out.startswith(f"{path}: plays 2-4 popped: 'react wait', 'target scouts', 'roll 3 5 6'")
    assert plays_in(path) == ["order riders charge"]
    # Without --player, one play as before.
    assert run("pocket", "pop", path)[0] == 0
    assert plays_in(path) == []
    before = path.read_bytes()
    code, _, err = run("pocket", "pop", path, "--player", "2")
    assert code == 2
    assert "no play to pop" in err
    assert path.read_bytes() == before


def test_pop_player_who_made_no_play_is_refused(tmp_path: Path) -> None:
    path = battle(tmp_path, ["order riders charge"])
    before = path.read_bytes()
    code, _, err = run("pocket", "pop", path, "--player", "2")
    assert code == 2
    assert "player 2 made none of the 1 plays; the file is unchanged" in err
    assert path.read_bytes() == before


# -- Dogfight: hidden hands --------------------------------------------------------------


def test_push_hides_both_hands_unless_asked(tmp_path: Path) -> None:
    path = table(tmp_path)
    code, out, _ = run("dogfight", "push", path, "move b1 b5 Pursuit")
    assert code == 0
    assert "rebels hand: 1 card, hidden\nempire hand: 1 card, hidden\n" in out
    assert "Blasters" not in out.split("legal plays next")[0]
    code, out, _ = run("dogfight", "pop", path, "--show-hands")
    assert "rebels hand: Pursuit, Blasters\nempire hand: Evasion\n" in out


def test_the_bots_hand_is_never_shown(tmp_path: Path) -> None:
    path = table(tmp_path)
    run("dogfight", "push", path, "move b1 b5 Pursuit")
    code, out, _ = run("dogfight", "push", path, "pass", "--bot", "greedy", "--show-hands")
    assert code == 0
    hands = [line for line in out.splitlines() if " hand: " in line]
    assert hands[0].startswith("rebels hand: ")
    assert not hands[0].endswith("hidden")
    assert hands[1].startswith("empire hand: ")
    assert hands[1].endswith(" hidden")


# -- Dogfight: pop --side ---------------------------------------------------------------


def test_pop_side_takes_back_the_sides_play_and_the_bots_answer(tmp_path: Path) -> None:
    path = table(tmp_path)
    run("dogfight", "push", path, "move b1 b5 Pursuit")
    run("dogfight", "push", path, "pass", "--bot", "greedy")
    answered = plays_in(path)[2:]
    assert answered  # the empire moved, at least
    code, out, _ = run("dogfight", "pop", path, "--side", "rebels")
    assert code == 0
    gone = ", ".join(repr(t) for t in ["pass", *answered])
    assert out.startswith(f"{path}: plays 2-{2 + len(answered)} popped: {gone}\n")
    assert plays_in(path) == ["move b1 b5 Pursuit"]
    assert "rebels to play, fire phase" in out


def test_pop_side_that_made_no_play_is_refused(tmp_path: Path) -> None:
    path = table(tmp_path)
    run("dogfight", "push", path, "move b1 b5 Pursuit")
    before = path.read_bytes()
    code, _, err = run("dogfight", "pop", path, "--side", "empire")
    assert code == 2
    assert "the empire made none of the 1 plays; the file is unchanged" in err
    assert path.read_bytes() == before


# -- Dogfight: card names without regard to case ------------------------------------------


@pytest.mark.parametrize(
    "typed", ["move b1 b5 pursuit", "move b1 b5 PURSUIT", "move b1 b5 PuRsUiT"]
)
def test_a_card_name_is_read_without_regard_to_case(tmp_path: Path, typed: str) -> None:
    path = table(tmp_path)
    code, _out, _ = run("dogfight", "push", path, typed)
    assert code == 0
    assert plays_in(path) == ["move b1 b5 Pursuit"]


def test_case_folding_reads_two_word_names_and_physical_draws(tmp_path: Path) -> None:
    game = Dogfight()
    assert str(game.parse_play("discard break away TIGHT TURNS blasters")) == (
        "discard Blasters Break Away Tight Turns"
    )
    assert str(game.parse_play("fire a1 a3 fire-linked")) == "fire a1 a3 Fire-Linked"
    path = table(tmp_path, 'game = "dogfight"\ndeck = "physical"\n')
    assert run("dogfight", "push", path, "draw pursuit")[0] == 0
    assert plays_in(path) == ["draw Pursuit"]
    code, _, err = run("dogfight", "push", path, "draw pursuitt")
    assert code == 2
    assert "unknown card 'pursuitt'" in err


# -- Dogfight: what each side needs to win -------------------------------------------------


def _position(kills: tuple[int, int], empire: list[str], quiet: int = 0) -> str:
    fighters = "\n".join(f'{sq} = "TIE Fighter"' for sq in empire)
    return (
        f'game = "dogfight"\nphase = "move"\nquiet_turns = {quiet}\n'
        f"kills = {{ rebels = {kills[0]}, empire = {kills[1]} }}\n"
        f'[fighters.rebels]\na1 = "X-Wing"\nb1 = "X-Wing"\n[fighters.empire]\n{fighters}\n'
    )


@pytest.mark.parametrize(
    ("kills", "empire", "quiet", "said"),
    [
        ((0, 0), ["a8", "b8", "c8", "d8", "e8", "f8"], 0, "rebels 5 more kills, empire 2 more "),
        ((4, 0), ["a8", "b8"], 99, "rebels 1 more kill, empire 2 more kills (every enemy"),
        # two enemy fighters left and two kills to go: the same either way
        ((3, 0), ["a8", "b8"], 0, "rebels 2 more kills, empire"),
        # one left, two kills to go: the last fighter ends it
        ((3, 0), ["a8"], 0, "rebels 1 more kill (every enemy fighter left), empire"),
    ],
)
def test_each_side_is_told_the_kills_still_needed(
    tmp_path: Path, kills: tuple[int, int], empire: list[str], quiet: int, said: str
) -> None:
    path = table(tmp_path, _position(kills, empire, quiet))
    code, out, _ = run("dogfight", "replay", path)
    assert code == 0, out
    line = next(ln for ln in out.splitlines() if ln.startswith("to win: "))
    assert line.startswith(f"to win: {said}")
    turns = 100 - quiet
    assert line.endswith(f"a draw after {turns} more turn{'s' * (turns != 1)} without a kill")


def test_a_finished_game_says_no_more_what_is_needed() -> None:
    game = Dogfight()
    assert dogfight_to_win(game, game.standard(0)).startswith("to win: rebels 5 more kills")
    code, out, _ = run("dogfight", "replay", ROOT / "examples/dogfight/game.toml")
    assert code == 0
    assert "over: empire" in out
    assert "to win:" not in out
