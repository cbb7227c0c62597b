"""The page source that renders: fetch with the ``Fetcher``, then render when the mode says.

docs/DESIGN.md §11.3a. The crawl itself (``session/crawl.py``) does not know about rendering:
it gets a ``FetchResult`` whose body is the rendered DOM, and extracts it as any other.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from pagesift_ui.net.fetcher import Fetcher, FetchResult
from pagesift_ui.net.render import Renderer
from pagesift_ui.net.sitemaps import SitemapHarvest, SitemapLimits
from pagesift_ui.page.extract import extract
from pagesift_ui.session.config import RenderMode

__all__ = ["RenderingSource", "needs_render"]

logger = logging.getLogger(__name__)


def needs_render(mode: RenderMode, fetched: FetchResult) -> bool:
    """True when ``mode`` asks for ``fetched`` to be rendered.

    ``EMPTY`` renders a page whose fetched HTML, extracted as the crawl would, has no text
    and no links: the page a script builds (a single-page app's empty ``<div id=root>``).
    """
    if mode is RenderMode.OFF:
        return False
    if mode is RenderMode.ALWAYS:
        return True
    page = extract(fetched.body, fetched.final_url, encoding=fetched.encoding)
    return not page.text.strip() and not page.links


class RenderingSource:
    """A ``PageSource``: ``fetcher`` fetches every page, ``renderer`` renders those ``mode``
    picks (``needs_render``).

    ``fetch`` raises what the fetcher raises, and ``RenderFailed`` when the browser failed
    on the page (the step records it as an error; the next page starts a new browser).
    ``close`` closes the browser, then the fetcher.
    """

    def __init__(self, fetcher: Fetcher, renderer: Renderer, mode: RenderMode) -> None:
        self._fetcher = fetcher
        self._renderer = renderer
        self._mode = mode

    def fetch(self, url: str) -> FetchResult:
        fetched = self._fetcher.fetch(url)
        if not needs_render(self._mode, fetched):
            return fetched
        logger.info("rendering %s", fetched.final_url)
        return self._renderer.render(fetched)

    def prefetch(self, urls: Sequence[str]) -> None:
        """The fetcher's (docs/DESIGN.md §11.14): the plain fetches run ahead; a render
        happens when the crawl takes the page, one at a time."""
        self._fetcher.prefetch(urls)

    def allowed_by_robots(self, url: str) -> bool:
        return self._fetcher.allowed_by_robots(url)

    def sitemaps(self, limits: SitemapLimits) -> SitemapHarvest:
        """The fetcher's: sitemaps are XML, nothing to render."""
        return self._fetcher.sitemaps(limits)

    def close(self) -> None:
        try:
            self._renderer.close()
        finally:
            self._fetcher.close()
