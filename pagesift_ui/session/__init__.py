"""The crawl layer's driver: configuration, the step-wise ``CrawlSession`` and its records."""

from __future__ import annotations

from pagesift_ui.session.config import CrawlConfig, Scope
from pagesift_ui.session.crawl import CrawlSession, PageSource, SessionDone
from pagesift_ui.session.record import (
    FrontierRow,
    Override,
    OverrideKind,
    PageRow,
    PartStats,
    StepOutcome,
    StepRecord,
    VerdictFate,
    WilsonRow,
)

__all__ = [
    "CrawlConfig",
    "CrawlSession",
    "FrontierRow",
    "Override",
    "OverrideKind",
    "PageRow",
    "PageSource",
    "PartStats",
    "Scope",
    "SessionDone",
    "StepOutcome",
    "StepRecord",
    "VerdictFate",
    "WilsonRow",
]
