"""The query oracle's direct paths give what the general paths give.

:func:`plain_scene` must build, for a scene in the plain form, the very objects
:func:`parse_scene` builds, to the bit (both read the same numbers), and must decline
(None) every scene whose reading needs a check it does not make; :func:`plain_measure`
must give the JSON of ``measure(...).to_json()``. Scenes are drawn at random (every
ruleset and base, ships overlapping, touching and near every band line), and the oracle's
answers with the direct paths are compared with its answers without them: the same
answers, their lengths within ``AGREEMENT_MM`` (``tests/agreement.py``: the direct path
measures with its own arithmetic). An answer on exact coordinates is written byte for
byte as the general path writes it.
"""

from __future__ import annotations

import io
import json
import math
import random
from typing import Any

import pytest
from agreement import assert_agree, assert_lines_agree

from tabletop.app.cli import emit_json
from tabletop.app.query import answers as cmd_query
from tabletop.app.query import fast as query_fast
from tabletop.app.query.fast import plain_measure, plain_scene
from tabletop.app.scene.scenefile import parse_scene
from tabletop.geom.rulesets import RULESETS
from tabletop.obstacles.catalog import catalog
from tabletop.obstacles.measuring import measure
from tabletop.obstacles.scene import Obstacle, Scene


def fields(obstacle: Obstacle) -> tuple[Any, ...]:
    return (
        obstacle.id,
        obstacle.x,
        obstacle.y,
        obstacle.angle,
        obstacle.flipped,
        obstacle.player,
        obstacle.token,
        obstacle.family,
        obstacle.kind,
        obstacle.outline.tobytes(),
    )


def same_scene(a: Scene, b: Scene) -> bool:
    return (
        a.ruleset is b.ruleset
        and a.area == b.area
        and (a.phase, a.format, a.placed_last, a.source)
        == (b.phase, b.format, b.placed_last, b.source)
        and dict(a.constants) == dict(b.constants)
        and a.ships == b.ships
        and [fields(o) for o in a.obstacles] == [fields(o) for o in b.obstacles]
        and all(type(x) is type(y) for x, y in zip(a.ships, b.ships, strict=True))
        and all(
            type(getattr(x, f)) is type(getattr(y, f))
            for x, y in zip(a.ships, b.ships, strict=True)
            for f in ("x", "y", "heading", "player")
        )
    )


def random_scene(rng: random.Random, ruleset: str) -> dict[str, Any]:
    """A plain scene: ships close together (overlapping, touching, near band lines)."""
    rules = RULESETS[ruleset]
    bases = [b for b in rules.base_sizes if b != "squadron"]
    tokens = list(catalog(rules))
    ships = []
    for k in range(rng.randint(2, 6)):
        ship: dict[str, Any] = {
            "id": f"s{k}",
            "base": rng.choice(bases),
            "at": [rng.uniform(0.0, 900.0), rng.uniform(0.0, 900.0)],
        }
        if rng.random() < 0.2:  # on a round number: an int, a whole heading
            ship["at"] = [rng.randint(0, 900), rng.randint(0, 900)]
        if rng.random() < 0.8:
            ship["heading"] = rng.choice([rng.uniform(-720.0, 720.0), 0, 90, 180.0, 360.0, -0.0])
        if rng.random() < 0.7:
            ship["player"] = rng.choice([1, 2])
        ships.append(ship)
    if rng.random() < 0.5:  # the second ship a band line (plus or minus a hair) from the first
        x, y = ships[0]["at"]
        line = rng.choice(rules.band_lines)
        gap = line + rng.choice([-1e-6, -1e-7, 0.0, 1e-7, 1e-6, 0.5, -0.99, 1.01])
        width = (
            rules.base_sizes[ships[0]["base"]][1] / 2 + rules.base_sizes[ships[1]["base"]][1] / 2
        )
        ships[0]["heading"], ships[1]["heading"] = 90.0, 270.0
        ships[1]["at"] = [x, y + gap + width]
    obstacles = [
        {
            "id": f"o{k}",
            "token": rng.choice(tokens),
            "at": [rng.uniform(0.0, 900.0), rng.uniform(0.0, 900.0)],
            **({"angle": rng.uniform(0.0, 360.0)} if rng.random() < 0.8 else {}),
            **({"flipped": rng.random() < 0.5} if rng.random() < 0.3 else {}),
        }
        for k in range(rng.randint(0, 3))
    ]
    scene: dict[str, Any] = {"ships": ships, "obstacles": obstacles}
    if ruleset != "xwing2" or rng.random() < 0.5:
        scene["ruleset"] = ruleset
    if rng.random() < 0.5:
        scene["phase"] = rng.choice(["setup", "play"])
    return scene


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_plain_scenes_and_measurements_are_the_general_ones(ruleset: str) -> None:
    rng = random.Random(f"plain {ruleset}")
    for _ in range(300):
        data = random_scene(rng, ruleset)
        fast = plain_scene(data)
        assert fast is not None, data
        assert same_scene(fast, parse_scene(data)), data
        a, b = rng.sample([s["id"] for s in data["ships"]], 2)
        answer = plain_measure(fast, {"from": a, "to": b})
        expected = measure(parse_scene(data), a, b).to_json()
        assert answer is not None, (data, a, b)
        assert_agree(answer, expected)


