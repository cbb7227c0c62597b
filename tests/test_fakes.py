"""tests/fakes.py answers like the real fetcher: the same FetchResult, errors and crawl.

The comparisons run the real ``Fetcher`` against the fixture site on 127.0.0.1 and the fake
at the same origin; the rest checks the fake's own features without any network.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

import pytest

from pagesift_ui.demo import build_site, start_demo
from pagesift_ui.errors import (
    BlockedByRobots,
    ConnectFailed,
    FetchError,
    FetchTimeout,
    HTTPStatusError,
    TooManyRedirects,
    UnsupportedContentType,
)
from pagesift_ui.net.fetcher import Fetcher, FetchResult
from pagesift_ui.session import CrawlConfig, CrawlSession, StepOutcome, StepRecord
from tests.fakes import (
    Answer,
    DictSource,
    Reply,
    default_policy,
    demo_source,
    fixture_source,
    policy_for,
    redirect,
)
from tests.fixture_site import VHOST, FixtureSite

CONFIG = {"query": "refund policy", "limit": 40, "delay_s": 0.0, "read_timeout_s": 1.0}
POLICY = policy_for(CrawlConfig.from_mapping({"seed_url": "http://127.0.0.1/", **CONFIG}))
# fields that time the fetch, and the two headers the server adds on its own
_TIMING = ("elapsed_s", "fetched_at")
_SERVER_HEADERS = {"server", "date"}


@pytest.fixture(scope="module")
def site() -> Iterator[FixtureSite]:
    with FixtureSite(slow_seconds=1.5) as running:
        yield running


def live_fetcher(site: FixtureSite) -> Fetcher:
    """The real fetcher with ``POLICY``, the fixture site being the crawl's seed (its loopback
    port is then the seed's own origin, which the network policy lets through)."""
    return Fetcher(dataclasses.replace(POLICY, seed_url=site.url("/")))


def comparable(result: FetchResult) -> dict[str, object]:
    fields = dataclasses.asdict(result)
    for name in _TIMING:
        del fields[name]
    fields["headers"] = tuple(
        (name, value) for name, value in result.headers if name.lower() not in _SERVER_HEADERS
    )
    return fields


def steps(records: list[StepRecord]) -> list[dict[str, object]]:
    """Step records without the fields that time the step or the fetch."""
    return [
        {k: v for k, v in r.to_dict().items() if k not in ("elapsed_ms", "fetched_at")}
        for r in records
    ]


def outcome(fetch: Callable[[str], FetchResult], url: str) -> dict[str, object]:
    """The result's fields, or the error's type, URL, message and status/content type."""
    try:
        return comparable(fetch(url))
    except FetchError as exc:
        return {
            "error": type(exc).__name__, "url": exc.url, "message": exc.message,
            "status": getattr(exc, "status", None),
            "content_type": getattr(exc, "content_type", None),
        }


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("/", FetchResult),
        ("/old#top", FetchResult),  # two 301 hops, and a fragment to drop
        ("/help/returns", FetchResult),  # sent gzip-compressed
        ("/intl/ja-sjis", FetchResult),  # charset only in <meta>
        ("/intl/de-latin1", FetchResult),  # "iso-8859-1" that is really windows-1252
        ("/events/calendar?month=7", FetchResult),
        ("/broken", HTTPStatusError),
        ("/no-such-page", HTTPStatusError),
        ("/files/report.pdf", UnsupportedContentType),
        ("/loop-a", TooManyRedirects),
        ("/private/staff", BlockedByRobots),
        ("/slow", FetchTimeout),
    ],
)
def test_the_fake_answers_like_the_fetcher_on_the_fixture_site(
    site: FixtureSite, path: str, kind: type
) -> None:
    url = site.url(path)
    with live_fetcher(site) as fetcher:
        real = outcome(fetcher.fetch, url)
    fake = outcome(fixture_source(site.base_url, policy=POLICY, slow_seconds=1.5).fetch, url)
    assert fake == real
    assert (real.get("error") or "FetchResult") == kind.__name__


def test_the_fake_answers_like_the_fetcher_for_the_virtual_host(site: FixtureSite) -> None:
    url = site.vhost_url("/")
    source = fixture_source(site.base_url, policy=POLICY)
    with live_fetcher(site) as fetcher:
        assert comparable(source.fetch(url)) == comparable(fetcher.fetch(url))
        for path in ("/private/staff", "/help/"):  # the virtual host has no robots.txt
            assert source.allowed_by_robots(site.vhost_url(path))
            assert fetcher.allowed_by_robots(site.vhost_url(path))
    assert source.requested == [
        f"http://{VHOST}:{site.port}/robots.txt", f"http://{VHOST}:{site.port}/",
    ]


