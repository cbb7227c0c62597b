"""The link graph a crawl discovers, and the oracle that knows where the answers are.

The oracle is the "fewest fetches that reach every relevant page" baseline. The exact minimum
is a directed Steiner tree problem (NP-hard), so the oracle is greedy: repeatedly fetch the
shortest path, from what it has fetched, to the nearest relevant page it has not. That is an
upper bound on the true minimum and, on sites shaped like trees, equal to it.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pagesift_ui.errors import FetchError
from pagesift_ui.frontier.urls import skip
from pagesift_ui.net.fetcher import FetchResult
from pagesift_ui.net.sitemaps import SitemapHarvest, SitemapLimits
from pagesift_ui.page.extract import extract
from pagesift_ui.session.config import CrawlConfig
from pagesift_ui.session.crawl import PageSource
from pagesift_ui.session.scope import in_scope

from .truth import url_key

__all__ = ["GraphRecorder", "SiteGraph", "explore_site", "oracle_order"]


class GraphRecorder:
    """A ``PageSource`` wrapper that records, for every page fetched, the links a crawl may
    follow from it (in scope, not a trap, allowed by robots.txt, not nofollow)."""

    def __init__(self, inner: PageSource, config: CrawlConfig) -> None:
        self._inner = inner
        self._config = config
        self.edges: dict[str, list[str]] = {}
        self.aliases: dict[str, str] = {}  # requested key → final key after redirects

    def fetch(self, url: str) -> FetchResult:
        try:
            result = self._inner.fetch(url)
        except FetchError:
            self.edges.setdefault(url_key(url), [])
            raise
        page = extract(result.body, result.final_url, encoding=result.encoding)
        targets = [] if page.nofollow else self._followable(link.url for link in page.links
                                                            if not link.nofollow)
        final = url_key(result.final_url)
        self.edges[final] = targets
        if url_key(url) != final:
            self.aliases[url_key(url)] = final
        return result

    def _followable(self, urls: Iterable[str]) -> list[str]:
        out: list[str] = []
        seen: set[str] = set()
        for url in urls:
            if not in_scope(url, self._config.seed_host, self._config.scope) or skip(url):
                continue
            if self._config.respect_robots and not self._inner.allowed_by_robots(url):
                continue
            try:
                key = url_key(url)
            except ValueError:
                continue
            if key not in seen:
                seen.add(key)
                out.append(key)
        return out

    def prefetch(self, urls: Sequence[str]) -> None:
        self._inner.prefetch(urls)

    def allowed_by_robots(self, url: str) -> bool:
        return self._inner.allowed_by_robots(url)

    def sitemaps(self, limits: SitemapLimits) -> SitemapHarvest:
        """The inner source's; a sitemap adds no edge to the link graph (no page links)."""
        return self._inner.sitemaps(limits)

    def close(self) -> None:
        self._inner.close()


@dataclass(frozen=True, slots=True)
class SiteGraph:
    """The followable link graph of a site as far as :func:`explore_site` read it."""

    edges: dict[str, list[str]]
    aliases: dict[str, str]
    pages: int  # fetches made (failed ones included)
    complete: bool  # False when the page cap stopped the exploration
    seconds: float


def explore_site(source: PageSource, config: CrawlConfig, max_pages: int = 5000) -> SiteGraph:
    """Fetch every page reachable from ``config.seed_url`` by links a crawl may follow
    (breadth-first, no crawl session: only fetch and extract), up to ``max_pages`` fetches.

    The oracle needs the whole reachable graph, not the part a budget-limited breadth-first
    crawl saw; reading it once per site serves every query with the same seed.
    """
    started = time.perf_counter()
    recorder = GraphRecorder(source, config)
    seed = url_key(config.seed_url)
    seen = {seed}
    queue = deque([seed])
    fetched = 0
    while queue and fetched < max_pages:
        key = queue.popleft()
        fetched += 1
        try:
            recorder.fetch(key)
        except FetchError:
            continue
        final = recorder.aliases.get(key, key)
        seen.add(final)
        for target in recorder.edges.get(final, ()):
            if target not in seen:
                seen.add(target)
                queue.append(target)
    return SiteGraph(recorder.edges, recorder.aliases, fetched, not queue,
                     time.perf_counter() - started)


def _resolve(key: str, aliases: dict[str, str]) -> str:
    return aliases.get(key, key)


def _nearest_path(
    edges: dict[str, list[str]], aliases: dict[str, str], fetched: set[str], targets: set[str]
) -> list[str]:
    """Shortest path (new pages only) from the fetched set to the nearest target."""
    parent: dict[str, str | None] = {node: None for node in fetched}
    queue = deque(fetched)
    while queue:
        node = queue.popleft()
        for raw in edges.get(node, ()):
            nxt = _resolve(raw, aliases)
            if nxt in parent:
                continue
            parent[nxt] = node
            if nxt in targets:
                path = [nxt]
                while (up := parent[path[-1]]) is not None and up not in fetched:
                    path.append(up)
                return path[::-1]
            queue.append(nxt)
    return []


def oracle_order(
    edges: dict[str, list[str]], aliases: dict[str, str], seed_key: str, truth: frozenset[str]
) -> tuple[list[str], frozenset[str]]:
    """The oracle's fetch sequence (page keys) and the relevant pages it could not reach
    (not in the explored graph)."""
    seed = _resolve(seed_key, aliases)
    order = [seed]
    fetched = {seed}
    remaining = {_resolve(k, aliases) for k in truth} - fetched
    while remaining:
        path = _nearest_path(edges, aliases, fetched, remaining)
        if not path:
            break
        order.extend(path)
        fetched.update(path)
        remaining -= fetched
    return order, frozenset(remaining)
