"""What a reader of a session may rely on, live or imported.

``ReadableSession`` is satisfied by a live ``CrawlSession`` and by a ``SessionView`` rebuilt
from a bundle, so the UI, the exports and the sinks read either the same way.
``LiveSession`` adds the core state only a live session has; the view functions of
``session/views.py`` that need the queue or the counters take it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.session.config import CrawlConfig
from pagesift_ui.session.record import (
    FrontierRow,
    Override,
    PageRow,
    PartStats,
    StepRecord,
    Verdict,
)
from pagesift_ui.session.state import FrontierState

__all__ = ["LiveSession", "ReadableSession"]


class ReadableSession(Protocol):
    """A session to read: its settings, records, overrides, labels, where it stopped, and
    its tables. Nothing here changes it.

    ``done`` is True once it has stopped (an imported view always is); ``stop_reason`` is why
    it is stopped now (None while it can go on); ``stop_step`` and ``first_verdict`` are the
    first verdict that stood (also with ``stop_on_verdict=False``) and its step.
    """

    @property
    def config(self) -> CrawlConfig: ...

    @property
    def steps(self) -> Sequence[StepRecord]: ...

    @property
    def overrides(self) -> Sequence[Override]: ...

    @property
    def labels(self) -> Mapping[str, bool]: ...

    @property
    def done(self) -> bool: ...

    @property
    def stop_reason(self) -> StopReason | None: ...

    @property
    def stop_step(self) -> int | None: ...

    @property
    def first_verdict(self) -> StopReason | None: ...

    def summary(self) -> dict[str, Any]:
        """The headline numbers (``docs/SESSION_FORMAT.md``, ``final.summary``)."""
        ...

    def pages(self) -> list[PageRow]:
        """One row per step, for the pages table and CSV."""
        ...

    def frontier(self, n: int = 20) -> list[FrontierRow]:
        """The best ``n`` queued links in pop order (a view: as exported)."""
        ...

    def wilson_table(self) -> list[PartStats]:
        """Every subtree seen, most pages first, with its interval against the rest."""
        ...


class LiveSession(ReadableSession, Protocol):
    """A session being crawled: its core state and counters as well."""

    @property
    def state(self) -> FrontierState: ...

    @property
    def pages_scheduled(self) -> int: ...

    @property
    def pages_fetched(self) -> int: ...

    @property
    def relevant_pages(self) -> int: ...

    @property
    def verdicts(self) -> Sequence[Verdict]: ...

    @property
    def interruption(self) -> str:
        """Why a step broke off half-way ("" if none did): the counters then hold part of a
        step no record has."""
        ...
