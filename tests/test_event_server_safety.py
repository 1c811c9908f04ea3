"""``tabletop event serve``'s safety rules, each as a test (``event-server.md``, Safety).

Host and Origin, body size and rate go through the shared guard; the failed-code
lockout, the secrets file (0600, never through a link), no secret in a URL or a log, and
the static files are the event server's own.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import pytest
from event_server_support import armada_event, cli, roles_of

from tabletop.app.event.eventfile import EventFileError
from tabletop.app.event.server import api
from tabletop.app.event.server.secretsfile import (
    CODE_ALPHABET,
    CODE_LENGTH,
    ensure_secrets,
    read_secrets,
    secrets_path,
)


def test_another_host_is_refused(tmp_path: Path) -> None:
    roles = roles_of(armada_event(tmp_path))
    answer = roles.client.get("/api/event", headers={"Host": "rebind.example:8766"})
    assert answer.status_code == 403
    assert answer.json()["error"]["where"] == "Host"


def test_public_url_host_and_origin_are_answered(tmp_path: Path) -> None:
    roles = roles_of(armada_event(tmp_path), public_url="https://event.example.org")
    headers = {"Host": "event.example.org", "Origin": "https://event.example.org"} | roles.to()
    answer = roles.client.post("/api/to/clock", json={"action": "start"}, headers=headers)
    assert answer.status_code == 200, answer.text


def test_another_origin_may_not_write(tmp_path: Path) -> None:
    roles = roles_of(armada_event(tmp_path))
    before = roles.path.read_bytes()
    headers = {"Origin": "http://evil.example"} | roles.to()
    answer = roles.client.post("/api/to/clock", json={"action": "start"}, headers=headers)
    assert answer.status_code == 403
    assert answer.json()["error"]["where"] == "Origin"
    assert roles.path.read_bytes() == before


@pytest.mark.parametrize(("size", "status"), [(64 * 1024, 400), (64 * 1024 + 1, 413)])
def test_a_body_over_64_kib_is_413(tmp_path: Path, size: int, status: int) -> None:
    roles = roles_of(armada_event(tmp_path))
    body = b'{"action": "start", "x": "' + b"a" * (size - 28) + b'"}'
    assert len(body) == size
    headers = {"Content-Type": "application/json"} | roles.to()
    answer = roles.client.post("/api/to/clock", content=body, headers=headers)
    assert answer.status_code == status  # at the limit: read (and refused for its key)


def test_more_than_50_requests_a_second_is_429(tmp_path: Path) -> None:
    roles = roles_of(armada_event(tmp_path))
    codes = [roles.client.get("/api/event").status_code for _ in range(60)]
    assert codes[:50] == [200] * 50
    assert 429 in codes[50:]


def test_ten_wrong_codes_lock_the_address_out_for_the_minute(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    roles = roles_of(armada_event(tmp_path), rate=None)
    wrong = [f"WRONG{i:03d}XX" for i in range(10)]
    with caplog.at_level(logging.INFO, logger="tabletop.web"):
        for code in wrong:
            answer = roles.client.get("/api/me", headers={"Authorization": f"Bearer {code}"})
            assert answer.status_code == 401
        right = roles.client.get("/api/me", headers=roles.player("silvia"))
    assert right.status_code == 429  # the rest of that minute, even with a right code
    assert roles.client.get("/api/event").status_code == 200  # the public page stays open
    logged = caplog.text
    assert "locked out" in logged
    for code in [*wrong, roles.secrets.codes["silvia"], roles.secrets.token]:
        assert code not in logged


def test_the_lockout_ends_with_the_minute() -> None:
    now = [0.0]
    failures = api.Failures(clock=lambda: now[0])
    for _ in range(api.MOST_FAILURES - 1):
        failures.fail("a")
    assert failures.locked("a") == 0.0  # nine: still answered
    failures.fail("a")
    assert failures.locked("a") == pytest.approx(60.0)
    assert failures.locked("b") == 0.0  # by address
    now[0] = 59.9
    assert failures.locked("a") > 0
    now[0] = 60.0
    assert failures.locked("a") == 0.0


def test_no_secret_is_taken_from_a_url(tmp_path: Path) -> None:
    roles = roles_of(armada_event(tmp_path))
    token, code = roles.secrets.token, roles.secrets.codes["silvia"]
    for path in (f"/api/me?code={code}", f"/api/me?token={token}", f"/me/{code}", f"/to/{token}"):
        answer = roles.client.get(path)
        assert answer.status_code in (401, 404), path
    answer = roles.client.post(f"/api/to/clock?token={token}", json={"action": "start"})
    assert answer.status_code == 401


def test_the_pages_carry_no_secret_and_only_the_package_files_are_served(tmp_path: Path) -> None:
    roles = roles_of(armada_event(tmp_path))
    for page in ("/", "/me", "/to"):
        answer = roles.client.get(page)
        assert answer.status_code == 200
        assert roles.secrets.token not in answer.text
        assert "default-src 'self'" in answer.headers["content-security-policy"]
        assert "cross-origin-embedder-policy" not in answer.headers  # the board's alone
    for path in ("/static/../hub.py", "/static/%2e%2e/hub.py", "/static/.hidden", "/store.toml"):
        assert roles.client.get(path).status_code == 404, path
    assert roles.client.get("/static/me.js").status_code == 200


def test_the_secrets_file_is_0600_and_holds_a_token_and_codes(tmp_path: Path) -> None:
    event = armada_event(tmp_path)
    os.umask(0o022)
    code, said = cli("event", "codes", str(event))
    assert code == 0
    path = secrets_path(event)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    secret = read_secrets(path)
    assert secret is not None
    assert len(secret.token) >= 22
    assert {r["id"] for r in said["codes"]} == {"andrea", "silvia", "carlo", "michele"}
    for row in said["codes"]:
        assert len(row["code"]) == CODE_LENGTH
        assert set(row["code"]) <= set(CODE_ALPHABET)
    assert secret.token not in event.read_text()  # the event file holds no secret
    old = secret.codes["carlo"]
    code, reset = cli("event", "codes", str(event), "--reset", "carlo")
    assert code == 0
    assert reset["codes"][0]["code"] != old
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_link_or_a_readable_secrets_file_is_refused(tmp_path: Path) -> None:
    event = armada_event(tmp_path)
    target = tmp_path / "elsewhere.toml"
    target.write_text("to_token = 'x'\n")
    secrets_path(event).symlink_to(target)
    with pytest.raises(EventFileError, match="symbolic link"):
        ensure_secrets(event, ["andrea"])
    assert target.read_text() == "to_token = 'x'\n"  # never written through the link
    secrets_path(event).unlink()
    ensure_secrets(event, ["andrea"])
    secrets_path(event).chmod(0o644)
    with pytest.raises(EventFileError, match="chmod 600"):
        ensure_secrets(event, ["andrea"])
    assert cli("event", "codes", str(event))[0] == 2


def test_a_late_player_gets_a_code_at_once(tmp_path: Path) -> None:
    roles = roles_of(armada_event(tmp_path))
    assert cli("event", "add", str(roles.path), "walkin", "--name", "Walk In")[0] == 0
    roles.hub.refresh()  # the CLI beside the server
    assert "walkin" in read_secrets(secrets_path(roles.path)).codes  # type: ignore[union-attr]


def test_slips_carry_the_codes_once_the_secrets_file_exists(tmp_path: Path) -> None:
    event = armada_event(tmp_path)
    plain = tmp_path / "plain.html"
    assert cli("event", "print", str(event), "--what", "slips", "-o", str(plain))[0] == 0
    assert "Codes for" not in plain.read_text()
    codes = {r["id"]: r["code"] for r in cli("event", "codes", str(event))[1]["codes"]}
    coded = tmp_path / "coded.html"
    assert cli("event", "print", str(event), "--what", "slips", "-o", str(coded))[0] == 0
    text = coded.read_text()
    for pid, code in codes.items():
        assert text.count(code) == 1, pid  # on the slip of the player's table only
