"""Random scenes written as VASSAL saves (any encoding) read back within the resolution."""

from __future__ import annotations

from clients_vassal_writer import (
    OFFSETS,
    VObstacle,
    VShip,
    obstacle_command,
    saved_game,
    ship_command,
    vsav,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.app.clients import read_client
from tabletop.app.clients.vassal_codec import join_tokens, split_nested, split_tokens

# Half a pixel (the writer rounds to whole pixels), plus the reader's 0.0001 mm.
HALF_PIXEL_MM = 0.5 / 2.825 + 1e-4
NAMES = st.text(alphabet="ab;/\\'\t XY-", min_size=1, max_size=8).filter(
    lambda s: s.strip() and not s.endswith("\\")
)
ships = st.builds(
    VShip,
    piece_id=st.just(""),
    pilot=NAMES,
    base=st.sampled_from(["Small", "Medium", "Large"]),
    x_mm=st.floats(30.0, 880.0),
    y_mm=st.floats(30.0, 880.0),
    heading=st.integers(0, 359),
)
obstacles = st.builds(
    VObstacle,
    piece_id=st.just(""),
    name=st.sampled_from(sorted(OFFSETS)),
    x_mm=st.floats(80.0, 830.0),
    y_mm=st.floats(80.0, 830.0),
    angle=st.floats(0.0, 359.99).map(lambda a: round(a, 2)),
    flipped=st.booleans(),
).map(
    # Only pieces with two face images can be turned over in the module.
    lambda o: o if "flip" in OFFSETS[o.name] else VObstacle("", o.name, o.x_mm, o.y_mm, o.angle)
)


@settings(max_examples=60, deadline=None)
@given(
    ship_list=st.lists(ships, max_size=6),
    obstacle_list=st.lists(obstacles, max_size=6),
    encoding=st.sampled_from(["xz", "obfuscated", "plain"]),
)
def test_random_scene_reads_back(
    ship_list: list[VShip], obstacle_list: list[VObstacle], encoding: str
) -> None:
    placed_ships = [
        VShip(f"{i}_s", s.pilot, s.base, s.x_mm, s.y_mm, s.heading) for i, s in enumerate(ship_list)
    ]
    placed_obstacles = [
        VObstacle(f"{i}_o", o.name, o.x_mm, o.y_mm, o.angle, o.flipped)
        for i, o in enumerate(obstacle_list)
    ]
    restore = [ship_command(s) for s in placed_ships] + [
        obstacle_command(o) for o in placed_obstacles
    ]
    position = read_client(vsav(saved_game(restore), encoding), name="random.vsav")
    got = {i.source_id: i for i in position.imported}
    assert len(got) == len(restore)
    for ship in placed_ships:
        entry = got[ship.piece_id]
        assert abs(entry.x_mm - ship.x_mm) <= HALF_PIXEL_MM
        assert abs(entry.y_mm - ship.y_mm) <= HALF_PIXEL_MM
        assert entry.angle_deg == ship.heading
        assert entry.became == ship.base.lower()
        assert entry.player == (1 if entry.y_mm < 2583 / 2.825 / 2 else 2)
    for obstacle in placed_obstacles:
        entry = got[obstacle.piece_id]
        assert abs(entry.x_mm - obstacle.x_mm) <= HALF_PIXEL_MM
        assert abs(entry.y_mm - obstacle.y_mm) <= HALF_PIXEL_MM
        assert abs(entry.angle_deg - obstacle.angle) <= 1e-4
        assert entry.flipped is obstacle.flipped
        assert entry.became == OFFSETS[obstacle.name]["token"]
    ids = [i.id for i in position.imported]
    assert len(set(ids)) == len(ids)


def _nest(parts: list[str]) -> str:
    text = parts[-1]
    for outer in reversed(parts[:-1]):
        text = join_tokens([outer, text], "\t")
    return text


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="ab;'\\\t", max_size=5), min_size=1, max_size=6))
def test_one_pass_chain_split_is_a_true_decomposition(parts: list[str]) -> None:
    text = _nest(parts)
    fast = split_nested(text, "\t")
    if fast is not None:
        # Whatever it returns nests back to the same text, and reads level by level.
        assert _nest(fast) == text
        assert split_tokens(text, "\t")[0] == fast[0]
    plain = all("\t" not in p and not p.endswith("\\") and p[:1] not in ("'", "\\") for p in parts)
    if plain:
        assert fast == parts
