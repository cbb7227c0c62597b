"""A running session's readable state, copied in a moment while Run's worker is parked.

The Run fragment draws the live panel from a copy instead of the session itself, so the
worker thread (``components.stepper``) steps on while the charts are built and sent: the
worker is parked only for the copy (~2 ms at 1,000 steps), not for the whole draw
(~0.1-0.3 s; docs/DESIGN.md §14.3). No Streamlit here.

The copy is cheap because a session's records, overrides and config are frozen values: it
keeps the same objects in new tuples. The tables are computed at the copy (``summary``,
``wilson_table``, the first ``FRONTIER_ROWS`` queued links) or from the copied records as an
imported view computes them (``pages``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.session import CrawlSession
from pagesift_ui.session.config import CrawlConfig
from pagesift_ui.session.record import FrontierRow, Override, PageRow, PartStats, StepRecord
from pagesift_ui.session.views import page_rows

__all__ = ["FRONTIER_ROWS", "SessionSnapshot"]

#: Queued links kept in a copy: as many as the app's frontier table shows
FRONTIER_ROWS = 25


class SessionSnapshot:
    """A ``ReadableSession`` as the live session was when this was made; nothing steps it."""

    read_only = True

    def __init__(self, session: CrawlSession) -> None:
        """Copy ``session``; the caller makes sure no other thread steps it meanwhile."""
        self.config: CrawlConfig = session.config
        self.steps: Sequence[StepRecord] = tuple(session.steps)
        self.overrides: Sequence[Override] = tuple(session.overrides)
        self.labels: Mapping[str, bool] = dict(session.labels)
        self.done: bool = session.done
        self.stop_reason: StopReason | None = session.stop_reason
        self.stop_step: int | None = session.stop_step
        self.first_verdict: StopReason | None = session.first_verdict
        self._summary = session.summary()
        self._wilson = tuple(session.wilson_table())
        self._frontier = tuple(session.frontier(FRONTIER_ROWS))

    def summary(self) -> dict[str, Any]:
        return dict(self._summary)

    def pages(self) -> list[PageRow]:
        return page_rows(self)

    def frontier(self, n: int = 20) -> list[FrontierRow]:
        """The best ``n`` queued links at the copy (at most ``FRONTIER_ROWS``)."""
        return list(self._frontier[:n])

    def wilson_table(self) -> list[PartStats]:
        return list(self._wilson)
