r"""The request lines of ``tabletop query``'s input stream, one at a time or a chunk at a time.

Lines end at ``b"\n"`` only; a line over the size limit is read past in pieces (memory
stays flat) and given as :class:`TooLong`.
"""

from __future__ import annotations

import dataclasses as _dc
from collections.abc import Iterator
from typing import BinaryIO

from tabletop.app.common.datafile import MAX_FILE_BYTES

__all__ = ["MAX_REQUEST_BYTES", "TooLong", "request_batches", "request_lines"]

#: Longest request line read, bytes (without its "\n"): an inline scene may be as large
#: as a scene file.
MAX_REQUEST_BYTES = MAX_FILE_BYTES


@_dc.dataclass(frozen=True, slots=True)
class TooLong:
    r"""A request line over the size limit, read past and not kept.

    Attributes
    ----------
    size : int
        Its length in bytes, without the ``"\n"``.
    """

    size: int


def request_lines(stream: BinaryIO, limit: int = MAX_REQUEST_BYTES) -> Iterator[bytes | TooLong]:
    r"""Yield each line of `stream` (split at ``b"\n"`` only), or :class:`TooLong`.

    A line over `limit` bytes is read past in pieces, so memory stays flat.
    """
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if line.endswith(b"\n"):
            yield line[:-1]
            continue
        if len(line) <= limit:
            yield line  # the last line, without its "\n"
            continue
        size = len(line)
        while True:
            piece = stream.readline(1 << 16)
            if not piece:
                break
            if piece.endswith(b"\n"):
                size += len(piece) - 1
                break
            size += len(piece)
        yield TooLong(size)


#: Bytes read from a stream at a time (what is there already, up to this).
_CHUNK_BYTES = 1 << 16


def request_batches(
    stream: BinaryIO, limit: int = MAX_REQUEST_BYTES
) -> Iterator[list[bytes | TooLong]]:
    r"""Yield the lines of `stream` (as :func:`request_lines` gives them) a chunk at a time.

    A chunk is the whole lines among the bytes already there to read: nothing waits for
    input while a line read is unanswered, so a conversation (one request, its answer,
    the next request) goes as with one line at a time. A line over `limit` bytes is
    counted and not kept.

    Examples
    --------
    >>> import io
    >>> list(request_batches(io.BytesIO(b'{"a": 1}\n\n{"b": 2}'), limit=8))
    [[b'{"a": 1}', b''], [b'{"b": 2}']]
    """
    read1 = getattr(stream, "read1", None)
    if read1 is None:
        for raw in request_lines(stream, limit):
            yield [raw]
        return
    pending: list[bytes] = []  # the start of a line, across reads
    pending_size = 0
    skipped = -1  # bytes of a line over the limit read past so far; -1 when none
    while True:
        chunk: bytes = read1(_CHUNK_BYTES)
        if not chunk:
            break
        batch: list[bytes | TooLong] = []
        end = chunk.find(b"\n")
        if end < 0:  # no line ends here
            if skipped >= 0:
                skipped += len(chunk)
            else:
                pending.append(chunk)
                pending_size += len(chunk)
                if pending_size > limit:
                    skipped, pending, pending_size = pending_size, [], 0
            continue
        if skipped >= 0:
            batch.append(TooLong(skipped + end))
            skipped = -1
        else:
            pending.append(chunk[:end])
            head = b"".join(pending)
            batch.append(head if len(head) <= limit else TooLong(len(head)))
        lines = chunk[end + 1 :].split(b"\n")
        rest = lines.pop()
        batch += [line if len(line) <= limit else TooLong(len(line)) for line in lines]
        pending, pending_size = ([rest], len(rest)) if rest else ([], 0)
        if pending_size > limit:
            skipped, pending, pending_size = pending_size, [], 0
        yield batch
    if skipped >= 0:
        yield [TooLong(skipped)]
    elif pending:
        yield [b"".join(pending)]
