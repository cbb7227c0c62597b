"""Network faults (issue 12, network half): each gives a clear error, bounded cost, no loss.

Every test names one kind of fault the web can throw at the fetcher or at a crawl, served by
``tests.faults.server.FaultServer`` on 127.0.0.1 (or blocked before any packet leaves). It
asserts the error (type, ``kind``, words of the message), bounded time (through the fetch
deadline) and, for bombs, peak memory measured in a child process; faults met inside a crawl
are also shown to leave the crawl going and every step saved.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from components.decision_log import explain_step
from pagesift_ui.errors import (
    BlockedByPolicy,
    BodyTooLarge,
    ConnectFailed,
    FetchError,
    FetchTimeout,
    TooManyRedirects,
)
from pagesift_ui.net.fetcher import Fetcher
from pagesift_ui.net.policy import AddressKind, classify_address
from pagesift_ui.session import CrawlConfig, StepOutcome
from pagesift_ui.session.source import default_source
from pagesift_ui.store import SessionStore, StoreSink, resume, start_session
from tests.faults.harness import (
    PEAK_RSS_LIMIT_MB,
    LoopbackOnly,
    config_for,
    crawl_into,
    fetch_in_child,
)
from tests.faults.server import FaultServer

SLACK_S = 2.0  # what a loaded CI machine may add to a deadline


@pytest.fixture(scope="module")
def faults() -> Iterator[FaultServer]:
    with FaultServer(lifetime_s=240) as server:
        yield server


@pytest.fixture(scope="module")
def admin() -> Iterator[FaultServer]:
    """Another local service on another port, which no crawl of ``faults`` may reach."""
    with FaultServer(lifetime_s=240) as server:
        yield server


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SessionStore]:
    with SessionStore(tmp_path / "faults.sqlite3") as opened:
        yield opened


@pytest.fixture(scope="module")
def closed_port() -> int:
    """A loopback port nothing listens on: connecting to it is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def fetcher(config: CrawlConfig, **kwargs: Any) -> Fetcher:
    """The crawl's own fetcher (``default_source``), or one built the same way with seams."""
    if not kwargs:
        return default_source(config)
    return Fetcher(config.fetch_policy(), **kwargs)


class FakeTime:
    """The fetcher's monotonic clock and politeness sleep, moved only by ``sleep``."""

    def __init__(self) -> None:
        self.now = 5000.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


# -- 1. the network policy: loopback, private, transition forms, scope ---------------------


def test_redirect_to_a_loopback_service_on_another_port_is_not_followed(
    faults: FaultServer, admin: FaultServer, store: SessionStore
) -> None:
    target = f"http://127.0.0.1:{admin.port}/admin/"
    crawled = crawl_into(faults, store, f"/redirect?to={target}", host=None)
    step = crawled.fault_step
    assert (step.outcome, step.error_kind) == (StepOutcome.ERROR, "network_policy")
    assert "a loopback address" in (step.error or "") and f":{admin.port}" in (step.error or "")
    assert admin.requests == []  # not one request reached the other service
    assert crawled.went_on()


def test_a_link_to_a_loopback_service_on_another_port_is_refused_for_the_policy(
    faults: FaultServer, admin: FaultServer, store: SessionStore
) -> None:
    # it was refused as "disallowed by robots.txt": the policy makes its robots.txt
    # unreachable, and the label said the file's word (found by probing)
    target = f"http://127.0.0.1:{admin.port}/admin/"
    crawled = crawl_into(faults, store, target, host=None)
    seed = crawled.saved.steps[0]
    reasons = seed.links["skipped_by_reason"]
    assert [r for r in reasons if r.startswith("refused by the network policy: ")] != [], reasons
    assert not any(r.startswith(("disallowed by robots", "robots.txt")) for r in reasons)
    assert admin.requests == []


