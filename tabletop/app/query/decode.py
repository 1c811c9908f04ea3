"""A request line decoded at C speed, where that gives what the strict decoder gives.

The oracle's requests are decoded strictly (:func:`tabletop.app.common.datafile.loads_json`:
a repeated key is an error, ``NaN`` reads as a float), by the standard library's decoder
with a Python hook per object: a fifth of a plain request's time. :func:`plain_request`
decodes a line with orjson (the ``fast`` extra; without it, the standard decoder without
the hook) instead, and gives its object only where that gives what the strict decoder
gives; anything else returns None and the line takes the strict decoder, which words
every fault as before:

- A repeated key is kept once, the last: every colon of a line outside a string is a
  key's, so a line whose colons are as many as the keys of its objects (the request,
  its scene, the scene's objects and a ``measure_many``'s pairs) has no key twice
  anywhere; a colon in a string, or an object elsewhere, leaves the line to the strict
  decoder.
- orjson refuses what the standard decoder reads differently or not at all: ``NaN`` and
  ``Infinity``, an unpaired surrogate escape, a number too large for a float, a byte
  order mark, bytes that are not UTF-8; it reads floats correctly rounded, as ``float``.
- orjson reads an integer beyond 64 bits as a float: a line with 19 digits in a row is
  left to the strict decoder.
- orjson's nesting limit (1,024) is above the interpreter's recursion limit: a line with
  128 or more opening brackets is left to the strict decoder.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

__all__ = ["plain_request"]

#: The standard decoder without a hook: objects built in C, the last of repeated keys kept.
_STANDARD = json.JSONDecoder()


def _standard_loads(raw: bytes) -> Any:
    """Decode a line as ``json.loads`` does, less its byte order mark (the strict words it)."""
    text = raw.decode("utf-8")
    if text.startswith("\ufeff"):
        raise ValueError("a byte order mark")
    return _STANDARD.decode(text)


def _fast_loads() -> Callable[[bytes], Any]:
    try:
        import orjson
    except ImportError:  # the fast extra is not installed
        return _standard_loads
    return orjson.loads


#: The decoder of plain lines: orjson's, or the standard one without the fast extra.
_LOADS = _fast_loads()

#: Digits to ``0``, opening brackets to ``[``, anything else to a space.
_SHAPE = bytes(48 if 48 <= byte <= 57 else 91 if byte in b"[{" else 32 for byte in range(256))
_LONG_NUMBER = b"0" * 19
_MOST_BRACKETS = 128


def _keys(request: dict[str, Any]) -> int:
    """Return how many keys the request, its scene, the scene's objects and its pairs have."""
    count = len(request)
    scene = request.get("scene")
    if type(scene) is dict:
        count += len(scene)
        for name in ("obstacles", "ships"):
            objects = scene.get(name)
            if type(objects) is list:
                count += sum(len(item) for item in objects if type(item) is dict)
    pairs = request.get("pairs")
    if type(pairs) is list:
        count += sum(len(item) for item in pairs if type(item) is dict)
    return count


def plain_request(raw: bytes) -> dict[str, Any] | None:
    """Return the JSON object of a request line, or None: the strict decoder reads it.

    Where it returns an object, :func:`tabletop.app.common.datafile.loads_json` of the line
    (decoded as UTF-8) gives the same object, key for key and value for value, types
    included.

    Examples
    --------
    >>> plain_request(b'{"op": "measure", "scene": {"ships": []}}')
    {'op': 'measure', 'scene': {'ships': []}}
    >>> plain_request(b'{"op": "measure", "op": "check"}') is None
    True
    >>> plain_request(b'{"id": 123456789012345678901}') is None
    True
    """
    shape = raw.translate(_SHAPE)
    if _LONG_NUMBER in shape or shape.count(b"[") >= _MOST_BRACKETS:
        return None
    try:
        request = _LOADS(raw)
    except Exception:  # orjson's fault: the strict decoder words it
        return None
    if type(request) is not dict or _keys(request) != raw.count(b":"):
        return None
    return request
