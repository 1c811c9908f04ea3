"""``tabletop event serve`` under a small bounded load on the loopback address.

The contract's full size (200 spectators, 50 tables) is ``python -m
benchmarks.event_server``; here 20 spectators hold the stream and poll while 8 tables
report and confirm: no lost or doubled result, no answer 5xx, ``event check`` legal.
"""

from __future__ import annotations

import importlib.util

import pytest

from benchmarks.event_server import run_load

if importlib.util.find_spec("uvicorn") is None or importlib.util.find_spec("httpx") is None:
    pytest.skip("the serve extra and httpx are needed", allow_module_level=True)


def test_a_small_load_loses_and_doubles_nothing() -> None:
    tables = 8
    result = run_load(clients=20, tables=tables, seconds=30)
    assert result.server_errors == 0, result.statuses
    assert sorted(result.recorded) == list(range(1, tables + 1))
    for table, recorded in result.recorded.items():
        assert recorded is not None, table
        assert [recorded["score_a"], recorded["score_b"]] == result.expected[table]
    assert result.statuses.get(-1) == tables  # one result per table in the file
    assert result.statuses.get(202) == tables  # each reported once
    assert result.legal
    assert len(result.report_ms) == len(result.confirm_ms) == tables
    assert result.stream_events >= 20  # every stream told at least once
