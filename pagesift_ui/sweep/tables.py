"""A sweep's results folder: one file per finished cell, and the tidy tables built from them.

Layout of ``RESULTS/``:

- ``cells/<cell_id>.json``: a finished cell's row and step rows, written as soon as it is
  back (so an interrupted sweep keeps every finished cell, and a re-run skips it);
- ``sessions/<cell_id>.json``: its session bundle (``docs/SESSION_FORMAT.md``);
- ``cells.parquet`` / ``cells.csv``: one row per cell of the spec (``CELL_COLUMNS``);
- ``steps.parquet`` / ``steps.csv``: one row per step of every cell (``STEP_COLUMNS``);
- ``manifest.json``: the spec's cells in order and its snapshots (each with its ``source``,
  a file's absolute path or ``session:ID``, the ``db`` of a session's store, its SHA-256
  ``digest`` and ``seed_url``: where a cell's snapshot is read again to replay it,
  ``results.cell_snapshot``).

The Parquet files carry an explicit schema, so a column has the same type whether or not the
first cell failed or had a truth.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq

from pagesift_ui.session.config import SETTINGS
from pagesift_ui.sweep.cell import RECALL_TARGETS, CellResult
from pagesift_ui.sweep.spec import SweepSpec

__all__ = [
    "CELL_COLUMNS",
    "MANIFEST_FORMAT",
    "STEP_COLUMNS",
    "finished_cell",
    "write_cell",
    "write_tables",
]

MANIFEST_FORMAT = "pagesift-sweep"
MANIFEST_VERSION = 1

_TEXT, _INT, _FLOAT, _BOOL = pa.string(), pa.int64(), pa.float64(), pa.bool_()
_KINDS = {int: _INT, float: _FLOAT, bool: _BOOL}

_MODEL = [f"{prefix}{name}" for prefix in ("", "prior_", "window_", "window_prior_")
          for name in ("log_loss", "brier", "auc")]

#: The cells table: identity, every setting, then what the crawl and the link model did.
CELL_COLUMNS: tuple[tuple[str, pa.DataType], ...] = (
    *((name, _TEXT) for name in ("cell_id", "snapshot", "query", "query_text", "seed_url",
                                 "label")),
    *((s.name, _KINDS.get(s.kind, _TEXT)) for s in SETTINGS),
    ("prior_weights", _TEXT),
    ("status", _TEXT), ("error", _TEXT), ("version", _TEXT),
    ("steps", _INT), ("pages", _INT), ("pages_scheduled", _INT), ("relevant_pages", _INT),
    ("harvest", _FLOAT), ("stop_step", _INT), ("stop_reason", _TEXT), ("end_reason", _TEXT),
    ("relevant_at_stop", _INT), ("harvest_at_stop", _FLOAT),
    ("not_in_snapshot", _INT), ("errors", _INT),
    ("truth_size", _INT), ("found", _INT), ("final_recall", _FLOAT), ("recall_at_stop", _FLOAT),
    *((f"pages_to_{round(t * 100)}", _INT) for t in RECALL_TARGETS),
    ("predictions", _INT), ("positive_labels", _INT),
    *((name, _FLOAT) for name in _MODEL),
    ("fetch_order", _TEXT), ("elapsed_s", _FLOAT),
)

#: The steps table: one row per step of a cell, for curves.
STEP_COLUMNS: tuple[tuple[str, pa.DataType], ...] = (
    ("cell_id", _TEXT), ("step", _INT), ("url", _TEXT), ("final_url", _TEXT),
    ("outcome", _TEXT), ("error_kind", _TEXT), ("score", _FLOAT), ("relevance", _FLOAT),
    ("relevant", _BOOL), ("pages_scheduled", _INT), ("pages_fetched", _INT),
    ("relevant_pages", _INT), ("harvest", _FLOAT), ("found", _INT), ("recall", _FLOAT),
    ("coverage", _FLOAT), ("verdict", _TEXT), ("verdict_fate", _TEXT),
    ("predicted", _FLOAT), ("prior_predicted", _FLOAT), ("label", _BOOL),
)


def cell_path(out: Path, cell_id: str) -> Path:
    return out / "cells" / f"{cell_id}.json"


def session_path(out: Path, cell_id: str) -> Path:
    return out / "sessions" / f"{cell_id}.json"


def finished_cell(out: Path, cell_id: str) -> dict[str, Any] | None:
    """The saved result of a cell that finished well (``row`` and ``steps``), else None (not
    run, failed, or its file unreadable: it runs again)."""
    try:
        saved = json.loads(cell_path(out, cell_id).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(saved, dict) or saved.get("row", {}).get("status") != "ok":
        return None
    if not session_path(out, cell_id).is_file():
        return None
    return saved


def write_cell(out: Path, result: CellResult) -> None:
    """Save one cell's result (and its session bundle) as it comes back."""
    if result.bundle:
        _write_text(session_path(out, result.cell_id), result.bundle)
    document = {"row": result.row, "steps": result.steps}
    _write_text(cell_path(out, result.cell_id), json.dumps(document, ensure_ascii=False))


def write_tables(out: Path, spec: SweepSpec) -> tuple[int, int]:
    """Build the cells and steps tables of the spec's cells from their saved files, in spec
    order, plus the manifest; returns (cells, steps) written. A cell never saved is left out."""
    rows: list[dict[str, Any]] = []
    steps: list[dict[str, Any]] = []
    for cell in spec.cells:
        try:
            saved = json.loads(cell_path(out, cell.cell_id).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        rows.append(saved["row"])
        steps.extend(saved["steps"])
    _write_table(out, "cells", rows, CELL_COLUMNS)
    _write_table(out, "steps", steps, STEP_COLUMNS)
    _write_text(out / "manifest.json", json.dumps(_manifest(spec), indent=1, sort_keys=True))
    return len(rows), len(steps)


def _manifest(spec: SweepSpec) -> dict[str, Any]:
    return {
        "format": MANIFEST_FORMAT,
        "version": MANIFEST_VERSION,
        "spec": str(spec.path) if spec.path is not None else "",
        "cells": [cell.cell_id for cell in spec.cells],
        "snapshots": {s.name: {"source": s.source, "digest": s.payload.digest,
                               "seed_url": s.seed_url, "db": s.db} for s in spec.snapshots},
    }


def table_of(rows: Iterable[dict[str, Any]], columns: Sequence[tuple[str, pa.DataType]]
             ) -> pa.Table:
    """Rows as an Arrow table with exactly ``columns`` (missing values are null)."""
    names = [name for name, _ in columns]
    listed = list(rows)
    arrays = [pa.array([row.get(name) for row in listed], type=kind) for name, kind in columns]
    return pa.Table.from_arrays(arrays, names=names)


def _write_table(out: Path, name: str, rows: Sequence[dict[str, Any]],
                 columns: Sequence[tuple[str, pa.DataType]]) -> None:
    table = table_of(rows, columns)
    for suffix, write in ((".parquet", pq.write_table), (".csv", pa_csv.write_csv)):
        target = out / f"{name}{suffix}"
        partial = _partial(target)
        write(table, str(partial))
        os.replace(partial, target)


def _write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = _partial(path)
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


def _partial(path: Path) -> Path:
    """Where ``path`` is written before it replaces the old one: a name of this process's
    own, so two sweeps into one folder do not write one file and move it from under each
    other ("No such file or directory (r15/cells.parquet.part)", found by using the CLI);
    the last to finish wins, each table whole."""
    return path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.part")
