"""Running a sweep on Dask: one task per cell, on a local cluster or an existing one.

- **Where**: a ``distributed.LocalCluster`` of worker processes (one thread each: a crawl is
  CPU-bound Python) by default, or the scheduler at ``scheduler`` (``tcp://HOST:PORT``).
- **What workers need**: the package, installed at the same version (checked before anything
  runs). Nothing else: each snapshot's payload is read on the client and handed to the
  cluster once with ``Client.scatter``; the tasks take it from there, and each worker keeps
  it parsed (``snapshot.load_payload``). No shared filesystem, no network access, no copy of
  the session store on the workers; the results come back to the client, which writes them.
- **Re-runs**: a cell whose result is saved in ``out`` is not run again (its id is a hash of
  its inputs, ``Cell.identity``). A failed cell is saved as failed and runs again next time.
- **Failures**: a cell that raises is a failed row (``run_cell`` catches it); a task lost
  with its worker is recorded failed the same way. The sweep goes on either way.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import dask
from distributed import Client, LocalCluster, as_completed

from pagesift_ui import __version__
from pagesift_ui.errors import ConfigError, shown
from pagesift_ui.sweep.cell import CellResult, failed_result, run_cell
from pagesift_ui.sweep.spec import SweepSpec
from pagesift_ui.sweep.tables import finished_cell, write_cell, write_tables

__all__ = ["WORKER_CONFIG", "Progress", "SweepSummary", "run_sweep"]

logger = logging.getLogger(__name__)

#: Dask settings of the local cluster's workers; for an existing cluster, start its workers
#: with the same (``DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False``).
WORKER_CONFIG = {"distributed.worker.profile.enabled": False}
#: The local cluster's address: its scheduler, workers and HTTP endpoint bind this only.
LOOPBACK = "127.0.0.1"


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a sweep is: ``done`` of ``total`` cells to run (skipped ones not counted),
    ``failed`` of them failed; ``last`` is the result just back (None at the start)."""

    done: int
    total: int
    failed: int
    elapsed_s: float
    last: CellResult | None


@dataclass(frozen=True, slots=True)
class SweepSummary:
    """What a sweep did: cells in the spec, skipped (already done), run, failed, rows written."""

    cells: int
    skipped: int
    ran: int
    failed: int
    steps: int
    elapsed_s: float


def run_sweep(
    spec: SweepSpec,
    out: Path,
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    on_progress: Callable[[Progress], None] | None = None,
) -> SweepSummary:
    """Run every cell of ``spec`` not yet finished in ``out`` and write the tables.

    ``scheduler`` is an existing cluster's address; without it a ``LocalCluster`` of
    ``workers`` processes (default: one per core) runs for the sweep's duration.
    """
    if workers is not None and (isinstance(workers, bool) or workers < 1):
        raise ConfigError("workers", f"must be a whole number >= 1, got {shown(workers)}")
    started = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    todo = [cell for cell in spec.cells if finished_cell(out, cell.cell_id) is None]
    failed = 0
    if todo:
        with _client(scheduler, workers) as client:
            _check_versions(client)
            digests = sorted({cell.snapshot_digest for cell in todo})
            payloads = {digest: client.scatter(spec.payload(digest)) for digest in digests}
            futures = {
                client.submit(run_cell, cell, payloads[cell.snapshot_digest], pure=False): cell
                for cell in todo
            }
            if on_progress is not None:
                on_progress(Progress(0, len(todo), 0, time.perf_counter() - started, None))
            for done, future in enumerate(as_completed(futures), start=1):
                cell = futures[future]
                try:
                    result: CellResult = future.result()
                except Exception as exc:  # the task itself was lost (a worker died)
                    result = failed_result(cell, f"the task failed on the cluster: {exc!r}")
                write_cell(out, result)
                failed += not result.ok
                if on_progress is not None:
                    on_progress(Progress(done, len(todo), failed,
                                         time.perf_counter() - started, result))
    _, steps = write_tables(out, spec)
    return SweepSummary(len(spec.cells), len(spec.cells) - len(todo), len(todo), failed,
                        steps, time.perf_counter() - started)


@contextmanager
def _client(scheduler: str | None, workers: int | None) -> Iterator[Client]:
    if scheduler is not None:
        with Client(scheduler, timeout="20s") as client:
            yield client
        return
    n_workers = workers or os.cpu_count() or 1
    # The workers' statistical profiler samples every thread's stack every 10 ms, holding
    # the GIL a crawl needs; a sweep has no dashboard to show it in. Everything listens on
    # loopback only, the scheduler's HTTP endpoint on a free port (8787 may be taken).
    # the workers log at the level the caller set for "distributed" (the CLI: ERROR unless
    # --verbose); LocalCluster's own default silences them to WARNING whatever it is
    level = max(logging.getLogger("distributed").getEffectiveLevel(), logging.WARNING)
    with dask.config.set(WORKER_CONFIG):
        with _interrupts_ignored():
            cluster = LocalCluster(
                n_workers=n_workers, threads_per_worker=1, processes=True, host=LOOPBACK,
                dashboard_address=f"{LOOPBACK}:0", silence_logs=level,
            )
        with cluster, Client(cluster) as client:
            yield client


@contextmanager
def _interrupts_ignored() -> Iterator[None]:
    """Ignore Ctrl-C while the local workers start, so that they are born ignoring it
    (a process started with SIGINT ignored keeps it so: Python then installs no
    KeyboardInterrupt handler, nor asyncio's runner one). A Ctrl-C reached every worker of
    the terminal's process group too, and each printed its tracebacks
    (``CancelledError``, ``BrokenPipeError``) over the sweep's own message (found by using
    the CLI); the sweep's process alone handles it and closes the cluster. A Ctrl-C during
    those seconds of start-up is lost."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set a handler; a caller's thread keeps them
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _version() -> str:
    return __version__


def _check_versions(client: Client) -> None:
    """Every worker must run this pagesift-ui: another version may crawl differently."""
    versions = client.run(_version)
    other = {address: v for address, v in versions.items() if v != __version__}
    if other:
        address, version = next(iter(other.items()))
        raise ConfigError("scheduler", f"worker {address} runs pagesift-ui {version}, this "
                          f"client {__version__}: install the same version on every worker")
    if not versions:
        logger.warning("the cluster has no workers yet; the cells wait for one")
