"""Step 11 of a crawl step: a page's links go clean → dedupe → scope → skip → score → offer."""

from __future__ import annotations

import enum
import logging
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from pagesift_ui.errors import BlockedByPolicy, FetchError
from pagesift_ui.frontier.harvest import subtree
from pagesift_ui.frontier.language import Language
from pagesift_ui.frontier.linkrules import CONTEXT_BYTES, anchor_and_title
from pagesift_ui.frontier.links import LinkSignal, link_contexts
from pagesift_ui.frontier.queue import Offer
from pagesift_ui.frontier.siblings import NO_GROUP, list_blocks_titled
from pagesift_ui.frontier.urls import MAX_URL_LENGTH, URL_CACHE_SIZE, clean, dedupe_key, skip
from pagesift_ui.net.policy import Origin
from pagesift_ui.page.extract import Link, Page
from pagesift_ui.session.ahead import park
from pagesift_ui.session.config import CrawlConfig, Scope
from pagesift_ui.session.scope import in_scope
from pagesift_ui.session.state import FrontierState, SetAside, signal_of, stored_signal

__all__ = ["LinkTally", "Skip", "SkipReason", "enqueue_links", "refuse", "requeue", "tally_offer"]

logger = logging.getLogger(__name__)

#: At most this many example URLs per outcome are kept in a step record (counts are exact).
EXAMPLES_PER_OUTCOME = 50
#: The origins new to the crawl whose robots.txt one page's links may ask for; links to
#: further new origins are offered unchecked, and their fetch asks robots.txt as every fetch
#: does (it refuses what the file disallows). Each robots.txt may take a whole
#: ``fetch_deadline_s``: a page linking 25 hosts whose files came slowly took a step of
#: 62.6 s under a 3 s deadline, and one of 2,000 such links hours (docs/FAULTS.md).
NEW_ROBOTS_ORIGINS_PER_PAGE = 1


class SkipReason(enum.StrEnum):
    """Why a page's link was not offered to the queue (in the order of docs/DESIGN.md §11.11).

    The value is the words a step record shows; ``URL_HYGIENE`` and ``ROBOTS_UNCHECKED``
    carry their detail in ``Skip.detail``.
    """

    NOT_HTTP = "not an http(s) URL"
    NOFOLLOW = "nofollow"
    OUT_OF_SCOPE = "out of scope"
    URL_HYGIENE = "url hygiene"  # frontier ``skip(url)``: binary file, loop, too deep, too long
    DRY_SUBTREE = "dry subtree"
    ROBOTS_UNCHECKED = "robots.txt could not be checked"
    ROBOTS_DISALLOWED = "disallowed by robots.txt"
    #: its origin may not be asked at all (another loopback port, a private address; the
    #: detail says which rule): its robots.txt could not be read for that reason
    NETWORK_POLICY = "refused by the network policy"
    QUEUE_FULL = "queue full"  # offered, but not above the worst queued link
    COPY = "another language's copy of a fetched page"  # an hreflang alternate
    #: a fetched page's URL plus a query pair learned to make copies (frontier/copyparams.py)
    COPY_PARAMETER = "a copy of a fetched page by a learned parameter"


#: How a step record's ``links.skipped_by_reason`` names a link a learned copy pair left:
#: this, then the pair (``Skip.text``).
COPY_PARAMETER_SKIP = f"{SkipReason.COPY_PARAMETER.value}: "


def copy_skips(links: Mapping[str, Any]) -> dict[str, int]:
    """Of a step record's ``links``: the links learned copy pairs left, by pair
    (``name=value``)."""
    return {reason.removeprefix(COPY_PARAMETER_SKIP): count
            for reason, count in links.get("skipped_by_reason", {}).items()
            if reason.startswith(COPY_PARAMETER_SKIP)}


#: The words of a rejection by a full queue, in a record's ``rejected`` examples.
QUEUE_FULL_TEXT = "queue full and the score is not above the worst queued"


@dataclass(frozen=True, slots=True)
class Skip:
    """One refusal: its reason and, for some reasons, what exactly went wrong."""

    reason: SkipReason
    detail: str = ""

    @property
    def text(self) -> str:
        """The words a step record keeps (``docs/SESSION_FORMAT.md``, ``links``)."""
        if self.reason is SkipReason.URL_HYGIENE:
            return self.detail
        if self.reason in (SkipReason.ROBOTS_UNCHECKED, SkipReason.COPY_PARAMETER,
                           SkipReason.NETWORK_POLICY):
            return f"{self.reason.value}: {self.detail}"
        return self.reason.value


