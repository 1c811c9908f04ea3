"""The oracle's fast decode gives what the strict decoder gives, or leaves the line to it.

:func:`plain_request` must never give an object the strict decoder
(:func:`tabletop.app.common.datafile.loads_json`) would not give for the same line, key for key,
value for value and type for type: random lines of every JSON token (numbers of every
form and size, escapes, surrogates, repeated keys, colons in strings, deep nesting,
NaN, byte order marks, bytes that are not UTF-8) are decoded both ways.
"""

from __future__ import annotations

import json
import marshal
import random
import struct
from typing import Any

import pytest

from tabletop.app.common.datafile import loads_json
from tabletop.app.query import decode as query_decode
from tabletop.app.query.decode import plain_request


@pytest.fixture(params=["orjson", "standard"])
def decoder(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each decoder of plain lines: orjson's (the fast extra), and the standard one."""
    if request.param == "orjson":
        orjson = pytest.importorskip("orjson")
        monkeypatch.setattr(query_decode, "_LOADS", orjson.loads)
    else:
        monkeypatch.setattr(query_decode, "_LOADS", query_decode._standard_loads)
    return str(request.param)


def number(rng: random.Random) -> str:
    """A JSON number token (or one the strict decoder alone reads: NaN, Infinity)."""
    kind = rng.randrange(10)
    if kind == 0:
        return str(rng.randint(-(10**6), 10**6))
    if kind == 1:  # around 64 bits, and beyond
        return str(rng.choice([1, -1]) * rng.randint(2**62, 2**66))
    if kind == 2:
        return rng.choice(["-0", "0", "-0.0", "0.0", "1e-400", "-1e-400", "1e400", "1E2", "1e+2"])
    if kind == 3:
        bits = struct.unpack("d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        return repr(bits) if bits == bits and abs(bits) != float("inf") else "1.5"
    if kind == 4:
        digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 25)))
        return (
            f"{rng.choice(['', '-'])}{digits.lstrip('0') or '0'}.{digits}e{rng.randint(-330, 310)}"
        )
    if kind == 5:
        return rng.choice(["NaN", "Infinity", "-Infinity", "01", "1.", ".5", "+1"])
    return repr(rng.uniform(-1e6, 1e6))


def string(rng: random.Random) -> str:
    pieces = []
    for _ in range(rng.randint(0, 6)):
        pieces.append(
            rng.choice(
                [
                    "a",
                    "s1",
                    ":",
                    "é",
                    "😀",
                    '\\"',
                    "\\\\",
                    "\\/",
                    "\\n",
                    "\\u00e9",
                    "\\ud83d\\ude00",
                    "\\ud800",
                    "\\udfff",
                    "\\u0000",
                    "\x7f",
                    "\x01",
                    "edge:left",
                ]
            )
        )
    return '"' + "".join(pieces) + '"'


def value(rng: random.Random, depth: int) -> str:
    kind = rng.randrange(8 if depth < 4 else 5)
    if kind == 0:
        return number(rng)
    if kind == 1:
        return string(rng)
    if kind == 2:
        return rng.choice(["true", "false", "null"])
    if kind in (3, 4):
        return number(rng)
    if kind == 5:
        return "[" + ", ".join(value(rng, depth + 1) for _ in range(rng.randint(0, 3))) + "]"
    return obj(rng, depth + 1)


def obj(rng: random.Random, depth: int) -> str:
    keys = [rng.choice(["id", "at", "x", "op", "scene", "ships", "a:b", "é"]) for _ in range(4)]
    chosen = keys[: rng.randint(0, 4)]
    space = rng.choice(["", " ", "\t", "\r", "  "])
    return (
        "{" + ",".join(f"{space}{json.dumps(k)}:{space}{value(rng, depth)}" for k in chosen) + "}"
    )


