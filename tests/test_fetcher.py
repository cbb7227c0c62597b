"""Fetcher behaviour against the fixture site (127.0.0.1) and httpx.MockTransport.

No test sends traffic anywhere but 127.0.0.1: names other than ``*.localhost`` are resolved
by an injected table, and requests to them go to a MockTransport.
"""

from __future__ import annotations

import dataclasses
import socket
import time
import zlib
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from pagesift_ui.errors import (
    BlockedByPolicy,
    BlockedByRobots,
    BodyTooLarge,
    ConfigError,
    ConnectFailed,
    FetchError,
    FetchTimeout,
    HTTPStatusError,
    OutOfScope,
    TooManyRedirects,
    UnsupportedContentType,
)
from pagesift_ui.net.decoding import STEP, ContentDecoder, DecodingError
from pagesift_ui.net.fetcher import Fetcher, FetchPolicy, parse_content_type
from pagesift_ui.net.policy import AddressKind, classify_address
from pagesift_ui.net.politeness import retry_after_s
from pagesift_ui.net.robots import MAX_ROBOTS_RULES, rules_from_response
from pagesift_ui.session import CrawlConfig
from tests.fixture_site import CP1252_TEXT, LATIN1_TEXT, SJIS_TEXT, VHOST, VHOST_TEXT, FixtureSite

PUBLIC_IP = "93.184.216.34"  # only ever handed to MockTransport, never dialled
HTML = {"content-type": "text/html; charset=utf-8"}
Handler = Callable[[httpx.Request], httpx.Response]


def fetch_policy(**changes: Any) -> FetchPolicy:
    """A crawl's fetch policy (``CrawlConfig``'s defaults, the only ones) with ``changes``."""
    config = CrawlConfig(seed_url="http://shop.example/", query="refunds")
    return dataclasses.replace(config.fetch_policy(), **changes)


def site_policy(site: FixtureSite, **changes: Any) -> FetchPolicy:
    """The policy of a crawl of the fixture site: its 127.0.0.1 port is the seed's origin."""
    return fetch_policy(seed_url=site.url("/"), **changes)


