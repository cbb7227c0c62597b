"""Observers of a crawl: what a ``CrawlSession`` tells the sinks registered with it.

A sink listens; it never steps the session or wraps it. The session store, the in-memory
recording of an unsaved crawl, the WARC export and the CLI's progress bar are sinks
(docs/DESIGN.md §12.4).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.session.protocol import ReadableSession
from pagesift_ui.session.record import Override, StepRecord

__all__ = ["SessionEnd", "SinkList", "StepSink"]

_Sink = TypeVar("_Sink")


@dataclass(frozen=True, slots=True)
class SessionEnd:
    """The crawl stopped: ``reason``, after ``step`` steps had completed.

    ``queue_empty`` is True when a ``step()`` call found the queue empty and ended the crawl
    (``exhausted``) without producing a record. That call drops the queued links of dry
    subtrees, so whoever rebuilds the session must make the same call at the same point.
    """

    reason: StopReason
    step: int
    queue_empty: bool = False


class StepSink(Protocol):
    """What a session tells each sink, in this order, as it happens.

    - ``on_step``: once per step record, after it was appended to ``session.steps``;
    - ``on_override``: once per override, after it took effect and was appended to
      ``session.overrides``;
    - ``on_end``: once per ending, after the ``on_step`` or ``on_override`` that caused it
      (a crawl continued past a verdict can end again), and on its own when a ``step()`` call
      found the queue empty (``end.queue_empty``).

    A sink that raises makes the session refuse further steps (``SessionBroken``): whatever
    the sink keeps no longer matches the session. The other sinks are still told; the first
    error is then re-raised to the caller. Removing the failed sink (``remove_sink``) lets the
    session go on without it.
    """

    def on_step(self, session: ReadableSession, record: StepRecord) -> None: ...

    def on_override(self, session: ReadableSession, override: Override) -> None: ...

    def on_end(self, session: ReadableSession, end: SessionEnd) -> None: ...


class SinkList:
    """A session's sinks in the order they are told, and those that failed.

    ``failure`` is why the session may not go on because of a sink ("" when none failed);
    removing the failed sink clears it.
    """

    def __init__(self, sinks: Iterable[StepSink] = ()) -> None:
        self._sinks: list[StepSink] = list(sinks)
        self._failed: list[tuple[StepSink, str]] = []  # sinks that raised, and how

    @property
    def all(self) -> tuple[StepSink, ...]:
        return tuple(self._sinks)

    @property
    def failure(self) -> str:
        return self._failed[0][1] if self._failed else ""

    def add(self, sink: StepSink) -> None:
        self._sinks.append(sink)

    def remove(self, sink: StepSink) -> None:
        """ValueError if ``sink`` is not in the list."""
        self._sinks.remove(sink)
        self._failed = [(s, why) for s, why in self._failed if s is not sink]

    def find(self, kind: type[_Sink]) -> _Sink | None:
        return next((sink for sink in self._sinks if isinstance(sink, kind)), None)

    def tell(self, call: Callable[[StepSink], None]) -> None:
        """Tell every sink in order; re-raise the first failure once all were told. After a
        failure nobody is told anything more: each sink keeps what matched the session last."""
        if self._failed:
            return
        first: BaseException | None = None
        for sink in tuple(self._sinks):
            try:
                call(sink)
            except BaseException as exc:  # noted to refuse further steps, then re-raised
                self._failed.append((sink, f"{type(sink).__name__} failed ({exc})"))
                first = first or exc
        if first is not None:
            raise first
