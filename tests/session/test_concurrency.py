"""Fetches in flight (``CrawlConfig.concurrency``, docs/DESIGN.md §11.14).

The live tests crawl ``pagesift_ui/bench/slowsite.py``'s site: four ``*.localhost`` host
names on one loopback server that answers every request 100 ms after it came and counts the
requests of each host it answers at once. The logic tests serve the same pages from memory
(``DictSource``), where a crawl is fast and every answer is known.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from components.sidebar import FORM_SETTINGS, config_mapping, form_defaults
from pagesift_ui.bench.slowsite import QUERY, SlowServer, SlowSite
from pagesift_ui.cli import build_parser
from pagesift_ui.cli.options import config_from_args
from pagesift_ui.errors import ConfigError
from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.frontier.queue import cluster_key
from pagesift_ui.session import FORGIVABLE, CrawlConfig, CrawlSession, StepRecord
from pagesift_ui.session.config import SETTINGS
from pagesift_ui.session.crawl import default_source
from pagesift_ui.store import (
    RecordingSink,
    ReplaySource,
    SessionStore,
    StoreSink,
    drive,
    resume,
    start_session,
)
from pagesift_ui.store.replay import check_rebuilt, first_difference
from tests.fakes import DictSource, Reply, policy_for

SITE = SlowSite(hosts=4, pages=30)
MEMORY_PORT = 8000  # the port the in-memory site's links name (nothing listens)
#: Fields that measure the run, not the crawl: wall-clock stamps and timings.
RUN_FIELDS = frozenset({"elapsed_ms", "fetched_at"})


@pytest.fixture(scope="module")
def server() -> Iterator[SlowServer]:
    with SlowServer(SITE, delay_s=0.1) as running:
        yield running


def live_config(server: SlowServer, **settings: Any) -> CrawlConfig:
    values = {"seed_url": server.seed_url, "query": QUERY, "limit": 24, "delay_s": 0.0,
              "stop_on_verdict": False, **settings}
    return CrawlConfig.from_mapping(values)


def memory_config(**settings: Any) -> CrawlConfig:
    values = {"seed_url": f"http://{SITE.seed_host}:{MEMORY_PORT}/", "query": QUERY,
              "limit": 40, "delay_s": 0.0, "stop_on_verdict": False, **settings}
    return CrawlConfig.from_mapping(values)


def memory_source(config: CrawlConfig, site: SlowSite = SITE) -> DictSource:
    """The slow site's pages from memory, at once, stamped with a fixed time."""

    def answer(url: str) -> Reply:
        parts = urlsplit(url)
        status, content_type, body = site.respond(parts.hostname or "", parts.path or "/",
                                                  MEMORY_PORT)
        return Reply(status, content_type, body)

    return DictSource(missing=answer, policy=policy_for(config), now=lambda: 0.0)


def crawl_live(server: SlowServer, config: CrawlConfig) -> list[StepRecord]:
    server.reset()
    with CrawlSession(config) as session:
        return session.run()


def same_crawl(a: list[StepRecord], b: list[StepRecord]) -> None:
    """Equal records, but for the fields that measure the run."""
    assert [r.url for r in a] == [r.url for r in b]
    for left, right in zip(a, b, strict=True):
        for field in dataclasses.fields(StepRecord):
            if field.name not in RUN_FIELDS:
                assert getattr(left, field.name) == getattr(right, field.name), (
                    f"step {left.step}: {field.name}")


def page_requests(server: SlowServer) -> list[str]:
    return [f"http://{host}:{server.port}{path}" for host, path in server.requests()
            if path != "/robots.txt"]


# -- live: a loopback server that waits 100 ms before every answer ------------------------


def test_four_in_flight_crawl_the_same_pages_in_the_same_order_on_two_runs(
    server: SlowServer,
) -> None:
    config = live_config(server, concurrency=4)
    first = crawl_live(server, config)
    hosts_first = server.max_in_flight()
    overlapped = server.max_total_in_flight()
    second = crawl_live(server, config)
    assert len(first) == config.limit
    same_crawl(first, second)
    # the server saw fetches of several hosts at once, never two of one host
    assert overlapped > 1
    assert set(hosts_first.values()) == set(server.max_in_flight().values()) == {1}
    assert len(hosts_first) == SITE.hosts


@pytest.fixture(scope="module")
def one_host_server() -> Iterator[SlowServer]:
    with SlowServer(SlowSite(hosts=1, pages=40), delay_s=0.1) as running:
        yield running


