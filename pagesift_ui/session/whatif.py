"""What-if stops: the adaptive stop rules replayed over a session's records with other options.

``what_if(session, options)`` answers "at which step would each stop rule have fired, and
what had been found by then?" for any ``ReadableSession`` (a live ``CrawlSession``, a saved
one, an imported bundle) without the network: every step record holds what the rules
observed (the page's Markdown, relevance, whether the link was blind) and whether a link
with clues was still pending (``lead_pending``, docs/DESIGN.md §11.10), so a fresh seed-exact
``Adaptive`` with other ``AdaptiveOptions`` can be fed the same pages in the same order.

How the replay treats a verdict it fires:

- **forgiven automatically** when the record says a lead was pending at that step, exactly
  as the crawler would have (the queue at each step is the recorded one: the stop options
  change when a crawl stops, never which link it fetches next — but see ``min_gain``
  below): ``forgive()``, and the verdict does not count as the crawl's stop;
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

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from pagesift_ui.frontier.adaptive import (
    EVIDENCE_RELEVANCE,
    Adaptive,
    AdaptiveOptions,
    StopReason,
)
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
    "ReplayedVerdict",
    "RuleResult",
    "WhatIf",
    "WhatIfPoint",
    "found_by",
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
    if options is None:
        options = session.config.adaptive
    if not isinstance(options, AdaptiveOptions):
        raise ValueError(f"options must be AdaptiveOptions, got {type(options).__name__}")
    labels: Mapping[str, bool] = session.labels if use_labels else {}
    steps = session.steps
    query = Query(session.config.query, session.config.language)
    adaptive = Adaptive(options, len(query))
    lead_recorded = all(r.lead_pending is not None for r in steps if observed(r))
    verdicts: list[ReplayedVerdict] = []
    points: list[WhatIfPoint] = []
    same_until: int | None = None
    for record in steps:
        fired: ReplayedVerdict | None = None
        if observed(record):
            reason = adaptive.observe(query, rules_markdown(record),
                                      rules_relevance(record, labels), record.blind,
                                      rules_language(record, query))
            if same_until is None and adaptive.last_fresh != record.fresh:
                same_until = record.step
            if reason is not None:
                stood = not _lead_pending(record, lead_recorded)
                fired = ReplayedVerdict(record.step, reason, stood, adaptive.stale,
                                        adaptive.cold)
                verdicts.append(fired)
                if not stood:
                    adaptive.forgive()
        # a standing verdict shows the counters it stopped the crawl with, as its record
        points.append(WhatIfPoint(
            record.step, adaptive.coverage(), adaptive.covered(), adaptive.stale,
            adaptive.cold, fired.reason if fired else None, bool(fired and fired.stood),
        ))
        if fired is not None and fired.stood:
            # the crawl would stop here; go on as --no-stop does to see the other rules
            adaptive.forgive()
            adaptive.reset_cold()
    truth_keys = _keys(truth) if truth is not None else None
    rules = tuple(_rule(reason, verdicts, session, labels, truth_keys) for reason in RULES)
    stop = next((v for v in verdicts if v.stood), None)
    stop_step, stop_reason = (stop.step, stop.reason) if stop else (None, None)
    if stop is None and session.stop_reason in _PAGE_ENDINGS and steps:
        stop_step, stop_reason = len(steps), session.stop_reason
    actual_step = session.stop_step if session.stop_step is not None else (
        len(steps) if steps else None)
    actual_reason = session.first_verdict or session.stop_reason
    return WhatIf(
        options=options,
        rules=rules,
        stop_step=stop_step,
        stop_reason=stop_reason,
        found=_found_at(session, stop_step, labels, truth_keys),
        actual_step=actual_step,
        actual_reason=actual_reason,
        actual=_found_at(session, actual_step, labels, truth_keys),
        verdicts=tuple(verdicts),
        points=tuple(points),
        lead_recorded=lead_recorded,
        same_pages_until=same_until,
        notes=_notes(session, lead_recorded, same_until, stop_step, labels),
    )


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


def _lead_pending(record: StepRecord, lead_recorded: bool) -> bool:
    if lead_recorded:
        return bool(record.lead_pending)
    # an older record: only where the crawl itself forgave a verdict automatically
    automatic = record.verdict_fate is VerdictFate.AUTO_FORGIVEN or (
        record.forgiven and record.forgiven_why != NO_STOP_WHY)
    return record.verdict is not None and automatic


def _rule(
    reason: StopReason,
    verdicts: list[ReplayedVerdict],
    session: ReadableSession,
    labels: Mapping[str, bool],
    truth_keys: frozenset[str] | None,
) -> RuleResult:
    mine = [v for v in verdicts if v.reason is reason]
    stood = next((v for v in mine if v.stood), None)
    step = stood.step if stood else None
    forgiven = sum(1 for v in mine if not v.stood and (step is None or v.step < step))
    return RuleResult(
        reason=reason,
        step=step,
        first_fired=mine[0].step if mine else None,
        forgiven=forgiven,
        found=_found_at(session, step, labels, truth_keys),
    )


def _keys(urls: Collection[str]) -> frozenset[str]:
    return frozenset(dedupe_key(clean(url)) for url in urls)


def _found_at(
    session: ReadableSession,
    step: int | None,
    labels: Mapping[str, bool],
    truth_keys: frozenset[str] | None,
) -> Found | None:
    return None if step is None else _found(session, step, labels, truth_keys)


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
        notes.append(f"Your {len(labels)} label(s) are applied from the first step.")
    if stop_step is None and session.steps:
        notes.append(
            f"No verdict stands within the {len(session.steps)} recorded steps: the crawl "
            "would have gone on past the recording."
        )
    return tuple(notes)
