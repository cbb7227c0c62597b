"""What the Compare page and the sweep view read: a results folder, and curves of sessions.

Reading (``load_results``, ``cell_session``) is kept apart from the pure functions of data
(``session_curve``, ``model_curve``, ``calibration``, ``heatmap``, ``setting_differences``),
which take step records, tables or configs and return plain rows; none of them draws.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from pagesift_ui.bench.truth import found_keys, url_key
from pagesift_ui.errors import BundleError, PagesiftError
from pagesift_ui.frontier.adaptive import MIN_RELEVANCE
from pagesift_ui.frontier.prequential import (
    BINS,
    WINDOW,
    ReliabilityBin,
    cumulative,
    reliability,
    windowed,
)
from pagesift_ui.session import CrawlConfig, StepRecord
from pagesift_ui.session.bundle import load_bundle
from pagesift_ui.session.config import SETTINGS, setting_values
from pagesift_ui.session.view import SessionView
from pagesift_ui.session.views import harvest_rate
from pagesift_ui.sweep.snapshot import LoadedSnapshot, load_payload, read_payload
from pagesift_ui.sweep.tables import CELL_COLUMNS, MANIFEST_FORMAT, STEP_COLUMNS, session_path

__all__ = [
    "AGGREGATES",
    "DIMENSIONS",
    "CurvePoint",
    "HeatmapGrid",
    "ModelPoint",
    "SweepResults",
    "calibration",
    "cell_session",
    "cell_snapshot",
    "filter_cells",
    "heatmap",
    "heatmap_grid",
    "load_results",
    "metric_columns",
    "model_curve",
    "session_curve",
    "setting_differences",
    "swept_settings",
]

AGGREGATES = ("mean", "median", "min", "max", "count")
#: The cells table's columns a heatmap can lay out (the cell's identity and its settings);
#: every other numeric column is a metric.
DIMENSIONS: tuple[str, ...] = ("snapshot", "query", "seed_url",
                               *(s.name for s in SETTINGS), "prior_weights")
#: Numeric columns that say what a cell is or how it ran, not how well it crawled.
_NOT_METRICS = frozenset({"elapsed_s"})


@dataclass(frozen=True, slots=True)
class SweepResults:
    """A results folder read back: the cells table, the steps table (pandas frames, with the
    columns of ``tables.CELL_COLUMNS`` and ``STEP_COLUMNS``) and the manifest."""

    folder: Path
    cells: pd.DataFrame
    steps: pd.DataFrame
    manifest: dict[str, Any]

    def steps_of(self, cell_id: str) -> pd.DataFrame:
        """One cell's step rows in step order (its curve)."""
        rows = self.steps[self.steps["cell_id"] == cell_id]
        return rows.sort_values("step").reset_index(drop=True)

    def recall_of(self, cell_id: str) -> tuple[float | None, ...] | None:
        """One cell's recall after each step, from the steps table (None: no truth)."""
        recall = self.steps_of(cell_id)["recall"]
        if not bool(recall.notna().any()):
            return None
        return tuple(None if pd.isna(v) else float(v) for v in recall)

    def row_of(self, cell_id: str) -> dict[str, Any]:
        """One cell's row of the cells table; raises ``KeyError`` for an unknown cell."""
        rows = self.cells[self.cells["cell_id"] == cell_id]
        if rows.empty:
            raise KeyError(f"no cell {cell_id} in {self.folder}")
        return dict(rows.iloc[0])


def load_results(folder: Path) -> SweepResults:
    """Read ``cells.parquet``, ``steps.parquet`` and ``manifest.json`` of a sweep's folder.

    Raises ``BundleError`` when the folder is not a sweep's results.
    """
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        cells = pd.read_parquet(folder / "cells.parquet")
        steps = pd.read_parquet(folder / "steps.parquet")
    except (OSError, ValueError) as exc:
        raise BundleError(f"{folder} holds no sweep results: {exc}") from exc
    if not isinstance(manifest, dict) or manifest.get("format") != MANIFEST_FORMAT:
        raise BundleError(f"{folder}/manifest.json is not a pagesift sweep manifest")
    # every column the views read, checked once here: a table without one ended the Sweeps
    # page in a KeyError traceback
    for name, table, columns in (("cells.parquet", cells, CELL_COLUMNS),
                                 ("steps.parquet", steps, STEP_COLUMNS)):
        missing = [column for column, _ in columns if column not in table.columns]
        if missing:
            raise BundleError(f"{folder}/{name} is not a sweep's table: it has no "
                              f"{', '.join(missing[:5])}{' …' if len(missing) > 5 else ''} "
                              "column")
    return SweepResults(folder, cells, steps, manifest)


