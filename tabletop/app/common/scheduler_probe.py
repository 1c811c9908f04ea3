"""Whether a ``--scheduler`` address is a Dask scheduler, asked within a bounded time.

Dask's own client waits without a bound for the greeting of whatever accepted its
connection, and trusts the length that greeting announces: a listener that says nothing
keeps it waiting for ever, and one that answers anything else makes it try to allocate
whatever the first eight bytes say. So before a client is made, a plain TCP connection
asks: a Dask server speaks first, an 8-byte frame length and a short msgpack handshake
that names its ``pickle-protocol``. Anything else within :func:`scheduler_timeout_s`
seconds is refused (exit 2), and the connection is closed.

Examples
--------
>>> scheduler_timeout_s({}), scheduler_timeout_s({"TABLETOP_SCHEDULER_TIMEOUT": "2.5"})
(10.0, 2.5)
"""

from __future__ import annotations

import os
import socket
import struct
import time

from tabletop.app.common.text import clip, printable
from tabletop.geom.errors import InvalidInputError

__all__ = [
    "DEFAULT_SCHEDULER_TIMEOUT_S",
    "SCHEDULER_TIMEOUT_ENV",
    "probe_scheduler",
    "scheduler_timeout_s",
]

#: Seconds to connect to a scheduler and hear its greeting before giving up (exit 2).
DEFAULT_SCHEDULER_TIMEOUT_S = 10.0
#: The environment variable that sets another bound, in seconds.
SCHEDULER_TIMEOUT_ENV = "TABLETOP_SCHEDULER_TIMEOUT"
#: Longest bound that may be asked for, in seconds (an hour).
_MOST_TIMEOUT_S = 3600.0
#: A Dask handshake is well under a hundred bytes; a greeting announcing more is not one.
_MOST_GREETING_BYTES = 64 * 1024
#: What every Dask handshake holds (its msgpack map's keys).
_DASK_MARKS = (b"compression", b"pickle-protocol")


def scheduler_timeout_s(environ: dict[str, str] | None = None) -> float:
    """Return the seconds a scheduler has to answer: :data:`SCHEDULER_TIMEOUT_ENV`, or 10.

    Raises
    ------
    InvalidInputError
        For a value that is not a number of seconds above 0 and at most an hour.
    """
    given = (os.environ if environ is None else environ).get(SCHEDULER_TIMEOUT_ENV)
    if given is None or not given.strip():
        return DEFAULT_SCHEDULER_TIMEOUT_S
    try:
        seconds = float(given)
    except ValueError:
        seconds = float("nan")
    if not 0.0 < seconds <= _MOST_TIMEOUT_S:
        raise InvalidInputError(
            f"{SCHEDULER_TIMEOUT_ENV} is the seconds a scheduler has to answer, above 0 and "
            f"at most {_MOST_TIMEOUT_S:.0f}; got {clip(printable(given), 80)!r}",
            where="--scheduler",
        )
    return seconds


def _receive(sock: socket.socket, size: int, deadline: float) -> bytes:
    """Return exactly `size` bytes, or fewer when the peer closed or the time ran out."""
    data = bytearray()
    while len(data) < size:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        sock.settimeout(left)
        try:
            chunk = sock.recv(min(size - len(data), 65536))
        except TimeoutError:
            break
        if not chunk:
            break
        data += chunk
    return bytes(data)


def probe_scheduler(address: str, host: str, port: int, timeout_s: float) -> None:
    """Connect to ``host:port`` and check that a Dask scheduler greets within `timeout_s`.

    Raises
    ------
    InvalidInputError
        When nothing listens there, or what listens is not a Dask scheduler: it says
        nothing within the time, closes, or says something that is not a Dask greeting.
    """
    deadline = time.monotonic() + timeout_s
    try:
        sock = socket.create_connection((host, port), timeout=timeout_s)
    except OSError as error:
        reason = "timed out" if isinstance(error, TimeoutError) else error.strerror or error
        raise InvalidInputError(
            f"cannot reach the Dask scheduler at {address} within {timeout_s:g} s: {reason}",
            where="--scheduler",
        ) from None
    with sock:
        header = _receive(sock, 8, deadline)
        if len(header) < 8:
            said = "said nothing" if not header else f"said only {len(header)} bytes"
            raise _not_dask(address, f"it {said} within {timeout_s:g} s")
        (size,) = struct.unpack("=Q", header)  # as Dask writes it
        if size > _MOST_GREETING_BYTES:
            raise _not_dask(
                address, f"its greeting announces {size} bytes; a Dask greeting is a few dozen"
            )
        body = _receive(sock, size, deadline)
        if len(body) < size or not all(mark in body for mark in _DASK_MARKS):
            raise _not_dask(address, "its greeting is not a Dask handshake")


def _not_dask(address: str, why: str) -> InvalidInputError:
    return InvalidInputError(
        f"{address} is not a Dask scheduler: {why} (a Dask scheduler greets at once; "
        f"{SCHEDULER_TIMEOUT_ENV} sets the seconds to wait)",
        where="--scheduler",
    )