@dataclass(slots=True)
class LinkTally:
    """What happened to a page's links, for the step record.

    ``not_considered`` counts the links after the first ``max_links_per_page`` of the page,
    in document order: found, but not cleaned, checked or scored.
    """

    found: int = 0
    not_considered: int = 0
    queued: int = 0
    requeued: int = 0
    # links set aside in subtrees the page's statistics found no longer dry, queued again
    # before the page's links were offered (ahead.unpark)
    unparked: int = 0
    evicted: list[str] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)  # offered to a full queue, refused
    skipped: list[tuple[str, Skip]] = field(default_factory=list)  # the first examples
    reasons: Counter[str] = field(default_factory=Counter)  # Skip.text → links

    def skip(self, url: str, skip: Skip) -> None:
        self.reasons[skip.text] += 1
        if len(self.skipped) < EXAMPLES_PER_OUTCOME:
            self.skipped.append((url, skip))

    def reject(self, url: str) -> None:
        self.reasons[SkipReason.QUEUE_FULL.value] += 1
        self.rejected.append(url)

    def to_dict(self) -> dict[str, Any]:
        """The record's ``links``; ``not_considered`` only when the cap applied and
        ``unparked`` only when some came back, so records of earlier versions (which never
        capped nor set aside a page's links) replay to the same dict."""
        capped = {"not_considered": self.not_considered} if self.not_considered else {}
        back = {"unparked": self.unparked} if self.unparked else {}
        return {
            **capped,
            **back,
            "found": self.found,
            "queued": self.queued,
            "requeued": self.requeued,
            "evicted": list(self.evicted[:EXAMPLES_PER_OUTCOME]),
            "evicted_count": len(self.evicted),
            "rejected": [[url, QUEUE_FULL_TEXT] for url in self.rejected[:EXAMPLES_PER_OUTCOME]],
            "rejected_count": len(self.rejected),
            "skipped": [[url, skip.text] for url, skip in self.skipped],
            "skipped_by_reason": dict(sorted(self.reasons.items())),
        }