def cell_snapshot(results: SweepResults, cell_id: str) -> LoadedSnapshot:
    """The snapshot a cell crawled, read again from where the spec took it (a file, or a
    saved session of the default store), to replay the cell with other settings.

    Raises ``BundleError`` saying why it cannot: the cell or its snapshot is unknown, the
    source cannot be read, or it is not the snapshot the sweep crawled any more (its digest
    differs)."""
    try:
        name = str(results.row_of(cell_id)["snapshot"])
    except KeyError as exc:
        raise BundleError(str(exc.args[0])) from exc
    known = results.manifest.get("snapshots", {}).get(name)
    if not isinstance(known, dict):
        raise BundleError(f"the manifest of {results.folder} does not name snapshot {name}")
    source, db = str(known.get("source", "")), known.get("db")
    try:
        if source.startswith("session:"):
            payload = read_payload(session_id=source.removeprefix("session:"),
                                   db=Path(db) if isinstance(db, str) else None)
        else:
            # a manifest before absolute sources: relative to where the sweep ran, which
            # it does not name; the results folder's parent is the usual one
            path = Path(source)
            if not path.is_absolute() and not path.exists():
                path = results.folder.absolute().parent / path
            payload = read_payload(path)
    except PagesiftError as exc:
        raise BundleError(f"snapshot {name} cannot be read from {source}: {exc}") from exc
    if payload.digest != known.get("digest"):
        raise BundleError(f"{source} is no longer the snapshot {name} the sweep crawled "
                          "(its contents changed)")
    return load_payload(payload)


def cell_session(folder: Path, cell_id: str) -> SessionView:
    """The session of one cell (read-only, as an uploaded bundle opens)."""
    path = session_path(folder, cell_id)
    if not path.is_file():
        raise BundleError(f"no session of cell {cell_id} in {folder} (it failed or never ran)")
    return load_bundle(path)


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """A session after one step: pages, relevant pages and harvest so far, recall where the
    truth is known (None otherwise), and whether a verdict stopped it here."""

    step: int
    pages_fetched: int
    relevant_pages: int
    harvest: float
    recall: float | None
    stopped: bool


def session_curve(
    steps: Sequence[StepRecord], truth_urls: Sequence[str] | None = None
) -> list[CurvePoint]:
    """The recall/harvest curve of any session (a sweep cell's, a saved or uploaded one)."""
    truth = frozenset(url_key(u) for u in truth_urls) if truth_urls is not None else None
    found: set[str] = set()
    points = []
    for record in steps:
        if truth is not None:
            found |= found_keys(record) & truth
        points.append(CurvePoint(
            step=record.step,
            pages_fetched=record.pages_fetched,
            relevant_pages=record.relevant_pages,
            harvest=harvest_rate(record.relevant_pages, record.pages_fetched),
            recall=len(found) / len(truth) if truth else None,
            stopped=record.stopped,
        ))
    return points


@dataclass(frozen=True, slots=True)
class ModelPoint:
    """Prequential scores after the n-th labelled link (at ``step``): cumulative and over the
    moving window, for the model and the prior-only model (None where undefined)."""

    step: int
    n: int
    log_loss: float | None
    brier: float | None
    auc: float | None
    prior_log_loss: float | None
    window_log_loss: float | None
    window_brier: float | None
    window_auc: float | None
    prior_brier: float | None = None
    prior_auc: float | None = None
    window_prior_log_loss: float | None = None
    window_prior_brier: float | None = None
    window_prior_auc: float | None = None


def _labelled(steps: Sequence[StepRecord]) -> tuple[list[int], list[float], list[float],
                                                    list[bool]]:
    at, predicted, prior, labels = [], [], [], []
    for record in steps:
        if record.predicted is None or record.prior_predicted is None:
            continue  # nothing learned at this step (or a bundle older than the predictions)
        at.append(record.step)
        predicted.append(record.predicted)
        prior.append(record.prior_predicted)
        labels.append((record.relevance or 0.0) >= MIN_RELEVANCE)
    return at, predicted, prior, labels


def model_curve(steps: Sequence[StepRecord], window: int = WINDOW) -> list[ModelPoint]:
    """How well the link model predicted, as the session went (``frontier/prequential``)."""
    at, predicted, prior, labels = _labelled(steps)
    model, base = cumulative(predicted, labels), cumulative(prior, labels)
    recent = windowed(predicted, labels, window)
    recent_base = windowed(prior, labels, window)
    return [
        ModelPoint(step, m.n, m.log_loss, m.brier, m.auc, b.log_loss, w.log_loss, w.brier,
                   w.auc, b.brier, b.auc, wb.log_loss, wb.brier, wb.auc)
        for step, m, b, w, wb in zip(at, model, base, recent, recent_base, strict=True)
    ]


def calibration(steps: Sequence[StepRecord], bins: int = BINS, *,
                prior: bool = False) -> tuple[ReliabilityBin, ...]:
    """The reliability bins of a session's predictions (a calibration chart); ``prior``:
    of the prior-only model's instead."""
    _, predicted, prior_predicted, labels = _labelled(steps)
    return reliability(prior_predicted if prior else predicted, labels, bins)


