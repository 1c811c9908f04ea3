"""The plain scene reader (tabletop.obstacles.plainscene) against the general one.

Every scene file is read by :func:`plain_scene` first: a scene it accepts must be the
scene :func:`scene_from_dict` builds, object for object (play areas given as a table of
sizes, outline obstacles of float pairs, alike outlines, clockwise outlines stored
counter-clockwise); anything else, and every faulty scene, goes to the general reader,
so a faulty file's message is the general reader's, word for word.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from test_query_fast import same_scene

from tabletop.app.scene.scenefile import SceneError, load_scene, parse_scene
from tabletop.geom.rulesets import RULESETS
from tabletop.obstacles.catalog import KINDS, catalog
from tabletop.obstacles.plainscene import plain_scene
from tabletop.obstacles.sceneformat import scene_from_dict

SQUARE = [[-15.0, -15.0], [15.0, -15.0], [15.0, 15.0], [-15.0, 15.0]]
CLOCKWISE = [[0.0, 0.0], [0.0, 20.0], [25.0, 20.0], [25.0, 0.0]]


def random_outline_scene(rng: random.Random, ruleset: str) -> dict[str, Any]:
    """A plain scene with a table of sizes for its area and outline obstacles."""
    rules = RULESETS[ruleset]
    tokens = sorted(catalog(rules))
    bases = [b for b in rules.base_sizes if b != "squadron"]
    obstacles: list[dict[str, Any]] = []
    for k in range(rng.randint(1, 8)):
        entry: dict[str, Any] = {"id": f"o{k}", "at": [rng.uniform(0, 900), rng.uniform(0, 900)]}
        if rng.random() < 0.3:
            entry["token"] = rng.choice(tokens)
        else:
            entry["outline"] = rng.choice(
                [SQUARE, CLOCKWISE, [[rng.uniform(-9, 9), 0.0], [30.0, 1.0], [2.0, 40.0]]]
            )
            if rng.random() < 0.6:
                entry["kind"] = rng.choice(KINDS)
        if rng.random() < 0.5:
            entry["angle"] = rng.choice([rng.uniform(-360, 360), 0, 90])
        if rng.random() < 0.3:
            entry["player"] = rng.choice([1, 2])
        if rng.random() < 0.2:
            entry["flipped"] = rng.random() < 0.5
        obstacles.append(entry)
    ships = [
        {"id": f"s{k}", "base": rng.choice(bases), "at": [rng.uniform(0, 900), 40.0]}
        for k in range(rng.randint(0, 4))
    ]
    scene: dict[str, Any] = {"ruleset": ruleset, "obstacles": obstacles, "ships": ships}
    if rng.random() < 0.8:
        scene["area"] = {
            "width": rng.choice([914.4, 1000, rng.uniform(500, 2000)]),
            "height": rng.choice([914.4, 900, rng.uniform(500, 2000)]),
        }
    if rng.random() < 0.3:
        scene["placed_last"] = obstacles[-1]["id"]
    return scene


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_plain_scenes_with_areas_and_outlines_are_the_general_ones(ruleset: str) -> None:
    rng = random.Random(f"outlines {ruleset}")
    for _ in range(200):
        data = random_outline_scene(rng, ruleset)
        fast = plain_scene(data)
        assert fast is not None, data
        general = scene_from_dict(data)
        assert same_scene(fast, general), data
        assert fast.printed_names == general.printed_names
        for mine, theirs in zip(fast.obstacles, general.obstacles, strict=True):
            assert mine.outline.flags.writeable is theirs.outline.flags.writeable is False


def test_a_clockwise_outline_is_stored_counter_clockwise() -> None:
    data = {"obstacles": [{"id": "o", "outline": CLOCKWISE, "at": [400.0, 400.0]}]}
    fast = plain_scene(data)
    assert fast is not None
    assert fast.obstacles[0].outline.tolist() == CLOCKWISE[::-1]
    assert fast.obstacles[0].kind == "other"


def test_alike_outlines_share_one_array_and_keep_their_bits() -> None:
    """Outlines of the same floats are one array; -0.0 is not 0.0, nor 15 15.0."""
    negative_zero = [[-0.0, 0.0], [30.0, 0.0], [0.0, 40.0]]
    zero = [[0.0, 0.0], [30.0, 0.0], [0.0, 40.0]]
    outlines = [SQUARE, CLOCKWISE, [p[:] for p in SQUARE], negative_zero, zero, CLOCKWISE]
    data: dict[str, Any] = {
        "obstacles": [
            {"id": f"o{k}", "outline": outline, "at": [300.0 + 100 * k, 400.0]}
            for k, outline in enumerate(outlines)
        ]
    }
    fast = plain_scene(data)
    assert fast is not None
    assert same_scene(fast, scene_from_dict(data))
    o = fast.obstacles
    assert o[0].outline is o[2].outline
    assert o[1].outline is o[5].outline
    assert o[3].outline is not o[4].outline
    assert o[3].outline.tobytes() != o[4].outline.tobytes()  # the sign of zero kept
    assert str(o[3].outline[0, 0]) == "-0.0"
    assert str(o[4].outline[0, 0]) == "0.0"
    data["obstacles"].append(
        {"id": "int", "outline": [[-15, -15], [15, -15], [15, 15]], "at": [1.0, 2.0]}
    )
    assert plain_scene(data) is None  # integers: the general reader, as for a first outline


#: Scenes with an area or outline the plain reader leaves to the general one.
NOT_PLAIN: list[dict[str, Any]] = [
    {"area": "3x3ft"},
    {"area": {"width": 914.4}},
    {"area": {"width": 914.4, "height": 914.4, "depth": 1.0}},
    {"area": {"width": 914.4, "height": True}},
    {"area": {"width": 914.4, "height": "914.4"}},
    {"area": {"width": 914.4, "height": float("nan")}},
    {"area": {"width": 914.4, "height": 2e6}},
    {"area": {"width": 914.4, "height": -10.0}},
    {"area": {"width": 914.4, "height": 0.0}},
    {"area": []},
    {"obstacles": [{"id": "o", "outline": [[0, 0], [10, 0], [0, 10]], "at": [1.0, 2.0]}]},
    {"obstacles": [{"id": "o", "outline": SQUARE[:2], "at": [1.0, 2.0]}]},
    {"obstacles": [{"id": "o", "outline": [[0.0, 0.0], [9.0, 9.0], [9.0, 0.0], [0.0, 9.0]]}]},
    {"obstacles": [{"id": "o", "outline": [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]], "at": [1, 2]}]},
    {"obstacles": [{"id": "o", "outline": [[0.0, 0.0], [1.0, float("nan")], [2.0, 0.0]]}]},
    {"obstacles": [{"id": "o", "outline": [[0.0, 0.0], [1.0, 1e7], [2.0, 0.0]], "at": [1, 2]}]},
    {"obstacles": [{"id": "o", "outline": "square", "at": [1.0, 2.0]}]},
    {"obstacles": [{"id": "o", "outline": SQUARE, "kind": "moon", "at": [1.0, 2.0]}]},
    {"obstacles": [{"id": "o", "outline": SQUARE, "kind": 3, "at": [1.0, 2.0]}]},
    {"obstacles": [{"id": "o", "outline": SQUARE, "token": "coreasteroid0", "at": [1.0, 2.0]}]},
    {"obstacles": [{"id": "o", "outline": SQUARE}]},
    {"obstacles": [{"id": "o", "outline": SQUARE, "at": [1.0, 2.0], "flipped": "no"}]},
]


@pytest.mark.parametrize("data", NOT_PLAIN, ids=[str(i) for i in range(len(NOT_PLAIN))])
def test_scenes_needing_a_check_are_left_to_the_general_reader(data: dict[str, Any]) -> None:
    assert plain_scene(data) is None


@pytest.mark.parametrize("data", NOT_PLAIN, ids=[str(i) for i in range(len(NOT_PLAIN))])
def test_a_scene_file_reads_as_the_general_reader_reads_it(
    data: dict[str, Any], tmp_path: Path
) -> None:
    """A file's scene, or its error message, is the general reader's, word for word."""
    path = tmp_path / "scene.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    try:
        expected = parse_scene(data, str(path))
    except SceneError as error:
        message = str(error)
    else:
        assert same_scene(load_scene(path), expected)
        return
    with pytest.raises(SceneError) as raised:
        load_scene(path)
    assert str(raised.value) == message
    assert message.startswith(f"{path}: ")
