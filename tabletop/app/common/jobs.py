"""Bulk work shared out: ``--jobs N`` local processes or ``--scheduler ADDRESS`` (Dask).

One small interface over two existing engines: :class:`concurrent.futures.ProcessPoolExecutor`
for ``--jobs`` and a :class:`dask.distributed.Client` for ``--scheduler`` (the
``tabletop-judge[cluster]`` extra, imported only when asked for). Without either option,
or with ``--jobs 1``, the work runs in this process, as it always did.

The commands cut their work into slices of item numbers (:func:`slices`) and hand each
slice to a module-level function; every item draws from its own seeded stream derived
from (seed, item number), so the answer is the same whatever the number of workers,
the slicing or the machine. :func:`in_order` gives the slices' results back in item
order, with a bounded number of slices under way.

Examples
--------
>>> slices(10, workers=2)
[range(0, 2), range(2, 4), range(4, 6), range(6, 8), range(8, 10)]
>>> with open_runner(None, None) as runner:
...     list(in_order(runner, sum, [([1, 2],), ([3],)]))
[3, 3]
"""

from __future__ import annotations

import argparse
import collections
import importlib
import math
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import Any, Generic, Protocol, TypeVar

from tabletop.app.common.scheduler_probe import probe_scheduler, scheduler_timeout_s
from tabletop.geom.errors import InvalidInputError

__all__ = [
    "CLUSTER_EXTRA",
    "JOBS_PER_PROCESSOR",
    "JobsError",
    "Runner",
    "add_job_options",
    "in_order",
    "most_jobs",
    "open_runner",
    "processors",
    "slices",
]

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

#: What to install for ``--scheduler``.
CLUSTER_EXTRA = "pip install 'tabletop-judge[cluster]'"
#: Local processes allowed per processor (``--jobs`` above that many is refused).
JOBS_PER_PROCESSOR = 4
#: Slices per worker: a few, so that a slow slice does not leave the others idle.
_SLICES_PER_WORKER = 4


class JobsError(InvalidInputError):
    """The workers could not be had or were lost (exit 2, one line, no traceback)."""


class Pending(Protocol[T_co]):
    """A slice under way: its result when done (a Future of either engine)."""

    def result(self) -> T_co: ...


class Runner:
    """Runs module-level functions, here or on workers; a context manager.

    Attributes
    ----------
    workers : int
        How many slices may run at once (processes, or the cluster's threads).
    in_process : bool
        Whether the work runs in this process (no option, or ``--jobs 1``).
    where : str
        Where the work runs, for messages: ``"this process"``, ``"2 processes"`` or the
        scheduler's address.
    """

    workers: int = 1
    where: str = "this process"
    #: Whether the work runs in this process (no option, or ``--jobs 1``).
    in_process: bool = True

    def submit(self, function: Callable[..., T], *args: Any) -> Pending[T]:
        """Start ``function(*args)``; the result comes from the returned object."""
        return _Done(function(*args))

    def close(self) -> None:
        """Let the workers go."""

    def __enter__(self) -> Runner:
        """Return the runner itself."""
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        """Let the workers go, whether or not the work ended well."""
        self.close()


class _Done(Generic[T]):
    """A result already there (the work of a runner that runs in this process)."""

    def __init__(self, value: T) -> None:
        self._value = value

    def result(self) -> T:
        return self._value


class _Processes(Runner):
    def __init__(self, jobs: int) -> None:
        # Imported here: a command run without --jobs does not pay for them.
        import concurrent.futures
        import multiprocessing

        # spawn: a fresh interpreter per worker, so no lock or thread (numba's, BLAS's)
        # is inherited half-held from this process, and the same on every platform.
        self._pool = concurrent.futures.ProcessPoolExecutor(
            jobs, mp_context=multiprocessing.get_context("spawn")
        )
        self.workers, self.where, self.in_process = jobs, f"{jobs} processes", False

    def submit(self, function: Callable[..., T], *args: Any) -> Pending[T]:
        return self._pool.submit(function, *args)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


class _Cluster(Runner):
    def __init__(self, address: str) -> None:
        try:
            # Through importlib: the extra is optional, and its types are not the project's.
            distributed: Any = importlib.import_module("dask.distributed")
        except ImportError:
            raise JobsError(
                f"--scheduler needs dask.distributed, which is not installed; "
                f"install the cluster extra: {CLUSTER_EXTRA}"
            ) from None
        addressing: Any = importlib.import_module("distributed.comm.addressing")
        try:
            # Checked before a Client is made: a Client refused its address is left half
            # made, and complains when collected.
            scheme, _ = addressing.parse_address(address)
            host, port = addressing.get_address_host_port(address)
        except ValueError as error:
            raise JobsError(
                f"{address!r} is not a scheduler address ({error}); expected tcp://HOST:PORT",
                where="--scheduler",
            ) from None
        timeout_s = scheduler_timeout_s()
        if scheme == "tcp":
            # Dask waits without a bound for a silent listener's greeting: asked first.
            probe_scheduler(address, host, port, timeout_s)
        try:
            self._client: Any = distributed.Client(address, set_as_default=False, timeout=timeout_s)
        except (OSError, ValueError, TypeError, MemoryError) as error:
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise JobsError(
                f"cannot reach the Dask scheduler at {address}: {reason}", where="--scheduler"
            ) from None
        threads = sum(self._client.nthreads().values())
        self.workers, self.where, self.in_process = max(1, threads), address, False

    def submit(self, function: Callable[..., T], *args: Any) -> Pending[T]:
        # pure=False: every slice is its own task (no hashing of its arguments for a key).
        pending: Pending[T] = self._client.submit(function, *args, pure=False)
        return pending

    def close(self) -> None:
        self._client.close()


