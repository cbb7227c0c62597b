"""Assembling a ``StepRecord`` from what one step learned and the core's state after it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pagesift_ui.errors import FetchError, HTTPStatusError, UnsupportedContentType
from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.frontier.harvest import subtree
from pagesift_ui.frontier.language import Language
from pagesift_ui.frontier.queue import Entry, cluster_key
from pagesift_ui.net.fetcher import FetchResult
from pagesift_ui.page.extract import Page
from pagesift_ui.session.enqueue import LinkTally
from pagesift_ui.session.record import StepOutcome, StepRecord, VerdictFate
from pagesift_ui.session.state import FrontierState, part_stats, signal_of

__all__ = ["StepFacts", "build_record"]


@dataclass(slots=True)
class StepFacts:
    """What one step found out, filled in as the step goes."""

    step: int
    entry: Entry
    dropped: tuple[str, ...]
    result: FetchResult | None = None
    page: Page | None = None
    error: str | None = None
    error_kind: str | None = None
    failed_at: float = 0.0
    status: int | None = None
    content_type: str = ""
    duplicate_of: str = ""
    relevance: float | None = None
    relevance_detail: dict[str, Any] | None = None
    evidence_added: tuple[int, ...] = ()
    model_changed: bool = False
    rescored: bool = False
    verdict: StopReason | None = None
    verdict_fate: VerdictFate = VerdictFate.NONE
    verdict_stale: int = 0
    verdict_cold: int = 0
    link_explanation: dict[str, Any] | None = None
    forgiven: bool = False
    forgiven_why: str = ""
    stopped: bool = False
    links: LinkTally | None = None
    sitemap: dict[str, Any] | None = None  # step 1 with use_sitemaps: seeding.offer_sitemap_links
    politeness_note: str = ""
    lead_pending: bool | None = None  # §11.10 asked at this step (observed pages only)
    lead_why: str = ""  # §11.10's answer in words, with its numbers
    lead_head: float | None = None  # the score §11.10 judged: the next links' mean
    predicted: float | None = None  # prequential: before the model learned this page
    prior_predicted: float | None = None
    language: Language | None = None  # the language the page was read in (observed pages)

    @property
    def url(self) -> str:
        """The page's URL after redirects (the link's URL when the fetch failed)."""
        return self.result.final_url if self.result is not None else self.entry.url

    def subtree(self, seed_host: str) -> str:
        return subtree(seed_host, self.url)

    def fail(self, exc: FetchError) -> None:
        self.error, self.error_kind, self.failed_at = exc.message, exc.kind, exc.at
        self.politeness_note = exc.politeness_note
        if isinstance(exc, HTTPStatusError):
            self.status = exc.status
        if isinstance(exc, UnsupportedContentType):
            self.content_type = exc.content_type

    @property
    def outcome(self) -> StepOutcome:
        if self.error_kind == UnsupportedContentType.kind:
            return StepOutcome.SKIPPED
        if self.error is not None:
            return StepOutcome.ERROR
        if self.duplicate_of:
            return StepOutcome.DUPLICATE
        return StepOutcome.FETCHED


def _links(facts: StepFacts) -> dict[str, Any]:
    """The record's ``links``, with the sitemap seeding's account as ``links.sitemap`` at the
    step that seeded (docs/DESIGN.md §11.13)."""
    links = _page_links(facts)
    if facts.sitemap is not None:
        links["sitemap"] = facts.sitemap
    return links


def _page_links(facts: StepFacts) -> dict[str, Any]:
    """What became of the page's links. The ``<a>`` tags of a page too big to read whole
    (``Page.cut``) were found but never parsed: they count as found and not considered, like
    the links after ``max_links_per_page``, and ``page_cut`` says where reading stopped."""
    if facts.links is None:
        return LinkTally().to_dict()
    links = facts.links.to_dict()
    page = facts.page
    if page is None or not page.cut or page.nofollow:  # a nofollow page offers no link
        return links
    unread = page.links_not_read
    return {
        "not_considered": links.pop("not_considered", 0) + unread,
        "found": links.pop("found") + unread,
        **links,
        "page_cut": page.cut,
    }


def build_record(
    facts: StepFacts,
    state: FrontierState,
    *,
    seed_host: str,
    pages_scheduled: int,
    pages_fetched: int,
    relevant_pages: int,
    elapsed_ms: float,
) -> StepRecord:
    """The frozen record of a finished step: what it found out (``facts``), the core's
    ``state`` and the session's page counters after it, for a crawl from a seed on
    ``seed_host``."""
    adaptive, focus, model = state.adaptive, state.focus, state.focus.model
    part = facts.subtree(seed_host)
    observed = facts.relevance is not None
    page, result = facts.page, facts.result
    entry = facts.entry
    return StepRecord(
        step=facts.step,
        url=entry.url,
        final_url=facts.url,
        outcome=facts.outcome,
        status=result.status if result is not None else facts.status,
        error=facts.error,
        error_kind=facts.error_kind,
        content_type=result.content_type if result is not None else facts.content_type,
        depth=entry.depth,
        title=page.title if page is not None else "",
        lang=page.lang if page is not None else "",
        score=entry.score,
        link=facts.link_explanation,
        blind=bool((signal := signal_of(entry)) is not None and signal.blind),
        subtree=part,
        cluster=cluster_key(facts.url),
        relevance=facts.relevance,
        relevance_detail=facts.relevance_detail,
        fresh=observed and adaptive.last_fresh,
        evidence_added=facts.evidence_added or (0,) * len(state.query),
        evidence=tuple(adaptive.evidence),
        evidence_blocks=adaptive.last_evidence_blocks if observed else (),
        coverage=adaptive.coverage(),
        covered=adaptive.covered(),
        sources=adaptive.sources,
        stale=adaptive.stale,
        cold=adaptive.cold,
        verdict=facts.verdict,
        verdict_fate=facts.verdict_fate,
        verdict_stale=facts.verdict_stale,
        verdict_cold=facts.verdict_cold,
        forgiven=facts.forgiven,
        forgiven_why=facts.forgiven_why,
        stopped=facts.stopped,
        terms=tuple(state.query.terms),
        term_weights=tuple(focus.term_weights.weights),
        link_weights=model.weights,
        posterior_mean=model.posterior_mean,
        standard_error=model.standard_error,
        prior=model.prior,
        model_changed=facts.model_changed,
        rescored=facts.rescored,
        subtree_stats=part_stats(state.subtrees, part, state.forced(part))
        if observed
        else None,
        cluster_stats=part_stats(state.clusters, cluster_key(facts.url)) if observed else None,
        queue_length=len(state.queue),
        pages_scheduled=pages_scheduled,
        pages_fetched=pages_fetched,
        relevant_pages=relevant_pages,
        links=_links(facts),
        dropped_dry=facts.dropped,
        duplicate_of=facts.duplicate_of,
        markdown=page.markdown if page is not None and observed else "",
        elapsed_ms=round(elapsed_ms, 3),
        fetched_at=result.fetched_at if result is not None else facts.failed_at,
        lead_pending=facts.lead_pending,
        lead_why=facts.lead_why,
        lead_head=facts.lead_head,
        predicted=facts.predicted,
        prior_predicted=facts.prior_predicted,
        politeness_note=result.politeness_note if result is not None else facts.politeness_note,
        render=result.render.to_dict() if result is not None and result.render else None,
    )
