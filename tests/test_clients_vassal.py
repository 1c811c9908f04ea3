"""VASSAL saves and logs: encodings, commands, poses, steps, and every bad input refused.

Expected numbers are worked by hand from the format's facts: 2.825 px per mm, a 2583 px
board (914.34 mm) with y down and player 1 at the bottom, a FreeRotator angle counter-
clockwise on screen, a ship at angle 0 facing up (heading = 90 + angle), an obstacle's
reference point at the piece's position plus its mask centroid.
"""

from __future__ import annotations

import io
import json
import lzma
import re
import zipfile
from pathlib import Path

import pytest
from clients_vassal_writer import (
    ESC,
    VObstacle,
    VShip,
    chain,
    move_command,
    obstacle_command,
    other_command,
    saved_game,
    ship_command,
    vsav,
)
from common import run, run_json

from tabletop.app.clients import ClientFileError, read_client, read_steps
from tabletop.app.clients.archive import MAX_ENTRIES, read_zip_entry, xz_decompress
from tabletop.app.clients.vassal import to_scene_mm
from tabletop.app.clients.vassal_codec import (
    flatten_commands,
    join_tokens,
    obfuscate,
    split_tokens,
    unwrap,
)

ENCODINGS = ("xz", "obfuscated", "plain")
# Half a pixel, plus the 0.0001 mm to which the reader writes coordinates.
HALF_PIXEL_MM = 0.5 / 2.825 + 1e-4


def test_board_and_pixels_by_hand() -> None:
    # 2583 px / 2.825 px per mm = 914.336 mm: the board; 0.06 mm short of 914.4.
    assert to_scene_mm(2583, 0) == pytest.approx((914.3363, 914.3363), abs=1e-4)
    assert to_scene_mm(0, 2583) == (0.0, 0.0)
    # 283 px = 100.177 mm; y 2300 px is 283 px above the bottom edge.
    assert to_scene_mm(283, 2300) == pytest.approx((100.1770, 100.1770), abs=1e-4)


def test_sequence_encoder_by_hand() -> None:
    # A delimiter inside a token gets a backslash; a token starting with a backslash, or
    # starting and ending with a quote, is quoted (SequenceEncoder.append).
    assert join_tokens(["a;b", "\\x", "'q'", ""], ";") == "a\\;b;'\\x';''q'';"
    assert split_tokens("a\\;b;'\\x';''q'';", ";") == ["a;b", "\\x", "'q'", ""]
    assert split_tokens("", ";") == [""]
    # Two levels of tabs, as a decorator chain writes them.
    outer = join_tokens(["rotate;1", join_tokens(["PROP;x", "piece;;;;Rock"], "\t")], "\t")
    assert outer == "rotate;1\tPROP;x\\\tpiece;;;;Rock"
    assert split_tokens(outer, "\t") == ["rotate;1", "PROP;x\tpiece;;;;Rock"]


def test_nested_commands_flatten_in_order() -> None:
    inner = join_tokens(["", "+/1/t/s", join_tokens(["+/2/t/s", "+/3/t/s"], ESC)], ESC)
    text = join_tokens(["begin_save", inner, "end_save"], ESC)
    assert flatten_commands(text) == ["begin_save", "+/1/t/s", "+/2/t/s", "+/3/t/s", "end_save"]


def test_obfuscation_by_hand() -> None:
    # 'A' is 0x41; 0x41 XOR 0x5a = 0x1b; the key is written first.
    assert obfuscate("A", 0x5A) == b"!VCSK5a1b"
    assert unwrap(b"!VCSK5A1B") == ("obfuscated", "A")
    assert unwrap(lzma.compress(b"begin_save")) == ("xz", "begin_save")
    assert unwrap(b"begin_save") == ("plain", "begin_save")


