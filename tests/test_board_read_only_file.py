"""The board never saves over a scene file its owner made read-only (400, the file kept)."""

from __future__ import annotations

import stat
from pathlib import Path

from board_server_support import SMALL_SHIP, TOURNAMENT, client_of, error_of

from tabletop.app.board.document import BoardDocument


def test_a_read_only_scene_file_is_refused_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(TOURNAMENT.read_text("utf-8"), "utf-8")
    path.chmod(0o444)
    before = path.stat()
    with client_of(BoardDocument.open(str(path))) as client:
        put = client.put("/api/scene", json={"version": 1, "scene": SMALL_SHIP})
        assert put.status_code == 200  # the board's own copy changes; the file does not
        error = error_of(client.post("/api/save"), 400)
    assert error["where"] == str(path)
    assert "is read-only; refusing to replace it" in error["message"]
    after = path.stat()
    assert (after.st_ino, stat.S_IMODE(after.st_mode)) == (before.st_ino, 0o444)
    assert path.read_text("utf-8") == TOURNAMENT.read_text("utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.toml"]  # no temporary


def test_a_writable_scene_file_is_still_saved(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(TOURNAMENT.read_text("utf-8"), "utf-8")
    path.chmod(0o640)
    with client_of(BoardDocument.open(str(path))) as client:
        client.put("/api/scene", json={"version": 1, "scene": SMALL_SHIP})
        assert client.post("/api/save").json() == {"saved": str(path)}
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
