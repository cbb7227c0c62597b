"""Adaptive stop (seed ``adaptive.rs``, docs/DESIGN.md §4).

Stop when every query term has enough evidence, or when several pages in a row bring nothing
new; also stop when nothing relevant was found and only clue-less links remain (see
``Adaptive.observe``). Evidence is taken only from pages whose relevance passes
``EVIDENCE_RELEVANCE``: a news page mentioning "students" once is not evidence, otherwise a
12-page budget would reach "covered" on junk.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from pagesift_ui.frontier.checks import is_count as _is_count
from pagesift_ui.frontier.checks import is_number as _is_number
from pagesift_ui.frontier.language import Language
from pagesift_ui.frontier.query import Query
from pagesift_ui.frontier.tokens import block_hash, blocks, estimate_tokens

__all__ = [
    "COLD_PATIENCE",
    "EVIDENCE_RELEVANCE",
    "MIN_RELEVANCE",
    "MIN_SOURCES",
    "Adaptive",
    "AdaptiveOptions",
    "StopReason",
    "covered_stale_limit",
]

#: Below this relevance a page is irrelevant: it adds no evidence, and once something was found
#: a run of such pages means the relevant part is done. Upstream recalibrated 0.12 → 0.05 on
#: 1,833 hand-judged pages when moving to facet relevance (the kept share of useful pages stayed
#: ~90%).
MIN_RELEVANCE = 0.05
#: Only pages at or above this relevance contribute evidence and take part in "anything new?";
#: pages between the two thresholds count for nothing either way (0.3 → 0.15, ~52% kept).
EVIDENCE_RELEVANCE = 0.15
#: With nothing found yet, give up after this many × patience blind irrelevant pages in a row.
#: Upstream simulated 69 universities × 5 topics at limit 100: 2× (10 pages by default) saved
#: about a quarter of the pages and lost under 5% of useful ones.
COLD_PATIENCE = 2
#: "Covered" needs evidence from at least this many pages: a single overview page can mention
#: every term enough times (upstream: a "housing and dining" page stopped a crawl at page 2).
MIN_SOURCES = 2


class StopReason(enum.StrEnum):
    """Why a crawl stopped (or would stop)."""

    COVERAGE_REACHED = "coverage_reached"
    SATURATED = "saturated"
    NO_RELEVANT_PAGES = "no_relevant_pages"
    LIMIT_REACHED = "limit_reached"
    EXHAUSTED = "exhausted"
    CANCELLED = "cancelled"


def covered_stale_limit(patience: int) -> int:
    """The stale pages that end a covered query: half the patience, rounded up, at least 1
    (the seed's ``adaptive.rs``; the tiles, the log and the charts show the same number)."""
    return max(math.ceil(patience / 2), 1)


@dataclass(frozen=True, slots=True)
class AdaptiveOptions:
    """Settings of the adaptive stop rules (defaults are docs/DESIGN.md §4's [ours] values)."""

    coverage_threshold: float = 1.0
    evidence_per_term: int = 3
    patience: int = 5
    min_gain: float = 0.05

    def __post_init__(self) -> None:
        if not _is_number(self.coverage_threshold) or not 0.0 < self.coverage_threshold <= 1.0:
            raise ValueError(
                f"coverage_threshold must be in (0, 1], got {self.coverage_threshold!r}"
            )
        if not _is_number(self.min_gain) or not 0.0 <= self.min_gain <= 1.0:
            raise ValueError(f"min_gain must be in [0, 1], got {self.min_gain!r}")
        if not _is_count(self.evidence_per_term) or self.evidence_per_term < 1:
            raise ValueError(
                f"evidence_per_term must be an integer >= 1, got {self.evidence_per_term!r}"
            )
        if not _is_count(self.patience) or self.patience < 1:
            raise ValueError(f"patience must be an integer >= 1, got {self.patience!r}")


class Adaptive:
    """State of the adaptive stop rules: evidence per term, relevant blocks seen, staleness."""

    __slots__ = (
        "_cold",
        "_collected",
        "_evidence",
        "_last_blocks",
        "_last_fresh",
        "_last_new",
        "_seen",
        "_sources",
        "_stale",
        "opts",
    )

    def __init__(self, opts: AdaptiveOptions, terms: int) -> None:
        if not isinstance(opts, AdaptiveOptions):
            raise ValueError(f"opts must be AdaptiveOptions, got {type(opts).__name__}")
        if not _is_count(terms) or terms < 0:
            raise ValueError(f"terms must be a non-negative integer, got {terms!r}")
        self.opts = opts
        self._evidence = [0] * terms
        # hashes of relevant blocks: the same block (navigation, footer, reprint) counts once
        self._seen: set[int] = set()
        self._collected = 0  # relevant content collected so far, in estimated tokens
        self._stale = 0  # pages in a row with nothing new
        self._cold = 0  # blind irrelevant pages in a row while nothing was found
        self._sources = 0  # pages that contributed new evidence
        self._last_fresh = False
        self._last_new = False  # the last page added a block not read before
        self._last_blocks: tuple[int, ...] = ()  # block indices counted by the last observe

    @property
    def evidence(self) -> list[int]:
        return list(self._evidence)

    @property
    def stale(self) -> int:
        return self._stale

    @property
    def cold(self) -> int:
        return self._cold

    @property
    def sources(self) -> int:
        return self._sources

    @property
    def collected(self) -> int:
        return self._collected

    @property
    def last_new(self) -> bool:
        """The page of the last ``observe`` read as evidence (relevance at or above
        ``EVIDENCE_RELEVANCE``) and added at least one on-topic block not read before, however
        small beside what was collected: ``last_fresh`` without the gain test. What a page
        proves about its lists reads this (``siblings.sibling_evidence``): the gain test
        measures the crawl's saturation, not the page."""
        return self._last_new

    @property
    def last_fresh(self) -> bool:
        """The page of the last ``observe`` brought new on-topic content (a harvest hit)."""
        return self._last_fresh

    @property
    def last_evidence_blocks(self) -> tuple[int, ...]:
        """Indices (into ``tokens.blocks(markdown)``) of the blocks the last ``observe`` counted
        as new evidence: the page inspector marks them."""
        return self._last_blocks

    def coverage(self) -> float:
        """Mean over terms of min(1, evidence / evidence_per_term); 0 with no terms."""
        if not self._evidence:
            return 0.0
        target = float(max(self.opts.evidence_per_term, 1))
        return sum(min(e / target, 1.0) for e in self._evidence) / len(self._evidence)

    def covered(self) -> bool:
        """Coverage reached the threshold with evidence from at least ``MIN_SOURCES`` pages."""
        return self.coverage() >= self.opts.coverage_threshold and self._sources >= MIN_SOURCES

    def forgive(self) -> None:
        """Reset the "nothing new" count: high-scoring links are still queued, so the few
        useless pages fetched first are no reason to stop."""
        self._stale = 0

    def reset_cold(self) -> None:
        """Reset the blind-page count (the user chose to continue past ``no_relevant_pages``;
        the seed's ``forgive`` only resets staleness, so this is separate)."""
        self._cold = 0

    def observe(
        self,
        query: Query,
        markdown: str,
        relevance: float,
        blind: bool,
        language: Language | None = None,
    ) -> StopReason | None:
        """Take one page's Markdown and relevance; return a stop reason when it is enough.

        The page's blocks are read in ``language`` (None: the query's; docs/DESIGN.md §1.1).

        ``blind`` says the page came through a clue-less link: the link itself had no query
        term, its score came only from a section floor. While nothing was found, irrelevant
        pages are not "nothing new" (portals and news clusters in front are normal), but
        2 × patience blind irrelevant pages in a row mean the site has no lead for the query:
        ``no_relevant_pages``. Links with clues keep the crawl going: content is deep, not
        absent.
        """
        self._last_fresh = False
        self._last_new = False
        self._last_blocks = ()
        if self._collected == 0:
            if blind and relevance < MIN_RELEVANCE:
                self._cold += 1
                if self._cold >= COLD_PATIENCE * max(self.opts.patience, 1):
                    return StopReason.NO_RELEVANT_PAGES
            else:
                self._cold = 0
        if relevance < MIN_RELEVANCE:
            # after a find, irrelevant pages in a row mean the relevant part is done
            if self._collected > 0:
                self._stale += 1
                return self._verdict()
            return None
        if relevance < EVIDENCE_RELEVANCE:
            return None
        fresh = self._take_blocks(query, markdown, language)
        self._collected += fresh
        self._sources += int(fresh > 0)
        self._last_new = fresh > 0
        gain = fresh / max(self._collected, 1)
        if gain < self.opts.min_gain or fresh == 0:
            self._stale += 1
        else:
            self._stale = 0
            self._last_fresh = True
        return self._verdict()

    def _take_blocks(self, query: Query, markdown: str, language: Language | None) -> int:
        """Count evidence from blocks never seen before; return their estimated tokens."""
        fresh = 0
        counted: list[int] = []
        for index, block in enumerate(blocks(markdown)):
            mask = query.hit_mask(block, language)
            if mask == 0:
                continue
            identity = block_hash(block)
            if identity in self._seen:
                continue
            self._seen.add(identity)
            for i in range(len(self._evidence)):
                if mask & (1 << i):
                    self._evidence[i] += 1
            fresh += max(estimate_tokens(block), 1)
            counted.append(index)
        self._last_blocks = tuple(counted)
        return fresh

    def _verdict(self) -> StopReason | None:
        """Stop or not, from coverage and the "nothing new" count.

        Covered is not an immediate stop: pages may still bring new relevant content (one
        library branch's opening hours after another), so stop after a run of stale pages half
        as long as the uncovered patience.
        """
        patience = max(self.opts.patience, 1)
        if self.covered() and self._stale >= covered_stale_limit(patience):
            return StopReason.COVERAGE_REACHED
        if self._stale >= patience:
            return StopReason.SATURATED
        return None
