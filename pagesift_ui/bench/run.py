"""One benchmark crawl: a recall curve and the adaptive stop, measured against a truth.

The x axis is **pages**, not steps: a page is a step that counts against the crawl's page
budget (``StepRecord.pages_scheduled``), so a duplicate (same text as a page already read,
refunded from the budget, docs/DESIGN.md §11.5) is a step but not a page, and a failed fetch
is a page (it spent budget). ``recall[i]`` is the recall after page ``i + 1``; a truth URL
met on a duplicate step is credited to the page before it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from pagesift_ui.session import (
    CrawlConfig,
    CrawlSession,
    PageSource,
    StepOutcome,
    StepRecord,
    SubtreeState,
    VerdictFate,
)
from pagesift_ui.session.views import start_failure

from .truth import found_keys

__all__ = ["CrawlCurve", "curve_from_keys", "run_crawl", "trace_row"]

TARGETS = (0.5, 0.9, 1.0)


@dataclass(slots=True)
class CrawlCurve:
    """Recall after each page of one crawler, plus where its adaptive stop fell."""

    name: str
    recall: list[float] = field(default_factory=list)  # recall after page i + 1
    found: list[int] = field(default_factory=list)
    truth_size: int = 0
    stop_reason: str | None = None
    stop_step: int | None = None  # the step of the first verdict that stood
    end_reason: str | None = None
    counterfactual: dict[str, int] = field(default_factory=dict)  # rule → first step it stood
    dry_at_stop: list[str] = field(default_factory=list)
    dry_at_end: list[str] = field(default_factory=list)
    became_dry: dict[str, int] = field(default_factory=dict)  # subtree → first step it was dry
    seconds: float = 0.0
    unreachable: int = 0
    page_of_step: list[int] = field(default_factory=list)  # pages after step i + 1
    trace: list[dict[str, Any]] = field(default_factory=list)  # one row per step, if asked
    #: why the crawl read no page at all, from its first step (``start_failure``); None
    #: once a page was read
    start_failure: str | None = None

    @property
    def pages(self) -> int:
        return len(self.recall)

    @property
    def steps(self) -> int:
        return len(self.page_of_step) or len(self.recall)

    def pages_at(self, step: int | None) -> int | None:
        """Pages fetched once ``step`` steps have run (the oracle: steps are pages)."""
        if step is None:
            return None
        if not self.page_of_step:
            return min(step, self.pages)
        return self.page_of_step[min(step, len(self.page_of_step)) - 1]

    @property
    def stop_pages(self) -> int | None:
        """Pages at the adaptive stop (the first verdict that stood), None if none stood."""
        return self.pages_at(self.stop_step)

    @property
    def own_stop_pages(self) -> int:
        """Pages where the crawl would have ended on its own: the first verdict that stood,
        else the end of the run (its limit, or an empty queue)."""
        stop = self.stop_pages
        return self.pages if stop is None else stop

    @property
    def own_stop_reason(self) -> str:
        return self.stop_reason or self.end_reason or "–"

    def pages_to(self, target: float) -> int | None:
        """Pages needed to reach ``target`` recall (None if never reached)."""
        for index, value in enumerate(self.recall):
            if value >= target - 1e-12:
                return index + 1
        return None

    def recall_at(self, pages: int | None) -> float | None:
        """Recall after ``pages`` pages (the last value past the end)."""
        if pages is None or not self.recall:
            return None
        return self.recall[max(1, min(pages, len(self.recall))) - 1]

    def answer_rate_at(self, pages: int | None) -> float | None:
        """Truth pages found per page fetched, up to ``pages``: the share of the budget
        spent on answers. Not the app's, the sweeps' and ``crawl``'s harvest rate, which
        counts the pages the crawler judged relevant, with no truth (session/views.py)."""
        if pages is None or not self.found:
            return None
        index = max(1, min(pages, len(self.found))) - 1
        return self.found[index] / (index + 1)

    def to_dict(self) -> dict[str, Any]:
        stop = self.stop_pages
        own = self.own_stop_pages
        return {
            "name": self.name,
            "pages": self.pages,
            "steps": self.steps,
            "truth_size": self.truth_size,
            "pages_to": {f"{t:.0%}": self.pages_to(t) for t in TARGETS},
            "adaptive_stop": {
                "reason": self.stop_reason,
                "step": self.stop_step,
                "pages": stop,
                "recall": self.recall_at(stop),
                "answer_rate": self.answer_rate_at(stop),
            },
            "own_stop": {"reason": self.own_stop_reason, "pages": own,
                         "recall": self.recall_at(own)},
            "final_recall": self.recall[-1] if self.recall else 0.0,
            "end_reason": self.end_reason,
            "counterfactual_stops": {
                rule: {"step": step, "pages": self.pages_at(step),
                       "recall": self.recall_at(self.pages_at(step))}
                for rule, step in sorted(self.counterfactual.items())
            },
            "dry_at_stop": self.dry_at_stop,
            "dry_at_end": self.dry_at_end,
            "became_dry": {part: {"step": step, "pages": self.pages_at(step)}
                           for part, step in sorted(self.became_dry.items(),
                                                    key=lambda kv: kv[1])},
            "unreachable_relevant": self.unreachable,
            "seconds": round(self.seconds, 2),
            "recall": [round(r, 4) for r in self.recall],
            **({"trace": self.trace} if self.trace else {}),
        }


def curve_from_keys(name: str, fetched: list[str], truth: frozenset[str]) -> CrawlCurve:
    """A curve for a given fetch order (the oracle's): every entry is one page."""
    curve = CrawlCurve(name, truth_size=len(truth))
    found: set[str] = set()
    for key in fetched:
        if key in truth:
            found.add(key)
        curve.found.append(len(found))
        curve.recall.append(len(found) / len(truth) if truth else 0.0)
    return curve


def _floored(link: dict[str, Any] | None) -> bool:
    """The section floor raised this link's score (the floor was binding, not just applied)."""
    if not link:
        return False
    before = float(link.get("raw", 0.0))
    for step in link.get("steps", ()):
        if step.get("rule") == "section floor":
            return float(step.get("score", 0.0)) > before
        before = float(step.get("score", 0.0))
    return False


def trace_row(record: StepRecord, relevant: bool) -> dict[str, Any]:
    """A compact row for one step: what was taken, why (score, blind, floor), what it gave."""
    return {
        "step": record.step,
        "pages": record.pages_scheduled,
        "url": record.url,
        "outcome": record.outcome.value,
        "score": round(record.score, 4),
        "blind": record.blind,
        "floor": _floored(record.link),
        "depth": record.depth,
        "relevance": None if record.relevance is None else round(record.relevance, 4),
        "truth": relevant,
        "verdict": record.verdict.value if record.verdict is not None else None,
        "fate": record.verdict_fate.value,
        "coverage": round(record.coverage, 3),
        "link_weights": [round(w, 3) for w in record.link_weights],
        "queue": record.queue_length,
    }


def run_crawl(
    name: str, config: CrawlConfig, truth: frozenset[str], source: PageSource,
    trace: bool = False,
) -> CrawlCurve:
    """Crawl to the limit with every verdict recorded (``stop_on_verdict`` must be False), so
    the curve goes on past the adaptive stop and the counterfactual stops can be read off.
    ``trace`` keeps a :func:`trace_row` per step."""
    if config.stop_on_verdict:
        raise ValueError("benchmark crawls record verdicts and go on: stop_on_verdict=False")
    curve = CrawlCurve(name, truth_size=len(truth))
    found: set[str] = set()
    started = time.perf_counter()
    with CrawlSession(config, source) as session:
        for record in session.iter_steps():
            hits = found_keys(record) & truth
            found |= hits
            value = len(found) / len(truth) if truth else 0.0
            if record.outcome is StepOutcome.DUPLICATE and curve.recall:
                curve.found[-1], curve.recall[-1] = len(found), value  # a step, not a page
            else:
                curve.found.append(len(found))
                curve.recall.append(value)
            curve.page_of_step.append(len(curve.recall))
            if trace:
                curve.trace.append(trace_row(record, bool(hits)))
            dry = _dry_parts(session)
            for part in dry:
                curve.became_dry.setdefault(part, record.step)
            if record.step == session.stop_step and not curve.dry_at_stop:
                curve.dry_at_stop = dry
        curve.seconds = time.perf_counter() - started
        curve.stop_reason = session.first_verdict.value if session.first_verdict else None
        curve.stop_step = session.stop_step
        curve.end_reason = session.stop_reason.value if session.stop_reason else None
        curve.dry_at_end = _dry_parts(session)
        curve.start_failure = start_failure(session.steps, session.stop_reason)
        for verdict in session.verdicts:
            if verdict.fate is not VerdictFate.AUTO_FORGIVEN:  # that one is not a stop
                curve.counterfactual.setdefault(verdict.reason.value, verdict.step)
    return curve


def _dry_parts(session: CrawlSession) -> list[str]:
    return [row.part for row in session.wilson_table() if row.state is SubtreeState.DRY]
