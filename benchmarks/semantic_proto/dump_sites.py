"""Every page of each dev site as the crawler reads it, and the crawler's lexical relevance
of each page to each query under the whole site's statistics (a crawl has only the pages
read so far): the input of the semantic prototype (``NOTES.md``).

    python3 benchmarks/semantic_proto/dump_sites.py [--work /tmp/semantic_proto]

Writes ``WORK/sites.json``: per site, its pages (placeholder URL, title, headings, text)
and per query its text, truth URLs and the lexical relevance of every page.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from docsites import HELD_OUT, PLACEHOLDER, SITES  # noqa: E402

from pagesift_ui.frontier.query import Query  # noqa: E402
from pagesift_ui.frontier.relevance import FacetStats, page_signal  # noqa: E402
from pagesift_ui.page.extract import extract  # noqa: E402

logger = logging.getLogger("dump_sites")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/semantic_proto"))
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    args.work.mkdir(parents=True, exist_ok=True)
    out = {}
    for name, site in {**SITES, **HELD_OUT}.items():
        pages = []
        for path in sorted(site.docs.rglob("*.html")):
            url = PLACEHOLDER + path.relative_to(site.docs).as_posix()
            page = extract(path.read_bytes(), url)
            pages.append({"url": url, "title": page.title, "headings": list(page.headings),
                          "text": page.text})
        queries = {}
        for query_name in site.truth_names():
            truth = site.truth(query_name)
            query = Query(truth.query)
            signals = [page_signal(query, p["url"], p["title"], p["headings"], p["text"])
                       for p in pages]
            stats = FacetStats(query)
            for signal in signals:
                stats.observe(signal)
            queries[query_name] = {"query": truth.query, "truth": list(truth.urls),
                                   "lex": [stats.relevance(s) for s in signals]}
        out[name] = {"pages": pages, "queries": queries}
        logger.info("%s: %d pages, %d queries", name, len(pages), len(queries))
    (args.work / "sites.json").write_text(json.dumps(out), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
