"""What every part of ``CrawlSession`` may rely on: its declared state, for the type checker.

``CrawlSession`` is assembled from a driving class and two mixins (overrides, views), one
concern per module; this base declares the attributes and hooks they share.
"""

from __future__ import annotations

from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.frontier.links import LinkSignal
from pagesift_ui.frontier.relevance import PageSignal
from pagesift_ui.session.config import CrawlConfig
from pagesift_ui.session.record import Override, StepRecord
from pagesift_ui.session.state import FrontierState

__all__ = ["SessionBase"]


class SessionBase:
    """Declared state of a crawl session (set in ``CrawlSession.__init__``)."""

    config: CrawlConfig
    state: FrontierState
    steps: list[StepRecord]
    done: bool
    stop_reason: StopReason | None
    stop_step: int | None
    first_verdict: StopReason | None
    verdicts: list[tuple[int, str, str]]
    pages_scheduled: int
    pages_fetched: int
    overrides: list[Override]
    labels: dict[str, bool]
    _page_signals: dict[str, PageSignal]
    _link_signals: dict[str, LinkSignal]
    _relevant_urls: set[str]

    def _end(self, reason: StopReason, step: int) -> None:
        raise NotImplementedError

    def _has_fetchable(self) -> bool:
        raise NotImplementedError

    @property
    def relevant_pages(self) -> int:
        """Pages at or above EVIDENCE_RELEVANCE, after the user's labels."""
        labelled = {url for url, label in self.labels.items() if label}
        unlabelled = {url for url, label in self.labels.items() if not label}
        return len((self._relevant_urls - unlabelled) | labelled)
