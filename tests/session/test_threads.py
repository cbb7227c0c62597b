"""A session shared between threads takes its steps and overrides one at a time.

Streamlit's header Stop marks a script run stopped and the next rerun gets a second script
thread while the first still finishes its step (docs/DESIGN.md §14.2): both stepped one
session and two records got step 10, the store refusing the second. These tests hold a
fetch open in one thread while another thread steps or steers the same session.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

from pagesift_ui.net.fetcher import FetchResult
from pagesift_ui.net.sitemaps import SitemapHarvest, SitemapLimits
from pagesift_ui.session import CrawlConfig, CrawlSession, StepRecord
from pagesift_ui.session.source import PageSource
from tests.fakes import FIXTURE_ORIGIN, DictSource, fixture_source, policy_for

#: How long the held fetch waits for a second thread to run into it (not a speed check:
#: with the lock in place the second thread waits whatever this is).
_OVERLAP_S = 0.3


class HeldSource:
    """The fixture site, whose next fetch after ``hold()`` waits until ``release()``; it
    counts the fetches in progress at once."""

    def __init__(self, source: DictSource) -> None:
        self._source = source
        self._held = threading.Event()
        self._release = threading.Event()
        self.fetching = threading.Event()
        self._count_lock = threading.Lock()
        self._active = 0
        self.most_at_once = 0

    def hold(self) -> None:
        self._held.set()

    def release(self) -> None:
        self._release.set()

    def fetch(self, url: str) -> FetchResult:
        with self._count_lock:
            self._active += 1
            self.most_at_once = max(self.most_at_once, self._active)
        try:
            if self._held.is_set():
                self._held.clear()
                self.fetching.set()
                self._release.wait(timeout=10)
            return self._source.fetch(url)
        finally:
            with self._count_lock:
                self._active -= 1

    def allowed_by_robots(self, url: str) -> bool:
        return self._source.allowed_by_robots(url)

    def prefetch(self, urls: Sequence[str]) -> None:
        pass  # one fetch at a time: nothing is fetched ahead

    def sitemaps(self, limits: SitemapLimits) -> SitemapHarvest:
        raise AssertionError("these crawls do not read sitemaps (use_sitemaps is off)")

    def close(self) -> None:
        self._source.close()


def _session() -> tuple[CrawlSession, HeldSource]:
    config = CrawlConfig.from_mapping({"seed_url": FIXTURE_ORIGIN + "/", "query": "refund policy",
                                       "limit": 40, "delay_s": 0.0})
    source = HeldSource(fixture_source(policy=policy_for(config)))
    as_source: PageSource = source
    return CrawlSession(config, as_source), source


def test_two_threads_stepping_one_session_get_consecutive_step_numbers() -> None:
    session, source = _session()
    with session:
        session.step()
        source.hold()
        records: list[StepRecord] = []
        first = threading.Thread(target=lambda: records.append(session.step()))
        first.start()
        assert source.fetching.wait(timeout=10)
        second = threading.Thread(target=lambda: records.append(session.step()))
        second.start()
        time.sleep(_OVERLAP_S)  # without the lock the second step fetches meanwhile
        source.release()
        first.join(timeout=10)
        second.join(timeout=10)
        assert sorted(record.step for record in records) == [2, 3]
        assert [record.step for record in session.steps] == [1, 2, 3]
        assert source.most_at_once == 1
        assert session.interruption == ""


def test_an_override_from_another_thread_waits_for_the_step_in_progress() -> None:
    session, source = _session()
    with session:
        session.step()
        source.hold()
        stepping = threading.Thread(target=session.step)
        stepping.start()
        assert source.fetching.wait(timeout=10)
        stopped = threading.Event()

        def stop() -> None:
            session.stop()
            stopped.set()

        steering = threading.Thread(target=stop)
        steering.start()
        assert not stopped.wait(timeout=_OVERLAP_S), "stop() ran inside another thread's step"
        source.release()
        stepping.join(timeout=10)
        steering.join(timeout=10)
        # the step ended whole, then the stop took effect after it
        assert [record.step for record in session.steps] == [1, 2]
        assert session.overrides[-1].step == 2
        assert session.stop_step == 2