class FakeClock:
    """A monotonic clock that only moves when ``sleep`` is called."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def table_resolver(table: dict[str, str]) -> Callable[[str], list[str]]:
    def resolve(host: str) -> list[str]:
        if host not in table:
            raise socket.gaierror(socket.EAI_NONAME, f"{host} is not in the test table")
        return [table[host]]

    return resolve


def no_dns(host: str) -> list[str]:
    raise AssertionError(f"DNS was asked for {host}")


def mock_fetcher(
    handler: Handler,
    policy: FetchPolicy | None = None,
    hosts: dict[str, str] | None = None,
    clock: FakeClock | None = None,
) -> Fetcher:
    clock = clock or FakeClock()
    return Fetcher(
        policy or fetch_policy(),
        httpx.Client(transport=httpx.MockTransport(handler)),
        resolver=table_resolver(hosts or {"shop.example": PUBLIC_IP}),
        clock=clock,
        sleep=clock.sleep,
    )


def routes(table: dict[str, httpx.Response], log: list[httpx.Request] | None = None) -> Handler:
    """A handler answering ``"host/path"`` keys (host from the Host header); else 404."""

    def handle(request: httpx.Request) -> httpx.Response:
        if log is not None:
            log.append(request)
        key = request.headers["host"] + request.url.raw_path.decode()
        return table.get(key, httpx.Response(404, headers=HTML, text="<h1>Not found</h1>"))

    return handle


def page(text: str = "<h1>ok</h1>") -> httpx.Response:
    return httpx.Response(200, headers=HTML, text=f"<html><body>{text}</body></html>")


def redirect(location: str, status: int = 302) -> httpx.Response:
    return httpx.Response(status, headers={"location": location})


# --- against the fixture site ------------------------------------------------------------


def test_fetches_a_page_with_its_metadata(fixture_site: FixtureSite) -> None:
    with Fetcher(site_policy(fixture_site)) as fetcher:
        result = fetcher.fetch(fixture_site.url("/"))
    assert (result.status, result.content_type, result.encoding) == (200, "text/html", "utf-8")
    assert result.final_url == fixture_site.url("/") and result.redirects == ()
    assert "Outdoor gear for every trail" in result.text
    assert ("Content-Type", "text/html; charset=utf-8") in result.headers
    assert fixture_site.paths() == ["/robots.txt", "/"]
    assert fixture_site.requests[1].user_agent.startswith("pagesift-ui/")


def test_a_configured_user_agent_is_the_header_sent_with_robots_and_pages(
    fixture_site: FixtureSite,
) -> None:
    agent = "LabBot/2.0 (+mailto:lab@example.org)"
    with Fetcher(site_policy(fixture_site, user_agent=agent)) as fetcher:
        fetcher.fetch(fixture_site.url("/"))
    assert [r.user_agent for r in fixture_site.requests] == [agent, agent]


def test_robots_disallow_blocks_without_requesting_the_page(fixture_site: FixtureSite) -> None:
    with Fetcher(site_policy(fixture_site)) as fetcher:
        assert not fetcher.allowed_by_robots(fixture_site.url("/private/staff"))
        with pytest.raises(BlockedByRobots, match="private/staff is disallowed"):
            fetcher.fetch(fixture_site.url("/private/staff"))
    assert "/private/staff" not in fixture_site.paths()
    assert fixture_site.paths().count("/robots.txt") == 1  # cached per origin


def test_localhost_names_reach_127_0_0_1_with_their_host_header(
    fixture_site: FixtureSite,
) -> None:
    # RFC 6761 §6.3: *.localhost never goes to DNS; the vhost also has no robots.txt (404).
    with Fetcher(site_policy(fixture_site), resolver=no_dns) as fetcher:
        assert fetcher.allowed_by_robots(fixture_site.vhost_url("/private/staff"))
        result = fetcher.fetch(fixture_site.vhost_url("/"))
    assert VHOST_TEXT in result.text
    assert result.final_url == f"http://{VHOST}:{fixture_site.port}/"
    assert {r.host for r in fixture_site.requests} == {f"{VHOST}:{fixture_site.port}"}


def test_loopback_hosts_are_not_delayed(fixture_site: FixtureSite) -> None:
    clock = FakeClock()
    with Fetcher(site_policy(fixture_site, delay_s=2.0), clock=clock, sleep=clock.sleep) as fetcher:
        for path in ("/", "/help/", "/about"):
            fetcher.fetch(fixture_site.url(path))
        assert fetcher.robots_delay("127.0.0.1") == 0.0
    assert clock.sleeps == []


def test_redirect_chain_is_followed_and_recorded(fixture_site: FixtureSite) -> None:
    with Fetcher(site_policy(fixture_site)) as fetcher:
        result = fetcher.fetch(fixture_site.url("/old"))
    assert result.redirects == (fixture_site.url("/old"), fixture_site.url("/legacy/refunds"))
    assert result.final_url == fixture_site.url("/help/refunds")
    assert "How to get a refund" in result.text


def test_redirects_beyond_the_limit_are_refused(fixture_site: FixtureSite) -> None:
    with Fetcher(site_policy(fixture_site, max_redirects=1)) as fetcher:
        with pytest.raises(TooManyRedirects, match="more than 1 times"):
            fetcher.fetch(fixture_site.url("/old"))


def test_redirect_loop_is_named(fixture_site: FixtureSite) -> None:
    with Fetcher(site_policy(fixture_site)) as fetcher, pytest.raises(TooManyRedirects) as caught:
        fetcher.fetch(fixture_site.url("/loop-a"))
    assert "redirect loop" in str(caught.value)
    assert fixture_site.url("/loop-b") in str(caught.value)
    assert fixture_site.paths().count("/loop-a") == 1


@pytest.mark.parametrize(
    ("path", "status", "words"), [("/missing", 404, "Not Found"), ("/broken", 500, "Internal")]
)
def test_error_statuses_raise_with_the_status(
    fixture_site: FixtureSite, path: str, status: int, words: str
) -> None:
    with Fetcher(site_policy(fixture_site)) as fetcher, pytest.raises(HTTPStatusError) as caught:
        fetcher.fetch(fixture_site.url(path))
    assert caught.value.status == status
    assert str(caught.value) == f"{fixture_site.url(path)} answered {status} {words}" + (
        " Server Error" if status == 500 else ""
    )


def test_slow_page_times_out(fixture_site: FixtureSite) -> None:
    started = time.monotonic()
    with (
        Fetcher(site_policy(fixture_site, read_timeout_s=0.5)) as fetcher,
        pytest.raises(FetchTimeout) as caught,
    ):
        fetcher.fetch(fixture_site.url("/slow"))
    assert time.monotonic() - started < 1.8
    assert "timed out after 0.5 s reading the response" in str(caught.value)


def test_pdf_is_unsupported(fixture_site: FixtureSite) -> None:
    fetcher = Fetcher(site_policy(fixture_site))
    with fetcher, pytest.raises(UnsupportedContentType) as caught:
        fetcher.fetch(fixture_site.url("/files/report.pdf"))
    assert caught.value.content_type == "application/pdf"


@pytest.mark.parametrize(
    ("path", "expected", "encoding"),
    [
        ("/intl/fr-1252", CP1252_TEXT, "cp1252"),
        ("/intl/de-latin1", LATIN1_TEXT, "cp1252"),  # labelled iso-8859-1 (WHATWG mapping)
        ("/intl/ja-sjis", SJIS_TEXT, "cp932"),  # <meta charset="Shift_JIS"> only
    ],
)
def test_legacy_charsets_decode_without_mojibake(
    fixture_site: FixtureSite, path: str, expected: str, encoding: str
) -> None:
    with Fetcher(site_policy(fixture_site)) as fetcher:
        result = fetcher.fetch(fixture_site.url(path))
    assert expected in result.text
    assert result.encoding == encoding


def test_gzip_body_is_decoded(fixture_site: FixtureSite) -> None:
    with Fetcher(site_policy(fixture_site)) as fetcher:
        result = fetcher.fetch(fixture_site.url("/help/returns"))
    assert ("Content-Encoding", "gzip") in result.headers
    assert result.body.startswith(b"<!DOCTYPE html>") and "Returns and exchanges" in result.text


# --- robots.txt semantics (RFC 9309) with MockTransport ----------------------------------


@pytest.mark.parametrize("status", [500, 503])
def test_robots_server_error_disallows_everything(status: int) -> None:
    log: list[httpx.Request] = []
    site = {"shop.example/robots.txt": httpx.Response(status), "shop.example/": page()}
    fetcher = mock_fetcher(routes(site, log))
    assert not fetcher.allowed_by_robots("http://shop.example/")
    with pytest.raises(BlockedByRobots):
        fetcher.fetch("http://shop.example/")
    assert [r.url.path for r in log] == ["/robots.txt"]


def test_unreachable_robots_disallows_and_is_retried_later() -> None:
    answers: Iterator[httpx.Response | Exception] = iter(
        [httpx.ConnectError("refused"), httpx.Response(404)]
    )

    def handle(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/robots.txt":
            answer = next(answers)
            if isinstance(answer, Exception):
                raise answer
            return answer
        return page()

    clock = FakeClock()
    fetcher = mock_fetcher(handle, clock=clock)
    assert not fetcher.allowed_by_robots("http://shop.example/a")
    clock.now += 301  # past the short cache time of an unreachable robots.txt
    assert fetcher.allowed_by_robots("http://shop.example/a")


def test_robots_404_allows_everything() -> None:
    fetcher = mock_fetcher(routes({"shop.example/private/x": page()}))
    assert fetcher.fetch("http://shop.example/private/x").status == 200


def test_robots_redirect_is_followed_and_product_token_matched() -> None:
    rules = (
        "User-agent: github\nDisallow: /\n\n"
        "User-agent: pagesift-ui\nDisallow: /secret\n\nUser-agent: *\nDisallow: /open\n"
    )
    site = {
        "shop.example/robots.txt": redirect("/config/robots.txt", 301),
        "shop.example/config/robots.txt": httpx.Response(200, text=rules),
    }
    fetcher = mock_fetcher(routes(site))
    assert not fetcher.allowed_by_robots("http://shop.example/secret/plans")
    # Our group wins over "*"; the "github" group does not apply despite the UA's URL.
    assert fetcher.allowed_by_robots("http://shop.example/open")


def test_every_redirect_hop_is_checked_against_robots() -> None:
    site = {
        "shop.example/robots.txt": httpx.Response(200, text="User-agent: *\nDisallow: /admin"),
        "shop.example/go": redirect("/admin/panel"),
    }
    with pytest.raises(BlockedByRobots, match="admin/panel"):
        mock_fetcher(routes(site)).fetch("http://shop.example/go")


def test_ignoring_robots_never_asks_for_it() -> None:
    log: list[httpx.Request] = []
    fetcher = mock_fetcher(
        routes({"shop.example/": page()}, log), fetch_policy(respect_robots=False)
    )
    fetcher.fetch("http://shop.example/")
    assert [r.url.path for r in log] == ["/"] and fetcher.robots_delay("shop.example") is None


@pytest.mark.parametrize(
    ("configured", "robots", "gap"),
    [(1.0, "Crawl-delay: 3", 3.0), (5.0, "Crawl-delay: 3", 5.0), (1.0, "", 1.0)],
)
def test_per_host_delay_is_max_of_configured_and_crawl_delay(
    configured: float, robots: str, gap: float
) -> None:
    clock = FakeClock()
    sent_at: list[float] = []

    def handle(request: httpx.Request) -> httpx.Response:
        sent_at.append(clock.now)
        if request.url.path == "/robots.txt":
            return httpx.Response(200, text=f"User-agent: *\n{robots}\n")
        return page()

    fetcher = mock_fetcher(handle, fetch_policy(delay_s=configured), clock=clock)
    for path in ("/a", "/b", "/c"):
        fetcher.fetch(f"http://shop.example{path}")
    assert [b - a for a, b in zip(sent_at, sent_at[1:], strict=False)] == [gap] * 3
    assert fetcher.robots_delay("shop.example") == (3.0 if robots else None)


# --- network policy and DNS ------------------------------------------------------------


def test_redirect_to_a_private_address_is_blocked_unless_allowed() -> None:
    log: list[httpx.Request] = []
    site = {
        "shop.example/go": redirect("http://intranet.example/wiki"),
        "intranet.example/wiki": page("<p>intranet</p>"),
    }
    hosts = {"shop.example": PUBLIC_IP, "intranet.example": "10.0.0.1"}
    with pytest.raises(BlockedByPolicy, match=r"10\.0\.0\.1, a private address"):
        mock_fetcher(routes(site, log), hosts=hosts).fetch("http://shop.example/go")
    assert all(r.headers["host"] == "shop.example" for r in log)

    log.clear()
    allowed = mock_fetcher(routes(site, log), fetch_policy(allow_private=True), hosts=hosts)
    result = allowed.fetch("http://shop.example/go")
    assert result.final_url == "http://intranet.example/wiki" and "intranet" in result.text
    last = log[-1]
    assert (last.url.host, last.headers["host"]) == ("10.0.0.1", "intranet.example")


@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254/latest/meta-data/",
        "http://metadata.example/latest/meta-data/",
        "http://[::ffff:169.254.169.254]/",
        "http://0.0.0.0/",
        "http://[fe80::1]/",
        "http://224.0.0.1/",
    ],
)
def test_link_local_and_other_special_addresses_are_always_refused(url: str) -> None:
    log: list[httpx.Request] = []
    hosts = {"metadata.example": "169.254.169.254"}
    fetcher = mock_fetcher(routes({}, log), fetch_policy(allow_private=True), hosts=hosts)
    with pytest.raises(BlockedByPolicy):
        fetcher.fetch(url)
    assert log == []


def test_connects_to_the_checked_address_with_name_in_host_and_sni() -> None:
    log: list[httpx.Request] = []
    site = {"shop.example/": page()}
    mock_fetcher(routes(site, log), fetch_policy(respect_robots=False)).fetch(
        "https://shop.example/#top"
    )
    (request,) = log
    assert str(request.url) == f"https://{PUBLIC_IP}/"
    assert request.headers["host"] == "shop.example"
    assert request.extensions["sni_hostname"] == "shop.example"
    assert request.headers["connection"] == "close"  # no TLS reuse across names on one IP


def test_first_allowed_address_is_used() -> None:
    log: list[httpx.Request] = []
    fetcher = Fetcher(
        fetch_policy(respect_robots=False),
        httpx.Client(transport=httpx.MockTransport(routes({"shop.example/": page()}, log))),
        resolver=lambda host: ["10.1.2.3", PUBLIC_IP],
    )
    fetcher.fetch("http://shop.example/")
    assert log[0].url.host == PUBLIC_IP


def test_a_local_address_is_allowed_only_at_the_seeds_own_origin() -> None:
    log: list[httpx.Request] = []
    site = {
        "intranet.example/": page(),
        "wiki.example/": page(),  # another name on the seed's server
        "intranet.example:8080/admin": page("<p>admin</p>"),  # the seed host, another port
        "router.example/": page(),  # another intranet address
    }
    hosts = {"intranet.example": "10.0.0.5", "wiki.example": "10.0.0.5",
             "router.example": "10.0.0.1"}
    policy = fetch_policy(seed_url="http://intranet.example/", respect_robots=False)
    fetcher = mock_fetcher(routes(site, log), policy, hosts=hosts)
    assert fetcher.fetch("http://intranet.example/").status == 200
    assert fetcher.fetch("http://wiki.example/").status == 200
    for url in ("http://intranet.example:8080/admin", "http://router.example/"):
        with pytest.raises(BlockedByPolicy, match="not the seed's own origin"):
            fetcher.fetch(url)
    assert [r.headers["host"] for r in log] == ["intranet.example", "wiki.example"]


def test_a_redirect_out_of_scope_is_not_followed() -> None:
    log: list[httpx.Request] = []
    site = {"shop.example/go": redirect("http://other.example/x"), "other.example/x": page()}
    fetcher = Fetcher(
        fetch_policy(respect_robots=False),
        httpx.Client(transport=httpx.MockTransport(routes(site, log))),
        in_scope=lambda url: url.startswith("http://shop.example/"),
        resolver=table_resolver({"shop.example": PUBLIC_IP, "other.example": PUBLIC_IP}),
    )
    with pytest.raises(OutOfScope, match="outside the crawl's scope") as caught:
        fetcher.fetch("http://shop.example/go")
    assert caught.value.kind == "out_of_scope"
    assert [r.headers["host"] for r in log] == ["shop.example"]


def test_unresolvable_name_is_a_connect_failure() -> None:
    with pytest.raises(ConnectFailed, match="did not resolve"):
        mock_fetcher(routes({})).fetch("http://nowhere.example/")


@pytest.mark.parametrize("url", ["ftp://shop.example/file", "file:///etc/passwd"])
def test_only_http_and_https_are_fetched(url: str) -> None:
    with pytest.raises(BlockedByPolicy, match="only http and https"):
        mock_fetcher(routes({})).fetch(url)


def test_redirect_to_another_scheme_is_refused() -> None:
    site = {
        "shop.example/ftp": redirect("ftp://files.example/report"),
        "shop.example/mail": redirect("mailto:shop@example.org"),
    }
    fetcher = mock_fetcher(routes(site))
    with pytest.raises(BlockedByPolicy, match="ftp scheme"):
        fetcher.fetch("http://shop.example/ftp")
    # httpx itself rejects a Location with a scheme but no host; still a FetchError.
    with pytest.raises(FetchError, match="unusable URL"):
        fetcher.fetch("http://shop.example/mail")


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("127.0.0.5", AddressKind.LOOPBACK),
        ("::1", AddressKind.LOOPBACK),
        (PUBLIC_IP, AddressKind.PUBLIC),
        ("10.0.0.1", AddressKind.PRIVATE),
        ("172.16.0.1", AddressKind.PRIVATE),
        ("192.168.1.1", AddressKind.PRIVATE),
        ("fd00::1", AddressKind.PRIVATE),
        ("100.64.0.1", AddressKind.PRIVATE),
        ("::ffff:10.0.0.1", AddressKind.PRIVATE),
        ("169.254.169.254", AddressKind.LINK_LOCAL),
        ("fe80::1", AddressKind.LINK_LOCAL),
        ("0.0.0.0", AddressKind.UNSPECIFIED),
        ("239.1.1.1", AddressKind.MULTICAST),
        ("240.0.0.1", AddressKind.RESERVED),
    ],
)
def test_address_classification(address: str, kind: AddressKind) -> None:
    assert classify_address(address) is kind


# --- transport failures and bodies with MockTransport ------------------------------------


@pytest.mark.parametrize(
    ("error", "expected", "words"),
    [
        (httpx.ReadTimeout, FetchTimeout, "timed out after 10.0 s reading the response"),
        (httpx.ConnectTimeout, FetchTimeout, "timed out after 5.0 s connecting"),
        (httpx.PoolTimeout, FetchTimeout, "timed out"),
        (httpx.ConnectError, ConnectFailed, "could not be fetched"),
        (httpx.ReadError, ConnectFailed, "could not be fetched"),
        (httpx.RemoteProtocolError, FetchError, "failed"),
    ],
)
def test_transport_errors_become_fetch_errors(
    error: type[httpx.TransportError], expected: type[FetchError], words: str
) -> None:
    def handle(request: httpx.Request) -> httpx.Response:
        raise error("boom", request=request)

    with pytest.raises(FetchError) as caught:
        mock_fetcher(handle, fetch_policy(respect_robots=False)).fetch("http://shop.example/a")
    assert type(caught.value) is expected
    assert str(caught.value).startswith("http://shop.example/a ") and words in str(caught.value)
    assert caught.value.url == "http://shop.example/a"


def test_redirect_loop_with_mock_transport() -> None:
    site = {"shop.example/a": redirect("/b", 301), "shop.example/b": redirect("/a", 301)}
    with pytest.raises(TooManyRedirects, match="loop"):
        mock_fetcher(routes(site)).fetch("http://shop.example/a")


def counting_stream(chunks: Iterator[bytes], counter: list[int]) -> Iterator[bytes]:
    for chunk in chunks:
        counter.append(len(chunk))
        yield chunk


def test_oversize_body_stops_early() -> None:
    produced: list[int] = []
    chunks = (b"<p>" + b"x" * 65_533 for _ in range(100))  # 6.5 MB, no Content-Length

    def handle(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers=HTML, content=counting_stream(chunks, produced))

    policy = fetch_policy(respect_robots=False, max_body_bytes=1_000_000)
    with pytest.raises(BodyTooLarge, match="1,000,000-byte limit"):
        mock_fetcher(handle, policy).fetch("http://shop.example/big")
    assert sum(produced) <= 1_000_000 + 65_536


def test_announced_oversize_body_is_not_read() -> None:
    def handle(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers=HTML, content=b"x" * 1_000_001)

    policy = fetch_policy(respect_robots=False, max_body_bytes=1_000_000)
    with pytest.raises(BodyTooLarge, match="announces 1,000,001 bytes"):
        mock_fetcher(handle, policy).fetch("http://shop.example/big")


def gzip_bomb(megabytes: int, produced: list[int]) -> Iterator[bytes]:
    """gzip of ``megabytes`` MB of zeros, compressed lazily one MB at a time."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)  # wbits=31: gzip container
    for _ in range(megabytes):
        produced.append(1)
        yield compressor.compress(bytes(1_000_000)) + compressor.flush(zlib.Z_SYNC_FLUSH)
    yield compressor.flush()


