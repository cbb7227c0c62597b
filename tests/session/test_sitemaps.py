"""Sitemap seeding (docs/DESIGN.md §11.13) on a loopback site: a page linked from nowhere is
found through the sitemap with ``use_sitemaps``, and only then; caps, bombs and other hosts
are refused and recorded; a recorded session replays to the same records."""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from typing import Any

import pytest

from pagesift_ui.session import CrawlConfig, CrawlSession, StepRecord
from pagesift_ui.session.crawl import default_source
from pagesift_ui.store import Recorded, RecordingSource, ReplaySource
from pagesift_ui.store.portable import recorded_from_dict, recorded_to_dict
from pagesift_ui.store.recording import RecordedSitemaps
from pagesift_ui.store.replay import check_rebuilt
from tests.faults.server import bomb_body
from tests.sitemap_site import (
    HIDDEN,
    LASTMOD,
    LAUGHS,
    XML,
    Answer,
    SitemapSite,
    site_routes,
    urlset,
)


@pytest.fixture
def site() -> Iterator[SitemapSite]:
    with SitemapSite() as server:
        yield server


def _config(site: SitemapSite, **settings: Any) -> CrawlConfig:
    return CrawlConfig.from_mapping({
        "seed_url": f"{site.base}/", "query": "refund policy", "delay_s": 0.0, "limit": 20,
        "stop_on_verdict": False, **settings,
    })


def _crawl(config: CrawlConfig) -> tuple[list[StepRecord], list[Recorded]]:
    answers: list[Recorded] = []
    with CrawlSession(config, RecordingSource(default_source(config), answers.append)) as s:
        s.run()
    return s.steps, answers


def _fetched(steps: list[StepRecord]) -> set[str]:
    return {step.final_url for step in steps if step.outcome.value == "fetched"}


@pytest.mark.parametrize("variant", ["plain", "robots-gzip-index"])
def test_a_page_listed_only_in_the_sitemap_is_fetched_with_sitemaps_on(
    site: SitemapSite, variant: str
) -> None:
    site.routes.update(site_routes(site.base, variant))
    steps, _ = _crawl(_config(site, use_sitemaps=True))
    hidden = f"{site.base}{HIDDEN}"
    assert hidden in _fetched(steps)
    taken = next(step for step in steps if step.final_url == hidden)
    assert taken.link is not None
    assert (taken.link["via"], taken.link["lastmod"]) == ("sitemap", LASTMOD)
    # its URL's words are what scores it: the locator feature, nothing from a page
    features = {f["name"]: f["value"] for f in taken.link["features"]}
    assert features["locator"] > 0 and features["anchor"] == features["parent"] == 0
    seeded = steps[0].links["sitemap"]
    assert [f["outcome"] for f in seeded["files"]] == ["read"] * len(seeded["files"])
    if variant == "plain":
        assert [(f["url"], f["found"]) for f in seeded["files"]] == [
            (f"{site.base}/sitemap.xml", "/sitemap.xml")]
    else:
        assert [(f["url"], f["found"], f["kind"]) for f in seeded["files"]] == [
            (f"{site.base}/maps/index.xml.gz", "robots.txt", "sitemapindex"),
            (f"{site.base}/maps/pages.xml.gz", "sitemap index", "urlset"),
        ]
        assert "/sitemap.xml" not in site.requests
    assert seeded["found"] == 3 and seeded["already_fetched"] == 1  # the seed itself


@pytest.mark.parametrize("variant", ["plain", "robots-gzip-index"])
def test_without_the_option_the_sitemap_is_never_asked_for(
    site: SitemapSite, variant: str
) -> None:
    site.routes.update(site_routes(site.base, variant))
    steps, answers = _crawl(_config(site))
    assert f"{site.base}{HIDDEN}" not in _fetched(steps)
    assert not [path for path in site.requests if "sitemap" in path or "/maps/" in path]
    assert "sitemap" not in steps[0].links
    assert not [a for a in answers if isinstance(a, RecordedSitemaps)]


def test_the_seed_page_comes_first_and_the_sitemap_links_are_offered_at_step_one(
    site: SitemapSite,
) -> None:
    site.routes.update(site_routes(site.base, "plain"))
    steps, _ = _crawl(_config(site, use_sitemaps=True))
    assert steps[0].final_url == f"{site.base}/"
    assert all("sitemap" not in step.links for step in steps[1:])
    assert site.requests.index("/sitemap.xml") > site.requests.index("/")


def test_a_missing_sitemap_is_recorded_and_the_crawl_goes_on(site: SitemapSite) -> None:
    site.routes.update(site_routes(site.base, "plain"))
    del site.routes["/sitemap.xml"]
    steps, _ = _crawl(_config(site, use_sitemaps=True))
    (note,) = steps[0].links["sitemap"]["files"]
    assert note["outcome"] == "failed" and "404" in note["detail"]
    assert len(steps) == 4  # the four linked pages, as without sitemaps


