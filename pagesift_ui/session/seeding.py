"""Sitemap seeding (docs/DESIGN.md §11.13): the URLs a site's sitemaps list, offered as
candidates at the end of the first step, each with a signal of its own.

A sitemap link has no anchor, no context and no parent page, so of the link score's
features only its URL's words (the locator) can speak for it; it is marked ``via=sitemap``
and keeps its ``<lastmod>``, both shown in its explanation and neither scored. It passes the
checks a page's link passes (``enqueue.refuse``: scope, URL hygiene, dry subtrees,
robots.txt); met again on a page, the better-scoring of the two signals is kept, as for any
link seen twice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from pagesift_ui.frontier.links import LinkVia
from pagesift_ui.frontier.urls import clean, dedupe_key
from pagesift_ui.net.sitemaps import SitemapHarvest
from pagesift_ui.session.config import CrawlConfig
from pagesift_ui.session.enqueue import (
    NEW_ROBOTS_ORIGINS_PER_PAGE,
    LinkTally,
    NewOrigins,
    Skip,
    SkipReason,
    refuse,
    requeue,
    tally_offer,
)
from pagesift_ui.session.state import FrontierState, signal_of

__all__ = ["SITEMAP_DEPTH", "offer_sitemap_links"]

logger = logging.getLogger(__name__)

#: The click depth a sitemap link is offered at: a sitemap lists a site's pages as its home
#: page's links do, one step from the root (docs/DESIGN.md §11.13).
SITEMAP_DEPTH = 1


def offer_sitemap_links(
    state: FrontierState,
    config: CrawlConfig,
    harvest: SitemapHarvest,
    robots_allows: Callable[[str], bool],
) -> dict[str, Any]:
    """Offer the harvest's URLs to the queue; the record's ``links.sitemap`` (what each
    sitemap file gave, how many URLs were cut by ``max_sitemap_urls``, and what became of
    the URLs taken, as ``links`` says it of a page's links)."""
    tally = LinkTally(found=len(harvest.entries))
    already_fetched = 0
    new_origins = NewOrigins(NEW_ROBOTS_ORIGINS_PER_PAGE)
    for entry in harvest.entries:
        try:
            url = clean(entry.url)
        except ValueError:
            tally.skip(entry.url, Skip(SkipReason.NOT_HTTP))
            continue
        key = dedupe_key(url)
        if key in state.fetched_keys:
            already_fetched += 1
            continue
        queued = state.queue.get(key)
        refusal = None if queued else refuse(state, url, config, robots_allows, new_origins)
        if refusal is not None:
            tally.skip(url, refusal)
            continue
        signal = replace(
            state.focus.link_signal(url, "", "", SITEMAP_DEPTH, 0.0, False, config.seed_host),
            via=LinkVia.SITEMAP, lastmod=entry.lastmod,
        )
        if queued is not None:
            requeue(state, key, queued.depth, queued.score, signal_of(queued), signal)
            tally.requeued += 1
            continue
        outcome, evicted = state.queue.offer(
            key, url, SITEMAP_DEPTH, state.link_score(signal), signal, config.max_queued_links
        )
        tally_offer(tally, url, outcome, evicted)
    logger.info("sitemaps: %d URLs taken (%d cut by the cap), %d queued", len(harvest.entries),
                harvest.cut, tally.queued)
    links = tally.to_dict()
    links.pop("not_considered", None)
    return {
        "files": [file.to_dict() for file in harvest.files],
        "cut": harvest.cut,
        "not_read": harvest.not_read,
        "already_fetched": already_fetched,
        **links,
    }