def _head(markdown: str, links: int) -> str:
    """The start of a page's Markdown that holds the contexts of its first ``links`` links.

    It ends on the line of the ``2 × links``-th link or image (``](``; twice as many for the
    images and the navigation links the Markdown leaves out), at most the longest URL and
    ``CONTEXT_BYTES`` after it: that link keeps its context window.
    ``link_contexts`` costs at least the whole Markdown: a page of 150,000 links on one line
    took 147 s there alone.
    """
    position = 0
    for _ in range(2 * links):
        found = markdown.find("](", position)
        if found < 0:
            return markdown
        position = found + 2
    line_end = markdown.find("\n", position)
    end = len(markdown) if line_end < 0 else line_end
    return markdown[: min(end, position + MAX_URL_LENGTH + CONTEXT_BYTES)]


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
    robots_allows: Callable[[str], bool],
    language: Language | None = None,
) -> LinkTally:
    """Offer the page's links to the queue, which keeps up to ``config.max_queued_links``.

    ``depth`` is the page's shortest known click depth; its links are offered at
    ``depth + 1``, and a link already queued deeper, or a fetched page reached deeper, moves
    up (``ClickDepths``; docs/DESIGN.md §9). Each link joins the sibling group of its list
    block on this page (``siblings.py``). The links' words are read in ``language``, the
    page's (None: the query's; docs/DESIGN.md §1.1).

    Only the first ``config.max_links_per_page`` links are considered: every link costs a
    cleaning, a robots check and a score (a 150,000-link page took minutes), and a page's
    first links are the ones its author put first.
    """
    considered = links[: config.max_links_per_page]
    tally = LinkTally(found=len(links), not_considered=len(links) - len(considered))
    markdown = page.markdown if not tally.not_considered else _head(page.markdown, len(considered))
    # the contexts of the links the loop may score, and no others (link_contexts was a tenth
    # of a step after extraction, and 43% of its lines hold only links never scored; issue 15)
    contexts = link_contexts(markdown, _may_score(state, config, considered))
    blocks, titles = list_blocks_titled(markdown)
    # the titles the query names in full, by block (siblings.title_named): once a page
    named = state.focus.named_titles(titles, language)
    hub = state.focus.is_hub(page.word_count, len(links))
    seed_host = config.seed_host
    parent = dedupe_key(clean(page.url))
    _note_copies(state, page, tally)
    popularity = state.focus.popularity
    popularity.page_read(relevance, parent)
    new_origins = NewOrigins(NEW_ROBOTS_ORIGINS_PER_PAGE)
    # the weights do not move during the loop (only the sibling credits and popularity,
    # which the scorer reads per link): read once (issue 15)
    score_of = state.link_scorer()
    # the page's link texts by meaning, read together so the first are not read against a
    # median of themselves alone (docs/DESIGN.md §8.2)
    lifts = state.focus.link_lifts(
        (anchor_and_title(anchor, context) for pairs in contexts.values()
         for anchor, context in pairs), language)
    for link in considered:
        try:
            url = clean(link.url)
        except ValueError:
            tally.skip(link.url, Skip(SkipReason.NOT_HTTP))
            continue
        copy = state.copy_params.original(url)
        if copy is not None:  # the link stands for the page it copies (copyparams.py)
            if dedupe_key(copy[0]) in state.fetched_keys:
                tally.skip(url, Skip(SkipReason.COPY_PARAMETER, copy[1]))
                state.copies_left += 1
                continue
            url = copy[0]
        key = dedupe_key(url)
        block = blocks.get(link.url, NO_GROUP)  # the link's list block on this page
        if key in state.fetched_keys:
            state.depths.linked(parent, key)
            _shorten(state, key, depth + 1, score_of)
            if key != parent:  # a fetched entry of this page's lists credits them (siblings.py)
                state.focus.siblings.group(parent, block, key, named.get(block, ""))
            continue  # the ordinary case of navigation links: not worth a row
        queued = state.queue.queued(key)  # (depth, score, signal): no Entry built
        # a queued link passed every check when it was queued: only its score may change
        refusal = None if queued else _refusal(state, link, url, config, robots_allows,
                                                new_origins)
        # a link of a dry subtree is set aside, not lost, if robots.txt would let it be
        # queued (ahead.park); its record counts it as refused for the dry subtree
        set_aside = refusal is not None and refusal.reason is SkipReason.DRY_SUBTREE and (
            not config.respect_robots
            or _robots_refusal(state, url, robots_allows, new_origins) is None)
        if refusal is not None:
            tally.skip(url, refusal)
            if not set_aside:
                continue
        state.depths.linked(parent, key)
        group = state.focus.siblings.group(parent, block, key, named.get(block, ""))
        target = popularity.linked(parent, key)
        state.focus.families.target(target, key)
        link_depth = depth + 1 if queued is None else min(queued[0], depth + 1)
        # a link of the main content outside every list block is in running text: a
        # citation (links.CITATION_FACTOR; docs/DESIGN.md §8)
        context = _context_of(link, contexts)
        signal = state.focus.link_signal(
            url, link.anchor, context, link_depth, relevance, hub, seed_host, group, target,
            language, link.in_main and block == NO_GROUP, parent,
            lifts.get(anchor_and_title(link.anchor, context), 0.0) if lifts else 0.0,
        )
        if set_aside:
            park(state, subtree(seed_host, url),
                 SetAside(key, url, link_depth, score_of(signal), signal),
                 config.max_queued_links)
            continue
        if queued is not None:
            stored = stored_signal(key, queued[2])
            # the seed, queued again, has no offers; breadth-first ranks by discovery alone
            # and never reads them (FrontierState.take_best_offers)
            if stored is not None and not state.breadth_first:
                state.offers.offer(key, signal, stored)
            requeue(state, key, queued[0], queued[1], stored, signal, score_of)
            tally.requeued += 1
            continue
        score = score_of(signal)
        outcome, evicted = state.queue.offer(
            key, url, link_depth, score, signal, config.max_queued_links
        )
        tally_offer(tally, url, outcome, evicted)
    # each link met again is ranked by the best of its offers as they score now, not by the
    # one that won when they met (frontier/offers.py; docs/DESIGN.md §11.11, step 5)
    state.take_best_offers()
    return tally


def _may_score(state: FrontierState, config: CrawlConfig, links: Sequence[Link]) -> set[str]:
    """The URLs of the ``links`` that ``enqueue_links`` may score: not fetched, and queued
    or not refused by a check that does not ask robots.txt. During the loop none of these
    answers turns from no to yes: a link queued in it passed the checks, the page's copies
    (noted before it) only add refusals, one evicted in it is refused by the checks."""
    seed_host, scope = config.seed_host, config.scope  # a property that splits the URL
    fetched, queue = state.fetched_keys, state.queue
    wanted: set[str] = set()
    for link in links:
        try:
            url = clean(link.url)
        except ValueError:
            continue  # not an http(s) URL: skipped, never scored
        copy = state.copy_params.original(url)
        if copy is not None:  # as enqueue_links reads it
            url = copy[0]
        key = dedupe_key(url)
        if key in fetched:
            continue
        if key in queue:
            wanted.add(link.url)
            continue
        refusal = _refusal_before_robots(state, url, seed_host, scope)
        if refusal is None or refusal.reason is SkipReason.DRY_SUBTREE:  # set aside
            wanted.add(link.url)
    return wanted


