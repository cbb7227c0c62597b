"""The pure parts of one crawl step (docs/DESIGN.md §11), over explicit inputs.

Each function reads (and, where its name says so, updates) the ``FrontierState`` it is given;
none of them knows the session, its page source or its sinks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pagesift_ui.frontier.adaptive import EVIDENCE_RELEVANCE, MIN_RELEVANCE, StopReason
from pagesift_ui.frontier.harvest import subtree
from pagesift_ui.frontier.leads import LEAD_LINKS, Lead, lead_score
from pagesift_ui.frontier.queue import Entry, cluster_key
from pagesift_ui.frontier.relevance import PageSignal
from pagesift_ui.frontier.urls import text_fingerprints
from pagesift_ui.page.extract import Page
from pagesift_ui.session.ahead import park
from pagesift_ui.session.config import CrawlConfig
from pagesift_ui.session.record import Verdict, VerdictFate
from pagesift_ui.session.rules import NO_STOP_WHY, evidence_markdown
from pagesift_ui.session.state import FrontierState, SetAside, signal_of
from pagesift_ui.session.stepbuild import StepFacts

__all__ = [
    "ending",
    "has_fetchable",
    "judge",
    "next_entry",
    "observe_page",
    "pending_lead",
    "record_text",
    "relevant_count",
]


def next_entry(
    state: FrontierState, seed_host: str, dropped: list[str], room: int
) -> Entry | None:
    """§11.2: pop with the dispersion rule; links of dry subtrees are set aside (their URLs
    appended to ``dropped``; ``ahead.park`` with the queue's ``room``) and the pop repeats.
    None: the queue is empty. With the thompson strategy the queue is first ranked with a
    fresh posterior draw."""
    state.resample()
    while True:
        entry = state.queue.pop_diverse(
            state.scheduled_by_cluster,
            state.dispersion_cap(),
            state.is_proven,
            demoted_templates=state.demoted_templates(),
        )
        if entry is None:
            return entry
        part = subtree(seed_host, entry.url)
        if not state.is_dry(part):
            return entry
        dropped.append(entry.url)
        park(state, part, SetAside(entry.key, entry.url, entry.depth, entry.score,
                                   signal_of(entry)), room)


def record_text(state: FrontierState, url: str, text: str) -> str:
    """§11.5: count the page in the template statistics and remember its text.

    Returns the URL of an earlier page with the same text, or nearly the same
    (``frontier/neardup.py``), "" when the text is new: the page is then a duplicate, and its
    text is not remembered again.
    """
    prints = text_fingerprints(text)
    first = state.text_seen.get(prints.exact) or state.text_seen.get(prints.digitless)
    if first is None:
        first = state.near_duplicates.check(url, text)[0] or None
    state.templates.observe(url, first is not None)
    if first is not None:
        return first
    state.text_seen.setdefault(prints.exact, url)
    state.text_seen.setdefault(prints.digitless, url)
    return ""


def observe_page(
    state: FrontierState, config: CrawlConfig, facts: StepFacts, page: Page
) -> tuple[PageSignal, StopReason | None]:
    """§11.6-11.9 for an HTML page that is not a duplicate: relevance, the adaptive
    observation, both harvests and the link model; what they say goes into ``facts``. The
    queue is left to rescore (``focus.needs_rescore()``): the caller's next step. Returns the
    page's signal and the stop verdict that fired, if any."""
    # the page is read in its own language (docs/DESIGN.md §1.1): its relevance, evidence
    # and links; the replays of the stop rules find it again from the record (rules.py)
    language = state.focus.page_language(page.lang, page.markdown)
    facts.language = language
    page_signal = state.focus.page_signal(facts.url, page.title, page.headings, page.text,
                                          language)
    state.focus.observe_page(page_signal, lang=page.lang)
    # one pass over the active units gives both the number and its explanation (the
    # collocation tests behind them were a tenth of a step, done twice; issue 15)
    explanation = state.focus.explain_relevance(page_signal)
    relevance = explanation.relevance
    facts.relevance = relevance
    facts.relevance_detail = explanation.to_dict()
    before = state.adaptive.evidence
    signal = signal_of(facts.entry)
    blind = bool(signal is not None and signal.blind)
    # link destinations, and blocks that are only links, are not content (session/rules.py).
    # The rules read the Markdown only of a page relevant enough for evidence
    # (Adaptive.observe): below that it is not rewritten (a third of a raw parse a step, on
    # two steps in three; issue 15)
    markdown = (evidence_markdown(page.markdown, config.link_blocks_as_evidence)
                if relevance >= EVIDENCE_RELEVANCE else "")
    reason = state.adaptive.observe(state.query, markdown, relevance, blind, language)
    facts.evidence_added = tuple(
        a - b for a, b in zip(state.adaptive.evidence, before, strict=True)
    )
    hit = state.adaptive.last_fresh
    state.subtrees.observe(facts.subtree(config.seed_host), hit)
    state.clusters.observe(cluster_key(facts.url), hit)
    if signal is not None:
        # prequential evaluation: the model's prediction for this link before it learns it
        facts.predicted, facts.prior_predicted = state.focus.predict(signal)
        facts.model_changed = state.focus.learn(signal, relevance >= MIN_RELEVANCE)
    # no rescore here: the caller credits the page's sibling groups next and rescores once
    # for both (nothing reads a queued score in between; issue 15: a rescore is the
    # costliest queue operation of a step)
    return page_signal, reason


def judge(
    state: FrontierState, config: CrawlConfig, facts: StepFacts, reason: StopReason,
    lead: Lead,
) -> Verdict:
    """§11.10: a verdict stands unless a lead is still queued (``frontier/leads.py``), or
    it is the first ``saturated`` verdict on a single source (``LeadBar.one_source_grace``),
    or a ``saturated`` verdict on too few of the query's terms (``thin_evidence``), or
    relevant pages still come (``LeadBar.still_finding``).

    ``lead`` is ``pending_lead`` of this step (asked of every observed page, so the
    records say where a verdict would have been forgiven, and why). Forgives in
    ``state.adaptive`` what is forgiven, writes the verdict and its fate into ``facts`` and
    returns it; the caller remembers the first one that was not forgiven automatically.
    """
    adaptive = state.adaptive
    facts.verdict = reason
    facts.verdict_stale, facts.verdict_cold = adaptive.stale, adaptive.cold
    forgiven, why = lead.pending, lead.why
    if not forgiven and config.forgive_leads:
        # a saturated verdict on one source is forgiven once, one on a handful of the
        # query's terms always, any while relevant pages still come (frontier/leads.py)
        grace = state.leads.grace(reason, adaptive.sources, adaptive.evidence)
        if grace:
            forgiven, why = True, f"{lead.why}; but {grace}"
    if forgiven:
        adaptive.forgive()
        facts.forgiven, facts.forgiven_why = True, why
        facts.verdict_fate = VerdictFate.AUTO_FORGIVEN
    elif not config.stop_on_verdict:
        adaptive.forgive()
        adaptive.reset_cold()
        facts.forgiven, facts.forgiven_why = True, NO_STOP_WHY
        facts.verdict_fate = VerdictFate.NO_STOP
    else:
        facts.stopped = True
        facts.verdict_fate = VerdictFate.STOPPED
    return Verdict(facts.step, reason, facts.verdict_fate, why)


def ending(
    state: FrontierState, limit: int, pages_scheduled: int, in_flight: int = 0
) -> StopReason | None:
    """§11.1: the budget's (``limit`` pages) or the queue's end after a step, or None to go
    on. A queue that is empty while ``in_flight`` pages are being fetched (§11.14) has not
    ended."""
    if pages_scheduled >= limit:
        return StopReason.LIMIT_REACHED
    if not in_flight and not has_fetchable(state):
        return StopReason.EXHAUSTED
    return None


def pending_lead(
    state: FrontierState, seed_host: str, ahead: Sequence[Entry] = (),
    reason: StopReason | None = None,
) -> Lead:
    """§11.10: are the next ``LEAD_LINKS`` links to fetch outside dry subtrees a lead, by
    their mean score (``frontier/leads.py``, ``lead_score``)? The answer says why, with
    numbers, whichever way it goes. ``ahead`` are the links popped and in flight (§11.14),
    oldest first: the crawl takes them before the queue's, which come in ``top``'s order.
    ``reason``: this step's verdict, if any (a covered query's verdict is judged against the
    bar of links that brought new evidence)."""
    outside = [e for e in ahead if not state.is_dry(subtree(seed_host, e.url))]
    if len(outside) < LEAD_LINKS:
        outside += _next_outside(state, seed_host, LEAD_LINKS - len(outside))
    if not outside:
        return state.leads.judge(None, "")
    return state.leads.judge(lead_score([e.score for e in outside]), outside[0].url, reason)


def _next_outside(state: FrontierState, seed_host: str, n: int) -> list[Entry]:
    """The next ``n`` queued links in pop order (``BestFirst.top``: pins, then by score,
    demoted templates last) outside dry subtrees."""
    demoted, asked = state.demoted_templates(), n
    while True:
        entries = state.queue.top(asked, demoted)
        outside = [e for e in entries if not state.is_dry(subtree(seed_host, e.url))]
        if len(outside) >= n or len(entries) < asked:
            return outside[:n]
        asked *= 4


def has_fetchable(state: FrontierState) -> bool:
    """§11.1: some queued link is outside a dry subtree (the queue's parts are the
    subtrees, ``FrontierState.from_config``)."""
    return state.queue.first_outside(state.is_dry) is not None


def relevant_count(relevant_urls: set[str], labels: Mapping[str, bool]) -> int:
    """Pages at or above EVIDENCE_RELEVANCE, after the user's labels."""
    labelled = {url for url, label in labels.items() if label}
    unlabelled = {url for url, label in labels.items() if not label}
    return len((relevant_urls - unlabelled) | labelled)
