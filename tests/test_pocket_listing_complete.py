"""`actions` lists every play `replay` accepts: each play the engine takes is listed.

From positions along random battles, every play text that could be written for the
battle's units, troops and zones is pushed on a copy of the position; each one the engine
accepts must be among the listed plays of the decision (``surrender``, always legal, is
not listed, as the contract says; at a roll the dice are the only play). A kill of a
troop whose next wound removes it anyway is one of them (``kill TROOP`` for every troop
that may take a hit).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.boards import IllegalPlayError, Rng, random_policy
from tabletop.boards.pocket import Battle, PocketBattles, PocketState, example_battle
from tabletop.boards.pocket.zones import ZONES

BATTLES = st.builds(
    example_battle,
    size=st.sampled_from([60, 80]),
    deployed=st.booleans(),
    seed=st.integers(0, 2**32),
)


def every_play_text(battle: Battle) -> list[str]:
    """Every play text the battle's names can make (but surrender and roll)."""
    units = [u for army in battle.armies for u in army.units]
    troops = [t.id for u in units for t in u.troops]
    texts = ["end", "pass", "no spur", "react wait"]
    for u in units:
        texts += [f"{word} {u.id} {z}" for word in ("deploy", "reposition") for z in ZONES]
        texts += [f"order {u.id} move {z}" for z in ZONES]
        texts += [f"order {u.id} {word}" for word in ("charge", "leave")]
        texts += [f"order {u.id} trait {name}" for name in ("spur", "double order")]
        texts += [f"react {word} {u.id}" for word in ("intercept", "shoot")]
        texts.append(f"target {u.id}")
        texts += [f"order {u.id} {word} {v.id}" for word in ("shoot", "join") for v in units]
    texts += [f"{word} {t}" for word in ("wound", "kill", "remove") for t in troops]
    return texts


def accepted(game: PocketBattles, state: PocketState, texts: list[str]) -> set[str]:
    taken = set()
    for text in texts:
        try:
            game.push(state.copy(), game.parse_play(text))
        except IllegalPlayError:
            continue
        taken.add(text)
    return taken


@settings(max_examples=8, deadline=None)
@given(
    battle=BATTLES,
    seed=st.integers(0, 2**32),
    looked_at=st.sets(st.integers(0, 400), min_size=4, max_size=12),
)
def test_every_play_the_engine_accepts_is_listed(
    battle: Battle, seed: int, looked_at: set[int]
) -> None:
    game = PocketBattles(battle)
    state = game.start()
    texts = every_play_text(battle)
    rng = Rng(seed)
    step = 0
    while game.outcome(state) is None and step <= max(looked_at):
        decision = game.decision(state)
        if step in looked_at and decision.kind != "roll":
            listed = {game.play_text(p) for p, _ in decision.plays}
            assert accepted(game, state, texts) <= listed, decision.kind
        game.push(state, random_policy(game, state, game.legal_plays(state), rng))
        step += 1


def test_a_one_wound_troop_may_be_killed_and_the_kill_is_listed() -> None:
    # The example's spears have 1 wound point each: a hit removes one whether it is
    # written wound or kill, and both are listed and accepted.
    game = PocketBattles(example_battle(60, deployed=True, seed=5))
    state = game.start()
    rng = Rng(1)
    for _ in range(2000):
        decision = game.decision(state)
        if decision.kind == "hits":
            break
        game.push(state, random_policy(game, state, game.legal_plays(state), rng))
    assert decision.kind == "hits"
    listed = [game.play_text(p) for p, _ in decision.plays]
    troops = [t for u in state.units.values() for t in u.troops if f"wound {t.id}" in listed]
    assert troops
    for troop in troops:
        assert f"kill {troop.id}" in listed
        after = state.copy()
        game.push(after, game.parse_play(f"kill {troop.id}"))
        assert all(t.id != troop.id for u in after.units.values() for t in u.troops)