def test_links_to_one_refused_origin_are_refused_in_the_same_words(
    faults: FaultServer, admin: FaultServer
) -> None:
    # a step record counts refused links by their words: they named each URL, and the
    # policy's phrase twice, so each refused link was a reason of its own (found by using
    # the CLI)
    config = config_for(faults.url("/", "www"))
    messages = set()
    with fetcher(config) as live:
        for path in ("/admin/", "/other?page=2"):
            with pytest.raises(BlockedByPolicy) as caught:
                live.allowed_by_robots(f"http://127.0.0.1:{admin.port}{path}")
            messages.add(caught.value.message)
    assert len(messages) == 1, messages
    (message,) = messages
    assert message.startswith(f"127.0.0.1:{admin.port} is at 127.0.0.1, a loopback address")
    assert "network policy" not in message and "/admin/" not in message
    assert admin.requests == []


def test_redirect_to_a_localhost_name_on_another_port_is_not_followed(
    faults: FaultServer, admin: FaultServer
) -> None:
    config = config_for(faults.url("/", "www"))
    with fetcher(config) as live, pytest.raises(BlockedByPolicy, match="loopback") as caught:
        live.fetch(faults.url(f"/redirect?to=http://admin.faults.localhost:{admin.port}/", "www"))
    assert caught.value.kind == "network_policy" and "seed" in caught.value.message
    assert admin.requests == []


def test_allow_private_lets_the_other_local_service_through(
    faults: FaultServer, admin: FaultServer
) -> None:
    config = config_for(faults.url("/", "www"), allow_private=True)
    with fetcher(config) as live:
        result = live.fetch(faults.url(f"/redirect?to={admin.url('/ok', 'admin')}", "www"))
    assert result.final_url == admin.url("/ok", "admin")


def test_virtual_hosts_of_the_seeds_socket_are_its_origin(faults: FaultServer) -> None:
    # the demo web: several *.localhost sites on one port, all the seed's own origin
    config = config_for(faults.url("/", "www"))
    with fetcher(config) as live:
        result = live.fetch(faults.url(f"/redirect?to={faults.url('/ok', 'journals')}", "www"))
    assert result.final_url == faults.url("/ok", "journals")


@pytest.mark.parametrize(
    ("target", "kind"),
    [
        ("http://10.0.0.1/", "private"),
        ("http://192.168.1.1/admin", "private"),
        ("http://169.254.169.254/latest/meta-data/", "link-local"),
        ("http://[::ffff:169.254.169.254]/", "link-local"),  # IPv4-mapped
        ("http://[2002:a9fe:a9fe::1]/", "link-local"),  # 6to4 of 169.254.169.254
        ("http://[64:ff9b::a9fe:a9fe]/", "link-local"),  # NAT64 of 169.254.169.254
        ("http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/", "private"),  # Teredo, client 10.0.0.1
        ("http://[2002:7f00:1::1]:8080/", "loopback"),  # 6to4 of 127.0.0.1
        ("http://[::ffff:127.0.0.1]:8080/admin/", "loopback"),
    ],
    ids=["rfc1918-10", "rfc1918-192", "metadata", "mapped", "6to4", "nat64", "teredo",
         "6to4-loopback", "mapped-loopback"],
)
def test_redirect_to_a_private_or_special_address_is_not_followed(
    faults: FaultServer, target: str, kind: str
) -> None:
    config = config_for(faults.url("/", "www"))
    guard = LoopbackOnly()
    with Fetcher(config.fetch_policy(), httpx.Client(transport=guard)) as live:
        with pytest.raises(BlockedByPolicy) as caught:
            live.fetch(faults.url(f"/redirect?to={target}", "www"))
    assert caught.value.kind == "network_policy" and f"a {kind} address" in caught.value.message
    assert guard.refused == []  # blocked by the policy, not by the test's guard


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("2002:a9fe:a9fe::1", AddressKind.LINK_LOCAL),
        ("2002:0a00:0001::1", AddressKind.PRIVATE),
        ("2002:5db8:d822::1", AddressKind.PUBLIC),  # 6to4 of 93.184.216.34
        ("64:ff9b::10.0.0.1", AddressKind.PRIVATE),
        ("64:ff9b::7f00:1", AddressKind.LOOPBACK),
        ("2001:0:4136:e378:8000:63bf:f5ff:fffe", AddressKind.PRIVATE),
        ("::ffff:192.168.0.1", AddressKind.PRIVATE),
    ],
)
def test_ipv6_transition_forms_are_judged_by_the_ipv4_address_they_embed(
    address: str, kind: AddressKind
) -> None:
    assert classify_address(address) is kind