def test_more_urls_than_the_cap_are_cut_and_the_record_says_so(site: SitemapSite) -> None:
    site.routes.update(site_routes(site.base, "plain"))
    listed = [(f"/p/{i}", "") for i in range(30)]
    site.routes["/sitemap.xml"] = Answer(200, XML, urlset(site.base, listed))
    steps, _ = _crawl(_config(site, use_sitemaps=True, max_sitemap_urls=5, limit=3))
    seeded = steps[0].links["sitemap"]
    assert (seeded["found"], seeded["cut"]) == (5, 25)
    assert seeded["files"][0]["listed"] == 30 and seeded["files"][0]["taken"] == 5
    assert seeded["queued"] == 5


def test_urls_of_other_hosts_and_out_of_scope_sitemaps_are_not_offered(
    site: SitemapSite,
) -> None:
    site.routes.update(site_routes(site.base, "plain"))
    # .invalid never resolves (RFC 6761 §6.4); the scope check refuses it before any lookup
    site.routes["/robots.txt"] = Answer(
        200, "text/plain",
        b"User-agent: *\nSitemap: http://maps.invalid/sitemap.xml\nSitemap: /sitemap.xml\n",
    )
    site.routes["/sitemap.xml"] = Answer(200, XML, urlset(site.base, [
        (HIDDEN, ""), ("http://elsewhere.invalid/refund-policy", ""),
        (f"http://localhost:{site.port}/refund-policy", ""),
    ]))
    steps, _ = _crawl(_config(site, use_sitemaps=True, scope="host"))
    away, here = steps[0].links["sitemap"]["files"]
    assert (away["outcome"], here["outcome"]) == ("failed", "read")
    assert "outside the crawl's scope" in away["detail"]
    assert (here["listed"], here["taken"], here["other_host"]) == (3, 1, 2)
    assert not [s for s in steps if "invalid" in s.url or "localhost" in s.url]


def test_a_sitemap_that_is_a_gzip_bomb_is_refused_at_the_byte_cap(site: SitemapSite) -> None:
    site.routes.update(site_routes(site.base, "plain"))
    # 256 MiB of zeros in ~250 KB of gzip, against a 1 MB cap
    site.routes["/sitemap.xml"] = Answer(200, "application/gzip", bomb_body(("gzip",), 256))
    steps, _ = _crawl(_config(site, use_sitemaps=True, max_sitemap_bytes=1_000_000))
    (note,) = steps[0].links["sitemap"]["files"]
    assert note["outcome"] == "failed" and "1,000,000-byte limit" in note["detail"]
    assert len(steps) == 4


def test_an_entity_expansion_sitemap_is_refused_unread(site: SitemapSite) -> None:
    site.routes.update(site_routes(site.base, "plain"))
    site.routes["/sitemap.xml"] = Answer(200, XML, LAUGHS)
    steps, _ = _crawl(_config(site, use_sitemaps=True))
    (note,) = steps[0].links["sitemap"]["files"]
    assert note["outcome"] == "failed" and "DTD" in note["detail"]
    assert steps[0].links["sitemap"]["found"] == 0


def test_a_sitemap_seeded_session_replays_to_the_same_records(site: SitemapSite) -> None:
    site.routes.update(site_routes(site.base, "robots-gzip-index"))
    config = _config(site, use_sitemaps=True)
    steps, answers = _crawl(config)
    # through a bundle's JSON form, as a saved session keeps them
    answers = [recorded_from_dict(recorded_to_dict(answer)) for answer in answers]
    requests = len(site.requests)
    with CrawlSession(config, ReplaySource(answers)) as rebuilt:
        rebuilt.run()
    check_rebuilt(steps, rebuilt.steps)
    assert rebuilt.steps[0].links["sitemap"] == steps[0].links["sitemap"]
    assert len(site.requests) == requests  # offline


def test_a_replay_asking_for_fewer_sitemap_urls_gets_the_recorded_ones_cut(
    site: SitemapSite,
) -> None:
    site.routes.update(site_routes(site.base, "plain"))
    _, answers = _crawl(_config(site, use_sitemaps=True))
    with CrawlSession(_config(site, use_sitemaps=True, max_sitemap_urls=1),
                      ReplaySource(answers)) as replay:
        replay.run()
    seeded = replay.steps[0].links["sitemap"]
    assert (seeded["found"], seeded["cut"]) == (1, 2)


def test_gzip_content_need_not_be_announced_as_gzip(site: SitemapSite) -> None:
    site.routes.update(site_routes(site.base, "plain"))
    body = urlset(site.base, [(HIDDEN, LASTMOD)])
    site.routes["/sitemap.xml"] = Answer(200, "application/octet-stream", gzip.compress(body))
    steps, _ = _crawl(_config(site, use_sitemaps=True))
    assert f"{site.base}{HIDDEN}" in _fetched(steps)
