"""The store's sinks: each step saved with its answers, each override and empty-queue call as
it happens; the same kept in memory by a RecordingSink."""

from __future__ import annotations

import pytest

from pagesift_ui.errors import SessionDone
from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.session import CrawlConfig, CrawlSession, OverrideKind
from pagesift_ui.store import (
    RecordingSink,
    ReplaySource,
    SessionEvent,
    SessionStatus,
    SessionStore,
    drive,
    start_session,
)
from tests.fakes import FIXTURE_ORIGIN, fixture_source, policy_for
from tests.interrupt import Interrupting

from . import crawl_config, crawl_view, saving, ticking_clock


def config(**settings: object) -> CrawlConfig:
    return crawl_config(FIXTURE_ORIGIN + "/", **{"limit": 12, **settings})


def test_the_store_sink_saves_each_step_and_override_as_it_happens(store: SessionStore) -> None:
    crawl = config()
    with start_session(store, crawl, source=fixture_source(policy=policy_for(crawl))) as s:
        sink = saving(s)
        assert s.sinks == (sink,)
        for n in (1, 2):
            s.step()
            saved = store.load(sink.session_id)
            assert [r.step for r in saved.steps] == list(range(1, n + 1))
            assert saved.info.status is SessionStatus.OPEN
        event = s.pin(s.frontier(5)[-1].key)
        assert store.load(sink.session_id).events == (SessionEvent(2, event),) == sink.events
        s.run()
        saved = store.load(sink.session_id)
        assert list(saved.steps) == s.steps
        assert saved.responses == sink.recorded()
        assert (saved.info.status, saved.info.stop_reason) == (SessionStatus.DONE,
                                                               s.stop_reason.value)


def test_an_empty_queue_call_is_saved_as_an_event_without_an_override(
    store: SessionStore,
) -> None:
    crawl = config()
    with start_session(store, crawl, source=fixture_source(policy=policy_for(crawl))) as s:
        s.step()
        for part in sorted({row.subtree for row in s.frontier(100)}):
            s.force_dry(part)
        with pytest.raises(SessionDone):
            s.step()
        saved = store.load(saving(s).session_id)
    assert saved.events[-1] == SessionEvent(1, None)
    assert [e.override.kind for e in saved.events[:-1] if e.override] == [
        OverrideKind.FORCE_DRY] * (len(saved.events) - 1)
    assert (saved.info.status, saved.info.stop_reason) == (SessionStatus.DONE, "exhausted")


def test_a_recording_sink_keeps_what_the_store_keeps(store: SessionStore) -> None:
    crawl = config(stop_on_verdict=False)
    memory = RecordingSink()
    live = memory.record(fixture_source(policy=policy_for(crawl)))  # both record the answers
    saved_session = start_session(store, crawl, source=live, clock=ticking_clock(),
                                  sinks=[memory])
    with saved_session as s:
        s.run(max_steps=3)
        s.relabel(s.steps[0].final_url, False)
        s.run()
    sink = saving(s)
    assert s.sinks == (sink, memory)
    assert tuple(memory.answers) == sink.recorded()
    assert tuple(memory.events) == sink.events
    with CrawlSession(crawl, ReplaySource(memory.answers), clock=ticking_clock()) as replay:
        drive(replay, memory.events)
    assert [crawl_view(r) for r in replay.steps] == [crawl_view(r) for r in s.steps]
    assert replay.stop_reason is s.stop_reason is StopReason.LIMIT_REACHED


def test_a_recording_sink_never_keeps_the_answers_of_a_step_that_broke_off() -> None:
    crawl = config()
    memory = RecordingSink()
    source = Interrupting(fixture_source(policy=policy_for(crawl)), at=2)
    with CrawlSession(crawl, memory.record(source), sinks=[memory]) as s:
        s.step()
        kept = list(memory.answers)
        with pytest.raises(KeyboardInterrupt):
            s.step()
    assert memory.answers == kept and kept
