"""Import speed: a 4 MB Tabletop Simulator save (``python -m benchmarks.imports``).

The X-Wing 2.0 mod's saves are mostly Lua text: the global script and every object's
script (each obstacle carries the mod's Dimensions include, a ship its whole module). The
save built here is that shape: a global script of about 3 MB, 12 ships and 6 asteroids
(matched by their collider outlines) with 30 kB scripts each, and 200 dice, cards and bags with short ones, 4 MB in all. It times
the reader alone (``read_client`` on the bytes) and the whole ``tabletop import --json``
in-process (reading the file, parsing, converting, the report), the fastest and median
of several runs, against the goal of half a second.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tabletop.app.cli import main
from tabletop.app.clients import read_client

GOAL_S = 0.5
_LUA = "-- the mod's Lua: " + "local v = Vector(0.03637, 0, 1) * 2 -- comment text\n" * 40


def _script(size: int, marker: str) -> str:
    return marker + "\n" + (_LUA * (size // len(_LUA) + 1))[:size]


def _object(guid: str, name: str, nick: str, x: float, z: float, script: str) -> dict[str, Any]:
    return {
        "GUID": guid, "Name": name, "Nickname": nick,
        "Transform": {"posX": x, "posY": 1.0, "posZ": z, "rotX": 0.0, "rotY": 37.5,
                      "rotZ": 0.0, "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0},
        "LuaScript": script, "LuaScriptState": "", "XmlUI": "",
    }  # fmt: skip


def build_save(target_bytes: int = 4_000_000) -> bytes:
    """Return a TTS save of about `target_bytes`, mostly Lua text."""
    objects = [
        _object(f"s{i:05d}", "Figurine_Custom", f"Pilot {i}", -30.0 + i, -10.0 + i % 3,
                _script(30_000, "__XW_Ship = true"))
        for i in range(12)
    ]  # fmt: skip
    objects += [
        {**_object(f"o{i:05d}", "Custom_Model", f"Asteroid {i + 1}", -28.0 + 2 * i, 5.0,
                   _script(30_000, "__XW_Obstacle = 'asteroid'")),
         "CustomMesh": {"ColliderURL": f"https://example.org/Core{i + 1}-col.obj"}}
        for i in range(6)
    ]  # fmt: skip
    objects += [
        _object(f"d{i:05d}", "Die_6", "", -60.0, 0.0, _script(200, "-- die")) for i in range(150)
    ]
    objects += [
        {**_object(f"b{i:05d}", "Bag", f"Bag {i}", -60.0, 5.0, ""),
         "ContainedObjects": [_object(f"c{i}{j}", "Card", "", 0, 0, "") for j in range(20)]}
        for i in range(50)
    ]  # fmt: skip
    document = {"SaveName": "bench", "GameMode": "X-Wing 2.0", "ObjectStates": objects}
    size = len(json.dumps(document))
    document["LuaScript"] = _script(max(0, target_bytes - size), "-- global")
    return json.dumps(document, indent=2).encode()


def _times(action: Any, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        out.append(time.perf_counter() - start)
    return out


def main_bench(runs: int = 7) -> dict[str, Any]:
    """Time the reader and the command on the built save; return the figures."""
    data = build_save()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "save.json"
        path.write_bytes(data)
        reader = _times(lambda: read_client(data, name="save.json"), runs)
        command = _times(lambda: main(["import", str(path), "--json"], out=io.StringIO()), runs)
    return {
        "save_bytes": len(data),
        "reader_s": {"fastest": min(reader), "median": statistics.median(reader)},
        "import_s": {"fastest": min(command), "median": statistics.median(command)},
        "goal_s": GOAL_S,
        "met": statistics.median(command) < GOAL_S,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    figures = main_bench(parser.parse_args().runs)
    print(f"TTS save: {figures['save_bytes'] / 1e6:.2f} MB")
    for key in ("reader_s", "import_s"):
        t = figures[key]
        print(f"  {key[:-2]:>7}: fastest {t['fastest']:.3f} s, median {t['median']:.3f} s")
    print(f"  goal: under {GOAL_S} s -> {'met' if figures['met'] else 'NOT met'}")
