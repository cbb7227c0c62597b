"""``CrawlSession``: one ``step()`` runs one page through the frontier core (spec §11).

The session owns the only I/O object (a ``PageSource``, normally the ``Fetcher``); everything
it decides comes from the sans-IO core in ``FrontierState``. Each step returns a frozen
``StepRecord`` holding everything the UI needs to explain it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from typing import Protocol

from pagesift_ui.errors import FetchError, PagesiftError
from pagesift_ui.frontier.adaptive import EVIDENCE_RELEVANCE, MIN_RELEVANCE, StopReason
from pagesift_ui.frontier.harvest import subtree
from pagesift_ui.frontier.links import SECTION_FLOOR
from pagesift_ui.frontier.queue import Entry, cluster_key
from pagesift_ui.frontier.urls import clean, dedupe_key, text_fingerprints
from pagesift_ui.net.fetcher import Fetcher, FetchResult
from pagesift_ui.page.extract import Page, extract
from pagesift_ui.session.config import CrawlConfig
from pagesift_ui.session.enqueue import LinkTally, enqueue_links
from pagesift_ui.session.overrides import OverridesMixin
from pagesift_ui.session.record import StepRecord, VerdictFate
from pagesift_ui.session.state import FrontierState, signal_of
from pagesift_ui.session.stepbuild import StepFacts, build_record
from pagesift_ui.session.views import ViewsMixin

__all__ = ["CrawlSession", "PageSource", "SessionDone", "default_source"]

logger = logging.getLogger(__name__)

#: Score given to the seed link: it has no features and teaches the model nothing (spec §3).
SEED_SCORE = 1.0


class SessionDone(PagesiftError):
    """``step()`` was called on a session that has stopped; see ``stop_reason``."""


class PageSource(Protocol):
    """Where pages come from: the live ``Fetcher``, or a recording when replaying."""

    def fetch(self, url: str) -> FetchResult: ...

    def allowed_by_robots(self, url: str) -> bool: ...

    def close(self) -> None: ...


def default_source(config: CrawlConfig) -> Fetcher:
    """The live page source a config asks for: the one place a ``Fetcher`` is built."""
    return Fetcher(config.fetch_policy())


class CrawlSession(OverridesMixin, ViewsMixin):
    """A focused crawl stepped one page at a time.

    Attributes the caller reads: ``steps`` (the records so far), ``overrides``, ``done``,
    ``stop_reason`` (why it is stopped now, None while it can go on), ``stop_step`` and
    ``first_verdict`` (the first stop verdict that was not forgiven automatically, also with
    ``stop_on_verdict=False``), ``verdicts`` (every verdict: step, reason, what became of it).

    ``clock`` times each step for ``elapsed_ms`` (seconds, monotonic); a replay that must
    reproduce ``elapsed_ms`` too injects the same deterministic clock as the recording.
    """

    def __init__(
        self,
        config: CrawlConfig,
        source: PageSource | None = None,
        *,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.config = config
        self.state = FrontierState.from_config(config)
        self._source = source if source is not None else default_source(config)
        self._clock = clock
        self.steps: list[StepRecord] = []
        self._closed = False
        self.done = False
        self.stop_reason: StopReason | None = None
        self.stop_step: int | None = None
        self.first_verdict: StopReason | None = None
        self.verdicts: list[tuple[int, str, str]] = []
        self.pages_scheduled = 0
        self.pages_fetched = 0
        self._init_overrides()
        seed = clean(config.seed_url)
        self.state.queue.offer(dedupe_key(seed), seed, 0, SEED_SCORE, None, config.limit)

    # -- driving ------------------------------------------------------------------------

    def step(self) -> StepRecord:
        """Run exactly one page through the core and return its record.

        Raises ``SessionDone`` when the session has stopped (budget spent, queue exhausted, a
        stop verdict, or the user's stop); ``forgive()`` lifts a verdict's stop.
        """
        if self._closed:
            raise SessionDone("the session was closed; start a new one or resume it")
        if self.done:
            raise SessionDone(f"the crawl has stopped: {self.stop_reason}")
        started = self._clock()
        dropped: list[str] = []
        entry = self._next_entry(dropped)
        if entry is None:
            self._end(StopReason.EXHAUSTED, len(self.steps))
            raise SessionDone("the queue is empty: every reachable link was fetched or dropped")
        record = self._run_entry(entry, dropped, started)
        self.steps.append(record)
        return record

    def run(self, max_steps: int | None = None, until_stop: bool = True) -> list[StepRecord]:
        """Step until done, or ``max_steps`` records. ``until_stop=False`` forgives every
        stop verdict and goes on to the limit (like ``stop_on_verdict=False``)."""
        records: list[StepRecord] = []
        while not self.done and (max_steps is None or len(records) < max_steps):
            try:
                records.append(self.step())
            except SessionDone:
                break
            if self.done and not until_stop and self.stop_reason in _VERDICTS:
                self.forgive(note="run(until_stop=False)")
        return records

    def iter_steps(self) -> Iterator[StepRecord]:
        while not self.done:
            try:
                yield self.step()
            except SessionDone:
                return

    def set_source(self, source: PageSource) -> PageSource:
        """Take pages from ``source`` from the next step on (a resumed session goes live).

        Returns the previous source, which the caller closes; the session's state is untouched.
        """
        previous, self._source = self._source, source
        return previous

    def close(self) -> None:
        self._closed = True
        self._source.close()

    def __enter__(self) -> CrawlSession:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- one step -----------------------------------------------------------------------

    def _next_entry(self, dropped: list[str]) -> Entry | None:
        """Step 2: pop with the dispersion rule; links of dry subtrees are dropped."""
        state = self.state
        while True:
            entry = state.queue.pop_diverse(
                state.scheduled_by_cluster,
                state.dispersion_cap(),
                state.clusters.is_proven,
                demoted_templates=state.demoted_templates(),
            )
            if entry is None or not state.is_dry(subtree(self.config.seed_host, entry.url)):
                return entry
            dropped.append(entry.url)

    def _run_entry(self, entry: Entry, dropped: list[str], started: float) -> StepRecord:
        self.pages_scheduled += 1
        self.state.scheduled_by_cluster[cluster_key(entry.url)] += 1
        self.state.fetched_keys.add(entry.key)
        facts = StepFacts(step=len(self.steps) + 1, entry=entry, dropped=tuple(dropped))
        signal = signal_of(entry)
        if signal is not None:
            # explain with the weights the link was ranked under, before this page teaches
            facts.link_explanation = self.state.focus.explain(signal).to_dict()
        try:
            result = self._source.fetch(entry.url)
        except FetchError as exc:
            facts.fail(exc)
            return self._finish(facts, started)
        facts.result = result
        self.state.fetched_keys.add(dedupe_key(clean(result.final_url)))
        page = extract(result.body, result.final_url, encoding=result.encoding)
        facts.page = page
        if self._is_duplicate(facts, page):
            return self._finish(facts, started)
        self._observe_page(facts, page)
        return self._finish(facts, started)

    def _is_duplicate(self, facts: StepFacts, page: Page) -> bool:
        """Step 5: same text as an earlier page → a duplicate, refunded from the budget."""
        prints = text_fingerprints(page.text)
        url = facts.result.final_url if facts.result else facts.entry.url
        first = self.state.text_seen.get(prints.exact) or self.state.text_seen.get(prints.digitless)
        self.state.templates.observe(url, first is not None)
        if first is not None:
            facts.duplicate_of = first
            self.pages_scheduled -= 1  # spec §10: a duplicate does not count against the limit
            return True
        self.state.text_seen.setdefault(prints.exact, url)
        self.state.text_seen.setdefault(prints.digitless, url)
        return False

    def _observe_page(self, facts: StepFacts, page: Page) -> None:
        """Steps 6-11 for an HTML page that is not a duplicate."""
        state, entry = self.state, facts.entry
        self.pages_fetched += 1
        page_signal = state.focus.page_signal(facts.url, page.title, page.headings, page.text)
        state.focus.observe_page(page_signal, lang=page.lang)
        relevance = state.focus.relevance(page_signal)
        facts.relevance = relevance
        facts.relevance_detail = state.focus.explain_relevance(page_signal).to_dict()
        self._page_signals[facts.url] = page_signal
        before = state.adaptive.evidence
        signal = signal_of(entry)
        blind = bool(signal is not None and signal.blind)
        reason = state.adaptive.observe(state.query, page.markdown, relevance, blind)
        facts.evidence_added = tuple(
            a - b for a, b in zip(state.adaptive.evidence, before, strict=True)
        )
        hit = state.adaptive.last_fresh
        state.subtrees.observe(facts.subtree(self.config.seed_host), hit)
        state.clusters.observe(cluster_key(facts.url), hit)
        if signal is not None:
            self._link_signals[facts.url] = signal
            facts.model_changed = state.focus.learn(signal, relevance >= MIN_RELEVANCE)
        # needs_rescore() covers a model change too, and resets its flags: call it every time
        if state.focus.needs_rescore():
            facts.rescored = state.rescore()
        if relevance >= EVIDENCE_RELEVANCE:
            self._relevant_urls.add(facts.url)
        if reason is not None:
            self._judge(facts, reason)
        facts.links = self._enqueue(facts, page, relevance)

    def _enqueue(self, facts: StepFacts, page: Page, relevance: float) -> LinkTally:
        room = self.config.limit - self.pages_scheduled
        links = () if page.nofollow else page.links
        return enqueue_links(
            self.state, self.config, page, links, facts.entry.depth, relevance, room,
            self._source.allowed_by_robots,
        )

    def _judge(self, facts: StepFacts, reason: StopReason) -> None:
        """Step 10: a verdict stands unless a high-scoring, non-blind link is still queued."""
        adaptive = self.state.adaptive
        facts.verdict = reason
        facts.verdict_stale, facts.verdict_cold = adaptive.stale, adaptive.cold
        pending = self._pending_lead()
        if pending:
            adaptive.forgive()
            facts.forgiven, facts.forgiven_why = True, pending
            facts.verdict_fate = VerdictFate.AUTO_FORGIVEN
            self.verdicts.append((facts.step, reason.value, "forgiven: " + pending))
            return
        if self.stop_step is None:
            self.stop_step, self.first_verdict = facts.step, reason
        if not self.config.stop_on_verdict:
            adaptive.forgive()
            adaptive.reset_cold()
            facts.forgiven, facts.forgiven_why = True, "--no-stop: verdict recorded, crawl goes on"
            facts.verdict_fate = VerdictFate.NO_STOP
            self.verdicts.append((facts.step, reason.value, "recorded (no-stop)"))
            return
        facts.stopped = True
        facts.verdict_fate = VerdictFate.STOPPED
        self.verdicts.append((facts.step, reason.value, "stopped"))

    def _pending_lead(self) -> str:
        """Why to go on despite a verdict, or "" (spec §11 step 10 [ours]).

        The head of the queue must be a non-blind link scoring above the best blind one (or,
        with no blind link queued, above the section floor a blind link would get).
        """
        head: Entry | None = None
        best_blind = None
        for entry in self.state.queue.entries():
            if self.state.is_dry(subtree(self.config.seed_host, entry.url)):
                continue
            signal = signal_of(entry)
            blind = signal is None or signal.blind
            if head is None:
                head = entry
                if blind:
                    return ""
            elif blind:
                best_blind = entry.score
                break
        if head is None:
            return ""
        bar = SECTION_FLOOR if best_blind is None else best_blind
        if head.score <= bar:
            return ""
        return (
            f"a link with clues scoring {head.score:.3g} is still queued ({head.url}), above "
            f"the best blind link ({bar:.3g})"
        )

    def _finish(self, facts: StepFacts, started: float) -> StepRecord:
        if facts.stopped and facts.verdict is not None:
            self._end(facts.verdict, facts.step)
        else:
            ending = None
            if self.pages_scheduled >= self.config.limit:
                ending = StopReason.LIMIT_REACHED
            elif not self._has_fetchable():
                ending = StopReason.EXHAUSTED
            if ending is not None:
                # a budget or queue end overrides a forgiven verdict of the same step
                facts.verdict, facts.stopped = ending, True
                facts.verdict_fate = VerdictFate.STOPPED
                self._end(ending, facts.step)
        record = build_record(self, facts, (self._clock() - started) * 1000.0)
        logger.debug("step %d %s → %s", record.step, record.url, record.outcome)
        return record

    def _end(self, reason: StopReason, step: int) -> None:
        self.done = True
        self.stop_reason = reason
        if self.stop_step is None:
            self.stop_step, self.first_verdict = step, reason

    def _has_fetchable(self) -> bool:
        """Some queued link is outside a dry subtree. Runs after every step, so it looks at
        the head first and lists the whole queue only when the head is dry."""
        seed_host, queue = self.config.seed_host, self.state.queue
        head = queue.top(1)
        if not head:
            return False
        if not self.state.is_dry(subtree(seed_host, head[0].url)):
            return True
        return any(not self.state.is_dry(subtree(seed_host, e.url)) for e in queue.entries())



_VERDICTS = (StopReason.COVERAGE_REACHED, StopReason.SATURATED, StopReason.NO_RELEVANT_PAGES)