def _write(tmp_path: Path, data: bytes, name: str = "game.vsav") -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def test_ship_and_obstacle_poses_by_hand(tmp_path: Path) -> None:
    ship_type, ship_state = chain(
        [
            ("PROP;Pilot Name;false,0,100,false;", "Wedge Antilles"),
            ("rotate;360;;;;;;;", "90"),  # index 90: angle -90: heading 0
            ("piece;;;;ship -- Stem2e Medium Ship", "Map0;283;2300;1;0"),
        ]
    )
    rock_type, rock_state = chain(
        [
            ("rotate;1;82,130;Rotate", "90.0"),
            ("piece;;;;Asteroid 11", "Map0;1000;1000;2;0"),
        ]
    )
    faces = "Debris_4.png,Debris_4f.png"
    debris_type, debris_state = chain(
        [
            ("rotate;1;82,130;Rotate", "0.0"),
            (f"emb2;Activate;2;;Cycle Shape;2;;;2;;;;1;false;0;0;{faces};,;true;Rock", "2"),
            ("piece;;;;Debris 4", "Map0;1000;1000;3;0"),
        ]
    )
    text = join_tokens(
        [
            "begin_save",
            "+/" + join_tokens(["s1", ship_type, ship_state], "/"),
            "+/" + join_tokens(["o1", rock_type, rock_state], "/"),
            "+/" + join_tokens(["o2", debris_type, debris_state], "/"),
            "end_save",
        ],
        ESC,
    )
    report = run_json("import", _write(tmp_path, vsav(text, "plain")), "--json")
    ship, rock, debris = report["imported"]
    assert ship["id"] == "Wedge Antilles"
    assert ship["source_id"] == "s1"
    assert ship["became"] == "medium"
    assert ship["heading"] == 0.0
    assert ship["player"] == 1
    assert ship["at"] == pytest.approx([100.1770, 100.1770], abs=1e-4)
    # Asteroid 11 (core2asteroid1): mask centroid (-5.556, -4.574) mm from the piece;
    # turned 90 degrees counter-clockwise it is (4.574, -5.556). The piece stands at
    # 1000 px = 353.9823 mm and 2583 - 1000 = 1583 px = 560.3540 mm.
    assert rock["became"] == "core2asteroid1"
    assert rock["angle"] == 90.0
    assert rock["at"] == pytest.approx([353.9823 + 4.574, 560.3540 - 5.556], abs=2e-3)
    # Debris 4 (yt2400debris1) showing its back (its rock layer at image 2): the back
    # image's reference point is (-7.295, 0.562) mm from the piece (vassal-obstacles.json,
    # measured on Debris_4f.png), not the mirrored front's (-6.217, 0.568).
    assert debris["flipped"] is True
    assert debris["angle"] == 0.0
    assert debris["at"] == pytest.approx([353.9823 - 7.295, 560.3540 + 0.562], abs=2e-3)
    assert report["resolution"] == {"position_mm": 0.353982, "heading_deg": 1.0}
    assert report["source"] == {"client": "vassal-xwing", "format": "vsav", "version": None}
    assert report["table"]["source_id"] == "Map0"
    # 2583 / 2.825 = 914.336 mm: 0.064 mm short of 914.4, below the 0.354 mm resolution.
    assert "914.34 mm, 0.06 mm short of the scene's 914.4 mm" in report["table"]["name"]
    assert any("player 1's edge" in text for text in report["unconfirmed"])


SHIPS = [
    VShip("s1", "Wedge Antilles", "Small", 100.0, 50.0, 90),
    VShip("s2", "Darth Vader", "Large", 400.0, 860.0, 270),
    VShip("s3", "Wedge Antilles", "Medium", 700.0, 60.0, 45),
]
OBSTACLES = [
    VObstacle("o1", "Asteroid 11", 300.0, 400.0, 37.5),
    VObstacle("o2", "Debris 4", 600.0, 500.0, 200.25, flipped=True),
    VObstacle("o3", "Gas Cloud 5", 450.0, 700.0, 0.0),
]


def _restore() -> list[str]:
    return [
        *(ship_command(s) for s in SHIPS),
        *(obstacle_command(o) for o in OBSTACLES),
        other_command("t1", "Focus Token"),
    ]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_each_encoding_reads_the_same_scene(tmp_path: Path, encoding: str) -> None:
    path = _write(tmp_path, vsav(saved_game(_restore()), encoding))
    report = run_json("import", path, "--json")
    ids = [i["id"] for i in report["imported"]]
    assert ids == [
        "Wedge Antilles",
        "Darth Vader",
        "Wedge Antilles-2",
        "Asteroid 11",
        "Debris 4",
        "Gas Cloud 5",
    ]
    assert report["skipped"] == [
        {"id": "t1", "name": "Focus Token", "reason": "not a ship or an obstacle of the catalog"}
    ]
    got = {i["source_id"]: i for i in report["imported"]}
    for ship in SHIPS:
        entry = got[ship.piece_id]
        assert entry["at"] == pytest.approx([ship.x_mm, ship.y_mm], abs=HALF_PIXEL_MM)
        assert entry["heading"] == ship.heading
        assert entry["became"] == ship.base.lower()
    assert got["s2"]["player"] == 2
    for obstacle in OBSTACLES:
        entry = got[obstacle.piece_id]
        assert entry["at"] == pytest.approx([obstacle.x_mm, obstacle.y_mm], abs=HALF_PIXEL_MM)
        assert entry["angle"] == pytest.approx(obstacle.angle, abs=1e-9)
        assert entry["flipped"] is obstacle.flipped
    assert got["o3"]["became"] == "gascloud5"