def test_gzip_bomb_stops_after_the_decoded_cap() -> None:  # two layers: tests/faults
    produced: list[int] = []

    def handle(request: httpx.Request) -> httpx.Response:
        headers = {**HTML, "content-encoding": "gzip"}
        return httpx.Response(200, headers=headers, content=gzip_bomb(50, produced))

    policy = fetch_policy(respect_robots=False, max_body_bytes=2_000_000)
    with pytest.raises(BodyTooLarge):
        mock_fetcher(handle, policy).fetch("http://shop.example/bomb")
    assert len(produced) <= 3  # of 50 MB, at most 3 MB were ever compressed and served


def test_each_decoded_piece_is_bounded_even_for_a_double_bomb() -> None:
    inner = zlib.compressobj(9, zlib.DEFLATED, 31)
    once = inner.compress(bytes(50_000_000)) + inner.flush()
    outer = zlib.compressobj(9, zlib.DEFLATED, 31)
    twice = outer.compress(once) + outer.flush()  # about 1 KB on the wire
    decoder = ContentDecoder.for_header("gzip, gzip")
    total = 0
    for piece in decoder.feed(twice):
        assert len(piece) <= STEP
        total += len(piece)
    assert total == 50_000_000


@pytest.mark.parametrize(
    ("header", "words"),
    [("gzip, gzip, gzip", "at most 2"), ("br", "Content-Encoding br"), ("zstd", "zstd")],
)
def test_content_codings_not_decoded_are_named(header: str, words: str) -> None:
    with pytest.raises(DecodingError, match=words):
        ContentDecoder.for_header(header)


