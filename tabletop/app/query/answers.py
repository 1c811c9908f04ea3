"""The oracle's answers: a request line read, its scene parsed (or found again) and answered.

:func:`answer` answers one decoded line; :func:`answer_bytes` and :func:`answer_batch`
answer raw lines, a chunk's measurements made together; :func:`serve` and
:func:`serve_stream` answer a whole stream in order. ``tabletop query``
(:mod:`tabletop.app.query.command`) runs them.
"""

from __future__ import annotations

import collections
import hashlib
import json
import marshal
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, BinaryIO, TextIO

from tabletop.app.cli import emit_json
from tabletop.app.common.datafile import show
from tabletop.app.common.text import clip
from tabletop.app.query.batch import MeasureJob, measure_jobs, measure_objects
from tabletop.app.query.decode import plain_request
from tabletop.app.query.fast import measure_pair, plain_measure, plain_scene
from tabletop.app.query.stream import (
    MAX_REQUEST_BYTES,
    TooLong,
    request_batches,
    request_lines,
)
from tabletop.app.scene.scenefile import loads_json, parse_scene
from tabletop.geom.errors import InvalidInputError
from tabletop.obstacles.legality import check
from tabletop.obstacles.measuring import measure
from tabletop.obstacles.scene import Scene

__all__ = [
    "MAX_REQUEST_BYTES",
    "OPS",
    "TooLong",
    "answer",
    "answer_batch",
    "answer_bytes",
    "request_batches",
    "request_lines",
    "serve",
    "serve_stream",
]


def _text(request: Mapping[str, Any], key: str, where: str, *, required: bool = True) -> str | None:
    if key not in request:
        if required:
            raise InvalidInputError("missing required key", where=f"{where}: key {key!r}")
        return None
    value = request[key]
    if not isinstance(value, str):
        raise InvalidInputError(
            f"expected a string, got {json.dumps(value)[:80]}", where=f"{where}: key {key!r}"
        )
    return value


def _flag(request: Mapping[str, Any], key: str, where: str, default: bool) -> bool:
    value = request.get(key, default)
    if not isinstance(value, bool):
        raise InvalidInputError(
            f"expected true or false, got {json.dumps(value)[:80]}", where=f"{where}: key {key!r}"
        )
    return value


def _check(scene: Scene, request: Mapping[str, Any], where: str) -> dict[str, Any]:
    fixes = _flag(request, "fix", where, True)
    margins = _flag(request, "margins", where, False)
    return check(scene, fixes=fixes, margins=margins).to_json()


def _measure(scene: Scene, request: Mapping[str, Any], where: str) -> dict[str, Any]:
    a, b = _text(request, "from", where), _text(request, "to", where)
    if a is None or b is None:
        raise InvalidInputError("a measure request needs 'from' and 'to'")
    arc = _text(request, "arc", where, required=False)
    zone = _text(request, "defending_zone", where, required=False)
    return measure(scene, a, b, arc=arc, defending_zone=zone).to_json()


#: The keys of one pair of a measure_many request.
_PAIR_KEYS = ("from", "to", "arc", "defending_zone")


def _measure_many(scene: Scene, request: Mapping[str, Any], where: str) -> dict[str, Any]:
    if "pairs" not in request:
        raise InvalidInputError("missing required key", where=f"{where}: key 'pairs'")
    pairs = request["pairs"]
    if not isinstance(pairs, list):
        raise InvalidInputError(
            f"expected a list of pairs {{'from': A, 'to': B}}, got {show(pairs)}",
            where=f"{where}: key 'pairs'",
        )
    answers: list[dict[str, Any] | None] = []
    # The pairs between two ships are measured together once every pair is read; a pair's
    # fault is raised where it stands, as when each is measured in turn.
    waiting: list[tuple[int, dict[str, Any], str, MeasureJob]] = []
    for index, pair in enumerate(pairs):
        at = f"{where}: pairs[{index}]"
        if not isinstance(pair, dict):
            raise InvalidInputError(
                f"expected an object {{'from': A, 'to': B}}, got {show(pair)}", where=at
            )
        for key in pair:
            if key not in _PAIR_KEYS:
                raise InvalidInputError(
                    "unknown key; a pair takes: " + ", ".join(_PAIR_KEYS),
                    where=f"{at}: key {show(key)}",
                )
        ships = measure_pair(scene, pair, arcs=True)
        if ships is None:
            answers.append(_pair_measure(scene, pair, at))
            continue
        job = (scene, *ships, pair["from"], pair["to"], pair.get("arc"))
        waiting.append((len(answers), pair, at, job))
        answers.append(None)
    if waiting:
        try:
            found = measure_objects([job for _, _, _, job in waiting])
        except Exception:  # each measured alone, as it would have been
            found = [None] * len(waiting)
        for (slot, pair, at, _), measured in zip(waiting, found, strict=True):
            answers[slot] = _pair_measure(scene, pair, at) if measured is None else measured
    return {"measurements": answers}


