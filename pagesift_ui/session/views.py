"""Read-only views of a session for tables, charts and exports: plain functions.

The functions over ``ReadableSession`` serve live sessions and imported views alike; those
over ``LiveSession`` need the queue and the core's counters.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from pagesift_ui.frontier.adaptive import EVIDENCE_RELEVANCE, StopReason
from pagesift_ui.frontier.harvest import Harvest, subtree
from pagesift_ui.frontier.queue import cluster_key
from pagesift_ui.frontier.stats import z_two_sided
from pagesift_ui.session.protocol import LiveSession, ReadableSession
from pagesift_ui.session.record import (
    FrontierRow,
    OverrideKind,
    PageRow,
    PartStats,
    StepOutcome,
    StepRecord,
    SubtreeState,
    raised_budget,
)
from pagesift_ui.session.rules import replay_rules
from pagesift_ui.session.state import signal_of, wilson_rows

__all__ = [
    "frontier_rows",
    "harvest_rate",
    "live_summary",
    "live_wilson_table",
    "page_budget",
    "page_rows",
    "replayed_wilson_table",
    "start_failure",
]


def page_rows(session: ReadableSession, start: int = 0) -> list[PageRow]:
    """One row per step that reached a page (errors included, flagged by ``outcome``);
    ``relevant`` and ``fresh`` after the user's labels. ``start``: the rows of the steps
    from that index on only — a row depends on its own record and the labels alone, so the
    app appends the new steps' rows to the ones it keeps until an override (a relabel)
    changes the labels (issue 15; docs/DESIGN.md §14.4)."""
    rows = []
    fresh = labelled_fresh(session)
    for r in session.steps[start:]:
        label = session.labels.get(r.final_url)
        relevant = label if label is not None else (
            r.relevance is not None and r.relevance >= EVIDENCE_RELEVANCE
        )
        rows.append(
            PageRow(
                step=r.step, url=r.final_url, title=r.title, outcome=r.outcome,
                status=r.status, relevance=r.relevance, relevant=bool(relevant),
                user_label=label, fresh=fresh.get(r.step, r.fresh),
                evidence_added=sum(r.evidence_added),
                subtree=r.subtree, depth=r.depth, score=r.score, blind=r.blind,
                verdict=r.verdict,
            )
        )
    return rows


def labelled_fresh(session: ReadableSession) -> dict[int, bool]:
    """Step → freshness under the user's labels, for the steps where it differs from the
    record (a relabel replays the stop rules, session/rules.py); empty without labels."""
    if not session.labels:
        return {}
    if isinstance(session, CrawlSessionLike):
        return session.fresh_flags()
    key = (len(session.steps), len(session.overrides), tuple(sorted(session.labels.items())))
    cached = _FRESH_CACHE.get(session)
    if cached is None or cached[0] != key:
        replayed = replay_rules(session.config, session.steps, session.overrides, session.labels)
        flags = {step: hit for step, hit in replayed.fresh.items()
                 if hit != session.steps[step - 1].fresh}
        cached = (key, flags)
        _FRESH_CACHE[session] = cached
    return dict(cached[1])


@runtime_checkable
class CrawlSessionLike(Protocol):
    """A session that keeps its labelled freshness itself (a live ``CrawlSession``)."""

    def fresh_flags(self) -> dict[int, bool]: ...


_FRESH_CACHE: weakref.WeakKeyDictionary[object, tuple[object, dict[int, bool]]] = (
    weakref.WeakKeyDictionary()
)


def start_failure(steps: Sequence[StepRecord], reason: StopReason | None = None) -> str | None:
    """Why a crawl that read no page could not start, from its first step: a refused
    connection, a 404, robots.txt, a start URL that is not an HTML page. And, when
    ``reason`` (the session's stop reason) says it ran out of links after its start page
    alone, why it could go no further: an empty page, one without links, or links none of
    which may be followed (a 0-byte start page said only "exhausted"). None otherwise, and
    before the first step."""
    if (len(steps) == 1 and steps[0].outcome is StepOutcome.FETCHED
            and reason is StopReason.EXHAUSTED):
        first = steps[0]
        found = int((first.links or {}).get("found", 0))
        name = f"{first.url} (“{first.title}”)" if first.title else first.url
        if found:
            return (f"{name} was read, but none of its {found} links may be followed (the "
                    "start page's step says why each was skipped)")
        what = "is empty" if not first.markdown.strip() else "has no link to follow"
        return f"{name} was read but {what}: there is nothing to crawl from it"
    if not steps or any(r.outcome is StepOutcome.FETCHED for r in steps):
        return None
    first = steps[0]
    if first.outcome is StepOutcome.SKIPPED:
        kind = first.content_type or "no content type"
        return f"{first.url} is not an HTML page ({kind}): there is nothing to read or follow"
    if first.outcome is StepOutcome.ERROR:
        return f"{first.url}: {first.error or 'the fetch failed'}"
    return None


def replayed_wilson_table(session: ReadableSession) -> list[PartStats]:
    """The Wilson table rebuilt from the records and overrides, exactly as the live harvest
    was fed (docs/DESIGN.md §11.8), with the freshness the user's labels give: what an
    imported view shows."""
    harvest = Harvest(z=z_two_sided(session.config.delta))
    fresh = labelled_fresh(session)
    for record in session.steps:
        if record.outcome is StepOutcome.FETCHED:
            harvest.observe(record.subtree, fresh.get(record.step, record.fresh))
    forced: dict[str, SubtreeState] = {}
    for event in session.overrides:
        if event.kind is OverrideKind.FORCE_DRY:
            forced[event.target] = SubtreeState.DRY
        elif event.kind is OverrideKind.KEEP_OPEN:
            forced[event.target] = SubtreeState.OPEN
        elif event.kind is OverrideKind.CLEAR_SUBTREE:
            forced.pop(event.target, None)
    return wilson_rows(harvest, forced.get)


def live_wilson_table(session: LiveSession) -> list[PartStats]:
    """Every subtree seen so far with its interval against the rest, most pages first."""
    return wilson_rows(session.state.subtrees, session.state.forced)


def frontier_rows(session: LiveSession, n: int = 20) -> list[FrontierRow]:
    """The best ``n`` queued links in pop order, with their score explanations."""
    state, seed_host = session.state, session.config.seed_host
    demoted = state.demoted_templates()
    rows = []
    for rank, entry in enumerate(state.queue.top(n, demoted), start=1):
        signal = signal_of(entry)
        rows.append(
            FrontierRow(
                rank=rank, key=entry.key, url=entry.url, score=entry.score,
                depth=entry.depth, cluster=cluster_key(entry.url),
                subtree=subtree(seed_host, entry.url),
                blind=bool(signal is not None and signal.blind),
                furniture=bool(signal is not None and signal.furniture),
                pinned=entry.pinned, demoted=entry.template in demoted,
                anchor=signal.anchor if signal is not None else "(seed)",
                explanation=state.explain(signal).to_dict() if signal else None,
            )
        )
    return rows


def live_summary(session: LiveSession) -> dict[str, Any]:
    """The headline numbers as plain JSON values (a bundle's ``final.summary``)."""
    adaptive, query = session.state.adaptive, session.state.query
    fetched = [r for r in session.steps if r.outcome is StepOutcome.FETCHED]
    # the freshness the pages table, the CSV and the subtrees show: after the user's labels
    fresh = labelled_fresh(session)
    # the links past max_links_per_page of each page that had more: counted, not read
    # (enqueue.LinkTally.not_considered); one pass, as the live view asks every rerun
    not_read = [count for r in session.steps if (count := _not_read(r))]
    summary = {
        "steps": len(session.steps),
        "pages_fetched": session.pages_fetched,
        "pages_scheduled": session.pages_scheduled,
        "relevant_pages": session.relevant_pages,
        # relevant pages per page fetched (Chakrabarti, van den Berg & Dom 1999), as Compare
        # and the sweeps plot it; the share that brought new on-topic content is apart
        "harvest_rate": harvest_rate(session.relevant_pages, session.pages_fetched),
        "fresh_rate": (sum(fresh.get(r.step, r.fresh) for r in fetched) / len(fetched)
                       if fetched else 0.0),
        "coverage": adaptive.coverage(),
        "covered": adaptive.covered(),
        "evidence": dict(zip(query.terms, adaptive.evidence, strict=True)),
        # the counters now, as coverage: a label or a forgive moves them between two steps
        "stale": adaptive.stale,
        "cold": adaptive.cold,
        "queue_length": len(session.state.queue),
        # queued links of subtrees found or forced dry: dropped when popped, never fetched
        "queue_in_dry": session.state.queue.count_in(session.state.is_dry),
        "stop_reason": session.stop_reason.value if session.stop_reason else None,
        "first_verdict": session.first_verdict.value if session.first_verdict else None,
        "stop_step": session.stop_step,
        "verdicts": [verdict.to_list() for verdict in session.verdicts],
        "done": session.done,
        # the query pairs learned to make copies (name=value → paths of copies that taught
        # it) and the links left unfetched for them (frontier/copyparams.py)
        "copy_parameters": session.state.copy_params.learned(),
        "copies_not_fetched": session.state.copies_left,
        "pages_over_link_cap": len(not_read),
        "links_not_read": sum(not_read),
    }
    if session.interruption:
        summary.update(_as_recorded(session))
    return summary


def page_budget(session: ReadableSession) -> int:
    """The page budget now: the config's, or the last one the user raised it to
    (``CrawlSession.raise_limit``; an imported session reads it off its overrides)."""
    raised = [raised_budget(event.target) for event in session.overrides
              if event.kind is OverrideKind.RAISE_LIMIT]
    return raised[-1] if raised else session.config.limit


def harvest_rate(relevant_pages: int, pages_fetched: int) -> float:
    """Relevant pages per page fetched (0 before any page): the focused-crawling harvest
    rate (Chakrabarti, van den Berg & Dom 1999), as every view names it."""
    return min(relevant_pages / pages_fetched, 1.0) if pages_fetched else 0.0


def _as_recorded(session: LiveSession) -> dict[str, Any]:
    """The counts of a session whose last step broke off half-way, as its records have them:
    the live counters already hold part of that step (a page counted, a verdict fired), and
    a summary of 55 pages in 54 steps, with a verdict at step 55, named a step no record,
    bundle or CSV has."""
    steps = len(session.steps)
    last = session.steps[-1] if session.steps else None
    stop_step = session.stop_step
    if stop_step is not None and stop_step > steps:
        stop_step = None
    pages = last.pages_fetched if last else 0
    relevant = sum(row.relevant for row in page_rows(session))
    return {
        "pages_fetched": pages,
        "pages_scheduled": last.pages_scheduled if last else 0,
        "relevant_pages": relevant,
        "harvest_rate": harvest_rate(relevant, pages),
        "coverage": last.coverage if last else 0.0,
        "covered": last.covered if last else False,
        "evidence": dict(zip(last.terms, last.evidence, strict=True)) if last else {},
        "stale": last.stale if last else 0,
        "cold": last.cold if last else 0,
        "queue_length": last.queue_length if last else 0,
        "queue_in_dry": 0,
        "stop_step": stop_step,
        "first_verdict": session.first_verdict.value if stop_step is not None
        and session.first_verdict else None,
        "verdicts": [verdict.to_list() for verdict in session.verdicts if verdict.step <= steps],
    }


def _not_read(record: StepRecord) -> int:
    """The links of a step's page past ``max_links_per_page``: counted, not read."""
    return int((record.links or {}).get("not_considered", 0))
