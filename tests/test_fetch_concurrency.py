"""The fetcher with fetches in flight (``Fetcher.prefetch``, docs/DESIGN.md §11.14): what
the fetches share is safe, and a host never gets two requests at once.

Live tests use ``pagesift_ui/bench/slowsite.py``'s loopback site (every answer 100 ms after
the request; the server counts each host's requests in progress). The unit tests hold
threads at known points with events, so nothing depends on how fast the machine is.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator

import pytest

from pagesift_ui.bench.slowsite import QUERY, SlowServer, SlowSite
from pagesift_ui.net.fetcher import Fetcher, FetchResult
from pagesift_ui.net.politeness import Politeness
from pagesift_ui.net.robots import RobotsCache, RobotsDownload
from pagesift_ui.net.transport import Deadline
from pagesift_ui.session import CrawlConfig
from pagesift_ui.session.crawl import default_source

SITE = SlowSite(hosts=2, pages=8)
#: How long a test waits for a thread that must finish; only a hang (a deadlock) reaches it.
HANG_S = 30.0


@pytest.fixture(scope="module")
def server() -> Iterator[SlowServer]:
    with SlowServer(SITE, delay_s=0.1) as running:
        yield running


def fetcher_for(server: SlowServer, concurrency: int = 4) -> Fetcher:
    config = CrawlConfig(seed_url=server.seed_url, query=QUERY, delay_s=0.0,
                         concurrency=concurrency)
    return default_source(config)


def url(server: SlowServer, host: int, path: str) -> str:
    return f"http://{SITE.host_names[host]}:{server.port}{path}"


def test_prefetched_pages_are_fetched_at_once_but_one_request_per_host_at_a_time(
    server: SlowServer,
) -> None:
    server.reset()
    urls = [url(server, i % 2, f"/p/{i}") for i in range(8)]
    with fetcher_for(server) as fetcher:
        fetcher.prefetch(urls)
        results = [fetcher.fetch(u) for u in urls]
    assert [r.final_url for r in results] == urls
    assert all(r.status == 200 and b"<h1>" in r.body for r in results)
    assert server.max_in_flight() == {host: 1 for host in SITE.host_names}
    assert server.max_total_in_flight() == 2  # both hosts at once, each one at a time
    pages = Counter(path for _, path in server.requests() if path != "/robots.txt")
    assert set(pages.values()) == {1}  # each page once: fetch took the prefetched answer
    robots = [host for host, path in server.requests() if path == "/robots.txt"]
    assert sorted(robots) == sorted(SITE.host_names)  # one robots.txt per host


def test_a_url_prefetched_again_is_not_fetched_twice_and_one_left_out_is_dropped(
    server: SlowServer,
) -> None:
    server.reset()
    kept, left_out = url(server, 0, "/p/1"), url(server, 1, "/p/2")
    with fetcher_for(server) as fetcher:
        fetcher.prefetch([left_out, kept])
        fetcher.prefetch([kept])
        assert fetcher.fetch(kept).final_url == kept
        again = fetcher.fetch(left_out)  # no longer prefetched: fetched when asked
    assert again.final_url == left_out
    assert Counter(server.requests())[(SITE.host_names[0], "/p/1")] == 1


def test_redirects_across_hosts_in_both_directions_at_once_do_not_deadlock(
    server: SlowServer,
) -> None:
    server.reset()
    # each hop takes its host's turn, gives it back, then takes the next host's
    there = url(server, 0, "/go/1/3")
    back = url(server, 1, "/go/0/4")
    results: list[FetchResult] = []
    with fetcher_for(server) as fetcher:

        def both() -> None:
            fetcher.prefetch([there, back])
            results.extend([fetcher.fetch(there), fetcher.fetch(back)])

        worker = threading.Thread(target=both, daemon=True)
        worker.start()
        worker.join(HANG_S)
        assert not worker.is_alive(), "the redirected fetches hang"
    assert [r.final_url for r in results] == [url(server, 1, "/p/3"), url(server, 0, "/p/4")]
    assert [r.redirects for r in results] == [(there,), (back,)]
    assert set(server.max_in_flight().values()) == {1}


def test_one_at_a_time_the_fetcher_starts_no_thread(server: SlowServer) -> None:
    before = {t.name for t in threading.enumerate()}
    with fetcher_for(server, concurrency=1) as fetcher:
        fetcher.fetch(url(server, 0, "/p/0"))
        started = {t.name for t in threading.enumerate()} - before
    assert not any(name.startswith("pagesift-fetch") for name in started)


# -- the shared pieces, one at a time ------------------------------------------------------


def test_a_deadline_set_on_one_thread_does_not_bound_another() -> None:
    deadline = Deadline()
    inside, leave = threading.Event(), threading.Event()

    def exchange() -> None:
        with deadline.running(5.0):
            inside.set()
            leave.wait(HANG_S)

    worker = threading.Thread(target=exchange, daemon=True)
    worker.start()
    assert inside.wait(HANG_S)
    assert deadline.expires_at is None and deadline.bound(2.0, TimeoutError) == 2.0
    leave.set()
    worker.join(HANG_S)


def test_one_robots_txt_is_downloaded_once_however_many_threads_ask() -> None:
    loading, release = threading.Event(), threading.Event()
    loads: list[str] = []

    def load(robots_url: str) -> RobotsDownload:
        loads.append(robots_url)
        loading.set()
        release.wait(HANG_S)
        return RobotsDownload(200, b"User-agent: *\nDisallow: /private\n")

    cache = RobotsCache(load, clock=lambda: 0.0)
    answers: list[bool] = []

    def ask() -> None:
        rules = cache.rules_for("http://h.test/robots.txt", "h.test")
        answers.append(rules.allows("http://h.test/private/x", "probe"))

    threads = [threading.Thread(target=ask, daemon=True) for _ in range(3)]
    threads[0].start()
    assert loading.wait(HANG_S)
    for thread in threads[1:]:
        thread.start()
    release.set()
    for thread in threads:
        thread.join(HANG_S)
    assert loads == ["http://h.test/robots.txt"]
    assert answers == [False, False, False]


def test_a_hosts_turn_is_held_until_its_request_is_over() -> None:
    config = CrawlConfig(seed_url="http://h.test/", query=QUERY, delay_s=0.0)
    politeness = Politeness(config.fetch_policy(), clock=lambda: 0.0, sleep=lambda _: None)
    holding, done = threading.Event(), threading.Event()
    order: list[str] = []

    def first() -> None:
        with politeness.turn("h.test", loopback=False, crawl_delay=None):
            order.append("first in")
            holding.set()
            done.wait(HANG_S)
            order.append("first out")

    def second(host: str) -> None:
        with politeness.turn(host, loopback=False, crawl_delay=None):
            order.append(f"{host} in")

    holder = threading.Thread(target=first, daemon=True)
    holder.start()
    assert holding.wait(HANG_S)
    other = threading.Thread(target=second, args=("other.test",), daemon=True)
    other.start()
    other.join(HANG_S)  # another host's turn is free
    same = threading.Thread(target=second, args=("h.test",), daemon=True)
    same.start()
    same.join(0.2)
    assert order == ["first in", "other.test in"]  # h.test waits for the first request
    done.set()
    holder.join(HANG_S)
    same.join(HANG_S)
    assert order == ["first in", "other.test in", "first out", "h.test in"]