def test_redirect_off_the_crawl_scope_is_not_followed(
    faults: FaultServer, store: SessionStore
) -> None:
    off_site = faults.url("/ok", "elsewhere")
    crawled = crawl_into(faults, store, f"/redirect?to={off_site}", scope="host")
    step = crawled.fault_step
    assert (step.outcome, step.error_kind) == (StepOutcome.ERROR, "out_of_scope")
    assert "outside the crawl's scope" in (step.error or "")
    assert faults.paths("elsewhere") == []
    assert crawled.went_on()


def test_redirect_to_another_site_is_out_of_a_site_scope(faults: FaultServer) -> None:
    config = config_for(faults.url("/", "www"), scope="site")
    with fetcher(config) as live, pytest.raises(FetchError) as caught:
        live.fetch(faults.url(f"/redirect?to=http://other.localhost:{faults.port}/ok", "www"))
    assert type(caught.value).__name__ == "OutOfScope" and caught.value.kind == "out_of_scope"
    assert "outside the crawl's scope" in caught.value.message
    assert faults.paths("other.localhost") == []


@pytest.mark.parametrize(("path", "words"),
                         [("/loop/a", "redirect loop"), ("/chain/9", "more than 5 times")])
def test_redirect_loops_and_long_chains_stop(faults: FaultServer, path: str, words: str) -> None:
    config = config_for(faults.url("/", "www"))
    with fetcher(config) as live, pytest.raises(TooManyRedirects, match=words) as caught:
        live.fetch(faults.url(path, "www"))
    assert caught.value.kind == "too_many_redirects"


def test_redirect_to_a_file_url_is_refused(faults: FaultServer) -> None:
    config = config_for(faults.url("/", "www"))
    with fetcher(config) as live, pytest.raises(BlockedByPolicy, match="only http and https"):
        live.fetch(faults.url("/redirect?to=file:///etc/passwd", "www"))


# -- 7. connections that fail ----------------------------------------------------------------


def test_refused_connection_says_robots_txt_is_unreachable(
    closed_port: int, store: SessionStore
) -> None:
    config = config_for(f"http://127.0.0.1:{closed_port}/")
    with fetcher(config) as live, pytest.raises(ConnectFailed) as caught:
        live.fetch(config.seed_url)
    assert caught.value.kind == "connect_failed"
    assert (f"http://127.0.0.1:{closed_port}/ could not be fetched: connection refused, on "
            f"asking first for http://127.0.0.1:{closed_port}/robots.txt") in caught.value.message


def test_refused_connection_without_robots_is_a_connect_failure(closed_port: int) -> None:
    config = config_for(f"http://127.0.0.1:{closed_port}/", respect_robots=False)
    with fetcher(config) as live, pytest.raises(ConnectFailed, match="refused") as caught:
        live.fetch(config.seed_url)
    assert caught.value.kind == "connect_failed"


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/truncated", "failed"),
        ("/garbage", "failed"),
        ("/reset", "failed"),
        # h11 said "Receive buffer too long"
        ("/cookies", "the response's headers (or a chunk's size line) ran over 100 KiB"),
        # they were joined and followed as one URL, "/ok,%20/seed"
        ("/two-locations", "redirected to 2 places at once ('/ok', '/seed'); not followed"),
    ],
    ids=["truncated-body", "not-http", "closed-unanswered", "headers-over-100-KiB",
         "two-locations"],
)
def test_broken_exchanges_are_fetch_errors(
    faults: FaultServer, store: SessionStore, path: str, words: str
) -> None:
    crawled = crawl_into(faults, store, path)
    step = crawled.fault_step
    assert step.outcome is StepOutcome.ERROR and step.error_kind in ("fetch_error",
                                                                     "connect_failed")
    assert words in (step.error or "")
    assert crawled.went_on()


