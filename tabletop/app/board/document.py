"""The board as a versioned document: one working scene, the file it came from, saving.

The server holds one :class:`BoardDocument`. Every change replaces the whole scene (the
scene-file structure, as parsed JSON) and raises the version by one; a change that names
an older version is refused, so two tabs never overwrite each other unseen. The scene is
kept exactly as it was given (key order, area preset names), so what a tab puts is what
every tab gets.

Saving writes atomically (a temporary file in the same folder, then a rename) through the
project's scene writer, in the format of the target's suffix. Started on a scene file,
the board saves over that file; started on a client save or on no file, it writes a new
``NAME.board.toml`` beside the save (or ``board.toml`` in the working folder), never over
a file it did not create: when that name is taken by another file, the next free
``NAME.board-2.toml``, ``NAME.board-3.toml`` … is used.

Examples
--------
>>> board = BoardDocument.empty()
>>> board.version, board.scene()["ruleset"], board.scene()["area"]
(1, 'xwing2', '3x3ft')
>>> board.replace(1, {"ruleset": "xwing2", "ships": [{"id": "a", "base": "small", "at": [100, 40]}]})
2
>>> board.replace(1, {"ruleset": "xwing2"})
Traceback (most recent call last):
...
tabletop.app.board.document.StaleVersionError: version: the board is at version 2, not 1; reload it and make the change again
"""

from __future__ import annotations

import copy
import dataclasses as _dc
import os
import stat
import threading
from pathlib import Path
from typing import Any

from tabletop.app import clients
from tabletop.app.common.datafile import source_name
from tabletop.app.common.datatext import file_text
from tabletop.app.common.files import atomic_write
from tabletop.app.scene.scenefile import parse_scene, read_scene_data
from tabletop.app.web.errors import RequestError
from tabletop.geom.errors import InvalidInputError

__all__ = [
    "EMPTY_SCENE",
    "BoardDocument",
    "BoardRequestError",
    "ReadOnlyError",
    "SaveTarget",
    "StaleVersionError",
    "client_scene",
    "load_start_file",
]

#: The table a board without a file starts on: an empty 3'×3' X-Wing 2.0 setup.
EMPTY_SCENE: dict[str, Any] = {
    "ruleset": "xwing2",
    "area": "3x3ft",
    "phase": "setup",
    "format": "standard",
    "obstacles": [],
    "ships": [],
}
#: How many ``NAME.board-N.toml`` names a save tries before giving up.
_MOST_SAVE_NAMES = 1000


class BoardRequestError(RequestError):
    """A request the board refuses, with the HTTP status that says why (400 by default)."""


class StaleVersionError(BoardRequestError):
    """A change made to an older version of the board than the current one (409)."""

    status = 409


class ReadOnlyError(BoardRequestError):
    """A change or a save asked of a board started with ``--read-only`` (403)."""

    status = 403


def client_scene(
    source: Path | bytes,
    name: str,
    *,
    table: str | None = None,
    step: int | None = None,
    phase: str | None = None,
) -> dict[str, Any]:
    """Return the scene of a client save, read as ``tabletop import`` reads it.

    Parameters
    ----------
    source : Path or bytes
        The save's path, or its bytes.
    name : str
        The file's name, for messages.
    table, step, phase : optional
        ``--table`` (a mat's GUID or nickname), ``--step`` (a log's position) and
        ``--phase`` (``play``, the default, or ``setup``), as every scene command takes them.

    Raises
    ------
    tabletop.app.clients.ClientFileError
        For a save the reader refuses, naming the file, the object and the key.
    """
    position = clients.read_client(source, table=table, step=step, name=name)
    scene: dict[str, Any] = position.scene_data(phase or "play")
    return scene


@_dc.dataclass(frozen=True, slots=True)
class SaveTarget:
    """Where the board saves.

    Attributes
    ----------
    path : Path
        The file to write (its suffix chooses TOML or JSON).
    own : bool
        True for a file the board creates (client save or no file): it is never written
        over unless the board made it; False for the scene file the board was started
        with, which it saves over.
    """

    path: Path
    own: bool


def load_start_file(
    path: str | None,
    *,
    table: str | None = None,
    step: int | None = None,
    phase: str | None = None,
) -> tuple[dict[str, Any], SaveTarget, str]:
    """Return the scene a board starts on, where it saves, and how to name its source.

    Parameters
    ----------
    path : str or None
        A scene file (``.toml`` / ``.json``), a client save (recognised by content, as
        every scene command recognises it), or None for an empty table.
    table, step, phase : optional
        A client save's ``--table``, ``--step`` and ``--phase`` (see :func:`client_scene`);
        refused with a scene file or without a file, as the scene commands refuse them.

    Raises
    ------
    InvalidInputError
        For a file that cannot be read, a scene that does not fit ``scene-format.md``
        (naming the file, the entry and the key), or client options without a save.
    """
    given = [
        n for n, v in (("--table", table), ("--step", step), ("--phase", phase)) if v is not None
    ]
    if path is None:
        if given:
            raise InvalidInputError(
                f"{', '.join(given)} apply to a client file (a TTS or VASSAL save); "
                "no file was given",
                where="SCENE",
            )
        return copy.deepcopy(EMPTY_SCENE), SaveTarget(Path("board.toml"), own=True), "board"
    file = Path(path)
    if clients.is_client_file(file):
        scene = client_scene(file, str(path), table=table, step=step, phase=phase)
        parse_scene(scene, source_name(path))
        return scene, SaveTarget(file.parent / f"{file.stem}.board.toml", own=True), str(path)
    if given:
        raise clients.ClientFileError(
            f"{', '.join(given)} apply to a client file (a TTS or VASSAL save); "
            "this is a scene file",
            file=source_name(path),
        )
    data = read_scene_data(file)
    parse_scene(data, source_name(path))
    return data, SaveTarget(file, own=False), str(path)


