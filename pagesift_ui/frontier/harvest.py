"""Yield per part (seed ``harvest.rs``, docs/DESIGN.md §5).

For every fetched page, record whether it brought new on-topic content (the adaptive rule's
"fresh"), counted per subtree or per cluster, and compare each part's Wilson interval with the
rest of the site (successive elimination, as in a multi-armed bandit):

- dry: the part's upper bound is below the rest's lower bound — it cannot catch up (the keyword
  traps: a journal system's issue tables of contents, a shop's product pages, each touching a
  query word but never bringing new on-topic content);
- proven: the part's lower bound is above the rest's lower bound — truly productive, so the
  per-cluster dispersion cap should not push it away.

No threshold is tuned on data: with few pages the intervals are wide and nothing is concluded;
a part that keeps yielding nothing narrows its interval and is eliminated soon.
"""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

from pagesift_ui.frontier.stats import Z2, Interval, wilson
from pagesift_ui.frontier.urlshape import is_language_code, is_language_name

__all__ = ["SUBTREE_CACHE_SIZE", "Harvest", "subtree"]

#: URLs whose subtree is remembered: a pure function of (seed host, URL) asked of every
#: link of every page, twice for a link not yet queued (issue 15); bounded like the URL
#: caches of ``urls``.
SUBTREE_CACHE_SIZE = 65_536


class Harvest:
    """Harvest counts for one way of splitting the site (by subtree or by cluster)."""

    __slots__ = ("_parts", "_total_hits", "_total_pages", "_z")

    def __init__(self, z: float = Z2) -> None:
        self._parts: dict[str, tuple[int, int]] = {}  # part → (pages, hits)
        self._total_pages = 0
        self._total_hits = 0
        self._z = z

    def observe(self, part: str, hit: bool) -> None:
        """Record one page of ``part``; ``hit`` says it brought new on-topic content."""
        pages, hits = self._parts.get(part, (0, 0))
        self._parts[part] = (pages + 1, hits + int(hit))
        self._total_pages += 1
        self._total_hits += int(hit)

    def _split(self, part: str) -> tuple[tuple[int, int], tuple[int, int]]:
        """(pages, hits) of this part and of the rest."""
        pages, hits = self._parts.get(part, (0, 0))
        return (pages, hits), (self._total_pages - pages, self._total_hits - hits)

    def interval(self, part: str) -> Interval:
        (pages, hits), _ = self._split(part)
        return wilson(hits, pages, self._z)

    def rest_interval(self, part: str) -> Interval:
        _, (rest_pages, rest_hits) = self._split(part)
        return wilson(rest_hits, rest_pages, self._z)

    def is_dry(self, part: str) -> bool:
        """The part's upper bound is below the rest's lower bound."""
        (pages, _), _ = self._split(part)
        return pages > 0 and self.interval(part).high < self.rest_interval(part).low

    def is_proven(self, part: str) -> bool:
        """The part's lower bound is above the rest's lower bound.

        Lower bounds on both sides: while the rest has one or two pages (at the start, only the
        seed) its point estimate is 0 or 1 and meaningless; the lower bound discounts the side
        with fewer pages.
        """
        (pages, _), _ = self._split(part)
        return pages > 0 and self.interval(part).low > self.rest_interval(part).low

    def counts(self, part: str) -> tuple[int, int]:
        """(pages, hits) of one part; (0, 0) for a part never seen."""
        return self._parts.get(part, (0, 0))

    def parts(self) -> dict[str, tuple[int, int]]:
        """part → (pages, hits), a copy."""
        return dict(self._parts)

    @property
    def total(self) -> tuple[int, int]:
        return self._total_pages, self._total_hits


def _host_of(url: str) -> str:
    host = (urlsplit(url).hostname or "").lower()
    return host.removeprefix("www.")


@lru_cache(maxsize=SUBTREE_CACHE_SIZE)
def subtree(seed_host: str, url: str) -> str:
    """The subtree a page belongs to.

    Another host (a sub-site) is one tree: its host without ``www.``. On the seed host, the
    page's parent directory with a leading language segment skipped, at most two segments
    (``/research-highlight/story`` → ``research-highlight``, ``/en/education/programmes/x`` →
    ``education/programmes``). Splitting by the first segment only would make a site that
    lives entirely under ``/en/`` one tree, and calling it dry would stop the whole crawl.

    >>> subtree("e.edu", "https://www.e.edu/en/research-highlight/story-1")
    'e.edu/research-highlight'
    """
    seed = seed_host.lower().removeprefix("www.")
    host = _host_of(url)
    if host != seed:
        return host
    segments = [s for s in urlsplit(url).path.split("/") if s]
    if segments:
        segments.pop()  # the page itself: its parent directory is the subtree
    if segments and (is_language_code(segments[0]) or is_language_name(segments[0])):
        segments.pop(0)
    return f"{host}/{'/'.join(segments[:2])}"
