"""``WarcSink``: a crawl written to a WARC file as it goes (the layout of ``writer.py``).

The file is opened and its header written when the sink is made; each step's records are
written and flushed when the step completes, each override when it is made, the session
record when the crawl ends and when the sink is closed. Every record is a gzip member of its
own, so a crawl killed mid-way leaves a WARC that reads (and replays) up to the last whole
record.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from pathlib import Path

from pagesift_ui.session import (
    CrawlConfig,
    CrawlSession,
    Override,
    PageSource,
    ReadableSession,
    SessionEnd,
    StepRecord,
)
from pagesift_ui.store.recording import Recorded, RecordedFetch, RecordingSource
from pagesift_ui.store.replay import SessionEvent
from pagesift_ui.store.sinks import StepAnswers
from pagesift_ui.warc.writer import WarcLog, write_recorded

__all__ = ["WarcSink"]

logger = logging.getLogger(__name__)


class WarcSink:
    """Writes a session to ``path`` as it is crawled: the same records ``write_warc`` writes
    for the finished session.

    The sink needs the page-source answers: put the session's source behind ``record()``
    (``attach`` does that and adds the sink). ``answers`` and ``events`` are what happened
    before the sink was attached (a resumed session's saved steps); they are written first.
    A write that fails raises from the session's call (which then refuses further steps,
    ``SessionBroken``) and leaves the file as it was up to the last whole record; nothing
    more is written to it. Close the sink when the crawl is over (or use it as a context
    manager): that writes the final session record if anything came after the last one.
    """

    def __init__(
        self,
        path: Path,
        config: CrawlConfig,
        *,
        session_id: str = "",
        answers: Iterable[Recorded] = (),
        events: Iterable[SessionEvent] = (),
    ) -> None:
        self.path = path
        self._answers = StepAnswers()
        self._torn = False  # a write broke off: the file ends in a partial record
        self._closed = False
        self._file = path.open("wb")
        try:
            self._log = WarcLog(self._file, path.name, config, session_id=session_id)
            write_recorded(self._log, answers, events)
            self._file.flush()
        except BaseException:
            self._file.close()
            raise

    @classmethod
    def attach(
        cls,
        session: CrawlSession,
        path: Path,
        *,
        session_id: str = "",
        answers: Iterable[Recorded] = (),
        events: Iterable[SessionEvent] = (),
    ) -> WarcSink:
        """A sink writing ``session`` to ``path`` from now on, its source recorded and the
        sink added. A session that has steps already needs their ``answers`` (and
        ``events``): the WARC holds the whole crawl. Raises ValueError if the answers are
        not those of ``session.steps``.
        """
        before = tuple(answers)
        fetches = sum(isinstance(answer, RecordedFetch) for answer in before)
        if fetches != len(session.steps):
            raise ValueError(
                f"the session has {len(session.steps)} steps but {fetches} recorded fetches "
                "were given: a WARC of it needs every step's answers"
            )
        sink = cls(path, session.config, session_id=session_id, answers=before, events=events)
        # The source behind the recorder stays in use, so the previous one is not closed.
        session.set_source(sink.record(session.source))
        session.add_sink(sink)
        return sink

    @property
    def pages(self) -> int:
        """How many pages (response records) the file holds so far."""
        return self._log.pages

    def record(self, source: PageSource) -> RecordingSource:
        """``source`` behind a recorder whose answers this sink writes with each step."""
        return self._answers.record(source)

    def on_step(self, session: ReadableSession, record: StepRecord) -> None:
        answers = self._answers.take()
        self._write(lambda: self._log.write_step(answers))

    def on_override(self, session: ReadableSession, override: Override) -> None:
        self._write(lambda: self._log.write_event(SessionEvent(override.step, override)))

    def on_end(self, session: ReadableSession, end: SessionEnd) -> None:
        def write() -> None:
            if end.queue_empty:
                self._log.write_event(SessionEvent(end.step))
            self._log.write_session()

        self._write(write)

    def close(self) -> None:
        """Write the final session record (if anything came after the last one) and close
        the file. Closing again does nothing."""
        if self._closed:
            return
        try:
            self._write(self._log.write_session)
        finally:
            self._closed = True
            self._file.close()
        logger.info("wrote %s: %d pages", self.path, self.pages)

    def __enter__(self) -> WarcSink:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _write(self, write: Callable[[], None]) -> None:
        if self._torn:
            return  # the file ends in a partial record: appending would bury it mid-file
        if self._closed:
            raise ValueError(f"the WARC sink of {self.path} was closed")
        try:
            write()
            self._file.flush()
        except BaseException:
            self._torn = True
            raise
