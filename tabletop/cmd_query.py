"""Answer JSON requests, one a line on stdin, with one JSON answer a line on stdout.

Requests: {"op": "check", "scene": {...}}; {"op": "measure", "scene": {...}, "from": A,
"to": B, "arc": ARC (optional)}; {"op": "move", "scene": {...}, "ship": SHIP, "maneuver":
"bank 2 left"}. The scene is inline, in the scene-file structure. Each answer is the object
the command prints with --json, in request order; a bad line (an empty one too) answers
{"error": {...}} on its line and the stream goes on. Exit code 0 when the input ends.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TextIO

from geom.errors import InvalidInputError
from obstacles.legality import check
from obstacles.measuring import measure
from obstacles.scene import Scene
from tabletop.cli import EXIT_OK, emit_json
from tabletop.scenefile import loads_json, parse_scene

__all__ = ["OPS", "answer", "register", "run", "serve"]


def _text(request: Mapping[str, Any], key: str, where: str, *, required: bool = True) -> str | None:
    if key not in request:
        if required:
            raise InvalidInputError("missing required key", where=f"{where}: key {key!r}")
        return None
    value = request[key]
    if not isinstance(value, str):
        raise InvalidInputError(
            f"expected a string, got {json.dumps(value)[:80]}", where=f"{where}: key {key!r}"
        )
    return value


def _check(scene: Scene, request: Mapping[str, Any], where: str) -> dict[str, Any]:
    return check(scene).to_json()


def _measure(scene: Scene, request: Mapping[str, Any], where: str) -> dict[str, Any]:
    a, b = _text(request, "from", where), _text(request, "to", where)
    if a is None or b is None:
        raise InvalidInputError("a measure request needs 'from' and 'to'")
    arc = _text(request, "arc", where, required=False)
    zone = _text(request, "defending_zone", where, required=False)
    return measure(scene, a, b, arc=arc, defending_zone=zone).to_json()


def _move(scene: Scene, request: Mapping[str, Any], where: str) -> dict[str, Any]:
    from maneuvers import execute

    ship, maneuver = _text(request, "ship", where), _text(request, "maneuver", where)
    if ship is None or maneuver is None:
        raise InvalidInputError("a move request needs 'ship' and 'maneuver'")
    result: dict[str, Any] = execute(scene, ship, maneuver).to_json()
    return result


#: The request operations and their keys besides "op" and "scene".
OPS: dict[
    str, tuple[Callable[[Scene, Mapping[str, Any], str], dict[str, Any]], tuple[str, ...]]
] = {
    "check": (_check, ()),
    "measure": (_measure, ("from", "to", "arc", "defending_zone")),
    "move": (_move, ("ship", "maneuver")),
}


def answer(line: str, number: int = 1) -> dict[str, Any]:
    """Return the answer to one request line (an ``{"error": ...}`` object for a bad one)."""
    where = f"request {number}"
    try:
        if not line.strip():
            raise InvalidInputError("an empty line; expected one JSON request", where=where)
        try:
            request = loads_json(line)
        except (ValueError, RecursionError) as error:
            raise InvalidInputError(f"not valid JSON: {error}", where=where) from None
        if not isinstance(request, dict):
            raise InvalidInputError("expected a JSON object", where=where)
        op = request.get("op")
        if op not in OPS:
            raise InvalidInputError(
                f"unknown op {op!r}; expected one of: " + ", ".join(OPS), where=f"{where}: key 'op'"
            )
        run_op, keys = OPS[op]
        for key in request:
            if key not in ("op", "scene", *keys):
                raise InvalidInputError(
                    f"unknown key; a {op} request takes: op, scene, " + ", ".join(keys),
                    where=f"{where}: key {key!r}",
                )
        if "scene" not in request:
            raise InvalidInputError("missing required key", where=f"{where}: key 'scene'")
        scene = _scene(request["scene"], where)
        return run_op(scene, request, where)
    except InvalidInputError as error:
        return {"error": {"message": error.message, "where": error.where or where}}
    except Exception as error:  # a bug must not end the stream: answer it and go on
        return {
            "error": {"message": f"internal error: {type(error).__name__}: {error}", "where": where}
        }


#: Parsed scenes by their canonical JSON text: a test suite asks many questions of a scene.
_SCENES: dict[str, Scene] = {}
_SCENE_CACHE_SIZE = 64


def _scene(data: Any, where: str) -> Scene:
    key = json.dumps(data, sort_keys=True, separators=(",", ":"))
    scene = _SCENES.get(key)
    if scene is None:
        scene = parse_scene(data, f"{where} scene")
        if len(_SCENES) >= _SCENE_CACHE_SIZE:
            _SCENES.pop(next(iter(_SCENES)))
        _SCENES[key] = scene
    return scene


def serve(lines: Iterable[str], out: TextIO) -> int:
    """Answer every request line; return how many answers were written."""
    count = 0
    for number, line in enumerate(lines, 1):
        emit_json(answer(line, number), out)
        out.flush()
        count += 1
    return count


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's arguments (none: requests come on stdin)."""
    parser.add_argument("--json", action="store_true", help="accepted; answers are always JSON")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the command."""
    serve(sys.stdin, out)
    return EXIT_OK
