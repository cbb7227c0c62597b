"""The app shows sitemap links as such (docs/DESIGN.md §11.13): the decision log says a link
came from the sitemap and what the seeding did, the frontier table marks queued sitemap
links, and the sidebar's checkbox turns the option on."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from components.decision_log import explain_step
from components.sidebar import config_mapping, form_defaults
from components.tables import frontier_frame
from pagesift_ui.session import CrawlConfig, CrawlSession
from tests.sitemap_site import HIDDEN, LASTMOD, SitemapSite, site_routes


@pytest.fixture(scope="module")
def crawl() -> Iterator[tuple[CrawlSession, SitemapSite]]:
    with SitemapSite() as site:
        site.routes.update(site_routes(site.base, "plain"))
        config = CrawlConfig.from_mapping({
            "seed_url": f"{site.base}/", "query": "refund policy", "delay_s": 0.0,
            "limit": 20, "stop_on_verdict": False, "use_sitemaps": True,
        })
        with CrawlSession(config) as session:
            session.run(max_steps=1)
            yield session, site


def test_the_decision_log_says_what_the_sitemap_seeding_did(
    crawl: tuple[CrawlSession, SitemapSite],
) -> None:
    session, _ = crawl
    text = explain_step(session.steps[0], session.config)
    assert "Sitemaps: 1 of 1 read, 3 URLs taken" in text


def test_a_queued_sitemap_link_is_marked_in_the_frontier_table(
    crawl: tuple[CrawlSession, SitemapSite],
) -> None:
    session, site = crawl
    frame = frontier_frame(session.frontier(50))
    row = frame[frame["url"] == f"{site.base}{HIDDEN}"]
    assert list(row["anchor"]) == ["(from the sitemap)"]
    assert set(frame[frame["url"] == f"{site.base}/about"]["anchor"]) == {"About us"}


def test_the_step_that_took_a_sitemap_link_says_it_came_from_the_sitemap(
    crawl: tuple[CrawlSession, SitemapSite],
) -> None:
    session, site = crawl
    session.pin(_key(session, f"{site.base}{HIDDEN}"))
    record = session.step()
    assert record.final_url == f"{site.base}{HIDDEN}"
    assert f"from the sitemap (lastmod {LASTMOD}), not from a page" in explain_step(
        record, session.config)


def _key(session: CrawlSession, url: str) -> str:
    return next(row.key for row in session.frontier(50) if row.url == url)


def test_the_sidebar_checkbox_turns_sitemap_seeding_on() -> None:
    values = {**form_defaults(), "query": "refund policy"}
    assert values["use_sitemaps"] is False
    on = CrawlConfig.from_mapping(config_mapping({**values, "use_sitemaps": True},
                                                 "http://127.0.0.1:9/"))
    default = CrawlConfig.from_mapping({"seed_url": "http://127.0.0.1:9/", "query": "refund"})
    assert on.use_sitemaps and not default.use_sitemaps
    assert on.max_sitemap_urls == default.max_sitemap_urls
