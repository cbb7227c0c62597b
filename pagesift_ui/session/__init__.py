"""The crawl layer's driver: configuration, the step-wise ``CrawlSession``, its records and
the sinks it tells."""

from __future__ import annotations

from pagesift_ui.errors import SessionBroken, SessionDone
from pagesift_ui.session.config import CrawlConfig, Scope
from pagesift_ui.session.crawl import FORGIVABLE, CrawlSession, PageSource
from pagesift_ui.session.enqueue import Skip, SkipReason, copy_skips
from pagesift_ui.session.protocol import LiveSession, ReadableSession
from pagesift_ui.session.record import (
    FrontierRow,
    Override,
    OverrideKind,
    PageRow,
    PartStats,
    StepOutcome,
    StepRecord,
    SubtreeState,
    Verdict,
    VerdictFate,
    WilsonRow,
)
from pagesift_ui.session.sinks import SessionEnd, StepSink

__all__ = [
    "FORGIVABLE",
    "CrawlConfig",
    "CrawlSession",
    "FrontierRow",
    "LiveSession",
    "Override",
    "OverrideKind",
    "PageRow",
    "PageSource",
    "PartStats",
    "ReadableSession",
    "Scope",
    "SessionBroken",
    "SessionDone",
    "SessionEnd",
    "Skip",
    "SkipReason",
    "StepOutcome",
    "StepRecord",
    "StepSink",
    "SubtreeState",
    "Verdict",
    "VerdictFate",
    "WilsonRow",
    "copy_skips",
]
