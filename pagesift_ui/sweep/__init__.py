"""The research workbench: site snapshots, and sweeps of crawls over them on Dask.

``snapshot`` records a site once and reads any recording back as a snapshot; ``spec`` reads a
sweep spec into cells; ``cell`` runs and measures one cell (what a worker runs); ``runner``
runs the cells on a Dask cluster; ``tables`` writes the results folder; ``results`` reads it
back for the app, with the curves of any session.
"""

from __future__ import annotations

from pagesift_ui.sweep.cell import CellResult, run_cell
from pagesift_ui.sweep.runner import Progress, SweepSummary, run_sweep
from pagesift_ui.sweep.snapshot import (
    LoadedSnapshot,
    SnapshotPayload,
    load_payload,
    read_payload,
    record_snapshot,
    snapshot_config,
)
from pagesift_ui.sweep.spec import Cell, SweepSpec, load_spec, parse_spec

__all__ = [
    "Cell",
    "CellResult",
    "LoadedSnapshot",
    "Progress",
    "SnapshotPayload",
    "SweepSpec",
    "SweepSummary",
    "load_payload",
    "load_spec",
    "parse_spec",
    "read_payload",
    "record_snapshot",
    "run_cell",
    "run_sweep",
    "snapshot_config",
]
