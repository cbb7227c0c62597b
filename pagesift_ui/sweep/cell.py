"""One cell of a sweep: a crawl on a snapshot, measured. This is what a Dask worker runs.

``run_cell`` is a plain function of its inputs (the cell and its snapshot's payload), so the
same cell on any worker fetches the same pages in the same order: the crawl is deterministic
given its config and the recorded answers (docs/DESIGN.md §13), the thompson strategy's draws
are seeded, and nothing is read from the worker's disk or network. It never raises: a cell
that fails is a result with ``status = "failed"`` and the error, and the sweep goes on.
"""

from __future__ import annotations

import hashlib
import logging
import time
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pagesift_ui import __version__
from pagesift_ui.bench.truth import found_keys
from pagesift_ui.errors import NotRecorded
from pagesift_ui.frontier.adaptive import EVIDENCE_RELEVANCE, MIN_RELEVANCE
from pagesift_ui.frontier.prequential import evaluate
from pagesift_ui.session import CrawlSession, StepRecord
from pagesift_ui.session.bundle import bundle_json, session_bundle
from pagesift_ui.session.config import setting_values
from pagesift_ui.session.views import harvest_rate, start_failure
from pagesift_ui.store import ReplaySource
from pagesift_ui.sweep.snapshot import SnapshotPayload, load_payload
from pagesift_ui.sweep.spec import Cell

__all__ = ["RECALL_TARGETS", "CellResult", "failed_result", "run_cell", "setting_columns"]

logger = logging.getLogger(__name__)

#: Recall levels whose "pages to" the table reports (``pages_to_50`` …).
RECALL_TARGETS = (0.5, 0.9, 1.0)


@dataclass(frozen=True, slots=True)
class CellResult:
    """A finished cell: its table row, its per-step rows and its session bundle (JSON text;
    empty for a failed cell)."""

    cell_id: str
    row: dict[str, Any]
    steps: list[dict[str, Any]] = field(default_factory=list)
    bundle: str = ""

    @property
    def ok(self) -> bool:
        return bool(self.row.get("status") == "ok")


def run_cell(cell: Cell, payload: SnapshotPayload) -> CellResult:
    """Crawl ``cell`` offline on its snapshot and measure it; never raises."""
    started = time.perf_counter()
    try:
        if payload.digest != cell.snapshot_digest:
            raise ValueError(f"cell {cell.cell_id} was given another snapshot "
                             f"({payload.digest[:12]}, not {cell.snapshot_digest[:12]})")
        snapshot = load_payload(payload)
        with CrawlSession(cell.config, ReplaySource(snapshot.responses)) as session:
            records = list(session.iter_steps())
            steps = step_rows(cell, records)
            row = {**_identity(cell), **_crawl_metrics(cell, session, records, steps),
                   **_model_metrics(records, cell.window)}
            bundle = bundle_json(session_bundle(session))
        failure = start_failure(records)
        if failure is not None:
            # a seed the snapshot lacks read as "ok, 1 step, exhausted": a result of nothing
            row.update(status="failed", error=f"the start URL could not be crawled: {failure}")
    except Exception as exc:  # a failed cell is a result: recorded, and the sweep goes on
        logger.warning("cell %s failed: %r", cell.cell_id, exc)
        return failed_result(cell, "".join(traceback.format_exception_only(exc)).strip(),
                             time.perf_counter() - started)
    row["elapsed_s"] = round(time.perf_counter() - started, 3)
    return CellResult(cell.cell_id, row, steps, bundle)


def failed_result(cell: Cell, error: str, elapsed_s: float = 0.0) -> CellResult:
    """The result of a cell that could not run (here or on a worker that was lost)."""
    row = {**_identity(cell), "status": "failed", "error": error,
           "elapsed_s": round(elapsed_s, 3)}
    return CellResult(cell.cell_id, row)


def setting_columns(cell: Cell) -> dict[str, Any]:
    """Every setting of the cell's config by its flat name (``SETTINGS``), plus
    ``prior_weights`` as text (``2,1.5,1,0.5,0.5``)."""
    return {**setting_values(cell.config),
            "prior_weights": ",".join(f"{w:g}" for w in cell.config.prior_weights)}


def _identity(cell: Cell) -> dict[str, Any]:
    return {
        "cell_id": cell.cell_id,
        "snapshot": cell.snapshot,
        "query": cell.query_name,
        "query_text": cell.config.query,
        "seed_url": cell.config.seed_url,
        "label": cell.label,
        **setting_columns(cell),
        "status": "ok",
        "error": "",
        "version": __version__,
    }


