"""Fuzzing the scene loader and the command line with broken scenes.

Valid scenes from :func:`tabletop.obstacles.strategies.scenes` are mutated (a key dropped, an unknown
key added, a value of another type, NaN or infinity, a huge number, a value wrapped in a
list, a duplicate id, a random string, a boundary number, a random subtree) and written as
JSON or TOML; random JSON and TOML trees and random bytes are written too. Each file goes
through :func:`tabletop.app.scene.scenefile.load_scene` and, in process, ``tabletop check``,
``tabletop check --json`` and ``tabletop measure --json``. Whatever the input:

- nothing raises but :class:`~tabletop.app.scene.scenefile.SceneError` from the loader, and
  nothing at all from :func:`tabletop.app.cli.main` (no traceback);
- the exit code is 0, 1 or 2; ``check`` exits 2 exactly when the loader rejects the
  file, and ``measure`` on a file it reads exits 0 (or 2 for an arc that does not apply);
- on 2, stderr is one line ``tabletop CMD: error: FILE: ...`` naming the file, and, for
  a mutation that must be rejected, the entry or key that was broken; stdout is empty,
  or with ``--json`` the ``{"error": {"message", "where"}}`` object.

The limits of ``scene-format.md`` are tested in ``test_scene_limits.py``.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import string
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from scene_contract import assert_rejected, run

from tabletop.app import cli
from tabletop.app.clients import is_client_file
from tabletop.app.scene.scenefile import (
    MAX_COORDINATE_MM,
    SceneError,
    load_scene,
)
from tabletop.geom.rulesets import RULESET_NAMES, ArmadaRuleset, get_ruleset
from tabletop.obstacles import strategies as obstacle_strategies
from tabletop.obstacles.scene import Scene

FUZZ = settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=(HealthCheck.too_slow, HealthCheck.data_too_large),
)

# -- writing arbitrary trees as JSON and TOML ------------------------------------------


def toml_string(text: str) -> str:
    """A TOML basic string: escapes quotes, backslashes and every control character."""
    out = ['"']
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, dict):
        return (
            "{" + ", ".join(f"{toml_string(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
        )
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML for {value!r}")


def toml_able(value: Any, *, root: bool = True) -> bool:
    """Whether `value` can be written as a TOML document (a table, no nulls)."""
    if root and not isinstance(value, dict):
        return False
    if value is None:
        return False
    if isinstance(value, dict):
        return all(isinstance(k, str) and toml_able(v, root=False) for k, v in value.items())
    if isinstance(value, list):
        return all(toml_able(v, root=False) for v in value)
    return True


def toml_document(tree: dict[str, Any]) -> str:
    return "".join(f"{toml_string(k)} = {toml_value(v)}\n" for k, v in tree.items())


def json_document(tree: Any) -> str:
    return json.dumps(tree, ensure_ascii=False, allow_nan=True)


_counter = itertools.count()


def write_scene(folder: Path, tree: Any, suffix: str) -> Path:
    path = folder / f"fuzz-{next(_counter)}{suffix}"
    text = toml_document(tree) if suffix == ".toml" else json_document(tree)
    path.write_text(text, encoding="utf-8")
    return path


def exercise(path: Path, data: st.DataObject) -> Scene | SceneError:
    """Load `path` and run check, check --json and measure --json on it."""
    try:
        loaded: Scene | SceneError = load_scene(path)
    except SceneError as error:
        loaded = error
    name = str(path)
    if isinstance(loaded, SceneError) and is_client_file(path):
        # bytes a client's save begins with (``!VCSK``, a zip): the commands read the file
        # as that client's save, and refuse it with the reader's own words, cleanly
        for command in (["check", name], ["check", name, "--json"]):
            refused = run(*command)
            assert refused.code == cli.EXIT_BAD_INPUT, refused
            assert "Traceback" not in refused.err
            assert refused.err.startswith("tabletop check: error: "), refused
            assert refused.err.count("\n") == 1, refused
        assert set(json.loads(run("check", name, "--json").out)) == {"error"}
        return loaded
    if isinstance(loaded, SceneError):
        assert loaded.file == name
        assert str(loaded).startswith(f"{name}: ")
        assert loaded.message.strip()
        assert_rejected(run("check", name), "check", loaded, json_out=False)
        assert_rejected(run("check", name, "--json"), "check", loaded, json_out=True)
        assert_rejected(run("measure", name, "a", "b", "--json"), "measure", loaded, json_out=True)
        return loaded
    checked = run("check", name)
    assert checked.code in (cli.EXIT_OK, cli.EXIT_VIOLATIONS), checked
    assert checked.err == ""
    assert checked.out.startswith(f"{name}: ")
    report = run("check", "--json", name)
    assert report.code == checked.code
    assert report.err == ""
    assert json.loads(report.out)["legal"] is (report.code == cli.EXIT_OK)
    ids = loaded.ids
    if len(ids) >= 2:
        a, b = data.draw(st.permutations(ids).map(lambda p: p[:2]), label="measure ids")
        arcs: list[str | None] = [None]
        if a in {s.id for s in loaded.ships}:
            arcs += ARMADA_ZONES if isinstance(loaded.ruleset, ArmadaRuleset) else XWING_ARCS
        arc = data.draw(st.sampled_from(arcs), label="arc")
        options = ["--json"] if arc is None else ["--json", "--arc", arc]
        # "--" keeps an id that starts with "-" from being read as an option.
        measured = run("measure", *options, name, "--", a, b)
        if measured.code == cli.EXIT_BAD_INPUT:  # an arc that does not apply to the ship
            assert arc is not None, measured
            assert "Traceback" not in measured.err, measured
            assert measured.err.startswith("tabletop measure: error: "), measured
            assert set(json.loads(measured.out)) == {"error"}
        else:
            assert measured.code == cli.EXIT_OK, measured
            assert measured.err == "", measured
            answer = json.loads(measured.out)
            assert (answer["from"], answer["to"]) == (a, b)
            assert answer["distance"] >= 0.0
    else:
        missing = run("measure", name, "no-such-a", "no-such-b", "--json")
        assert missing.code == cli.EXIT_BAD_INPUT
        assert "no object with id 'no-such-a'" in missing.err
        assert "error" in json.loads(missing.out)
    return loaded


XWING_ARCS: list[str | None] = [
    "front",
    "rear",
    "left",
    "right",
    "full-front",
    "full-rear",
    "bullseye",
]
ARMADA_ZONES: list[str | None] = ["front", "left", "right", "rear"]

# -- mutations of valid scenes ---------------------------------------------------------

RULESET_CHOICES = [
    get_ruleset("xwing2"),
    get_ruleset("xwing1"),
    get_ruleset("armada"),
    get_ruleset(
        "xwing2",
        {
            "xwing_obstacle_edge": 190,
            "xwing_arc_half_angles": {"small": 40, "medium": 41, "large": 42, "huge": 41.5},
        },
    ),
    get_ruleset(
        "armada",
        {
            "armada_tool": {
                "click_degrees": 22.5,
                "to_pivot": 46,
                "pivot_to_guides": 22,
                "half_width": 7.5,
            }
        },
    ),
]

VALID_TREES = (
    st.sampled_from(RULESET_CHOICES)
    .flatmap(lambda r: obstacle_strategies.scenes(ruleset=r, max_ships=3, max_obstacles=3))
    .map(lambda scene: scene.to_dict())
)

JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=8),
)
JSON_TREES = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)

#: One small value of each JSON type class (ints and floats are one class: numbers).
TYPE_CLASSES: dict[str, st.SearchStrategy[Any]] = {
    "string": st.text(max_size=5),
    "number": st.integers(-5, 5) | st.floats(-10.0, 10.0),
    "boolean": st.booleans(),
    "list": st.lists(st.integers(-5, 5), max_size=2),
    "table": st.dictionaries(st.text(string.ascii_letters, max_size=3), st.integers(), max_size=2),
    "null": st.none(),
}

HUGE = [
    1.0e7,
    -1.0e7,
    math.nextafter(MAX_COORDINATE_MM, math.inf),
    1.0e300,
    -1.0e300,
    2**64,
    10**400,
]
NON_FINITE = [math.nan, math.inf, -math.inf]
BOUNDARY = [
    0,
    -0.0,
    5e-324,
    -5e-324,
    1e-300,
    MAX_COORDINATE_MM,
    -MAX_COORDINATE_MM,
    360,
    -360,
    1,
    2,
]

Path_ = tuple[str | int, ...]


def type_class(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    return "table"


def walk(tree: Any, path: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    yield path, tree
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from walk(value, (*path, key))
    elif isinstance(tree, list):
        for index, value in enumerate(tree):
            yield from walk(value, (*path, index))


def replaced(tree: Any, path: Path_, value: Any) -> Any:
    """Return a copy of `tree` with the node at `path` replaced by `value`."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(tree, dict):
        copy_d = dict(tree)
        copy_d[head] = replaced(tree[head], rest, value)
        return copy_d
    copy_l = list(tree)
    copy_l[head] = replaced(tree[head], rest, value)  # type: ignore[index]
    return copy_l