def test_raw_deflate_is_decoded_like_zlib_deflate() -> None:
    raw = zlib.compressobj(6, zlib.DEFLATED, -15)
    body = raw.compress(b"<p>raw deflate</p>") + raw.flush()
    assert b"".join(ContentDecoder.for_header("deflate").feed(body)) == b"<p>raw deflate</p>"
    assert b"".join(ContentDecoder.for_header("identity").feed(b"as is")) == b"as is"


@pytest.mark.parametrize(
    ("value", "date", "expected"),
    [
        ("120", None, 120.0),
        ("0", None, 0.0),
        ("9" * 5000, None, 1e12),  # a number no float holds: a huge wait, capped later
        ("Wed, 21 Oct 2015 07:30:00 GMT", "Wed, 21 Oct 2015 07:28:00 GMT", 120.0),
        ("Wed, 21 Oct 2015 07:30:00 GMT", "Wed, 21 Oct 2015 08:00:00 GMT", 0.0),  # past
        ("soon", None, None),
        ("-5", None, None),
        (None, None, None),
    ],
)
def test_retry_after_values(value: str | None, date: str | None, expected: float | None) -> None:
    assert retry_after_s(value, date, now=0.0) == expected


def test_retry_after_on_503_delays_the_next_request_to_that_host_only() -> None:
    clock = FakeClock()
    sent_at: list[tuple[str, float]] = []

    def handle(request: httpx.Request) -> httpx.Response:
        sent_at.append((request.headers["host"], clock.now))
        if request.url.path == "/busy":
            return httpx.Response(503, headers={"retry-after": "30"})
        return page()

    hosts = {"shop.example": PUBLIC_IP, "other.example": PUBLIC_IP}
    policy = fetch_policy(respect_robots=False, delay_s=0.0)
    fetcher = mock_fetcher(handle, policy, hosts=hosts, clock=clock)
    with pytest.raises(HTTPStatusError) as caught:
        fetcher.fetch("http://shop.example/busy")
    assert caught.value.politeness_note == ""  # 30 s is under the 300 s cap
    fetcher.fetch("http://other.example/")
    fetcher.fetch("http://shop.example/")
    assert [at - 1000.0 for _, at in sent_at] == [0.0, 0.0, 30.0]


