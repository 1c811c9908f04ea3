"""How ``check`` scales: legal tables of 6 to 5,000 objects, illegal ones with every fix.

``python -m benchmarks.scaling [--quick]``. Every scene is generated here: legal tables
(obstacles on a grid more than the spacing limit apart, ships deployed along both edges
of a play area grown to hold them), and illegal ones (obstacles crammed 60 mm apart, so
that every obstacle breaks the spacing rule and carries a fix). Each figure is the CPU
time of ``tabletop check FILE --json`` in a fresh process (what a judge runs: start-up,
reading, checking) and of :func:`tabletop.obstacles.legality.check` in this process, the median of
three runs; the ratios against the 6-object table are taken in this one run. Beside them,
the plain implementation a user would write (every pair measured with shapely, every fix
from the whole polygonal legal region of :mod:`tabletop.obstacles.placement`) on the sizes it
finishes in seconds, with its verdicts and fixes compared to ``check``'s. Last, the two
tables that were slow to fix: 60 catalog tokens crammed into the middle of a 3' x 3'
table (no token has a legal place) and six 200-vertex circles crammed together, each
beside the fix search without its cheap proof of "no legal place" (stage 0 of
:mod:`tabletop.obstacles.fixing`, as the search ran before) and the plain polygonal region.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import shapely

from tabletop.app.scene.scenefile import parse_scene
from tabletop.geom.measure import json_mm
from tabletop.geom.rulesets import get_ruleset
from tabletop.obstacles.catalog import catalog
from tabletop.obstacles.fixing import shortest_fix
from tabletop.obstacles.legality import check
from tabletop.obstacles.placement import fix_move, legal_region, placement_limits
from tabletop.obstacles.scene import Scene

ROOT = Path(__file__).resolve().parents[1]
SQUARE = [[-15.0, -15.0], [15.0, -15.0], [15.0, 15.0], [-15.0, 15.0]]
TOKENS = ("coreasteroid0", "core2asteroid5", "coreasteroid3", "yt2400debris1", "gascloud2")
#: The six tokens of an illegal six-token scene: crammed together in the middle.
SIX = [
    ("coreasteroid0", 380.0, 400.0, 15.0),
    ("core2asteroid5", 470.0, 410.0, 120.0),
    ("yt2400debris1", 550.0, 390.0, 200.0),
    ("coreasteroid3", 400.0, 500.0, 75.0),
    ("vt49decimatordebris0", 480.0, 520.0, 300.0),
    ("gascloud2", 560.0, 480.0, 45.0),
]


def legal_table(count: int) -> dict[str, Any]:
    """Return a legal X-Wing table of `count` objects: half obstacles on a grid, half ships."""
    obstacles = count // 2
    ships = count - obstacles
    side = max(1, math.ceil(math.sqrt(obstacles)))
    pitch = 180.0  # more than 100 mm between 30 mm squares, and room to spare
    per_edge = math.ceil(ships / 2)
    width = max(2 * 200.0 + side * pitch, per_edge * 60.0 + 60.0)
    height = 2 * 200.0 + side * pitch
    entries = [
        {
            "id": f"o{i}",
            "outline": SQUARE,
            "kind": "asteroid",
            "at": [200.0 + pitch / 2 + (i % side) * pitch, 200.0 + pitch / 2 + (i // side) * pitch],
        }
        for i in range(obstacles)
    ]
    fleet = []
    for i in range(ships):
        player = 1 + i % 2
        x = 60.0 + (i // 2) * 60.0
        fleet.append(
            {
                "id": f"s{i}",
                "base": "small",
                "player": player,
                "at": [x, 40.0 if player == 1 else height - 40.0],
                "heading": 90.0 if player == 1 else 270.0,
            }
        )
    return {
        "ruleset": "xwing2",
        "area": {"width": width, "height": height},
        "obstacles": entries,
        "ships": fleet,
    }


def crammed_table(count: int) -> dict[str, Any]:
    """Return an illegal table: `count` 30 mm squares 60 mm apart, every one too close."""
    side = max(1, math.ceil(math.sqrt(count)))
    pitch = 90.0
    size = 2 * 260.0 + side * pitch
    entries = [
        {
            "id": f"o{i}",
            "outline": SQUARE,
            "kind": "asteroid",
            "at": [260.0 + (i % side) * pitch, 260.0 + (i // side) * pitch],
        }
        for i in range(count)
    ]
    return {"ruleset": "xwing2", "area": {"width": size, "height": size}, "obstacles": entries}


def six_tokens() -> dict[str, Any]:
    """Return an illegal six-token X-Wing scene (every token too close to another)."""
    entries = [
        {"id": name, "token": name, "at": [x, y], "angle": angle} for name, x, y, angle in SIX
    ]
    return {"ruleset": "xwing2", "area": "3x3ft", "obstacles": entries}


def crammed_tokens(pitch: float = 70.0) -> dict[str, Any]:
    """Return 60 catalog tokens on an 8 x 8 grid (corners left out) round a 3' x 3' middle.

    At a 70 mm pitch every token breaks the spacing rule and none has a legal place:
    the forbidden regions of the others cover the whole table.
    """
    names = [n for n in catalog(get_ruleset("xwing2")) if not n.startswith("hugeship")]
    cells = [(r, c) for r in range(8) for c in range(8) if 0 < r < 7 or 0 < c < 7]
    entries = [
        {
            "id": f"t{i}",
            "token": names[i % len(names)],
            "at": [round(457.2 + (c - 3.5) * pitch, 3), round(457.2 + (r - 3.5) * pitch, 3)],
            "angle": (37.0 * i) % 360,
        }
        for i, (r, c) in enumerate(cells)
    ]
    return {"ruleset": "xwing2", "area": "3x3ft", "obstacles": entries}


def crammed_circles() -> dict[str, Any]:
    """Return six 200-vertex circles of radius 30, 80 mm apart centre to centre (20 mm gaps)."""
    ring = [
        [
            round(30.0 * math.cos(2 * math.pi * k / 200), 6),
            round(30.0 * math.sin(2 * math.pi * k / 200), 6),
        ]
        for k in range(200)
    ]
    entries = [
        {"id": f"c{i}", "outline": ring, "at": [377.2 + 80.0 * (i % 3), 417.2 + 80.0 * (i // 3)]}
        for i in range(6)
    ]
    return {"ruleset": "xwing2", "area": "3x3ft", "obstacles": entries}


def _median_cpu(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return statistics.median(times)


def _command_cpu(path: Path, repeats: int, *extra: str) -> float:
    """Median CPU seconds (user + system) of ``tabletop check`` in a fresh process."""
    times = []
    env = dict(os.environ, PYTHONHASHSEED="0")
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(
            [sys.executable, "-m", "tabletop", "check", str(path), "--json", *extra],
            capture_output=True,
            env=env,
            check=False,
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode not in (0, 1):
            raise RuntimeError(done.stderr.decode())
        times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(times)


def plain_legal(scene: Scene) -> bool:
    """Return the plain O(n^2) verdict of the obstacle rules: every pair measured."""
    limits = placement_limits(scene.ruleset, scene.area)
    polygons = [o.polygon() for o in scene.obstacles]
    for p in polygons:
        x0, y0, x1, y1 = p.bounds
        if min(x0, y0, limits.width - x1, limits.height - y1) - limits.edge <= 1e-6:
            return False
    for a, b in itertools.combinations(polygons, 2):
        if float(shapely.distance(a, b)) - limits.spacing <= 1e-6:
            return False
    return True


def plain_fixes(scene: Scene) -> dict[str, float | None]:
    """Every obstacle's fix length from the whole polygonal legal region (the plain way)."""
    limits = placement_limits(scene.ruleset, scene.area)
    found: dict[str, float | None] = {}
    for o in scene.obstacles:
        others = [p.polygon() for p in scene.obstacles if p.id != o.id]
        region = legal_region(o.outline, o.angle, o.flipped, others, limits)
        move = fix_move(region, (o.x, o.y))
        found[o.id] = None if move is None else float(np.hypot(*move))
    return found


