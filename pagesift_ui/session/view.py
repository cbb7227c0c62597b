"""A read-only session rebuilt from a bundle: the app shows it like a live one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.session.config import CrawlConfig
from pagesift_ui.session.record import FrontierRow, Override, PageRow, PartStats, StepRecord
from pagesift_ui.session.views import page_rows, replayed_wilson_table

__all__ = ["SessionView"]


class SessionView:
    """An imported session: config, steps, overrides and the final state, read-only.

    It is a ``ReadableSession`` like a live ``CrawlSession`` (``steps``, ``summary()``,
    ``pages()``, ``wilson_table()``, ``frontier()``); ``done`` is always True and there is
    nothing to step.
    """

    read_only = True
    done = True

    def __init__(
        self,
        config: CrawlConfig,
        steps: list[StepRecord],
        overrides: list[Override],
        labels: Mapping[str, bool],
        final: Mapping[str, Any],
        meta: Mapping[str, Any],
    ) -> None:
        self.config = config
        self.steps = steps
        self.overrides = overrides
        self.labels = dict(labels)
        self.final = dict(final)
        self.meta = dict(meta)
        reason = final.get("stop_reason")
        self.stop_reason = StopReason(reason) if reason else None
        first = final.get("first_verdict")
        self.first_verdict = StopReason(first) if first else None
        self.stop_step: int | None = final.get("stop_step")

    @property
    def terms(self) -> list[str]:
        return list(self.steps[-1].terms) if self.steps else []

    def summary(self) -> dict[str, Any]:
        return dict(self.final.get("summary", {}))

    def pages(self) -> list[PageRow]:
        return page_rows(self)

    def frontier(self, n: int = 20) -> list[FrontierRow]:
        rows = [FrontierRow(**row) for row in self.final.get("frontier", [])]
        return rows[:n]

    def wilson_table(self) -> list[PartStats]:
        """Rebuilt from the steps exactly as the live harvest was fed."""
        return replayed_wilson_table(self)
