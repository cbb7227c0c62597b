"""Replay forgiveness rules over the dev sets' crawls, exactly, in seconds (issue 11).

Run: ``nice -n 5 python3 benchmarks/replay_stops.py`` (about 1.5 minutes to crawl; ``--rows
FILE`` keeps the crawled rows, and a later run with the same ``--rows`` replays from the file
in a second). Writes ``benchmarks/results/stops.json`` and prints one table; ``--held-out``
replays the held-out sets (about 6 minutes to crawl) into ``stops-held-out.json``.

Why a replay is exact: a stop verdict that is forgiven changes one thing in the crawl, the
"nothing new" count (``Adaptive.forgive``); ``--no-stop`` resets the same count (and the blind
count, which only ``no_relevant_pages`` reads). So the crawl ``run_all.py`` runs, every verdict
recorded and crawled past, *is* the crawl of any forgiveness rule up to the first verdict that
rule lets stand, and that verdict is where the rule stops. What a rule may read at a verdict:
the steps so far (score of the link when it was popped, relevance, freshness) and the queue's
best link outside dry subtrees, the same numbers the crawler has.

The rules replayed are the crawler's own (``frontier/leads.py``: the next five links to fetch
score on average at least the lowest score at fetch of the links that found pages with new
evidence; the first
``saturated`` verdict on a single source is forgiven once, one on under three quarters of
the terms always; and any verdict while relevant pages still come, ``LeadBar.still_finding``),
the crawler's before one bar for every verdict (then a verdict other than ``coverage_reached``
was judged by the links that found on-topic pages before the first verdict or relevant pages
since), before relevant pages still coming, before a covered query had its own bar, the
lead bar alone, the rule before it (on-topic pages throughout), an oracle that stands at the
first verdict with 90% recall (the bound any rule can reach on these crawls), and the
alternatives measured so far (docs/DECISIONS.md, issue 11, "forgiveness replayed"). Per rule:
mean recall at its stop and median (pages at stop ÷ pages to 90%), issue 11's two stopping
targets (≥ 0.90 and ≤ 1.5). Nothing touches the network but 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from docsites import HELD_OUT, SITES, no_stop_crawl  # noqa: E402
from pagecache import shared_extraction  # noqa: E402

from pagesift_ui.bench.truth import found_keys  # noqa: E402
from pagesift_ui.frontier.adaptive import (  # noqa: E402
    EVIDENCE_RELEVANCE,
    MIN_RELEVANCE,
    MIN_SOURCES,
    StopReason,
)
from pagesift_ui.frontier.leads import (  # noqa: E402
    THIN_EVIDENCE_SHARE,
    LeadBar,
    thin_evidence,
)
from pagesift_ui.net.fetcher import Fetcher  # noqa: E402
from pagesift_ui.session import CrawlSession  # noqa: E402
from pagesift_ui.session import crawl as crawl_module  # noqa: E402
from pagesift_ui.session.crawl import FORGIVABLE  # noqa: E402
from pagesift_ui.session.record import StepOutcome  # noqa: E402
from pagesift_ui.session.state import signal_of  # noqa: E402

logger = logging.getLogger("replay_stops")

RESULT = ROOT / "benchmarks" / "results" / "stops.json"
#: Where ``--held-out`` writes, so a replay of the held-out sets leaves the tuning sets' own.
RESULT_HELD_OUT = ROOT / "benchmarks" / "results" / "stops-held-out.json"
#: The queued links an expected-yield rule looks at: the seed's patience (``AdaptiveOptions``),
#: the run of pages the saturated verdict waits for.
HORIZON = 5

Row = dict[str, Any]
Rule = Callable[[Sequence[Row], int], bool]  # (steps so far, index of the verdict) → forgive?


class QueueAtJudgement:
    """Wraps the session's ``pending_lead`` to keep the queue's best scores at the moment a
    step asks it: before the step's own links are queued, so after the step the head may be
    another link."""

    def __init__(self) -> None:
        self.head: float | None = None
        self.top: list[float] = []
        self.head_mask = 0
        self.top_masks: list[int] = []
        self.evidence: list[int] = []
        self._pending_lead = getattr(crawl_module, "pending_lead")  # noqa: B009

    def __call__(self, state: Any, seed_host: str, ahead: Sequence[Any] = (),
                 reason: Any = None) -> Any:
        if ahead:
            raise ValueError("the replay assumes one fetch at a time (concurrency 1)")
        head = state.queue.first_outside(state.is_dry)
        self.top = [e.score for e in state.queue.top(HORIZON)]
        self.head_mask = _named_terms(head)
        self.top_masks = [_named_terms(e) for e in state.queue.top(HORIZON)]
        self.evidence = list(state.adaptive.evidence)  # per query term, at the verdict
        lead = self._pending_lead(state, seed_host, ahead, reason)
        # the score the crawler judges: the next LEAD_LINKS links' mean (frontier/leads.py)
        self.head = lead.head
        return lead


def _named_terms(entry: Any) -> int:
    """The query terms a queued link names (anchor, URL or context), as a bit mask."""
    signal = signal_of(entry) if entry is not None else None
    if signal is None:
        return 0
    return signal.anchor_mask | signal.locator_mask | signal.context_mask


def crawl_rows(site_name: str, name: str) -> dict[str, Any]:
    """One no-stop crawl of a dev query: a row per step, and the queue at each verdict."""
    with no_stop_crawl(site_name, name) as (truth, config):
        keys = frozenset(truth.keys)
        rows: list[Row] = []
        found: set[str] = set()
        pages = 0
        judged = QueueAtJudgement()
        setattr(crawl_module, "pending_lead", judged)  # noqa: B010
        try:
            with CrawlSession(config, Fetcher(config.fetch_policy())) as session:
                for record in session.iter_steps():
                    found |= found_keys(record) & keys
                    if record.outcome is not StepOutcome.DUPLICATE or pages == 0:
                        pages += 1  # a duplicate is a step, not a page (run_all.py)
                    row: Row = {
                        "pages": pages, "recall": len(found) / len(keys), "score": record.score,
                        "relevance": record.relevance or 0.0, "fresh": record.fresh,
                        "verdict": record.verdict.value if record.verdict else None,
                        "sources": record.sources,
                        # the page went through the stop rules (LeadBar.read counts it)
                        "observed": record.relevance is not None,
                    }
                    if record.verdict is not None:
                        row["head"], row["top"] = judged.head, judged.top
                        row["head_mask"], row["top_masks"] = judged.head_mask, judged.top_masks
                        row["evidence"] = judged.evidence
                        row["recorded"] = bool(record.lead_pending)  # the crawler's own answer
                    rows.append(row)
        finally:
            setattr(crawl_module, "pending_lead", judged._pending_lead)  # noqa: B010
    return {"site": site_name, "query": name, "rows": rows}


# --------------------------------------------------------------------------- rules


def lead_bar(hit: Callable[[Row], bool], quantile: float = 0.0) -> Rule:
    """Forgive while the best queued link scores at least the ``quantile`` of the fetch-time
    scores of the links whose page was a ``hit`` (0: the lowest, the crawler's rule before
    the first verdict)."""
    def rule(rows: Sequence[Row], index: int) -> bool:
        head = rows[index]["head"]
        scores = sorted(r["score"] for r in rows[1:index + 1] if hit(r))
        if head is None or head <= 0.0 or not scores:
            return False
        return bool(head >= scores[int(quantile * (len(scores) - 1))])
    return rule


def expected_yield(hit: Callable[[Row], bool], neighbours: int) -> Rule:
    """Forgive while the next ``HORIZON`` queued links are expected to bring at least one hit,
    each link's chance the hit rate of the ``neighbours`` fetched links whose fetch-time
    scores were nearest its score (one pseudo-miss)."""
    def rule(rows: Sequence[Row], index: int) -> bool:
        history = [(r["score"], hit(r)) for r in rows[1:index + 1]]
        top = rows[index]["top"]
        if not history or not top:
            return False
        expected = 0.0
        for score in top:
            near = sorted(history, key=lambda item: abs(item[0] - score))[:neighbours]
            expected += sum(h for _, h in near) / (len(near) + 1)
        return expected >= 1.0
    return rule


def recent_scores(window: int) -> Rule:
    """Forgive while the best queued link beats the median fetch-time score of the last
    ``window`` steps: something better than what has just failed is queued."""
    def rule(rows: Sequence[Row], index: int) -> bool:
        head = rows[index]["head"]
        recent = [r["score"] for r in rows[max(1, index - window + 1):index + 1]]
        return head is not None and bool(recent) and head > statistics.median(recent)
    return rule


def by_verdict(covered: Rule, saturated: Rule) -> Rule:
    """One rule for ``coverage_reached`` verdicts, another for the rest."""
    def rule(rows: Sequence[Row], index: int) -> bool:
        chosen = covered if rows[index]["verdict"] == "coverage_reached" else saturated
        return chosen(rows, index)
    return rule


def tail_bar(before: Callable[[Row], bool], since: Callable[[Row], bool]) -> Rule:
    """``lead_bar``, but a link joins the bar if its page was a ``before`` hit up to the first
    verdict (that step included) and a ``since`` hit after it (the crawler's rule with
    on-topic before and relevant since)."""
    def rule(rows: Sequence[Row], index: int) -> bool:
        head = rows[index]["head"]
        first = next(j for j in range(len(rows)) if rows[j]["verdict"])
        scores = [r["score"] for j, r in enumerate(rows[1:index + 1], start=1)
                  if (before(r) if j <= first else since(r))]
        if head is None or head <= 0.0 or not scores:
            return False
        return bool(head >= min(scores))
    return rule


def paid_off(rule: Rule, hit: Callable[[Row], bool], verdicts: int = 1) -> Rule:
    """``rule``, but a verdict after ``verdicts`` forgiven ones is forgiven only if a ``hit``
    page came since the earliest of them: forgivenesses that found nothing are a sign the
    leads are spent (``verdicts`` 1: since the last one)."""
    def forgive(rows: Sequence[Row], index: int) -> bool:
        if not rule(rows, index):
            return False
        earlier = [j for j in range(index - 1, 0, -1) if rows[j]["verdict"]][:verdicts]
        if len(earlier) < verdicts:
            return True
        return any(hit(r) for r in rows[earlier[-1] + 1:index + 1])
    return forgive


def names_unseen_term(rule: Rule, top: bool = False) -> Rule:
    """``rule``, or forgive while the queue's head (``top``: any of its first ``HORIZON``)
    names a query term that has no evidence yet: a lead on a part of the query not read."""
    def forgive(rows: Sequence[Row], index: int) -> bool:
        if rule(rows, index):
            return True
        row = rows[index]
        unseen = sum(1 << i for i, count in enumerate(row["evidence"]) if count == 0)
        masks = row["top_masks"] if top else [row["head_mask"]]
        return any(mask & unseen for mask in masks)
    return forgive


def one_source_once(rule: Rule) -> Rule:
    """``rule``, or forgive the first ``saturated`` verdict on fewer than ``MIN_SOURCES``
    sources that ``rule`` lets stand (``LeadBar.one_source_grace``): one source is not yet a
    find, and a crawl that has found nothing gets ``COLD_PATIENCE`` × patience pages."""
    def thin(row: Row) -> bool:
        return row["verdict"] == "saturated" and row["sources"] < MIN_SOURCES

    def forgive(rows: Sequence[Row], index: int) -> bool:
        if rule(rows, index):
            return True
        if not thin(rows[index]):
            return False
        return not any(thin(r) and not rule(rows, j) for j, r in enumerate(rows[:index]))
    return forgive


def thin_terms(rule: Rule, share: float = THIN_EVIDENCE_SHARE) -> Rule:
    """``rule``, or forgive a ``saturated`` verdict while under ``share`` of the query's
    terms have any evidence (``leads.thin_evidence``; the crawler's share by default)."""
    def forgive(rows: Sequence[Row], index: int) -> bool:
        row = rows[index]
        return rule(rows, index) or bool(
            thin_evidence(StopReason(row["verdict"]), row["evidence"], share))
    return forgive


def covered_names_a_term(rule: Rule, every_verdict: bool = False) -> Rule:
    """``rule``, but a ``coverage_reached`` verdict (``every_verdict``: any verdict) is
    forgiven only while the queue's head names a query term (anchor, URL or context): once
    every term has evidence, a blind lead says nothing about the query."""
    def forgive(rows: Sequence[Row], index: int) -> bool:
        row = rows[index]
        if not rule(rows, index):
            return False
        return bool(row["head_mask"]) or not (
            every_verdict or row["verdict"] == "coverage_reached")
    return forgive


def still_finding(rule: Rule, patience: int = HORIZON) -> Rule:
    """``rule``, or forgive while relevant pages still come: the crawler's own test
    (``LeadBar.still_finding``) over the pages the stop rules observed, the seed included.
    Rows crawled before the ``observed`` key count every step."""
    def forgive(rows: Sequence[Row], index: int) -> bool:
        if rule(rows, index):
            return True
        bar = LeadBar()
        for row in rows[:index + 1]:
            if row.get("observed", True):
                bar.read(row["relevance"])
        return bool(bar.still_finding(patience))
    return forgive


def on_topic(row: Row) -> bool:
    return bool(row["relevance"] >= MIN_RELEVANCE)


def relevant(row: Row) -> bool:
    return bool(row["relevance"] >= EVIDENCE_RELEVANCE)


def fresh(row: Row) -> bool:
    return bool(row["fresh"])


def oracle(rows: Sequence[Row], index: int) -> bool:
    return bool(rows[index]["recall"] < 0.9)


#: The verdicts the pending-lead check judges (the crawl's end by budget or an empty queue is
#: never forgiven).
FORGIVABLE_VERDICTS = frozenset(reason.value for reason in FORGIVABLE)
#: The pending-lead check before a covered query had its own bar: every verdict judged
#: against the links that found on-topic pages before the first verdict, relevant ones since.
ON_TOPIC_RULE = tail_bar(on_topic, relevant)
#: The pending-lead check before one bar for every verdict (``lead_bar_new_evidence`` off):
#: a ``coverage_reached`` verdict judged against the links that found fresh pages (pages that
#: brought new evidence), every other verdict against ``ON_TOPIC_RULE``.
TAIL_LEAD_RULE = by_verdict(lead_bar(fresh), ON_TOPIC_RULE)
#: The pending-lead check the crawler records at each step (``lead_pending``): every verdict
#: judged against the links that found fresh pages (``LeadBar.judge``, ``new_evidence``).
LEAD_RULE = lead_bar(fresh)

#: What the crawler forgave with before relevant pages still coming did: the tail lead bar,
#: the one-source grace, thin evidence.
BEFORE_STILL_FINDING = thin_terms(one_source_once(TAIL_LEAD_RULE))
#: ... and before one bar for every verdict: with relevant pages still coming.
BEFORE_ONE_BAR = still_finding(BEFORE_STILL_FINDING)
#: Everything the crawler forgives with: the lead bar of new evidence, the one-source grace,
#: thin evidence, relevant pages still coming.
CRAWLER_RULE = still_finding(thin_terms(one_source_once(LEAD_RULE)))

RULES: dict[str, Rule] = {
    "crawler (every verdict: lowest fresh-page score; a saturated verdict on one source "
    "forgiven once, and one on under 3/4 of the terms; any verdict while the last 5 pages "
    "read as relevant at least as often as the crawl so far)":
        CRAWLER_RULE,
    "the crawler's before one bar for every verdict (a covered query: lowest fresh-page "
    "score; else lowest on-topic score, relevant after the first verdict)":
        BEFORE_ONE_BAR,
    "the crawler's before relevant pages still coming forgave a verdict":
        BEFORE_STILL_FINDING,
    "the crawler's before a covered query had its own bar (lowest on-topic score, relevant "
    "after the first verdict, for every verdict)":
        thin_terms(one_source_once(ON_TOPIC_RULE)),
    "the crawler's before thin evidence (saturated on under 3/4 of the terms) was forgiven":
        one_source_once(TAIL_LEAD_RULE),
    "the crawler's, thin evidence at under 1/2 of the terms":
        thin_terms(one_source_once(TAIL_LEAD_RULE), 0.5),
    "the crawler's, thin evidence at under 2/3 of the terms":
        thin_terms(one_source_once(TAIL_LEAD_RULE), 2 / 3),
    "the crawler's, thin evidence until every term has some":
        thin_terms(one_source_once(TAIL_LEAD_RULE), 1.0),
    "the lead bar alone (the crawler's before the one-source grace)": TAIL_LEAD_RULE,
    "lowest on-topic score throughout (the crawler's before the tail rule)": lead_bar(on_topic),
    "oracle (stand at 90% recall)": oracle,
    "never stop (the 200-page budget)": lambda rows, index: True,
    "lower quartile of on-topic scores": lead_bar(on_topic, 0.25),
    "lowest relevant (≥ 0.15) score": lead_bar(relevant),
    "lowest fresh-page score": lead_bar(fresh),
    "expected on-topic yield ≥ 1 in 5 (10 nearest)": expected_yield(on_topic, 10),
    "expected relevant yield ≥ 1 in 5 (10 nearest)": expected_yield(relevant, 10),
    "head above the last 10 steps' median score": recent_scores(10),
    "covered: fresh-page bar; else the crawler's before":
        by_verdict(lead_bar(fresh), lead_bar(on_topic)),
    "the crawler's before, after a forgiveness only if a fresh page came since":
        paid_off(lead_bar(on_topic), fresh),
    "always, after a forgiveness only if a fresh page came since":
        paid_off(lambda rows, index: True, fresh),
    "the lead bar, or the head names a term with no evidence yet":
        names_unseen_term(TAIL_LEAD_RULE),
    "the lead bar, or one of the top 5 names a term with no evidence yet":
        names_unseen_term(TAIL_LEAD_RULE, top=True),
    "the crawler's, but a covered query forgives only a head that names a query term":
        covered_names_a_term(one_source_once(TAIL_LEAD_RULE)),
    "the crawler's, but any verdict is forgiven only for a head that names a query term":
        covered_names_a_term(one_source_once(TAIL_LEAD_RULE), every_verdict=True),
    "the crawler's, but a covered query forgives only a head as strong as a link that found "
    "a fresh page since the first verdict":
        thin_terms(one_source_once(by_verdict(tail_bar(on_topic, fresh), ON_TOPIC_RULE))),
    "the crawler's, after a forgiveness only if an on-topic page came since":
        paid_off(CRAWLER_RULE, on_topic),
    "the crawler's, after two forgivenesses only if an on-topic page came since the first":
        paid_off(CRAWLER_RULE, on_topic, verdicts=2),
    "the crawler's, after a forgiveness only if a relevant page came since":
        paid_off(CRAWLER_RULE, relevant),
    "the crawler's, after a forgiveness only if a fresh page came since":
        paid_off(CRAWLER_RULE, fresh),
}


# --------------------------------------------------------------------------- replay


def stop_row(rows: Sequence[Row], rule: Rule) -> Row:
    """The step where ``rule`` lets a verdict stand, else the last step (the budget)."""
    for index, row in enumerate(rows):
        if row["verdict"] and not rule(rows, index):
            return row
    return rows[-1]


def pages_to_90(rows: Sequence[Row]) -> int | None:
    return next((r["pages"] for r in rows if r["recall"] >= 0.9 - 1e-12), None)


def check_exact(crawls: Sequence[dict[str, Any]]) -> int:
    """Verdicts where the replayed pending-lead check and the crawler's recorded answer
    differ (0: the replay reads the same numbers the crawler did). The budget's end is left
    out: the row then says ``limit_reached``, while the check at that step judged the stop
    verdict it overrode, whose bar may be a covered query's."""
    return sum(1 for crawl in crawls for index, row in enumerate(crawl["rows"])
               if row["verdict"] in FORGIVABLE_VERDICTS
               and LEAD_RULE(crawl["rows"], index) != row["recorded"])


def replay(crawls: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Per rule: each query's stop (pages, recall) and the two stopping targets' numbers."""
    out: dict[str, Any] = {}
    for name, rule in RULES.items():
        per_query, recalls, ratios = {}, [], []
        for crawl in crawls:
            rows = crawl["rows"]
            stop, p90 = stop_row(rows, rule), pages_to_90(rows)
            per_query[f"{crawl['site']}-{crawl['query']}"] = {
                "pages": stop["pages"], "recall": round(stop["recall"], 3), "pages_to_90": p90}
            recalls.append(stop["recall"])
            if p90:
                ratios.append(stop["pages"] / p90)
        out[name] = {"mean_recall_at_stop": round(statistics.mean(recalls), 3),
                     "median_stop_over_pages_to_90": round(statistics.median(ratios), 2),
                     "queries": per_query}
    return out


def table(results: dict[str, Any]) -> str:
    lines = ["| forgiveness rule | mean recall at stop (≥ 0.90) | median stop ÷ pages to 90% "
             "(≤ 1.5) |", "|---|---|---|"]
    for name, result in results.items():
        lines.append(f"| {name} | {result['mean_recall_at_stop']:.3f} | "
                     f"{result['median_stop_over_pages_to_90']:.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=Path, help="crawled rows: read if present, else written")
    parser.add_argument("--out", type=Path, help=f"the results (default {RESULT.name}, "
                                                 f"or {RESULT_HELD_OUT.name} with --held-out)")
    parser.add_argument("--held-out", action="store_true",
                        help="replay the held-out sets (docsites.HELD_OUT) instead")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    if args.rows and args.rows.exists():
        crawls = json.loads(args.rows.read_text())
    else:
        crawls = []
        with shared_extraction():
            for site_name, site in (HELD_OUT if args.held_out else SITES).items():
                if not site.installed():
                    logger.warning("skipping %s: %s", site_name, site.missing)
                    continue
                for name in site.truth_names():
                    crawls.append(crawl_rows(site_name, name))
                    logger.info("%s %s crawled", site_name, name)
        if args.rows:
            args.rows.write_text(json.dumps(crawls))
    mismatches = check_exact(crawls)
    if mismatches:
        logger.error("%d verdicts replay differently from the crawler's record", mismatches)
    results = replay(crawls)
    out = args.out or (RESULT_HELD_OUT if args.held_out else RESULT)
    out.write_text(json.dumps(results, indent=1) + "\n")
    sys.stdout.write(table(results) + "\n")
    return 1 if mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
