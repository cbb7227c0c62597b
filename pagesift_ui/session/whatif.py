"""What-if stops: the adaptive stop rules replayed over a session's records with other options.

``what_if(session, options)`` answers "at which step would each stop rule have fired, and
what had been found by then?" for any ``ReadableSession`` (a live ``CrawlSession``, a saved
one, an imported bundle) without the network: every step record holds what the rules
observed (the page's Markdown, relevance, whether the link was blind) and whether a link
with clues was still pending (``lead_pending``, docs/DESIGN.md §11.10), so a fresh seed-exact
``Adaptive`` with other ``AdaptiveOptions`` can be fed the same pages in the same order.

How the replay treats a verdict it fires:

- **forgiven automatically** when a lead was pending at that step, exactly as the crawler
  would have (the queue at each step is the recorded one: the stop options change when a
  crawl stops, never which link it fetches next — but see ``min_gain`` below): the recorded
  head (``lead_head``) judged against the pending-lead bar, which the replay rebuilds from
  the records because from the first verdict on it asks more (``frontier/leads.py``) and
  other options fire that verdict elsewhere; ``forgive()``, and the verdict does not count
  as the crawl's stop. Records made before ``lead_head`` was kept give their recorded answer;
- otherwise it **stands**: the first one is where the crawl would have stopped
  (``stop_step``); the replay then goes on as ``--no-stop`` does (``forgive()`` and
  ``reset_cold()``), so every rule's first standing step is known, as in a benchmark run.

With the session's own options this reproduces the crawl's verdicts step for step: each
one it fired, forgiven or not, and its first verdict that stood. Limits:

- ``min_gain`` also decides which pages count as new content (the harvest hits), and those
  decide which subtrees are judged dry, i.e. which links a crawl fetches. From the first
  step whose freshness differs from the record (``same_pages_until``) the real crawl would
  have fetched other pages; the replay keeps the recorded ones, so what follows is an
  estimate.
- The user's labels (``use_labels``) are applied from the first step, as if the crawler had
  known them; the records made before a relabel were not, so a session with labels may not
  reproduce its own verdicts.
- Records made before ``lead_pending`` was kept (older bundles) cannot say where a lead was
  pending: a verdict is taken as forgiven where the crawl forgave one automatically and as
  standing everywhere else (``lead_recorded`` False, and a note says so).
- A rule that would fire after the last recorded step cannot be seen (its ``step`` is None).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from pagesift_ui.errors import shown
from pagesift_ui.frontier.adaptive import (
    EVIDENCE_RELEVANCE,
    Adaptive,
    AdaptiveOptions,
    StopReason,
)
from pagesift_ui.frontier.leads import LeadBar
from pagesift_ui.frontier.query import Query
from pagesift_ui.frontier.urls import clean, dedupe_key
from pagesift_ui.session.protocol import ReadableSession
from pagesift_ui.session.record import StepOutcome, StepRecord, VerdictFate
from pagesift_ui.session.rules import (
    NO_STOP_WHY,
    observed,
    rules_language,
    rules_markdown,
    rules_relevance,
)

__all__ = [
    "RULES",
    "Found",
    "Replay",
    "ReplayedVerdict",
    "RuleResult",
    "WhatIf",
    "WhatIfPoint",
    "found_by",
    "replay_of",
    "what_if",
]

#: The stop rules of docs/DESIGN.md §4, in the order results list them.
RULES = (StopReason.COVERAGE_REACHED, StopReason.SATURATED, StopReason.NO_RELEVANT_PAGES)
#: Endings that depend on the pages fetched, not on the stop options: a replay in which no
#: verdict stands ends as the recording did.
_PAGE_ENDINGS = frozenset({StopReason.LIMIT_REACHED, StopReason.EXHAUSTED})


@dataclass(frozen=True, slots=True)
class Found:
    """What a crawl had found after ``step`` steps.

    ``pages``: HTML pages fetched (duplicates and failed fetches are steps, not pages);
    ``relevant_pages``: those at or above ``EVIDENCE_RELEVANCE`` after the user's labels
    (when the replay uses them); ``relevant_found`` and ``recall``: pages of the truth set
    fetched and their share of it (None without a truth set, or with an empty one).
    """

    step: int
    pages: int
    relevant_pages: int
    relevant_found: int | None
    recall: float | None


@dataclass(frozen=True, slots=True)
class ReplayedVerdict:
    """A verdict the replay fired at ``step``; ``stood`` False: forgiven automatically. The
    stale and cold counters are those it fired with (the records' ``verdict_stale``)."""

    step: int
    reason: StopReason
    stood: bool
    stale: int
    cold: int


@dataclass(frozen=True, slots=True)
class RuleResult:
    """One stop rule in the replay.

    ``step``: the first step it fired and stood (None: not within the recorded steps);
    ``first_fired``: the first step it fired at all; ``forgiven``: how often it fired and
    was forgiven automatically before ``step``; ``found``: what had been found at ``step``.
    """

    reason: StopReason
    step: int | None
    first_fired: int | None
    forgiven: int
    found: Found | None


@dataclass(frozen=True, slots=True)
class WhatIfPoint:
    """The rules' state after one step of the replay, as the records' fields of the same
    names (for the stale/cold and coverage charts); ``verdict`` fired at this step."""

    step: int
    coverage: float
    covered: bool
    stale: int
    cold: int
    verdict: StopReason | None
    stood: bool


@dataclass(frozen=True, slots=True)
class WhatIf:
    """The stop rules replayed with ``options`` over a session's recorded steps.

    ``stop_step``/``stop_reason``: where a crawl stopping on verdicts would have stopped:
    the first verdict that stood, else the recording's own ending when that was the page
    limit or an empty queue (they do not depend on the options); None when it would have
    gone on past the recorded steps. ``found`` is what had been found there.
    ``actual_step``/``actual_reason``/``actual``: the session's own first verdict that
    stood (or where it ended, when none stood), to show beside it.
    ``points``: one per recorded step. ``lead_recorded``: the records say at every step
    whether a lead was pending (False for older bundles). ``same_pages_until``: the first
    step whose freshness differs from the record (None: none does), after which the
    replay is an estimate. ``notes``: these caveats in words, for the panel.
    """

    options: AdaptiveOptions
    rules: tuple[RuleResult, ...]
    stop_step: int | None
    stop_reason: StopReason | None
    found: Found | None
    actual_step: int | None
    actual_reason: StopReason | None
    actual: Found | None
    verdicts: tuple[ReplayedVerdict, ...]
    points: tuple[WhatIfPoint, ...]
    lead_recorded: bool
    same_pages_until: int | None
    notes: tuple[str, ...]

    def rule(self, reason: StopReason) -> RuleResult:
        """The result of one rule (``coverage_reached``, ``saturated``, ``no_relevant_pages``)."""
        for result in self.rules:
            if result.reason is reason:
                return result
        raise ValueError(f"{reason} is not one of the adaptive stop rules {RULES}")


class Replay:
    """The stop rules replayed record by record with ``options`` (what :func:`what_if`
    runs), kept by the app so that a session one step longer is replayed one record more
    instead of from the first (~0.1 ms a record; the whole replay was ~0.2–0.3 s at 2,000
    steps: issue 15). ``labels`` and ``lead_recorded`` hold for the whole replay: another
    label, or a record without ``lead_pending`` after ones with it, needs a new replay
    (:meth:`can_take`). The counts of what was found are kept step by step, so each rule's
    ``Found`` is read, not recounted."""

    def __init__(
        self,
        session: ReadableSession,
        options: AdaptiveOptions,
        labels: Mapping[str, bool],
        truth_keys: frozenset[str] | None,
        lead_recorded: bool,
    ) -> None:
        self.options = options
        self.labels = labels
        self.truth_keys = truth_keys
        self.lead_recorded = lead_recorded
        config = session.config
        self._query = Query(config.query, config.language)
        self._adaptive = Adaptive(options, len(self._query))
        # §11.10's bar, rebuilt: which links count towards it depends on when the first
        # verdict fired, and other options fire it elsewhere (frontier/leads.py); its graces
        # are the session's switches with the replayed patience
        self._leads = LeadBar(config.lead_bar_new_evidence, thin=config.forgive_thin_evidence,
                              finding=config.forgive_still_finding, patience=options.patience)
        self._forgive_leads = config.forgive_leads
        self._link_blocks = config.link_blocks_as_evidence
        self.verdicts: list[ReplayedVerdict] = []
        self.points: list[WhatIfPoint] = []
        self.same_until: int | None = None
        # after each step (index 0: before the first): pages, relevant pages, truth hits
        self._found: list[tuple[int, int, int]] = [(0, 0, 0)]
        self._fetched: set[str] = set()

    @property
    def taken(self) -> int:
        """How many records the replay has taken."""
        return len(self.points)

    def can_take(self, records: Sequence[StepRecord]) -> bool:
        """Whether ``records`` (the next ones) continue this replay: a record that cannot
        say whether a lead was pending makes every verdict read the older way."""
        return not self.lead_recorded or all(
            r.lead_pending is not None for r in records if observed(r))

    def take(self, record: StepRecord) -> None:
        """Replay one more record (the next step's)."""
        adaptive = self._adaptive
        fired: ReplayedVerdict | None = None
        if observed(record):
            reason = adaptive.observe(self._query, rules_markdown(record, self._link_blocks),
                                      rules_relevance(record, self.labels), record.blind,
                                      rules_language(record, self._query))
            if self.same_until is None and adaptive.last_fresh != record.fresh:
                self.same_until = record.step
            # as the crawl counts it under the labels (crawl.py, relabel.replay_leads); the
            # seed was reached by no link
            self._leads.page(rules_relevance(record, self.labels),
                             record.score if record.link is not None else None,
                             adaptive.last_fresh)
            if reason is not None:
                stood = not self._forgiven(record, reason)
                if stood and self._forgive_leads and self._leads.grace(
                        reason, adaptive.sources, adaptive.evidence):
                    stood = False  # as the crawl forgives it (LeadBar.grace)
                self._leads.verdict_fired()
                fired = ReplayedVerdict(record.step, reason, stood, adaptive.stale,
                                        adaptive.cold)
                self.verdicts.append(fired)
                if not stood:
                    adaptive.forgive()
        # a standing verdict shows the counters it stopped the crawl with, as its record
        self.points.append(WhatIfPoint(
            record.step, adaptive.coverage(), adaptive.covered(), adaptive.stale,
            adaptive.cold, fired.reason if fired else None, bool(fired and fired.stood),
        ))
        if fired is not None and fired.stood:
            # the crawl would stop here; go on as --no-stop does to see the other rules
            adaptive.forgive()
            adaptive.reset_cold()
        self._count(record)

    def _forgiven(self, record: StepRecord, reason: StopReason) -> bool:
        """§11.10 at a verdict: the recorded head judged against this replay's bar; records
        made before the head was kept give their own answer (exact until a replay fires its
        first verdict elsewhere than the crawl did)."""
        if record.lead_head is None or not self.lead_recorded:
            return _recorded_lead(record, self.lead_recorded)
        return self._forgive_leads and self._leads.judge(record.lead_head, "", reason).pending

    def _count(self, record: StepRecord) -> None:
        pages, relevant, hits = self._found[-1]
        if record.outcome is StepOutcome.FETCHED:
            pages += 1
            relevant += rules_relevance(record, self.labels) >= EVIDENCE_RELEVANCE
            key = dedupe_key(clean(record.final_url))
            if key not in self._fetched:
                self._fetched.add(key)
                hits += self.truth_keys is not None and key in self.truth_keys
        self._found.append((pages, relevant, hits))

    def found(self, step: int | None) -> Found | None:
        """What had been found after ``step`` of the replayed steps (None: None)."""
        if step is None:
            return None
        pages, relevant, hits = self._found[step]
        if not self.truth_keys:
            return Found(step, pages, relevant, None, None)
        return Found(step, pages, relevant, hits, hits / len(self.truth_keys))

    def result(self, session: ReadableSession) -> WhatIf:
        """The replay so far as a ``WhatIf``; ``session``: the one whose records it took
        (its ending and its own first verdict that stood)."""
        taken, verdicts = self.taken, self.verdicts
        rules = tuple(self._rule(reason) for reason in RULES)
        stop = next((v for v in verdicts if v.stood), None)
        stop_step, stop_reason = (stop.step, stop.reason) if stop else (None, None)
        if stop is None and session.stop_reason in _PAGE_ENDINGS and taken:
            stop_step, stop_reason = taken, session.stop_reason
        actual_step = session.stop_step if session.stop_step is not None else (
            taken if taken else None)
        return WhatIf(
            options=self.options,
            rules=rules,
            stop_step=stop_step,
            stop_reason=stop_reason,
            found=self.found(stop_step),
            actual_step=actual_step,
            actual_reason=session.first_verdict or session.stop_reason,
            actual=self.found(actual_step),
            verdicts=tuple(verdicts),
            points=tuple(self.points),
            lead_recorded=self.lead_recorded,
            same_pages_until=self.same_until,
            notes=_notes(session, self.lead_recorded, self.same_until, stop_step,
                         self.labels),
        )

    def _rule(self, reason: StopReason) -> RuleResult:
        mine = [v for v in self.verdicts if v.reason is reason]
        stood = next((v for v in mine if v.stood), None)
        step = stood.step if stood else None
        forgiven = sum(1 for v in mine if not v.stood and (step is None or v.step < step))
        return RuleResult(reason=reason, step=step,
                          first_fired=mine[0].step if mine else None, forgiven=forgiven,
                          found=self.found(step))


def replay_of(
    session: ReadableSession,
    options: AdaptiveOptions | None = None,
    *,
    truth: Collection[str] | None = None,
    use_labels: bool = True,
) -> Replay:
    """A :class:`Replay` of ``session``'s steps so far (see :func:`what_if`), to be given
    the next records with ``Replay.take``."""
    if options is None:
        options = session.config.adaptive
    if not isinstance(options, AdaptiveOptions):
        raise ValueError(f"options must be AdaptiveOptions, got {type(options).__name__}")
    labels: Mapping[str, bool] = session.labels if use_labels else {}
    lead_recorded = all(r.lead_pending is not None for r in session.steps if observed(r))
    replay = Replay(session, options, dict(labels),
                    _keys(truth) if truth is not None else None, lead_recorded)
    for record in session.steps:
        replay.take(record)
    return replay


def what_if(
    session: ReadableSession,
    options: AdaptiveOptions | None = None,
    *,
    truth: Collection[str] | None = None,
    use_labels: bool = True,
) -> WhatIf:
    """Replay the stop rules over ``session``'s steps with ``options`` (None: its own).

    ``truth``: the URLs of the pages that answer the query, when known (a demo scenario's
    answer key), for recall; URLs are compared after ``clean`` and ``dedupe_key``.
    ``use_labels``: take the user's labels as the pages' verdicts (from the first step).
    Raises ValueError if ``options`` is not an ``AdaptiveOptions``. See the module
    docstring for what the replay can and cannot tell.
    """
    return replay_of(session, options, truth=truth, use_labels=use_labels).result(session)


def found_by(
    session: ReadableSession,
    step: int,
    *,
    truth: Collection[str] | None = None,
    use_labels: bool = True,
) -> Found:
    """What ``session`` had found after ``step`` steps (1 ≤ step ≤ its steps), e.g. at the
    actual stop or at a lesson's step. Raises ValueError for a step out of range."""
    if not 1 <= step <= len(session.steps):
        raise ValueError(f"step must be in 1..{len(session.steps)}, got {step!r}")
    labels = session.labels if use_labels else {}
    return _found(session, step, labels, _keys(truth) if truth is not None else None)


def _recorded_lead(record: StepRecord, lead_recorded: bool) -> bool:
    if lead_recorded:
        return bool(record.lead_pending)
    # an older record: only where the crawl itself forgave a verdict automatically
    automatic = record.verdict_fate is VerdictFate.AUTO_FORGIVEN or (
        record.forgiven and record.forgiven_why != NO_STOP_WHY)
    return record.verdict is not None and automatic


def _keys(urls: Collection[str]) -> frozenset[str]:
    if isinstance(urls, str | bytes):  # iterated, one URL would be read as its characters
        raise ValueError(f"truth must be a collection of URLs, got the one string "
                         f"{shown(urls)}")
    return frozenset(dedupe_key(clean(url)) for url in urls)


def _found(
    session: ReadableSession,
    step: int,
    labels: Mapping[str, bool],
    truth_keys: frozenset[str] | None,
) -> Found:
    pages = relevant = 0
    fetched: set[str] = set()
    for record in session.steps[:step]:
        if record.outcome is not StepOutcome.FETCHED:
            continue
        pages += 1
        relevant += rules_relevance(record, labels) >= EVIDENCE_RELEVANCE
        fetched.add(dedupe_key(clean(record.final_url)))
    if not truth_keys:
        return Found(step, pages, relevant, None, None)
    hits = len(fetched & truth_keys)
    return Found(step, pages, relevant, hits, hits / len(truth_keys))


def _notes(
    session: ReadableSession,
    lead_recorded: bool,
    same_until: int | None,
    stop_step: int | None,
    labels: Mapping[str, bool],
) -> tuple[str, ...]:
    notes = []
    if not lead_recorded:
        notes.append(
            "Not available for this bundle: whether a link with clues was pending at each "
            "step (it predates that record). A verdict is taken as forgiven only where the "
            "crawl forgave one itself."
        )
    if same_until is not None:
        notes.append(
            f"From step {same_until} on, pages count as new content differently than in "
            "the crawl, which would have changed the subtrees judged dry and so the pages "
            "fetched: the replay keeps the recorded pages, so later steps are an estimate."
        )
    if labels:
        notes.append("Your label is applied from the first step." if len(labels) == 1 else
                     f"Your {len(labels)} labels are applied from the first step.")
    if stop_step is None and session.steps:
        notes.append(
            f"No verdict stands within the {len(session.steps)} recorded steps: the crawl "
            "would have gone on past the recording."
        )
    return tuple(notes)