#: Scenes the direct path must leave to the general reader (each needs a check or a
#: message it does not make), with what changes in a plain scene.
NOT_PLAIN: list[Any] = [
    [],
    {"ships": {}},
    {"ruleset": "xwing3"},
    {"ruleset": None},
    {"phase": "fight"},
    {"format": 1},
    {"area": "3x3ft"},
    {"constants": {}},
    {"source": None},
    {"placed_last": "nowhere"},
    {"placed_last": 3},
    {"extra": 1},
    {"ships": [{"id": "a", "base": "small", "at": [1.0, 2.0], "hull": "x"}]},
    {"ships": [{"id": "a", "base": "tiny", "at": [1.0, 2.0]}]},
    {"ships": [{"id": "a", "base": "squadron", "at": [1.0, 2.0]}]},
    {"ships": [{"id": "", "base": "small", "at": [1.0, 2.0]}]},
    {"ships": [{"id": " ", "base": "small", "at": [1.0, 2.0]}]},
    {"ships": [{"id": "é", "base": "small", "at": [1.0, 2.0]}]},
    {"ships": [{"id": "\ud800", "base": "small", "at": [1.0, 2.0]}]},
    {"ships": [{"id": 1, "base": "small", "at": [1.0, 2.0]}]},
    {"ships": [{"base": "small", "at": [1.0, 2.0]}]},
    {"ships": [{"id": "a", "base": "small"}]},
    {"ships": [{"id": "a", "base": "small", "at": [1.0, 2.0], "player": True}]},
    {"ships": [{"id": "a", "base": "small", "at": [1.0, 2.0], "player": 1.0}]},
    {"ships": [{"id": "a", "base": "small", "at": [1.0, 2.0], "player": 3}]},
    {"ships": [{"id": "a", "base": "small", "at": [1.0, 2.0], "heading": None}]},
    {"ships": [{"id": "a", "base": "small", "at": [1.0, 2.0], "heading": True}]},
    {"ships": [{"id": "a", "base": "small", "at": [1.0, 2.0], "heading": math.nan}]},
    {"ships": [{"id": "a", "base": "small", "at": [1.0, 2.0], "heading": 1e6 + 1}]},
    {"ships": [{"id": "a", "base": "small", "at": [1.0, 2.0], "heading": 10**400}]},
    {"ships": [{"id": "a", "base": "small", "at": [1.0, math.inf]}]},
    {"ships": [{"id": "a", "base": "small", "at": [1.0, -1e6 - 1]}]},
    {"ships": [{"id": "a", "base": "small", "at": [1.0, 2.0, 3.0]}]},
    {"ships": [{"id": "a", "base": "small", "at": [True, 2.0]}]},
    {"ships": [{"id": "a", "base": "small", "at": "1, 2"}]},
    {
        "ships": [
            {"id": "a", "base": "small", "at": [1.0, 2.0]},
            {"id": "a", "base": "small", "at": [1.0, 2.0]},
        ]
    },
    {"ships": ["a"]},
    {"obstacles": [{"id": "o", "token": "Asteroid 5", "at": [1.0, 2.0]}]},
    {"obstacles": [{"id": "o", "token": "nothing", "at": [1.0, 2.0]}]},
    {"obstacles": [{"id": "o", "token": ["coreasteroid0"], "at": [1.0, 2.0]}]},
    {"obstacles": [{"id": "o", "outline": [[0, 0], [1, 0], [0, 1]], "at": [1.0, 2.0]}]},
    {"obstacles": [{"id": "o", "token": "coreasteroid0", "kind": "asteroid", "at": [1.0, 2.0]}]},
    {"obstacles": [{"id": "o", "token": "coreasteroid0", "at": [1.0, 2.0], "flipped": 1}]},
    {"obstacles": [{"id": "o", "token": "coreasteroid0", "at": [1.0, 2.0], "angle": "0"}]},
    {"obstacles": [{"id": "o", "token": "coreasteroid0", "at": [1.0, 2.0], "player": 0}]},
]


