"""Headline numbers: a pure function from the session's summary to metric tiles, and a renderer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from components.labels import NO_VALUE, STOP_REASONS
from pagesift_ui.frontier.adaptive import (
    COLD_PATIENCE,
    EVIDENCE_RELEVANCE,
    StopReason,
    covered_stale_limit,
)
from pagesift_ui.session import CrawlConfig, StepRecord
from pagesift_ui.session.views import harvest_rate

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
    """(value, note): the reason the crawl stopped, else the verdict forgiven at the last
    step. With Stop on verdict off the first verdict that stood is the note (the crawl went
    on to its limit)."""
    reason = summary.get("stop_reason")
    first, at = summary.get("first_verdict"), summary.get("stop_step")
    if first and at is not None and first != reason:
        note = f"first: {_short(str(first))} at step {at}"
        return (_short(str(reason)) if reason else NO_VALUE), note
    if reason:
        return _short(str(reason)), _named("stopped", str(reason))
    if last is not None and last.verdict and last.forgiven:
        return _short(last.verdict), _named("forgiven", str(last.verdict))
    return NO_VALUE, None


def _named(what: str, reason: str) -> str:
    """``what`` with the reason's own name when the tile shows a shorter one: "covered" on
    the tile and "coverage_reached" in the log read as two things (found by teaching)."""
    return what if _short(reason) == reason else f"{what}: {reason}"


def _harvest(summary: Mapping[str, Any]) -> float:
    """Relevant pages per page fetched, from the counts (a bundle of an older version named
    the share of pages with new evidence ``harvest_rate``)."""
    return harvest_rate(int(summary.get("relevant_pages", 0)),
                        int(summary.get("pages_fetched", 0)))


def _fresh_note(summary: Mapping[str, Any]) -> str | None:
    fresh = summary.get("fresh_rate")
    return None if fresh is None else f"{fresh:.0%} brought new evidence"


def _dry_note(summary: Mapping[str, Any]) -> str | None:
    dry = summary.get("queue_in_dry")
    return f"{dry} in dry subtrees" if dry else None


def _steps_note(steps: Sequence[StepRecord]) -> str | None:
    return f"in {len(steps)} step{'s' * (len(steps) != 1)}" if steps else None


def headline_metrics(
    summary: Mapping[str, Any], steps: Sequence[StepRecord], config: CrawlConfig
) -> list[Metric]:
    """The eight tiles, in display order; works for live sessions and imported views.

    Labels stay short enough for a tile at 1280 px (the help says the rest). Steps and pages
    are kept apart: every link taken is a step, only a distinct HTML page is a page, so the
    pages tile says in how many steps they came.
    """
    last = steps[-1] if steps else None
    patience = config.adaptive.patience
    # the live counters (a label or a forgive moves them between steps); a bundle of an
    # older version has only its last record's
    stale = int(summary.get("stale", last.stale if last else 0))
    cold = int(summary.get("cold", last.cold if last else 0))
    verdict, verdict_note = _verdict_value(summary, last)
    covered_at = covered_stale_limit(patience)
    return [
        Metric("Pages fetched", str(summary.get("pages_fetched", 0)),
               "distinct HTML pages read. Every link taken is a step; a duplicate, an error "
               "or a non-HTML answer is a step but not a page", _steps_note(steps)),
        Metric("Relevant pages", str(summary.get("relevant_pages", 0)),
               f"pages with relevance ≥ {EVIDENCE_RELEVANCE}, after your labels"),
        Metric("Harvest rate", f"{_harvest(summary):.0%}",
               "relevant pages ÷ pages fetched, after your labels (the focused-crawling "
               "harvest rate; Compare and the sweeps plot the same)", _fresh_note(summary)),
        Metric("Queue", str(summary.get("queue_length", 0)),
               "links waiting to be fetched; those of dry subtrees (found or forced dry) are "
               "set aside when their turn comes, until the subtree is not dry",
               _dry_note(summary)),
        Metric("Coverage", f"{summary.get('coverage', 0.0):.0%}",
               f"mean over terms of min(1, evidence / {config.adaptive.evidence_per_term}); "
               f"coverage_reached needs {config.adaptive.coverage_threshold:.0%}"),
        Metric("Stale", f"{stale} / {patience}",
               f"pages that brought nothing new since the last that did, against patience "
               f"{patience}: saturated when it reaches patience, coverage_reached at "
               f"{covered_at} once the query is covered. A page's new evidence counts only "
               f"if it is at least the minimum gain ({config.adaptive.min_gain:.0%}) of all "
               "collected so far, so a step that lists a little new evidence can still be "
               "stale; a page too weak to be read as evidence leaves it as it is. A verdict "
               "the crawler forgives resets it to 0",
               # the 3 that ends a covered query showed only as a dashed line on a chart,
               # beside a tile reading "3 / 5" (found by teaching with the app)
               f"{covered_at} ends it: covered" if summary.get("covered") else None),
        Metric("Cold", f"{cold} / {COLD_PATIENCE * patience}",
               "clue-less irrelevant pages in a row before anything was found: "
               f"no_relevant_pages at {COLD_PATIENCE}×patience"),
        Metric("Verdict", verdict, "the stop rule that fired: covered = coverage_reached, "
               "none found = no_relevant_pages; with Stop on verdict off, the first "
               "verdict that stood and its step", verdict_note),
    ]


def render_metrics(metrics: Sequence[Metric], per_row: int = 4) -> None:
    for start in range(0, len(metrics), per_row):
        row = metrics[start:start + per_row]
        for column, metric in zip(st.columns(per_row), row, strict=False):
            column.metric(metric.label, metric.value, delta=metric.delta, help=metric.help,
                          delta_color="off", delta_arrow="off")
