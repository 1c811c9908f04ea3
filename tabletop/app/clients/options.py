"""The client-file options every scene-reading command takes, and the resolution marks.

``--table``, ``--step`` and ``--phase`` let ``check``, ``measure``, ``move``, ``render``
and ``report`` read a TTS or VASSAL save as ``tabletop import`` would;
:func:`mark_within_resolution` adds ``within_resolution: true`` where a margin is smaller
than what the client could represent (only for imported scenes).

Examples
--------
>>> entries = [{"margin": 0.0004}, {"margin": -2.0}, {"margin": None}]
>>> mark_within_resolution(entries, 0.001)
1
>>> entries[0]["within_resolution"], "within_resolution" in entries[1]
(True, False)
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import Any

from tabletop.obstacles.scene import Scene

__all__ = ["add_client_options", "mark_within_resolution", "scene_from_args"]


def add_client_options(parser: argparse.ArgumentParser, *, phase: bool = True) -> None:
    """Add ``--table``, ``--step`` and ``--phase`` (the options of ``import``)."""
    parser.add_argument(
        "--table", help="a client save: the mat used, by GUID or nickname (see docs/import.md)"
    )
    parser.add_argument(
        "--step", type=_step, help="a VASSAL log: the position after its N-th entry (0: start)"
    )
    if phase:
        parser.add_argument(
            "--phase",
            choices=["play", "setup"],
            help="a client save: the scene's phase (default play)",
        )


def _step(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a step of 0 or more, got {value}")
    return value


def scene_from_args(args: argparse.Namespace) -> Scene:
    """Load ``args.scene``: a scene file, or a client save with the client options."""
    from tabletop.app.clients import load_scene_or_save

    return load_scene_or_save(
        args.scene,
        table=getattr(args, "table", None),
        step=getattr(args, "step", None),
        phase=getattr(args, "phase", None),
    )


def mark_within_resolution(entries: Iterable[dict[str, Any]], resolution_mm: float | None) -> int:
    """Add ``within_resolution: true`` to each entry whose ``|margin|`` is below the resolution.

    Returns how many were marked. Nothing is added when `resolution_mm` is None (a scene
    that was not imported), so plain scenes' output is unchanged.
    """
    if resolution_mm is None:
        return 0
    marked = 0
    for entry in entries:
        margin = entry.get("margin")
        if isinstance(margin, int | float) and abs(margin) < resolution_mm:
            entry["within_resolution"] = True
            marked += 1
    return marked
