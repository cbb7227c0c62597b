"""Count issue 11's seven mechanisms in the focused crawl's step records on the dev sets.

Run: ``nice -n 10 python3 benchmarks/analyse_mechanisms.py`` (about 10 minutes; ``--only
pydocs``, ``--query asyncio``). Writes ``benchmarks/results/mechanisms.json`` and
``mechanisms.md`` (a partial run: ``benchmarks/results/partial/``). It changes nothing in the
crawler: it runs the same focused crawl as ``run_all.py`` (200 pages, default settings,
verdicts recorded and crawled past) and reads, per query:

1. **section floor**: pages among the first 50 / all taken through a link whose score the
   section floor raised (the floor was binding), how many of those were blind, how many were
   truth pages; truth links offered blind from a relevant page (relevance ≥ 0.15) that scored
   below a seed-level floor link (0.25 × 0.9);
2. **queue losses**: offers the queue refused (``rejected``) or dropped (``evicted``); truth
   pages refused or evicted at least once, and those never fetched within the budget;
3. **depth**: fetched pages whose crawl depth exceeds their shortest click distance from the
   seed, in the whole site graph and along the links the crawl had read before it fetched
   the page (the first ``max_links_per_page`` of each page, as the crawler reads them);
   truth pages among them, the largest excess;
4. **siblings**: once three truth pages were fetched and judged relevant (≥ 0.15), the truth
   pages still queued: their ranks and scores, how many of them were blind, when (if ever)
   they were fetched; how many truth pages the crawler itself judged relevant, and how well
   its relevance tells truth pages from the other pages it fetched (AUC);
5. **weight drift**: the link model's used weights (anchor, locator, context, parent,
   phrase) at pages 1, 50 and the end;
6. **stops**: every verdict with its fate; the first that stood: pages, recall, coverage, how
   many of the 5 pages before it came through blind floor links, whether the head of the
   queue before the step was blind (the pending-lead check then cannot forgive);
7. **what counts as a page**: duplicate steps, non-HTML and failed fetches within the budget,
   fetched pages declaring hreflang alternates or a canonical URL other than their own, and
   near-duplicate pairs among the fetched pages (Jaccard ≥ 0.9 of 5-word shingles).
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from docsites import LIMIT, SITES, DocSite, rebase, site_graph  # noqa: E402
from pagecache import shared_extraction  # noqa: E402

import pagesift_ui.page.extract as extract_module  # noqa: E402
from pagesift_ui.bench.graph import SiteGraph  # noqa: E402
from pagesift_ui.bench.run import _floored  # noqa: E402
from pagesift_ui.bench.truth import Truth, url_key  # noqa: E402
from pagesift_ui.frontier.adaptive import EVIDENCE_RELEVANCE  # noqa: E402
from pagesift_ui.frontier.links import DEPTH_DECAY  # noqa: E402
from pagesift_ui.frontier.model import FEATURE_NAMES  # noqa: E402
from pagesift_ui.frontier.queue import BestFirst  # noqa: E402
from pagesift_ui.net.fetcher import Fetcher, FetchResult  # noqa: E402
from pagesift_ui.net.serve import StaticServer  # noqa: E402
from pagesift_ui.session import CrawlConfig, CrawlSession, StepOutcome, StepRecord  # noqa: E402

logger = logging.getLogger("mechanisms")

RESULTS = ROOT / "benchmarks" / "results"
# What the section floor (0.25, removed in issue 11) gave a blind entry of the seed's contents:
# the baseline's yardstick, kept so runs before and after the change count alike.
SEED_FLOOR_SCORE = 0.25 * DEPTH_DECAY
SHINGLE = 5
NEAR_DUPLICATE = 0.9


@dataclass(slots=True)
class Offer:
    step: int
    key: str
    outcome: str
    evicted: str | None
    score: float
    blind: bool | None


@dataclass(slots=True)
class OfferLog:
    """Every ``BestFirst.offer`` of the crawl under analysis, with the step it came from."""

    offers: list[Offer] = field(default_factory=list)
    step: int = 0


@contextmanager
def logged_offers(log: OfferLog) -> Iterator[None]:
    """Record what the queue did with every link offered (the crawler is not changed)."""
    original = BestFirst.offer

    def offer(self: BestFirst, key: str, url: str, depth: int, score: float,
              signal: object | None, room: int) -> Any:
        outcome, evicted = original(self, key, url, depth, score, signal, room)
        log.offers.append(Offer(log.step, key, outcome.value, evicted, score,
                                getattr(signal, "blind", None)))
        return outcome, evicted

    BestFirst.offer = offer  # type: ignore[method-assign]
    try:
        yield
    finally:
        BestFirst.offer = original  # type: ignore[method-assign]


class Recording:
    """A page source that keeps every answer, so the pages can be read again after."""

    def __init__(self, inner: Fetcher) -> None:
        self._inner = inner
        self.results: dict[str, FetchResult] = {}

    def fetch(self, url: str) -> FetchResult:
        result = self._inner.fetch(url)
        self.results[url_key(result.final_url)] = result
        return result

    def prefetch(self, urls: Sequence[str]) -> None:
        self._inner.prefetch(urls)

    def allowed_by_robots(self, url: str) -> bool:
        return self._inner.allowed_by_robots(url)

    def close(self) -> None:
        self._inner.close()


def distances(graph: SiteGraph, seed: str) -> dict[str, int]:
    """Shortest click distance of every page of the graph from ``seed``."""
    start = graph.aliases.get(seed, seed)
    dist = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for node in frontier:
            for raw in graph.edges.get(node, ()):
                target = graph.aliases.get(raw, raw)
                if target not in dist:
                    dist[target] = dist[node] + 1
                    nxt.append(target)
        frontier = nxt
    return dist


def _key(record: StepRecord) -> str:
    return url_key(record.final_url or record.url)


def _path(url: str) -> str:
    return "/" + url.split("/", 3)[-1] if url.count("/") >= 3 else url


def _shingles(text: str) -> set[int]:
    words = text.split()[:20000]
    return {hash(tuple(words[i:i + SHINGLE])) for i in range(max(0, len(words) - SHINGLE + 1))}


def _near_duplicates(texts: dict[str, str]) -> list[tuple[str, str, float]]:
    sets = {k: s for k, t in texts.items() if len(s := _shingles(t)) >= 50}
    keys = sorted(sets)
    pairs = []
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            small, large = sorted((len(sets[a]), len(sets[b])))
            if small < NEAR_DUPLICATE * large:
                continue  # Jaccard ≤ small / large
            inter = len(sets[a] & sets[b])
            jac = inter / (len(sets[a]) + len(sets[b]) - inter)
            if jac >= NEAR_DUPLICATE:
                pairs.append((_path(a), _path(b), round(jac, 3)))
    return pairs


def analyse(site: DocSite, name: str, base: str, graph: SiteGraph,
            limit: int = LIMIT) -> dict[str, Any]:
    truth: Truth = rebase(site.truth(name), base)
    keys = truth.keys
    dist = distances(graph, url_key(truth.seed))
    config = CrawlConfig.from_mapping({"seed_url": truth.seed, "query": truth.query,
                                       "limit": limit, "delay_s": 0.0,
                                       "stop_on_verdict": False})
    source = Recording(Fetcher(config.fetch_policy()))
    log = OfferLog()
    records: list[StepRecord] = []
    heads: list[list[tuple[str, float, bool]]] = [[]]  # queue head before each step
    siblings: dict[str, Any] = {}
    truth_relevance: dict[str, float] = {}
    fetched_at: dict[str, int] = {}
    started = time.perf_counter()
    with logged_offers(log), CrawlSession(config, source) as session:
        log.step = 1
        for record in session.iter_steps():
            records.append(record)
            key = _key(record)
            if record.outcome is not StepOutcome.DUPLICATE:
                fetched_at.setdefault(key, record.pages_scheduled)
            if key in keys and record.relevance is not None and key not in truth_relevance:
                truth_relevance[key] = record.relevance
                if len(truth_relevance) == 3:
                    siblings = _sibling_snapshot(session, keys, fetched_at, record)
                    siblings["first_three_relevance"] = [round(v, 3)
                                                         for v in truth_relevance.values()]
            heads.append([(r.key, r.score, r.blind) for r in session.frontier(3)])
            log.step = record.step + 1
        queued_at_end = {r.key for r in session.frontier(100_000)}
    seconds = time.perf_counter() - started
    if siblings:
        for row in siblings["queued"]:
            row["fetched_at_page"] = fetched_at.get(row["key"])
            row["key"] = _path(row["key"])
        waiting = [r for r in siblings["queued"] if r["fetched_at_page"] is None]
        siblings["never_fetched"] = len(waiting)
    return {
        "label": f"{site.name}-{name}", "query": truth.query, "relevant": len(keys),
        "seconds": round(seconds, 1),
        "floor": _floor(records, keys, log, dist),
        "queue": _queue(log, keys, fetched_at, queued_at_end, limit),
        "depth": {**_depth(records, keys, dist),
                  **_known_depth(records, keys, source, truth.seed,
                                 getattr(config, "max_links_per_page", None))},
        "siblings": siblings or {"note": "fewer than three truth pages fetched"},
        "truth_relevance": {
            **_relevance_auc(records, keys),
            "fetched": len(truth_relevance),
            "judged_relevant": sum(1 for v in truth_relevance.values()
                                   if v >= EVIDENCE_RELEVANCE),
            "median": round(statistics.median(truth_relevance.values()), 3)
            if truth_relevance else None},
        "weights": _weights(records),
        "stops": _stops(records, keys, heads, fetched_at),
        "pages": _pages(records, source),
    }


def _sibling_snapshot(session: CrawlSession, keys: frozenset[str],
                      fetched_at: dict[str, int], record: StepRecord) -> dict[str, Any]:
    rows = session.frontier(100_000)
    queued = [{"key": r.key, "rank": r.rank, "of": len(rows), "score": round(r.score, 4),
               "blind": r.blind} for r in rows if r.key in keys]
    return {"at_page": record.pages_scheduled,
            "truth_fetched": sum(1 for k in keys if k in fetched_at),
            "queued": queued,
            "queued_blind": sum(1 for r in queued if r["blind"]),
            "median_rank": statistics.median([r["rank"] for r in queued]) if queued else None,
            "queue_head_score": round(rows[0].score, 4) if rows else None}


def _pages_only(records: list[StepRecord]) -> list[StepRecord]:
    return [r for r in records if r.outcome is not StepOutcome.DUPLICATE]


def _floor(records: list[StepRecord], keys: frozenset[str], log: OfferLog,
           dist: dict[str, int]) -> dict[str, Any]:
    pages = _pages_only(records)[1:]  # the seed came through no link
    out: dict[str, Any] = {}
    for name, n in (("first_50", 50), ("all", len(pages) + 1)):
        head = pages[: n - 1]
        floored = [r for r in head if _floored(r.link)]
        out[name] = {
            "pages": len(head) + 1,
            "floor_links": len(floored),
            "blind_floor_links": sum(1 for r in floored if r.blind),
            "floor_links_to_truth": sum(1 for r in floored if _key(r) in keys),
            "floor_links_relevant": sum(1 for r in floored
                                        if (r.relevance or 0) >= EVIDENCE_RELEVANCE),
        }
    relevance_at = {r.step: (r.relevance or 0.0) for r in records}
    buried = {}
    for offer in log.offers:
        if (offer.key in keys and offer.blind and offer.score < SEED_FLOOR_SCORE
                and relevance_at.get(offer.step, 0.0) >= EVIDENCE_RELEVANCE):
            buried.setdefault(offer.key, round(offer.score, 4))
    out["truth_blind_from_relevant_below_seed_floor"] = len(buried)
    out["examples"] = [f"{_path(k)} {s}" for k, s in list(buried.items())[:5]]
    truth_pages = [r for r in pages if _key(r) in keys]
    out["truth_fetched_via_floor"] = sum(1 for r in truth_pages if _floored(r.link))
    out["truth_fetched_blind"] = sum(1 for r in truth_pages if r.blind)
    out["truth_fetched"] = len(truth_pages)
    return out


def _queue(log: OfferLog, keys: frozenset[str], fetched_at: dict[str, int],
           queued_at_end: set[str], limit: int) -> dict[str, Any]:
    counts = Counter(o.outcome for o in log.offers)
    refused = {o.key for o in log.offers if o.outcome == "rejected"}
    evicted = {o.evicted for o in log.offers if o.evicted}
    truth_refused = {k for k in refused | evicted if k in keys}
    lost = sorted(k for k in truth_refused if k not in fetched_at)
    return {
        "offers": dict(counts),
        "evicted": len([o for o in log.offers if o.evicted]),
        "truth_rejected_or_evicted": len(truth_refused),
        "truth_rejected_or_evicted_never_fetched": len(lost),
        "truth_lost_for_good": sum(1 for k in lost if k not in queued_at_end),
        "examples": [_path(k) for k in lost[:6]],
        "limit": limit,
    }


def _depth(records: list[StepRecord], keys: frozenset[str],
           dist: dict[str, int]) -> dict[str, Any]:
    excess = []
    truth_excess = []
    seed_children_deep = 0
    for r in _pages_only(records):
        shortest = dist.get(_key(r))
        if shortest is None or r.depth <= shortest:
            continue
        seed_children_deep += shortest == 1 and r.depth >= 3
        excess.append(r.depth - shortest)
        if _key(r) in keys:
            truth_excess.append((_path(_key(r)), r.depth, shortest))
    return {
        "pages_deeper_than_shortest": len(excess),
        "max_excess": max(excess, default=0),
        "mean_excess": round(statistics.fmean(excess), 2) if excess else 0,
        "seed_links_fetched_at_depth_3_or_more": seed_children_deep,
        "truth_pages_deeper": len(truth_excess),
        "truth_examples": [f"{p} depth {d} (shortest {s})" for p, d, s in truth_excess[:5]],
    }


def _known_depth(records: list[StepRecord], keys: frozenset[str], source: Recording,
                 seed: str, cap: int | None) -> dict[str, Any]:
    """Crawl depth against the shortest click distance the crawl *knew* when it fetched the
    page (through the links of the pages fetched before it, the first ``cap`` of each as the
    crawler reads them): mechanism 3 as the issue states it."""
    known: dict[str, int] = {url_key(seed): 0}
    deeper = truth_deeper = 0
    excess: list[int] = []
    for r in _pages_only(records):
        requested = url_key(r.url)
        shortest = known.get(requested)
        if shortest is not None and r.depth > shortest:
            deeper += 1
            excess.append(r.depth - shortest)
            truth_deeper += _key(r) in keys
        result = source.results.get(_key(r))
        if result is None:
            continue
        page = extract_module.extract(result.body, result.final_url, encoding=result.encoding)
        base = min(r.depth, shortest) if shortest is not None else r.depth
        for link in page.links[:cap]:
            try:
                target = url_key(link.url)
            except ValueError:
                continue
            if known.get(target, base + 2) > base + 1:
                known[target] = base + 1
    return {"pages_deeper_than_known": deeper, "truth_deeper_than_known": truth_deeper,
            "max_excess_over_known": max(excess, default=0)}


def _relevance_auc(records: list[StepRecord], keys: frozenset[str]) -> dict[str, Any]:
    """Does the crawler's page relevance tell truth pages from the others it fetched?
    AUC (Mann-Whitney, average ranks) and the median relevance of the other pages."""
    scored = [(r.relevance, _key(r) in keys) for r in _pages_only(records)
              if r.relevance is not None]
    pos = [v for v, t in scored if t]
    neg = [v for v, t in scored if not t]
    if not pos or not neg:
        return {"auc": None, "others_median": None}
    ordered = sorted(scored, key=lambda x: x[0])
    ranks: dict[int, float] = {}
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1][0] == ordered[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        i = j + 1
    rank_sum = sum(ranks[k] for k, (_, t) in enumerate(ordered) if t)
    auc = (rank_sum - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg))
    return {"auc": round(auc, 3), "others_median": round(statistics.median(neg), 3)}


def _weights(records: list[StepRecord]) -> dict[str, Any]:
    pages = _pages_only(records)

    def at(n: int) -> dict[str, float]:
        r = pages[min(n, len(pages)) - 1]
        return {name: round(w, 3) for name, w in zip(FEATURE_NAMES, r.link_weights,
                                                      strict=False)}

    return {"page_1": at(1), "page_50": at(50), "end": at(len(pages))}


def _stops(records: list[StepRecord], keys: frozenset[str],
           heads: list[list[tuple[str, float, bool]]],
           fetched_at: dict[str, int]) -> dict[str, Any]:
    verdicts = []
    found: set[str] = set()
    first_stood: dict[str, Any] | None = None
    truth_pages = [fetched_at[k] for k in keys if k in fetched_at]
    truth_pages.sort()
    need = -(-9 * len(keys) // 10)  # pages to 90%: the ceil(0.9·n)-th truth page fetched
    p90 = truth_pages[need - 1] if len(truth_pages) >= need else None
    for index, r in enumerate(records):
        if _key(r) in keys:
            found.add(_key(r))
        if r.verdict is None:
            continue
        floor_blind = r.blind and _floored(r.link)
        row = {"pages": r.pages_scheduled, "reason": r.verdict.value, "fate": r.verdict_fate.value,
               "on_blind_floor_fetch": floor_blind, "coverage": round(r.coverage, 3),
               "recall": round(len(found) / len(keys), 3), "lead_pending": r.lead_pending}
        verdicts.append(row)
        if first_stood is None and r.verdict_fate.value != "auto_forgiven":
            before = _pages_only(records[:index])[-5:]
            popped = _key(r)
            head = next((h for h in heads[index] if h[0] != popped), None)
            first_stood = {**row, "blind_floor_in_5_before": sum(
                1 for b in before if b.blind and _floored(b.link)),
                "head_blind": head[2] if head else None,
                "head_score": round(head[1], 4) if head else None,
                "pages_to_90": p90}
    return {
        "verdicts": len(verdicts),
        "by_fate": dict(Counter(v["fate"] for v in verdicts)),
        "on_blind_floor_fetch": sum(1 for v in verdicts if v["on_blind_floor_fetch"]),
        "first_stood": first_stood,
        "all": verdicts[:40],
    }


def _pages(records: list[StepRecord], source: Recording) -> dict[str, Any]:
    outcomes = Counter(r.outcome.value for r in records)
    alternates = canonical_other = noindex = 0
    texts: dict[str, str] = {}
    pages = {_key(r) for r in _pages_only(records)}
    for key, result in source.results.items():
        if key not in pages:
            continue  # a duplicate step: counted in outcomes, not a near-duplicate pair
        page = extract_module.extract(result.body, result.final_url, encoding=result.encoding)
        alternates += bool(page.alternates)
        noindex += page.noindex
        if page.canonical and url_key(page.canonical) != key:
            canonical_other += 1
        texts[key] = page.text
    pairs = _near_duplicates(texts)
    return {"steps": len(records), "outcomes": dict(outcomes),
            "with_hreflang_alternates": alternates, "canonical_elsewhere": canonical_other,
            "noindex": noindex, "near_duplicate_pairs": len(pairs), "pair_examples": pairs[:5]}


# --------------------------------------------------------------------------- report


def _table(title: str, header: list[str], rows: list[list[Any]]) -> str:
    lines = [f"### {title}\n", "| " + " | ".join(header) + " |",
             "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def totals(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The sums and medians the DECISIONS summary quotes."""
    pages = sum(r["floor"]["all"]["pages"] - 1 for r in rows)
    return {
        "queries": len(rows),
        "pages_after_seed": pages,
        "floor_links": sum(r["floor"]["all"]["floor_links"] for r in rows),
        "blind_floor_links": sum(r["floor"]["all"]["blind_floor_links"] for r in rows),
        "floor_links_to_truth": sum(r["floor"]["all"]["floor_links_to_truth"] for r in rows),
        "floor_links_first_50": sum(r["floor"]["first_50"]["floor_links"] for r in rows),
        "truth_blind_from_relevant_below_seed_floor":
            sum(r["floor"]["truth_blind_from_relevant_below_seed_floor"] for r in rows),
        "truth_rejected_or_evicted": sum(r["queue"]["truth_rejected_or_evicted"] for r in rows),
        "truth_rejected_or_evicted_never_fetched":
            sum(r["queue"]["truth_rejected_or_evicted_never_fetched"] for r in rows),
        "truth_lost_for_good": sum(r["queue"]["truth_lost_for_good"] for r in rows),
        "pages_deeper_than_shortest": sum(r["depth"]["pages_deeper_than_shortest"] for r in rows),
        "seed_links_fetched_at_depth_3_or_more":
            sum(r["depth"]["seed_links_fetched_at_depth_3_or_more"] for r in rows),
        "truth_pages_deeper": sum(r["depth"]["truth_pages_deeper"] for r in rows),
        "pages_deeper_than_known": sum(r["depth"]["pages_deeper_than_known"] for r in rows),
        "truth_deeper_than_known": sum(r["depth"]["truth_deeper_than_known"] for r in rows),
        "median_relevance_auc": statistics.median(
            [a for r in rows if (a := r["truth_relevance"]["auc"]) is not None] or [0]),
        "truth_fetched": sum(r["truth_relevance"]["fetched"] for r in rows),
        "truth_judged_relevant": sum(r["truth_relevance"]["judged_relevant"] for r in rows),
        "weights_moved_by_page_50": sum(
            1 for r in rows if r["weights"]["page_50"] != r["weights"]["page_1"]),
        "verdicts": sum(r["stops"]["verdicts"] for r in rows),
        "verdicts_on_blind_floor_fetch": sum(r["stops"]["on_blind_floor_fetch"] for r in rows),
        "first_stood_with_blind_head": sum(
            1 for r in rows if (r["stops"]["first_stood"] or {}).get("head_blind")),
        "duplicate_steps": sum(r["pages"]["outcomes"].get("duplicate", 0) for r in rows),
        "hreflang_pages": sum(r["pages"]["with_hreflang_alternates"] for r in rows),
        "near_duplicate_pairs": sum(r["pages"]["near_duplicate_pairs"] for r in rows),
    }


