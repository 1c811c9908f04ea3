"""Where a scene command's scene comes from: a scene file or a client save, and its options.

:func:`load_scene_or_save` loads a scene file, or imports a client file as ``tabletop
import`` would (:mod:`tabletop.app.clients` reads it).

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
from pathlib import Path
from typing import Any

from tabletop.app.common.datafile import source_name
from tabletop.obstacles.scene import Scene

__all__ = [
    "add_client_options",
    "load_scene_or_save",
    "mark_within_resolution",
    "scene_from_args",
]


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


def load_scene_or_save(
    path: str | Path,
    *,
    table: str | None = None,
    step: int | None = None,
    phase: str | None = None,
) -> Scene:
    """Load a scene file, or import a client file as ``tabletop import`` would.

    Parameters
    ----------
    path : str or Path
        A scene (``.toml``, ``.json``, ``-``) or a client file (recognised by content).
    table : str, optional
        Client files: the mat's GUID or nickname (see ``import.md``).
    step : int, optional
        Logs: the position after this many entries (default: the last).
    phase : str, optional
        Client files: ``play`` (the default) or ``setup``.

    Raises
    ------
    ClientFileError
        For a client file that cannot be read, or client options on a scene file.
    tabletop.app.scene.scenefile.SceneError
        For a scene file that cannot be used.
    """
    from tabletop.app.clients import is_client_file, read_client
    from tabletop.app.scene.scenefile import load_scene, parse_scene

    if not is_client_file(path):
        options = (("--table", table), ("--step", step), ("--phase", phase))
        # `is not None`: --step 0 is an option given (step 0 is a log's first position).
        given = [name for name, value in options if value is not None]
        if given:
            from tabletop.app.clients.model import ClientFileError

            raise ClientFileError(
                f"{', '.join(given)} apply to a client file (a TTS or VASSAL save); "
                "this is a scene file",
                file=source_name(path),
            )
        return load_scene(path)
    position = read_client(path, table=table, step=step)
    data: dict[str, Any] = position.scene_data(phase or "play")
    return parse_scene(data, str(path))