def test_a_bare_savedgame_reads_too(tmp_path: Path) -> None:
    path = _write(tmp_path, saved_game(_restore()).encode(), "savedGame")
    assert len(read_client(path).imported) == 6


def _log() -> bytes:
    steps = [
        [move_command("s1", 100.0, 150.0)],
        ["CHATWedge Antilles performs Forward 2", move_command("s1", 100.0, 230.0)],
        [move_command("s2", 60.0, 860.0), move_command("s3", 700.0, 160.0)],
    ]
    return vsav(saved_game(_restore(), steps), "xz")


def test_log_steps_moved_and_described(tmp_path: Path) -> None:
    path = _write(tmp_path, _log(), "game.vlog")
    steps = read_steps(path)
    assert [s.step for s in steps] == [0, 1, 2, 3]
    assert [s.moved for s in steps] == [
        (),
        ("Wedge Antilles",),
        ("Wedge Antilles",),
        ("Darth Vader", "Wedge Antilles-2"),
    ]
    assert steps[2].description == "Wedge Antilles performs Forward 2"
    assert steps[3].description == "2 moved"
    # Step 0 is where the log starts; step 2 after its second entry.
    first = {i.id: i for i in steps[0].position.imported}["Wedge Antilles"]
    second = {i.id: i for i in steps[2].position.imported}["Wedge Antilles"]
    assert first.y_mm == pytest.approx(50.0, abs=HALF_PIXEL_MM)
    assert second.y_mm == pytest.approx(230.0, abs=HALF_PIXEL_MM)
    assert steps[3].position.source.format == "vlog"


def test_log_through_the_cli(tmp_path: Path) -> None:
    path = _write(tmp_path, _log(), "game.vlog")
    listed = run_json("import", path, "--steps", "--json")
    assert [s["step"] for s in listed["steps"]] == [0, 1, 2, 3]
    at_one = run_json("import", path, "--step", "1", "--json")
    wedge = next(i for i in at_one["imported"] if i["id"] == "Wedge Antilles")
    assert wedge["at"][1] == pytest.approx(150.0, abs=HALF_PIXEL_MM)
    last = run_json("import", path, "--json")
    wedge = next(i for i in last["imported"] if i["id"] == "Wedge Antilles")
    assert wedge["at"][1] == pytest.approx(230.0, abs=HALF_PIXEL_MM)
    code, _out, err = run("import", path, "--step", "9")
    assert code == 2
    assert "--step 9" in err
    assert "0 to 3" in err


def test_stacked_piece_stands_at_its_stack(tmp_path: Path) -> None:
    stack = "+/" + join_tokens(["st1", "stack", "Map0;283;2300;s1;@@3"], "/")
    move = "M/" + join_tokens(
        ["st1", "Map0", "566", "2300", "null", "Map0", "283", "2300", "null", "p"], "/"
    )
    text = saved_game([ship_command(SHIPS[0]), stack], [[move]])
    path = _write(tmp_path, vsav(text, "plain"), "game.vlog")
    ship = read_client(path).imported[0]
    assert ship.x_mm == pytest.approx(566 / 2.825, abs=1e-4)
    assert ship.y_mm == pytest.approx(283 / 2.825, abs=1e-4)


def test_two_maps_need_table(tmp_path: Path) -> None:
    other = ship_command(VShip("h1", "Han Solo", "Large", 100.0, 100.0, 90), map_id="Map1")
    path = _write(tmp_path, vsav(saved_game([*_restore(), other]), "plain"))
    code, _out, err = run("import", path)
    assert code == 2
    assert "Map0 (6 pieces)" in err
    assert "Map1 (1 pieces)" in err
    assert "--table" in err
    chosen = run_json("import", path, "--table", "Map1", "--json")
    assert [i["id"] for i in chosen["imported"]] == ["Han Solo"]
    skipped = {s["id"]: s["reason"] for s in chosen["skipped"]}
    assert skipped["s1"] == "on map 'Map0', not the table"


