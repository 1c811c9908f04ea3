"""``tabletop query --jobs N | --scheduler ADDRESS``: the requests answered in slices.

The batch form of the oracle: the request lines are read in slices of
:data:`SLICE_REQUESTS`, each slice answered by :func:`tabletop.app.query.answers.answer_batch`
(each line as :func:`tabletop.app.query.answers.answer_bytes` answers it) on a worker (a local process or a Dask worker), and the answers written in request order,
each line the same as ``tabletop query`` writes for it. A few slices are under way at once,
so the input is read as the answers go out; an answer waits for its slice, so a
conversation (one request, its answer, then the next) is for ``tabletop query`` alone.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any, BinaryIO, TextIO

from tabletop.app.common.jobs import Runner, in_order
from tabletop.app.query.answers import answer_batch
from tabletop.app.query.stream import MAX_REQUEST_BYTES, TooLong, request_lines

__all__ = ["SLICE_REQUESTS", "answer_slice", "serve_shared"]

#: Requests a worker answers at a time: enough that sending them costs little beside
#: answering them, few enough that the first answers come soon.
SLICE_REQUESTS = 256


def answer_slice(lines: list[bytes | TooLong], first_number: int, strict: bool, limit: int) -> str:
    """Return the answers to `lines`, numbered from `first_number`, as the lines written.

    A module-level function of plain arguments, so that a worker process or a Dask
    worker runs it.
    """
    text = io.StringIO()
    answer_batch(lines, text, first_number, strict=strict, limit=limit)  # as answer_bytes, each
    return text.getvalue()


def _slices(stream: BinaryIO, strict: bool, limit: int, size: int) -> Iterator[tuple[Any, ...]]:
    lines: list[bytes | TooLong] = []
    first = 1
    for raw in request_lines(stream, limit):
        lines.append(raw)
        if len(lines) == size:
            yield (lines, first, strict, limit)
            first += size
            lines = []
    if lines:
        yield (lines, first, strict, limit)


def serve_shared(
    stream: BinaryIO,
    out: TextIO,
    runner: Runner,
    *,
    strict: bool = False,
    limit: int = MAX_REQUEST_BYTES,
    size: int = SLICE_REQUESTS,
) -> int:
    """Answer every line of `stream` on `runner`'s workers, in order; return the count."""
    count = 0
    for answers in in_order(runner, answer_slice, _slices(stream, strict, limit, size)):
        out.write(answers)
        out.flush()
        count += answers.count("\n")
    return count