def step_rows(cell: Cell, records: Sequence[StepRecord]) -> list[dict[str, Any]]:
    """One row per step: what was fetched, the counters, recall and the model's prediction."""
    truth, found = cell.truth, set()
    rows = []
    for record in records:
        if truth is not None:
            found |= found_keys(record) & truth
        learned = record.predicted is not None and record.relevance is not None
        rows.append({
            "cell_id": cell.cell_id,
            "step": record.step,
            "url": record.url,
            "final_url": record.final_url,
            "outcome": record.outcome.value,
            "error_kind": record.error_kind or "",
            "score": record.score,
            "relevance": record.relevance,
            "relevant": record.relevance is not None and record.relevance >= EVIDENCE_RELEVANCE,
            "pages_scheduled": record.pages_scheduled,
            "pages_fetched": record.pages_fetched,
            "relevant_pages": record.relevant_pages,
            "harvest": harvest_rate(record.relevant_pages, record.pages_fetched),
            "found": len(found) if truth is not None else None,
            "recall": len(found) / len(truth) if truth else None,
            "coverage": record.coverage,
            "verdict": record.verdict.value if record.verdict is not None else "",
            "verdict_fate": record.verdict_fate.value,
            "predicted": record.predicted,
            "prior_predicted": record.prior_predicted,
            "label": (record.relevance or 0.0) >= MIN_RELEVANCE if learned else None,
        })
    return rows


def _crawl_metrics(
    cell: Cell,
    session: CrawlSession,
    records: Sequence[StepRecord],
    steps: Sequence[dict[str, Any]],
) -> dict[str, Any]:
    last = records[-1] if records else None
    stop = session.stop_step or len(records)
    at_stop = steps[stop - 1] if steps and stop else None
    recall = [row["recall"] for row in steps]
    row: dict[str, Any] = {
        "steps": len(records),
        "pages": last.pages_fetched if last else 0,
        "pages_scheduled": last.pages_scheduled if last else 0,
        "relevant_pages": session.relevant_pages,
        "harvest": steps[-1]["harvest"] if steps else 0.0,
        "stop_step": session.stop_step,
        "stop_reason": session.first_verdict.value if session.first_verdict else "",
        "end_reason": session.stop_reason.value if session.stop_reason else "",
        "relevant_at_stop": at_stop["relevant_pages"] if at_stop else 0,
        "harvest_at_stop": at_stop["harvest"] if at_stop else 0.0,
        "not_in_snapshot": sum(r.error_kind == NotRecorded.kind for r in records),
        "errors": sum(r.error is not None for r in records),
        "truth_size": None,
        "found": None,
        "final_recall": None,
        "recall_at_stop": None,
        "fetch_order": fetch_order(records),
    }
    for target in RECALL_TARGETS:
        row[f"pages_to_{round(target * 100)}"] = None
    if cell.truth is not None:
        row.update(truth_size=len(cell.truth), found=steps[-1]["found"] if steps else 0,
                   final_recall=recall[-1] if steps else 0.0,
                   recall_at_stop=at_stop["recall"] if at_stop else 0.0)
        for target in RECALL_TARGETS:
            row[f"pages_to_{round(target * 100)}"] = _pages_to(steps, target)
    return row


def _pages_to(steps: Sequence[Mapping[str, Any]], target: float) -> int | None:
    """Pages until the recall first reaches ``target`` (None: never): the pages that count
    against the budget by then (``pages_scheduled``), as ``bench`` and ``run_all.py`` count
    them. A duplicate is a step, not a page: counted in steps, the same crawl read 55 here
    and 54 in ``bench`` (found by using the CLI)."""
    for row in steps:
        value = row["recall"]
        if value is not None and value >= target - 1e-12:
            return int(row["pages_scheduled"])
    return None


def fetch_order(records: Sequence[StepRecord]) -> str:
    """A fingerprint of the fetch order: SHA-256 of the steps' URLs, one per line (hex, 16)."""
    text = "\n".join(record.url for record in records)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _model_metrics(records: Sequence[StepRecord], window: int) -> dict[str, Any]:
    """Prequential scores of the link model and of the prior-only model (``prequential``)."""
    predicted, prior, labels = [], [], []
    for record in records:
        if record.predicted is None or record.prior_predicted is None:
            continue
        predicted.append(record.predicted)
        prior.append(record.prior_predicted)
        labels.append((record.relevance or 0.0) >= MIN_RELEVANCE)
    return evaluate(predicted, prior, labels, window=window).to_row()