def node(tree: Any, path: Path_) -> Any:
    for step in path:
        tree = tree[step]
    return tree


def where_fragment(path: Path_) -> str:
    """The part of an error's text that must name where a change at `path` was made."""
    if len(path) >= 2 and path[0] in ("obstacles", "ships"):
        return f"{path[0]}[{path[1]}]"
    return str(path[0]) if path else ""


@dataclasses.dataclass
class Case:
    """A mutated scene: the tree, the mutation, and what a rejection must name (None:
    the mutation may leave the scene valid)."""

    tree: Any
    mutation: str
    must_name: tuple[str, ...] | None


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


@dataclasses.dataclass(frozen=True)
class Parts:
    """A valid scene tree and the paths of its parts a mutation picks from."""

    tree: Any
    paths: list[Path_]
    numbers: list[Path_]
    strings: list[Path_]
    tables: list[Path_]
    entries: list[tuple[str, int]]


def drop_required(draw: st.DrawFn, parts: Parts) -> Case:
    tree = parts.tree
    group, index = draw(st.sampled_from(parts.entries))
    entry = tree[group][index]
    required = ["id", "at", "base"] if group == "ships" else ["id", "at"]
    required += [k for k in ("token", "outline") if k in entry]
    key = draw(st.sampled_from(required))
    shorter = {k: v for k, v in entry.items() if k != key}
    named = "token" if key in ("token", "outline") else key
    return Case(
        replaced(tree, (group, index), shorter),
        f"drop {group}[{index}].{key}",
        (f"{group}[{index}]", f"key {named!r}", "missing required key"),
    )


