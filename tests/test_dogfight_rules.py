"""Dogfight's rules, each at the line, just inside and just outside (numbers by hand)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from tabletop.boards import (
    IllegalPlayError,
    InvalidPlayError,
    InvalidPositionError,
    ReplayError,
    replay,
)
from tabletop.boards.dogfight import (
    STANDARD,
    Dogfight,
    Position,
    parse_play,
    placement_violations,
)
from tabletop.boards.dogfight.position import DEFEND, FIRE, MOVE, OVER, VECTOR

GAME = Dogfight()


def at(
    rebels: Mapping[str, str],
    empire: Mapping[str, str],
    *,
    phase: str = "move",
    to_play: str = "rebels",
    rebels_hand: Sequence[str] = (),
    empire_hand: Sequence[str] = (),
    deck: Sequence[str] | None = None,
    discard: Sequence[str] = (),
    kills: Mapping[str, int] | None = None,
    quiet_turns: int = 0,
) -> Position:
    return GAME.position(
        {"rebels": rebels, "empire": empire},
        phase=phase,
        to_play=to_play,
        hands={"rebels": rebels_hand, "empire": empire_hand},
        deck=deck,
        discard=discard,
        kills=kills,
        quiet_turns=quiet_turns,
    )


def texts(position: Position) -> set[str]:
    return {str(p) for p in GAME.legal_plays(position)}


def targets(position: Position, origin: str, card: str, word: str = "move") -> set[str]:
    out = set()
    for text in texts(position):
        parts = text.split(maxsplit=3)
        if parts[0] == word and parts[1] == origin and parts[3] == card:
            out.add(parts[2])
    return out


def rule_of(position: Position, text: str) -> str:
    with pytest.raises(IllegalPlayError) as caught:
        GAME.push(position.copy(), parse_play(text))
    return caught.value.rule


def push(position: Position, *plays: str) -> Position:
    for text in plays:
        GAME.push(position, parse_play(text))
    return position


# -- setup ------------------------------------------------------------------------------


def standard_placements() -> list[tuple[str, str, str]]:
    return [
        (side, sq, kind) for side, squares in STANDARD.setup.items() for sq, kind in squares.items()
    ]


def test_the_standard_setup_is_legal_and_has_8_a_side() -> None:
    placements = standard_placements()
    assert placement_violations(STANDARD, placements, setup=True) == []
    assert sum(side == "rebels" for side, _, _ in placements) == 8
    start = GAME.standard(0)
    assert start.occupied[0].bit_count() == start.occupied[1].bit_count() == 8
    # 68 cards: 3 drawn by the rebels, 65 left in the deck.
    assert sum(start.hands[0]) == 3
    assert len(start.deck) == 65


@pytest.mark.parametrize(("square", "legal"), [("a2", True), ("a3", False)])
def test_rebels_set_up_on_ranks_1_and_2(square: str, legal: bool) -> None:
    placements = [p for p in standard_placements() if p[1] != "a1"] + [("rebels", square, "X-Wing")]
    found = placement_violations(STANDARD, placements, setup=True)
    assert [(v.rule, v.squares) for v in found] == ([] if legal else [("setup-rank", (square,))])


@pytest.mark.parametrize(("square", "legal"), [("a7", True), ("a6", False)])
def test_the_empire_sets_up_on_ranks_7_and_8(square: str, legal: bool) -> None:
    placements = [p for p in standard_placements() if p[1] != "a8"] + [
        ("empire", square, "TIE Fighter")
    ]
    found = placement_violations(STANDARD, placements, setup=True)
    assert [v.rule for v in found] == ([] if legal else ["setup-rank"])


def test_a_setup_needs_the_tables_counts() -> None:
    placements = [p for p in standard_placements() if p[1] != "b1"]
    found = placement_violations(STANDARD, placements, setup=True)
    assert [(v.rule, v.squares) for v in found] == [("setup-count", ("a1",))]


def test_two_fighters_on_one_square_and_a_type_on_the_wrong_side() -> None:
    placements = [
        ("rebels", "a1", "X-Wing"),
        ("empire", "a1", "TIE Fighter"),
        ("rebels", "c3", "TIE Interceptor"),
    ]
    found = placement_violations(STANDARD, placements, setup=False)
    assert sorted((v.rule, v.squares) for v in found) == [
        ("two-on-square", ("a1",)),
        ("wrong-side", ("c3",)),
    ]


@pytest.mark.parametrize(("count", "legal"), [(2, True), (3, False)])
def test_a_position_holds_at_most_the_tables_count(count: int, legal: bool) -> None:
    placements = [("rebels", f"{f}4", "X-Wing") for f in "abc"[:count]]
    found = placement_violations(STANDARD, placements, setup=False)
    assert [v.rule for v in found] == ([] if legal else ["too-many"])


def test_bad_positions_are_refused() -> None:
    with pytest.raises(InvalidPositionError, match="not a square"):
        at({"z9": "X-Wing"}, {"h8": "TIE Fighter"})
    with pytest.raises(InvalidPositionError, match="unknown fighter type"):
        at({"a1": "X-wing"}, {"h8": "TIE Fighter"})
    with pytest.raises(InvalidPositionError, match="unknown card 'Blaster'"):
        at({"a1": "X-Wing"}, {"h8": "TIE Fighter"}, rebels_hand=["Blaster"])
    with pytest.raises(InvalidPositionError, match="4 copies of 'Dive' named; the deck has 3"):
        at({"a1": "X-Wing"}, {"h8": "TIE Fighter"}, rebels_hand=["Dive"] * 3, deck=["Dive"])
    at({"a1": "X-Wing"}, {"h8": "TIE Fighter"}, rebels_hand=["Dive"] * 3)  # exactly 3: fine
    with pytest.raises(InvalidPositionError, match="both sides have won"):
        at({"a1": "X-Wing"}, {"h8": "TIE Fighter"}, kills={"rebels": 5, "empire": 5})
    with pytest.raises(InvalidPositionError, match="never starts in defend"):
        at({"a1": "X-Wing"}, {"h8": "TIE Fighter"}, phase="defend")


# -- moves: lines, blocking, edges, knight jumps ------------------------------------------------


def test_a_move_card_is_an_upper_bound_along_8_lines() -> None:
    position = at({"d4": "X-Wing"}, {"h8": "TIE Fighter"}, rebels_hand=["Loop"])
    # Loop 2 from d4: 8 directions × 2 squares, all on the board and empty.
    assert targets(position, "d4", "Loop") == {
        "d5", "d6", "d3", "d2", "c4", "b4", "e4", "f4",
        "e5", "f6", "c5", "b6", "e3", "f2", "c3", "b2",
    }  # fmt: skip


def test_the_board_edge_cuts_a_line() -> None:
    position = at({"a1": "A-Wing"}, {"h8": "TIE Fighter"}, rebels_hand=["Afterburners"])
    reach = targets(position, "a1", "Afterburners")
    # North a2-a7, east b1-g1, diagonal b2-g7 (h8 holds the TIE): 6 + 6 + 6.
    assert len(reach) == 18
    assert "a7" in reach
    assert "g7" in reach
    assert "h8" not in reach


def test_own_and_enemy_fighters_block_moves() -> None:
    position = at({"d4": "X-Wing", "d6": "Y-Wing"}, {"f4": "TIE Fighter"}, rebels_hand=["Dive"])
    reach = targets(position, "d4", "Dive")
    assert "d5" in reach
    assert "d6" not in reach
    assert "d7" not in reach
    assert "e4" in reach
    assert "f4" not in reach
    assert "g4" not in reach
    assert rule_of(position, "move d4 d7 Dive") == "blocked"
    assert rule_of(position, "move d4 d6 Dive") == "occupied"
    assert rule_of(position, "move d4 g4 Dive") == "blocked"


def test_a_knight_jump_clears_a_wall() -> None:
    wall = {"c3": "X-Wing", "d3": "X-Wing", "e3": "A-Wing", "c4": "A-Wing", "e4": "B-Wing"}
    wall |= {"c5": "B-Wing", "d5": "Y-Wing", "e5": "Y-Wing"}
    position = at(wall, {"d4": "TIE Fighter"}, to_play="empire", empire_hand=["Ion Thrusters"])
    assert targets(position, "d4", "Ion Thrusters") == {
        "b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"
    }  # fmt: skip
    assert rule_of(position, "move d4 d6 Ion Thrusters") == "not-a-knight-jump"


def test_too_far_and_off_the_line() -> None:
    position = at({"d4": "X-Wing"}, {"h8": "TIE Fighter"}, rebels_hand=["Loop"])
    assert "move d4 d6 Loop" in texts(position)
    assert rule_of(position, "move d4 d7 Loop") == "too-far"
    assert rule_of(position, "move d4 e6 Loop") == "not-a-line"
    assert rule_of(position, "move d4 d5 Blasters") == "not-in-hand"
    assert rule_of(position, "move e4 e5 Loop") == "no-fighter"
    assert rule_of(position, "move h8 h7 Loop") == "not-your-fighter"


# -- who may play a card -------------------------------------------------------------------


def test_an_x_wing_fires_laser_cannons_at_range_5_and_not_6() -> None:
    position = at(
        {"a1": "X-Wing"}, {"a6": "TIE Fighter", "b7": "TIE Fighter"}, phase="fire",
        rebels_hand=["Laser Cannons"],
    )  # fmt: skip
    assert targets(position, "a1", "Laser Cannons", "fire") == {"a6"}
    assert rule_of(position, "fire a1 b7 Laser Cannons") == "not-a-line"
    far = at({"a1": "X-Wing"}, {"a7": "TIE Fighter"}, phase="fire", rebels_hand=["Laser Cannons"])
    assert rule_of(far, "fire a1 a7 Laser Cannons") == "out-of-range"


def test_a_b_wing_cannot_dive_but_may_pursue() -> None:
    position = at({"d1": "B-Wing"}, {"h8": "TIE Fighter"}, rebels_hand=["Dive", "Pursuit"])
    assert targets(position, "d1", "Dive") == set()
    assert "d5" in targets(position, "d1", "Pursuit")
    assert rule_of(position, "move d1 d3 Dive") == "card-restriction"
    # An A-Wing (Move 6) may play Dive.
    a_wing = at({"d1": "A-Wing"}, {"h8": "TIE Fighter"}, rebels_hand=["Dive"])
    assert "d6" in targets(a_wing, "d1", "Dive")


def test_deflector_shields_only_for_rebels() -> None:
    rebel_target = at({"d1": "X-Wing"}, {"d4": "TIE Fighter"}, phase="fire", to_play="empire",
                      rebels_hand=["Deflector Shields"], empire_hand=["Targeters"])  # fmt: skip
    push(rebel_target, "fire d4 d1 Targeters")
    assert texts(rebel_target) == {"defend Deflector Shields", "take"}
    empire_target = at({"d1": "X-Wing"}, {"d4": "TIE Fighter"}, phase="fire",
                       rebels_hand=["Fire-Linked"], empire_hand=["Deflector Shields"])  # fmt: skip
    push(empire_target, "fire d1 d4 Fire-Linked")
    assert texts(empire_target) == {"take"}
    assert rule_of(empire_target, "defend Deflector Shields") == "card-restriction"


def test_ion_thrusters_for_the_empire_only_and_laser_turret_for_y_wings() -> None:
    rebels = at({"d4": "X-Wing"}, {"h8": "TIE Fighter"}, rebels_hand=["Ion Thrusters"])
    assert rule_of(rebels, "move d4 e6 Ion Thrusters") == "card-restriction"
    wall = {"c3": "X-Wing", "c4": "X-Wing", "d3": "A-Wing", "e3": "A-Wing"}
    y_wing = at(wall | {"d4": "Y-Wing"}, {"e6": "TIE Fighter", "b5": "TIE Fighter"},
                phase="fire", rebels_hand=["Laser Turret"])  # fmt: skip
    # A knight's-jump shot, unblocked: both enemies on knight squares are targets.
    assert targets(y_wing, "d4", "Laser Turret", "fire") == {"e6", "b5"}
    assert rule_of(y_wing, "fire c3 b5 Laser Turret") == "card-restriction"


def test_tight_turns_for_tie_fighters_and_agility_for_a_wings() -> None:
    for kind, legal in (("TIE Fighter", True), ("TIE Interceptor", False)):
        position = at({"d1": "X-Wing"}, {"d3": kind}, phase="fire",
                      rebels_hand=["Blasters", "Attack Run"], empire_hand=["Tight Turns"])  # fmt: skip
        push(position, "fire d1 d3 Attack Run")
        assert ("defend Tight Turns" in texts(position)) is legal
    for kind, legal in (("A-Wing", True), ("B-Wing", False)):
        position = at({"d1": kind}, {"d3": "TIE Fighter"}, phase="fire", to_play="empire",
                      rebels_hand=["Agility"], empire_hand=["Attack Run"])  # fmt: skip
        push(position, "fire d3 d1 Attack Run")
        assert ("defend Agility" in texts(position)) is legal


# -- fire ----------------------------------------------------------------------------------


def test_shots_are_blocked_by_own_and_enemy_fighters() -> None:
    position = at(
        {"a1": "X-Wing", "a3": "Y-Wing"},
        {"a5": "TIE Fighter", "c3": "TIE Fighter", "d4": "TIE Fighter"},
        phase="fire",
        rebels_hand=["Fire-Linked"],
    )
    # North: own Y-Wing on a3 first. Diagonal: enemy c3 first, d4 behind it.
    assert targets(position, "a1", "Fire-Linked", "fire") == {"c3"}
    assert rule_of(position, "fire a1 a5 Fire-Linked") == "blocked"
    assert rule_of(position, "fire a1 d4 Fire-Linked") == "blocked"
    assert rule_of(position, "fire a1 a3 Fire-Linked") == "own-target"
    assert rule_of(position, "fire a1 b2 Fire-Linked") == "no-target"


@pytest.mark.parametrize(("distance", "legal"), [(3, True), (4, False)])
def test_a_shot_reaches_exactly_the_cards_value(distance: int, legal: bool) -> None:
    target = f"a{1 + distance}"
    position = at({"a1": "Y-Wing"}, {target: "TIE Fighter"}, phase="fire",
                  rebels_hand=["Targeters"])  # fmt: skip
    assert (targets(position, "a1", "Targeters", "fire") == {target}) is legal


# -- the group advance ---------------------------------------------------------------------


def test_the_group_advance_moves_front_most_first() -> None:
    position = at({"b2": "X-Wing", "b1": "X-Wing", "c1": "Y-Wing"}, {"h8": "TIE Fighter"},
                  rebels_hand=["Maneuver"])  # fmt: skip
    push(position, "advance Maneuver")
    assert sorted(position.fighters(0)) == [9, 10, 17]  # b2, c2, b3


def test_blocked_too_slow_and_edge_fighters_stay() -> None:
    rebels = {"a1": "A-Wing", "b1": "Y-Wing", "c3": "X-Wing", "d4": "A-Wing"}
    position = at(rebels, {"c6": "TIE Fighter"}, rebels_hand=["Dive"])
    push(position, "advance Dive")
    # A-Wing a1 -> a6; Y-Wing (Move 4) stays; X-Wing c3 is blocked by the TIE on c6;
    # A-Wing d4 -> d9 would leave the board.
    assert sorted(position.fighters(0)) == [1, 18, 27, 40]  # b1, c3, d4, a6


def test_an_advance_that_moves_no_fighter_is_illegal() -> None:
    position = at({"a8": "X-Wing", "b1": "Y-Wing"}, {"h1": "TIE Fighter"},
                  rebels_hand=["Dive", "Maneuver"])  # fmt: skip
    assert "advance Dive" not in texts(position)
    assert "advance Maneuver" in texts(position)
    assert rule_of(position, "advance Dive") == "advance-blocked"
    empire = at({"a1": "X-Wing"}, {"d4": "TIE Fighter"}, to_play="empire",
                empire_hand=["Ion Thrusters"])  # fmt: skip
    assert rule_of(empire, "advance Ion Thrusters") == "knight-advance"


def test_the_empire_advances_toward_rank_1() -> None:
    position = at({"a1": "X-Wing"}, {"e7": "TIE Fighter"}, to_play="empire",
                  empire_hand=["Loop"])  # fmt: skip
    push(position, "advance Loop")
    assert position.fighters(1) == [36]  # e5


# -- defence, kills, victory, the draw rule ----------------------------------------------------


def test_a_defence_card_cancels_the_shot_and_take_loses_the_fighter() -> None:
    def shot() -> Position:
        position = at({"d1": "X-Wing"}, {"d3": "TIE Fighter", "h8": "TIE Fighter"},
                      phase="fire", rebels_hand=["Attack Run"], empire_hand=["Evasion"],
                      deck=["Loop"] * 5)  # fmt: skip
        return push(position, "fire d1 d3 Attack Run")

    position = shot()
    assert position.phase == DEFEND
    assert GAME.side_to_play(position) == "empire"
    assert texts(position) == {"defend Evasion", "take"}
    push(position, "defend Evasion")
    assert position.occupied[1].bit_count() == 2
    assert position.kills == [0, 0]
    assert GAME.side_to_play(position) == "empire"
    assert position.phase == MOVE
    assert position.quiet_turns == 1
    taken = push(shot(), "take")
    assert taken.occupied[1].bit_count() == 1
    assert taken.kills == [1, 0]
    assert taken.quiet_turns == 0
    assert taken.phase == MOVE


@pytest.mark.parametrize(("kills", "over"), [(4, True), (3, False)])
def test_victory_on_the_5th_kill(kills: int, over: bool) -> None:
    position = at({"d1": "X-Wing"}, {"d3": "TIE Fighter", "h8": "TIE Fighter"}, phase="fire",
                  rebels_hand=["Attack Run"], kills={"rebels": kills})  # fmt: skip
    push(position, "fire d1 d3 Attack Run", "take")
    outcome = GAME.outcome(position)
    assert (outcome is not None and outcome.winner == "rebels") is over
    if over:
        assert position.phase == OVER
        assert GAME.legal_plays(position) == []
        assert rule_of(position, "pass") == "game-over"


def test_destroying_the_last_enemy_fighter_wins() -> None:
    position = at({"d1": "X-Wing"}, {"d3": "TIE Fighter"}, phase="fire",
                  rebels_hand=["Attack Run"])  # fmt: skip
    push(position, "fire d1 d3 Attack Run", "take")
    assert GAME.winner(position) == "rebels"
    assert position.kills == [1, 0]


def test_a_file_at_5_kills_is_over() -> None:
    position = at({"d1": "X-Wing"}, {"d3": "TIE Fighter"}, kills={"empire": 5})
    assert GAME.winner(position) == "empire"
    assert GAME.legal_plays(position) == []


@pytest.mark.parametrize(("quiet", "draw"), [(99, True), (98, False)])
def test_100_quiet_turns_are_a_draw(quiet: int, draw: bool) -> None:
    position = at({"d1": "X-Wing"}, {"d8": "TIE Fighter"}, quiet_turns=quiet)
    push(position, "pass", "pass")
    assert (GAME.winner(position) == "draw") is draw
    assert position.quiet_turns == quiet + 1
    assert GAME.winner(at({"d1": "X-Wing"}, {"d8": "TIE Fighter"}, quiet_turns=100)) == "draw"


# -- cards: the vector phase, tactics, the reshuffle -------------------------------------------


def test_the_vector_phase_discards_down_to_5() -> None:
    hand = ["Loop", "Loop", "Evasion", "Tactics", "Dive"]
    position = at({"d1": "X-Wing"}, {"d8": "TIE Fighter"}, phase="vector", rebels_hand=hand,
                  deck=["Blasters", "Maneuver", "Loop"])  # fmt: skip
    assert position.phase == VECTOR
    assert sum(position.hands[0]) == 8
    plays = texts(position)
    assert "discard Blasters Dive Evasion" in plays
    assert "tactics" in plays
    assert rule_of(position, "discard Loop Loop") == "discard-count"
    assert rule_of(position, "discard Loop Loop Loop Loop") == "discard-count"
    assert rule_of(position, "discard Pursuit Loop Loop") == "not-in-hand"
    assert rule_of(position, "pass") == "wrong-phase"
    push(position, "discard Loop Loop Tactics")
    assert position.phase == MOVE
    assert sum(position.hands[0]) == 5


def test_with_5_cards_or_fewer_the_move_phase_begins_at_once() -> None:
    position = at({"d1": "X-Wing"}, {"d8": "TIE Fighter"}, phase="vector",
                  rebels_hand=["Loop", "Dive"], deck=["Blasters", "Maneuver", "Loop"])  # fmt: skip
    assert position.phase == MOVE
    assert sum(position.hands[0]) == 5


def test_tactics_goes_to_the_discard_first_so_a_reshuffle_brings_it_back() -> None:
    position = at({"d1": "X-Wing"}, {"d8": "TIE Fighter"}, rebels_hand=["Tactics"], deck=[])
    push(position, "tactics")
    # The draw of 2: the deck is empty, the discard (Tactics) becomes the deck, Tactics is
    # drawn, and the second draw stops short.
    assert position.hands[0][GAME.tables.index["Tactics"]] == 1
    assert sum(position.hands[0]) == 1
    assert position.deck == []
    assert position.discard == []
    assert position.phase == MOVE


def test_tactics_draws_2_in_the_fire_phase() -> None:
    position = at({"d1": "X-Wing"}, {"d6": "TIE Fighter"}, phase="fire",
                  rebels_hand=["Tactics"], deck=["Laser Cannons", "Evasion", "Loop"])  # fmt: skip
    push(position, "tactics")
    assert position.phase == FIRE
    assert texts(position) == {"fire d1 d6 Laser Cannons", "pass"}
    assert [GAME.tables.names[c] for c in position.discard] == ["Tactics"]


def test_an_empty_deck_reshuffles_the_discard_at_the_next_draw() -> None:
    position = at({"d1": "X-Wing"}, {"d8": "TIE Fighter"}, rebels_hand=["Loop"],
                  deck=["Evasion"], discard=["Dive", "Blasters"])  # fmt: skip
    push(position, "move d1 d3 Loop", "pass")
    # The empire draws Evasion, then the deck is the discard (Dive, Blasters, Loop)
    # shuffled, and two of them come to hand.
    hand = position.hands[1]
    assert sum(hand) == 3
    assert hand[GAME.tables.index["Evasion"]] == 1
    assert len(position.deck) == 1
    assert position.discard == []
    drawn = {GAME.tables.names[c] for c, n in enumerate(hand) if n} - {"Evasion"}
    assert drawn | {GAME.tables.names[position.deck[0]]} == {"Dive", "Blasters", "Loop"}


def test_a_turn_passes_to_the_other_side_after_fire_or_defence() -> None:
    position = at({"d1": "X-Wing"}, {"d8": "TIE Fighter"}, rebels_hand=["Loop"],
                  deck=["Loop", "Dive", "Maneuver"])  # fmt: skip
    push(position, "pass")
    assert position.phase == FIRE
    assert GAME.side_to_play(position) == "rebels"
    push(position, "pass")
    assert GAME.side_to_play(position) == "empire"
    assert sum(position.hands[1]) == 3


# -- reading plays, replay ----------------------------------------------------------------------


def test_play_texts_are_canonical() -> None:
    assert str(parse_play("  move  b1   b4 Pursuit ")) == "move b1 b4 Pursuit"
    assert str(parse_play("discard Tight Turns Break Away Blasters")) == (
        "discard Blasters Break Away Tight Turns"
    )
    # A card name is read without regard to case and printed as the table spells it.
    assert str(parse_play("move b1 b4 pursuit")) == "move b1 b4 Pursuit"
    for bad in ("move b1 b4", "fire a1 z9 Blasters", "move b1 b4 pursuitt", "jump", "take now"):
        with pytest.raises(InvalidPlayError):
            parse_play(bad)


def test_replay_names_the_first_illegal_play_and_its_rule() -> None:
    start = at({"b1": "X-Wing"}, {"h8": "TIE Fighter"}, rebels_hand=["Pursuit", "Blasters"])
    with pytest.raises(ReplayError) as caught:
        replay(GAME, start, ["move b1 b4 Pursuit", "fire b4 h8 Blasters"])
    assert caught.value.number == 2
    assert caught.value.rule == "not-a-line"


# -- the rulings are options -------------------------------------------------------------------


def other(**rulings: Any) -> Dogfight:
    return Dogfight(dataclasses.replace(STANDARD, **rulings))


def test_exact_moves_when_the_number_is_read_as_exact() -> None:
    game = other(move_up_to=False)
    position = game.position({"rebels": {"d4": "X-Wing"}, "empire": {"h8": "TIE Fighter"}},
                             phase="move", hands={"rebels": ["Loop"]})  # fmt: skip
    moves = {str(p).split()[2] for p in game.legal_plays(position) if str(p).startswith("move")}
    assert moves == {"d6", "d2", "b4", "f4", "f6", "b6", "f2", "b2"}
    with pytest.raises(IllegalPlayError, match="wrong-distance"):
        game.push(position.copy(), parse_play("move d4 d5 Loop"))


def test_an_advance_that_needs_every_fighter() -> None:
    fighters = {"rebels": {"a1": "X-Wing", "b1": "Y-Wing"}, "empire": {"b3": "TIE Fighter"}}
    for needs_all, legal in ((False, True), (True, False)):
        game = other(advance_needs_all=needs_all)
        position = game.position(fighters, phase="move", hands={"rebels": ["Loop"]})
        assert ("advance Loop" in {str(p) for p in game.legal_plays(position)}) is legal


def test_shots_over_own_fighters_when_they_do_not_block() -> None:
    fighters = {"rebels": {"a1": "X-Wing", "a2": "Y-Wing"}, "empire": {"a4": "TIE Fighter"}}
    for blocked, legal in ((True, False), (False, True)):
        game = other(shots_blocked_by_own=blocked)
        position = game.position(fighters, phase="fire", hands={"rebels": ["Targeters"]})
        assert ("fire a1 a4 Targeters" in {str(p) for p in game.legal_plays(position)}) is legal


def test_restricted_cards_that_also_ask_the_stat() -> None:
    game = other(restricted_ignores_stats=False)
    position = game.position({"rebels": {"a1": "X-Wing"}, "empire": {"a5": "TIE Fighter"}},
                             phase="fire", hands={"rebels": ["Laser Cannons"]})  # fmt: skip
    assert [str(p) for p in game.legal_plays(position)] == ["pass"]


def test_the_empire_may_play_first() -> None:
    game = other(first_side="empire")
    assert game.side_to_play(game.standard(0)) == "empire"