# -- 4. deadlines --------------------------------------------------------------------------


@pytest.mark.parametrize("what", ["body", "headers"])
def test_a_server_dripping_a_byte_a_second_is_stopped_at_the_deadline(
    faults: FaultServer, what: str
) -> None:
    config = config_for(faults.url("/", "www"), fetch_deadline_s=2.0, read_timeout_s=10.0)
    started = time.monotonic()
    with fetcher(config) as live, pytest.raises(FetchTimeout) as caught:
        live.fetch(faults.url(f"/drip/{what}?bytes=40", "www"))
    assert time.monotonic() - started < 2.0 + SLACK_S
    assert caught.value.kind == "timeout" and "2 s deadline" in caught.value.message


def test_a_dripping_robots_txt_is_stopped_at_the_deadline(
    faults: FaultServer, store: SessionStore
) -> None:
    started = time.monotonic()
    crawled = crawl_into(faults, store, "/ok", host="robotsdrip", fetch_deadline_s=1.5,
                         limit=2)
    assert time.monotonic() - started < 2 * 1.5 + 2 * SLACK_S
    first = crawled.session.steps[0]
    assert (first.outcome, first.error_kind) == (StepOutcome.ERROR, "timeout")
    assert "on asking first for" in (first.error or "")
    assert crawled.saved.steps == tuple(crawled.session.steps)


def test_a_silent_server_times_out_after_the_read_timeout(faults: FaultServer) -> None:
    config = config_for(faults.url("/", "www"), read_timeout_s=1.0)
    started = time.monotonic()
    with fetcher(config) as live, pytest.raises(FetchTimeout, match="1.0 s reading"):
        live.fetch(faults.url("/silent?s=10", "www"))
    assert time.monotonic() - started < 1.0 + SLACK_S


# -- 3. bodies: size caps and bombs ---------------------------------------------------------


@pytest.mark.parametrize(("path", "words"), [
    ("/big/stream?mb=50", "passed the 5,000,000-byte limit"),
    ("/big/announced?mb=50", "announces 52,428,800 bytes"),
])
def test_a_50_mb_page_is_cut_at_the_body_limit(
    faults: FaultServer, store: SessionStore, path: str, words: str
) -> None:
    crawled = crawl_into(faults, store, path)
    step = crawled.fault_step
    assert step.error_kind == BodyTooLarge.kind and words in (step.error or "")
    assert crawled.went_on()


@pytest.mark.parametrize("codings", ["gzip", "deflate", "gzip,gzip", "deflate,gzip"])
def test_a_compression_bomb_stops_at_the_body_limit_in_bounded_memory(
    faults: FaultServer, codings: str
) -> None:
    config = config_for(faults.url("/", "www"))
    child = fetch_in_child(config, faults.url(f"/bomb/{codings}", "www"))
    assert (child.error_class, child.kind) == ("BodyTooLarge", "body_too_large")
    assert "5,000,000-byte limit" in child.message
    assert child.peak_mb < PEAK_RSS_LIMIT_MB


def test_a_robots_txt_bomb_is_read_to_its_limit_in_bounded_memory(faults: FaultServer) -> None:
    config = config_for(faults.url("/", "robotsbomb"))
    child = fetch_in_child(config, faults.url("/ok", "robotsbomb"))
    assert child.error_class is None and child.body_bytes > 0
    assert child.peak_mb < PEAK_RSS_LIMIT_MB