def plain_fix(scene: Scene, ident: str) -> float | None:
    """One obstacle's fix length from the whole polygonal legal region (the plain way)."""
    limits = placement_limits(scene.ruleset, scene.area)
    (me,) = [o for o in scene.obstacles if o.id == ident]
    others = [p.polygon() for p in scene.obstacles if p.id != ident]
    move = fix_move(legal_region(me.outline, me.angle, me.flipped, others, limits), (me.x, me.y))
    return None if move is None else float(np.hypot(*move))


def search_only_fixes(scene: Scene, idents: list[str]) -> dict[str, float | None]:
    """Fix lengths by stages 1 and 2 alone: stage 0 given nothing grown, so it proves nothing.

    Each move is rounded as ``check`` prints it, so the lengths compare to the digit.
    """
    limits = placement_limits(scene.ruleset, scene.area)
    shapes = {o.id: o.polygon() for o in scene.obstacles}
    found: dict[str, float | None] = {}
    for ident in idents:
        others = [p for k, p in shapes.items() if k != ident]
        empty = [shapely.Polygon()] * len(others)
        move = shortest_fix(shapes[ident], others, limits, grown=empty)
        found[ident] = None if move is None else float(np.hypot(*(json_mm(v) for v in move)))
    return found


def _crammed_figures(folder: Path, repeats: int) -> None:
    """Print the two crammed tables: command, check(), the search as before, the plain way."""
    print("crammed tables (CPU s; command and check() median of", repeats, "runs)")
    for name, data, sample in (
        ("60 crammed catalog tokens", crammed_tokens(), "t0"),
        ("six 200-vertex circles", crammed_circles(), "c0"),
    ):
        path = folder / (name.replace(" ", "-") + ".json")
        path.write_text(json.dumps(data), encoding="utf-8")
        scene = parse_scene(data)
        ours = fix_lengths(scene)
        command = _command_cpu(path, repeats)
        inside = _median_cpu(lambda scene=scene: check(scene), repeats)
        start = time.process_time()
        before = search_only_fixes(scene, list(ours))
        before_time = time.process_time() - start
        start = time.process_time()
        plain = plain_fix(scene, sample)
        plain_time = time.process_time() - start
        nulls = sum(v is None for v in ours.values())
        mine = ours[sample]
        agree = (plain is None) == (mine is None) and (
            mine is None or plain is None or mine <= plain + 0.002
        )
        print(
            f"  {name:26s} tabletop check {command:6.3f} s, check() {inside:6.3f} s "
            f"({len(ours)} fixes, {nulls} null); search without stage 0 {before_time:6.3f} s, "
            f"same fixes: {before == ours}; plain region for {sample} alone "
            f"{plain_time:6.3f} s, agrees: {agree}"
        )