def markdown(rows: list[dict[str, Any]], minutes: float) -> str:
    out = ["# Issue 11's mechanisms in the focused crawl's step records\n",
           f"Generated by `python3 benchmarks/analyse_mechanisms.py` ({minutes:.1f} min): the "
           f"focused crawl, {LIMIT} pages, default settings, verdicts recorded and crawled past. "
           "Pages are fetches that count against the budget (duplicates are steps, not pages). "
           "What each column counts: the script's docstring. Totals over all queries: "
           "`mechanisms.json` (`totals`).\n"]
    out.append(_table(
        "1-3: section floor, queue losses, depth",
        ["query", "floor links, first 50 pages (blind, to truth)", "all pages (blind, to truth)",
         "truth offered blind from a relevant page below a seed floor link",
         "offers rejected + evicted", "truth refused (never fetched, not queued at the end)",
         "pages deeper than shortest in the site graph (max excess)",
         "deeper than the shortest path the crawl knew (max excess)",
         "seed links fetched at depth ≥ 3", "truth deeper (than known)"],
        [[r["label"],
          f"{r['floor']['first_50']['floor_links']} ({r['floor']['first_50']['blind_floor_links']}"
          f", {r['floor']['first_50']['floor_links_to_truth']})",
          f"{r['floor']['all']['floor_links']} ({r['floor']['all']['blind_floor_links']}, "
          f"{r['floor']['all']['floor_links_to_truth']})",
          r["floor"]["truth_blind_from_relevant_below_seed_floor"],
          f"{r['queue']['offers'].get('rejected', 0)} + {r['queue']['evicted']}",
          f"{r['queue']['truth_rejected_or_evicted']} "
          f"({r['queue']['truth_rejected_or_evicted_never_fetched']}, "
          f"{r['queue']['truth_lost_for_good']})",
          f"{r['depth']['pages_deeper_than_shortest']} ({r['depth']['max_excess']})",
          f"{r['depth']['pages_deeper_than_known']} ({r['depth']['max_excess_over_known']})",
          r["depth"]["seed_links_fetched_at_depth_3_or_more"],
          f"{r['depth']['truth_pages_deeper']} ({r['depth']['truth_deeper_than_known']}) of "
          f"{r['truth_relevance']['fetched']}"]
         for r in rows]))
    sibling_rows = []
    for r in rows:
        s, tr, st = r["siblings"], r["truth_relevance"], r["stops"]["first_stood"]
        w = r["weights"]
        sibling_rows.append([
            r["label"],
            "–" if "queued" not in s else
            f"{len(s['queued'])} at page {s['at_page']} ({s['queued_blind']} blind, median rank "
            f"{s['median_rank']} of {s['queued'][0]['of'] if s['queued'] else 0}, "
            f"{s['never_fetched']} never fetched)",
            f"{tr['judged_relevant']} of {tr['fetched']} (median {tr['median']}; others "
            f"{tr['others_median']}; AUC {tr['auc']})",
            ", ".join(f"{k} {v}" for k, v in w["page_50"].items() if w["page_1"][k] != v) or "–",
            "none" if st is None else
            f"{st['pages']} {st['reason']}, recall {st['recall']:.0%}, 90% at "
            f"{st['pages_to_90'] or '–'}; {st['blind_floor_in_5_before']} of 5 before blind "
            f"floor; head blind {st['head_blind']}",
            f"{r['stops']['on_blind_floor_fetch']} of {r['stops']['verdicts']}",
            f"{r['pages']['outcomes'].get('duplicate', 0)}, "
            f"{sum(v for k, v in r['pages']['outcomes'].items() if k in ('skipped', 'error'))}, "
            f"{r['pages']['with_hreflang_alternates']}, {r['pages']['near_duplicate_pairs']}",
        ])
    out.append(_table(
        "4-7: siblings, weights, stops, what counts as a page",
        ["query", "truth queued when the 3rd truth page was fetched",
         "truth pages the crawler judged relevant (≥ 0.15; median relevance, of the other "
         "pages, AUC truth vs others)", "weights moved by page 50",
         "first verdict that stood", "verdicts fired on a blind floor fetch",
         "duplicate steps, non-HTML/failed, hreflang pages, near-duplicate pairs"],
        sibling_rows))
    total = totals(rows)
    out.append("### Totals\n\n" + "\n".join(f"- {k}: {v}" for k, v in total.items()) + "\n")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=list(SITES), default=None)
    parser.add_argument("--query", action="append", default=None)
    parser.add_argument("--limit", type=int, default=LIMIT)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    for noisy in ("httpx", "httpcore", "pagesift_ui.net.serve"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    full = not args.only and not args.query and args.limit == LIMIT
    out: Path = args.out or (RESULTS if full else RESULTS / "partial")
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    rows = []
    for name in args.only or list(SITES):
        site = SITES[name]
        if not site.installed():
            sys.stderr.write(f"analyse_mechanisms: skipping {name}: {site.missing}\n")
            continue
        with shared_extraction(), StaticServer(site.docs) as server:
            base = server.base_url() + "/"
            graph = site_graph(base + site.seed_page)
            for query in site.truth_names():
                if args.query and query not in args.query:
                    continue
                row = analyse(site, query, base, graph, args.limit)
                logger.info("%s: %.1f s", row["label"], row["seconds"])
                rows.append(json.loads(json.dumps(row).replace(base, "/")))
    minutes = (time.perf_counter() - started) / 60
    (out / "mechanisms.json").write_text(
        json.dumps({"totals": totals(rows), "queries": rows}, indent=1), encoding="utf-8")
    text = markdown(rows, minutes)
    (out / "mechanisms.md").write_text(text, encoding="utf-8")
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
