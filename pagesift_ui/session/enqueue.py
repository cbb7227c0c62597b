"""Step 11 of a crawl step: a page's links go clean → dedupe → scope → skip → score → offer."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pagesift_ui.errors import FetchError
from pagesift_ui.frontier.harvest import subtree
from pagesift_ui.frontier.links import link_contexts
from pagesift_ui.frontier.queue import Offer
from pagesift_ui.frontier.urls import clean, dedupe_key, skip
from pagesift_ui.page.extract import Link, Page
from pagesift_ui.session.config import CrawlConfig
from pagesift_ui.session.scope import in_scope
from pagesift_ui.session.state import FrontierState

__all__ = ["LinkTally", "enqueue_links"]

logger = logging.getLogger(__name__)

#: At most this many example URLs per outcome are kept in a step record (counts are exact).
EXAMPLES_PER_OUTCOME = 50


@dataclass(slots=True)
class LinkTally:
    """What happened to a page's links, for the step record."""

    found: int = 0
    queued: int = 0
    requeued: int = 0
    evicted: list[str] = field(default_factory=list)
    rejected: list[tuple[str, str]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)

    def skip(self, url: str, reason: str) -> None:
        self.reasons[reason] += 1
        if len(self.skipped) < EXAMPLES_PER_OUTCOME:
            self.skipped.append((url, reason))

    def to_dict(self) -> dict[str, Any]:
        return {
            "found": self.found,
            "queued": self.queued,
            "requeued": self.requeued,
            "evicted": list(self.evicted[:EXAMPLES_PER_OUTCOME]),
            "evicted_count": len(self.evicted),
            "rejected": [list(pair) for pair in self.rejected[:EXAMPLES_PER_OUTCOME]],
            "rejected_count": len(self.rejected),
            "skipped": [list(pair) for pair in self.skipped],
            "skipped_by_reason": dict(sorted(self.reasons.items())),
        }


def _context_of(link: Link, contexts: dict[str, list[tuple[str, str]]]) -> str:
    for anchor, context in contexts.get(link.url, ()):
        if anchor == link.anchor:
            return context
    found = contexts.get(link.url)
    return found[0][1] if found else ""


def enqueue_links(
    state: FrontierState,
    config: CrawlConfig,
    page: Page,
    links: Sequence[Link],
    depth: int,
    relevance: float,
    room: int,
    robots_allows: Callable[[str], bool],
) -> LinkTally:
    """Offer the page's links to the queue; ``room`` = limit − pages scheduled."""
    tally = LinkTally(found=len(links))
    contexts = link_contexts(page.markdown)
    hub = state.focus.is_hub(page.word_count, len(links))
    seed_host = config.seed_host
    for link in links:
        try:
            url = clean(link.url)
        except ValueError:
            tally.skip(link.url, "not an http(s) URL")
            continue
        key = dedupe_key(url)
        if key in state.fetched_keys:
            continue  # the ordinary case of navigation links: not worth a row
        # a queued link passed every check when it was queued: only its score may change
        reason = "" if key in state.queue else _refusal(state, link, url, config, robots_allows)
        if reason:
            tally.skip(url, reason)
            continue
        signal = state.focus.link_signal(
            url, link.anchor, _context_of(link, contexts), depth + 1, relevance, hub, seed_host
        )
        score = state.link_score(signal)
        outcome, evicted = state.queue.offer(key, url, depth + 1, score, signal, room)
        _tally_offer(tally, url, outcome, evicted)
    return tally


def _refusal(
    state: FrontierState,
    link: Link,
    url: str,
    config: CrawlConfig,
    robots_allows: Callable[[str], bool],
) -> str:
    if link.nofollow:
        return "nofollow"
    if not in_scope(url, config.seed_host, config.scope):
        return "out of scope"
    trap = skip(url)
    if trap:
        return trap
    if state.is_dry(subtree(config.seed_host, url)):
        return "dry subtree"
    if config.respect_robots:
        return _robots_refusal(state, url, robots_allows)
    return ""


def _robots_refusal(
    state: FrontierState, url: str, robots_allows: Callable[[str], bool]
) -> str:
    """Ask robots.txt once per URL: pages repeat their navigation, and a 2,000-link index page
    asked anew for every link cost seconds per step (and filled recordings with answers)."""
    allowed = state.robots_answers.get(url)
    if allowed is None:
        try:
            allowed = robots_allows(url)
        except FetchError as exc:
            return f"robots.txt could not be checked: {exc.message}"
        state.robots_answers[url] = allowed
    return "" if allowed else "disallowed by robots.txt"


def _tally_offer(
    tally: LinkTally,
    url: str,
    outcome: Offer,
    evicted: str | None,
) -> None:
    if outcome is Offer.QUEUED:
        tally.queued += 1
    elif outcome is Offer.ALREADY_QUEUED:
        tally.requeued += 1
    elif outcome is Offer.EVICTED:
        # spec §9: the evicted link is forgotten (nothing remembers it), so it may come back
        tally.queued += 1
        if evicted is not None:
            tally.evicted.append(evicted)
    else:
        tally.reasons["queue full"] += 1
        tally.rejected.append((url, "queue full and the score is not above the worst queued"))