def drop_any(draw: st.DrawFn, parts: Parts) -> Case:
    keyed = [p for p in parts.paths if p and isinstance(p[-1], str)]
    path = draw(st.sampled_from(keyed))
    parent = node(parts.tree, path[:-1])
    shorter = {k: v for k, v in parent.items() if k != path[-1]}
    return Case(replaced(parts.tree, path[:-1], shorter), f"drop {path}", None)


def unknown_key(draw: st.DrawFn, parts: Parts) -> Case:
    path = draw(st.sampled_from(parts.tables))
    table = node(parts.tree, path)
    key = draw(st.text(min_size=1, max_size=6).filter(lambda k: k not in table), label="key")
    named = repr(key) if not path else where_fragment(path)
    return Case(
        replaced(parts.tree, path, {**table, key: draw(JSON_LEAVES)}),
        f"unknown key {key!r} at {path}",
        (named,),
    )


def swap_type(draw: st.DrawFn, parts: Parts) -> Case:
    path = draw(st.sampled_from(parts.paths))
    old = node(parts.tree, path)
    other = draw(st.sampled_from(sorted(set(TYPE_CLASSES) - {type_class(old)})))
    value = draw(TYPE_CLASSES[other])
    return Case(replaced(parts.tree, path, value), f"{other} at {path}", (where_fragment(path),))


