"""Round trips: parse → dump → parse gives the same scene, for every serialiser.

Random scenes from :mod:`tabletop.geom.strategies` are written with
:func:`tabletop.app.common.datatext.toml_text` and :func:`tabletop.app.common.datatext.json_text` (the writers
the commands use) and read back with :func:`tabletop.app.scene.scenefile.load_scene`: the scene read
back has the same structure, the same objects, and writes the same text again. Files
written by ``tabletop setup`` read back to a legal scene that writes the same bytes.
"""

from __future__ import annotations

import io
import itertools
import json
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.app import cli
from tabletop.app.common.datatext import file_text, json_text, toml_text
from tabletop.app.scene.scenefile import load_scene, parse_scene
from tabletop.geom.rulesets import RULESET_NAMES, get_ruleset
from tabletop.obstacles import strategies as obstacle_strategies
from tabletop.obstacles.legality import check
from tabletop.obstacles.scene import Scene

Serialiser = Callable[[Mapping[str, Any]], str]
SERIALISERS: dict[str, Serialiser] = {".toml": toml_text, ".json": json_text}

#: Ids of any valid Unicode text (the loader rejects lone surrogates), DELETE included.
IDS = st.builds(
    lambda head, tail: head + tail,
    st.characters(exclude_categories=("Cs", "Zs", "Zl", "Zp", "Cc")).filter(
        lambda c: not c.isspace()
    ),
    st.text(st.characters(codec="utf-8"), max_size=15),
)

RULESETS = st.sampled_from(
    [
        *(get_ruleset(name) for name in RULESET_NAMES),
        get_ruleset("xwing1", {"xwing_range_bands": [90, 190, 290, 390, 490]}),
        get_ruleset("armada", {"armada_range_bands": [120, 180, 300], "contested_within": 0.5}),
    ]
)
AREAS = st.one_of(
    st.none(),
    st.sampled_from(["3x3ft", "6x3ft", "180x90cm"]),
    st.builds(
        lambda w, h: {"width": w, "height": h},
        st.floats(1.0, 2000.0),
        st.floats(1.0, 2000.0),
    ),
)
SCENES = st.tuples(RULESETS, AREAS).flatmap(
    lambda t: obstacle_strategies.scenes(
        ruleset=t[0], area=t[1], max_ships=4, max_obstacles=4, ids=IDS
    )
)

_counter = itertools.count()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("roundtrip")


def assert_same_scene(read: Scene, scene: Scene) -> None:
    """The scenes agree object by object, not only in their dictionaries."""
    assert read.to_dict() == scene.to_dict()
    assert read.ruleset == scene.ruleset
    assert read.area == scene.area
    assert (read.phase, read.format) == (scene.phase, scene.format)
    assert dict(read.constants) == dict(scene.constants)
    assert read.ships == scene.ships  # ships are frozen dataclasses compared by value
    assert len(read.obstacles) == len(scene.obstacles)
    for a, b in zip(read.obstacles, scene.obstacles, strict=True):
        assert (a.id, a.kind, a.x, a.y, a.angle, a.flipped, a.player, a.token, a.family) == (
            b.id,
            b.kind,
            b.x,
            b.y,
            b.angle,
            b.flipped,
            b.player,
            b.token,
            b.family,
        )
        assert a.outline.tolist() == b.outline.tolist()


@settings(max_examples=100, deadline=None)
@given(scene=SCENES, suffix=st.sampled_from(sorted(SERIALISERS)))
def test_random_scenes_round_trip_through_every_serialiser(
    folder: Path, scene: Scene, suffix: str
) -> None:
    dump = SERIALISERS[suffix]
    data = scene.to_dict()
    text = dump(data)
    path = folder / f"scene-{next(_counter)}{suffix}"
    path.write_text(text, encoding="utf-8")
    read = load_scene(path)
    assert_same_scene(read, scene)
    assert dump(read.to_dict()) == text  # and it writes the same text again


@given(scene=SCENES)
def test_random_scenes_round_trip_in_memory(scene: Scene) -> None:
    data = scene.to_dict()
    assert_same_scene(parse_scene(data), scene)
    assert json.loads(json_text(data)) == data
    # Empty object lists are written inline (TOML has no empty array of tables).
    assert tomllib.loads(toml_text(data)) == data


@pytest.mark.parametrize("ruleset", RULESET_NAMES)
@pytest.mark.parametrize("suffix", sorted(SERIALISERS))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31), tournament=st.booleans())
def test_setup_output_round_trips(
    folder: Path, ruleset: str, suffix: str, seed: int, tournament: bool
) -> None:
    path = folder / f"setup-{next(_counter)}{suffix}"
    argv = ["setup", "--ruleset", ruleset, "--seed", str(seed), "-o", str(path)]
    if tournament:
        argv += ["--format", "tournament"]
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(argv, out=out, err=err) == cli.EXIT_OK, err.getvalue()
    written = path.read_bytes()
    scene = load_scene(path)
    assert scene.ruleset.name == ruleset
    assert len(scene.obstacles) == 6
    assert not scene.ships
    assert scene.format == ("tournament" if tournament else "standard")
    assert check(scene).legal
    data = scene.to_dict()
    assert data.pop("ships") == []
    assert file_text(data, path).encode("utf-8") == written  # byte for byte
    other = folder / f"setup-{next(_counter)}{'.json' if suffix == '.toml' else '.toml'}"
    other.write_text(file_text(data, other), encoding="utf-8")
    assert_same_scene(load_scene(other), scene)


# -- round-trip bugs these tests once found ---------------------------------------------


def test_an_id_with_a_delete_character_round_trips_through_toml(tmp_path: Path) -> None:
    data = parse_scene({"ships": [{"id": "a\x7f", "base": "small", "at": [100, 40]}]}).to_dict()
    text = toml_text(data)
    try:
        read = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise AssertionError(f"toml_text wrote invalid TOML: {error}\n{text}") from None
    assert read == data


def test_a_tiny_negative_heading_reads_back_the_same() -> None:
    first = parse_scene(
        {"ships": [{"id": "a", "base": "small", "at": [100, 40], "heading": -1e-300}]}
    )
    assert 0.0 <= first.ships[0].heading < 360.0, first.ships[0].heading
    assert parse_scene(first.to_dict()).ships == first.ships
