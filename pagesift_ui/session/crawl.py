"""``CrawlSession``: one ``step()`` runs one page through the frontier core (docs/DESIGN.md §11).

The session owns the only I/O object (a ``PageSource``, normally the ``Fetcher``); everything
it decides comes from the sans-IO core in ``FrontierState``. Each step gives a frozen
``StepRecord`` holding everything the UI needs to explain it, and every registered sink is
told of it. ``run`` / ``iter_steps`` are the one loop that steps a session.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Concatenate, ParamSpec, TypeVar
from urllib.parse import urlsplit

from pagesift_ui.errors import FetchError, SessionBroken, SessionDone, shown
from pagesift_ui.frontier.adaptive import EVIDENCE_RELEVANCE, StopReason
from pagesift_ui.frontier.harvest import subtree
from pagesift_ui.frontier.leads import Lead
from pagesift_ui.frontier.links import features
from pagesift_ui.frontier.relevance import PageSignal
from pagesift_ui.frontier.siblings import sibling_evidence
from pagesift_ui.frontier.urls import MAX_URL_LENGTH, clean, dedupe_key
from pagesift_ui.page.extract import Page, extract
from pagesift_ui.session import views
from pagesift_ui.session.ahead import Popped, popped, put_back, unpark
from pagesift_ui.session.config import MAX_LIMIT, CrawlConfig
from pagesift_ui.session.enqueue import LinkTally, enqueue_links, learn_copies, robots_origin
from pagesift_ui.session.record import (
    FrontierRow,
    Override,
    OverrideKind,
    PageRow,
    PartStats,
    StepRecord,
    Verdict,
    VerdictFate,
)
from pagesift_ui.session.relabel import Sample, account, apply_labels, label_state
from pagesift_ui.session.seeding import offer_sitemap_links
from pagesift_ui.session.sinks import SessionEnd, SinkList, StepSink
from pagesift_ui.session.source import PageSource, default_source
from pagesift_ui.session.state import FrontierState, signal_of
from pagesift_ui.session.stepbuild import StepFacts, build_record
from pagesift_ui.session.stepping import (
    ending,
    has_fetchable,
    judge,
    next_entry,
    observe_page,
    pending_lead,
    record_text,
    relevant_count,
)

__all__ = ["FORGIVABLE", "CrawlSession", "PageSource", "SessionDone", "default_source"]

logger = logging.getLogger(__name__)

#: Score given to the seed link: it has no features and teaches the model nothing (§3).
SEED_SCORE = 1.0
LOOKAHEAD_PER_SLOT = 4
#: The stop verdicts a user (or ``run(until_stop=False)``) may continue past.
FORGIVABLE = frozenset(
    {StopReason.COVERAGE_REACHED, StopReason.SATURATED, StopReason.NO_RELEVANT_PAGES}
)

_Sink = TypeVar("_Sink")
_P = ParamSpec("_P")
_R = TypeVar("_R")


def _one_at_a_time(
    method: Callable[Concatenate[CrawlSession, _P], _R],
) -> Callable[Concatenate[CrawlSession, _P], _R]:
    """Run ``method`` holding the session's lock: a step, an override or a change of source
    waits for the one in progress in another thread to end. Two threads stepping one
    session at once would both number their step ``len(steps) + 1`` (docs/DESIGN.md §14.2:
    Streamlit starts a second script run while a stopped one finishes its step)."""

    @functools.wraps(method)
    def guarded(self: CrawlSession, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        with self._lock:
            return method(self, *args, **kwargs)

    return guarded


class CrawlSession:
    """A focused crawl stepped one page at a time, telling its sinks as it goes.

    Attributes the caller reads: ``steps`` (the records so far), ``overrides``, ``labels``,
    ``done``, ``stop_reason`` (why it is stopped now, None while it can go on), ``stop_step``
    and ``first_verdict`` (the first stop verdict that was not forgiven automatically, also
    with ``stop_on_verdict=False``), ``verdicts`` (every verdict and what became of it).

    ``sinks`` are told of every step, override and ending (``StepSink``). If one raises, or a
    step is interrupted half-way (any exception but ``SessionDone`` inside ``step()``), the
    session refuses further steps with ``SessionBroken``: what the sinks keep no longer
    matches it. ``clock`` times each step for ``elapsed_ms`` (seconds, monotonic); a replay
    that must reproduce ``elapsed_ms`` too injects the same deterministic clock.

    With ``config.concurrency`` N > 1 up to N popped links are in flight (``in_flight``):
    each step first pops up to N (never past the budget) and asks the source to prefetch
    them, then takes the oldest one's page into the crawl exactly as with one fetch at a
    time (docs/DESIGN.md §11.14). When the crawl stops with links in flight, they go back to
    the queue unfetched (``session/ahead.py``).

    A session may be shared between threads: its steps, overrides, sinks and source change
    one thread at a time (a second ``step()`` waits for the first and gets the next number).
    Reads are not locked: a caller that reads while another thread steps must serialize
    them itself (the app runs one script run of a browser tab at a time, ``app.py``).
    """

    def __init__(
        self,
        config: CrawlConfig,
        source: PageSource | None = None,
        *,
        clock: Callable[[], float] = time.perf_counter,
        sinks: Iterable[StepSink] = (),
    ) -> None:
        if not isinstance(config, CrawlConfig):
            raise ValueError(f"config must be a CrawlConfig (CrawlConfig.from_mapping builds one "
                             f"from plain values), got {type(config).__name__}")
        self.config = config
        self.state = FrontierState.from_config(config)
        self._source = source if source is not None else default_source(config)
        self._clock = clock
        self._sinks = SinkList(sinks)
        self.steps: list[StepRecord] = []
        self.overrides: list[Override] = []
        self.labels: dict[str, bool] = {}  # url → the user's label
        self.done = False
        self.stop_reason: StopReason | None = None
        self.stop_step: int | None = None
        self.first_verdict: StopReason | None = None
        self.verdicts: list[Verdict] = []
        self.pages_scheduled = 0
        self.pages_fetched = 0
        #: the page budget: the config's, until the user raises it (``raise_limit``)
        self.limit = config.limit
        self._page_signals: dict[str, PageSignal] = {}  # url → its signal (for relevance)
        self._relevant_urls: set[str] = set()
        self._samples: list[Sample] = []  # every link the link model learned from, in order
        self._labelled_fresh: dict[int, bool] = {}  # step → freshness under the labels
        self._closed = False
        self._interrupted = ""  # why a step broke off half-way; never healed
        self._ahead: deque[Popped] = deque()  # popped links in flight, oldest first (§11.14)
        self._carried: list[str] = []  # dropped by pops whose link is not in a step yet
        self._lock = threading.RLock()  # re-entrant: run() steps, forgive() notifies sinks
        seed = clean(config.seed_url)
        self.state.queue.offer(dedupe_key(seed), seed, 0, SEED_SCORE, None, config.limit)

    # -- sinks ----------------------------------------------------------------------------

    @property
    def sinks(self) -> tuple[StepSink, ...]:
        return self._sinks.all

    @_one_at_a_time
    def add_sink(self, sink: StepSink) -> None:
        """Tell ``sink`` of everything from now on (nothing of what happened before)."""
        self._sinks.add(sink)

    @_one_at_a_time
    def remove_sink(self, sink: StepSink) -> None:
        """Stop telling ``sink``. Removing a sink that failed lets the session go on without
        it; a session whose step was interrupted stays broken. ValueError if not attached."""
        self._sinks.remove(sink)

    def find_sink(self, kind: type[_Sink]) -> _Sink | None:
        """The first attached sink that is a ``kind``, or None."""
        return self._sinks.find(kind)

    @property
    def source(self) -> PageSource:
        """Where the pages come from now."""
        return self._source

    # -- driving --------------------------------------------------------------------------

    @_one_at_a_time
    def step(self) -> StepRecord:
        """Run exactly one page through the core, tell the sinks, and return its record.

        Drive a session with ``run`` or ``iter_steps``, the one loop. Raises ``SessionDone``
        when it has stopped (budget spent, queue empty, a stop verdict, the user's stop;
        ``forgive()`` lifts a verdict's stop) and ``SessionBroken`` when it may not go on.
        """
        self._check_usable()
        started = self._clock()
        try:
            record = self._take_step(started)
        except BaseException as exc:
            self._interrupted = f"step {len(self.steps) + 1} was interrupted ({exc!r})"
            raise
        if record is None:
            self._notify_end(queue_empty=True)
            raise SessionDone("the queue is empty: every reachable link was fetched or dropped")
        self._notify(lambda sink: sink.on_step(self, record))
        if self.done:
            self._notify_end()
        return record

    def iter_steps(self) -> Iterator[StepRecord]:
        """Step until the crawl stops, giving each record as it is made."""
        while not self.done:
            try:
                yield self.step()
            except SessionDone:
                return

    def run(self, max_steps: int | None = None, until_stop: bool = True) -> list[StepRecord]:
        """Step until done, or ``max_steps`` records. ``until_stop=False`` forgives every
        stop verdict and goes on to the limit (like ``stop_on_verdict=False``)."""
        records: list[StepRecord] = []
        if max_steps is not None and max_steps < 1:
            return records
        for record in self.iter_steps():
            records.append(record)
            if self.done and not until_stop and self.stop_reason in FORGIVABLE:
                self.forgive(note="run(until_stop=False)")
            if max_steps is not None and len(records) >= max_steps:
                break
        return records

    @_one_at_a_time
    def set_source(self, source: PageSource) -> PageSource:
        """Take pages from ``source`` from the next step on (a resumed session goes live).

        Returns the previous source, which the caller closes; the session's state is untouched.
        The links in flight are asked of ``source`` (§11.14): a resumed session fetches live
        the pages its rebuild had popped ahead.
        """
        previous, self._source = self._source, source
        self._prefetch()
        return previous

    @property
    def in_flight(self) -> tuple[str, ...]:
        """The URLs of the links popped ahead and being fetched, oldest first (§11.14)."""
        return tuple(link.entry.url for link in self._ahead)

    @_one_at_a_time
    def close(self) -> None:
        self._closed = True
        self._source.close()

    def __enter__(self) -> CrawlSession:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _check_usable(self) -> None:
        if self._interrupted or self._sinks.failure:
            raise SessionBroken(self._interrupted or self._sinks.failure)
        if self._closed:
            raise SessionDone("the session was closed; start a new one or resume it")
        if self.done:
            raise SessionDone(f"the crawl has stopped: {self.stop_reason}")

    def _notify(self, tell: Callable[[StepSink], None]) -> None:
        """Tell the sinks; a broken session tells nobody (its sinks keep what matched it)."""
        if not self._interrupted:
            self._sinks.tell(tell)

    def _notify_end(self, *, queue_empty: bool = False) -> None:
        if self.stop_reason is None:
            raise RuntimeError("a session ended without a stop reason")
        end = SessionEnd(self.stop_reason, len(self.steps), queue_empty)
        self._notify(lambda sink: sink.on_end(self, end))

    # -- one step -------------------------------------------------------------------------

    def _take_step(self, started: float) -> StepRecord | None:
        """§11.2-11.14; None when the pop found the queue empty and nothing is in flight
        (the crawl is exhausted)."""
        self._top_up()
        if not self._ahead:
            self._carried.clear()  # no step reports them (as when pop and fetch were one)
            self._end(StopReason.EXHAUSTED, len(self.steps))
            return None
        facts = self._run_entry(self._ahead.popleft())
        if facts.step == 1 and self.config.use_sitemaps:
            # §11.13: after the seed page, so the seed is fetched first and its robots.txt
            # (which names the sitemaps) is read; before the budget check, so a seed that
            # failed or had no links does not end the crawl before its sitemap links
            facts.sitemap = offer_sitemap_links(
                self.state, self.config, self._source.sitemaps(self.config.sitemap_limits()),
                self._source.allowed_by_robots,
            )
        record = self._finish(facts, started)
        self.steps.append(record)
        return record

    def _top_up(self) -> None:
        """§11.14: pop until ``concurrency`` links are in flight or the budget has none left
        (a link in flight counts against the limit), then have the source prefetch them."""
        room = min(self.config.concurrency, self.limit - self.pages_scheduled)
        while len(self._ahead) < room:
            link = self._pop_for_an_idle_host()
            if link is None:
                break
            self._ahead.append(link)
        self._prefetch()

    def _pop_for_an_idle_host(self) -> Popped | None:
        """§11.14: the best of the next ``LOOKAHEAD_PER_SLOT × concurrency`` pops whose host
        has fewer than ``per_host`` links in flight, else the best of them; the others go
        back to the queue (``put_back``).

        One request at a time per host means two links in flight on one host are fetched
        one after the other, however many threads wait; per-host queues are how parallel
        crawlers keep every connection busy (Mercator's back queues, Heydon & Najork 1999).
        Which host is busy is read off the links in flight, never off the network, so the
        choice repeats run after run; with nothing in flight (always, with one fetch at a
        time) the best link is taken, as before.
        """
        in_flight = Counter(urlsplit(link.entry.url).hostname for link in self._ahead)
        busy = {host for host, count in in_flight.items() if count >= self.config.per_host}
        passed: list[Popped] = []
        chosen: Popped | None = None
        for _ in range(LOOKAHEAD_PER_SLOT * self.config.concurrency):
            entry = next_entry(self.state, self.config.seed_host, self._carried,
                               self.config.max_queued_links)
            if entry is None:
                break
            link = popped(self.state, entry, self._carried)
            self._carried = []
            if urlsplit(entry.url).hostname not in busy:
                chosen = link
                break
            passed.append(link)
        if chosen is None and passed:
            chosen = passed.pop(0)
        for link in passed:
            put_back(self.state, link, self.config.max_queued_links)
            self._carried.extend(link.dropped)
        return chosen

    def _prefetch(self) -> None:
        # one fetch at a time asks nothing of the source: no thread runs (§11.14)
        if self.config.concurrency > 1:
            self._source.prefetch(self.in_flight)

    def _put_back(self) -> None:
        """§11.14: the crawl stopped; its links in flight go back to the queue unfetched,
        and the links their pops dropped are reported by the next step that is taken."""
        if not self._ahead:
            return
        carried = [url for link in self._ahead for url in link.dropped] + self._carried
        for link in self._ahead:
            put_back(self.state, link, self.config.max_queued_links)
        logger.info("the crawl stopped with %d links in flight: queued again unfetched",
                    len(self._ahead))
        self._ahead.clear()
        self._carried = carried
        self._prefetch()

    def _run_entry(self, link: Popped) -> StepFacts:
        entry = link.entry
        self.pages_scheduled += 1
        facts = StepFacts(step=len(self.steps) + 1, entry=entry, dropped=link.dropped)
        facts.link_explanation = link.link_explanation
        # the fetch asks the page's robots.txt (its redirects' too, unknown here)
        origin = robots_origin(entry.url)
        if origin is not None:
            self.state.robots_origins.add(origin)
        try:
            result = self._source.fetch(entry.url)
        except FetchError as exc:
            facts.fail(exc)
            return facts
        facts.result = result
        final_key = dedupe_key(clean(result.final_url))
        self.state.fetched_keys.add(final_key)
        self.state.depths.fetched(final_key, entry.depth)
        if final_key != entry.key and self.state.queue.drop(final_key) is not None:
            # a redirect's target queued from another page was popped later and fetched
            # again as a duplicate (the university demo's /admissions/fees/international
            # at steps 6 and 14: found by using the app)
            logger.info("%s redirected to %s: dropped from the queue", entry.url,
                        result.final_url)
        page = extract(result.body, result.final_url, encoding=result.encoding)
        facts.page = page
        facts.duplicate_of = self._canonical_copy(page, final_key, entry.depth) or record_text(
            self.state, facts.url, page.text
        )
        # copies teach the query pairs that make them (frontier/copyparams.py)
        copies = []
        if self.config.learn_copy_parameters:
            copies = learn_copies(self.state, result.final_url,
                                  facts.duplicate_of or page.canonical or "")
        if facts.duplicate_of:
            self.pages_scheduled -= 1  # §10: a duplicate does not count against the limit
        else:
            self._observe_page(facts, page)
        if copies:  # the queued copies dropped: in this step's record
            facts.links = facts.links or LinkTally()
            for url, skip in copies:
                facts.links.skip(url, skip)
        return facts

    def _canonical_copy(self, page: Page, final_key: str, depth: int) -> str:
        """The page names another URL as its canonical one (RFC 6596): if that page was
        fetched, this is a copy of it (returned, a duplicate step); otherwise this page
        stands for it and the canonical URL is not fetched again (issue 11, mechanism 7)."""
        if not page.canonical:
            return ""
        try:
            key = dedupe_key(clean(page.canonical))
        except ValueError:
            return ""  # a canonical link that is not a crawlable URL says nothing
        if key == final_key:
            return ""
        if key in self.state.fetched_keys:
            return page.canonical
        self.state.fetched_keys.add(key)
        self.state.depths.fetched(key, depth)
        if self.state.queue.drop(key) is not None:
            logger.info("%s stands for its canonical URL %s: dropped from the queue",
                        page.url, page.canonical)
        return ""

    def _observe_page(self, facts: StepFacts, page: Page) -> None:
        """§11.6-11.11 for an HTML page that is not a duplicate."""
        self.pages_fetched += 1
        page_signal, reason = observe_page(self.state, self.config, facts, page)
        self._page_signals[facts.url] = page_signal
        link_signal = signal_of(facts.entry)
        relevance = facts.relevance if facts.relevance is not None else 0.0
        # the page's relevance is evidence for the rest of every list it was listed in
        # (frontier/siblings.py) and of its name family (frontier/families.py); one rescore
        # for it and for what the page taught (observe_page), now so this step's
        # pending-lead check sees both.
        # needs_rescore() covers every change and resets its flags: call it every time
        # a list's credit counts an entry that added any block not read before (last_new),
        # a name family's only one that passed the gain test too (last_fresh): a family
        # reaches every member from every page, a list only its own entries (DESIGN §8a)
        adaptive = self.state.adaptive
        self.state.focus.siblings.observe(facts.entry.key,
                                          sibling_evidence(relevance, adaptive.last_new))
        self.state.focus.families.observe(facts.entry.key,
                                          sibling_evidence(relevance, adaptive.last_fresh))
        # the page may have moved a dry subtree's bound above the rest's: its links set
        # aside come back now, so this step's lead check sees them (ahead.unpark; after the
        # lead check, a verdict stood with 13 strong links just queued again: found by
        # using the app) and the rescore below scores them with the rest
        requeued = unpark(self.state, self.config.max_queued_links) if self.state.parked else 0
        if self.state.focus.needs_rescore():
            facts.rescored = self.state.rescore()
        if link_signal is not None:
            # the features learn() took: term weights do not move between it and here
            x = features(link_signal, self.state.focus.term_weights.weights)
            self._samples.append(Sample(facts.url, x, relevance))
        if relevance >= EVIDENCE_RELEVANCE:
            self._relevant_urls.add(facts.url)
        # every page read, the seed's too, counts in the rate of relevant pages that may
        # forgive a verdict (frontier/leads.py, LeadBar.still_finding); the bar of §11.10
        # learns from the links that found on-topic pages (the link model's own positive
        # label, §11.9), relevant ones once a verdict has fired
        self.state.leads.page(relevance,
                              facts.entry.score if link_signal is not None else None,
                              self.state.adaptive.last_fresh)
        ahead = [link.entry for link in self._ahead]
        lead = pending_lead(self.state, self.config.seed_host, ahead, reason)
        if lead.pending and not self.config.forgive_leads:
            lead = Lead(False, f"{lead.why}; lead forgiveness is off, so a verdict stands",
                        lead.head)
        facts.lead_pending, facts.lead_why, facts.lead_head = lead.pending, lead.why, lead.head
        if reason is not None:
            verdict = judge(self.state, self.config, facts, reason, lead)
            self.state.leads.verdict_fired()
            self.verdicts.append(verdict)
            if verdict.fate is not VerdictFate.AUTO_FORGIVEN and self.stop_step is None:
                self.stop_step, self.first_verdict = facts.step, reason
        facts.links = self._enqueue(facts, page, relevance)
        facts.links.unparked = requeued

    def _enqueue(self, facts: StepFacts, page: Page, relevance: float) -> LinkTally:
        links = () if page.nofollow else page.links
        depth = self.state.depths.depth(facts.entry.key)
        tally = enqueue_links(
            self.state, self.config, page, links,
            facts.entry.depth if depth is None else depth, relevance,
            self._source.allowed_by_robots, facts.language,
        )
        # the page's links moved every link's popularity (frontier/siblings.py)
        if self.state.focus.needs_rescore():
            facts.rescored = self.state.rescore() or facts.rescored
        return tally

    def _finish(self, facts: StepFacts, started: float) -> StepRecord:
        """§11.1 and §11.12: the budget and queue ending, then the record."""
        if facts.stopped and facts.verdict is not None:
            self._end(facts.verdict, facts.step)
        elif (end := ending(self.state, self.limit, self.pages_scheduled,
                            len(self._ahead))) is not None:
            # a budget or queue end overrides a forgiven verdict of the same step
            facts.verdict, facts.stopped = end, True
            facts.verdict_fate = VerdictFate.STOPPED
            self._end(end, facts.step)
        record = build_record(
            facts, self.state, seed_host=self.config.seed_host,
            pages_scheduled=self.pages_scheduled, pages_fetched=self.pages_fetched,
            relevant_pages=self.relevant_pages, elapsed_ms=(self._clock() - started) * 1000.0,
        )
        logger.debug("step %d %s → %s", record.step, record.url, record.outcome)
        return record

    def _end(self, reason: StopReason, step: int) -> None:
        self._put_back()
        self.done = True
        self.stop_reason = reason
        if self.stop_step is None:
            self.stop_step, self.first_verdict = step, reason

    # -- overrides (§12.3) ----------------------------------------------------------------

    @_one_at_a_time
    def forgive(self, note: str = "") -> Override:
        """Continue past the stop verdict that stopped the crawl ("continue anyway")."""
        if not self.done or self.stop_reason not in FORGIVABLE:
            status = f"stopped by {self.stop_reason}" if self.done else "running"
            raise ValueError(
                f"nothing to forgive: the crawl is {status}; only coverage_reached, saturated "
                "and no_relevant_pages can be continued past"
            )
        reason = self.stop_reason
        self.state.adaptive.forgive()
        self.state.adaptive.reset_cold()
        self.done, self.stop_reason = False, None
        if self.verdicts:
            last = self.verdicts[-1]
            self.verdicts[-1] = Verdict(last.step, last.reason, VerdictFate.USER_FORGIVEN)
        return self._record(OverrideKind.FORGIVE, str(reason), note=note or "continue anyway")

    @_one_at_a_time
    def stop(self, note: str = "") -> Override:
        """Stop now (``cancelled``)."""
        if self.done:
            raise ValueError(f"the crawl has already stopped: {self.stop_reason}")
        self._end(StopReason.CANCELLED, len(self.steps))
        event = self._record(OverrideKind.STOP, note=note or "stopped by the user")
        self._notify_end()
        return event

    @_one_at_a_time
    def raise_limit(self, limit: int, note: str = "") -> Override:
        """Raise the page budget to ``limit`` pages; a crawl the budget ended goes on.

        A researcher whose crawl spent its budget before the question was answered had to
        start again. The budget ends a crawl and sizes nothing else (the dispersion cap
        keeps the value the first budget gave it, docs/DESIGN.md §9), so the steps taken
        under the old budget stay what they were, and a replay raises it at the same step.
        A crawl stopped by a verdict that stood stays stopped: Continue anyway goes on.
        """
        if isinstance(limit, bool) or not isinstance(limit, int):
            raise ValueError(f"the page budget must be a whole number of pages, got {limit!r}")
        if not self.limit < limit <= MAX_LIMIT:
            raise ValueError(f"the page budget can only be raised: it is {self.limit} "
                             f"pages, so give a number from {self.limit + 1} to {MAX_LIMIT:,}")
        before, self.limit = self.limit, limit
        if self.done and self.stop_reason is StopReason.LIMIT_REACHED:
            self.done, self.stop_reason = False, None
            if self.first_verdict is StopReason.LIMIT_REACHED:
                # the end of a budget is not a verdict on the crawl: its own stop is ahead
                self.stop_step, self.first_verdict = None, None
        return self._record(OverrideKind.RAISE_LIMIT, str(limit),
                            note=note or f"page budget raised from {before} to {limit}")

    @_one_at_a_time
    def relabel(self, url: str, relevant: bool | None) -> Override:
        """Replace the crawler's verdict on a fetched page by the user's (None: remove it).

        ``url`` is a fetched page's ``final_url`` (``PageRow.url``). The label replaces the
        crawler's verdict in every statistic that used it (``session/relabel.py``): the link
        model is rebuilt from the links it learned from, the stop rules' evidence, coverage
        and counters and both harvests are replayed from the records, and the relevant-page
        count follows. Idempotent (the same label twice is one label); removing the label,
        or giving the crawler's own verdict, restores every statistic exactly. A crawl that
        was ``exhausted`` goes on if a subtree the label reopened has links again.

        Returns the recorded override: ``note`` says in words what changed, ``changes``
        holds ``before`` and ``after`` of the link weights, coverage, evidence, counters,
        the page's freshness and subtree, and the relevant-page count. Raises ValueError for
        a URL that is not a fetched page of this session (the seed is one: it has no link,
        so only the rules and harvests change).
        """
        if relevant is not None and not isinstance(relevant, bool):
            # "no" is truthy: a label read by truth would mark the page relevant
            raise ValueError(f"relevant must be True, False or None, got {shown(relevant)}")
        if url not in self._page_signals:
            raise ValueError(f"{shown(url)} is not a fetched page of this session")
        record = next(r for r in self.steps if r.final_url == url and r.relevance is not None)
        learned = any(sample.url == url for sample in self._samples)
        before = label_state(self.state, record.subtree, self._fresh(record),
                             self.relevant_pages)
        if relevant is None:
            self.labels.pop(url, None)
        else:
            self.labels[url] = bool(relevant)
        done = apply_labels(self.state, self.config, self.steps, self.overrides,
                            self._samples, self.labels)
        self._labelled_fresh = {step: hit for step, hit in done.fresh.items()
                                if hit != self.steps[step - 1].fresh}
        after = label_state(self.state, record.subtree, self._fresh(record),
                            self.relevant_pages)
        label = None if relevant is None else bool(relevant)
        note, changes = account(record, label, learned, done, before, after)
        note += self._unparked()
        self._reopen_if_fetchable()
        return self._record(OverrideKind.RELABEL, url, label, note, changes)

    def unlabel(self, url: str) -> Override:
        """Remove the user's label of a fetched page: ``relabel(url, None)``."""
        return self.relabel(url, None)

    def fresh_flags(self) -> dict[int, bool]:
        """Steps whose page's freshness under the user's labels differs from its record
        (step → fresh now); empty without labels. The pages table shows these."""
        return dict(self._labelled_fresh)

    def _fresh(self, record: StepRecord) -> bool:
        return self._labelled_fresh.get(record.step, record.fresh)

    @_one_at_a_time
    def force_dry(self, part: str) -> Override:
        """Treat a subtree as dry: its queued links are dropped when they come up."""
        _check_part(part)
        self.state.kept_open.discard(part)
        self.state.forced_dry.add(part)
        return self._record(OverrideKind.FORCE_DRY, part, note="forced dry")

    @_one_at_a_time
    def keep_open(self, part: str) -> Override:
        """Never treat a subtree as dry, whatever its Wilson interval says; the links set
        aside while it was dry are queued again."""
        _check_part(part)
        self.state.forced_dry.discard(part)
        self.state.kept_open.add(part)
        note = "kept open" + self._unparked()
        self._reopen_if_fetchable()
        return self._record(OverrideKind.KEEP_OPEN, part, note=note)

    @_one_at_a_time
    def clear_subtree(self, part: str) -> Override:
        """Back to the statistics' verdict for a subtree."""
        _check_part(part)
        self.state.forced_dry.discard(part)
        self.state.kept_open.discard(part)
        note = "statistics decide again" + self._unparked()
        self._reopen_if_fetchable()
        return self._record(OverrideKind.CLEAR_SUBTREE, part, note=note)

    @_one_at_a_time
    def pin(self, key: str) -> Override:
        """Fetch this queued link next (pins are served in pin order)."""
        if not self.state.queue.pin(key):
            raise ValueError(f"{key} is not in the queue")
        # pins are served in pin order: "it is fetched next" was said of every pin (found
        # by using the app)
        ahead = self.state.queue.pins_before(key)
        pinned = self.state.queue.get(key)
        part = subtree(self.config.seed_host, pinned.url) if pinned is not None else ""
        if part and self.state.is_dry(part):
            # a pop sets a dry subtree's links aside, pinned or not: "fetched next" was said
            # of a link then set aside (found by using the app)
            note = (f"pinned: its subtree {part} is dry, so it is set aside when its turn "
                    "comes; keep the subtree open to fetch it")
        else:
            note = ("pinned to the front: fetched next" if not ahead else
                    f"pinned: fetched after the {ahead} link{'s' * (ahead != 1)} pinned "
                    "before it")
        return self._record(OverrideKind.PIN, key, note=note)

    @_one_at_a_time
    def drop(self, key: str) -> Override:
        """Remove a queued link."""
        if self.state.queue.drop(key) is None:
            raise ValueError(f"{key} is not in the queue")
        return self._record(OverrideKind.DROP, key, note="dropped from the queue")

    def _unparked(self) -> str:
        """Queue again the links set aside in subtrees no longer dry (``ahead.unpark``);
        the words for the override's note."""
        queued = unpark(self.state, self.config.max_queued_links)
        if not queued:
            return ""
        return (f"; {queued} link{'s' * (queued != 1)} set aside while "
                f"{'they were' if queued != 1 else 'it was'} in a dry subtree "
                f"{'are' if queued != 1 else 'is'} queued again")

    def _reopen_if_fetchable(self) -> None:
        if (self.done and self.stop_reason is StopReason.EXHAUSTED
                and has_fetchable(self.state)):
            self.done, self.stop_reason = False, None

    def _record(
        self, kind: OverrideKind, target: str = "", value: bool | None = None, note: str = "",
        changes: dict[str, Any] | None = None,
    ) -> Override:
        """Keep the override that just took effect and tell the sinks."""
        event = Override(len(self.steps), kind, target, value, note, changes)
        self.overrides.append(event)
        logger.info("override at step %d: %s %s", event.step, kind.value, target)
        self._notify(lambda sink: sink.on_override(self, event))
        return event

    @property
    def interruption(self) -> str:
        """Why a step broke off half-way (Ctrl-C inside a fetch, say), "" if none did. Its
        counters and verdicts may then hold part of a step that has no record; the summary
        reads the records instead (``views.live_summary``)."""
        return self._interrupted

    # -- views (session/views.py) ---------------------------------------------------------

    @property
    def relevant_pages(self) -> int:
        """Pages at or above EVIDENCE_RELEVANCE, after the user's labels."""
        return relevant_count(self._relevant_urls, self.labels)

    def summary(self) -> dict[str, Any]:
        return views.live_summary(self)

    def pages(self) -> list[PageRow]:
        return views.page_rows(self)

    def frontier(self, n: int = 20) -> list[FrontierRow]:
        return views.frontier_rows(self, n)

    def wilson_table(self) -> list[PartStats]:
        return views.live_wilson_table(self)

    def current_relevance(self, url: str) -> dict[str, Any] | None:
        """A fetched page's relevance recomputed under the site statistics as they are now."""
        signal = self._page_signals.get(url)
        if signal is None:
            return None
        return self.state.focus.explain_relevance(signal).to_dict()


def _check_part(part: object) -> None:
    """A subtree named to an override: a non-empty name no longer than a URL (the Subtrees
    table's ``host/segment``; one that matches no link is recorded and changes nothing)."""
    if not isinstance(part, str) or not part or len(part) > MAX_URL_LENGTH:
        raise ValueError(f"a subtree is a non-empty name of at most {MAX_URL_LENGTH:,} "
                         f"characters (host/first path segment), got {shown(part)}")
