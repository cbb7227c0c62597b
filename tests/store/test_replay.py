"""Replay and resume: a crawl is a pure function of its config, answers and events."""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Callable
from typing import Any

import pytest

from pagesift_ui.errors import SessionBroken
from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.net.fetcher import Fetcher
from pagesift_ui.session import (
    CrawlConfig,
    CrawlSession,
    Override,
    OverrideKind,
    SessionDone,
    StepOutcome,
    StepRecord,
)
from pagesift_ui.session.crawl import default_source
from pagesift_ui.store import (
    Recorded,
    RecordingSource,
    ReplayDiverged,
    ReplaySource,
    SessionEvent,
    SessionStatus,
    SessionStore,
    StoreSink,
    drive,
    resume,
    start_session,
)
from pagesift_ui.store.replay import merge_events, queue_empty_marks
from tests.fixture_site import FixtureSite
from tests.interrupt import Interrupting

from . import crawl_view, site_config, ticking_clock

Action = Callable[[CrawlSession], object]


def _record(config: CrawlConfig) -> tuple[CrawlSession, list[Recorded]]:
    """A live crawl of the fixture site, every answer recorded, timed by a ticking clock."""
    answers: list[Recorded] = []
    source = RecordingSource(default_source(config), answers.append)
    with CrawlSession(config, source, clock=ticking_clock()) as session:
        session.run()
    return session, answers


@pytest.fixture(scope="module")
def long_run(site: FixtureSite) -> tuple[CrawlSession, list[Recorded]]:
    """To the limit with --no-stop: fetched pages, duplicates and every error kind."""
    return _record(site_config(site, limit=80, stop_on_verdict=False))