def test_requests_per_host_stay_one_at_a_time_unless_raised(
    one_host_server: SlowServer,
) -> None:
    """``per_host`` (default 1) is the most requests to one host at once: a one-host site at
    four in flight gets one at a time by default, and two with ``per_host=2``; the crawl
    still repeats."""
    one = crawl_live(one_host_server, live_config(one_host_server, concurrency=4, limit=12))
    assert set(one_host_server.max_in_flight().values()) == {1}
    config = live_config(one_host_server, concurrency=4, per_host=2, limit=12)
    two = crawl_live(one_host_server, config)
    assert set(one_host_server.max_in_flight().values()) == {2}
    same_crawl(two, crawl_live(one_host_server, config))
    assert len(one) == len(two) == 12


def test_per_host_is_a_setting_from_1_to_8_default_1() -> None:
    assert memory_config().per_host == 1
    setting = next(s for s in SETTINGS if s.name == "per_host")
    assert (setting.flag, setting.low, setting.high, setting.default) == ("--per-host", 1, 8, 1)
    for bad in (0, 9, 1.5):
        with pytest.raises(ConfigError) as caught:
            memory_config(per_host=bad)
        assert caught.value.field == "per_host"
    config = memory_config(concurrency=4, per_host=2)
    assert CrawlConfig.from_mapping(config.to_dict()) == config
    assert config.fetch_policy().per_host == 2
    assert "per_host" in FORM_SETTINGS


def test_one_at_a_time_the_server_sees_the_pages_in_the_crawls_order(
    server: SlowServer,
) -> None:
    records = crawl_live(server, live_config(server, concurrency=1))
    assert page_requests(server) == [r.url for r in records]
    assert server.max_total_in_flight() == 1


def test_every_page_a_four_in_flight_crawl_took_was_requested_once(server: SlowServer) -> None:
    records = crawl_live(server, live_config(server, concurrency=4))
    requested = Counter(page_requests(server))
    assert all(requested[r.url] == 1 for r in records)
    # pages prefetched but not taken: at most the links still in flight at the limit (none)
    assert set(requested) == {r.url for r in records}


def test_a_replay_of_a_four_in_flight_crawl_gives_its_records(server: SlowServer) -> None:
    config = live_config(server, concurrency=4, stop_on_verdict=True,
                         forgive_still_finding=False,
                         adaptive={"patience": 2, "min_gain": 0.6})
    memory = RecordingSink()
    server.reset()
    with CrawlSession(config, memory.record(default_source(config)), sinks=[memory]) as live:
        live.run()
        assert live.stop_reason in FORGIVABLE and len(live.steps) < config.limit
        live.forgive()
        live.run()  # to the limit, or the next verdict
    replayed = CrawlSession(config, ReplaySource(memory.answers))
    drive(replayed, memory.events)
    check_rebuilt(live.steps, replayed.steps)
    assert replayed.stop_reason is live.stop_reason


# -- from memory: the pipeline's bookkeeping ----------------------------------------------


def memory_session(**settings: Any) -> tuple[CrawlSession, DictSource]:
    config = memory_config(**settings)
    source = memory_source(config)
    return CrawlSession(config, source), source


def test_one_at_a_time_asks_nothing_ahead_of_the_source() -> None:
    session, source = memory_session(concurrency=1)
    session.run()
    assert source.prefetched == []
    assert session.in_flight == ()


def test_each_step_prefetches_the_links_in_flight_oldest_first() -> None:
    session, source = memory_session(concurrency=4)
    session.step()
    assert source.prefetched == [(session.steps[0].url,)]
    second = session.step()
    hint = source.prefetched[-1]
    assert len(hint) == 4 and hint[0] == second.url
    assert session.in_flight == hint[1:]
    third = session.step()
    assert third.url == hint[1]
    assert source.prefetched[-1][:3] == hint[1:]


def clustered_site() -> dict[str, Reply]:
    """A home page whose six best links are on its own host and three weaker ones on three
    other hosts: best-first alone would put four links in flight on one host."""
    hosts = list(SITE.host_names)

    def html(title: str, body: str) -> Reply:
        return Reply(200, "text/html; charset=utf-8",
                     f"<html><head><title>{title}</title></head><body>{body}</body></html>")

    home = hosts[0]
    best = "".join(f'<p><a href="http://{home}:{MEMORY_PORT}/best/{i}">sediment transport '
                   f"in rivers, part {i}</a></p>" for i in range(6))
    weak = "".join(f'<p><a href="http://{host}:{MEMORY_PORT}/other">sediment notes</a></p>'
                   for host in hosts[1:])
    pages = {f"http://{home}:{MEMORY_PORT}/": html("Rivers", best + weak)}
    for i in range(6):
        pages[f"http://{home}:{MEMORY_PORT}/best/{i}"] = html(
            f"Sediment transport {i}", f"<p>Sediment transport, {i}: bed load and rivers.</p>")
    for host in hosts[1:]:
        pages[f"http://{host}:{MEMORY_PORT}/other"] = html(
            "Sediment notes", "<p>Sediment in lakes and rivers.</p>")
    return pages