def processors() -> int:
    """Return how many processors this process may run on (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on every platform
        return max(1, os.cpu_count() or 1)


def most_jobs() -> int:
    """Return the most ``--jobs`` accepted: :data:`JOBS_PER_PROCESSOR` per processor.

    Processes beyond the processors only share them, each at the cost of an interpreter's
    memory; a bound tied to the machine keeps ``--jobs 1000000`` from starting one process
    per piece of work.
    """
    return JOBS_PER_PROCESSOR * processors()


def _job_count(text: str) -> int:
    shown = text if len(text) <= 40 else text[:37] + "..."
    digits = text.strip().removeprefix("+")
    try:
        # A number too long for int() (over 4,300 digits) is still a number, and too many.
        value = int(text) if len(digits) <= 30 or not digits.isdigit() else 10**30
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of processes, got {shown!r}"
        ) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more processes, got {shown}")
    most = most_jobs()
    if value > most:
        raise argparse.ArgumentTypeError(
            f"expected at most {most} processes ({JOBS_PER_PROCESSOR} for each of the "
            f"{processors()} processors this command may use), got {shown}"
        )
    return value


def add_job_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--jobs N`` and ``--scheduler ADDRESS`` to a command's parser."""
    parser.add_argument(
        "--jobs",
        type=_job_count,
        metavar="N",
        help="share the work out to N local processes, at most "
        f"{JOBS_PER_PROCESSOR} per processor (default: this process alone)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="share the work out to a Dask cluster, e.g. tcp://host:8786 "
        "(the tabletop-judge[cluster] extra)",
    )


def open_runner(jobs: int | None, scheduler: str | None) -> Runner:
    """Return the runner the options ask for (this process for neither, or ``--jobs 1``).

    Raises
    ------
    JobsError
        For both options at once, more jobs than :func:`most_jobs`, a missing ``dask.distributed`` or a scheduler that
        cannot be reached.
    """
    if jobs is not None and scheduler is not None:
        raise JobsError("--jobs and --scheduler: give one (a cluster has its own workers)")
    if scheduler is not None:
        return _Cluster(scheduler)
    if jobs is None or jobs == 1:
        return Runner()
    if not 1 <= jobs <= most_jobs():
        raise JobsError(f"--jobs: expected 1 to {most_jobs()} processes, got {jobs}")
    return _Processes(jobs)


def slices(items: int, workers: int, size: int | None = None) -> list[range]:
    """Cut item numbers ``0 .. items - 1`` into consecutive slices.

    `size` items a slice, or by default about four slices per worker.
    """
    if size is None:
        size = max(1, math.ceil(items / (workers * _SLICES_PER_WORKER)))
    return [range(first, min(first + size, items)) for first in range(0, items, size)]


def in_order(
    runner: Runner,
    function: Callable[..., T],
    calls: Iterable[tuple[Any, ...]],
    *,
    ahead: int | None = None,
) -> Iterator[T]:
    """Yield ``function(*args)`` for each of `calls`, in their order, run by `runner`.

    At most `ahead` calls (default twice the workers) are under way at once, so a long
    stream of calls is read as the results are used.

    Raises
    ------
    JobsError
        When a worker is lost (a process killed, the cluster gone).
    """
    limit = ahead if ahead is not None else 2 * runner.workers
    queue: collections.deque[Pending[T]] = collections.deque()
    try:
        for args in calls:
            queue.append(runner.submit(function, *args))
            if len(queue) >= limit:
                yield queue.popleft().result()
        while queue:
            yield queue.popleft().result()
    except _lost_worker_errors() as error:
        reason = str(error) or type(error).__name__
        raise JobsError(
            f"a worker was lost before its work was done ({runner.where}): {reason}"
        ) from None


def _lost_worker_errors() -> tuple[type[BaseException], ...]:
    lost: tuple[type[BaseException], ...] = ()
    if "concurrent.futures.process" in sys.modules:
        process: Any = importlib.import_module("concurrent.futures.process")
        lost = (process.BrokenProcessPool,)
    # Only when dask.distributed is already loaded (a --scheduler run) are its errors asked for.
    if "distributed" not in sys.modules:
        return lost
    client: Any = importlib.import_module("distributed.client")
    comm: Any = importlib.import_module("distributed.comm.core")
    scheduler: Any = importlib.import_module("distributed.scheduler")
    return (*lost, scheduler.KilledWorker, comm.CommClosedError, client.FutureCancelledError)