def _pair_measure(scene: Scene, pair: dict[str, Any], at: str) -> dict[str, Any]:
    """Return one pair's measure; its fault names the pair, then where in the pair."""
    try:
        return _measure(scene, pair, at)
    except InvalidInputError as error:
        # The pair first, then where in the pair (a measurement names its end: "to 'x'").
        if error.where is None:
            raise InvalidInputError(error.message, where=at) from None
        if not error.where.startswith(at):
            raise InvalidInputError(error.message, where=f"{at}: {error.where}") from None
        raise


def _move(scene: Scene, request: Mapping[str, Any], where: str) -> dict[str, Any]:
    from tabletop.maneuvers import execute

    ship, maneuver = _text(request, "ship", where), _text(request, "maneuver", where)
    if ship is None or maneuver is None:
        raise InvalidInputError("a move request needs 'ship' and 'maneuver'")
    result: dict[str, Any] = execute(scene, ship, maneuver).to_json()
    return result


#: The request operations and their keys besides "op" and "scene".
OPS: dict[
    str, tuple[Callable[[Scene, Mapping[str, Any], str], dict[str, Any]], tuple[str, ...]]
] = {
    "check": (_check, ("fix", "margins")),
    "measure": (_measure, ("from", "to", "arc", "defending_zone")),
    "move": (_move, ("ship", "maneuver")),
    "measure_many": (_measure_many, ("pairs",)),
}


_NO_ID = object()


def _request_id(request: Mapping[str, Any], where: str) -> Any:
    ident = request.get("id", _NO_ID)
    if ident is _NO_ID or ident is None or isinstance(ident, str):
        return ident
    if isinstance(ident, int | float) and not isinstance(ident, bool):
        if isinstance(ident, float) and not math.isfinite(ident):
            raise InvalidInputError(
                f"expected a finite number, got {show(ident)}", where=f"{where}: key 'id'"
            )
        return ident
    raise InvalidInputError(
        f"expected a string, a number or null, got {show(ident)}", where=f"{where}: key 'id'"
    )


def _error(message: str, where: str | None, fallback: str, ident: Any) -> dict[str, Any]:
    error = {"message": clip(message), "where": clip(where or fallback)}
    return {"error": error} if ident is _NO_ID else {"id": ident, "error": error}


def answer(line: str, number: int = 1, *, strict: bool = True) -> dict[str, Any]:
    """Return the answer to one request line (an ``{"error": ...}`` object for a bad one).

    Parameters
    ----------
    line : str
        One request, a JSON object.
    number : int
        Its line number, for ``where``.
    strict : bool
        Whether a key the request does not take is an error (the ``--strict`` of
        ``tabletop query``, whose default is not strict); otherwise the answer lists it
        in ``ignored_keys``.
    """
    where = f"request {number}"
    try:
        request = _decoded(line, where)
    except InvalidInputError as error:
        return _error(error.message, error.where, where, _NO_ID)
    except Exception as error:  # a bug must not end the stream: answer it and go on
        return _error(f"internal error: {type(error).__name__}: {error}", where, where, _NO_ID)
    return _answer_request(request, where, strict)


def _decoded(line: str, where: str) -> dict[str, Any]:
    if not line.strip():
        raise InvalidInputError("an empty line; expected one JSON request", where=where)
    try:
        request = loads_json(line)
    except (ValueError, RecursionError) as error:
        raise InvalidInputError(f"not valid JSON: {error}", where=where) from None
    if not isinstance(request, dict):
        raise InvalidInputError("expected a JSON object", where=where)
    return request


