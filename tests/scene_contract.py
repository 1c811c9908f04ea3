"""The command line's contract for a scene it cannot use, shared by the fuzz and limit tests.

Exit 2, one line on stderr ``tabletop CMD: error: WHERE: MESSAGE`` (clipped as every
error is), and stdout empty or, with ``--json``, the ``{"error": ...}`` object.
"""

from __future__ import annotations

import dataclasses
import io
import json

from tabletop.app import cli
from tabletop.app.common.text import clip
from tabletop.app.scene.scenefile import (
    SceneError,
)


@dataclasses.dataclass
class Run:
    code: int
    out: str
    err: str


def run(*argv: str) -> Run:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(list(argv), out=out, err=err)
    return Run(code, out.getvalue(), err.getvalue())


def assert_rejected(result: Run, command: str, error: SceneError, *, json_out: bool) -> None:
    """The contract for input that cannot be used: exit 2, one clear line on stderr."""
    assert result.code == cli.EXIT_BAD_INPUT, result
    assert "Traceback" not in result.err
    # The command prints a message and a place over MESSAGE_LIMIT characters clipped
    # (head, tail and the count cut), as it does every error: the same clip here.
    message, where = clip(error.message), None if error.where is None else clip(error.where)
    prefix = f"{where}: " if where else ""
    assert result.err == f"tabletop {command}: error: {prefix}{message}\n", result.err
    assert result.err.count("\n") == 1, f"the message is not one line: {result.err!r}"
    if json_out:
        assert json.loads(result.out) == {"error": {"message": message, "where": where}}
    else:
        assert result.out == ""
