"""The board's server without a browser: the document, the answers, every refusal.

Requests go through Starlette's TestClient to the whole application (guard included).
Numbers are worked out by hand from the scene-format frame: a ship's base is
width across and length along its heading, centred on its position; a heading or an
angle turns counter-clockwise from +x.
"""

from __future__ import annotations

import json
import math
import os
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import shapely
from board_server_support import (
    ROOT,
    SMALL_SHIP,
    TOURNAMENT,
    TestClient,
    client_of,
    error_of,
    scene_text,
)

from tabletop.app.board import api
from tabletop.app.board.document import BoardDocument, SaveTarget
from tabletop.app.query.answers import answer
from tabletop.app.scene.scenefile import parse_scene, read_scene_data


@pytest.fixture
def board() -> BoardDocument:
    return BoardDocument.open(str(TOURNAMENT))


@pytest.fixture
def client(board: BoardDocument) -> Iterator[TestClient]:
    with client_of(board) as test_client:
        yield test_client


# --- the document -------------------------------------------------------------------------


def test_get_scene_is_the_file_as_read(client: TestClient) -> None:
    body = client.get("/api/scene").json()
    assert body == {"version": 1, "scene": read_scene_data(TOURNAMENT)}


def test_put_raises_the_version_and_get_gives_back_what_was_put(client: TestClient) -> None:
    scene = read_scene_data(TOURNAMENT)
    scene["obstacles"][0]["at"] = [260.5, 301.25]
    response = client.put("/api/scene", json={"version": 1, "scene": scene})
    assert response.status_code == 200
    assert response.json() == {"version": 2}
    expected = json.dumps({"version": 2, "scene": scene}, ensure_ascii=False)
    assert scene_text(client) == expected


def test_a_stale_version_is_409_and_changes_nothing(client: TestClient) -> None:
    scene = read_scene_data(TOURNAMENT)
    assert client.put("/api/scene", json={"version": 1, "scene": scene}).status_code == 200
    before = scene_text(client)
    error = error_of(client.put("/api/scene", json={"version": 1, "scene": SMALL_SHIP}), 409)
    assert error == {
        "message": "the board is at version 2, not 1; reload it and make the change again",
        "where": "version",
    }
    assert scene_text(client) == before


def test_an_invalid_scene_is_400_with_the_cli_message_and_changes_nothing(
    client: TestClient,
) -> None:
    before = scene_text(client)
    bad = {"obstacles": [{"id": "x", "token": "nope", "at": [1, 2]}]}
    error = error_of(client.put("/api/scene", json={"version": 1, "scene": bad}), 400)
    with pytest.raises(ValueError, match="unknown token") as raised:
        parse_scene(bad, "scene")
    assert error["message"] == raised.value.message  # type: ignore[attr-defined]
    assert error["where"] == "scene: obstacles[0] 'x': key 'token'"
    assert scene_text(client) == before


@pytest.mark.parametrize(
    ("body", "where"),
    [
        (b"{not json", "request body"),
        (b"", "request body"),
        (b"\xff\xfe{}", "request body"),
        (b"[1, 2]", "request body"),
        (b'{"version": 1}', "key 'scene'"),
        (b'{"scene": {}}', "key 'version'"),
        (b'{"version": 1, "scene": {}, "extra": 1}', "key 'extra'"),
        (b'{"version": true, "scene": {}}', "version"),
        (b'{"version": "1", "scene": {}}', "version"),
        (b'{"version": 1.0, "scene": {}}', "version"),
        (b'{"version": 1, "version": 1, "scene": {}}', "request body"),
        (
            b'{"version": 1, "scene": {"ships": [{"id": "a", "base": "small", "at": [NaN, 1]}]}}',
            None,
        ),
    ],
)
def test_a_malformed_put_is_400_and_changes_nothing(
    client: TestClient, body: bytes, where: str | None
) -> None:
    before = scene_text(client)
    error = error_of(client.put("/api/scene", content=body), 400)
    if where is not None:
        assert error["where"] == where
    else:
        assert error["where"] == "scene: ships[0] 'a': key 'at'"
    assert scene_text(client) == before


