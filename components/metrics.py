"""Headline numbers: a pure function from the session's summary to metric tiles, and a renderer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from components.labels import STOP_REASONS
from pagesift_ui.frontier.adaptive import COLD_PATIENCE, StopReason
from pagesift_ui.session import CrawlConfig, StepRecord

__all__ = ["Metric", "headline_metrics", "render_metrics"]


@dataclass(frozen=True, slots=True)
class Metric:
    label: str
    value: str
    help: str
    delta: str | None = None




def _short(reason: str) -> str:
    """A name that fits a metric tile; the help text and the banner give the full reason."""
    known = {r.value: r for r in StopReason}.get(reason)
    return STOP_REASONS[known].words if known is not None else reason


def _verdict_value(summary: Mapping[str, Any], last: StepRecord | None) -> tuple[str, str | None]:
    """(value, note): the reason the crawl stopped, else the verdict forgiven at the last step."""
    reason = summary.get("stop_reason")
    if reason:
        return _short(str(reason)), "stopped"
    if last is not None and last.verdict and last.forgiven:
        return _short(last.verdict), "forgiven"
    return "—", None


def headline_metrics(
    summary: Mapping[str, Any], steps: Sequence[StepRecord], config: CrawlConfig
) -> list[Metric]:
    """The eight tiles, in display order; works for live sessions and imported views."""
    last = steps[-1] if steps else None
    patience = config.adaptive.patience
    stale = last.stale if last else 0
    cold = last.cold if last else 0
    verdict, verdict_note = _verdict_value(summary, last)
    fetched_delta = None
    if last is not None and len(steps) > 1:
        fetched_delta = f"+{last.pages_fetched - steps[-2].pages_fetched}"
    return [
        Metric("Pages fetched", str(summary.get("pages_fetched", 0)),
               "HTML pages that went through the core (duplicates and errors not counted)",
               fetched_delta),
        Metric("Relevant pages", str(summary.get("relevant_pages", 0)),
               "pages with relevance ≥ 0.15, after your labels"),
        Metric("Harvest rate", f"{summary.get('harvest_rate', 0.0):.0%}",
               "share of fetched pages that brought new on-topic content"),
        Metric("Queue length", str(summary.get("queue_length", 0)), "links waiting"),
        Metric("Coverage", f"{summary.get('coverage', 0.0):.0%}",
               f"mean over terms of min(1, evidence / {config.adaptive.evidence_per_term}); "
               f"stop needs {config.adaptive.coverage_threshold:.0%}"),
        Metric("Stale / patience", f"{stale} / {patience}",
               "pages in a row that brought nothing new; saturated at patience"),
        Metric("Cold / 2×patience", f"{cold} / {COLD_PATIENCE * patience}",
               "clue-less irrelevant pages in a row before anything was found"),
        Metric("Verdict", verdict, "the stop rule that fired: covered = coverage_reached, "
               "nothing found = no_relevant_pages", verdict_note),
    ]


def render_metrics(metrics: Sequence[Metric], per_row: int = 4) -> None:
    for start in range(0, len(metrics), per_row):
        row = metrics[start:start + per_row]
        for column, metric in zip(st.columns(per_row), row, strict=False):
            column.metric(metric.label, metric.value, delta=metric.delta, help=metric.help,
                          delta_color="off", delta_arrow="off")
