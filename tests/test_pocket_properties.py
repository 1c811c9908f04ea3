"""Invariants over simulated battles: listed plays replay, battles end, logs reproduce."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.boards import Rng, random_policy, replay
from tabletop.boards.pocket import Battle, PocketBattles, PocketState, example_battle, greedy_policy

BATTLES = st.builds(
    example_battle,
    size=st.sampled_from([60, 80]),
    deployed=st.booleans(),
    seed=st.integers(0, 2**32),
)


def run(game: PocketBattles, state: PocketState, seed: int, check_listed: bool) -> list[str]:
    rng = Rng(seed)
    texts: list[str] = []
    policies = (random_policy, greedy_policy)
    for _ in range(20_000):
        # Tokens and wounds are conserved: pool + spent + orders + wounds = the allotment.
        for player in (1, 2):
            assert state.token_total(player) == state.allotment[player]
        if game.outcome(state) is not None:
            return texts
        decision = game.decision(state)
        if check_listed:
            for play, _ in decision.plays:
                game.push(state.copy(), play)
        plays = game.legal_plays(state)
        assert plays, f"no play at a {decision.kind} decision"
        if decision.kind != "roll":
            assert plays == [p for p, _ in decision.plays]
        policy = policies[seed % 2] if decision.player == 1 else random_policy
        play = policy(game, state, plays, rng)
        texts.append(game.play_text(play))
        game.push(state, play)
    raise AssertionError("the battle did not end in 20,000 plays")


@settings(max_examples=12)
@given(battle=BATTLES, seed=st.integers(0, 2**32))
def test_every_listed_play_replays_and_every_battle_ends(battle: Battle, seed: int) -> None:
    game = PocketBattles(battle)
    state = game.start()
    texts = run(game, state, seed, check_listed=True)
    assert game.outcome(state) is not None
    # Replaying the log from the start reproduces the final position.
    again = replay(game, game.start(), texts).state
    assert again.signature() == state.signature()


@settings(max_examples=30)
@given(battle=BATTLES, seed=st.integers(0, 2**32))
def test_a_log_without_its_rolls_replays_to_the_same_battle(battle: Battle, seed: int) -> None:
    # Dice due with no roll play come from the battle's seed: dropping every roll from a
    # log played with the seed's dice changes nothing.
    game = PocketBattles(battle)
    state = game.start()
    texts = run(game, state, seed, check_listed=False)
    # (Rolls at the very end have no play after them to draw them: they stay.)
    last = max(i for i, t in enumerate(texts) if not t.startswith("roll "))
    without = [t for t in texts[: last + 1] if not t.startswith("roll ")] + texts[last + 1 :]
    again = replay(game, game.start(), without).state
    assert again.signature() == state.signature()