@pytest.mark.parametrize(("path", "words"), [
    ("/bomb/gzip,gzip,gzip?mb=1", "at most 2"),
    ("/coding/br", "Content-Encoding br"),
    ("/corrupt/gzip", "not valid gzip"),
], ids=["three-codings", "unknown-coding", "corrupt-gzip"])
def test_content_codings_the_fetcher_will_not_decode(
    faults: FaultServer, path: str, words: str
) -> None:
    config = config_for(faults.url("/", "www"))
    with fetcher(config) as live, pytest.raises(FetchError) as caught:
        live.fetch(faults.url(path, "www"))
    assert caught.value.kind == "fetch_error" and words in caught.value.message


# -- 2. charset labels that are not text encodings ------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/charset/header/idna", "/charset/meta/punycode", "/charset/header/undefined",
     "/charset/header/rot13", "/charset/meta/base64", "/charset/header/zlib",
     "/charset/meta/unicode_escape"],
)
def test_a_charset_label_that_is_no_text_encoding_falls_back_to_detection(
    faults: FaultServer, store: SessionStore, path: str
) -> None:
    crawled = crawl_into(faults, store, path)
    step = crawled.fault_step
    assert step.outcome is StepOutcome.FETCHED and "Café refund policy" in step.markdown
    assert crawled.went_on()
    sink_id = crawled.saved.info.session_id
    with resume(store, sink_id) as again:  # resume is not poisoned
        assert again.steps == crawled.session.steps


# -- 5. Crawl-delay and Retry-After ---------------------------------------------------------


@pytest.mark.parametrize("host", ["delay", "hugedelay"])  # Crawl-delay: 1000 and 1e10
def test_a_huge_crawl_delay_is_capped(faults: FaultServer, host: str) -> None:
    config = config_for(faults.url("/", host))
    fake = FakeTime()
    with fetcher(config, clock=fake.clock, sleep=fake.sleep) as live:
        live.fetch(faults.url("/ok", host))
        second = live.fetch(faults.url("/seed", host))
    assert fake.sleeps == [60.0, 60.0]  # after robots.txt, then after /ok: 60 s, not 1000
    assert "Crawl-delay" in second.politeness_note and "capped at 60 s" in second.politeness_note


@pytest.mark.parametrize(("status", "retry", "waits", "capped"), [
    (429, "3600", [300.0], True),
    (503, "date:120", [120.0], False),
    (503, "soon", [], False),
], ids=["429-seconds", "503-http-date", "503-garbage"])
def test_retry_after_is_honoured_up_to_the_cap(
    faults: FaultServer, status: int, retry: str, waits: list[float], capped: bool
) -> None:
    config = config_for(faults.url("/", "www"))
    fake = FakeTime()
    with fetcher(config, clock=fake.clock, sleep=fake.sleep) as live:
        with pytest.raises(FetchError) as caught:
            live.fetch(faults.url(f"/status/{status}?retry={retry}", "www"))
        live.fetch(faults.url("/ok", "www"))
    assert fake.sleeps == pytest.approx(waits, abs=2.0)
    assert ("capped at 300 s" in caught.value.politeness_note) is capped


def test_retry_after_on_a_429_robots_txt_holds_off_the_whole_host(faults: FaultServer) -> None:
    config = config_for(faults.url("/", "busy"))
    fake = FakeTime()
    with fetcher(config, clock=fake.clock, sleep=fake.sleep) as live:
        result = live.fetch(faults.url("/ok", "busy"))  # 4xx robots.txt: allowed (RFC 9309)
    assert fake.sleeps == [300.0]
    assert "Retry-After 3600 s capped at 300 s" in result.politeness_note


