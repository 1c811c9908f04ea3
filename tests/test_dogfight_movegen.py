"""The bitboard generator against a slow one written here from the rules text.

The slow generator walks every line square by square, reads who may play a card from
the card table itself, and lists discards as combinations of the hand; it shares no
code with the engine's generation. The two must give the same plays on hundreds of
random positions, and the same perft counts; small counts are also worked out by hand.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.boards import IllegalPlayError, Rng, replay
from tabletop.boards.dogfight import STANDARD, Card, Dogfight, FighterType, Position, parse_play
from tabletop.boards.dogfight.policies import TrustedDogfight, greedy_policy, simulate_dogfight
from tabletop.boards.dogfight.position import DEFEND, FIRE, MOVE, OVER, VECTOR
from tabletop.boards.game import random_policy

GAME = Dogfight()
LINES = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
JUMPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


def name(f: int, r: int) -> str:
    return "abcdefgh"[f] + str(r + 1)


def allowed(card: Card, fighter: FighterType) -> bool:
    # The contract's ruling, read off the table: a restricted card goes to its sides or
    # types whatever the stats; an unrestricted one needs Move (Range) >= its value.
    if card.only:
        return fighter.name in card.only or fighter.side in card.only
    if card.kind == "move" and card.value is not None:
        return fighter.move >= card.value
    if card.kind == "attack" and card.value is not None:
        return fighter.range >= card.value
    return True


Ships = dict[tuple[int, int], tuple[int, FighterType]]
Mine = list[tuple[int, int, FighterType]]


def on_board(f: int, r: int) -> bool:
    return 0 <= f < 8 and 0 <= r < 8


def slow_ships(position: Position) -> Ships:
    """(file, rank) -> (side, fighter type) of every fighter, read square by square."""
    ships: Ships = {}
    for sq in range(64):
        if position.board[sq] >= 0:
            side = 0 if position.occupied[0] >> sq & 1 else 1
            ships[(sq % 8, sq // 8)] = (side, STANDARD.fighters[position.board[sq]])
    return ships


def slow_plays(position: Position) -> list[str]:
    """Every legal play, from the rules text, by walking the squares one at a time."""
    if position.phase == OVER:
        return []
    ships = slow_ships(position)
    me = position.to_play
    deciding = 1 - me if position.phase == DEFEND else me
    hand = [
        STANDARD.cards[c].name for c, n in enumerate(position.hands[deciding]) for _ in range(n)
    ]
    cards = [STANDARD.card(n) for n in sorted(set(hand))]
    if position.phase == DEFEND:
        assert position.shot is not None
        return [*slow_defences(ships, position.shot[1], cards), "take"]
    out: list[str] = []
    mine = [(f, r, fighter) for (f, r), (side, fighter) in ships.items() if side == me]
    if position.phase == VECTOR:
        out.extend(slow_discards(hand))
    if position.phase == MOVE:
        out.extend(slow_moves(ships, mine, cards))
        out.extend(slow_advances(ships, mine, cards, forward=1 if me == 0 else -1))
    if position.phase == FIRE:
        out.extend(slow_fires(ships, mine, cards, me))
    if "Tactics" in hand:
        out.append("tactics")
    if position.phase in (MOVE, FIRE):
        out.append("pass")
    return out


def slow_discards(hand: list[str]) -> list[str]:
    throw = len(hand) - 5
    combos = {tuple(sorted(c)) for c in itertools.combinations(hand, throw)}
    return ["discard " + " ".join(combo) for combo in combos]


def slow_defences(ships: Ships, target: int, cards: list[Card]) -> list[str]:
    fighter = ships[(target % 8, target // 8)][1]
    return [
        f"defend {card.name}" for card in cards if card.kind == "defence" and allowed(card, fighter)
    ]


def slow_moves(ships: Ships, mine: Mine, cards: list[Card]) -> list[str]:
    out: list[str] = []
    for f, r, fighter in mine:
        for card in cards:
            if card.kind != "move" or not allowed(card, fighter):
                continue
            if card.knight:
                for df, dr in JUMPS:
                    g, s = f + df, r + dr
                    if on_board(g, s) and (g, s) not in ships:
                        out.append(f"move {name(f, r)} {name(g, s)} {card.name}")
                continue
            assert card.value is not None
            for df, dr in LINES:
                for k in range(1, card.value + 1):
                    g, s = f + k * df, r + k * dr
                    if not on_board(g, s) or (g, s) in ships:
                        break
                    out.append(f"move {name(f, r)} {name(g, s)} {card.name}")
    return out


def slow_advances(ships: Ships, mine: Mine, cards: list[Card], forward: int) -> list[str]:
    out: list[str] = []
    for card in cards:
        if card.kind != "move" or card.knight:
            continue
        assert card.value is not None
        taken = set(ships)
        moved = 0
        for f, r, fighter in sorted(mine, key=lambda m: -m[1] * forward):
            path = [(f, r + forward * k) for k in range(1, card.value + 1)]
            if not allowed(card, fighter):
                continue
            if all(0 <= s < 8 and (g, s) not in taken for g, s in path):
                taken.discard((f, r))
                taken.add(path[-1])
                moved += 1
        if moved:
            out.append(f"advance {card.name}")
    return out


def slow_fires(ships: Ships, mine: Mine, cards: list[Card], me: int) -> list[str]:
    out: list[str] = []
    for f, r, fighter in mine:
        for card in cards:
            if card.kind != "attack" or not allowed(card, fighter):
                continue
            if card.knight:
                for df, dr in JUMPS:
                    hit = ships.get((f + df, r + dr))
                    if hit is not None and hit[0] != me:
                        out.append(f"fire {name(f, r)} {name(f + df, r + dr)} {card.name}")
                continue
            assert card.value is not None
            for df, dr in LINES:
                target = slow_first_hit(ships, f, r, df, dr, card.value)
                if target is not None and ships[target][0] != me:
                    out.append(f"fire {name(f, r)} {name(*target)} {card.name}")
    return out


def slow_first_hit(
    ships: Ships, f: int, r: int, df: int, dr: int, reach: int
) -> tuple[int, int] | None:
    """The first fighter met along a line within `reach` squares, own or enemy."""
    for k in range(1, reach + 1):
        g, s = f + k * df, r + k * dr
        if not on_board(g, s):
            return None
        if (g, s) in ships:
            return (g, s)
    return None


def slow_perft(position: Position, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for text in slow_plays(position):
        child = position.copy()
        GAME.push(child, parse_play(text))
        total += slow_perft(child, depth - 1)
    return total


def random_position(rng: random.Random) -> Position:
    """Fighters anywhere (within the table's counts), cards dealt at random, any phase."""
    free = list(range(64))
    rng.shuffle(free)
    fighters: dict[str, dict[str, str]] = {"rebels": {}, "empire": {}}
    for fighter in STANDARD.fighters:
        for _ in range(rng.randint(0 if rng.random() < 0.5 else 1, fighter.count)):
            sq = free.pop()
            fighters[fighter.side][name(sq % 8, sq // 8)] = fighter.name
    for side, kind in (("rebels", "X-Wing"), ("empire", "TIE Fighter")):
        if not fighters[side]:
            sq = free.pop()
            fighters[side][name(sq % 8, sq // 8)] = kind
    deck = [card.name for card in STANDARD.cards for _ in range(card.count)]
    rng.shuffle(deck)
    a, b, d = rng.randint(0, 9), rng.randint(0, 9), rng.randint(0, 20)
    hands = {"rebels": deck[:a], "empire": deck[a : a + b]}
    discard = deck[a + b : a + b + d]
    rest = deck[a + b + d :][: rng.choice([0, 2, 10, 68])]
    position = GAME.position(
        fighters,
        to_play=rng.choice(["rebels", "empire"]),
        phase=rng.choice(["vector", "move", "fire"]),
        seed=rng.randint(0, 1000),
        hands=hands,
        deck=rest,
        discard=discard,
        kills={"rebels": rng.randint(0, 4), "empire": rng.randint(0, 4)},
    )
    fires = [p for p in GAME.legal_plays(position) if str(p).startswith("fire")]
    if fires and rng.random() < 0.5:
        GAME.push(position, rng.choice(fires))  # into the defend phase
    return position


def played_positions(games: int, seed: int) -> list[Position]:
    """Positions met along random games from the standard setup."""
    trusted = TrustedDogfight()
    rng = Rng(seed)
    out = []
    for g in range(games):
        position = trusted.standard(seed * 1000 + g)
        while position.phase != OVER:
            if rng.below(6) == 0:
                out.append(position.copy())
            trusted.push(position, rng.choice(trusted.legal_plays(position)))
    return out


def engine_texts(position: Position) -> list[str]:
    return sorted(str(p) for p in GAME.legal_plays(position))


def test_the_generators_agree_on_300_random_positions() -> None:
    rng = random.Random(20260101)
    phases = set()
    for _ in range(300):
        position = random_position(rng)
        phases.add(position.phase)
        assert engine_texts(position) == sorted(slow_plays(position)), GAME.describe(position)
    assert phases == {VECTOR, MOVE, FIRE, DEFEND}


def test_the_generators_agree_along_random_games() -> None:
    positions = played_positions(14, 5)
    assert len(positions) > 200
    for position in positions:
        assert engine_texts(position) == sorted(slow_plays(position))


def test_perft_equals_the_slow_perft_on_random_positions() -> None:
    rng = random.Random(7)
    for _ in range(40):
        position = random_position(rng)
        assert GAME.perft(position, 2) == slow_perft(position, 2)
    for position in played_positions(2, 9)[:12]:
        assert GAME.perft(position, 3) == slow_perft(position, 3)


def test_perft_of_the_standard_setup_by_hand() -> None:
    start = GAME.standard(11)
    assert sorted(GAME.describe(start)["cards"]["rebels"]) == [  # type: ignore[index]
        "Attack Run", "Laser Turret", "Maneuver",
    ]  # fmt: skip
    # Maneuver for each fighter of rank 1 onto rank 2: a1 and h1 have 2 squares, b1-g1
    # have 3 (straight and both diagonals); the group advance; pass. No shot from rank 1.
    assert GAME.perft(start, 0) == 1
    assert GAME.perft(start, 1) == 2 + 6 * 3 + 2 + 1 + 1 == 24
    # After any of them the fire phase has only pass: no enemy within 2, no knight
    # target for the Y-Wings' Laser Turret.
    assert GAME.perft(start, 2) == 24


def test_a_small_perft_by_hand() -> None:
    position = GAME.position(
        {"rebels": {"a1": "X-Wing"}, "empire": {"h8": "TIE Fighter"}},
        phase="move",
        hands={"rebels": ["Maneuver"]},
        deck=["Blasters", "Evasion", "Loop"],
    )
    # a2, b1, b2, the advance (a1 -> a2), pass.
    assert GAME.perft(position, 1) == 5
    # Then the fire phase: no card, only pass.
    assert GAME.perft(position, 2) == 5
    # The empire draws Blasters, Evasion, Loop: Loop from the h8 corner reaches g8, f8,
    # h7, h6, g7, f6; the advance h8 -> h6; pass. None of the X-Wing's squares is in the
    # way, so 5 × 8.
    assert GAME.perft(position, 3) == 40
    assert GAME.perft(position, 3) == slow_perft(position, 3)


def test_a_finished_game_has_no_plays_and_adds_nothing_to_perft() -> None:
    position = GAME.position(
        {"rebels": {"a1": "X-Wing"}, "empire": {"h8": "TIE Fighter"}}, kills={"rebels": 5}
    )
    assert GAME.legal_plays(position) == []
    assert GAME.perft(position, 2) == 0
    assert GAME.perft(position, 0) == 1


def test_generated_plays_are_distinct() -> None:
    rng = random.Random(3)
    for _ in range(100):
        plays = GAME.legal_plays(random_position(rng))
        assert len(plays) == len(set(plays))


@given(st.integers(0, 2**32))
def test_every_generated_play_replays(seed: int) -> None:
    position = random_position(random.Random(seed))
    for play in GAME.legal_plays(position):
        assert parse_play(str(play)) == play
        child = position.copy()
        GAME.push(child, play)  # checked: the judge finds every generated play legal
        total = sum(map(sum, child.hands)) + len(child.deck) + len(child.discard)
        assert total == sum(map(sum, position.hands)) + len(position.deck) + len(position.discard)


@given(st.integers(0, 2**32), st.sampled_from(["random", "greedy"]))
def test_replay_of_a_simulated_game_reproduces_its_end(seed: int, policy: str) -> None:
    chosen = greedy_policy if policy == "greedy" else random_policy
    result, log = simulate_dogfight(
        GAME, {"rebels": chosen, "empire": random_policy}, games=1, seed=seed
    )
    final = replay(GAME, GAME.standard(log.seed), list(log.plays)).state
    outcome = GAME.outcome(final)
    assert outcome is not None
    assert outcome.length == result.lengths.longest
    winner = outcome.winner
    assert (result.draws == 1) if winner is None else (result.wins[winner] == 1)
    # And the same plays, pushed unchecked from the same start, give the same position.
    again = GAME.standard(log.seed)
    for text in log.plays:
        GAME.push_unchecked(again, GAME.parse_play(text))
    assert again == final


def test_the_simulation_engine_judges_any_play_it_did_not_just_generate() -> None:
    trusted = TrustedDogfight()
    position = trusted.standard(11)
    plays = trusted.legal_plays(position)
    with pytest.raises(IllegalPlayError, match="too-far"):
        trusted.push(position, parse_play("move a1 a3 Maneuver"))
    twin = position.copy()
    trusted.push(twin, plays[-1])  # generated for `position`, not its copy: judged, legal
    assert twin.phase == FIRE
    trusted.push(position, plays[0])
    with pytest.raises(IllegalPlayError):
        trusted.push(position, plays[0])  # the list was for the ply before


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_games_always_end(seed: int) -> None:
    result, _ = simulate_dogfight(
        GAME, {"rebels": random_policy, "empire": random_policy}, games=20, seed=seed
    )
    assert result.games == 20
    assert sum(result.wins.values()) + result.draws == 20


def test_big_hands_list_every_discard_once() -> None:
    # Hands over 12 cards take the multiset path; the slow generator takes combinations.
    rng = random.Random(8)
    deck = [card.name for card in STANDARD.cards for _ in range(card.count)]
    for size in (10, 11, 14, 17):
        rng.shuffle(deck)
        position = GAME.position(
            {"rebels": {"a1": "X-Wing"}, "empire": {"h8": "TIE Fighter"}},
            phase="vector",
            hands={"rebels": deck[:size]},
            deck=deck[size : size + 3],
        )
        assert position.phase == VECTOR
        assert sum(position.hands[0]) == size + 3
        assert engine_texts(position) == sorted(slow_plays(position))