def _answer_request(request: dict[str, Any], where: str, strict: bool) -> dict[str, Any]:
    """Return the answer to a decoded request (a JSON object)."""
    ident: Any = _NO_ID
    try:
        ident = _request_id(request, where)
        op = request.get("op")
        if op not in OPS:
            raise InvalidInputError(
                f"unknown op {op!r}; expected one of: " + ", ".join(OPS),
                where=f"{where}: key 'op'",
            )
        run_op, keys = OPS[op]
        ignored = []
        for key in request:
            if key not in ("op", "scene", "id", *keys):
                if strict:
                    raise InvalidInputError(
                        f"unknown key; a {op} request takes: op, scene, id"
                        + "".join(f", {k}" for k in keys),
                        where=f"{where}: key {show(key)}",
                    )
                ignored.append(key)
        if "scene" not in request:
            raise InvalidInputError("missing required key", where=f"{where}: key 'scene'")
        scene = _scene(request["scene"], where)
        result = (op == "measure" and plain_measure(scene, request)) or run_op(
            scene, request, where
        )
        if ignored:
            result = {**result, "ignored_keys": ignored}
        return result if ident is _NO_ID else {"id": ident, **result}
    except InvalidInputError as error:
        return _error(error.message, error.where, where, ident)
    except Exception as error:  # a bug must not end the stream: answer it and go on
        return _error(f"internal error: {type(error).__name__}: {error}", where, where, ident)


def answer_bytes(
    raw: bytes | TooLong, number: int = 1, *, strict: bool = True, limit: int = MAX_REQUEST_BYTES
) -> dict[str, Any]:
    """Return the answer to one request line as read from the stream."""
    where = f"request {number}"
    if isinstance(raw, TooLong):
        return _error(
            f"the request is {raw.size} bytes; a request may be at most {limit} bytes",
            where,
            where,
            _NO_ID,
        )
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return _error(f"not UTF-8 text (byte {error.start})", where, where, _NO_ID)
    return answer(line, number, strict=strict)


#: The keys of a measure request the batch path takes (anything else, a hull zone among
#: them, is answered alone).
_BATCH_MEASURE_KEYS = frozenset({"op", "scene", "id", "from", "to", "arc"})


def _measure_job(
    raw: bytes | TooLong, number: int, strict: bool, limit: int
) -> tuple[Any, dict[str, Any], MeasureJob] | dict[str, Any]:
    """Return a measure request's ``(id, request, job)`` for the batch, or the line's answer."""
    if type(raw) is not bytes:
        return answer_bytes(raw, number, strict=strict, limit=limit)
    where = f"request {number}"
    request = plain_request(raw)  # C speed, where it gives what the strict decoder gives
    if request is None:
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            return answer_bytes(raw, number, strict=strict, limit=limit)
        try:
            request = _decoded(line, where)
        except Exception:  # worded by answer, as for a line alone
            return answer(line, number, strict=strict)
    if request.get("op") != "measure" or not _BATCH_MEASURE_KEYS.issuperset(request):
        return _answer_request(request, where, strict)
    try:
        ident = _request_id(request, where)
        scene = _scene(request["scene"], where)
        ships = measure_pair(scene, request, arcs=True)
    except Exception:  # answered as alone (the scene is read again only to word its fault)
        return _answer_request(request, where, strict)
    if ships is None:
        return _answer_request(request, where, strict)
    return ident, request, (scene, *ships, request["from"], request["to"], request.get("arc"))


def answer_batch(
    raws: list[bytes | TooLong],
    out: TextIO,
    first_number: int = 1,
    *,
    strict: bool = False,
    limit: int = MAX_REQUEST_BYTES,
) -> int:
    """Write the answers to request lines numbered from `first_number`, in order.

    Each answer is the line :func:`emit_json` writes of :func:`answer_bytes`' for its
    request line; the measure requests between two ships are measured together and
    written field by field (:func:`tabletop.app.query.batch.measure_jobs`). Returns how
    many answers were written.
    """
    answers: list[dict[str, Any] | str] = []
    waiting: list[tuple[int, str, Any, dict[str, Any]]] = []
    jobs: list[MeasureJob] = []
    for offset, raw in enumerate(raws):
        found = _measure_job(raw, first_number + offset, strict, limit)
        if isinstance(found, dict):
            answers.append(found)
            continue
        ident, request, job = found
        waiting.append((len(answers), f"request {first_number + offset}", ident, request))
        jobs.append(job)
        answers.append("")
    measured: list[str | None] = []
    if jobs:
        try:
            measured = measure_jobs(jobs)
        except Exception:  # each answered alone, as it would have been
            measured = [None] * len(jobs)
    for (index, where, ident, request), text in zip(waiting, measured, strict=True):
        if ident is _NO_ID and text is not None and text.isascii():
            answers[index] = text
            continue
        id_text = None if text is None or ident is _NO_ID else _ID_ENCODER.encode(ident)
        if text is not None and text.isascii() and id_text is not None and id_text.isascii():
            answers[index] = f'{{"id": {id_text}, {text[1:]}'
        else:  # a disk base, or text emit_json escapes as a whole: answered alone
            answers[index] = _answer_request(request, where, strict)
    for found_answer in answers:
        if isinstance(found_answer, str):
            out.write(found_answer + "\n")
        else:
            emit_json(found_answer, out)
    return len(answers)