def heatmap(cells: pd.DataFrame, x: str, y: str, metric: str,
            aggregate: str = "mean") -> pd.DataFrame:
    """``metric`` over two swept settings: rows ``y``, columns ``x``, cells aggregated over
    everything else (queries, seeds …). Failed cells are left out."""
    for name in (x, y, metric):
        if name not in cells.columns:
            raise ValueError(f"no column {name!r}; the columns are {list(cells.columns)}")
    if aggregate not in AGGREGATES:
        raise ValueError(f"aggregate must be one of {AGGREGATES}, got {aggregate!r}")
    ok = cells[cells["status"] == "ok"]
    return ok.pivot_table(index=y, columns=x, values=metric, aggfunc=aggregate)


def swept_settings(cells: pd.DataFrame) -> list[str]:
    """The ``DIMENSIONS`` whose value differs between the finished cells, in table order."""
    ok = cells[cells["status"] == "ok"]
    return [name for name in DIMENSIONS
            if name in ok.columns and ok[name].astype(str).nunique() > 1]


def metric_columns(cells: pd.DataFrame) -> list[str]:
    """The numeric columns a heatmap can show: not a dimension, with at least one value."""
    dimensions = set(DIMENSIONS)
    return [name for name in cells.columns
            if name not in dimensions and name not in _NOT_METRICS
            and pd.api.types.is_numeric_dtype(cells[name])
            and not pd.api.types.is_bool_dtype(cells[name])
            and bool(cells[name].notna().any())]


def filter_cells(cells: pd.DataFrame, filters: Mapping[str, Any]) -> pd.DataFrame:
    """The cells whose ``column`` equals ``value`` for every (column, value) of ``filters``;
    values are compared as text, as the sweep view's select boxes offer them."""
    keep = pd.Series(True, index=cells.index)
    for name, value in filters.items():
        if name not in cells.columns:
            raise ValueError(f"no column {name!r}; the columns are {list(cells.columns)}")
        keep &= cells[name].astype(str) == str(value)
    return cells[keep]


def _axis(column: pd.Series) -> tuple[str, ...]:
    """A setting's values along an axis, as text: numbers by size (in the spec's order,
    patience 8, 3, 5 ran 8, 3, 5 across and the colours read as a trend), the rest as met."""
    if pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column):
        values = [*sorted(column.dropna().unique()), *([column[column.isna()].iloc[0]]
                                                        if column.isna().any() else [])]
        return tuple(dict.fromkeys(str(value) for value in values))
    return tuple(dict.fromkeys(column.astype(str)))


@dataclass(frozen=True, slots=True)
class HeatmapGrid:
    """A metric over two settings: ``values[i][j]`` at ``y_values[i]``, ``x_values[j]``
    (None where no finished cell has a value), aggregated over ``cell_ids[i][j]``."""

    x: str
    y: str
    metric: str
    aggregate: str
    x_values: tuple[str, ...]
    y_values: tuple[str, ...]
    values: tuple[tuple[float | None, ...], ...]
    cell_ids: tuple[tuple[tuple[str, ...], ...], ...]


def heatmap_grid(cells: pd.DataFrame, x: str, y: str, metric: str, aggregate: str = "mean",
                 filters: Mapping[str, Any] | None = None) -> HeatmapGrid:
    """``heatmap`` of the cells left by ``filters``, with the cells behind each value (so a
    click can open them). A numeric setting is laid out by size, any other in its order of
    first appearance in the table (the spec's order); as text."""
    if x == y:
        raise ValueError(f"the heatmap needs two different settings, got {x!r} twice")
    chosen = filter_cells(cells, filters or {})
    ok = chosen[chosen["status"] == "ok"]
    text = ok.assign(**{x: ok[x].astype(str), y: ok[y].astype(str)})
    pivot = heatmap(text, x, y, metric, aggregate) if len(text) else pd.DataFrame()
    xs, ys = _axis(ok[x]), _axis(ok[y])
    values = tuple(
        tuple(_number(pivot, yv, xv) for xv in xs) for yv in ys)
    ids = tuple(
        tuple(tuple(text[(text[x] == xv) & (text[y] == yv)]["cell_id"]) for xv in xs)
        for yv in ys)
    return HeatmapGrid(x, y, metric, aggregate, xs, ys, values, ids)


def _number(pivot: pd.DataFrame, row: str, column: str) -> float | None:
    try:
        value = pivot.at[row, column]
    except KeyError:
        return None
    return None if pd.isna(value) else float(value)


def setting_differences(configs: Mapping[str, CrawlConfig]) -> list[dict[str, Any]]:
    """The settings in which the named sessions' configs differ: one row per setting, with
    ``setting`` and each session's value under its name (the Compare page's table)."""
    flat = {name: _flat(config) for name, config in configs.items()}
    keys = list(next(iter(flat.values()), {}))
    rows = []
    for key in keys:
        values = {name: settings[key] for name, settings in flat.items()}
        if len({json.dumps(v, default=str) for v in values.values()}) > 1:
            rows.append({"setting": key, **values})
    return rows


def _flat(config: CrawlConfig) -> dict[str, Any]:
    return {"seed_url": config.seed_url, "query": config.query, **setting_values(config),
            "prior_weights": list(config.prior_weights)}