def test_a_deadline_is_checked_between_body_chunks_of_any_client() -> None:
    clock = FakeClock()

    def slow_chunks() -> Iterator[bytes]:
        for _ in range(100):
            clock.now += 1.0  # each chunk takes a second
            yield b"<p>" + b"x" * 100

    def handle(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers=HTML, content=slow_chunks())

    policy = fetch_policy(respect_robots=False, fetch_deadline_s=5.0)
    with pytest.raises(FetchTimeout, match="5 s deadline"):
        mock_fetcher(handle, policy, clock=clock).fetch("http://shop.example/slow")
    assert clock.now - 1000.0 <= 6.0


def test_a_pages_redirects_share_one_deadline() -> None:
    # each hop once had a whole deadline: six slow hops took 49.5 s under a 5 s one
    clock = FakeClock()

    def slow_chunks() -> Iterator[bytes]:
        for _ in range(3):
            clock.now += 0.1
            yield b"<p>" + b"x" * 100

    def handle(request: httpx.Request) -> httpx.Response:
        clock.now += 2.0  # each answer takes two seconds to come
        hop = int(request.url.path.strip("/") or 0)
        if hop < 3:
            return httpx.Response(302, headers={"location": f"/{hop + 1}"})
        return httpx.Response(200, headers=HTML, content=slow_chunks())

    policy = fetch_policy(respect_robots=False, fetch_deadline_s=5.0)
    with pytest.raises(FetchTimeout, match="5 s deadline"):
        mock_fetcher(handle, policy, clock=clock).fetch("http://shop.example/")
    # with a deadline of its own each hop is in time, and the chain's answer comes
    relaxed = fetch_policy(respect_robots=False, fetch_deadline_s=9.0)
    assert mock_fetcher(handle, relaxed, clock=clock).fetch("http://shop.example/").status == 200


