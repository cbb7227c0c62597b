"""What better page relevance could buy: the dev crawls with the truth pages' relevance lifted.

Run: ``nice -n 5 python3 benchmarks/bound_relevance.py --mode oracle --site pgdocs`` (a few
minutes a site; ``--site`` repeatable, any tuning or held-out set; ``--mode lexical`` is the
crawler as it is and reproduces ``run_all.py``'s focused numbers exactly).

A bound, not a crawler: each crawl runs with default settings and no stop (as ``run_all.py``'s
focused crawls do, the first verdict that stands is its own stop), but the relevance of a
page the truth file lists is replaced before anything reads it — the stop rules, the link
model's label, the sibling, family and popularity credit, the parent feature of its links —
by ``max(relevance, 0.6)`` (``oracle``: a relevance function that always recognises an
answer) or ``min(relevance + 0.2, 1)`` (``lift``: one that scores answers a little higher);
every other page keeps its own. Links are ranked as ever: a lifted page changes only what the
crawl learns from pages it has read. So the gap between ``lexical`` and ``oracle`` is what a
better *page* relevance (docs/DECISIONS.md, issue 11: "relevance by a sentence embedding")
could buy at most through the crawler's own machinery, and what is left is the link
ranking's: finding the first answer. Prints, per site, the median pages-to-90% ÷ the
oracle's (from ``benchmarks/results/<site>-<query>.json``), the queries at 90% within the
budget and the mean recall at the own stop; writes ``--out`` (JSON, per query). Nothing
touches the network but 127.0.0.1. Measurement only: nothing is tuned on its numbers.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from docsites import (  # noqa: E402
    HELD_OUT,
    LIMIT,
    SITES,
    no_stop_crawl,
    no_stop_run,
    site_named,
)
from pagecache import shared_extraction  # noqa: E402

from pagesift_ui.bench.truth import url_key  # noqa: E402
from pagesift_ui.frontier import focus as focus_module  # noqa: E402
from pagesift_ui.frontier.relevance import PageSignal, RelevanceExplanation  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
#: The relevance an oracle gives an answer: well above ``EVIDENCE_RELEVANCE`` (0.15), so the
#: stop rules read it as evidence, and a strong positive for the link model.
ORACLE_RELEVANCE = 0.6
#: What ``lift`` adds to an answer's relevance.
LIFT = 0.2


def lifted(mode: str, relevance: float) -> float:
    if mode == "oracle":
        return max(relevance, ORACLE_RELEVANCE)
    if mode == "lift":
        return min(relevance + LIFT, 1.0)
    return relevance


def crawl(site_name: str, query: str, mode: str) -> dict[str, Any]:
    """One no-stop crawl: pages to 90%, and pages and recall at its own stop."""
    original = focus_module.Focus.explain_relevance
    with shared_extraction(), no_stop_crawl(site_name, query) as (truth, config):
        keys = frozenset(truth.keys)

        def explain(self: focus_module.Focus, signal: PageSignal) -> RelevanceExplanation:
            explanation = original(self, signal)
            if url_key(signal.url) in keys:
                explanation = dataclasses.replace(
                    explanation, relevance=lifted(mode, explanation.relevance))
            return explanation

        setattr(focus_module.Focus, "explain_relevance", explain)  # noqa: B010
        try:
            run = no_stop_run(truth, config)
        finally:
            setattr(focus_module.Focus, "explain_relevance", original)  # noqa: B010
    return {"pages_to_90": run.pages_to_90, "stop_pages": run.stop_pages,
            "stop_recall": run.stop_recall}


def oracle_pages_to_90(label: str) -> int:
    report = json.loads((RESULTS / f"{label}.json").read_text(encoding="utf-8"))
    oracle = next(c for c in report["crawlers"] if c["name"] == "oracle")
    return int(oracle["pages_to"]["90%"])


def summary(site_name: str, rows: dict[str, dict[str, Any]]) -> str:
    ratios, reached, recalls = [], 0, []
    for label, row in rows.items():
        ratios.append((row["pages_to_90"] or LIMIT + 1) / oracle_pages_to_90(label))
        reached += row["pages_to_90"] is not None
        recalls.append(row["stop_recall"])
    return (f"{site_name}: median pages-to-90% ÷ oracle {statistics.median(ratios):.2f} "
            f"(a query never at 90% counted at {LIMIT + 1} pages), {reached} of {len(rows)} "
            f"at 90%, mean recall at own stop {statistics.mean(recalls):.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("lexical", "lift", "oracle"), default="oracle")
    parser.add_argument("--site", action="append", choices=(*SITES, *HELD_OUT), required=True)
    parser.add_argument("--out", type=Path, help="per-query results (JSON)")
    args = parser.parse_args(argv)
    results: dict[str, dict[str, Any]] = {}
    for site_name in args.site:
        rows = {f"{site_name}-{query}": crawl(site_name, query, args.mode)
                for query in site_named(site_name).truth_names()}
        results.update(rows)
        print(f"{args.mode}: {summary(site_name, rows)}", flush=True)
    if args.out:
        args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
