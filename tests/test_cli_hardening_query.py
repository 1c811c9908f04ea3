"""``tabletop query`` on hostile streams: lines split at \\n only, bad UTF-8 and oversize
lines answered on their line, request ids echoed, unknown keys an error only with
--strict."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest

from tabletop.app.cli import main
from tabletop.app.common.datafile import MAX_FILE_BYTES
from tabletop.app.query.answers import MAX_REQUEST_BYTES, answer, request_lines, serve_stream

SCENE = {
    "ships": [
        {"id": "a", "base": "small", "at": [100, 100]},
        {"id": "b", "base": "small", "at": [100, 340], "player": 2},
    ]
}
MEASURE: dict[str, Any] = {"op": "measure", "scene": SCENE, "from": "a", "to": "b"}


def stream(data: bytes, *argv: str) -> list[dict[str, Any]]:
    out = io.StringIO()
    serve_stream(io.BytesIO(data), out, strict="--strict" in argv)
    return [json.loads(line) for line in out.getvalue().split("\n")[:-1]]


def cli(data: bytes, monkeypatch: pytest.MonkeyPatch, *argv: str) -> tuple[int, list[Any]]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    out, err = io.StringIO(), io.StringIO()
    code = main(["query", *argv], out=out, err=err)
    return code, [json.loads(line) for line in out.getvalue().split("\n")[:-1]]


def line(request: dict[str, Any]) -> bytes:
    return json.dumps(request, ensure_ascii=False).encode() + b"\n"


# --- lines ------------------------------------------------------------------------------


@pytest.mark.parametrize("separator", ["\x85", "\u2028", "\u2029"])
def test_unicode_line_breaks_inside_a_string_do_not_split_a_request(separator: str) -> None:
    ident = f"x{separator}y"
    scene = {"ships": [{"id": ident, "base": "small", "at": [100, 100]}, SCENE["ships"][1]]}
    request = {"op": "measure", "scene": scene, "from": ident, "to": "b"}
    answers = stream(line(request) * 8)
    assert len(answers) == 8
    assert all(a["from"] == ident for a in answers)
    assert answers[0]["distance"] == 200.0  # 340 - 100 - 2 * 20 mm, worked by hand


def test_crlf_line_ends_and_a_last_line_without_newline() -> None:
    data = line(MEASURE)[:-1] + b"\r\n" + line(MEASURE)[:-1]
    answers = stream(data)
    assert [a["distance"] for a in answers] == [200.0, 200.0]


def test_a_line_that_is_not_utf8_is_answered_and_the_stream_goes_on() -> None:
    answers = stream(line(MEASURE) + b'{"op": "check", "scene": {"x\xff": 1}}\n' + line(MEASURE))
    assert len(answers) == 3
    assert answers[1] == {"error": {"message": "not UTF-8 text (byte 28)", "where": "request 2"}}
    assert answers[0]["distance"] == answers[2]["distance"] == 200.0


# --- the request size limit -------------------------------------------------------------


def _padded(size: int) -> bytes:
    body = line({"op": "check", "scene": {}})[:-1]
    return body + b" " * (size - len(body))


@pytest.mark.parametrize(("extra", "answered"), [(-1, True), (0, True), (1, False)])
def test_the_request_size_limit_at_the_line(extra: int, answered: bool) -> None:
    limit = 200
    request = _padded(limit + extra)
    out = io.StringIO()
    serve_stream(io.BytesIO(request + b"\n" + line(MEASURE)), out, limit=limit)
    first, second = (json.loads(text) for text in out.getvalue().split("\n")[:-1])
    if answered:
        assert first["legal"] is True
    else:
        assert first == {
            "error": {
                "message": f"the request is {limit + 1} bytes; a request may be at most 200 bytes",
                "where": "request 1",
            }
        }
    assert second["distance"] == 200.0  # the stream goes on, in step


def test_an_oversize_line_is_read_past_in_pieces() -> None:
    data = b"x" * 1_000_003 + b"\nnext\n"
    lines = list(request_lines(io.BytesIO(data), limit=10))
    assert [getattr(x, "size", x) for x in lines] == [1_000_003, b"next"]


def test_the_default_limit_is_a_scene_file() -> None:
    assert MAX_REQUEST_BYTES == MAX_FILE_BYTES
    answers = stream(_padded(MAX_REQUEST_BYTES + 1) + b"\n" + line(MEASURE))
    assert answers[0]["error"]["message"].startswith(f"the request is {MAX_REQUEST_BYTES + 1}")
    assert answers[1]["distance"] == 200.0


def test_the_limit_option(monkeypatch: pytest.MonkeyPatch) -> None:
    code, answers = cli(_padded(101) + b"\n", monkeypatch, "--max-request-bytes", "100")
    assert code == 0
    assert "at most 100 bytes" in answers[0]["error"]["message"]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    err = io.StringIO()
    assert main(["query", "--max-request-bytes", "0"], out=io.StringIO(), err=err) == 2
    assert "expected 1 or more" in err.getvalue()


# --- ids --------------------------------------------------------------------------------


@pytest.mark.parametrize("ident", ["q-1", 17, 2.5, None, "", "é\x1b"])
def test_the_id_is_echoed_first(ident: Any) -> None:
    (answered,) = stream(line({**MEASURE, "id": ident}))
    assert next(iter(answered)) == "id"
    assert answered["id"] == ident
    assert answered["distance"] == 200.0


def test_an_error_answer_carries_the_id() -> None:
    (answered,) = stream(line({**MEASURE, "to": "nobody", "id": "q-9"}))
    assert answered["id"] == "q-9"
    assert "no object with id 'nobody'" in answered["error"]["message"]


@pytest.mark.parametrize("ident", [[1], {"a": 1}, True])
def test_an_id_of_another_type_is_an_error(ident: Any) -> None:
    (answered,) = stream(line({**MEASURE, "id": ident}))
    assert set(answered) == {"error"}
    assert answered["error"]["where"] == "request 1: key 'id'"
    assert "expected a string, a number or null" in answered["error"]["message"]


def test_a_request_without_an_id_answers_as_before() -> None:
    (answered,) = stream(line(MEASURE))
    assert "id" not in answered


# --- --strict ---------------------------------------------------------------------------


def test_unknown_keys_are_listed_by_default_and_an_error_with_strict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    request = line({**MEASURE, "colour": "red", "note": 1})
    code, (lenient,) = cli(request, monkeypatch)
    assert code == 0
    assert lenient["distance"] == 200.0
    assert lenient["ignored_keys"] == ["colour", "note"]
    code, (strict,) = cli(request, monkeypatch, "--strict")
    assert code == 0
    assert strict["error"]["where"] == "request 1: key 'colour'"
    assert strict["error"]["message"].startswith("unknown key; a measure request takes: op,")


def test_id_is_a_known_key_even_with_strict() -> None:
    (answered,) = stream(line({**MEASURE, "id": 3}), "--strict")
    assert answered["id"] == 3
    assert "error" not in answered


def test_a_huge_value_is_cut_in_an_answer() -> None:
    answered = answer(json.dumps({**MEASURE, "from": "z" * 1_000_000}))
    assert len(answered["error"]["message"]) <= 1000
    assert "characters" in answered["error"]["message"]


def test_through_a_real_pipe_one_answer_a_line() -> None:
    import subprocess

    ident = "nel\x85id"
    scene = {"ships": [{"id": ident, "base": "small", "at": [100, 100]}, SCENE["ships"][1]]}
    request = line({"op": "measure", "scene": scene, "from": ident, "to": "b", "id": 1})
    data = request * 8 + b"\xff\xfe\n" + line({**MEASURE, "id": "last"})
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "query"], input=data, capture_output=True, timeout=120
    )
    assert done.returncode == 0
    assert done.stderr == b""
    answers = [json.loads(text) for text in done.stdout.split(b"\n")[:-1]]
    assert len(answers) == 10
    assert [a.get("from") for a in answers[:8]] == [ident] * 8
    assert answers[8]["error"] == {"message": "not UTF-8 text (byte 0)", "where": "request 9"}
    assert answers[9]["id"] == "last"
