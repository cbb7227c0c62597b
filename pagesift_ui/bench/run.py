"""One benchmark crawl: a recall curve and the adaptive stop, measured against a truth."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from pagesift_ui.session import (
    CrawlConfig,
    CrawlSession,
    PageSource,
    StepRecord,
    SubtreeState,
    VerdictFate,
)

from .truth import url_key

__all__ = ["CrawlCurve", "curve_from_keys", "run_crawl"]

TARGETS = (0.5, 0.9, 1.0)


@dataclass(slots=True)
class CrawlCurve:
    """Recall after each fetch of one crawler, plus where its adaptive stop fell."""

    name: str
    recall: list[float] = field(default_factory=list)  # recall after fetch i + 1
    found: list[int] = field(default_factory=list)
    truth_size: int = 0
    stop_reason: str | None = None
    stop_step: int | None = None
    end_reason: str | None = None
    counterfactual: dict[str, int] = field(default_factory=dict)  # rule → first step it stood
    dry_at_stop: list[str] = field(default_factory=list)
    dry_at_end: list[str] = field(default_factory=list)
    became_dry: dict[str, int] = field(default_factory=dict)  # subtree → first step it was dry
    seconds: float = 0.0
    unreachable: int = 0

    @property
    def pages(self) -> int:
        return len(self.recall)

    def pages_to(self, target: float) -> int | None:
        """Fetches needed to reach ``target`` recall (None if never reached)."""
        for index, value in enumerate(self.recall):
            if value >= target - 1e-12:
                return index + 1
        return None

    def recall_at(self, step: int | None) -> float | None:
        if step is None or not self.recall:
            return None
        return self.recall[min(step, len(self.recall)) - 1]

    def harvest_at(self, step: int | None) -> float | None:
        """Relevant pages found per page fetched, up to ``step``."""
        if step is None or not self.found:
            return None
        index = min(step, len(self.found)) - 1
        return self.found[index] / (index + 1)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "pages": self.pages,
            "truth_size": self.truth_size,
            "pages_to": {f"{t:.0%}": self.pages_to(t) for t in TARGETS},
            "adaptive_stop": {
                "reason": self.stop_reason,
                "pages": self.stop_step,
                "recall": self.recall_at(self.stop_step),
                "harvest_rate": self.harvest_at(self.stop_step),
            },
            "final_recall": self.recall[-1] if self.recall else 0.0,
            "end_reason": self.end_reason,
            "counterfactual_stops": {
                rule: {"step": step, "recall": self.recall_at(step)}
                for rule, step in sorted(self.counterfactual.items())
            },
            "dry_at_stop": self.dry_at_stop,
            "dry_at_end": self.dry_at_end,
            "became_dry": dict(sorted(self.became_dry.items(), key=lambda kv: kv[1])),
            "unreachable_relevant": self.unreachable,
            "seconds": round(self.seconds, 2),
            "recall": [round(r, 4) for r in self.recall],
        }


def curve_from_keys(name: str, fetched: list[str], truth: frozenset[str]) -> CrawlCurve:
    """A curve for a given fetch order (the oracle's)."""
    curve = CrawlCurve(name, truth_size=len(truth))
    found: set[str] = set()
    for key in fetched:
        if key in truth:
            found.add(key)
        curve.found.append(len(found))
        curve.recall.append(len(found) / len(truth) if truth else 0.0)
    return curve


def _record_keys(record: StepRecord) -> set[str]:
    keys = set()
    for url in (record.url, record.final_url):
        try:
            keys.add(url_key(url))
        except ValueError:
            continue
    return keys


def run_crawl(
    name: str, config: CrawlConfig, truth: frozenset[str], source: PageSource
) -> CrawlCurve:
    """Crawl to the limit with every verdict recorded (``stop_on_verdict`` must be False), so
    the curve goes on past the adaptive stop and the counterfactual stops can be read off."""
    if config.stop_on_verdict:
        raise ValueError("benchmark crawls record verdicts and go on: stop_on_verdict=False")
    curve = CrawlCurve(name, truth_size=len(truth))
    found: set[str] = set()
    started = time.perf_counter()
    with CrawlSession(config, source) as session:
        for record in session.iter_steps():
            found |= _record_keys(record) & truth
            curve.found.append(len(found))
            curve.recall.append(len(found) / len(truth) if truth else 0.0)
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
        for verdict in session.verdicts:
            if verdict.fate is not VerdictFate.AUTO_FORGIVEN:  # that one is not a stop
                curve.counterfactual.setdefault(verdict.reason.value, verdict.step)
    return curve


def _dry_parts(session: CrawlSession) -> list[str]:
    return [row.part for row in session.wilson_table() if row.state is SubtreeState.DRY]
