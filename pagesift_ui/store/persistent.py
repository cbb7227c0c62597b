"""Crawls that last: a session saved step by step, and rebuilt exactly to be continued.

Resume = rebuild, then go live. The rebuild re-runs the saved steps against the saved
page-source answers (offline), re-applying each saved event right after the step count it
was recorded at; a crawl is a pure function of those, so it arrives at the very state the
crawl had after its last saved step. Each rebuilt step is checked against its saved record.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from types import TracebackType

from pagesift_ui.session import CrawlConfig, CrawlSession, PageSource, SessionDone, StepRecord
from pagesift_ui.session.crawl import default_source
from pagesift_ui.store.db import SessionStatus, SessionStore, StoredSession
from pagesift_ui.store.errors import ReplayDiverged, StoreError
from pagesift_ui.store.recording import Recorded, RecordingSource, ReplaySource
from pagesift_ui.store.replay import SessionEvent, check_rebuilt, drive

__all__ = ["PersistentSession", "rebuild", "resume", "start_session"]

logger = logging.getLogger(__name__)

Clock = Callable[[], float]


class PersistentSession:
    """A ``CrawlSession`` (``session``) whose steps and events are saved as they happen.

    Drive it with ``step()``, ``run()`` or ``iter_steps()``, never ``session.step()``, which
    would not be saved. Make overrides on ``session`` (``forgive``, ``pin``, …) and call
    ``sync()`` to save them at once; the next ``step()`` saves any unsaved ones anyway, in
    order. Build it with ``start_session`` or ``resume``.

    If a save fails (``StoreError`` for a database failure: disk full, I/O error) or a step
    is interrupted half-way, the session refuses to go on (``StoreError``): the store keeps
    every step up to the last one saved, and ``resume`` continues from there.
    """

    def __init__(
        self,
        store: SessionStore,
        session_id: str,
        session: CrawlSession,
        pending: list[Recorded],
        *,
        events: tuple[SessionEvent, ...] = (),
    ) -> None:
        self.store = store
        self.session_id = session_id
        self.session = session
        self._pending = pending  # answers of the step in flight (the recorder's sink)
        self._events = list(events)
        self._saved_overrides = sum(e.override is not None for e in events)
        self._broken = ""  # why the session may not go on (it no longer matches the store)

    @property
    def events(self) -> tuple[SessionEvent, ...]:
        """Every saved event of the session, in order."""
        return tuple(self._events)

    def step(self) -> StepRecord:
        """One step, saved with its page-source answers before it is returned.

        Raises ``SessionDone`` when the crawl has stopped, ``StoreError`` if saving failed.
        A step interrupted half-way (Ctrl-C, a Streamlit rerun) leaves the in-memory session
        unlike any saved state, so the session refuses further steps: resume it.
        """
        self._check_usable()
        self._pending.clear()
        was_done = self.session.done
        try:
            record = self.session.step()
        except SessionDone:
            if not was_done and self.session.done:  # the call itself found the queue empty
                self._save(queue_empty=True)
            raise
        except BaseException as exc:
            self._broken = f"step {len(self.session.steps) + 1} was interrupted ({exc!r})"
            raise
        self._save(record=record)
        return record

    def run(self, max_steps: int | None = None) -> list[StepRecord]:
        """Step until the crawl stops, or ``max_steps`` records."""
        records: list[StepRecord] = []
        while not self.session.done and (max_steps is None or len(records) < max_steps):
            try:
                records.append(self.step())
            except SessionDone:
                break
        return records

    def iter_steps(self) -> Iterator[StepRecord]:
        while not self.session.done:
            try:
                yield self.step()
            except SessionDone:
                return

    def sync(self) -> None:
        """Save the overrides made on ``session`` since the last save, and its status."""
        self._check_usable()
        self._save()

    def recorded(self) -> tuple[Recorded, ...]:
        """Every saved page-source answer of the session (bodies included), in order."""
        return self.store.load(self.session_id).responses

    def close(self) -> None:
        """Release the page source. Saves nothing: unsaved overrides stay unsaved."""
        self.session.close()

    def __enter__(self) -> PersistentSession:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _check_usable(self) -> None:
        if self._broken:
            raise StoreError(
                f"session {self.session_id} cannot go on: {self._broken}. Every step saved "
                "before is intact: resume the session to continue"
            )

    def _save(self, *, record: StepRecord | None = None, queue_empty: bool = False) -> None:
        session = self.session
        new = [SessionEvent(o.step, o) for o in session.overrides[self._saved_overrides:]]
        if queue_empty:
            new.append(SessionEvent(len(session.steps)))
        status = SessionStatus.DONE if session.done else SessionStatus.OPEN
        reason = session.stop_reason.value if session.stop_reason is not None else None
        try:
            self.store.save(
                self.session_id, status=status, stop_reason=reason, events=new,
                record=record, responses=list(self._pending) if record is not None else (),
            )
        except BaseException as exc:  # noted to refuse further steps, then re-raised
            self._broken = f"saving failed ({exc})"
            raise
        self._pending.clear()
        self._saved_overrides = len(session.overrides)
        self._events.extend(new)


def start_session(
    store: SessionStore,
    config: CrawlConfig,
    *,
    source: PageSource | None = None,
    title: str = "",
    clock: Clock = time.perf_counter,
) -> PersistentSession:
    """A new saved session; ``source`` defaults to the live fetcher for ``config``."""
    session_id = store.create(config, title=title)
    pending: list[Recorded] = []
    live = source if source is not None else default_source(config)
    session = CrawlSession(config, RecordingSource(live, pending.append), clock=clock)
    logger.info("session %s saved to %s", session_id, store.path)
    return PersistentSession(store, session_id, session, pending)


def rebuild(saved: StoredSession, *, clock: Clock = time.perf_counter) -> CrawlSession:
    """The session as it was after its last saved step, rebuilt offline.

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
) -> PersistentSession:
    """Rebuild a saved session and continue it with ``source`` (default: the live fetcher).

    Raises ``SessionNotFound``, ``ReplayDiverged`` or ``StoreError``. A session that had
    stopped is rebuilt stopped: ``forgive()`` it (or ``keep_open`` …) to go on.
    """
    saved = store.load(session_id)
    session = rebuild(saved, clock=clock)
    pending: list[Recorded] = []
    live = source if source is not None else default_source(saved.config)
    session.set_source(RecordingSource(live, pending.append)).close()
    logger.info("session %s rebuilt at step %d", session_id, len(session.steps))
    return PersistentSession(store, session_id, session, pending, events=saved.events)
