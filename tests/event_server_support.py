"""Shared by the tests of ``tabletop event serve``: events made by the CLI, a client per role."""

from __future__ import annotations

import io
import json
import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():  # Starlette's TestClient would rather have httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tabletop.app.cli import main
from tabletop.app.event.server.command import create_app
from tabletop.app.event.server.hub import EventHub

__all__ = ["BASE", "Roles", "TestClient", "armada_event", "cli", "destiny_event", "roles_of"]

BASE = "http://127.0.0.1:8766"
ARMADA_PLAYERS = [
    ("andrea", "Andrea Rossi", "rebel"),
    ("silvia", "Silvia Bianchi", "imperial"),
    ("carlo", "Carlo Verdi", "rebel"),
    ("michele", "Michele Neri", "imperial"),
]


def cli(*words: str) -> tuple[int, Any]:
    """Run ``tabletop WORDS --json``; return the exit code and the JSON printed (or None)."""
    out, err = io.StringIO(), io.StringIO()
    code = main([*words, "--json"], out, err)
    text = out.getvalue()
    return code, json.loads(text) if text.strip() else None


def armada_event(folder: Path, name: str = "store.toml", players: int = 4) -> Path:
    """Write a paired Armada event (round 1) by the CLI; return its path."""
    rows = ["id,name,faction"] + [",".join(p) for p in ARMADA_PLAYERS[:players]]
    rows += [f"p{i},Player {i},rebel" for i in range(players - len(ARMADA_PLAYERS))]
    (folder / "players.csv").write_text("\n".join(rows) + "\n")
    path = folder / name
    assert cli("event", "new", "--game", "armada", "--players", str(folder / "players.csv"),
               "--seed", "6", "--name", "Store", "-o", str(path))[0] == 0  # fmt: skip
    assert cli("event", "pair", str(path))[0] == 0
    return path


def destiny_event(folder: Path, players: int = 6) -> Path:
    """Write a paired Destiny event (round 1, custom: 3 Swiss rounds) by the CLI."""
    rows = ["id,name"] + [f"d{i},Dee {i}" for i in range(players)]
    (folder / "d.csv").write_text("\n".join(rows) + "\n")
    path = folder / "destiny.toml"
    assert cli("event", "new", "--game", "destiny", "--players", str(folder / "d.csv"),
               "--structure", "custom", "--swiss-rounds", "3", "-o", str(path))[0] == 0  # fmt: skip
    assert cli("event", "pair", str(path))[0] == 0
    return path


class Roles:
    """The hub, the client and the headers of each role for one served event."""

    def __init__(self, path: Path, **options: Any) -> None:
        read_only = options.pop("read_only", False)
        self.hub = EventHub(path, read_only=read_only)
        self.app = create_app(self.hub, port=8766, **options)
        self.client = TestClient(self.app, base_url=BASE, raise_server_exceptions=False)
        self.secrets = self.hub.snapshot.secrets
        self.path = path

    def to(self) -> dict[str, str]:
        """The TO's headers."""
        return {"Authorization": f"Bearer {self.secrets.token}"}

    def player(self, pid: str) -> dict[str, str]:
        """A player's headers."""
        return {"Authorization": f"Bearer {self.secrets.codes[pid]}"}

    def table_of(self, pid: str) -> dict[str, Any]:
        """The current round's pair of `pid`."""
        event = self.client.get("/api/event").json()
        return next(p for p in event["pairs"] if pid in p["players"])


def roles_of(path: Path, **options: Any) -> Roles:
    """Serve the event at `path` (through the guard) and return its roles."""
    return Roles(path, **options)
