"""``tabletop event serve``'s API: every role against every endpoint, and the result flow.

Requests go through Starlette's TestClient to the whole application (the shared guard
included). Every event is made by the CLI, and what the server writes is compared with
what the CLI writes for the same results.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from event_server_support import Roles, armada_event, cli, destiny_event, roles_of

from tabletop.app.event.server.hub import EventHub

#: Every endpoint with a body a TO (or the table's player) could send; GET has none.
ENDPOINTS: list[tuple[str, str, Any]] = [
    ("GET", "/api/event", None),
    ("GET", "/api/me", None),
    ("POST", "/api/report", {"round": 1, "table": 1, "scores": {"silvia": 140, "michele": 100}}),
    ("POST", "/api/preview", {"round": 1, "table": 1, "scores": {"silvia": 140, "michele": 100}}),
    ("POST", "/api/confirm", {"round": 1, "table": 1}),
    ("POST", "/api/to/result", {"round": 1, "table": 1, "scores": {"silvia": 140, "michele": 100}}),
    ("POST", "/api/to/add", {"id": "late", "name": "Late Comer"}),
    ("POST", "/api/to/drop", {"player": "carlo"}),
    ("POST", "/api/to/return", {"player": "carlo"}),
    ("POST", "/api/to/pair", {"commit": False}),
    ("POST", "/api/to/repair", {}),
    ("POST", "/api/to/clock", {"action": "start", "minutes": 90}),
    ("GET", "/api/to/export", None),
    ("GET", "/api/to/print/pairings", None),
]
#: Who may use each endpoint.
ALLOWED = {
    "/api/event": {"public", "player", "to"},
    "/api/me": {"player"},
    "/api/report": {"player"},
    "/api/preview": {"player"},
    "/api/confirm": {"player"},
}


@pytest.fixture
def served(tmp_path: Path) -> Roles:
    return roles_of(armada_event(tmp_path))


def _send(roles: Roles, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
    if method == "GET":
        return roles.client.get(path, headers=headers)
    return roles.client.post(path, json=body, headers=headers)


def _headers(roles: Roles, role: str) -> dict[str, str]:
    if role == "public":
        return {}
    if role == "wrong":
        return {"Authorization": "Bearer WRONGWRONG"}
    if role == "to":
        return roles.to()
    return roles.player("silvia")  # seated at table 1 with michele (seed 6)


@pytest.mark.parametrize(("method", "path", "body"), ENDPOINTS, ids=lambda v: str(v)[:20])
@pytest.mark.parametrize("role", ["public", "wrong", "player", "to"])
def test_every_role_against_every_endpoint(
    served: Roles, method: str, path: str, body: Any, role: str
) -> None:
    assert served.table_of("silvia")["table"] == 1
    before = served.path.read_bytes()
    answer = _send(served, method, path, body, _headers(served, role))
    allowed = ALLOWED.get(path, {"to"})
    if role == "wrong":
        assert answer.status_code == 401, answer.text
    elif role not in allowed:
        assert answer.status_code == (401 if role == "public" else 403), answer.text
    else:
        assert answer.status_code not in (401, 403), answer.text
    if answer.status_code in (401, 403):
        assert set(answer.json()) == {"error"}
        assert set(answer.json()["error"]) == {"message", "where"}
        assert served.path.read_bytes() == before  # a refusal changes nothing


def test_the_spectator_sees_states_never_the_numbers(served: Roles) -> None:
    pair = served.table_of("silvia")
    body = {"round": 1, "table": pair["table"], "scores": {"silvia": 140, "michele": 100}}
    answer = served.client.post("/api/report", json=body, headers=served.player("silvia"))
    assert answer.status_code == 202
    assert answer.json()["state"] == "awaiting-confirmation"
    public = served.table_of("silvia")
    assert public["report"] == {"state": "awaiting-confirmation", "by": "silvia"}
    assert "140" not in served.client.get("/api/event").text
    full = served.client.get("/api/event", headers=served.to()).json()["pairs"]
    report = next(p for p in full if p["table"] == pair["table"])["report"]
    assert report["reports"][0]["scores"] == [140, 100]
    me = served.client.get("/api/me", headers=served.player("michele")).json()
    assert me["report"]["reports"][0]["text"].startswith("you win 140–100: 6 / 4")


def test_confirm_records_exactly_what_event_result_records(served: Roles, tmp_path: Path) -> None:
    twin = tmp_path / "twin.toml"
    shutil.copyfile(served.path, twin)
    body = {"round": 1, "table": 1, "scores": {"michele": 105, "silvia": 138}}
    assert (
        served.client.post("/api/report", json=body, headers=served.player("michele")).status_code
        == 202
    )
    answer = served.client.post(
        "/api/confirm", json={"round": 1, "table": 1}, headers=served.player("silvia")
    )
    code, by_cli = cli("event", "result", str(twin), "1", "1", "--scores", "138", "105")
    assert code == 0
    assert answer.status_code == 200
    assert answer.json() == by_cli  # the command's own JSON
    assert by_cli["tp"] == [6, 4]
    assert by_cli["mov"] == 33
    assert served.path.read_text() == twin.read_text()
    assert served.table_of("silvia")["result"]["winner"] == "silvia"
    assert served.table_of("silvia")["report"] is None


def test_the_reporter_cannot_confirm_and_a_player_only_reports_their_own_match(
    served: Roles,
) -> None:
    body = {"round": 1, "table": 1, "scores": {"silvia": 140, "michele": 100}}
    served.client.post("/api/report", json=body, headers=served.player("silvia"))
    own = served.client.post(
        "/api/confirm", json={"round": 1, "table": 1}, headers=served.player("silvia")
    )
    assert own.status_code == 403
    other = {"round": 1, "table": 2, "scores": {"carlo": 140, "andrea": 100}}
    assert (
        served.client.post("/api/report", json=other, headers=served.player("silvia")).status_code
        == 403
    )
    later = {"round": 2, "table": 1, "scores": {"silvia": 140, "michele": 100}}
    assert (
        served.client.post("/api/report", json=later, headers=served.player("silvia")).status_code
        == 403
    )
    strangers = {"round": 1, "table": 1, "scores": {"silvia": 140, "carlo": 100}}
    assert (
        served.client.post(
            "/api/report", json=strangers, headers=served.player("silvia")
        ).status_code
        == 400
    )


def test_other_numbers_dispute_and_the_to_resolves(served: Roles) -> None:
    mine = {"round": 1, "table": 1, "scores": {"silvia": 140, "michele": 100}}
    theirs = {"round": 1, "table": 1, "scores": {"silvia": 100, "michele": 140}}
    served.client.post("/api/report", json=mine, headers=served.player("silvia"))
    answer = served.client.post("/api/report", json=theirs, headers=served.player("michele"))
    assert answer.status_code == 409
    assert {r["by"] for r in answer.json()["reports"]} == {"silvia", "michele"}
    assert "silvia" in answer.json()["error"]["message"]
    assert "michele" in answer.json()["error"]["message"]
    assert served.table_of("silvia")["report"] == {"state": "disputed"}
    confirm = served.client.post(
        "/api/confirm", json={"round": 1, "table": 1}, headers=served.player("michele")
    )
    assert confirm.status_code == 409
    resolved = served.client.post(
        "/api/to/result",
        json={"round": 1, "table": 1, "scores": {"Silvia": 140, "mich": 100}},
        headers=served.to(),
    )
    assert resolved.status_code == 200, resolved.text
    assert resolved.json()["text"] == "silvia beats michele 140–100: 6 / 4"
    assert served.table_of("silvia")["report"] is None


def test_the_same_numbers_from_the_opponent_record_the_result(served: Roles) -> None:
    body = {"round": 1, "table": 1, "scores": {"silvia": 100, "michele": 100}, "second": "michele"}
    served.client.post("/api/report", json=body, headers=served.player("silvia"))
    again = served.client.post("/api/report", json=body, headers=served.player("michele"))
    assert again.status_code == 200
    assert again.json()["winner"] == "michele"
    assert again.json()["tp"] == [5, 5]
    late = served.client.post("/api/report", json=body, headers=served.player("silvia"))
    assert late.status_code == 409  # recorded: the TO changes it now


def test_to_result_by_name_needs_one_player(tmp_path: Path) -> None:
    roles = roles_of(armada_event(tmp_path))
    answer = roles.client.post(
        "/api/to/result",
        json={"round": 1, "table": 1, "scores": {"zed": 1, "silvia": 2}},
        headers=roles.to(),
    )
    assert answer.status_code == 400
    assert "zed" in answer.json()["error"]["message"]
    cleared = roles.client.post(
        "/api/to/result", json={"round": 1, "table": 1, "clear": True}, headers=roles.to()
    )
    assert cleared.status_code == 400  # nothing to clear, as event result --clear says


def test_a_second_result_needs_replace(served: Roles) -> None:
    body = {"round": 1, "table": 1, "scores": {"silvia": 140, "michele": 100}}
    assert served.client.post("/api/to/result", json=body, headers=served.to()).status_code == 200
    again = served.client.post("/api/to/result", json=body, headers=served.to())
    assert again.status_code == 409
    replaced = served.client.post(
        "/api/to/result", json=body | {"replace": True}, headers=served.to()
    )
    assert replaced.status_code == 200
    cleared = served.client.post(
        "/api/to/result", json={"round": 1, "table": 1, "clear": True}, headers=served.to()
    )
    assert cleared.status_code == 200
    assert cleared.json()["cleared"] is True


def test_a_stale_version_is_409_and_changes_nothing(served: Roles) -> None:
    version = served.client.get("/api/event").json()["version"]
    body = {"round": 1, "table": 1, "scores": {"silvia": 140, "michele": 100}, "version": version}
    assert served.client.post("/api/to/result", json=body, headers=served.to()).status_code == 200
    before = served.path.read_bytes()
    stale = served.client.post(
        "/api/to/add", json={"id": "late", "version": version}, headers=served.to()
    )
    assert stale.status_code == 409
    assert served.path.read_bytes() == before


def test_pair_preview_then_commit_and_a_stale_preview(served: Roles, tmp_path: Path) -> None:
    for table, (a, b) in ((1, ("silvia", "michele")), (2, ("carlo", "andrea"))):
        body = {"round": 1, "table": table, "scores": {a: 140, b: 100}}
        assert (
            served.client.post("/api/to/result", json=body, headers=served.to()).status_code == 200
        )
    before = served.path.read_bytes()
    twin = tmp_path / "twin.toml"
    shutil.copyfile(served.path, twin)
    preview_answer = served.client.post("/api/to/pair", json={"commit": False}, headers=served.to())
    preview = preview_answer.json()
    assert served.path.read_bytes() == before  # a preview writes nothing
    assert preview["round"] == 2
    assert all(p["explanation"] for p in preview["pairs"])
    version = int(preview_answer.headers["etag"].strip('"'))
    assert version == served.client.get("/api/event").json()["version"]
    _, by_cli = cli("event", "pair", str(twin))
    assert preview == by_cli  # exactly what event pair --json makes
    served.client.post("/api/to/clock", json={"action": "start"}, headers=served.to())
    stale = served.client.post(
        "/api/to/pair", json={"commit": True, "preview_version": version}, headers=served.to()
    )
    assert stale.status_code == 409
    fresh_answer = served.client.post("/api/to/pair", json={"commit": False}, headers=served.to())
    fresh = fresh_answer.json()
    done = served.client.post(
        "/api/to/pair",
        json={"commit": True, "preview_version": int(fresh_answer.headers["etag"].strip('"'))},
        headers=served.to(),
    )
    assert done.status_code == 200
    assert done.json()["pairs"] == fresh["pairs"]  # the preview is what was written
    assert served.client.get("/api/event").json()["round"] == 2
    assert served.client.post("/api/to/repair", json={}, headers=served.to()).status_code == 200
    assert served.client.get("/api/event").json()["round"] == 1
    assert served.client.post("/api/to/repair", json={}, headers=served.to()).status_code == 409


def test_the_clock_is_kept_in_the_event_file(served: Roles) -> None:
    started = served.client.post(
        "/api/to/clock", json={"action": "start", "minutes": 90}, headers=served.to()
    )
    assert started.status_code == 200
    assert started.json()["minutes"] == 90
    assert "[clock]" in served.path.read_text() or "clock = {" in served.path.read_text()
    paused = served.client.post(
        "/api/to/clock", json={"action": "pause"}, headers=served.to()
    ).json()
    assert paused["paused"] is True
    assert paused["remaining"] <= 90 * 60
    again = served.client.post("/api/to/clock", json={"action": "pause"}, headers=served.to())
    assert again.status_code == 409
    added = served.client.post(
        "/api/to/clock", json={"action": "add", "minutes": 5}, headers=served.to()
    )
    assert added.json()["minutes"] == 95
    restarted = EventHub(served.path)  # a restart resumes it from the file
    assert restarted.snapshot.event.clock is not None
    assert restarted.snapshot.event.clock.minutes == 95
    assert restarted.snapshot.event.clock.paused
    assert cli("event", "check", str(served.path))[0] == 0


def test_add_drop_return_by_name_and_a_new_code(served: Roles) -> None:
    added = served.client.post(
        "/api/to/add", json={"id": "late", "name": "Late Comer"}, headers=served.to()
    )
    assert added.status_code == 200
    assert added.json()["player"] == "late"
    code = served.hub.snapshot.secrets.codes["late"]
    me = served.client.get("/api/me", headers={"Authorization": f"Bearer {code}"})
    assert me.status_code == 200
    assert me.json()["name"] == "Late Comer"
    dropped = served.client.post("/api/to/drop", json={"player": "carlo v"}, headers=served.to())
    assert dropped.status_code == 200
    assert dropped.json()["player"] == "carlo"
    back = served.client.post("/api/to/return", json={"player": "Carlo Verdi"}, headers=served.to())
    assert back.status_code == 200
    unknown = served.client.post("/api/to/drop", json={"player": "nobody"}, headers=served.to())
    assert unknown.status_code == 400


def test_read_only_refuses_every_write(tmp_path: Path) -> None:
    roles = roles_of(armada_event(tmp_path), read_only=True)
    before = roles.path.read_bytes()
    for method, path, body in ENDPOINTS:
        if method == "GET" or path == "/api/preview":
            continue
        headers = roles.player("silvia") if not path.startswith("/api/to/") else roles.to()
        answer = roles.client.post(path, json=body, headers=headers)
        if path == "/api/to/pair":
            assert answer.status_code in (400, 403)  # a preview writes nothing
            continue
        assert answer.status_code == 403, (path, answer.text)
    assert roles.client.get("/api/event").status_code == 200
    assert roles.path.read_bytes() == before


def test_etag_gives_304(served: Roles) -> None:
    first = served.client.get("/api/event")
    again = served.client.get("/api/event", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304
    assert cli("event", "result", str(served.path), "1", "1", "--scores", "140", "100")[0] == 0
    served.hub.refresh()  # the CLI beside the server: seen at the next look
    changed = served.client.get("/api/event", headers={"If-None-Match": first.headers["etag"]})
    assert changed.status_code == 200
    assert changed.json()["version"] != first.json()["version"]


def test_destiny_winner_and_the_game_s_own_terms(tmp_path: Path) -> None:
    roles = roles_of(destiny_event(tmp_path))
    pair = roles.client.get("/api/event").json()["pairs"][0]
    a, b = pair["players"]
    body = {"round": 1, "table": pair["table"], "winner": b}
    preview = roles.client.post("/api/preview", json=body, headers=roles.player(a))
    assert preview.json()["text"].startswith("you lose: 0 / 1")
    assert roles.client.post("/api/report", json=body, headers=roles.player(a)).status_code == 202
    done = roles.client.post(
        "/api/confirm", json={"round": 1, "table": pair["table"]}, headers=roles.player(b)
    )
    assert done.status_code == 200
    assert done.json()["winner"] == b
    scores = {"round": 1, "table": pair["table"], "scores": {a: 1, b: 2}}
    assert (
        roles.client.post(
            "/api/to/result", json=scores | {"replace": True}, headers=roles.to()
        ).status_code
        == 400
    )


def test_a_player_s_stale_version_is_409(served: Roles) -> None:
    version = served.client.get("/api/event").json()["version"]
    body = {"round": 1, "table": 1, "scores": {"silvia": 140, "michele": 100}}
    fresh = served.client.post(
        "/api/report", json=body | {"version": version}, headers=served.player("silvia")
    )
    assert fresh.status_code == 202
    stale = served.client.post(
        "/api/confirm", json={"round": 1, "table": 1, "version": version},
        headers=served.player("michele"),
    )  # fmt: skip
    assert stale.status_code == 409  # the report changed the version
    assert served.table_of("silvia")["result"] is None


def test_the_bracket_and_the_stage_in_a_playoff(tmp_path: Path) -> None:
    rows = ["id,name"] + [f"q{i},Que {i}" for i in range(4)]
    (tmp_path / "q.csv").write_text("\n".join(rows) + "\n")
    path = tmp_path / "cut.toml"
    assert cli("event", "new", "--game", "destiny", "--players", str(tmp_path / "q.csv"),
               "--structure", "custom", "--swiss-rounds", "0", "--cut", "4",
               "-o", str(path))[0] == 0  # fmt: skip
    assert cli("event", "pair", str(path))[0] == 0
    roles = roles_of(path)
    event = roles.client.get("/api/event").json()
    assert event["kind"] == "playoff"
    assert event["stage"] == "Semi-final"
    assert [r["stage"] for r in event["bracket"]] == ["Semi-final"]
    pair = event["bracket"][0]["pairs"][0]
    answer = roles.client.post(
        "/api/to/result",
        json={"round": 1, "table": pair["table"], "winner": pair["names"][1]},
        headers=roles.to(),
    )
    assert answer.status_code == 200, answer.text
    bracket = roles.client.get("/api/event").json()["bracket"][0]
    won = next(p for p in bracket["pairs"] if p["table"] == pair["table"])
    assert won["winner"] == pair["players"][1]


def test_armada_2018_one_player_defeated(tmp_path: Path) -> None:
    rows = ["id,name,faction", "ann,Ann,rebel", "bob,Bob,imperial"]
    (tmp_path / "two.csv").write_text("\n".join(rows) + "\n")
    path = tmp_path / "a18.toml"
    assert cli("event", "new", "--game", "armada", "--regulation", "armada-2018",
               "--players", str(tmp_path / "two.csv"), "--tier", "informal",
               "--swiss-rounds", "1", "-o", str(path))[0] == 0  # fmt: skip
    assert cli("event", "pair", str(path))[0] == 0
    roles = roles_of(path)
    pair = roles.client.get("/api/event").json()["pairs"][0]
    body = {
        "round": 1,
        "table": pair["table"],
        "scores": {"ann": 100, "bob": 200},
        "defeated": "bob",
    }
    answer = roles.client.post("/api/report", json=body, headers=roles.player("ann"))
    assert answer.status_code == 202, answer.text
    done = roles.client.post(
        "/api/confirm", json={"round": 1, "table": pair["table"]}, headers=roles.player("bob")
    )
    assert done.status_code == 200, done.text
    assert done.json()["winner"] == "ann"  # a ship left wins with the lower score


def test_the_public_etag_is_the_version(served: Roles) -> None:
    answer = served.client.get("/api/event")
    assert answer.headers["etag"] == f'"{answer.json()["version"]}"'
    full = served.client.get("/api/event", headers=served.to())
    assert full.headers["etag"] != answer.headers["etag"]  # the TO's view is another body