def wrap(draw: st.DrawFn, parts: Parts) -> Case:
    path = draw(st.sampled_from(parts.paths))
    wrapped = [node(parts.tree, path)]
    return Case(replaced(parts.tree, path, wrapped), f"wrap {path}", (where_fragment(path),))


def odd_number(mutation: str) -> Callable[[st.DrawFn, Parts], Case]:
    """A number replaced by a non-finite, a huge or a boundary one."""

    def mutate(draw: st.DrawFn, parts: Parts) -> Case:
        path = draw(st.sampled_from(parts.numbers))
        pool = {"non-finite": NON_FINITE, "huge": HUGE, "boundary": BOUNDARY}[mutation]
        value = draw(st.sampled_from(pool))
        must = None if mutation == "boundary" else (where_fragment(path),)
        return Case(replaced(parts.tree, path, value), f"{value!r} at {path}", must)

    return mutate


def duplicate_id(draw: st.DrawFn, parts: Parts) -> Case:
    first, second = draw(st.permutations(parts.entries).map(lambda p: p[:2]))
    ident = parts.tree[first[0]][first[1]]["id"]
    return Case(
        replaced(parts.tree, (*second, "id"), ident),
        f"duplicate id of {first} at {second}",
        ("duplicate id",),
    )


def random_string(draw: st.DrawFn, parts: Parts) -> Case:
    path = draw(st.sampled_from(parts.strings))
    return Case(replaced(parts.tree, path, draw(st.text(max_size=10))), f"text at {path}", None)


def random_tree(draw: st.DrawFn, parts: Parts) -> Case:
    path = draw(st.sampled_from(parts.paths))
    return Case(replaced(parts.tree, path, draw(JSON_TREES)), f"random tree at {path}", None)


#: Each mutation by name; a mutation whose parts the tree lacks falls back as noted.
MUTATIONS: dict[str, Callable[[st.DrawFn, Parts], Case]] = {
    "drop-required": drop_required,
    "drop-any": drop_any,
    "unknown-key": unknown_key,
    "swap-type": swap_type,
    "wrap": wrap,
    "random-tree": random_tree,
    "non-finite": odd_number("non-finite"),
    "huge": odd_number("huge"),
    "boundary": odd_number("boundary"),
    "random-string": random_string,
    "duplicate-id": duplicate_id,
}


@st.composite
def mutated(draw: st.DrawFn) -> Case:
    tree = draw(VALID_TREES, label="valid scene")
    nodes = list(walk(tree))
    entries = [("obstacles", i) for i in range(len(tree["obstacles"]))]
    entries += [("ships", i) for i in range(len(tree["ships"]))]
    parts = Parts(
        tree,
        paths=[p for p, _ in nodes],
        numbers=[p for p, v in nodes if is_number(v)],
        strings=[p for p, v in nodes if isinstance(v, str)],
        tables=[p for p, v in nodes if isinstance(v, dict)],
        entries=entries,
    )
    kinds = ["drop-required", "drop-any", "unknown-key", "swap-type", "wrap", "random-tree"]
    kinds += ["non-finite", "huge", "boundary"] if parts.numbers else []
    kinds += ["random-string"]
    kinds += ["duplicate-id"] if len(entries) >= 2 else []
    mutation = draw(st.sampled_from(kinds), label="mutation")
    # A scene without entries drops any key instead; one without strings gets a subtree.
    if mutation == "drop-required" and not entries:
        mutation = "drop-any"
    if mutation == "random-string" and not parts.strings:
        mutation = "random-tree"
    return MUTATIONS[mutation](draw, parts)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@FUZZ