class BoardDocument:
    """One working scene with a version, safe to use from several threads.

    Parameters
    ----------
    scene : dict
        The scene-file structure (already checked by :func:`parse_scene`).
    target : SaveTarget
        Where :meth:`save` writes.
    read_only : bool
        Refuse changes and saves (:class:`ReadOnlyError`).
    source : str
        How to name where the scene came from (a file name, or ``board``).
    """

    def __init__(
        self, scene: dict[str, Any], target: SaveTarget, *, read_only: bool = False, source: str
    ) -> None:
        self._scene = scene
        self._version = 1
        self._target = target
        self._written: bytes | None = None  # what the board last wrote to a file it made
        self.read_only = read_only
        self.source = source
        self._lock = threading.Lock()

    @classmethod
    def empty(cls, *, read_only: bool = False) -> BoardDocument:
        """Return a board on an empty 3'×3' X-Wing 2.0 table, saving to ``board.toml``."""
        return cls(
            copy.deepcopy(EMPTY_SCENE),
            SaveTarget(Path("board.toml"), own=True),
            read_only=read_only,
            source="board",
        )

    @classmethod
    def open(
        cls,
        path: str | None,
        *,
        read_only: bool = False,
        table: str | None = None,
        step: int | None = None,
        phase: str | None = None,
    ) -> BoardDocument:
        """Return a board on the file at `path` (see :func:`load_start_file`).

        `table`, `step` and `phase` choose the position of a client save.
        """
        scene, target, source = load_start_file(path, table=table, step=step, phase=phase)
        return cls(scene, target, read_only=read_only, source=source)

    @property
    def version(self) -> int:
        """The current version, 1 at the start, one more for every change."""
        return self._version

    @property
    def target(self) -> SaveTarget:
        """Where the next save writes (it may move on when its name is taken)."""
        return self._target

    def snapshot(self) -> tuple[int, dict[str, Any]]:
        """Return ``(version, scene)``, a consistent pair (the scene is not to be changed)."""
        with self._lock:
            return self._version, self._scene

    def scene(self) -> dict[str, Any]:
        """Return the current scene-file structure (not to be changed)."""
        return self.snapshot()[1]

    def check_writable(self, where: str) -> None:
        """Refuse a change or a save of a read-only board.

        Raises
        ------
        ReadOnlyError
            On a board started with ``--read-only``; ``where`` is `where`.
        """
        if self.read_only:
            raise ReadOnlyError(
                "the board is read-only (started with --read-only): "
                "it takes no changes and saves nothing",
                where=where,
            )

    def replace(self, version: int, scene: dict[str, Any]) -> int:
        """Replace the scene if `version` is the current one; return the new version.

        Raises
        ------
        ReadOnlyError
            On a read-only board.
        StaleVersionError
            When `version` is not the current version (nothing changes).
        SceneError
            For a scene that does not fit ``scene-format.md`` (nothing changes); its
            ``where`` begins with ``scene``.
        """
        self.check_writable("PUT /api/scene")
        parse_scene(scene, "scene")
        with self._lock:
            if version != self._version:
                raise StaleVersionError(
                    f"the board is at version {self._version}, not {version}; "
                    "reload it and make the change again",
                    where="version",
                )
            self._scene = scene
            self._version += 1
            return self._version

    def save(self) -> Path:
        """Write the current scene to the save target atomically; return the path written.

        Raises
        ------
        ReadOnlyError
            On a read-only board.
        InvalidInputError
            When the file cannot be written (no folder, no permission, a full disk), or
            the scene file the board was started on is read-only.
        """
        self.check_writable("POST /api/save")
        with self._lock:
            scene = self._scene
            if not self._target.own:
                path = self._target.path
                # The file the board was started on: a read-only one is refused (400), as
                # every command refuses it, never replaced by the rename.
                text = file_text(scene, path, kind="scene")
                atomic_write(path, text, force=True, read_only_kept=True)
                return path
            path = self._own_path()
            payload = file_text(scene, path, kind="scene").encode("utf-8")
            atomic_write(path, payload, force=self._is_ours(path))
            self._written = payload
            self._target = SaveTarget(path, own=True)
            return path

    def _is_ours(self, path: Path) -> bool:
        """Whether `path` is a regular file holding what the board last wrote there.

        By content, not by inode: a file deleted and made anew may get the same inode.
        """
        if self._written is None:
            return False
        try:
            info = os.lstat(path)
            if not stat.S_ISREG(info.st_mode) or info.st_size != len(self._written):
                return False
            return path.read_bytes() == self._written
        except OSError:
            return False

    def _own_path(self) -> Path:
        """Return the target, or the next free name when another file took it."""
        first = self._target.path
        if self._is_ours(first) or not os.path.lexists(first):
            return first
        stem = first.name.removesuffix(".toml")
        for number in range(2, _MOST_SAVE_NAMES + 1):
            candidate = first.with_name(f"{stem}-{number}.toml")
            if not os.path.lexists(candidate):
                return candidate
        raise InvalidInputError(
            f"every name from {first.name} to {stem}-{_MOST_SAVE_NAMES}.toml is taken "
            "by another file; the board writes over none of them",
            where=str(first),
        )
