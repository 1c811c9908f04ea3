"""The loader's largest inputs, each in a fresh ``tabletop`` process under a 1 GiB cap.

``python -m benchmarks.bounds``. Every scene is generated here. Each command runs in a
child process whose address space is capped at 1 GiB (``RLIMIT_AS``, as
``tests/test_check_limits.py`` and ``tests/test_render_bounds.py`` run them); the table
gives its exit code and first words, CPU seconds (user + system, from ``wait4``), wall
seconds, peak resident memory and peak address space (``VmPeak``, what the cap counts).
An answer (exit 0 or 1) or a clear refusal (exit 2) is expected, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.scaling import crammed_circles, crammed_tokens

__all__ = ["CAP_BYTES", "cases", "main", "measure"]

#: The address-space cap of every run, bytes.
CAP_BYTES = 1 << 30

#: Runs the command, then reports its peak address space on the last line of stderr.
_CHILD = (
    "import sys\n"
    "from tabletop.app.cli import main\n"
    "code = main(sys.argv[1:])\n"
    "sys.stdout.flush()\n"
    "peak = [l for l in open('/proc/self/status') if l.startswith('VmPeak')][0]\n"
    "sys.stderr.write('\\n#' + peak.split(':')[1].strip())\n"
    "sys.exit(code)\n"
)


def _circle(radius: float, count: int, depth: float = 0.0) -> list[list[float]]:
    """Return a circle of `count` vertices, or with `depth` a star (every other one pulled in)."""
    return [
        [
            round(radius * (1 - depth * (k % 2)) * math.cos(2 * math.pi * k / count), 6),
            round(radius * (1 - depth * (k % 2)) * math.sin(2 * math.pi * k / count), 6),
        ]
        for k in range(count)
    ]


def _pair(outline: list[list[float]], apart: float, angle: float = 0.0) -> dict[str, Any]:
    return {
        "ruleset": "xwing2",
        "area": {"width": 1500.0, "height": 914.4},
        "obstacles": [
            {"id": "a", "outline": outline, "at": [500.0, 457.2]},
            {"id": "b", "outline": outline, "at": [500.0 + apart, 457.2], "angle": angle},
        ],
    }


def _grid(count: int, pitch: float) -> dict[str, Any]:
    side = math.ceil(math.sqrt(count))
    size = 600.0 + side * pitch
    square = [[-10.0, -10.0], [10.0, -10.0], [10.0, 10.0], [-10.0, 10.0]]
    obstacles = [
        {
            "id": f"o{i}",
            "outline": square,
            "at": [300.0 + (i % side) * pitch, 300.0 + (i // side) * pitch],
        }
        for i in range(count)
    ]
    return {"ruleset": "xwing2", "area": {"width": size, "height": size}, "obstacles": obstacles}


def _ships(count: int) -> dict[str, Any]:
    ships = [
        {
            "id": f"s{i}",
            "base": "small",
            "player": 1 + i % 2,
            "at": [30.0 + 60.0 * (i % 50), 30.0 + 60.0 * (i // 50)],
            "heading": float(i % 360),
        }
        for i in range(count)
    ]
    return {"ruleset": "xwing2", "area": {"width": 3000.0, "height": 2400.0}, "ships": ships}


def _far() -> dict[str, Any]:
    square = [[-10.0, -10.0], [10.0, -10.0], [10.0, 10.0], [-10.0, 10.0]]
    return {
        "ruleset": "xwing2",
        "area": {"width": 1e6, "height": 1e6},
        "obstacles": [
            {"id": "a", "outline": square, "at": [999000.0, 999000.0]},
            {"id": "b", "outline": square, "at": [999080.0, 999000.0]},
        ],
    }


def _far_ships() -> dict[str, Any]:
    ships = [
        {"id": "far", "base": "small", "at": [1.0e6, 1.0e6], "heading": 90.0},
        {"id": "near", "base": "large", "at": [-1.0e6, -1.0e6]},
    ]
    return {"ruleset": "xwing2", "area": "3x3ft", "ships": ships}


def cases(folder: Path) -> list[tuple[str, list[str]]]:
    """Write every scene into `folder`; return each case's name and ``tabletop`` arguments."""
    scenes = {
        "outlines10k": _pair(_circle(100.0, 10_000), 250.0),
        "stars3000": _pair(_circle(100.0, 3000, 0.3), 240.0, 7.0),
        "legal10k": _grid(10_000, 130.0),
        "crammed1024": _grid(1024, 50.0),
        "far": _far(),
        "ships2000": _ships(2000),
        "tokens60": crammed_tokens(),
        "circles6": crammed_circles(),
        "farships": _far_ships(),
    }
    path = {}
    for name, data in scenes.items():
        path[name] = str(folder / f"{name}.json")
        Path(path[name]).write_text(json.dumps(data), encoding="utf-8")
    picture = str(folder / "picture.png")
    return [
        ("check: two 10,000-vertex circles 50 mm apart", ["check", path["outlines10k"]]),
        ("check: two 3,000-vertex stars 40 mm apart", ["check", path["stars3000"]]),
        ("check: 10,000 obstacles, legal", ["check", path["legal10k"]]),
        ("check: 1,024 crammed obstacles", ["check", path["crammed1024"]]),
        ("check: the same with --no-fix", ["check", path["crammed1024"], "--no-fix"]),
        ("check: two squares at 10^6 mm", ["check", path["far"]]),
        ("check: 2,000 ships spread out", ["check", path["ships2000"]]),
        ("check: 60 catalog tokens crammed", ["check", path["tokens60"]]),
        ("check: six 200-vertex circles", ["check", path["circles6"]]),
        ("render: ships at 10^6 mm", ["render", path["farships"], "-o", picture, "--force"]),
        (
            "render: --dpi 10 --size 20000x2000",
            [
                "render",
                path["farships"],
                "-o",
                picture,
                "--force",
                "--dpi",
                "10",
                "--size",
                "20000x2000",
            ],
        ),
    ]


