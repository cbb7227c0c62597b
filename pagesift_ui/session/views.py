"""Read-only views of a session for tables, charts and exports."""

from __future__ import annotations

from typing import Any

from pagesift_ui.frontier.adaptive import EVIDENCE_RELEVANCE
from pagesift_ui.frontier.harvest import subtree
from pagesift_ui.frontier.queue import cluster_key
from pagesift_ui.session.base import SessionBase
from pagesift_ui.session.record import FrontierRow, PageRow, PartStats, StepOutcome
from pagesift_ui.session.state import signal_of, wilson_rows

__all__ = ["ViewsMixin", "page_rows"]


def page_rows(steps: list[Any], labels: dict[str, bool]) -> list[PageRow]:
    """One row per step that reached a page (errors included, flagged by ``outcome``)."""
    rows = []
    for r in steps:
        label = labels.get(r.final_url)
        relevant = label if label is not None else (
            r.relevance is not None and r.relevance >= EVIDENCE_RELEVANCE
        )
        rows.append(
            PageRow(
                step=r.step, url=r.final_url, title=r.title, outcome=str(r.outcome),
                status=r.status, relevance=r.relevance, relevant=bool(relevant),
                user_label=label, fresh=r.fresh, evidence_added=sum(r.evidence_added),
                subtree=r.subtree, depth=r.depth, score=r.score, blind=r.blind,
                verdict=r.verdict or "",
            )
        )
    return rows


class ViewsMixin(SessionBase):
    """Tables of ``CrawlSession``: Wilson table, frontier, pages, summary."""

    def wilson_table(self) -> list[PartStats]:
        """Every subtree seen so far with its interval against the rest, most pages first."""
        return wilson_rows(self.state.subtrees, self.state.forced)

    def frontier(self, n: int = 20) -> list[FrontierRow]:
        """The best ``n`` queued links in pop order, with their score explanations."""
        state, seed_host = self.state, self.config.seed_host
        demoted = state.demoted_templates()
        rows = []
        for rank, entry in enumerate(state.queue.top(n, demoted), start=1):
            signal = signal_of(entry)
            rows.append(
                FrontierRow(
                    rank=rank, key=entry.key, url=entry.url, score=entry.score,
                    depth=entry.depth, cluster=cluster_key(entry.url),
                    subtree=subtree(seed_host, entry.url),
                    blind=bool(signal is not None and signal.blind),
                    furniture=bool(signal is not None and signal.furniture),
                    pinned=entry.pinned, demoted=entry.template in demoted,
                    anchor=signal.anchor if signal is not None else "(seed)",
                    explanation=state.focus.explain(signal).to_dict() if signal else None,
                )
            )
        return rows

    def pages(self) -> list[PageRow]:
        return page_rows(self.steps, self.labels)

    def current_relevance(self, url: str) -> dict[str, Any] | None:
        """A fetched page's relevance recomputed under the site statistics as they are now."""
        signal = self._page_signals.get(url)
        if signal is None:
            return None
        return self.state.focus.explain_relevance(signal).to_dict()

    def summary(self) -> dict[str, Any]:
        adaptive = self.state.adaptive
        fetched = [r for r in self.steps if r.outcome is StepOutcome.FETCHED]
        return {
            "steps": len(self.steps),
            "pages_fetched": self.pages_fetched,
            "pages_scheduled": self.pages_scheduled,
            "relevant_pages": self.relevant_pages,
            "harvest_rate": (sum(r.fresh for r in fetched) / len(fetched)) if fetched else 0.0,
            "coverage": adaptive.coverage(),
            "covered": adaptive.covered(),
            "evidence": dict(zip(self.state.query.terms, adaptive.evidence, strict=True)),
            "queue_length": len(self.state.queue),
            "stop_reason": self.stop_reason.value if self.stop_reason else None,
            "first_verdict": self.first_verdict.value if self.first_verdict else None,
            "stop_step": self.stop_step,
            "verdicts": [list(v) for v in self.verdicts],
            "done": self.done,
        }
