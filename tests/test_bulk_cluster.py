"""Bulk jobs on a Dask cluster: a ``LocalCluster``'s scheduler gives the one-process answer.

The cluster is two worker processes of one thread each, started once for the module; the
tests skip where the ``cluster`` extra (dask.distributed) is not installed.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from common import run
from test_bulk_jobs import (
    DOGFIGHT_400,
    DOGFIGHT_400_TEXT,
    POCKET_60,
    POCKET_60_TEXT,
    _text_stdin,
    printed,
    query_requests,
)

distributed: Any = pytest.importorskip("dask.distributed")
dask: Any = pytest.importorskip("dask")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a local cluster: 2 worker processes, 1 thread each, on 127.0.0.1."""
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
    ) as cluster:
        yield str(cluster.scheduler_address)


def test_dogfight_play_on_a_cluster_is_the_same(scheduler: str) -> None:
    started = time.perf_counter()
    assert printed(*DOGFIGHT_400, "--scheduler", scheduler) == DOGFIGHT_400_TEXT
    # 400 games are about 1 s of one core; the cluster's work is shared, not repeated.
    assert time.perf_counter() - started < 60


def test_pocket_play_on_a_cluster_is_the_same(scheduler: str) -> None:
    assert printed(*POCKET_60, "--scheduler", scheduler) == POCKET_60_TEXT


def test_setup_count_on_a_cluster_writes_the_same_tables(scheduler: str, tmp_path: Path) -> None:
    argv = ["setup", "--ruleset", "armada", "--seed", "9", "--count", "10", "--json"]
    here = json.loads(printed(*argv, "-o", str(tmp_path / "a.json")))
    there = json.loads(printed(*argv, "-o", str(tmp_path / "b.json"), "--scheduler", scheduler))
    for mine, theirs in zip(here["tables"], there["tables"], strict=True):
        assert (mine["seed"], mine["obstacles"]) == (theirs["seed"], theirs["obstacles"])
        assert Path(mine["written"]).read_bytes() == Path(theirs["written"]).read_bytes()


def test_query_on_a_cluster_answers_alike(scheduler: str, monkeypatch: pytest.MonkeyPatch) -> None:
    requests = query_requests()
    monkeypatch.setattr(sys, "stdin", _text_stdin(requests))
    alone = printed("query")
    monkeypatch.setattr(sys, "stdin", _text_stdin(requests))
    assert printed("query", "--scheduler", scheduler) == alone


def test_an_unreachable_scheduler_exits_2_naming_it() -> None:
    # Port 1 on the loopback: nothing listens there, and the connection is refused at once.
    code, out, err = run(*DOGFIGHT_400, "--scheduler", "tcp://127.0.0.1:1")
    assert code == 2
    assert err.startswith(
        "tabletop dogfight: error: --scheduler: cannot reach the Dask scheduler at "
        "tcp://127.0.0.1:1 within 10 s: "
    )
    assert json.loads(out)["error"]["where"] == "--scheduler"


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("garbage", "missing port number in address 'garbage'"),
        ("http://127.0.0.1:1", "unknown address scheme 'http'"),
        ("tcp://127.0.0.1:port", "invalid literal for int() with base 10: 'port'"),
    ],
)
def test_a_malformed_scheduler_address_exits_2_before_connecting(address: str, reason: str) -> None:
    code, _, err = run(*DOGFIGHT_400, "--scheduler", address)
    assert code == 2
    assert err.startswith(
        f"tabletop dogfight: error: --scheduler: {address!r} is not a scheduler address ("
    )
    assert reason in err
    assert err.rstrip().endswith("; expected tcp://HOST:PORT")