def _note_copies(state: FrontierState, page: Page, tally: LinkTally) -> None:
    """The page's hreflang alternates are copies of it: never fetched as pages of their own,
    and dropped from the queue if they are in it (issue 11, mechanism 7). Except the English
    copies under an English query: those are the pages it wants, whatever language the page
    that names them is in (a German home's English alternate; docs/DESIGN.md §8.3)."""
    english_query = state.focus.english_query
    for lang, href in page.alternates:
        if english_query and lang.lower().startswith("en"):
            continue
        try:
            url = clean(href)
        except ValueError:
            continue
        key = dedupe_key(url)
        if key in state.fetched_keys or key in state.copies:
            continue
        state.copies[key] = page.url
        if state.queue.drop(key) is not None:
            tally.skip(url, Skip(SkipReason.COPY))


def learn_copies(state: FrontierState, url: str, copy_of: str) -> list[tuple[str, Skip]]:
    """A page was fetched at ``url``: a copy of ``copy_of`` (the page whose text it repeats,
    or the URL its canonical link names), or a page of its own (""). If that teaches a query
    pair that makes copies, the queued links carrying it whose page is fetched or queued
    are dropped, for they would fetch it again (``frontier/copyparams.py``): returned, each
    with its skip, for the step record's ``links``."""
    try:
        url = clean(url)
        copy_of = clean(copy_of) if copy_of else ""
    except ValueError:
        return []  # a canonical link that is not a crawlable URL says nothing
    if copy_of and dedupe_key(copy_of) == dedupe_key(url):
        copy_of = ""  # a page that names itself canonical is a page of its own
    if not state.copy_params.fetched(url, copy_of):
        return []
    # each queued URL is asked once; the copies' originals are kept for the few that are
    originals: dict[str, tuple[str, str]] = {}

    def carries_a_pair(queued: str) -> bool:
        copy = state.copy_params.original(queued)
        if copy is not None:
            originals[queued] = copy
        return copy is not None

    dropped = []
    for entry in state.queue.entries_where(carries_a_pair):
        copy = originals[entry.url]
        original = dedupe_key(copy[0])
        if original in state.fetched_keys or original in state.queue:
            state.queue.drop(entry.key)
            dropped.append((entry.url, Skip(SkipReason.COPY_PARAMETER, copy[1])))
    state.copies_left += len(dropped)
    logger.info("learned a pair that makes copies: %d queued copies dropped", len(dropped))
    return dropped


def requeue(
    state: FrontierState,
    key: str,
    depth: int,
    score: float,
    old: LinkSignal | None,
    new: LinkSignal,
    score_of: Callable[[LinkSignal], float] | None = None,
) -> None:
    """A queued link met again: keep the better-scoring of its old and new signals, both at
    the shorter of the two depths (docs/DESIGN.md §9). The seed (no signal) keeps its place.
    ``score_of``: ``state.link_scorer()`` of the caller's page (default ``state.link_score``)."""
    if old is None:
        return
    if score_of is None:
        score_of = state.link_score
    if old.depth > new.depth:
        old = replace(old, depth=new.depth)
        score = score_of(old)
    new_score = score_of(new)
    best, best_score = (new, new_score) if new_score > score else (old, score)
    if best is not old or best.depth != depth:
        state.queue.update(key, best.depth, best_score, best)


def _shorten(
    state: FrontierState, key: str, depth: int, score_of: Callable[[LinkSignal], float]
) -> None:
    """A shorter path to the fetched page ``key``: move up the queued links below it."""
    for child, child_depth in state.depths.shorten(key, depth).items():
        entry = state.queue.get(child)
        signal = None if entry is None else signal_of(entry)
        if entry is not None and signal is not None and child_depth < entry.depth:
            moved = replace(signal, depth=child_depth)
            state.queue.update(child, child_depth, score_of(moved), moved)


