"""Sinks that keep what a crawl needs to be rebuilt: its page-source answers and its events.

A crawl is a pure function of its config, the answers of its page source in order, and its
events at their step counts (docs/DESIGN.md §13). Each sink here hands out a
``RecordingSource`` for the session's page source (``record(source)``): the answers of the
step in flight wait in its ``StepAnswers`` until ``on_step`` takes them with the step's
record, so the answers of a step interrupted half-way are never kept. Any other sink that
needs the answers (the WARC export) uses ``StepAnswers`` the same way.

- ``StoreSink`` saves every step with its answers, every override, every empty-queue call
  and the status to a ``SessionStore`` at once (one transaction each).
- ``RecordingSink`` keeps the same in memory: an unsaved crawl, a replay that is recorded.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from pagesift_ui.session import (
    Override,
    PageSource,
    ReadableSession,
    SessionEnd,
    StepRecord,
)
from pagesift_ui.store.claims import Claim, ClaimMode
from pagesift_ui.store.db import SessionStatus, SessionStore
from pagesift_ui.store.recording import Recorded, RecordingSource
from pagesift_ui.store.replay import SessionEvent

__all__ = ["RecordingSink", "StepAnswers", "StoreSink"]

logger = logging.getLogger(__name__)


class StepAnswers:
    """The page-source answers of the step in flight, until the sink's ``on_step`` takes them.

    ``record(source)`` puts ``source`` behind a ``RecordingSource`` whose answers land here.
    Several sinks may each record the same session: their recorders wrap one another, and
    each is given every answer.
    """

    def __init__(self) -> None:
        self._pending: list[Recorded] = []

    def record(
        self, source: PageSource, on_close: Callable[[], None] | None = None
    ) -> RecordingSource:
        """``source`` behind a recorder whose answers wait here (``on_close``: called when
        the session closes the recorder)."""
        return RecordingSource(source, self._pending.append, on_close)

    def take(self) -> list[Recorded]:
        """The answers given since the last ``take``, in order; they are forgotten here."""
        answers = list(self._pending)
        self._pending.clear()  # in place: the recorders append to this very list
        return answers


class StoreSink:
    """Saves a session to ``store`` as session ``session_id``, as it happens.

    ``events`` are those saved before (a resumed session's). A failed save raises
    ``StoreError`` from the session's ``step()`` or override call, and the session refuses
    further steps (``SessionBroken``): the store keeps every step up to the last one saved,
    and resume goes on from there. The sink never closes ``store``.
    """

    def __init__(
        self, store: SessionStore, session_id: str, *, events: tuple[SessionEvent, ...] = (),
        claim: ClaimMode = ClaimMode.HOLD,
    ) -> None:
        self.store = store
        self.session_id = session_id
        self._events = list(events)
        self._answers = StepAnswers()
        # held while the crawl can go on (claims.py): taken here, so a second crawl of the
        # session is refused before it fetches anything; given up when the crawl stops or
        # the session is closed, and taken again if it is continued
        self._claim = Claim(store.path, session_id)
        self._holds = claim is ClaimMode.HOLD
        if self._holds:
            self._claim.take()
        elif claim is ClaimMode.CHECK:
            self._claim.check()

    def record(self, source: PageSource) -> RecordingSource:
        """``source`` behind a recorder whose answers this sink saves with each step; the
        session closing it gives up the claim on the session (a closed session crawls no
        more)."""
        return self._answers.record(source, self._claim.release)

    @property
    def events(self) -> tuple[SessionEvent, ...]:
        """Every saved event of the session, in order."""
        return tuple(self._events)

    def recorded(self) -> tuple[Recorded, ...]:
        """Every saved page-source answer of the session (bodies included), in order: read
        from the store on each call (a crawl's bodies are not kept in memory), so call it
        only when they are needed, as the export does."""
        return self.store.responses(self.session_id)

    def on_step(self, session: ReadableSession, record: StepRecord) -> None:
        self._save(session, record=record, responses=self._answers.take())

    def on_override(self, session: ReadableSession, override: Override) -> None:
        self._save(session, events=[SessionEvent(override.step, override)])

    def on_end(self, session: ReadableSession, end: SessionEnd) -> None:
        # a step or an override that ended the crawl saved the status with itself
        if end.queue_empty:
            self._save(session, events=[SessionEvent(end.step)])
        self._claim.release()

    def _save(
        self,
        session: ReadableSession,
        *,
        events: list[SessionEvent] | None = None,
        record: StepRecord | None = None,
        responses: list[Recorded] | None = None,
    ) -> None:
        if self._holds and not session.done:
            self._claim.take()  # a stopped crawl continued (Continue anyway, a label)
        status = SessionStatus.DONE if session.done else SessionStatus.OPEN
        reason = session.stop_reason.value if session.stop_reason is not None else None
        self.store.save(
            self.session_id, status=status, stop_reason=reason, events=events or (),
            record=record, responses=responses or (),
        )
        self._events.extend(events or ())


class RecordingSink:
    """Keeps a session's page-source answers and events in memory, in order.

    ``answers`` holds the answers of every completed step (not of a step in flight);
    ``events`` the overrides and empty-queue calls, as a store would save them.
    """

    def __init__(self) -> None:
        self.answers: list[Recorded] = []
        self.events: list[SessionEvent] = []
        self._answers = StepAnswers()

    def record(self, source: PageSource) -> RecordingSource:
        """``source`` behind a recorder whose answers this sink keeps with each step."""
        return self._answers.record(source)

    def on_step(self, session: ReadableSession, record: StepRecord) -> None:
        self.answers.extend(self._answers.take())

    def on_override(self, session: ReadableSession, override: Override) -> None:
        self.events.append(SessionEvent(override.step, override))

    def on_end(self, session: ReadableSession, end: SessionEnd) -> None:
        if end.queue_empty:
            self.events.append(SessionEvent(end.step))
