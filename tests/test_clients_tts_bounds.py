"""The TTS reader's bounds: counted before the work, a linear read, and pieces placed.

A save of more objects than a scene may hold is refused before any object is read; the
read of a save at the bound takes time in proportion to its objects; a ship or obstacle
without its position is refused naming the key, not placed at the table's origin.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from common import run
from tts_saves import RED_BLUE_X, die, mat, save, ship

from tabletop.app.clients import ClientFileError, read_client, tts_objects

#: A scene's most objects, and so a save's (counted before any is read).
MAX_TTS_OBJECTS = 10_000


def _ships(count: int) -> list[dict[str, Any]]:
    """`count` small ships on the Red-Blue mat, a grid 1 mm apart."""
    return [
        ship(f"g{i}", f"Ship {i}", "small", 50.0 + i % 800, 50.0 + (i // 800) % 800, 0.0)
        for i in range(count)
    ]


def test_the_bound_is_the_scene_limit() -> None:
    assert tts_objects.MAX_TTS_OBJECTS == MAX_TTS_OBJECTS


def test_one_object_past_the_bound_is_refused_before_any_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def never(*args: Any) -> None:
        raise AssertionError("an object was read before the count was checked")

    monkeypatch.setattr(tts_objects.TtsObject, "parse", never)
    data = json.dumps(save([{"GUID": "x"}] * (MAX_TTS_OBJECTS + 1))).encode()
    with pytest.raises(ClientFileError, match="expected at most 10000 objects, got 10001"):
        read_client(data, name="t.json")


def test_at_the_bound_every_ship_is_read_in_linear_time() -> None:
    # 10,000 ships all on the mat: a membership test of each in the list of those on the
    # table (the quadratic read) took 1.5 s of CPU here; the linear read about 0.4 s.
    data = json.dumps(save([mat("m1", "Red-Blue", RED_BLUE_X), *_ships(9_999)])).encode()
    read_client(json.dumps(save(_ships(10))).encode(), name="warm.json")
    started = time.process_time()
    position = read_client(data, name="t.json")
    spent = time.process_time() - started
    assert len(position.imported) == 9_999
    assert spent < 1.0, spent


def test_a_hundred_thousand_ships_are_refused_fast(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(save(_ships(100_000))))
    started = time.process_time()
    code, _, err = run("import", path, "-o", tmp_path / "out.toml")
    assert code == 2
    assert "key 'ObjectStates': expected at most 10000 objects, got 100000" in err
    assert time.process_time() - started < 5.0
    assert not (tmp_path / "out.toml").exists()


@pytest.mark.parametrize(
    ("drop", "key"),
    [(None, "Transform"), ("posX", "Transform.posX"), ("posZ", "Transform.posZ"),
     ("rotY", "Transform.rotY")],
)  # fmt: skip
def test_a_ship_without_its_position_is_refused_naming_the_key(
    tmp_path: Path, drop: str | None, key: str
) -> None:
    lost = ship("s9", "Wedge", "small", 100.0, 100.0, 0.0)
    if drop is None:
        del lost["Transform"]
    else:
        del lost["Transform"][drop]
    path = tmp_path / "save.json"
    path.write_text(json.dumps(save([ship("s1", "Luke", "small", 200.0, 200.0, 0.0), lost])))
    code, _, err = run("import", path, "-o", tmp_path / "out.toml")
    assert code == 2
    assert f"object 's9': key '{key}': a ship without its position" in err
    assert not (tmp_path / "out.toml").exists()


def test_an_object_that_is_no_piece_needs_no_position() -> None:
    loose = die("d1")
    del loose["Transform"]
    position = read_client(
        json.dumps(save([ship("s1", "Luke", "small", 200.0, 200.0, 0.0), loose])).encode(),
        name="t.json",
    )
    assert [p.id for p in position.imported] == ["Luke"]
    assert [s.id for s in position.skipped] == ["d1"]