def test_links_in_flight_go_to_hosts_with_nothing_in_flight_first() -> None:
    config = CrawlConfig.from_mapping({
        "seed_url": f"http://{SITE.seed_host}:{MEMORY_PORT}/", "query": QUERY, "limit": 20,
        "delay_s": 0.0, "stop_on_verdict": False, "concurrency": 4})
    session = CrawlSession(config, DictSource(clustered_site(), policy=policy_for(config),
                                              now=lambda: 0.0))
    session.step()  # the home page; its links are queued
    best_first = [row.url for row in session.frontier(4)]
    assert {urlsplit(url).hostname for url in best_first} == {SITE.seed_host}
    session.step()  # tops up to four in flight, then takes the oldest
    taken = session.steps[-1].url
    hosts = [urlsplit(url).hostname for url in (taken, *session.in_flight)]
    assert sorted(hosts) == sorted(SITE.host_names)
    assert taken == best_first[0]  # the best link is still taken first
    # every link is still taken once: the passed-over links went back to the queue
    rest = [record.url for record in session.run()]
    assert sorted([session.steps[0].url, taken, *rest]) == sorted(clustered_site())


def test_links_in_flight_count_against_the_limit() -> None:
    session, source = memory_session(concurrency=4, limit=6)
    records = session.run()
    assert len(records) == 6 and session.stop_reason is StopReason.LIMIT_REACHED
    asked = {url for hint in source.prefetched for url in hint}
    assert asked == {r.url for r in records}  # nothing popped past the budget
    assert session.in_flight == ()


def test_a_queue_emptied_by_links_in_flight_is_not_exhausted() -> None:
    tiny = SlowSite(hosts=4, pages=1, links_per_page=0)
    config = memory_config(concurrency=4)
    session = CrawlSession(config, memory_source(config, tiny))
    records = session.run()
    # the home links to /p/0 (a page) and /p/1 (not found) of every host, nothing else
    assert len(records) == 1 + 2 * tiny.hosts
    emptied = [r.step for r in records if r.queue_length == 0]
    assert emptied[0] < len(records)  # the queue was empty with pages still in flight
    assert [r.stopped for r in records] == [False] * (len(records) - 1) + [True]
    assert session.stop_reason is StopReason.EXHAUSTED


def test_a_stop_puts_the_links_in_flight_back_in_the_queue_unfetched() -> None:
    session, _ = memory_session(concurrency=4)
    session.run(max_steps=5)
    flying = session.in_flight
    assert len(flying) == 3
    session.stop()
    assert session.in_flight == ()
    queued = {entry.url for entry in session.state.queue.entries()}
    assert set(flying) <= queued
    taken = [r.url for r in session.steps]
    state = session.state
    flying_keys = {e.key for e in state.queue.entries() if e.url in flying}
    assert flying_keys.isdisjoint(state.fetched_keys)
    assert all(state.depths.depth(key) is None for key in flying_keys)
    assert state.scheduled_by_cluster == Counter(cluster_key(u) for u in taken)


def _verdict_session(**settings: Any) -> tuple[CrawlSession, DictSource]:
    # a crawl that stops on an early verdict: short patience, and no forgiveness while
    # relevant pages still come (on this small site they come every other page)
    return memory_session(concurrency=4, stop_on_verdict=True, forgive_still_finding=False,
                          adaptive={"patience": 2, "min_gain": 0.6}, **settings)


def test_a_verdict_with_links_in_flight_then_forgive_loses_and_repeats_no_page() -> None:
    session, source = _verdict_session()
    session.run()
    assert session.stop_reason in FORGIVABLE
    assert len(source.prefetched[-2]) > 1 and source.prefetched[-1] == ()  # put back
    put_back = [entry.url for entry in session.state.queue.entries()]
    session.forgive()
    session.run(until_stop=False)
    taken = [r.url for r in session.steps]
    assert len(taken) == len(set(taken)) == session.config.limit
    left = {entry.url for entry in session.state.queue.entries()}
    assert set(put_back) <= set(taken) | left


