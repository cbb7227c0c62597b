"""Which link-score terms lift non-truth links above truth links on the dev sets (issue 11).

Run: ``nice python3 benchmarks/analyse_ranking.py [--only pydocs] [--query asyncio]``. It changes
nothing in the crawler: the same focused crawl as ``run_all.py`` (200 pages, default settings),
and every ``EVERY`` steps a snapshot of the whole queue with each link's score explanation.
Per snapshot it takes the *blockers* (the links queued above the best queued truth link) and
compares their score terms with that truth link's. Writes JSON to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from docsites import LIMIT, SITES, rebase  # noqa: E402
from pagecache import shared_extraction  # noqa: E402

from pagesift_ui.bench.truth import url_key  # noqa: E402
from pagesift_ui.net.fetcher import Fetcher  # noqa: E402
from pagesift_ui.net.serve import StaticServer  # noqa: E402
from pagesift_ui.session import CrawlConfig, CrawlSession  # noqa: E402
from pagesift_ui.session.state import signal_of  # noqa: E402

TERMS = ("anchor", "locator", "context", "parent", "phrase", "siblings", "popularity", "family")
EVERY = 5


def terms_of(expl: dict[str, Any]) -> dict[str, float]:
    out = {t: 0.0 for t in TERMS}
    values = {}
    for f in expl["features"]:
        out[f["name"]] = f["contribution"]
        values[f["name"]] = f["value"]
    shape = 1.0
    depth = 1.0
    for s in expl["steps"]:
        if "depth" in s["rule"]:
            depth *= s["factor"]
        else:
            shape *= s["factor"]
    out["raw"] = expl["raw"]
    out["shape"] = shape
    out["depth"] = depth
    out["score"] = expl["score"]
    out["values"] = values
    out["rules"] = [s["rule"] for s in expl["steps"]]
    return out


def crawl(site, name, base, limit):
    truth = rebase(site.truth(name), base)
    keys = truth.keys
    config = CrawlConfig.from_mapping({"seed_url": truth.seed, "query": truth.query,
                                       "limit": limit, "delay_s": 0.0,
                                       "stop_on_verdict": False})
    pops, snaps = [], []
    with CrawlSession(config, Fetcher(config.fetch_policy())) as session:
        for record in session.iter_steps():
            key = url_key(record.url)
            pops.append({"page": record.pages_scheduled, "url": record.url.replace(base, "/"),
                         "truth": key in keys,
                         "terms": terms_of(record.link) if record.link else None})
            if record.step % EVERY == 0:
                rows = session.frontier(100_000)
                demoted = session.state.demoted_templates()
                sigs = {e.key: signal_of(e) for e in session.state.queue.top(100_000, demoted)}
                snaps.append({"page": record.pages_scheduled, "rows": [
                    {"url": r.url.replace(base, "/"), "truth": r.key in keys, "rank": r.rank,
                     "anchor": r.anchor, "depth": r.depth,
                     "terms": terms_of(r.explanation),
                     "ctx": bool(sigs[r.key].context) if sigs.get(r.key) else None,
                     "hub": bool(sigs[r.key].parent_is_hub) if sigs.get(r.key) else None,
                     "pr": sigs[r.key].parent_relevance if sigs.get(r.key) else None}
                    for r in rows if r.explanation]})
    return {"label": f"{site.name}-{name}", "query": truth.query, "pops": pops, "snaps": snaps}


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--only", action="append", default=None)
    p.add_argument("--query", action="append", default=None)
    p.add_argument("--out", type=Path, default=Path("/tmp/rank/analysis.json"))
    args = p.parse_args(argv)
    rows = []
    for sname in args.only or list(SITES):
        site = SITES[sname]
        with shared_extraction(), StaticServer(site.docs) as server:
            base = server.base_url() + "/"
            for q in site.truth_names():
                if args.query and q not in args.query:
                    continue
                t = time.perf_counter()
                rows.append(crawl(site, q, base, LIMIT))
                print(rows[-1]["label"], round(time.perf_counter() - t, 1), flush=True)
    args.out.write_text(json.dumps(rows), encoding="utf-8")


if __name__ == "__main__":
    main()