@pytest.mark.parametrize("data", NOT_PLAIN, ids=[str(i) for i in range(len(NOT_PLAIN))])
def test_scenes_needing_a_check_are_left_to_the_general_reader(data: Any) -> None:
    assert plain_scene(data) is None


def oracle_text(lines: list[str], *, direct: bool, monkeypatch: pytest.MonkeyPatch) -> str:
    with monkeypatch.context() as patch:
        patch.setattr(cmd_query, "_SCENES", type(cmd_query._SCENES)())
        patch.setattr(query_fast, "_OUTLINES", type(query_fast._OUTLINES)())
        if not direct:
            patch.setattr(cmd_query, "plain_scene", lambda data: None)
            patch.setattr(cmd_query, "plain_measure", lambda scene, request: None)
        out = io.StringIO()
        cmd_query.serve(lines, out, strict=False)
        return out.getvalue()


def test_the_oracle_answers_the_same_with_and_without_its_direct_paths(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random("oracle corpus")
    lines = []
    for k in range(400):
        data = random_scene(rng, rng.choice(sorted(RULESETS)))
        if k % 5 == 0:  # a scene the general reader must refuse or read
            change = rng.choice(NOT_PLAIN)
            data = change if not isinstance(change, dict) else {**data, **change}
        ships = data.get("ships", []) if isinstance(data, dict) else []
        real = [str(s["id"]) for s in ships if isinstance(s, dict) and "id" in s]
        odd = ["s0", "o0", "edge:left", "nobody", *real]
        request: dict[str, Any] = {"op": "measure", "scene": data}
        if len(real) > 1 and rng.random() < 0.8:
            request["from"], request["to"] = rng.sample(real, 2)
        else:
            request["from"], request["to"] = rng.choice(odd), rng.choice(odd)
        if k % 7 == 0:
            request["arc"] = "front"
        if k % 11 == 0:
            request["id"] = k
        if k % 13 == 0:
            request["to"] = 3
        lines.append(json.dumps(request))
        if k % 3 == 0:  # the same scene asked again, from the cache
            lines.append(json.dumps({**request, "from": request["to"], "to": request["from"]}))
    with_direct = oracle_text(lines, direct=True, monkeypatch=monkeypatch)
    without = oracle_text(lines, direct=False, monkeypatch=monkeypatch)
    assert_lines_agree(with_direct, without)
    answers = [json.loads(line) for line in with_direct.splitlines()]
    assert len(answers) == len(lines)
    assert sum("error" not in a for a in answers) > len(lines) // 2  # most were answered


def test_an_answer_is_written_as_emit_json_writes_it() -> None:
    data = {
        "ships": [
            {"id": "a", "base": "small", "at": [100, 100]},
            {"id": "b", "base": "large", "at": [300.5, 100]},
        ]
    }
    scene = plain_scene(data)
    assert scene is not None
    out_fast, out_general = io.StringIO(), io.StringIO()
    emit_json(plain_measure(scene, {"from": "a", "to": "b"}), out_fast)
    emit_json(measure(parse_scene(data), "a", "b").to_json(), out_general)
    assert out_fast.getvalue() == out_general.getvalue()
    assert json.loads(out_fast.getvalue())["distance"] == 140.5  # 300.5 - 100 - 20 - 40
