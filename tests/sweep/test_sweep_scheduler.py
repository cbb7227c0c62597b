"""The same sweep through ``--scheduler``: a ``dask scheduler`` and a ``dask worker`` started
here as separate processes on 127.0.0.1, with equal results."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.sweep.conftest import Sweep, run_cli

#: Every process here is bounded: the scheduler quits when idle, the worker when the
#: scheduler is gone, and the test kills both in any case.
STARTUP_S = 60
RUN_COLUMNS = {"elapsed_s"}  # measure the run, not the crawl

#: ``dask scheduler`` / ``dask worker`` of this interpreter (the ``dask`` command's entry point).
DASK = [sys.executable, "-m", "dask"]


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@pytest.fixture
def scheduler(tmp_path: Path) -> Iterator[str]:
    """The address of a scheduler with one worker, both on 127.0.0.1."""
    info = tmp_path / "scheduler.json"
    # the worker needs only the installed package (no PYTHONPATH, no shared folder)
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False"}
    logs = (tmp_path / "scheduler.log").open("wb"), (tmp_path / "worker.log").open("wb")
    processes = [subprocess.Popen(
        [*DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
         "--scheduler-file", str(info), "--idle-timeout", "120s"],
        stdout=logs[0], stderr=subprocess.STDOUT, env=env, cwd=tmp_path)]
    try:
        deadline = time.monotonic() + STARTUP_S
        while not info.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert info.exists(), "the scheduler did not start"
        address = json.loads(info.read_text(encoding="utf-8"))["address"]
        assert address.startswith("tcp://127.0.0.1:")
        processes.append(subprocess.Popen(
            [*DASK, "worker", address, "--nworkers", "1", "--nthreads", "1", "--no-dashboard",
             "--host", "127.0.0.1", "--death-timeout", "30s", "--lifetime", "300s"],
            stdout=logs[1], stderr=subprocess.STDOUT, env=env, cwd=tmp_path))
        yield address
    finally:
        for process in reversed(processes):
            _stop(process)
        for log in logs:
            log.close()


def test_a_sweep_on_an_existing_cluster_gives_the_local_results(
    local_sweep: Sweep, scheduler: str, tmp_path: Path
) -> None:
    out = tmp_path / "results"
    code, stdout, err = run_cli("sweep", str(local_sweep.spec), "--out", str(out),
                                "--scheduler", scheduler, "--quiet")
    assert code == 0, stdout + err
    assert "4 cells: 0 done before, 4 run, 0 failed" in stdout
    remote = pq.read_table(out / "cells.parquet").to_pylist()
    local = pq.read_table(local_sweep.out / "cells.parquet").to_pylist()
    assert len(remote) == len(local) == 4

    def crawl(rows: list[dict[str, object]]) -> list[dict[str, object]]:
        return [{k: v for k, v in row.items() if k not in RUN_COLUMNS} for row in rows]

    assert crawl(remote) == crawl(local)
    assert (pq.read_table(out / "steps.parquet").to_pylist()
            == pq.read_table(local_sweep.out / "steps.parquet").to_pylist())