#: A request id's encoder (as emit_json's: ASCII text is the same escaped or not).
_ID_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False)


#: Most scenes the cache keeps, and most bytes of scene data (their marshal text, the
#: key's input: near the JSON's size) it keeps in all; a larger scene is not kept.
_SCENE_CACHE_SIZE = 64
_SCENE_CACHE_BYTES = 32 << 20


class _SceneCache:
    """Parsed scenes by a digest of their text (the JSON as parsed), most recent last.

    A test suite asks many questions of a scene, and a scene's prepared geometry (placed
    outlines) lives on its objects, so a scene asked again is neither parsed nor built.
    Bounded by :data:`_SCENE_CACHE_SIZE` entries and :data:`_SCENE_CACHE_BYTES`; the
    least recently used go first.
    """

    def __init__(self) -> None:
        self._entries: collections.OrderedDict[bytes, tuple[Scene, int]] = collections.OrderedDict()
        self.bytes = 0

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: bytes) -> Scene | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        self._entries.move_to_end(key)
        return entry[0]

    def put(self, key: bytes, scene: Scene, size: int) -> None:
        if size > _SCENE_CACHE_BYTES:
            return
        while self._entries and (
            len(self._entries) >= _SCENE_CACHE_SIZE or self.bytes + size > _SCENE_CACHE_BYTES
        ):
            _, (_, dropped) = self._entries.popitem(last=False)
            self.bytes -= dropped
        self._entries[key] = (scene, size)
        self.bytes += size


_SCENES = _SceneCache()


def _scene_text(data: Any) -> bytes | None:
    # marshal (version 2: no back-references, so the bytes depend on the value alone) is
    # one serialization per value of parsed JSON, types kept apart (1, 1.0, true; 0.0 and
    # -0.0), written in C: four times cheaper than repr. A value marshal refuses (nested
    # too deep) is not cached.
    try:
        return marshal.dumps(data, 2)
    except ValueError:
        return None


#: Longest scene text kept whole as its own key, bytes; a longer one is keyed by its digest.
_WHOLE_KEY_BYTES = 1 << 16
_DIGEST_BYTES = 16


def _digest(text: bytes) -> bytes:
    # A text of ordinary size is its own key: the dict compares it whole (no collision can
    # take one scene for another) for less than hashing it costs. The digest keeps a
    # 10 MiB scene's key small; the two kinds of key cannot meet, a digest being shorter
    # than any text kept whole.
    if _DIGEST_BYTES < len(text) <= _WHOLE_KEY_BYTES:
        return text
    return hashlib.blake2b(text, digest_size=_DIGEST_BYTES).digest()


def _scene_key(data: Any) -> bytes | None:
    text = _scene_text(data)
    return None if text is None else _digest(text)


def _scene(data: Any, where: str) -> Scene:
    text = _scene_text(data)
    if text is None:
        return parse_scene(data, f"{where} scene")
    key = _digest(text)
    scene = _SCENES.get(key)
    if scene is None:
        scene = plain_scene(data) or parse_scene(data, f"{where} scene")
        _SCENES.put(key, scene, len(text))
    return scene


def serve(lines: Iterable[str], out: TextIO, *, strict: bool = True) -> int:
    """Answer every request line; return how many answers were written."""
    count = 0
    for number, line in enumerate(lines, 1):
        emit_json(answer(line, number, strict=strict), out)
        out.flush()
        count += 1
    return count


def serve_stream(
    stream: BinaryIO, out: TextIO, *, strict: bool = False, limit: int = MAX_REQUEST_BYTES
) -> int:
    """Answer every line of a byte stream (as ``tabletop query`` does); return the count."""
    count = 0
    for batch in request_batches(stream, limit):
        answer_batch(batch, out, count + 1, strict=strict, limit=limit)
        out.flush()  # the answers reach the asker before any further request is awaited
        count += len(batch)
    return count
