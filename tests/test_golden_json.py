"""Every command's output on every bundled example, byte for byte, against recorded files.

The recordings under ``tests/data/golden/`` pin the JSON (and text) contract of ``check``,
``measure`` (every ordered pair, every arc or hull zone, every defending zone), ``move``
(every ship, a fixed list of maneuvers), ``report``, ``setup`` (three seeds per ruleset and
format, with the file written) and ``query`` (the same requests on stdin). Internal
changes must leave them identical; a change of contract rewrites them on purpose with
``python tests/test_golden_json.py --write`` and shows in the diff.
"""

from __future__ import annotations

import io
import json
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tabletop.app.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.toml"))
GOLDEN = Path(__file__).resolve().parent / "data" / "golden"

XWING_ARCS = ("front", "rear", "left", "right", "full-front", "full-rear", "bullseye")
HULL_ZONES = ("front", "left", "right", "rear")
XWING_MANEUVERS = (
    "straight 1",
    "straight 5",
    "bank 1 left",
    "bank 3 right",
    "turn 1 right",
    "turn 3 left",
    "koiogran 4",
    "segnor 2 left",
    "tallon 1 right",
    "reverse straight 1",
    "reverse bank 1 left",
    "stationary",
    "roll left",
    "roll right forward",
    "roll left back",
    "boost straight",
    "boost bank left",
    "speed 2",
    "bank 4 left",
)
ARMADA_MANEUVERS = (
    "speed 0",
    "speed 1",
    "speed 2 yaw 0 1",
    "speed 2 yaw 1 1 side right",
    "speed 3 yaw 0 -1 1",
    "speed 3 yaw 0 0 -2 navigate",
    "speed 4 yaw 0 0 0 0",
    "straight 1",
)


def _objects(path: Path) -> tuple[str, list[str], list[str]]:
    """Return the ruleset name, the ship ids and the obstacle ids of an example."""
    import tomllib

    data = tomllib.loads(path.read_text(encoding="utf-8"))
    ships = [s["id"] for s in data.get("ships", [])]
    obstacles = [o["id"] for o in data.get("obstacles", [])]
    return str(data["ruleset"]), ships, obstacles


def _commands(path: Path) -> Iterator[list[str]]:
    """Every command line recorded for one example (without ``--json``)."""
    scene = str(path.relative_to(ROOT))
    ruleset, ships, obstacles = _objects(path)
    yield ["check", scene]
    yield ["report", scene]
    ids = ships + obstacles
    for a in ids:
        for b in ids:
            if a != b:
                yield ["measure", scene, a, b]
    arcs = HULL_ZONES if ruleset == "armada" else XWING_ARCS
    for a in ships:
        for b in ships:
            if a == b:
                continue
            for arc in arcs:
                yield ["measure", scene, a, b, "--arc", arc]
            if ruleset == "armada":
                for zone in HULL_ZONES:
                    yield ["measure", scene, a, b, "--arc", "front", "--defending-zone", zone]
    maneuvers = ARMADA_MANEUVERS if ruleset == "armada" else XWING_MANEUVERS
    for ship in [*ships, obstacles[0], "nobody"]:
        for maneuver in maneuvers:
            yield ["move", scene, ship, *maneuver.split()]
    yield ["measure", scene, ships[0], "nobody"]
    yield ["measure", scene, ships[0], ships[1], "--arc", "sideways"]


def _run(argv: list[str], stdin: str | None = None) -> dict[str, Any]:
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        code = main(argv, out=out, err=err)
    finally:
        sys.stdin = saved
    return {"argv": argv, "exit": code, "stdout": out.getvalue(), "stderr": err.getvalue()}


def _query_lines(path: Path) -> str:
    """The example's check, measure and move requests as ``query`` lines."""
    import tomllib

    data = tomllib.loads(path.read_text(encoding="utf-8"))
    _, ships, obstacles = _objects(path)
    ruleset = str(data["ruleset"])
    requests: list[dict[str, Any]] = [{"op": "check", "scene": data}]
    for a in ships + obstacles[:1]:
        for b in ships:
            if a != b:
                requests.append({"op": "measure", "scene": data, "from": a, "to": b})
                requests.append(
                    {"op": "measure", "scene": data, "from": a, "to": b, "arc": "front"}
                )
    maneuvers = ARMADA_MANEUVERS if ruleset == "armada" else XWING_MANEUVERS
    for ship in [*ships, obstacles[0], "nobody"]:
        for maneuver in maneuvers:
            requests.append({"op": "move", "scene": data, "ship": ship, "maneuver": maneuver})
    return "".join(json.dumps(r) + "\n" for r in requests)


def record(path: Path) -> list[dict[str, Any]]:
    """Run every recorded command of one example; return the runs in order."""
    runs = []
    for argv in _commands(path):
        runs.append(_run([*argv, "--json"]))
        runs.append(_run(argv))
    runs.append(_run(["query"], stdin=_query_lines(path)))
    return runs


def record_setup() -> list[dict[str, Any]]:
    """Run ``setup`` for every ruleset, format and three seeds; keep the file written."""
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for ruleset in ("xwing2", "xwing1", "armada"):
            for fmt in ("standard", "tournament"):
                for seed in (0, 1, 7):
                    for suffix in ("toml", "json"):
                        target = Path(tmp) / f"setup.{suffix}"
                        argv = ["setup", "--ruleset", ruleset, "--seed", str(seed)]
                        argv += ["--format", fmt, "-o", str(target), "--json"]
                        run = _run(argv)
                        run["argv"] = [a.replace(tmp, "TMP") for a in argv]
                        run["stdout"] = run["stdout"].replace(tmp, "TMP")
                        run["stderr"] = run["stderr"].replace(tmp, "TMP")
                        run["file"] = (
                            target.read_text(encoding="utf-8") if run["exit"] == 0 else None
                        )
                        target.unlink(missing_ok=True)
                        runs.append(run)
    return runs


def _golden_path(name: str) -> Path:
    return GOLDEN / f"{name}.json"


def _cases() -> list[str]:
    return [p.stem for p in EXAMPLES] + ["setup"]


def _recorded(name: str) -> list[dict[str, Any]]:
    if name == "setup":
        return record_setup()
    return record(ROOT / "examples" / f"{name}.toml")


def _dump(runs: list[dict[str, Any]]) -> str:
    return json.dumps(runs, indent=1, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("name", _cases())
def test_output_is_byte_identical_to_the_recording(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    expected = json.loads(_golden_path(name).read_text(encoding="utf-8"))
    actual = _recorded(name)
    assert len(actual) == len(expected)
    for want, got in zip(expected, actual, strict=True):
        assert got == want, want["argv"]


def test_every_bundled_example_has_a_recording() -> None:
    assert {p.stem for p in GOLDEN.glob("*.json")} == set(_cases())


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_golden_json.py --write")
    import os

    os.chdir(ROOT)
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for case in _cases():
        _golden_path(case).write_text(_dump(_recorded(case)), encoding="utf-8")
        print(f"wrote {_golden_path(case).relative_to(ROOT)}")