def test_capped_waits_are_in_the_step_record_and_the_decision_log(
    faults: FaultServer, store: SessionStore
) -> None:
    fake = FakeTime()
    config = config_for(faults.url("/seed?next=%2Fstatus%2F429%3Fretry%3D3600", "www"))
    source = fetcher(config, clock=fake.clock, sleep=fake.sleep)
    with start_session(store, config, source=source) as session:
        session.run()
    noted = [r for r in session.steps if getattr(r, "politeness_note", "")]
    assert noted and "Retry-After 3600 s" in noted[0].politeness_note
    assert noted[0].error_kind == "http_status"
    assert "Retry-After 3600 s" in explain_step(noted[0], config)
    assert fake.sleeps == [300.0]  # the request after the 429 waited the cap, once
    sink = session.find_sink(StoreSink)
    assert sink is not None and store.load(sink.session_id).steps == tuple(session.steps)


# -- 6. bounded work per page -----------------------------------------------------------------


def test_a_page_with_150k_links_considers_at_most_max_links_per_page() -> None:
    from pagesift_ui.page.extract import Link, Page
    from pagesift_ui.session.enqueue import enqueue_links
    from pagesift_ui.session.state import FrontierState

    config = config_for("http://big.localhost/", limit=100)
    links = tuple(Link(f"http://big.localhost/item/{i}", f"refund item {i}", True, False, None)
                  for i in range(150_000))
    page = Page("http://big.localhost/", "Refund index", "en", (), "Refund policy index",
                "Refund policy index", 3, links, None, False, False, ())
    state = FrontierState.from_config(config)
    asked: list[str] = []  # every new link in scope is asked about robots.txt, then scored

    def robots_allows(url: str) -> bool:
        asked.append(url)
        return True

    started = time.monotonic()
    tally = enqueue_links(state, config, page, links, 0, 0.5, robots_allows)
    assert len(asked) == config.max_links_per_page == 2000
    assert tally.found == 150_000 and tally.not_considered == 148_000
    assert tally.to_dict()["not_considered"] == 148_000
    assert time.monotonic() - started < 30.0  # was ~290 s here; the cap makes it ~4 s


def test_a_crawl_records_the_links_it_did_not_consider(
    faults: FaultServer, store: SessionStore
) -> None:
    crawled = crawl_into(faults, store, "/links?n=3000", max_links_per_page=100)
    step = crawled.fault_step
    assert step.links["found"] >= 3000 and step.links["not_considered"] == step.links["found"] - 100
    assert crawled.went_on()
    # the session's summary (a bundle's final.summary, the CLI's closing lines) counts them
    summary = crawled.session.summary()
    over = [r for r in crawled.session.steps if (r.links or {}).get("not_considered")]
    assert summary["pages_over_link_cap"] == len(over) >= 1
    assert summary["links_not_read"] == sum(r.links["not_considered"] for r in over) >= 2900


def test_a_robots_txt_with_14k_wildcard_rules_costs_bounded_work_per_url(
    faults: FaultServer,
) -> None:
    from pagesift_ui.net.robots import MAX_ROBOTS_RULES, rules_from_response
    from tests.faults.server import _many_rules

    rules = rules_from_response(200, _many_rules())
    assert rules.ignored_rules == 14_001 - MAX_ROBOTS_RULES  # the first rules are kept
    assert not rules.allows("http://h/private/x", "pagesift-ui")
    started = time.monotonic()
    for i in range(200):
        rules.allows(f"http://h/a/b/page-{i}.html?q={i}", "pagesift-ui")
    assert time.monotonic() - started < 5.0  # 14k rules: ~15 s; 1,000: ~0.4 s


def test_a_crawl_under_a_huge_robots_txt_goes_on(faults: FaultServer, store: SessionStore) -> None:
    crawled = crawl_into(faults, store, "/ok", host="rules", limit=2)
    assert [r.outcome for r in crawled.session.steps] == [StepOutcome.FETCHED] * 2
    assert crawled.saved.steps == tuple(crawled.session.steps)