def test_the_politeness_wait_is_not_part_of_a_pages_deadline() -> None:
    clock = FakeClock()

    def handle(request: httpx.Request) -> httpx.Response:
        clock.now += 1.0
        return httpx.Response(200, headers=HTML, content=iter([b"<p>x</p>"]))

    policy = fetch_policy(respect_robots=False, fetch_deadline_s=2.0, delay_s=10.0)
    fetcher = mock_fetcher(handle, policy, clock=clock)
    fetcher.fetch("http://shop.example/a")
    assert fetcher.fetch("http://shop.example/b").status == 200  # after a 10 s wait


def test_robots_rules_past_the_cap_are_ignored_and_counted() -> None:
    lines = ["User-agent: *", *(f"Disallow: /d{i}/" for i in range(MAX_ROBOTS_RULES + 10))]
    rules = rules_from_response(200, "\n".join(lines).encode())
    assert rules.ignored_rules == 10
    assert not rules.allows(f"http://h/d{MAX_ROBOTS_RULES - 1}/x", "pagesift-ui")
    assert rules.allows(f"http://h/d{MAX_ROBOTS_RULES}/x", "pagesift-ui")


def test_a_robots_txt_that_starts_with_a_byte_order_mark_is_obeyed() -> None:
    rules = rules_from_response(200, b"\xef\xbb\xbfUser-agent: *\nDisallow: /private/\n")
    assert not rules.allows("http://h/private/x", "pagesift-ui")
    assert rules.allows("http://h/public/x", "pagesift-ui")


