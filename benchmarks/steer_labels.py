"""What a user's labels do to the dev-set crawls: pages to 90% with a simulated user (issue 11).

Run: ``nice -n 5 python3 benchmarks/steer_labels.py`` (about 4 minutes; ``--only pydocs``
for one site). Prints one table and writes ``benchmarks/results/steer.json``.

A relabel replaces the crawler's verdict on a page in every statistic that used it, the
queue's inputs among them (docs/DESIGN.md §8a, §12.3). This measures how far that steers a
crawl on real documentation: each dev query is crawled to the 200-page budget (default
settings, verdicts recorded and crawled past, as ``replay_stops.py``'s rows), three times:

- ``none``: no label (the crawl ``run_all.py`` measures; its pages to 90% must be the same);
- ``answers``: right after each step whose page is an answer of the query's truth and that the
  crawler called not relevant (relevance below ``EVIDENCE_RELEVANCE``), the user marks it
  relevant: what a person watching the crawl and recognising the answers would do;
- ``every page``: as ``answers``, and the pages the crawler called relevant that are not
  answers are marked not relevant: a user who checks every page.

The answers come from the truth files, so the simulated user knows what the truth knows; it
labels a page only once it has been fetched, as the app allows. Per policy: pages to 90%,
its median ÷ the oracle's (``benchmarks/results/<site>-<query>.json``), and the labels given.
Pages count as in ``run_all.py``: a duplicate is a step, not a page. Nothing touches the
network but 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from docsites import LIMIT, SITES, no_stop_crawl  # noqa: E402
from pagecache import shared_extraction  # noqa: E402

from pagesift_ui.bench.truth import found_keys  # noqa: E402
from pagesift_ui.frontier.adaptive import EVIDENCE_RELEVANCE  # noqa: E402
from pagesift_ui.net.fetcher import Fetcher  # noqa: E402
from pagesift_ui.session import CrawlSession  # noqa: E402
from pagesift_ui.session.record import StepOutcome  # noqa: E402

logger = logging.getLogger("steer_labels")

RESULTS = ROOT / "benchmarks" / "results"
POLICIES = ("none", "answers", "every page")


def crawl(site_name: str, name: str, policy: str) -> dict[str, Any]:
    """One crawl of a dev query under a labelling policy: pages to 90% and labels given."""
    with no_stop_crawl(site_name, name) as (truth, config):
        keys = frozenset(truth.keys)
        found: set[str] = set()
        pages, to_90, labels = 0, None, 0
        with CrawlSession(config, Fetcher(config.fetch_policy())) as session:
            for record in session.iter_steps():
                if record.outcome is not StepOutcome.DUPLICATE or pages == 0:
                    pages += 1
                hits = found_keys(record) & keys
                found |= hits
                if to_90 is None and len(found) >= 0.9 * len(keys) - 1e-9:
                    to_90 = pages
                if record.relevance is None or policy == "none" or session.done:
                    continue
                crawler_relevant = record.relevance >= EVIDENCE_RELEVANCE
                if hits and not crawler_relevant:
                    session.relabel(record.final_url, True)
                    labels += 1
                elif policy == "every page" and not hits and crawler_relevant:
                    session.relabel(record.final_url, False)
                    labels += 1
    return {"pages_to_90": to_90, "labels": labels}


def _commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    return done.stdout.strip() or "unknown"


def oracle_pages_to_90(label: str) -> int | None:
    report = json.loads((RESULTS / f"{label}.json").read_text())
    oracle = next(c for c in report["crawlers"] if c["name"] == "oracle")
    value = oracle["pages_to"]["90%"]
    return int(value) if value is not None else None


def summary(rows: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Per policy: the median of pages to 90% ÷ the oracle's (a crawl that never reached 90%
    counts as the budget + 1), queries at 90%, labels given."""
    out: dict[str, Any] = {}
    for policy in POLICIES:
        ratios, reached, labels = [], 0, 0
        for row in rows.values():
            result = row[policy]
            labels += result["labels"]
            pages = result["pages_to_90"]
            reached += pages is not None
            ratios.append((pages if pages is not None else LIMIT + 1) / row["oracle"])
        out[policy] = {"median_pages_to_90_over_oracle": round(statistics.median(ratios), 2),
                       "reached_90": reached, "queries": len(rows), "labels": labels}
    return out


def table(rows: dict[str, dict[str, Any]], totals: dict[str, Any]) -> str:
    lines = ["| query | oracle | " + " | ".join(POLICIES) + " |",
             "|---" * (2 + len(POLICIES)) + "|"]
    for label, row in rows.items():
        cells = []
        for policy in POLICIES:
            result = row[policy]
            pages = result["pages_to_90"] if result["pages_to_90"] is not None else "–"
            given = result["labels"]
            cells.append(f"{pages} ({given} label{'' if given == 1 else 's'})"
                         if policy != "none" else f"{pages}")
        lines.append(f"| {label} | {row['oracle']} | " + " | ".join(cells) + " |")
    lines.append("| **median ÷ oracle (at 90%, labels)** | | " + " | ".join(
        f"**{totals[p]['median_pages_to_90_over_oracle']}** ({totals[p]['reached_90']} of "
        f"{totals[p]['queries']}, {totals[p]['labels']})" for p in POLICIES) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=sorted(SITES),
                        help="a site (repeatable); default: both")
    parser.add_argument("--out", type=Path, default=RESULTS / "steer.json")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("pagesift_ui").setLevel(logging.WARNING)
    rows: dict[str, dict[str, Any]] = {}
    with shared_extraction():
        for site_name in args.only or sorted(SITES):
            site = SITES[site_name]
            if not site.installed():
                logger.warning("skipping %s: %s", site_name, site.missing)
                continue
            for name in site.truth_names():
                label = f"{site_name}-{name}"
                oracle = oracle_pages_to_90(label)
                if oracle is None:
                    continue
                rows[label] = {"oracle": oracle}
                for policy in POLICIES:
                    rows[label][policy] = crawl(site_name, name, policy)
                logger.info("%s: %s", label, {p: rows[label][p] for p in POLICIES})
    totals = summary(rows)
    args.out.write_text(json.dumps({"commit": _commit(), "queries": rows, "summary": totals},
                                   indent=1) + "\n")
    print(table(rows, totals))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
