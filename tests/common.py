"""Helpers shared by the tests: the in-process CLI runner, scene files, move details."""

from __future__ import annotations

import io
import json
import math
import textwrap
from pathlib import Path
from typing import Any

from tabletop.app.cli import main
from tabletop.maneuvers.result import MoveResult, TemplateMove, ToolMove

__all__ = [
    "EXAMPLES",
    "ROOT",
    "final_move_oracle",
    "json_scene_file",
    "run",
    "run_json",
    "scene_file",
    "ships",
    "template_detail",
    "tool_detail",
    "write_scene",
]

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.toml"))


def run(*argv: str | Path) -> tuple[int, str, str]:
    """Run the command line in-process; return (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out=out, err=err)
    assert "Traceback" not in err.getvalue()
    return code, out.getvalue(), err.getvalue()


def run_json(*argv: str | Path) -> dict[str, Any]:
    """Run a command that must succeed with --json; return its one JSON object."""
    code, out, err = run(*argv)
    assert (code, err) == (0, ""), err
    assert out.endswith("\n")
    assert out.count("\n") == 1
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def write_scene(tmp_path: Path, text: str, name: str = "scene.toml") -> Path:
    """Write scene text (dedented) under `tmp_path`; return its path."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def scene_file(tmp_path: Path, text: str, name: str = "scene.toml") -> str:
    """Write a scene file (dedented) under `tmp_path`; return its path as a string."""
    return str(write_scene(tmp_path, text, name))


def json_scene_file(tmp_path: Path, data: Any, name: str = "scene.json") -> str:
    """Write a scene structure as a JSON file under `tmp_path`; return its path."""
    return str(write_scene(tmp_path, json.dumps(data), name))


def ships(ruleset: str, *entries: tuple[str, str, float, float, float]) -> str:
    """TOML for ships given as (id, base, x, y, heading)."""
    lines = [f'ruleset = "{ruleset}"']
    for ident, base, x, y, heading in entries:
        lines += [
            "[[ships]]",
            f'id = "{ident}"',
            f'base = "{base}"',
            f"at = [{x}, {y}]",
            f"heading = {heading}",
        ]
    return "\n".join(lines) + "\n"


def template_detail(result: MoveResult) -> TemplateMove:
    """The X-Wing detail of a move (fails on an Armada move)."""
    assert isinstance(result.detail, TemplateMove), result.detail
    return result.detail


def tool_detail(result: MoveResult) -> ToolMove:
    """The Armada detail of a move (fails on an X-Wing move)."""
    assert isinstance(result.detail, ToolMove), result.detail
    return result.detail


def final_move_oracle(words: str, h: float) -> tuple[float, float, float]:
    """rules.md's final move of an X-Wing maneuver in the ship frame, worked out by hand.

    The ship frame is +y forward, +x right; `h` is half the base length. The one oracle
    every final-pose test compares against (the package's own code is not used).
    """
    parts = words.split()
    reverse = parts[0] == "reverse"
    if reverse:
        parts = parts[1:]
    bearing, speed = parts[0], int(parts[1])
    left = parts[-1] == "left"
    c45 = math.cos(math.radians(45.0))
    if bearing in ("straight", "koiogran"):
        dx, dy, turn = 0.0, 2.0 * h + 40.0 * speed, 0.0
    elif bearing in ("bank", "segnor"):
        radius = {1: 80.0, 2: 130.0, 3: 180.0}[speed]
        dx, dy, turn = radius * (1.0 - c45) + h * c45, h + radius * c45 + h * c45, -45.0
    else:
        radius = {1: 35.0, 2: 62.5, 3: 90.0}[speed]
        dx, dy, turn = radius + h, h + radius, -90.0
    if left:
        dx, turn = -dx, -turn
    if reverse:
        dy, turn = -dy, -turn
    # Advanced maneuvers: a further 180° (Koiogran, Segnor), or 90° toward the turn (Tallon).
    turn += {"koiogran": 180.0, "segnor": 180.0, "tallon": turn}.get(bearing, 0.0)
    return dx, dy, turn