def test_unsupported_type_is_refused_before_the_body_is_read() -> None:
    produced: list[int] = []

    def handle(request: httpx.Request) -> httpx.Response:
        body = counting_stream(iter([b"%PDF-1.4"] * 10), produced)
        return httpx.Response(200, headers={"content-type": "Application/PDF"}, content=body)

    with pytest.raises(UnsupportedContentType) as caught:
        mock_fetcher(handle, fetch_policy(respect_robots=False)).fetch("http://shop.example/r")
    assert caught.value.content_type == "application/pdf" and produced == []


def test_missing_content_type_is_not_html() -> None:
    def handle(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=b"<p>hi</p>")

    with pytest.raises(UnsupportedContentType, match="application/octet-stream"):
        mock_fetcher(handle, fetch_policy(respect_robots=False)).fetch("http://shop.example/")


def test_xhtml_is_accepted_and_header_charset_wins_over_meta() -> None:
    body = '<html><head><meta charset="utf-8"></head><body>caf\xe9</body></html>'

    def handle(request: httpx.Request) -> httpx.Response:
        headers = {"content-type": 'application/xhtml+xml; charset="ISO-8859-1"'}
        return httpx.Response(200, headers=headers, content=body.encode("latin-1"))

    result = mock_fetcher(handle, fetch_policy(respect_robots=False)).fetch("http://shop.example/")
    assert result.content_type == "application/xhtml+xml" and "café" in result.text


