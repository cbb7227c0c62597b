"""Crawls that last: a session saved step by step by its ``StoreSink``, and rebuilt exactly
to be continued.

Resume = rebuild, then go live. The rebuild re-runs the saved steps against the saved
page-source answers (offline), re-applying each saved event right after the step count it
was recorded at; a crawl is a pure function of those, so it arrives at the very state the
crawl had after its last saved step. Each rebuilt step is checked against its saved record.
Only then are the sinks attached and the live source put in.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable

from pagesift_ui.errors import ReplayDiverged
from pagesift_ui.session import CrawlConfig, CrawlSession, PageSource, StepSink
from pagesift_ui.session.crawl import default_source
from pagesift_ui.store.claims import Claim, ClaimMode
from pagesift_ui.store.db import SessionStore, StoredSession
from pagesift_ui.store.recording import ReplaySource
from pagesift_ui.store.replay import check_rebuilt, drive
from pagesift_ui.store.sinks import StoreSink

__all__ = ["rebuild", "resume", "start_session"]

logger = logging.getLogger(__name__)

Clock = Callable[[], float]


def start_session(
    store: SessionStore,
    config: CrawlConfig,
    *,
    source: PageSource | None = None,
    title: str = "",
    clock: Clock = time.perf_counter,
    sinks: Iterable[StepSink] = (),
    claim: ClaimMode = ClaimMode.HOLD,
) -> CrawlSession:
    """A new session saved in ``store`` as it goes: a ``CrawlSession`` with a ``StoreSink``
    (``session.find_sink(StoreSink)``) first, then ``sinks``. ``source`` defaults to the
    live fetcher for ``config``. ``claim``: what the session does about its claim
    (``claims.py``)."""
    session_id = store.create(config, title=title)
    saving = StoreSink(store, session_id, claim=claim)
    live = source if source is not None else default_source(config)
    session = CrawlSession(config, saving.record(live), clock=clock, sinks=(saving, *sinks))
    logger.info("session %s saved to %s", session_id, store.path)
    return session


def rebuild(saved: StoredSession, *, clock: Clock = time.perf_counter) -> CrawlSession:
    """The session as it was after its last saved step, rebuilt offline, with no sinks.

    Its source is a ``ReplaySource`` over the saved answers and its ``steps`` are the saved
    records (with their own ``elapsed_ms``). Raises ``ReplayDiverged`` if a rebuilt step
    differs from its record (this version crawls differently from the recording one).
    """
    session = CrawlSession(saved.config, ReplaySource(saved.responses), clock=clock)
    try:
        drive(session, saved.events, steps=len(saved.steps), strict=True)
    except ReplayDiverged:
        check_rebuilt(saved.steps[: len(session.steps)], session.steps)  # says more, if any
        raise
    check_rebuilt(saved.steps, session.steps)  # also catches a crawl that ended too early
    session.steps[:] = saved.steps
    return session


def resume(
    store: SessionStore,
    session_id: str,
    *,
    source: PageSource | None = None,
    clock: Clock = time.perf_counter,
    sinks: Iterable[StepSink] = (),
    claim: ClaimMode = ClaimMode.HOLD,
) -> CrawlSession:
    """Rebuild a saved session, then continue it with ``source`` (default: the live
    fetcher), saved by a ``StoreSink`` like the one that started it, then ``sinks``.

    Raises ``SessionNotFound``, ``ReplayDiverged`` or ``StoreError`` (``SessionBusy`` while
    another crawl holds the session's claim, unless ``claim`` is ``ClaimMode.NONE``: an
    export reads it). A session that had stopped is rebuilt stopped: ``forgive()`` it (or
    ``keep_open`` …) to go on.
    """
    if claim is not ClaimMode.NONE:  # before the rebuild: refused at once, not after it
        Claim(store.path, session_id).check()
    saved = store.load(session_id)
    session = rebuild(saved, clock=clock)
    saving = StoreSink(store, session_id, events=saved.events, claim=claim)
    live = source if source is not None else default_source(saved.config)
    session.set_source(saving.record(live)).close()
    for sink in (saving, *sinks):
        session.add_sink(sink)
    logger.info("session %s rebuilt at step %d", session_id, len(session.steps))
    return session
