"""Where a session's pages come from: the ``PageSource`` seam and the live default."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Protocol

from pagesift_ui.net.fetcher import Fetcher, FetchResult
from pagesift_ui.net.render import Renderer
from pagesift_ui.net.sitemaps import SitemapHarvest, SitemapLimits
from pagesift_ui.session.config import CrawlConfig, RenderMode
from pagesift_ui.session.rendering import RenderingSource
from pagesift_ui.session.scope import in_scope

__all__ = ["PageSource", "default_source"]


class PageSource(Protocol):
    """Where pages come from: the live ``Fetcher``, or a recording when replaying.

    ``fetch`` returns the page after redirects or raises a ``FetchError`` (the step records
    it and the crawl goes on); ``allowed_by_robots`` answers for one URL; ``sitemaps`` reads
    the seed site's sitemaps under ``limits`` and never raises for what a server sent (each
    file's fate is in the harvest; a session asks only with ``use_sitemaps``); ``close``
    releases the connections. ``prefetch`` names the URLs the session will ``fetch`` next, in
    order (its links in flight, docs/DESIGN.md §11.14; only with ``concurrency`` > 1): a
    source may start fetching them, and forgets any it was given before and is not given
    now. It is a hint: the answer the session takes is ``fetch``'s, so a source that fetches
    only when asked (a recording) does nothing here, and a recorder records ``fetch``'s
    answers in the order the crawl takes them.
    """

    def fetch(self, url: str) -> FetchResult: ...

    def prefetch(self, urls: Sequence[str]) -> None: ...

    def allowed_by_robots(self, url: str) -> bool: ...

    def sitemaps(self, limits: SitemapLimits) -> SitemapHarvest: ...

    def close(self) -> None: ...


def default_source(config: CrawlConfig) -> PageSource:
    """The live page source a config asks for: the one place a ``Fetcher`` is built.

    It follows redirects only inside the crawl's scope, the same one links are held to.
    With ``render`` on, the fetcher sits behind a ``RenderingSource`` whose browser starts
    on the first page it renders (§11.3a); its subresources are held to the same scope.
    """
    scope = functools.partial(in_scope, seed_host=config.seed_host, scope=config.scope)
    fetcher = Fetcher(config.fetch_policy(), in_scope=scope)
    if config.render is RenderMode.OFF:
        return fetcher
    renderer = Renderer(fetcher, in_scope=scope, deadline_s=config.render_deadline_s)
    return RenderingSource(fetcher, renderer, config.render)