def measure(argv: list[str], folder: Path) -> tuple[int, str, float, float, float, float]:
    """Run ``tabletop ARGV --json`` capped; return exit, first words, CPU s, wall s, RSS, VM (MB)."""
    out_path, err_path = folder / "out.txt", folder / "err.txt"
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child: cap, redirect, run
        resource.setrlimit(resource.RLIMIT_AS, (CAP_BYTES, CAP_BYTES))
        os.dup2(os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 1)
        os.dup2(os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 2)
        os.execv(sys.executable, [sys.executable, "-c", _CHILD, *argv, "--json"])
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    err = err_path.read_text(encoding="utf-8")
    if "Traceback" in err or "MemoryError" in err:
        raise RuntimeError(f"tabletop {' '.join(argv)} failed:\n{err[-2000:]}")
    peak = err.rsplit("#", 1)[1].split()[0] if "#" in err else "0"
    out = out_path.read_text(encoding="utf-8")
    answer = json.loads(out) if out.startswith("{") else {}
    if "error" in answer:
        words = "refused: " + answer["error"]["message"][:40] + "..."
    elif "size" in answer:
        words = f"drawn: {answer['size'][0]} x {answer['size'][1]} px"
    elif "legal" in answer:
        words = f"legal: {answer['legal']}, {len(answer['violations'])} violation(s)"
    else:
        words = out.strip()[:48]
    cpu = usage.ru_utime + usage.ru_stime
    return (
        os.waitstatus_to_exitcode(status),
        words,
        cpu,
        wall,
        usage.ru_maxrss / 1024,
        int(peak) / 1024,
    )


def main(argv: list[str] | None = None) -> int:
    """Print the table of the loader's largest inputs."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bounds")
    parser.parse_args(argv)
    print(f"bounded inputs (one fresh process each, address space capped at {CAP_BYTES >> 20} MiB)")
    print(f"  {'case':44s} exit  {'CPU s':>6s} {'wall s':>6s} {'RSS MB':>7s} {'VM MB':>6s}  answer")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for label, args in cases(folder):
            code, words, cpu, wall, rss, vm = measure(args, folder)
            print(f"  {label:44s} {code:4d}  {cpu:6.2f} {wall:6.2f} {rss:7.1f} {vm:6.1f}  {words}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