def test_a_crawl_of_the_fake_is_the_crawl_of_the_real_site(site: FixtureSite) -> None:
    config = CrawlConfig.from_mapping(
        {"seed_url": site.url("/"), **CONFIG, "stop_on_verdict": False}
    )
    with CrawlSession(config) as live:
        real = live.run()
    source = fixture_source(site.base_url, policy=policy_for(config))
    with CrawlSession(config, source) as faked:
        fake = faked.run()

    assert steps(fake) == steps(real)
    assert len(real) > 20 and any(r.outcome is StepOutcome.ERROR for r in real)
    assert (faked.stop_reason, faked.stop_step) == (live.stop_reason, live.stop_step)


def test_a_crawl_of_a_demo_source_is_the_crawl_of_the_demo_server() -> None:
    site = build_site("needle")
    with start_demo("needle") as server:
        config = CrawlConfig.from_mapping(
            {"seed_url": server.seed_url, "query": site.query, "limit": 300, "delay_s": 0.0}
        )
        with CrawlSession(config) as live:
            real = live.run()
        with CrawlSession(config, demo_source(site, policy=policy_for(config))) as faked:
            fake = faked.run()
    assert steps(fake) == steps(real) and len(real) > 5


# -- the fake's own features, no network ------------------------------------------------


def test_pages_redirects_and_the_request_log() -> None:
    source = DictSource({
        "http://a.example": "<title>Home</title><a href='/b'>b</a>",
        "http://a.example/old": redirect("/b", 308),
        "http://a.example/b": Reply(200, "text/html; charset=windows-1252", "Café €"),
        "http://a.example/raw": "Grüße".encode(),
    })
    home = source.fetch("http://a.example")
    # as the fetcher's: the URL keeps its empty path, the request (and table key) is "/"
    assert (home.final_url, home.status, home.encoding) == ("http://a.example", 200, "utf-8")
    assert home.headers == (
        ("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(home.body))),
    )
    moved = source.fetch("http://a.example/old")
    assert (moved.url, moved.final_url) == ("http://a.example/old", "http://a.example/b")
    assert moved.redirects == ("http://a.example/old",) and moved.text == "Café €"
    assert moved.body == "Café €".encode("cp1252") and moved.encoding == "cp1252"
    assert source.fetch("http://a.example/raw").text == "Grüße"  # sniffed, no charset sent
    assert source.fetched == ["http://a.example", "http://a.example/old", "http://a.example/raw"]
    assert source.requested == [
        "http://a.example/robots.txt", "http://a.example/", "http://a.example/old",
        "http://a.example/b", "http://a.example/raw",
    ]
    with pytest.raises(HTTPStatusError, match="answered 404 Not Found") as missing:
        source.fetch("http://a.example/nowhere")
    assert missing.value.status == 404


def test_a_fetch_error_in_the_table_is_raised_naming_the_url_asked_for() -> None:
    refused = ConnectFailed("http://down.example/", "down.example refused the connection", at=1.0)
    source = DictSource({"http://down.example/": refused}, now=lambda: 42.0)
    with pytest.raises(ConnectFailed, match="refused") as raised:
        source.fetch("http://down.example/#part")
    assert (raised.value.url, raised.value.at, raised.value.kind) == (
        "http://down.example/#part", 42.0, "connect_failed",
    )


def test_robots_from_the_table_from_a_text_or_as_prefixes() -> None:
    pages: dict[str, Answer] = {
        "http://a.example/robots.txt": Reply(200, "text/plain", "User-agent: *\nDisallow: /x/\n"),
        "http://a.example/x/1": "<p>one</p>",
        "http://b.example/robots.txt": Reply(503, "text/plain", "down"),
    }
    from_table = DictSource(pages)
    assert not from_table.allowed_by_robots("http://a.example/x/1")
    assert from_table.allowed_by_robots("http://a.example/y")
    assert not from_table.allowed_by_robots("http://b.example/")  # 5xx: unreachable
    assert from_table.allowed_by_robots("http://c.example/")  # 404: no rules
    with pytest.raises(BlockedByRobots, match="disallowed by http://a.example/robots.txt"):
        from_table.fetch("http://a.example/x/1")
    from_text = DictSource(pages, robots="User-agent: pagesift-ui\nDisallow: /y\n")
    assert from_text.allowed_by_robots("http://a.example/x/1")
    assert not from_text.allowed_by_robots("http://b.example/y/z")
    prefixes = DictSource(pages, robots={"http://a.example/x/"})
    assert not prefixes.allowed_by_robots("http://a.example/x/1")
    assert prefixes.allowed_by_robots("http://b.example/x/1")
    ignoring = DictSource(pages, policy=dataclasses.replace(default_policy(), respect_robots=False))
    assert ignoring.fetch("http://a.example/x/1").text == "<p>one</p>"


def test_body_cap_and_close() -> None:
    capped = dataclasses.replace(default_policy(), max_body_bytes=1_000)
    source = DictSource({"http://a.example/big": "x" * 2_000}, policy=capped)
    with pytest.raises(FetchError, match="announces 2,000 bytes, over the 1,000-byte limit"):
        source.fetch("http://a.example/big")
    source.close()
    with pytest.raises(RuntimeError, match="closed"):
        source.fetch("http://a.example/big")