def _zip(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _refused(tmp_path: Path, data: bytes, *expected: str) -> str:
    path = _write(tmp_path, data)
    out = tmp_path / "out.toml"
    code, _stdout, err = run("import", path, "-o", out)
    assert code == 2, err
    assert path in err
    for text in expected:
        assert text in err, err
    assert not out.exists()
    return err


def test_truncated_zip_refused(tmp_path: Path) -> None:
    whole = vsav(saved_game(_restore()), "plain")
    _refused(tmp_path, whole[: len(whole) // 2], "truncated or damaged zip")


def test_zip_bomb_refused_with_its_figures(tmp_path: Path) -> None:
    # 20 MiB of zeros deflate to about 20 KiB: far over 100:1.
    bomb = _zip({"savedGame": b"begin_save" + bytes(20 * 1024 * 1024)})
    err = _refused(tmp_path, bomb, "entry 'savedGame'", "compression bomb", "at most 100:1")
    assert re.search(r"more than \d+ bytes \([\d.]+ MiB\) from \d+ compressed bytes", err)


def test_xz_bomb_refused_with_its_figures(tmp_path: Path) -> None:
    bomb = _zip({"savedGame": lzma.compress(bytes(20 * 1024 * 1024), format=lzma.FORMAT_XZ)})
    _refused(tmp_path, bomb, "entry 'savedGame'", "compression bomb")


def test_archive_over_64_mib_declared_refused(tmp_path: Path) -> None:
    big = _zip({"savedGame": b"begin_save", "images/big": bytes(65 * 1024 * 1024)})
    _refused(tmp_path, big, "declares 68157450 bytes", "64 MiB")


def test_too_many_entries_refused() -> None:
    many = _zip({"savedGame": b"begin_save", **{f"e{i}": b"" for i in range(MAX_ENTRIES)}})
    with pytest.raises(ClientFileError, match="10001 entries; at most 10000"):
        read_zip_entry(many, "many.vsav", "savedGame")


def test_small_high_ratio_entry_is_read() -> None:
    # Under 1 MiB out a high ratio costs nothing: a short save of repeated pieces.
    data = b"x" * (512 * 1024)
    assert read_zip_entry(_zip({"savedGame": data}), "f.vsav", "savedGame") == data
    assert xz_decompress(lzma.compress(data), "f.vsav", "entry") == data


def test_truncated_xz_refused(tmp_path: Path) -> None:
    stream = lzma.compress(saved_game(_restore()).encode(), format=lzma.FORMAT_XZ)
    _refused(tmp_path, _zip({"savedGame": stream[: len(stream) // 2]}), "XZ stream", "savedGame")


def test_wrong_hex_refused(tmp_path: Path) -> None:
    good = obfuscate(saved_game(_restore()), 0x21)
    bad = good[:40] + b"zz" + good[42:]
    _refused(tmp_path, _zip({"savedGame": bad}), "byte 40 is b'z'", "hex digit")


def test_odd_hex_refused(tmp_path: Path) -> None:
    good = obfuscate(saved_game(_restore()), 0x21)
    _refused(tmp_path, _zip({"savedGame": good[:-1]}), "odd number of hex digits")


def test_missing_entry_and_bad_commands_refused(tmp_path: Path) -> None:
    _refused(tmp_path, _zip({"moduledata": b"x", "savedGame-old": b"y"}), "no 'savedGame' entry")
    _refused(tmp_path, vsav("begin_save" + ESC + "+/s1/x", "plain"), "no end_save")
    bad_move = "M/" + join_tokens(["s1", "Map0", "ten", "5"], "/")
    text = saved_game([ship_command(SHIPS[0])], [[bad_move]])
    _refused(tmp_path, vsav(text, "plain"), "piece 's1'", "MovePiece.x", "'ten'")
    far_type, far_state = chain([("piece;;;;Asteroid 5", "Map0;99999999999;5;1;0")])
    text = saved_game(["+/" + join_tokens(["far", far_type, far_state], "/")])
    _refused(tmp_path, vsav(text, "plain"), "piece 'far'", "state.x", "within ±2825000")
    nan_type, nan_state = chain([("rotate;1;;", "NaN"), ("piece;;;;Asteroid 5", "Map0;5;5;1;0")])
    text = saved_game(["+/" + join_tokens(["nan", nan_type, nan_state], "/")])
    _refused(tmp_path, vsav(text, "plain"), "piece 'nan'", "key 'rotate'", "finite angle")


def test_unknown_piece_names_are_skipped_with_reason(tmp_path: Path) -> None:
    odd_ship_type, odd_ship_state = chain(
        [("label;this_is_a_ship", ""), ("piece;;;;ship -- Stem2e Huge Thing", "Map0;1;1;1;0")]
    )
    text = saved_game(
        [
            "+/" + join_tokens(["x1", odd_ship_type, odd_ship_state], "/"),
            other_command("x2", "Asteroid 99"),
        ]
    )
    report = run_json("import", _write(tmp_path, vsav(text, "plain")), "--json")
    assert report["imported"] == []
    assert {s["id"]: s["reason"] for s in report["skipped"]} == {
        "x1": "a ship whose piece does not name its base size",
        "x2": "not a ship or an obstacle of the catalog",
    }


def test_imported_save_checks_directly(tmp_path: Path) -> None:
    path = _write(tmp_path, vsav(saved_game(_restore()), "obfuscated"))
    code, out, err = run("check", path, "--json")
    assert code in (0, 1), err
    assert "violations" in json.loads(out)


def test_check_all_steps_names_the_first_illegal_step(tmp_path: Path) -> None:
    # Step 1 moves Wedge to (100, 150); step 2 puts Vader's large base (80 mm) on it:
    # centres 0 mm apart, an overlap; step 3 moves Vader away again.
    steps = [
        [move_command("s1", 100.0, 150.0)],
        [move_command("s2", 100.0, 150.0)],
        [move_command("s2", 400.0, 860.0)],
    ]
    path = _write(tmp_path, vsav(saved_game(_restore(), steps), "plain"), "game.vlog")
    code, out, err = run("check", path, "--all-steps", "--json")
    assert code == 1, err
    answer = json.loads(out)
    assert answer["steps_checked"] == 4
    assert answer["first_illegal_step"] == 2
    assert any(v["rule"] == "ship-overlap" for v in answer["violations"])


def test_version_from_the_module_metadata(tmp_path: Path) -> None:
    meta = b'<?xml version="1.0"?><data version="1"><version>9.4.3</version><VassalVersion>3.7.14</VassalVersion><name>Star Wars X-Wing Miniatures Game</name></data>'
    data = _zip({"savedGame": saved_game(_restore()).encode(), "moduledata": meta})
    report = run_json("import", _write(tmp_path, data), "--json")
    assert report["source"]["version"] == "module 9.4.3, VASSAL 3.7.14"


def test_a_bomb_in_the_metadata_is_refused_too(tmp_path: Path) -> None:
    data = _zip(
        {"savedGame": saved_game(_restore()).encode(), "moduledata": bytes(20 * 1024 * 1024)}
    )
    _refused(tmp_path, data, "entry 'moduledata'", "compression bomb")


def test_touching_bases_are_within_resolution(tmp_path: Path) -> None:
    # Centres 113 px apart: 113 / 2.825 = 40.000 mm, a small base's side: the bases touch,
    # margin 0, below the 0.354 mm VASSAL can show.
    pair = [
        VShip("a", "A", "Small", 283 / 2.825, 300 / 2.825, 90),
        VShip("b", "B", "Small", 396 / 2.825, 300 / 2.825, 90),
    ]
    path = _write(tmp_path, vsav(saved_game([ship_command(s) for s in pair]), "plain"))
    answer = run_json("check", path, "--margins", "--json")
    overlap = next(m for m in answer["margins"] if m["rule"] == "ship-overlap")
    assert overlap["objects"] == ["A", "B"]
    assert overlap["distance"] == pytest.approx(0.0, abs=1e-6)
    assert overlap["within_resolution"] is True
    # The bases share the edge x = 283 / 2.825 + 20 = 120.177 mm.
    assert overlap["points"][0][0] == pytest.approx(283 / 2.825 + 20.0, abs=1e-3)


def test_the_table_map_is_taken_over_a_players_map(tmp_path: Path) -> None:
    # The module's table is the map named Contested Sector; a ship still on the map
    # "Player 1" (where the module spawns a squad) is skipped, not an error.
    on_table = ship_command(SHIPS[0], map_id="Contested Sector")
    in_hand = ship_command(SHIPS[1], map_id="Player 1")
    path = _write(tmp_path, vsav(saved_game([on_table, in_hand]), "plain"))
    report = run_json("import", path, "--json")
    assert [i["source_id"] for i in report["imported"]] == ["s1"]
    assert report["table"]["source_id"] == "Contested Sector"
    assert report["skipped"] == [
        {
            "id": "s2",
            "name": "ship -- Stem2e Large Ship",
            "reason": "on map 'Player 1', not the table",
        }
    ]