# --- saving ---------------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_save_writes_the_started_file_in_its_format(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"table{suffix}"
    path.write_text(
        json.dumps(SMALL_SHIP) if suffix == ".json" else TOURNAMENT.read_text(), "utf-8"
    )
    with client_of(BoardDocument.open(str(path))) as client:
        scene = {"ruleset": "xwing2", "obstacles": [], "ships": SMALL_SHIP["ships"]}
        assert client.put("/api/scene", json={"version": 1, "scene": scene}).status_code == 200
        response = client.post("/api/save")
    assert response.status_code == 200
    assert response.json() == {"saved": str(path)}
    text = path.read_text("utf-8")
    written = tomllib.loads(text) if suffix == ".toml" else json.loads(text)
    assert written == scene
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no temporary left


def test_save_without_a_file_writes_board_toml_and_never_over_another_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "board.toml").write_text("# someone else's file\n", "utf-8")
    with client_of(BoardDocument.empty()) as client:
        first = client.post("/api/save").json()
        assert first == {"saved": "board-2.toml"}
        put = client.put("/api/scene", json={"version": 1, "scene": SMALL_SHIP})
        assert put.status_code == 200
        assert client.post("/api/save").json() == {"saved": "board-2.toml"}  # its own file
    assert (tmp_path / "board.toml").read_text("utf-8") == "# someone else's file\n"
    assert tomllib.loads((tmp_path / "board-2.toml").read_text("utf-8")) == SMALL_SHIP


def test_a_file_of_ours_replaced_by_another_is_not_written_over(tmp_path: Path) -> None:
    target = tmp_path / "game.board.toml"
    board = BoardDocument(dict(SMALL_SHIP), SaveTarget(target, own=True), source="game.vsav")
    assert board.save() == target
    target.unlink()
    target.write_text("# not ours any more\n", "utf-8")
    assert board.save() == tmp_path / "game.board-2.toml"
    assert target.read_text("utf-8") == "# not ours any more\n"


