"""A server command in a child process: started unbuffered, stopped as Ctrl-C stops it.

The benchmarks and the tests that run ``tabletop serve`` or ``tabletop event serve``
start it with :func:`start` (its lines readable as it prints them) and stop it with
:func:`interrupt`: SIGINT, as a terminal's Ctrl-C, and a kill only when it does not stop.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Sequence

__all__ = ["STOP_SECONDS", "interrupt", "start"]

#: How long a server has to stop after Ctrl-C before it is killed, seconds.
STOP_SECONDS = 10.0


def start(command: Sequence[str]) -> subprocess.Popen[str]:
    """Start `command` with its standard output and error piped, as text, unbuffered."""
    return subprocess.Popen(
        list(command),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def interrupt(process: subprocess.Popen[str]) -> None:
    """Stop `process` as Ctrl-C does; kill it only when it has not stopped in time."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=STOP_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