def test_every_link_offered_is_taken_queued_in_flight_or_reported_dropped() -> None:
    session, source = _verdict_session(limit=30)
    offered: set[str] = set()
    queue, offer = session.state.queue, session.state.queue.offer

    def recording_offer(key: str, url: str, *args: Any) -> Any:
        offered.add(url)
        return offer(key, url, *args)

    queue.offer = recording_offer  # type: ignore[method-assign]
    session.step()
    for host in SITE.host_names[1:3]:  # their links are dropped when they come up
        session.force_dry(host)
    session.run()
    assert session.stop_reason in FORGIVABLE and source.prefetched[-1] == ()
    session.forgive()
    session.run(until_stop=False)
    taken = [r.url for r in session.steps]
    dropped = [url for r in session.steps for url in r.dropped_dry]
    assert dropped and len(dropped) == len(set(dropped))
    assert len(taken) == len(set(taken))
    queued = {entry.url for entry in queue.entries()}
    # the links of a put-back pop's drops are reported by the next step taken
    assert offered | {session.config.seed_url} == (
        set(taken) | set(dropped) | queued | set(session.in_flight))


def _saved_id(session: CrawlSession) -> str:
    saving = session.find_sink(StoreSink)
    assert saving is not None
    return saving.session_id


def test_a_saved_crawl_resumed_mid_way_goes_on_as_if_never_stopped(tmp_path: Path) -> None:
    config = memory_config(concurrency=4, limit=30)
    whole = CrawlSession(config, memory_source(config))
    whole.run()
    with SessionStore(tmp_path / "s.sqlite3") as store:
        first = start_session(store, config, source=memory_source(config))
        first.run(max_steps=11)
        assert len(first.in_flight) == 3
        first.close()  # as the app does, or a Ctrl-C between steps
        saved_id = _saved_id(first)
        live = memory_source(config)
        resumed = resume(store, saved_id, source=live)
        # the rebuild popped the same links ahead; the live source is asked for them
        assert resumed.in_flight == first.in_flight
        assert live.prefetched == [resumed.in_flight]
        resumed.run()
        assert all(first_difference(a, b) is None
                   for a, b in zip(whole.steps, resumed.steps, strict=True))
        again = resume(store, saved_id, source=memory_source(config))  # the whole of it
        assert len(again.steps) == len(whole.steps)


def test_a_saved_crawl_stopped_by_a_verdict_resumes_and_forgives_like_the_live_one(
    tmp_path: Path,
) -> None:
    live, _ = _verdict_session()
    live.run()
    live.forgive()
    live.run()
    with SessionStore(tmp_path / "s.sqlite3") as store:
        config = live.config
        first = start_session(store, config, source=memory_source(config))
        first.run()
        assert first.stop_reason in FORGIVABLE
        first.close()
        resumed = resume(store, _saved_id(first), source=memory_source(config))
        resumed.forgive()
        resumed.run()
        assert [r.url for r in resumed.steps] == [r.url for r in live.steps]
        assert all(first_difference(a, b) is None
                   for a, b in zip(live.steps, resumed.steps, strict=True))


# -- the setting ---------------------------------------------------------------------------


def test_concurrency_is_a_setting_from_1_to_32_default_1() -> None:
    assert memory_config().concurrency == 1
    setting = next(s for s in SETTINGS if s.name == "concurrency")
    assert (setting.flag, setting.low, setting.high, setting.default) == (
        "--concurrency", 1, 32, 1)
    for bad in (0, 33, 2.5, True):
        with pytest.raises(ConfigError) as caught:
            memory_config(concurrency=bad)
        assert caught.value.field == "concurrency"
    config = memory_config(concurrency=4)
    assert config.to_dict()["concurrency"] == 4
    assert CrawlConfig.from_mapping(config.to_dict()) == config
    assert config.fetch_policy().concurrency == 4


def test_the_cli_flag_and_the_sidebar_set_concurrency() -> None:
    seed = f"http://{SITE.seed_host}:{MEMORY_PORT}/"
    args = build_parser().parse_args(["crawl", seed, "--query", QUERY, "--concurrency", "4"])
    assert config_from_args(args).concurrency == 4
    assert "concurrency" in FORM_SETTINGS and form_defaults()["concurrency"] == 1
    values = {**form_defaults(), "query": QUERY, "concurrency": 8}
    assert CrawlConfig.from_mapping(config_mapping(values, seed)).concurrency == 8