@given(case=mutated(), toml=st.booleans(), data=st.data())
def test_mutated_scenes_are_loaded_or_rejected_with_where(
    folder: Path, case: Case, toml: bool, data: st.DataObject
) -> None:
    suffix = ".toml" if toml and toml_able(case.tree) else ".json"
    path = write_scene(folder, case.tree, suffix)
    loaded = exercise(path, data)
    event(f"{case.mutation.split()[0]}: {'rejected' if isinstance(loaded, SceneError) else 'read'}")
    if case.must_name is not None:
        assert isinstance(loaded, SceneError), f"{case.mutation} was accepted"
        for fragment in case.must_name:
            assert fragment in str(loaded), (case.mutation, str(loaded))


@settings(FUZZ, max_examples=100)
@given(tree=JSON_TREES, toml=st.booleans(), data=st.data())
def test_random_trees_are_loaded_or_rejected(
    folder: Path, tree: Any, toml: bool, data: st.DataObject
) -> None:
    suffix = ".toml" if toml and toml_able(tree) else ".json"
    exercise(write_scene(folder, tree, suffix), data)


@settings(FUZZ, max_examples=60)
@given(
    content=st.binary(max_size=200) | st.text(max_size=200).map(str.encode),
    suffix=st.sampled_from([".json", ".toml"]),
    data=st.data(),
)
def test_random_bytes_are_rejected_cleanly(
    folder: Path, content: bytes, suffix: str, data: st.DataObject
) -> None:
    path = folder / f"bytes-{next(_counter)}{suffix}"
    path.write_bytes(content)
    exercise(path, data)


def half_angle_ok(angle: float) -> bool:
    """Away from the multiples of 90° at which ``measure --arc`` crashes (see the pinned
    ``test_measure_with_an_arc_half_angle_of`` below), so the fuzz explores the rest."""
    return min(angle % 90.0, 90.0 - angle % 90.0) > 1e-3


NUMBERS = st.sampled_from([0, 1e-300, 1, 45, 100, 200, 360, MAX_COORDINATE_MM]) | st.floats(
    0.0, MAX_COORDINATE_MM
)


HALF_ANGLES = st.sampled_from([0.01, 1, 45, 89.9, 100, 179.9, 200, MAX_COORDINATE_MM]) | st.floats(
    0.0, MAX_COORDINATE_MM
).filter(half_angle_ok)


def bands(count: int) -> st.SearchStrategy[list[float]]:
    return st.lists(NUMBERS, min_size=count, max_size=count)


CONSTANTS = {
    "xwing": st.fixed_dictionaries(
        {},
        optional={
            "xwing_range_bands": bands(5),
            "xwing_arc_half_angles": st.fixed_dictionaries(
                dict.fromkeys(("small", "medium", "large", "huge"), HALF_ANGLES)
            ),
            "xwing_bullseye_width": NUMBERS,
            "xwing_obstacle_edge": NUMBERS,
            "xwing_obstacle_spacing": NUMBERS,
            "xwing_deployment": NUMBERS,
            "contested_within": NUMBERS,
        },
    ),
    "armada": st.fixed_dictionaries(
        {},
        optional={
            "armada_distance_bands": bands(5),
            "armada_range_bands": bands(3),
            "armada_squadron_diameter": NUMBERS,
            "armada_tool": st.fixed_dictionaries(
                dict.fromkeys(
                    ("click_degrees", "to_pivot", "pivot_to_guides", "half_width"), NUMBERS
                )
            ),
            "contested_within": NUMBERS,
        },
    ),
}


@settings(FUZZ, max_examples=FUZZ.max_examples // 2)
@given(
    scene=st.sampled_from(RULESET_NAMES).flatmap(
        lambda r: obstacle_strategies.scenes(ruleset=r, min_ships=2, max_ships=3, max_obstacles=3)
    ),
    data=st.data(),
)
def test_scenes_with_extreme_constants_are_checked_and_measured(
    folder: Path, scene: Scene, data: st.DataObject
) -> None:
    tree = scene.to_dict()
    tree["constants"] = data.draw(CONSTANTS[scene.ruleset.game], label="constants")
    loaded = exercise(write_scene(folder, tree, ".json"), data)
    event("rejected" if isinstance(loaded, SceneError) else "read")