def fix_lengths(scene: Scene) -> dict[str, float | None]:
    found: dict[str, float | None] = {}
    for v in check(scene).violations:
        if v.fixable:
            found[v.objects[0]] = None if v.fix is None else float(np.hypot(*v.fix["move"]))
    return found


def main(argv: list[str] | None = None) -> int:
    """Print the scaling table."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.scaling")
    parser.add_argument("--quick", action="store_true", help="smaller tables, one run each")
    args = parser.parse_args(argv)
    repeats = 1 if args.quick else 3
    sizes = (6, 50, 200, 1000) if args.quick else (6, 50, 200, 1000, 5000)
    print("check scaling (CPU s, median of", repeats, "runs; one process per command run)")
    with tempfile.TemporaryDirectory() as folder:
        tables: dict[str, dict[str, Any]] = {f"legal {n}": legal_table(n) for n in sizes}
        tables["illegal 50, every fix"] = crammed_table(50)
        tables["illegal 200, every fix"] = crammed_table(200)
        command: dict[str, float] = {}
        for name, data in tables.items():
            path = Path(folder) / (name.replace(" ", "-").replace(",", "") + ".json")
            path.write_text(json.dumps(data), encoding="utf-8")
            scene = parse_scene(data)
            report = check(scene)
            expected = name.startswith("legal")
            if report.legal is not expected:
                raise AssertionError(f"{name}: generated table is not {expected}")
            command[name] = _command_cpu(path, repeats)
            inside = _median_cpu(lambda scene=scene: check(scene), repeats)
            ratio = command[name] / command[f"legal {sizes[0]}"]
            objects = len(scene.obstacles) + len(scene.ships)
            print(
                f"  {name:24s} {objects:5d} objects: tabletop check {command[name]:7.3f} s "
                f"({ratio:5.1f}x the 6-object table), check() {inside:7.3f} s, "
                f"{len(report.violations)} violation(s)"
            )
        base = command[f"legal {sizes[0]}"]
        targets = [("legal 1000", 10.0), ("illegal 50, every fix", 10.0)]
        if "legal 5000" in command:
            targets.append(("legal 5000", 40.0))
        for name, target in targets:
            ratio = command[name] / base
            verdict = "yes" if ratio <= target else "NO"
            print(f"  target {name} within {target:g}x of 6 objects: {ratio:.1f}x ({verdict})")
        # The plain implementation, where it finishes in seconds, and agreement with it.
        print("plain implementation (every pair; fixes from the whole polygonal region)")
        for name in ("legal 50", "legal 200"):
            scene = parse_scene(tables[name])
            plain = _median_cpu(lambda scene=scene: plain_legal(scene), 1)
            ours = _median_cpu(lambda scene=scene: check(scene), 1)
            agree = plain_legal(scene) == check(scene).legal
            print(
                f"  {name:24s} plain verdict {plain:7.3f} s, check() {ours:7.3f} s, "
                f"same verdict: {agree}"
            )
        scene = parse_scene(tables["illegal 50, every fix"])
        start = time.process_time()
        plain_found = plain_fixes(scene)
        plain_time = time.process_time() - start
        start = time.process_time()
        ours_found = fix_lengths(scene)
        ours_time = time.process_time() - start
        # The plain region is polygonal (0.002 mm out on round corners): ours is never
        # longer than it by more than that, and null exactly where it is null.
        agree = all(
            (plain_found[k] is None) == (v is None)
            and (v is None or plain_found[k] is None or v <= plain_found[k] + 0.002)
            for k, v in ours_found.items()
        )
        print(
            f"  illegal 50, every fix    plain {plain_time:7.3f} s, check() {ours_time:7.3f} s "
            f"({plain_time / max(ours_time, 1e-9):.1f}x), every fix as short or shorter: {agree}"
        )
        # An illegal six-token scene, in process, with and without fixes.
        six = parse_scene(six_tokens())
        with_fix = _median_cpu(lambda: check(six), repeats * 3)
        without = _median_cpu(lambda: check(six, fixes=False), repeats * 3)
        plain_six = _median_cpu(lambda: plain_fixes(six), repeats)
        count = len(check(six).violations)
        print(
            f"  illegal six tokens ({count} violations): check() {with_fix * 1e3:.1f} ms with "
            f"fixes, {without * 1e3:.1f} ms without; plain fixes {plain_six * 1e3:.1f} ms"
        )
        _crammed_figures(Path(folder), repeats)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
