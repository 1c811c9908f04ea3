"""``check`` on the loader's largest inputs, under a 1 GiB address-space cap.

Each case runs ``tabletop check`` in a child process whose address space is capped with
``resource.setrlimit(RLIMIT_AS)``: it must answer (exit 0 or 1 with one JSON object) or
refuse clearly (exit 2 with ``{"error": ...}``), never die of a ``MemoryError`` or print
a traceback. The inputs are the loader's limits: outlines of 10,000 vertices placed too
close, 10,000 objects, coordinates of 10^6 mm; and the slow tables of old: 3,000-vertex
outlines too close, 2,000 ships spread over a table, 60 catalog tokens crammed with no
legal place for any, six 200-vertex circles crammed together. The cap counts address
space reserved, not used: the command runs OpenBLAS on one thread (a thread per core
would reserve about 40 MB each), which the last test checks.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tabletop.obstacles.legality import MAX_FIXES
from tabletop.obstacles.sceneformat import MAX_OBJECTS, MAX_OUTLINE_VERTICES

CAP_BYTES = 1 * 1024**3
CHILD = textwrap.dedent(
    """
    import resource, sys
    resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))
    from tabletop.app.cli import main
    sys.exit(main(sys.argv[1:]))
    """
)


def capped_check(path: Path, *extra: str) -> tuple[int, dict[str, Any], str]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD.format(cap=CAP_BYTES), "check", str(path), "--json", *extra],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert "MemoryError" not in done.stderr + done.stdout
    return done.returncode, json.loads(done.stdout), done.stderr


def circle(radius: float, count: int) -> list[list[float]]:
    return [
        [
            round(radius * math.cos(2 * math.pi * k / count), 6),
            round(radius * math.sin(2 * math.pi * k / count), 6),
        ]
        for k in range(count)
    ]


def write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "scene.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_two_largest_outlines_too_close(tmp_path: Path) -> None:
    # Two 10,000-vertex circles of radius 100, 50 mm apart (vertex to vertex) on a
    # 1500 x 914.4 table: the first moves 50 mm (and a hair) straight away, with room
    # to spare from the left edge; the fix is measured on the true outlines.
    ring = circle(100.0, MAX_OUTLINE_VERTICES)
    data = {
        "ruleset": "xwing2",
        "area": {"width": 1500.0, "height": 914.4},
        "obstacles": [
            {"id": "a", "outline": ring, "at": [500.0, 457.2]},
            {"id": "b", "outline": ring, "at": [750.0, 457.2]},
        ],
    }
    code, answer, _ = capped_check(write(tmp_path, data))
    assert code == 1
    (v,) = answer["violations"]
    assert v["rule"] == "obstacle-spacing"
    assert v["distance"] == pytest.approx(50.0, abs=1e-6)
    dx, dy = v["fix"]["move"]
    assert 50.0 < -dx <= 50.0 + 1e-3
    assert abs(dy) < 1e-3


def square_grid(count: int, pitch: float, margin: float) -> dict[str, Any]:
    side = math.ceil(math.sqrt(count))
    size = 2 * margin + side * pitch
    square = [[-10.0, -10.0], [10.0, -10.0], [10.0, 10.0], [-10.0, 10.0]]
    obstacles = [
        {
            "id": f"o{i}",
            "outline": square,
            "at": [margin + (i % side) * pitch, margin + (i // side) * pitch],
        }
        for i in range(count)
    ]
    return {
        "ruleset": "xwing2",
        "area": {"width": size, "height": size},
        "obstacles": obstacles,
    }


def test_most_objects_legal(tmp_path: Path) -> None:
    # 10,000 obstacles on a grid 130 mm apart (110 between neighbours): legal.
    code, answer, _ = capped_check(write(tmp_path, square_grid(MAX_OBJECTS, 130.0, 300.0)))
    assert code == 0
    assert answer["legal"] is True
    assert answer["checked"]["obstacle-spacing"] == MAX_OBJECTS * (MAX_OBJECTS - 1) // 2


def test_most_objects_crammed(tmp_path: Path) -> None:
    # 1,024 obstacles 30 mm apart (more than MAX_FIXES), every one too close: fixes
    # for them are refused with a message naming --no-fix; with fixes off the check
    # answers. (The legal case above runs at the 10,000-object limit itself.)
    count = 1024
    assert count > MAX_FIXES
    path = write(tmp_path, square_grid(count, 50.0, 300.0))
    code, answer, _ = capped_check(path)
    assert code == 2
    assert "--no-fix" in answer["error"]["message"]
    # Each pair too close fixes its first obstacle: every one but the last.
    assert f"{count - 1} obstacles" in answer["error"]["message"]
    code, answer, _ = capped_check(path, "--no-fix")
    assert code == 1
    assert {v["objects"][0] for v in answer["violations"] if v["rule"] == "obstacle-spacing"}
    assert all(v["fix"] is None for v in answer["violations"] if "fix" in v)


def test_farthest_coordinates(tmp_path: Path) -> None:
    # A 10^6 mm square table, two squares near its far corner 60 mm apart: the fix is
    # 40 mm (and a hair) away, at coordinates near 10^6.
    square = [[-10.0, -10.0], [10.0, -10.0], [10.0, 10.0], [-10.0, 10.0]]
    data = {
        "ruleset": "xwing2",
        "area": {"width": 1e6, "height": 1e6},
        "obstacles": [
            {"id": "a", "outline": square, "at": [999000.0, 999000.0]},
            {"id": "b", "outline": square, "at": [999080.0, 999000.0]},
        ],
    }
    code, answer, _ = capped_check(write(tmp_path, data))
    assert code == 1
    (v,) = answer["violations"]
    dx, dy = v["fix"]["move"]
    assert math.hypot(dx, dy) == pytest.approx(40.0, abs=1e-3)


def star(radius: float, count: int) -> list[list[float]]:
    """A star of `count` vertices, every other one 30 % in: no convex piece is large."""
    return [
        [
            round(radius * (1 - 0.3 * (k % 2)) * math.cos(2 * math.pi * k / count), 6),
            round(radius * (1 - 0.3 * (k % 2)) * math.sin(2 * math.pi * k / count), 6),
        ]
        for k in range(count)
    ]


def test_two_3000_vertex_stars_too_close(tmp_path: Path) -> None:
    # Tips 100 mm out, 240 mm apart centre to centre (one turned 7 degrees): 40 mm apart
    # at the nearest tips, so the first moves 60 mm (and a hair) away, to the left.
    outline = star(100.0, 3000)
    data = {
        "ruleset": "xwing2",
        "area": {"width": 1500.0, "height": 914.4},
        "obstacles": [
            {"id": "a", "outline": outline, "at": [500.0, 457.2]},
            {"id": "b", "outline": outline, "at": [740.0, 457.2], "angle": 7.0},
        ],
    }
    code, answer, _ = capped_check(write(tmp_path, data))
    assert code == 1
    (v,) = answer["violations"]
    assert v["distance"] == pytest.approx(40.0, abs=1e-3)
    assert math.hypot(*v["fix"]["move"]) == pytest.approx(60.0, abs=2e-3)


def test_2000_ships_spread_over_a_table(tmp_path: Path) -> None:
    # 2,000 small ships 60 mm apart on a 3000 x 2400 table: none overlaps, every one
    # inside the table; those beyond their player's deployment zone are reported.
    ships = [
        {
            "id": f"s{i}",
            "base": "small",
            "player": 1 + i % 2,
            "at": [30.0 + 60.0 * (i % 50), 30.0 + 60.0 * (i // 50)],
            "heading": float(i % 360),
        }
        for i in range(2000)
    ]
    data = {"ruleset": "xwing2", "area": {"width": 3000.0, "height": 2400.0}, "ships": ships}
    code, answer, _ = capped_check(write(tmp_path, data))
    assert code == 1
    rules = {v["rule"] for v in answer["violations"]}
    assert rules == {"ship-deployment"}
    assert answer["checked"]["ship-overlap"] == 2000 * 1999 // 2


def test_sixty_crammed_tokens_answer_with_no_place(tmp_path: Path) -> None:
    from test_fix_nowhere import crammed

    code, answer, _ = capped_check(write(tmp_path, crammed(70.0)))
    assert code == 1
    fixable = [v for v in answer["violations"] if "fix" in v]
    assert {v["objects"][0] for v in fixable} == {f"t{i}" for i in range(60)}
    assert all(v["fix"] is None for v in fixable)


def test_six_crammed_200_vertex_circles(tmp_path: Path) -> None:
    # Radius 30, 80 mm apart centre to centre in two rows of three: 20 mm apart, so each
    # of the first five breaks the spacing rule with its right or upper neighbour.
    ring = circle(30.0, 200)
    obstacles = [
        {"id": f"c{i}", "outline": ring, "at": [377.2 + 80.0 * (i % 3), 417.2 + 80.0 * (i // 3)]}
        for i in range(6)
    ]
    data = {"ruleset": "xwing2", "area": "3x3ft", "obstacles": obstacles}
    code, answer, _ = capped_check(write(tmp_path, data))
    assert code == 1
    spacing = [v for v in answer["violations"] if v["rule"] == "obstacle-spacing"]
    assert {v["objects"][0] for v in spacing} == {f"c{i}" for i in range(5)}
    assert all(v["fix"] is not None for v in spacing)


def test_the_command_runs_openblas_on_one_thread(tmp_path: Path) -> None:
    # After a check the process holds one thread: no OpenBLAS pool reserving memory.
    child = CHILD.replace(
        "sys.exit(main(sys.argv[1:]))",
        "code = main(sys.argv[1:])\n"
        "status = dict(line.split(':', 1) for line in open('/proc/self/status'))\n"
        "sys.stderr.write('threads ' + status['Threads'].strip())\n"
        "sys.exit(code)",
    )
    path = write(tmp_path, square_grid(4, 130.0, 300.0))
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run(
        [sys.executable, "-c", child.format(cap=CAP_BYTES), "check", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.endswith("threads 1")