@pytest.fixture(scope="module")
def short_run(site: FixtureSite) -> tuple[CrawlSession, list[Recorded]]:
    return _record(site_config(site, limit=5))


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any use of the live fetcher fails the test (recordings are made before it applies)."""

    def refuse(self: Fetcher, url: str) -> Any:
        raise AssertionError(f"a replay went online for {url}")

    monkeypatch.setattr(Fetcher, "fetch", refuse)
    monkeypatch.setattr(Fetcher, "allowed_by_robots", refuse)


def _exact(record: StepRecord) -> dict[str, Any]:
    """The whole record, but the wall-clock time a *failed* fetch is stamped with."""
    data = record.to_dict()
    if record.outcome in (StepOutcome.ERROR, StepOutcome.SKIPPED):
        del data["fetched_at"]
    return data


def test_replay_with_the_same_settings_reproduces_every_step_record(
    site: FixtureSite, long_run: tuple[CrawlSession, list[Recorded]], offline: None
) -> None:
    original, answers = long_run
    requests = len(site.requests)
    with CrawlSession(original.config, ReplaySource(answers), clock=ticking_clock()) as replay:
        replay.run()
    assert len(site.requests) == requests
    assert {r.outcome for r in original.steps} >= {StepOutcome.ERROR, StepOutcome.DUPLICATE}
    assert [_exact(r) for r in replay.steps] == [_exact(r) for r in original.steps]
    assert replay.summary() == original.summary()
    assert replay.frontier(50) == original.frontier(50)


def test_failed_fetches_replay_with_their_recorded_time(
    long_run: tuple[CrawlSession, list[Recorded]], offline: None
) -> None:
    original, answers = long_run
    with CrawlSession(original.config, ReplaySource(answers), clock=ticking_clock()) as replay:
        replay.run()
    assert [r.to_dict() for r in replay.steps] == [r.to_dict() for r in original.steps]


def test_replay_with_other_settings_never_goes_online(
    site: FixtureSite, short_run: tuple[CrawlSession, list[Recorded]], offline: None
) -> None:
    _, answers = short_run
    requests = len(site.requests)
    other = site_config(site, limit=40, query="shipping times", stop_on_verdict=False,
                        adaptive={"patience": 2})
    source = ReplaySource(answers)
    with CrawlSession(other, source) as replay:
        replay.run()
    assert len(site.requests) == requests
    assert replay.done and replay.steps
    unavailable = [r.url for r in replay.steps if r.error_kind == "not_recorded"]
    assert unavailable and unavailable == source.unavailable
    assert set(source.unavailable).isdisjoint(source.urls)


def test_events_merge_back_in_the_order_they_happened() -> None:
    pin = Override(2, OverrideKind.PIN, "k")
    stop = Override(5, OverrideKind.STOP)
    events = [SessionEvent(0), SessionEvent(2, pin), SessionEvent(2), SessionEvent(5, stop)]
    marks = queue_empty_marks(events)
    assert marks == [(0, 0), (2, 1)]
    assert merge_events([pin, stop], marks) == events


# -- resume ---------------------------------------------------------------------------------


def _script() -> list[Action]:
    """What a user does to a crawl, as steps and overrides (the same both runs)."""
    return [
        lambda s: s.run(max_steps=1),
        lambda s: s.run(max_steps=1),
        lambda s: s.pin(s.frontier(50)[-1].key),
        lambda s: s.run(max_steps=1),
        lambda s: s.relabel(s.steps[0].final_url, False),
        lambda s: s.force_dry(s.frontier(50)[-1].subtree),
        lambda s: s.run(max_steps=1),
        lambda s: s.run(max_steps=1),
        lambda s: s.run(),
        lambda s: s.forgive() if s.stop_reason in _FORGIVABLE else None,
        lambda s: s.run(),
    ]


_FORGIVABLE = {StopReason.COVERAGE_REACHED, StopReason.SATURATED, StopReason.NO_RELEVANT_PAGES}


@pytest.mark.parametrize("crash_after", [0, 2, 3, 5, 8, 10])
def test_resume_continues_exactly_like_an_uninterrupted_crawl(
    store: SessionStore, site: FixtureSite, crash_after: int
) -> None:
    config = site_config(site, limit=25)
    with start_session(store, config) as whole:
        for action in _script():
            action(whole)
    with start_session(store, config) as first:
        for action in _script()[:crash_after]:
            action(first)
    first_id = _saving(first).session_id
    with resume(store, first_id) as resumed:
        assert len(resumed.steps) == len(first.steps)
        assert _saving(resumed).session_id == first_id
        for action in _script()[crash_after:]:
            action(resumed)
    expected, got = store.load(_saving(whole).session_id), store.load(first_id)
    assert [crawl_view(r) for r in got.steps] == [crawl_view(r) for r in expected.steps]
    assert got.events == expected.events and len(got.events) >= 3
    assert got.events == _saving(resumed).events
    assert got.info.stop_reason == expected.info.stop_reason is not None
    assert resumed.summary() == whole.summary()
    assert resumed.frontier(50) == whole.frontier(50)


def _saving(session: CrawlSession) -> StoreSink:
    sink = session.find_sink(StoreSink)
    assert sink is not None, "a saved session has its store sink"
    return sink


def test_resume_rebuilds_offline_with_the_saved_records(
    store: SessionStore, site: FixtureSite
) -> None:
    with start_session(store, site_config(site)) as saved:
        saved.run(max_steps=4)
    requests = len(site.requests)
    with resume(store, _saving(saved).session_id, source=ReplaySource(())) as resumed:
        assert resumed.steps == saved.steps  # elapsed_ms as first shown
        assert resumed.overrides == saved.overrides
        assert not resumed.done
        resumed.run()  # offline source: every further page is unavailable
    assert len(site.requests) == requests
    assert {r.error_kind for r in resumed.steps[4:]} == {"not_recorded"}


def test_an_empty_queue_found_between_overrides_is_rebuilt(
    store: SessionStore, site: FixtureSite
) -> None:
    with start_session(store, site_config(site)) as saved:
        saved.step()
        parts = sorted({row.subtree for row in saved.frontier(100)})
        for part in parts:
            saved.force_dry(part)
        with pytest.raises(SessionDone):
            saved.step()  # every queued link is dry: the crawl ends, no step record
        # the links set aside while it was dry are queued again, and the crawl goes on
        saved.keep_open(parts[0])
        queued = [entry.key for entry in saved.state.queue.entries()]
    assert not saved.done and saved.stop_reason is None and queued
    with resume(store, _saving(saved).session_id) as rebuilt:
        assert (rebuilt.done, rebuilt.stop_reason) == (False, None)
        assert [entry.key for entry in rebuilt.state.queue.entries()] == queued
        assert rebuilt.overrides == saved.overrides
    assert [e.override is None for e in _saving(rebuilt).events].count(True) == 1
    assert store.load(_saving(saved).session_id).events == _saving(rebuilt).events


def test_resume_refuses_a_recording_that_replays_differently(
    store: SessionStore, site: FixtureSite
) -> None:
    with start_session(store, site_config(site)) as saved:
        saved.run(max_steps=3)
    other = b"<html><head><title>Changed</title></head><body><p>other</p></body></html>"
    with sqlite3.connect(store.path) as db:
        db.execute(
            "UPDATE responses SET body = ? WHERE seq = (SELECT MIN(seq) FROM responses "
            "WHERE kind = 'fetch')", (zlib.compress(other),),
        )
    with pytest.raises(ReplayDiverged, match="step 1 replays differently") as raised:
        resume(store, _saving(saved).session_id)
    assert raised.value.step == 1


def test_drive_without_strictness_skips_overrides_that_no_longer_apply(
    short_run: tuple[CrawlSession, list[Recorded]], offline: None
) -> None:
    original, answers = short_run
    pin = SessionEvent(1, Override(1, OverrideKind.PIN, "http://nowhere.test/"))
    with CrawlSession(original.config, ReplaySource(answers)) as session:
        with pytest.raises(ReplayDiverged, match="step 1"):
            drive(session, [pin])
    with CrawlSession(original.config, ReplaySource(answers)) as session:
        drive(session, [pin], strict=False)
        assert session.done and session.overrides == []
        assert [r.url for r in session.steps] == [r.url for r in original.steps]


def test_a_step_interrupted_half_way_must_be_resumed(
    store: SessionStore, site: FixtureSite
) -> None:
    config = site_config(site, limit=12)
    with start_session(store, config, source=Interrupting(default_source(config), at=3)) as broken:
        broken.run(max_steps=2)
        with pytest.raises(KeyboardInterrupt):
            broken.run()
        with pytest.raises(SessionBroken, match="step 3 was interrupted .* resume the session"):
            broken.run()
        broken.stop(note="after the interruption")  # in memory only: the store hears nothing
    broken_id = _saving(broken).session_id
    assert store.info(broken_id).status is SessionStatus.OPEN
    with resume(store, broken_id) as resumed:
        resumed.run()
    with start_session(store, config) as whole:
        whole.run()
    got, expected = store.load(broken_id), store.load(_saving(whole).session_id)
    assert [crawl_view(r) for r in got.steps] == [crawl_view(r) for r in expected.steps]