def test_read_only_refuses_put_and_save_with_403(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(TOURNAMENT.read_text("utf-8"), "utf-8")
    with client_of(BoardDocument.open(str(path), read_only=True)) as client:
        before = scene_text(client)
        put = client.put("/api/scene", json={"version": 1, "scene": SMALL_SHIP})
        assert "read-only" in error_of(put, 403)["message"]
        assert error_of(client.post("/api/save"), 403)["where"] == "POST /api/save"
        assert scene_text(client) == before
        query = {"op": "check", "scene": SMALL_SHIP}
        assert client.post("/api/query", json=query).status_code == 200
    assert path.read_text("utf-8") == TOURNAMENT.read_text("utf-8")


# --- the command line's answers -------------------------------------------------------------


@pytest.mark.parametrize(
    "request_",
    [
        {"op": "check", "scene": SMALL_SHIP, "margins": True},
        {"op": "measure", "scene": SMALL_SHIP, "from": "a", "to": "nope"},
        {"op": "move", "scene": SMALL_SHIP, "ship": "a", "maneuver": "bank 2 left"},
        {"op": "fly", "scene": SMALL_SHIP},
        {"op": "check", "scene": SMALL_SHIP, "colour": "red", "id": 7},
    ],
)
def test_query_answers_as_the_query_function(client: TestClient, request_: Any) -> None:
    line = json.dumps(request_)
    response = client.post("/api/query", content=line)
    expected = answer(line, 1, strict=False)
    assert response.json() == expected
    assert response.status_code == (400 if "error" in expected else 200)


def test_query_refuses_an_unknown_op_and_malformed_json(client: TestClient) -> None:
    unknown = error_of(client.post("/api/query", json={"op": "fly", "scene": {}}), 400)
    assert unknown["message"].startswith("unknown op 'fly'; expected one of: check")
    assert error_of(client.post("/api/query", content=b"{"), 400)["where"] == "request 1"


# --- the palette and the mat ------------------------------------------------------------------


def corners(cx: float, cy: float, width: float, length: float, heading: float) -> list[Any]:
    """A base's corners by the scene frame: `length` along the heading, `width` across."""
    f = (math.cos(math.radians(heading)), math.sin(math.radians(heading)))
    r = (math.sin(math.radians(heading)), -math.cos(math.radians(heading)))
    return [
        (
            cx + a * length / 2 * f[0] + b * width / 2 * r[0],
            cy + a * length / 2 * f[1] + b * width / 2 * r[1],
        )
        for a, b in ((1, 1), (1, -1), (-1, -1), (-1, 1))
    ]


def same_ring(got: list[list[float]], expected: list[Any]) -> bool:
    """Whether two outlines are the same polygon (any start vertex, to 1e-5 mm)."""
    a, b = shapely.Polygon(got), shapely.Polygon(expected)
    close = shapely.hausdorff_distance(a.exterior, b.exterior) < 1e-5
    return bool(a.is_valid and close and len(got) == len(expected))


def layout_of(client: TestClient, scene: Any) -> dict[str, Any]:
    response = client.post("/api/layout", json={"scene": scene})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_layout_outlines_are_the_bases_worked_out_by_hand(client: TestClient) -> None:
    ships = [
        {"id": "s", "base": "small", "at": [100, 200], "heading": 90},
        {"id": "h", "base": "huge", "at": [400, 400], "heading": 30},
    ]
    found = {o["id"]: o for o in layout_of(client, {"ships": ships})["objects"]}
    assert found["s"]["outline"] == [[80.0, 180.0], [120.0, 180.0], [120.0, 220.0], [80.0, 220.0]]
    assert same_ring(found["h"]["outline"], corners(400, 400, 80, 225, 30))
    assert (found["h"]["kind"], found["h"]["x"], found["h"]["y"], found["h"]["angle"]) == (
        "ship",
        400.0,
        400.0,
        30.0,
    )
    assert same_ring(found["h"]["local_outline"], corners(0, 0, 80, 225, 0))
    armada = {
        "ruleset": "armada",
        "ships": [
            {"id": "a0", "base": "small", "at": [100, 200], "heading": 0},
            {"id": "a90", "base": "small", "at": [100, 200], "heading": 90},
        ],
    }
    found = {o["id"]: o for o in layout_of(client, armada)["objects"]}
    # Armada small: 43 mm across, 71 mm along the heading.
    assert same_ring(
        found["a0"]["outline"], [(64.5, 178.5), (135.5, 178.5), (135.5, 221.5), (64.5, 221.5)]
    )
    assert same_ring(
        found["a90"]["outline"], [(78.5, 164.5), (121.5, 164.5), (121.5, 235.5), (78.5, 235.5)]
    )


def test_layout_obstacle_outlines_turn_and_flip_as_the_format_says(client: TestClient) -> None:
    triangle = [[-20, -10], [20, -10], [0, 25]]
    obstacles = [
        {"id": "t", "outline": triangle, "kind": "asteroid", "at": [600, 450], "angle": 90},
        {"id": "f", "outline": triangle, "at": [600, 450], "angle": 90, "flipped": True},
    ]
    found = {o["id"]: o for o in layout_of(client, {"obstacles": obstacles})["objects"]}
    # Turned 90° counter-clockwise: (x, y) -> (-y, x), then moved to (600, 450).
    assert same_ring(found["t"]["outline"], [(610, 430), (610, 470), (575, 450)])
    # Flipped: x -> -x first, which maps this triangle onto itself.
    assert same_ring(found["f"]["outline"], [(610, 430), (610, 470), (575, 450)])
    assert same_ring(found["t"]["local_outline"], triangle)


def test_local_outlines_turned_and_moved_are_the_outlines(client: TestClient) -> None:
    for obj in layout_of(client, read_scene_data(TOURNAMENT))["objects"]:
        turn = math.radians(obj["angle"])
        c, s = math.cos(turn), math.sin(turn)
        moved = [
            [obj["x"] + x * c - y * s, obj["y"] + x * s + y * c] for x, y in obj["local_outline"]
        ]
        assert same_ring(moved, obj["outline"]), obj["id"]
        assert obj["label"] == obj["id"]


def test_layout_regions_of_a_3ft_xwing_table(client: TestClient) -> None:
    body = layout_of(client, {"ruleset": "xwing2"})
    assert body["area"] == {"width": 914.4, "height": 914.4}
    assert body["ruler"] == {"kind": "range", "lines": [100.0, 200.0, 300.0]}
    kinds = [r["kind"] for r in body["regions"]]
    assert kinds.count("deployment") == 2
    zone = shapely.union_all(
        [shapely.Polygon(r["outline"]) for r in body["regions"] if r["kind"] == "no-obstacle"]
    )
    # Within 200 mm of any edge: the whole table less the 514.4 mm square in the middle.
    assert zone.area == pytest.approx(914.4**2 - 514.4**2, abs=1e-6)
    assert shapely.Point(457.2, 457.2).within(zone) is False
    assert shapely.Point(199.9, 457.2).within(zone) is True
    deploy = [shapely.Polygon(r["outline"]) for r in body["regions"] if r["kind"] == "deployment"]
    assert sorted(d.bounds for d in deploy) == [
        (0.0, 0.0, 914.4, 100.0),
        (0.0, 814.4, 914.4, 914.4),
    ]


def test_layout_regions_are_the_ones_render_draws(client: TestClient) -> None:
    from tabletop.plots import area as drawn

    for path in sorted((ROOT / "examples").glob("*.toml")):
        data = read_scene_data(path)
        scene = parse_scene(data)
        body = layout_of(client, data)
        zone = shapely.union_all(
            [shapely.Polygon(r["outline"]) for r in body["regions"] if r["kind"] == "no-obstacle"]
        )
        expected = drawn._no_obstacle_zone(scene)
        assert shapely.symmetric_difference(zone, expected).area < 1e-6, path.name
        for player in (1, 2):
            label = f"player {player} deployment"
            mine = shapely.union_all(
                [shapely.Polygon(r["outline"]) for r in body["regions"] if r["label"] == label]
            )
            assert (
                shapely.symmetric_difference(mine, drawn._deployment_zone(scene, player)).area
                < 1e-6
            )


def test_catalog_lists_every_token_and_base_in_its_own_frame(client: TestClient) -> None:
    from tabletop.geom.rulesets import get_ruleset
    from tabletop.obstacles.catalog import catalog

    for ruleset in ("xwing2", "xwing1", "armada"):
        body = client.get(f"/api/catalog?ruleset={ruleset}").json()
        assert body["ruleset"] == ruleset
        assert [t["name"] for t in body["tokens"]] == list(catalog(get_ruleset(ruleset)))
        assert body["rulesets"] == ["xwing2", "xwing1", "armada"]
        assert body["areas"] == ["3x3ft", "6x3ft", "180x90cm"]
    bases = {b["name"]: b["outline"] for b in client.get("/api/catalog").json()["bases"]}
    assert same_ring(bases["small"], [(-20, -20), (20, -20), (20, 20), (-20, 20)])
    armada = {
        b["name"]: b["outline"] for b in client.get("/api/catalog?ruleset=armada").json()["bases"]
    }
    assert same_ring(armada["small"], corners(0, 0, 43, 71, 0))
    assert error_of(client.get("/api/catalog?ruleset=chess"), 400)["where"] == "ruleset"
    assert error_of(client.get("/api/catalog?colour=red"), 400)["where"] == "colour"


def test_preview_move_is_the_query_answer_with_its_outlines(client: TestClient) -> None:
    scene = {"ships": [{"id": "a", "base": "small", "at": [100, 100], "heading": 90}]}
    body = client.post(
        "/api/preview-move", json={"scene": scene, "ship": "a", "maneuver": "straight 1"}
    ).json()
    request = {"op": "move", "scene": scene, "ship": "a", "maneuver": "straight 1"}
    assert body["answer"] == answer(json.dumps(request), 1)
    # Straight 1: a 20 x 40 mm template ahead of the base; the base ends 80 mm on.
    assert shapely.Polygon(body["template"]).bounds == (90.0, 120.0, 110.0, 160.0)
    assert same_ring(body["final_outline"], [(80, 160), (120, 160), (120, 200), (80, 200)])
    assert body["path"] == [[100.0, 100.0], [100.0, 180.0]]
    bad = {"scene": scene, "ship": "a", "maneuver": "loop 9"}
    assert "error" in client.post("/api/preview-move", json=bad).json()
    assert client.post("/api/preview-move", json=bad).status_code == 400


def test_nudge_all_is_what_tabletop_fix_does(client: TestClient) -> None:
    # An asteroid whose lowest point is 16.03 mm below its centroid, 190 mm up: the
    # shortest fix lifts it 26.03 mm (and 0.00001 mm more), past the 200 mm edge line.
    scene = {"obstacles": [{"id": "rock", "token": "coreasteroid0", "at": [300.0, 190.0]}]}
    body = client.post("/api/nudge-all", json={"scene": scene, "shortest": True}).json()
    assert body["legal"] is True
    assert body["remaining"] == []
    moves = [(m["object"], m["move"], m["to"]) for m in body["moves"]]
    assert moves == [("rock", [0.0, 26.03001], [300.0, 216.03001])]
    placeable = client.post("/api/nudge-all", json={"scene": scene}).json()
    assert placeable["moves"][0]["to"][1] > 216.03001 + 1.0
    assert (
        error_of(client.post("/api/nudge-all", json={"scene": scene, "shortest": 1}), 400)["where"]
        == "key 'shortest'"
    )
    assert error_of(client.post("/api/nudge-all", json={}), 400)["where"] == "key 'scene'"


# --- pictures and files -----------------------------------------------------------------------


def test_render_draws_with_the_renderer_of_tabletop_render(
    client: TestClient, tmp_path: Path
) -> None:
    from tabletop import plots

    data = read_scene_data(TOURNAMENT)
    svg = client.post("/api/render", json={"scene": data, "format": "svg"})
    assert svg.status_code == 200
    assert svg.headers["content-type"].startswith("image/svg+xml")
    # The same renderer, the same title (the file's name): the same SVG text.
    written = plots.render(parse_scene(data), "svg", title=str(TOURNAMENT)).picture
    assert svg.content.replace(TOURNAMENT.name.encode(), b"") == written.replace(
        str(TOURNAMENT).encode(), b""
    )
    png = client.post("/api/render", json={"scene": data, "format": "png"})
    assert png.content.startswith(b"\x89PNG\r\n\x1a\n")
    assert (
        error_of(client.post("/api/render", json={"scene": data, "format": "gif"}), 400)["where"]
        == "key 'format'"
    )


def test_load_reads_a_scene_file_and_leaves_the_board(client: TestClient) -> None:
    before = scene_text(client)
    for name in ("xwing-dogfight.toml", "armada-standard.toml"):
        raw = (ROOT / "examples" / name).read_bytes()
        body = client.post("/api/load", content=raw, headers={"X-Filename": name}).json()
        assert body == {"scene": tomllib.loads(raw.decode("utf-8"))}
    as_json = json.dumps(SMALL_SHIP).encode()
    assert client.post("/api/load", content=as_json, headers={"X-Filename": "t.json"}).json() == {
        "scene": SMALL_SHIP
    }
    assert scene_text(client) == before


@pytest.mark.parametrize(
    ("raw", "name", "where"),
    [
        (b"ruleset = ", "bad.toml", "bad.toml"),
        (b"{", "bad.json", "bad.json"),
        (
            b'[[ships]]\nid = "a"\nbase = "tiny"\nat = [1, 2]\n',
            "s.toml",
            "s.toml: ships[0] 'a': key 'base'",
        ),
        (b"ruleset = 'xwing2'", "s.txt", "s.txt"),
        (b"ruleset = 'xwing2'", "", "header 'X-Filename'"),
    ],
)
def test_load_refuses_what_the_scene_reader_refuses(
    client: TestClient, raw: bytes, name: str, where: str
) -> None:
    headers = {"X-Filename": name} if name else {}
    error = error_of(client.post("/api/load", content=raw, headers=headers), 400)
    assert error["where"] == where


def test_the_page_and_its_files_come_from_the_static_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, client: TestClient
) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>board</title>", "utf-8")
    (static / "app.js").write_text("export const x = 1;\n", "utf-8")
    (static / "notes.exe").write_text("no", "utf-8")
    secret = tmp_path / "secret.js"
    secret.write_text("TOP-SECRET-CONTENT", "utf-8")
    os.symlink(secret, static / "out.js")
    os.symlink(tmp_path, static / "up")
    monkeypatch.setattr(api.PAGE_FILES, "folder", static.resolve())
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert "default-src 'self'" in page.headers["content-security-policy"]
    script = client.get("/static/app.js")
    assert (script.status_code, script.text) == (200, "export const x = 1;\n")
    assert script.headers["content-type"].startswith("text/javascript")
    # cross-origin isolated, page and files: the live verdict shares memory with a worker
    for served in (page, script):
        assert served.headers["cross-origin-opener-policy"] == "same-origin"
        assert served.headers["cross-origin-embedder-policy"] == "require-corp"
        assert served.headers["cross-origin-resource-policy"] == "same-origin"
    for path in (
        "/static/out.js",
        "/static/up/secret.js",
        "/static/notes.exe",
        "/static/..%2fsecret.js",
        "/static/%2e%2e/secret.js",
        "/static/%2e%2e%2fsecret.js",
        "/static/..%5csecret.js",
        "/static/%2fetc%2fpasswd",
        "/static//etc/passwd",
        f"/static/{tmp_path}/secret.js",
        "/static/%252e%252e/secret.js",
        "/static/",
        "/static/.hidden",
    ):
        response = client.get(path)
        assert response.status_code in (400, 404), path
        assert "TOP-SECRET-CONTENT" not in response.text
        assert "root:" not in response.text