# --- values and lifecycle --------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("user_agent", ""),
        ("user_agent", "bot\r\nX-Evil: 1"),
        ("delay_s", -1.0),
        ("delay_s", float("nan")),
        ("connect_timeout_s", 0),
        ("read_timeout_s", float("inf")),
        ("max_redirects", -1),
        ("max_redirects", 2.5),
        ("max_body_bytes", 0),
        ("respect_robots", "yes"),
        ("allow_private", 1),
        ("fetch_deadline_s", 0),
        ("max_crawl_delay_s", -1.0),
        ("max_retry_after_s", float("nan")),
        ("seed_url", "ftp://shop.example/"),
    ],
)
def test_policy_rejects_bad_values_naming_the_field(field: str, value: object) -> None:
    with pytest.raises(ConfigError) as caught:
        fetch_policy(**{field: value})
    assert caught.value.field == field and isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ('text/HTML; Charset="Shift_JIS"', ("text/html", "Shift_JIS")),
        ("text/html", ("text/html", None)),
        ("application/xhtml+xml;charset=utf-8;q=1", ("application/xhtml+xml", "utf-8")),
        (None, ("application/octet-stream", None)),
    ],
)
def test_parse_content_type(header: str | None, expected: tuple[str, str | None]) -> None:
    assert parse_content_type(header) == expected


def test_close_closes_only_an_owned_client() -> None:
    injected = httpx.Client(transport=httpx.MockTransport(routes({})))
    Fetcher(fetch_policy(), client=injected).close()
    assert not injected.is_closed
    with Fetcher(fetch_policy()) as owner:
        client = owner._client  # noqa: SLF001 - checking the lifecycle contract
    assert client.is_closed
