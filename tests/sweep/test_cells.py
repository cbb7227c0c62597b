"""A cell that fails is a result: recorded with its error, and run again next time."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq

from pagesift_ui.sweep import SnapshotPayload, load_spec, run_cell
from pagesift_ui.sweep.tables import finished_cell, write_cell, write_tables
from tests.sweep.conftest import Sweep


def test_a_failed_cell_is_recorded_and_not_counted_as_done(local_sweep: Sweep,
                                                            tmp_path: Path) -> None:
    spec = load_spec(local_sweep.spec)
    cell = spec.cells[0]
    broken = SnapshotPayload.of("warc", b"WARC/1.1\r\nnot really\r\n")
    result = run_cell(cell, broken)  # never raises
    assert not result.ok
    assert result.row["status"] == "failed" and "another snapshot" in result.row["error"]
    write_cell(tmp_path, result)
    assert finished_cell(tmp_path, cell.cell_id) is None  # a re-run tries it again
    good = run_cell(cell, spec.payload(cell.snapshot_digest))
    write_cell(tmp_path, good)
    assert finished_cell(tmp_path, cell.cell_id) is not None
    write_cell(tmp_path, run_cell(spec.cells[1], broken))
    assert write_tables(tmp_path, spec)[0] == 2  # cells never run are left out
    rows = pq.read_table(tmp_path / "cells.parquet").to_pylist()
    assert [row["status"] for row in rows] == ["ok", "failed"]
    assert rows[1]["steps"] is None and rows[1]["strategy"] == "thompson"