def request(rng: random.Random) -> str:
    """A request-shaped line: scene, ships, obstacles, pairs, with random values."""
    ships = ", ".join(
        "{"
        + f'"id": {string(rng)}, "at": [{number(rng)}, {number(rng)}], "heading": {value(rng, 3)}'
        + "}"
        for _ in range(rng.randint(0, 3))
    )
    extra = rng.choice(
        ["", ', "id": ' + value(rng, 2), ', "ruleset": "xwing2"', ', "x": ' + obj(rng, 2)]
    )
    scene = "{" + f'"ships": [{ships}], "obstacles": [{obj(rng, 3)}]{extra}' + "}"
    pairs = rng.choice(["", ', "pairs": [{"from": "a", "to": "b"}, ' + obj(rng, 3) + "]"])
    return "{" + f'"op": "measure", "scene": {scene}, "from": {string(rng)}{pairs}' + "}"


def strict(raw: bytes) -> Any:
    """The strict decoder's object, or the exception it raises."""
    try:
        return loads_json(raw.decode("utf-8"))
    except (ValueError, RecursionError) as error:
        return error


def same(a: Any, b: Any) -> bool:
    # marshal (version 2: no back-references) tells 1 from 1.0 and True, 0.0 from -0.0,
    # and keeps the keys' order.
    return marshal.dumps(a, 2) == marshal.dumps(b, 2)


def test_random_lines_decode_as_the_strict_decoder_does(decoder: str) -> None:
    rng = random.Random("decode")
    fast = 0
    for k in range(20000):
        text = request(rng) if k % 2 else obj(rng, 0)
        if k % 13 == 0:
            text = rng.choice(["\ufeff", " ", "\r", "\x0c", "", "[" * 130]) + text
        if k % 17 == 0:
            text += rng.choice([" ", "\r", "x", "\x0c", "}", "]" * 130])
        raw = text.encode("utf-8", "surrogatepass")
        if k % 19 == 0:
            raw = raw[: rng.randrange(len(raw) + 1)] + rng.choice([b"\xff", b"\xed\xa0\x80", b""])
        decoded = plain_request(raw)
        if decoded is None:
            continue
        fast += 1
        expected = strict(raw)
        assert not isinstance(expected, Exception), (raw, expected)
        assert same(decoded, expected), raw
    assert fast > 3000  # the plain lines take the fast decoder


@pytest.mark.parametrize(
    "raw",
    [
        b'{"op": "measure", "op": "check"}',
        b'{"scene": {"ships": [{"id": "a", "id": "b"}]}}',
        b'{"scene": {"obstacles": [{"at": [1, 2], "at": [3, 4]}]}}',
        b'{"pairs": [{"from": "a", "from": "b"}]}',
        b'{"scene": {"area": {"width": 1, "width": 2}}}',
        b'{"id": "a:b"}',
        b'{"id": 18446744073709551616}',
        b'{"id": 1234567890123456789}',
        b'{"id": NaN}',
        b'{"id": 1e400}',
        b'{"id": "\\ud800"}',
        b'\xef\xbb\xbf{"id": 1}',
        b'{"id": "\xff"}',
        b"[" * 127 + b"]" * 127,
        b'{"a": ' + b"[" * 128 + b"]" * 128 + b"}",
        b"[]",
        b"",
        b" ",
    ],
)
def test_what_the_fast_decoder_leaves_to_the_strict_one(raw: bytes, decoder: str) -> None:
    decoded = plain_request(raw)
    if decoder == "standard" and raw in READ_BY_THE_STANDARD_DECODER:
        assert same(decoded, strict(raw))  # the strict decoder's value (orjson refuses it)
    else:
        assert decoded is None


#: Lines the standard decoder reads as the strict one does, and orjson refuses.
READ_BY_THE_STANDARD_DECODER = (b'{"id": NaN}', b'{"id": 1e400}', b'{"id": "\\ud800"}')


def test_a_plain_request_is_decoded_fast(decoder: str) -> None:
    raw = b'{"op": "measure", "scene": {"ships": [{"id": "a", "at": [1, 2.5]}]}, "id": -0}'
    decoded = plain_request(raw)
    assert decoded is not None
    assert same(decoded, strict(raw))