class NewOrigins:
    """How many more origins new to the crawl one page's (or one sitemap harvest's) links
    may ask robots.txt of (``NEW_ROBOTS_ORIGINS_PER_PAGE``)."""

    __slots__ = ("left",)

    def __init__(self, left: int) -> None:
        self.left = left

    def take(self) -> bool:
        """True, counting one, while some are left."""
        if self.left <= 0:
            return False
        self.left -= 1
        return True


def _refusal(
    state: FrontierState,
    link: Link,
    url: str,
    config: CrawlConfig,
    robots_allows: Callable[[str], bool],
    new_origins: NewOrigins,
) -> Skip | None:
    """Why a link not yet queued is refused, or None to offer it."""
    if link.nofollow:
        return Skip(SkipReason.NOFOLLOW)
    return refuse(state, url, config, robots_allows, new_origins)


def refuse(
    state: FrontierState,
    url: str,
    config: CrawlConfig,
    robots_allows: Callable[[str], bool],
    new_origins: NewOrigins,
) -> Skip | None:
    """Why a cleaned URL not yet queued may not be offered (a copy, out of scope, URL
    hygiene, a dry subtree, robots.txt), or None: the checks every candidate passes, a
    page's link or a sitemap's (docs/DESIGN.md §11.11, §11.13). robots.txt is asked of at
    most ``new_origins`` origins the crawl has not asked before; a URL of another new
    origin is offered unchecked (its fetch asks)."""
    refusal = _refusal_before_robots(state, url, config.seed_host, config.scope)
    if refusal is None and config.respect_robots:
        return _robots_refusal(state, url, robots_allows, new_origins)
    return refusal


def _refusal_before_robots(
    state: FrontierState, url: str, seed_host: str, scope: Scope
) -> Skip | None:
    """``refuse``'s checks that do not ask robots.txt, in its order: a copy, out of scope,
    URL hygiene, a dry subtree."""
    if dedupe_key(url) in state.copies:
        return Skip(SkipReason.COPY)
    # a URL over MAX_URL_LENGTH is refused (URL hygiene) without entering the cache, which
    # is bounded in entries, not bytes (docs/FAULTS.md: 2 KB links by the thousand)
    refusal = (_url_refusal(url, seed_host, scope) if len(url) <= MAX_URL_LENGTH
               else _url_refusal.__wrapped__(url, seed_host, scope))
    if refusal is not None:
        return refusal
    if state.is_dry(subtree(seed_host, url)):
        return Skip(SkipReason.DRY_SUBTREE)
    return None


def robots_origin(url: str) -> Origin | None:
    """The origin whose robots.txt answers for ``url`` (RFC 9309 §2.3), or None for a URL
    with none (a port out of range: its robots check or fetch says why)."""
    try:
        return Origin.of(url)
    except ValueError:
        return None


@lru_cache(maxsize=URL_CACHE_SIZE)
def _url_refusal(url: str, seed_host: str, scope: Scope) -> Skip | None:
    """The refusals of ``refuse`` that depend on the URL alone, in its order: out of scope,
    then URL hygiene. Cached and bounded like ``urls``' caches: every page repeats its
    site's links to other sites (a ``refuse`` cost ~15 µs, 5,000 a crawl of 120 pages)."""
    if not in_scope(url, seed_host, scope):
        return Skip(SkipReason.OUT_OF_SCOPE)
    trap = skip(url)
    if trap:
        return Skip(SkipReason.URL_HYGIENE, trap)
    return None


def _robots_refusal(
    state: FrontierState, url: str, robots_allows: Callable[[str], bool],
    new_origins: NewOrigins,
) -> Skip | None:
    """Ask robots.txt once per URL: pages repeat their navigation, and a 2,000-link index page
    asked anew for every link cost seconds per step (and filled recordings with answers)."""
    allowed = state.robots_answers.get(url)
    if allowed is None:
        origin = robots_origin(url)
        if origin is not None and origin not in state.robots_origins:
            if not new_origins.take():
                return None  # offered unchecked: its fetch asks robots.txt
            state.robots_origins.add(origin)
        try:
            allowed = robots_allows(url)
        except BlockedByPolicy as exc:
            return Skip(SkipReason.NETWORK_POLICY, exc.message)
        except FetchError as exc:
            return Skip(SkipReason.ROBOTS_UNCHECKED, exc.message)
        state.robots_answers[url] = allowed
    return None if allowed else Skip(SkipReason.ROBOTS_DISALLOWED)


def tally_offer(
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
        # docs/DESIGN.md §9: the evicted link is forgotten (nothing remembers it), so it may
        # come back
        tally.queued += 1
        if evicted is not None:
            tally.evicted.append(evicted)
    else:
        tally.reject(url)
